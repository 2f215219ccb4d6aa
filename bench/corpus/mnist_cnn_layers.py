"""MNIST with a small convolutional network in tf.layers -- the "CNN with tf.layers"
tutorial's architecture, narrowed to run in seconds: conv 5x5x16 (relu, same) -> max-pool 2x2
-> conv 5x5x32 -> max-pool 2x2 -> flatten -> dense 128 (relu) -> dropout 0.4 (training only)
-> dense 10; softmax cross-entropy, Adam, batches of 50, accuracy on 2,000 test digits.

    python bench/corpus/mnist_cnn_layers.py --sandbox|--tf [--data_dir DIR] [--steps N]
"""
import time

import corpus_common

args = corpus_common.parse_args(__doc__, steps=100)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
train_x, train_y, test_x, test_y = corpus_common.load_mnist(args.data_dir)
test_x, test_y = test_x[:2000], test_y[:2000]

tf.set_random_seed(args.seed)
x = tf.placeholder(tf.float32, [None, 784], name="x")
labels = tf.placeholder(tf.int64, [None], name="labels")
training = tf.placeholder_with_default(False, [], name="training")
images = tf.reshape(x, [-1, 28, 28, 1])
conv1 = tf.layers.conv2d(images, filters=16, kernel_size=[5, 5], padding="same",
                         activation=tf.nn.relu)
pool1 = tf.layers.max_pooling2d(conv1, pool_size=[2, 2], strides=2)
conv2 = tf.layers.conv2d(pool1, filters=32, kernel_size=[5, 5], padding="same",
                         activation=tf.nn.relu)
pool2 = tf.layers.max_pooling2d(conv2, pool_size=[2, 2], strides=2)
flat = tf.layers.flatten(pool2)
dense = tf.layers.dense(flat, 128, activation=tf.nn.relu)
dropout = tf.layers.dropout(dense, rate=0.4, training=training)
logits = tf.layers.dense(dropout, 10)
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))

stream = corpus_common.batches(len(train_x), 50, args.seed)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(args.steps):
        batch = next(stream)
        _, cost = sess.run([train_op, loss], {x: train_x[batch], labels: train_y[batch],
                                              training: True})
    test_loss, test_acc = sess.run([loss, accuracy], {x: test_x, labels: test_y})
corpus_common.report(args, cost, test_acc, begin, test_loss=float(test_loss))
