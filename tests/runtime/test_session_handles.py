"""Tensors kept in a session between runs (ops/session_ops.py): what TensorFlow 2.15.1 printed
for the local program, and the same on a cluster, where the value stays on the ps."""
import gc

import numpy as np
import pytest

import sandbox as tf


def test_a_handle_keeps_a_value_in_the_session_until_deleted():
    c = tf.constant([[1.0, 2.0], [3.0, 4.0]]) * 2.0
    h = tf.get_session_handle(c)
    with tf.Session() as sess:
        handle = sess.run(h)
        assert type(handle).__name__ == "TensorHandle"
        assert handle.handle.split(";")[0] == "GetSessionHandle"
        assert handle.handle.endswith("/job:localhost/replica:0/task:0/device:CPU:0")
        holder, value = tf.get_session_tensor(handle.handle, tf.float32)
        np.testing.assert_allclose(sess.run(value + 1, {holder: handle.handle}),
                                   [[3, 5], [7, 9]])
        np.testing.assert_allclose(sess.run(value, {holder: handle}), [[2, 4], [6, 8]])
        np.testing.assert_allclose(handle.eval(), [[2, 4], [6, 8]])
        first, second = sess.run([h, h])                 # one fetch: one value, one handle
        assert first.handle == second.handle
        handle.delete()
        with pytest.raises(tf.errors.InvalidArgumentError, match="does not exist"):
            sess.run(value, {holder: handle.handle})
        with pytest.raises(ValueError, match="not a session tensor handle"):
            tf.get_session_tensor("nonsense", tf.float32)


def test_dead_handles_are_deleted_in_batches_of_ten():
    h = tf.get_session_handle(tf.constant(1.0))
    with tf.Session() as sess:
        for _ in range(10):
            sess.run(h)                                  # each handle dropped at once
        gc.collect()
        assert len(sess._dead_handles) == 10
        kept = sess.run(h)                               # the next run deletes them first
        assert sess._dead_handles == [] and kept.eval() == 1.0


def test_a_handle_on_a_ps_stays_there(local_cluster):
    cluster = local_cluster(ps=1, worker=1)
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:ps/task:0"):
            kept = tf.get_session_handle(tf.range(6.0) * 3.0)
        with tf.Session(cluster.target("worker", 0)) as sess:
            handle = sess.run(kept)
            assert handle.handle.endswith("/job:ps/replica:0/task:0/device:CPU:0")
            holder, value = tf.get_session_tensor(handle, tf.float32)
            total = tf.reduce_sum(value)                 # computed on the ps, where it is
            assert value.device == "/job:ps/replica:0/task:0/device:CPU:0"
            assert sess.run(total, {holder: handle}) == 45.0
            handle.delete()
