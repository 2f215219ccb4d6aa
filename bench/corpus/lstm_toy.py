"""Counting bits with an LSTM -- the toy sequence task of the TF-1 RNN tutorials: a sequence of
10 random bits goes through tf.nn.dynamic_rnn with a tf.nn.rnn_cell.BasicLSTMCell of 32 units,
and the last state's output is read out (plain tf.Variables, softmax) as the number of ones,
a class out of 0..10. Adam, batches of 64 from 5,000 training sequences; accuracy on 1,000
other sequences. The bits come from a NumPy generator seeded by --seed, the same for both.

    python bench/corpus/lstm_toy.py --sandbox|--tf [--steps N]
"""
import time

import corpus_common

args = corpus_common.parse_args(__doc__, steps=300)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
LENGTH, UNITS = 10, 32

train_x, train_y, test_x, test_y = corpus_common.counting_bits(args.seed, LENGTH)

tf.set_random_seed(args.seed)
x = tf.placeholder(tf.float32, [None, LENGTH, 1], name="bits")
labels = tf.placeholder(tf.int64, [None], name="count")
cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
readout = tf.Variable(tf.truncated_normal([UNITS, LENGTH + 1], stddev=0.1), name="readout")
bias = tf.Variable(tf.zeros([LENGTH + 1]), name="bias")
logits = tf.matmul(state.h, readout) + bias
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                      logits=logits))
train_op = tf.train.AdamOptimizer(1e-2).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))

stream = corpus_common.batches(len(train_x), 64, args.seed)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(args.steps):
        batch = next(stream)
        _, cost = sess.run([train_op, loss], {x: train_x[batch], labels: train_y[batch]})
    test_loss, test_acc = sess.run([loss, accuracy], {x: test_x, labels: test_y})
corpus_common.report(args, cost, test_acc, begin, test_loss=float(test_loss))
