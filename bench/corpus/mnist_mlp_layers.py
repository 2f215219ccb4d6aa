"""MNIST with a two-layer perceptron built from tf.layers.dense -- the "getting started with
tf.layers" tutorial's model: 784 -> 128 (relu) -> 10, softmax cross-entropy from tf.losses,
Adam, batches of 100 fed through placeholders, test accuracy at the end.

    python bench/corpus/mnist_mlp_layers.py --sandbox|--tf [--data_dir DIR] [--steps N]
"""
import time

import corpus_common

args = corpus_common.parse_args(__doc__, steps=300)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
train_x, train_y, test_x, test_y = corpus_common.load_mnist(args.data_dir)

tf.set_random_seed(args.seed)
x = tf.placeholder(tf.float32, [None, 784], name="x")
labels = tf.placeholder(tf.int64, [None], name="labels")
hidden = tf.layers.dense(x, 128, activation=tf.nn.relu, name="hidden")
logits = tf.layers.dense(hidden, 10, name="logits")
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
correct = tf.equal(tf.argmax(logits, 1), labels)
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

stream = corpus_common.batches(len(train_x), 100, args.seed)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(args.steps):
        batch = next(stream)
        _, cost = sess.run([train_op, loss], {x: train_x[batch], labels: train_y[batch]})
    test_loss, test_acc = sess.run([loss, accuracy], {x: test_x, labels: test_y})
corpus_common.report(args, cost, test_acc, begin, test_loss=float(test_loss))
