"""Lesson 5's mechanisms, measured on a real cluster: towers on simulated GPUs share one set
of variables on the ps, their averaged gradient is the whole batch's, and a tensor crosses
the wire once per device that reads it (so a worker with two towers pulls the parameters
twice) -- what the lesson's README and notebook say."""
import collections

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


def _towers(num_workers, num_gpus, batch=8):
    towers = ["/job:worker/task:%d/gpu:%d" % (t, g)
              for t in range(num_workers) for g in range(num_gpus)]
    rng = np.random.RandomState(0)
    with tf.device("/job:worker/task:0/cpu:0"):
        x = tf.constant(rng.rand(batch, 6).astype(np.float32))
        y = tf.constant(rng.rand(batch, 1).astype(np.float32))
        xs, ys = tf.split(x, len(towers)), tf.split(y, len(towers))
    opt = tf.train.GradientDescentOptimizer(0.1)
    grads = []
    with tf.variable_scope(tf.get_variable_scope()):
        for i, device in enumerate(towers):
            with tf.device(device), tf.name_scope("tower_%d" % i):
                with tf.device("/job:ps/task:0/cpu:0"):
                    w = tf.get_variable("w", [6, 1], initializer=tf.constant_initializer(0.5))
                loss = tf.reduce_mean(tf.square(tf.matmul(xs[i], w) - ys[i]))
                tf.get_variable_scope().reuse_variables()
                grads.append(opt.compute_gradients(loss, [w]))
    with tf.device("/job:worker/task:0/cpu:0"):
        average = tf.reduce_mean(tf.concat([tf.expand_dims(g[0][0], 0) for g in grads], 0), 0)
        full = tf.gradients(tf.reduce_mean(tf.square(tf.matmul(x, w) - y)), [w])[0]
    return w, average, full, opt.apply_gradients([(average, w)])


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster({"ps": 1, "worker": 2}, num_gpus=2) as started:
        yield started


def _sent(cluster, job, index):
    counted = collections.Counter()
    for kind, src, dst, nbytes in cluster.traffic_totals(job, index):
        if kind == "send":
            counted[dst.replace("/replica:0", "")] += nbytes
    return counted


def test_four_towers_share_one_variable_and_average_to_the_full_batch_gradient(cluster):
    w, average, full, train_op = _towers(num_workers=2, num_gpus=2)
    assert [v.op.name for v in tf.trainable_variables()] == ["w"]
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(w.initializer)
        mine, theirs = sess.run([average, full])
        np.testing.assert_allclose(mine, theirs, rtol=1e-5)
        sess.run(train_op)
        np.testing.assert_allclose(sess.run(w), 0.5 - 0.1 * theirs, rtol=1e-5)
        devices = set(sess.placement[name][1] for name in sess.placement
                      if name.startswith("tower_") and name.endswith("/MatMul"))
    assert devices == {"/job:worker/replica:0/task:%d/device:GPU:%d" % (t, g)
                       for t in range(2) for g in range(2)}


def test_the_ps_sends_a_worker_the_variable_once_per_tower(cluster):
    w, average, full, train_op = _towers(num_workers=2, num_gpus=2)
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(w.initializer)
        sess.run(train_op)
        before = _sent(cluster, "ps", 0)
        for _ in range(5):
            sess.run(train_op)
        after = _sent(cluster, "ps", 0)
    w_bytes = 6 * 4
    for worker in ("/job:worker/task:0", "/job:worker/task:1"):
        per_step = (after[worker] - before[worker]) / 5
        assert per_step == 2 * w_bytes, (worker, per_step)   # two towers: two copies
