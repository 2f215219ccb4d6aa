"""MNIST through a tf.data input pipeline -- the "importing data" guide's pattern feeding the
tf.layers perceptron (784 -> 128 relu -> 10): Dataset.from_tensor_slices over placeholders
(so the arrays are not baked into the graph), shuffle, repeat, batch, an initializable
iterator; the test set goes through a second dataset with its own iterator.

    python bench/corpus/mnist_tfdata.py --sandbox|--tf [--data_dir DIR] [--steps N]
"""
import time

import corpus_common

args = corpus_common.parse_args(__doc__, steps=300)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
train_x, train_y, test_x, test_y = corpus_common.load_mnist(args.data_dir)

tf.set_random_seed(args.seed)
images = tf.placeholder(tf.float32, [None, 784], name="images")
digits = tf.placeholder(tf.int64, [None], name="digits")
train_set = (tf.data.Dataset.from_tensor_slices((images, digits))
             .shuffle(buffer_size=10000, seed=args.seed).repeat().batch(100))
test_set = tf.data.Dataset.from_tensor_slices((images, digits)).batch(10000)
train_iter = train_set.make_initializable_iterator()
test_iter = test_set.make_initializable_iterator()


def model(x):
    with tf.variable_scope("mlp", reuse=tf.AUTO_REUSE):
        hidden = tf.layers.dense(x, 128, activation=tf.nn.relu, name="hidden")
        return tf.layers.dense(hidden, 10, name="logits")


x, labels = train_iter.get_next()
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=model(x))
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
test_x_t, test_labels = test_iter.get_next()
test_logits = model(test_x_t)
test_loss = tf.losses.sparse_softmax_cross_entropy(labels=test_labels, logits=test_logits)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(test_logits, 1), test_labels),
                                  tf.float32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train_iter.initializer, {images: train_x, digits: train_y})
    for step in range(args.steps):
        _, cost = sess.run([train_op, loss])
    sess.run(test_iter.initializer, {images: test_x, digits: test_y})
    final_test_loss, test_acc = sess.run([test_loss, accuracy])
corpus_common.report(args, cost, test_acc, begin, test_loss=float(final_test_loss))
