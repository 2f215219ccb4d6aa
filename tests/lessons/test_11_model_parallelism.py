"""Lesson 11's claim, measured on real clusters: split across two tasks, a model moves only
its cut's activations and their gradients (batch x width bytes each way), while data
parallelism moves every parameter and a gradient for it -- and the balance turns with the
batch size."""
import contextlib

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster

INPUTS, HIDDEN, CLASSES = 64, 32, 10
PARAM_BYTES = (INPUTS * HIDDEN + HIDDEN + HIDDEN * CLASSES + CLASSES) * 4


def _sent_between_tasks(cluster, tasks):
    total = 0
    for job, index in tasks:
        total += sum(n for kind, src, dst, n in cluster.traffic_totals(job, index)
                     if kind == "send")
    return total


def _on(device):
    """tf.device(device), or no scope at all (tf.device(None) would clear the outer one)."""
    return tf.device(device) if device else contextlib.nullcontext()


def _mlp(stage_1, stage_2, colocate):
    with _on(stage_1):
        x = tf.placeholder(tf.float32, [None, INPUTS])
        w1 = tf.get_variable("w1", [INPUTS, HIDDEN], initializer=tf.constant_initializer(0.01))
        b1 = tf.get_variable("b1", [HIDDEN], initializer=tf.zeros_initializer())
        hidden = tf.nn.sigmoid(tf.matmul(x, w1) + b1)
    with _on(stage_2):
        y = tf.placeholder(tf.float32, [None, CLASSES])
        w2 = tf.get_variable("w2", [HIDDEN, CLASSES], initializer=tf.constant_initializer(0.01))
        b2 = tf.get_variable("b2", [CLASSES], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=y, logits=tf.matmul(hidden, w2) + b2))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(
            loss, colocate_gradients_with_ops=colocate)
    return x, y, loss, train_op


def _bytes_per_step(cluster, tasks, sess, x, y, train_op, batch, steps=4):
    rng = np.random.RandomState(0)
    feed = {x: rng.rand(batch, INPUTS), y: np.eye(CLASSES)[rng.randint(0, CLASSES, batch)]}
    sess.run(train_op, feed)
    before = _sent_between_tasks(cluster, tasks)
    for _ in range(steps):
        sess.run(train_op, feed)
    return (_sent_between_tasks(cluster, tasks) - before) / steps


@pytest.fixture(scope="module")
def model_cluster():
    with LocalCluster({"worker": 2}) as started:
        yield started


@pytest.mark.parametrize("batch", [20, 200])
def test_model_parallelism_moves_the_activations_and_their_gradients(model_cluster, batch):
    x, y, loss, train_op = _mlp("/job:worker/task:0", "/job:worker/task:1", colocate=True)
    with tf.Session(model_cluster.target("worker", 0)) as sess:
        sess.run(tf.global_variables_initializer())
        measured = _bytes_per_step(model_cluster, [("worker", 0), ("worker", 1)], sess, x, y,
                                   train_op, batch)
    activations = 2 * batch * HIDDEN * 4
    assert activations <= measured <= activations + 64, (batch, measured)


def test_without_colocation_more_crosses(model_cluster):
    x, y, loss, train_op = _mlp("/job:worker/task:0", "/job:worker/task:1", colocate=False)
    with tf.Session(model_cluster.target("worker", 0)) as sess:
        sess.run(tf.global_variables_initializer())
        measured = _bytes_per_step(model_cluster, [("worker", 0), ("worker", 1)], sess, x, y,
                                   train_op, batch=20)
    assert measured > 2 * 20 * HIDDEN * 4 + 64 * 20 * 4, measured     # x and w1's gradient too


def test_data_parallelism_moves_every_parameter_twice_whatever_the_batch():
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:0",
                                                      cluster=cluster.cluster_spec)):
            x, y, loss, train_op = _mlp(None, None, colocate=False)
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(tf.global_variables_initializer())
            tasks = [("ps", 0), ("worker", 0)]
            small = _bytes_per_step(cluster, tasks, sess, x, y, train_op, batch=20)
            big = _bytes_per_step(cluster, tasks, sess, x, y, train_op, batch=200)
    for measured in (small, big):
        assert 2 * PARAM_BYTES <= measured <= 2 * PARAM_BYTES + 64, measured
