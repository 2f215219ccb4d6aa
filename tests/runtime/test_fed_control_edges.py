"""A control dependency on a placeholder that is fed is satisfied by the feed (TF's
subgraph.cc FeedInputs moves such edges onto the feed node; runtime/executor.py prune drops
them) -- locally and when the master cuts the graph between tasks. Unfed, the placeholder
still asks to be fed."""
import pytest

import sandbox as tf
from bench.common import free_port


def _graph(x_device="", y_device=""):
    with tf.device(x_device):
        x = tf.placeholder(tf.float32, [], name="x")
    with tf.device(y_device), tf.control_dependencies([x]):
        y = tf.identity(tf.constant(2.0), name="y")
    return x, y


def test_locally():
    with tf.Graph().as_default():
        x, y = _graph()
        with tf.Session() as sess:
            assert sess.run(y, {x: 1.0}) == 2.0
            with pytest.raises(tf.errors.InvalidArgumentError, match="must feed a value for "
                               "placeholder tensor 'x'"):
                sess.run(y)


def test_metrics_mean_of_a_fed_placeholder():
    with tf.Graph().as_default():
        v = tf.placeholder(tf.float32, [None])
        mean, update = tf.metrics.mean(v)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run(update, {v: [1.0, 2.0]})
            sess.run(update, {v: [3.0, 5.0]})
            assert sess.run(mean) == pytest.approx(2.75)      # TF 2.15 gives 2.75


def test_across_tasks():
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                    "worker": [f"localhost:{free_port()}"]})
    ps = tf.train.Server(cluster, job_name="ps", task_index=0)
    worker = tf.train.Server(cluster, job_name="worker", task_index=0)
    try:
        with tf.Graph().as_default():
            x, y = _graph("/job:worker/task:0", "/job:ps/task:0")
            with tf.Session(worker.target) as sess:
                assert sess.run(y, {x: 1.0}) == 2.0
    finally:
        worker.stop()
        ps.stop()
