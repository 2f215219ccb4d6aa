"""Counting bits with a recurrent net written by hand -- tf.while_loop and tf.TensorArray, as
the TF-1 tutorials on dynamic RNNs unroll one: a vanilla RNN cell h_t = tanh(x_t W + h_{t-1} U
+ b) of 32 units steps over a sequence of 10 random bits (unstacked, time major, into a
TensorArray), writing each h_t into an output TensorArray; the stacked outputs' last step is
read out (softmax) as the number of ones, a class out of 0..10 -- lstm_toy.py's task and data.
Adam, batches of 64 from 5,000 training sequences; accuracy on 1,000 other sequences. The bits
come from a NumPy generator seeded by --seed, the same for both.

    python bench/corpus/tensor_array_rnn.py --sandbox|--tf [--steps N]
"""
import time

import numpy as np

import corpus_common

args = corpus_common.parse_args(__doc__, steps=300)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
LENGTH, UNITS = 10, 32

train_x, train_y, test_x, test_y = corpus_common.counting_bits(args.seed, LENGTH)

tf.set_random_seed(args.seed)
x = tf.placeholder(tf.float32, [None, LENGTH, 1], name="bits")
labels = tf.placeholder(tf.int64, [None], name="count")

W = tf.Variable(tf.truncated_normal([1, UNITS], stddev=0.5), name="W")
U = tf.Variable(tf.truncated_normal([UNITS, UNITS], stddev=1.0 / np.sqrt(UNITS)), name="U")
b = tf.Variable(tf.zeros([UNITS]), name="b")

steps = tf.shape(x)[1]
inputs = tf.TensorArray(tf.float32, size=steps).unstack(tf.transpose(x, [1, 0, 2]))
outputs = tf.TensorArray(tf.float32, size=steps)
h0 = tf.zeros(tf.stack([tf.shape(x)[0], UNITS]))


def body(t, h, out):
    h = tf.tanh(tf.matmul(inputs.read(t), W) + tf.matmul(h, U) + b)
    return t + 1, h, out.write(t, h)


_, last_h, outputs = tf.while_loop(lambda t, h, out: t < steps, body,
                                   (tf.constant(0), h0, outputs))
hidden = outputs.stack()                         # [time, batch, units]
readout = tf.Variable(tf.truncated_normal([UNITS, LENGTH + 1], stddev=0.1), name="readout")
bias = tf.Variable(tf.zeros([LENGTH + 1]), name="bias")
logits = tf.matmul(hidden[-1], readout) + bias
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
