"""MNIST read row by row by a bidirectional LSTM -- the "bidirectional_rnn" example of the TF-1
tutorial collections: each image is 28 time steps of 28 pixels, tf.unstack makes them a list,
tf.nn.static_bidirectional_rnn runs a forward and a backward tf.nn.rnn_cell.BasicLSTMCell
(what `from tensorflow.contrib import rnn` gave as rnn.BasicLSTMCell) over it, and the last
step's concatenated output goes through a plain tf.Variable softmax layer. Adam on batches of
64; accuracy on the test set.

    python bench/corpus/mnist_birnn.py --sandbox|--tf [--data_dir DIR] [--steps N]
"""
import time

import corpus_common

args = corpus_common.parse_args(__doc__, steps=100)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
train_x, train_y, test_x, test_y = corpus_common.load_mnist(args.data_dir)
TIMESTEPS, NUM_INPUT, NUM_HIDDEN, NUM_CLASSES = 28, 28, 32, 10

tf.set_random_seed(args.seed)
X = tf.placeholder(tf.float32, [None, TIMESTEPS, NUM_INPUT], name="rows")
Y = tf.placeholder(tf.int64, [None], name="digits")
weights = tf.Variable(tf.random_normal([2 * NUM_HIDDEN, NUM_CLASSES]), name="out_weights")
biases = tf.Variable(tf.random_normal([NUM_CLASSES]), name="out_biases")

steps = tf.unstack(X, TIMESTEPS, 1)
lstm_fw_cell = tf.nn.rnn_cell.BasicLSTMCell(NUM_HIDDEN, forget_bias=1.0)
lstm_bw_cell = tf.nn.rnn_cell.BasicLSTMCell(NUM_HIDDEN, forget_bias=1.0)
outputs, _, _ = tf.nn.static_bidirectional_rnn(lstm_fw_cell, lstm_bw_cell, steps,
                                               dtype=tf.float32)
logits = tf.matmul(outputs[-1], weights) + biases
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=Y, logits=logits))
train_op = tf.train.AdamOptimizer(learning_rate=0.01).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), Y), tf.float32))

stream = corpus_common.batches(len(train_x), 64, args.seed)
test_images = test_x[:2000].reshape(-1, TIMESTEPS, NUM_INPUT)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(args.steps):
        batch = next(stream)
        _, cost = sess.run([train_op, loss], {X: train_x[batch].reshape(-1, TIMESTEPS, NUM_INPUT),
                                              Y: train_y[batch]})
    test_loss, test_acc = sess.run([loss, accuracy], {X: test_images, Y: test_y[:2000]})
corpus_common.report(args, cost, test_acc, begin, test_loss=float(test_loss),
                     last_output=outputs[-1].name)
