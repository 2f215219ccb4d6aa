"""Sparse gradients on a real cluster (1 ps + 1 worker, separate processes, real sockets): the
ps's trace shows that only the batch's rows (100 x 64 float32) and their ids (100 int32) travel
from the worker for a 100,000 x 64 embedding's gradient -- never the 25.6 MB dense gradient,
unless the program makes it dense itself (tf.convert_to_tensor) before apply_gradients."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster

ROWS, DIM, BATCH = 100000, 64, 100
WORKER, PS = "/job:worker/replica:0/task:0", "/job:ps/replica:0/task:0"
CONFIG = tf.ConfigProto(operation_timeout_in_ms=30000)


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        yield c


def _model(make_optimizer):
    with tf.device(tf.train.replica_device_setter(ps_tasks=1)):
        emb = tf.get_variable("embedding", [ROWS, DIM], initializer=tf.ones_initializer())
        ids = tf.placeholder(tf.int32, [BATCH], name="ids")
        rows = tf.nn.embedding_lookup(emb, ids)
        loss = tf.reduce_sum(rows * 2.0)
        opt = make_optimizer()
        (grad, var), = opt.compute_gradients(loss, [emb])
        sparse = opt.apply_gradients([(grad, var)], name="sparse_step")
        dense = opt.apply_gradients([(tf.convert_to_tensor(grad), var)], name="dense_step")
        probe = tf.gather(emb, [0, 7, 1])
    assert isinstance(grad, tf.IndexedSlices)
    return emb, ids, sparse, dense, probe


def _received_by_ps(cluster, sess, op, feed):
    """The tensors the ps received from the worker while `op` ran once: [(name, bytes)]."""
    since = max([r.seq for r in cluster.trace("ps", 0)], default=0)
    sess.run(op, feed)
    return [(r.tensor, r.nbytes) for r in cluster.trace("ps", 0, since)
            if r.kind == "recv" and r.src == WORKER and r.dst == PS]


def test_only_the_batch_rows_and_ids_cross_to_the_ps(cluster):
    emb, ids, sparse, dense, probe = _model(lambda: tf.train.GradientDescentOptimizer(0.5))
    batch = (np.arange(BATCH) * 7).astype(np.int32)        # rows 0, 7, 14, ... (row 1 not)
    with tf.Session(cluster.target("worker", 0), config=CONFIG) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(sparse, {ids: batch})                      # the first step plans the graph
        received = _received_by_ps(cluster, sess, sparse, {ids: batch})
        np.testing.assert_array_equal(sess.run(probe)[:, 0], [-1.0, -1.0, 1.0])
        got = dict(received)
        assert got["gradients/embedding_lookup_grad/Reshape:0"] == BATCH * DIM * 4
        assert got["gradients/embedding_lookup_grad/Reshape_1:0"] == BATCH * 4
        total = sum(nbytes for _, nbytes in received)
        assert total <= BATCH * DIM * 4 + BATCH * 4 + 64, received
        # ... where the same gradient made dense on the worker sends every row
        sess.run(dense, {ids: batch})
        received = _received_by_ps(cluster, sess, dense, {ids: batch})
        assert max(nbytes for _, nbytes in received) == ROWS * DIM * 4
        np.testing.assert_array_equal(sess.run(probe)[:, 0], [-3.0, -3.0, 1.0])


def test_momentum_sums_repeated_ids_on_the_ps(cluster):
    """The summing of repeated ids (Unique, UnsortedSegmentSum) runs beside the variable:
    the rows cross the wire as the worker computed them, one per id."""
    emb, ids, sparse, _, probe = _model(lambda: tf.train.MomentumOptimizer(0.5, 0.9))
    batch = np.zeros(BATCH, np.int32)                       # every id is row 0
    with tf.Session(cluster.target("worker", 0), config=CONFIG) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(sparse, {ids: batch})
        np.testing.assert_allclose(sess.run(probe)[:, 0], [1.0 - 0.5 * 200.0, 1.0, 1.0])
        received = _received_by_ps(cluster, sess, sparse, {ids: batch})
    assert sum(nbytes for _, nbytes in received) <= BATCH * DIM * 4 + BATCH * 4 + 64
    # accum = 0.9 * 200 + 200 = 380; var = -99 - 0.5 * 380
    np.testing.assert_allclose(_read_on_the_ps(cluster, emb), -99.0 - 190.0)


def _read_on_the_ps(cluster, emb):
    """emb[0, 0] read by a fresh session of the ps itself (no worker involved)."""
    with tf.Session(cluster.target("ps", 0), config=CONFIG) as sess:
        return sess.run(emb[0, 0])
