"""Exercise 2 -- push only the rows you used (solution: tf.nn.embedding_lookup).

build_model() below picks the rows of a 100,000 x 64 embedding with a one-hot matrix product:
tf.matmul(tf.one_hot(ids, ROWS), embedding). The numbers are right, but the gradient of a
MatMul is a dense [100000, 64] tensor: on a cluster every worker would push all 25.6 MB to the
ps at every step, 99.9 % of it zeros. Run this file: it prints the gradient's type and size.

TODO: change build_model so that the embedding's gradient is a tf.IndexedSlices of the rows
used (100 rows and their ids: 26,000 bytes): look the ids up with tf.nn.embedding_lookup.
The loss must stay the same.

Check: pytest lessons/06_between_graph_replication -k sparse
(the check trains 3 steps on a real 1 ps + 1 worker cluster and reads, in the ps's trace, how
many bytes the ps received from the worker per step)
"""
import numpy as np

import sandbox as tf

ROWS, DIM, BATCH = 100000, 64, 100


def build_model(ids):
    """The loss of a batch of ids: the mean square of its embedding rows minus 1."""
    embedding = tf.get_variable("embedding", [ROWS, DIM],
                                initializer=tf.random_uniform_initializer(-0.05, 0.05, seed=1))
    rows = tf.nn.embedding_lookup(embedding, ids)
    return tf.reduce_mean(tf.square(rows - 1.0)), embedding


def main():
    ids = tf.placeholder(tf.int32, [BATCH], name="ids")
    loss, embedding = build_model(ids)
    gradient = tf.gradients(loss, [embedding])[0]
    feed = {ids: np.arange(BATCH) * 997 % ROWS}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("loss: %.6f" % sess.run(loss, feed))
        if isinstance(gradient, tf.IndexedSlices):
            values, indices = sess.run([gradient.values, gradient.indices], feed)
            nbytes = values.nbytes + indices.nbytes
            print("the gradient is a tf.IndexedSlices: %d rows and their ids" % len(indices))
        else:
            nbytes = sess.run(gradient, feed).nbytes
            print("the gradient is a dense tensor of shape %s" % gradient.shape)
        print("a worker would push %s bytes per step for it" % "{:,}".format(nbytes))


if __name__ == "__main__":
    main()
