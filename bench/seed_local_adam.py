"""The whole-script baseline of the foundation benchmark: the seed network (784-100-10,
sigmoid, random_normal init) trained with AdamOptimizer(1e-3), batch 100, 2 epochs, in one
process and a local Session -- a TF-1 program written as the tutorials write it, with the one
sandbox line `import sandbox as tf`.

bench/bench_foundation.py runs it as it is and, with that line turned into TensorFlow's
import, under a Python that has TensorFlow: the same program, timed whole (interpreter start
to exit) either way. MNIST comes as plain NumPy arrays in an .npz file that the benchmark writes
once, so that neither run pays for the other's data loader.

    python bench/seed_local_adam.py MNIST.npz [EPOCHS]
"""
import sys
import time

import numpy as np

import sandbox as tf

begin = time.perf_counter()
data = np.load(sys.argv[1])
train_x, train_y = data["train_images"], data["train_labels"]
test_x, test_y = data["test_images"], data["test_labels"]
epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
batch_size = 100

tf.set_random_seed(1)
x = tf.placeholder(tf.float32, shape=[None, 784], name="x-input")
y_ = tf.placeholder(tf.float32, shape=[None, 10], name="y-input")
W1 = tf.Variable(tf.random_normal([784, 100]))
W2 = tf.Variable(tf.random_normal([100, 10]))
b1 = tf.Variable(tf.zeros([100]))
b2 = tf.Variable(tf.zeros([10]))
a2 = tf.nn.sigmoid(tf.add(tf.matmul(x, W1), b1))
y = tf.nn.softmax(tf.add(tf.matmul(a2, W2), b2))
cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
train_op = tf.train.AdamOptimizer(1e-3).minimize(cross_entropy)
correct = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

order = np.random.RandomState(0)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(epochs):
        batches = order.permutation(len(train_x) // batch_size * batch_size)
        for batch in batches.reshape(-1, batch_size):
            _, cost = sess.run([train_op, cross_entropy],
                               feed_dict={x: train_x[batch], y_: train_y[batch]})
        print("Epoch: %d, cost: %.4f" % (epoch + 1, cost))
    print("Test-Accuracy: %.4f" % sess.run(accuracy, feed_dict={x: test_x, y_: test_y}))
print("Training Time: %.3fs" % (time.perf_counter() - begin))
