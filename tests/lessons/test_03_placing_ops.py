"""Lesson 3's claims, measured on a real cluster: nested device scopes merge field by field; an
op that asks for no device lands on /job:ps/task:0 whichever task's master placed it (TF 1.15's
rule, which the sandbox keeps); a constant goes where its only consumer is; and every edge
between devices gets one _Send/_Recv pair -- what the lesson's README and notebook say."""
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster({"ps": 1, "worker": 2}) as started:
        yield started


def test_nested_scopes_merge_field_by_field():
    with tf.device("/job:worker/task:1"):
        with tf.device("/gpu:0"):
            a = tf.constant(1.0)
        with tf.device("/job:ps"):
            b = tf.constant(2.0)
        with tf.device(None):
            c = tf.constant(3.0)
    assert a.op.device == "/job:worker/task:1/device:GPU:0"
    assert b.op.device == "/job:ps/task:1"
    assert c.op.device == ""


@pytest.mark.parametrize("job, index", [("worker", 0), ("worker", 1), ("ps", 0)])
def test_an_op_without_a_device_lands_on_the_ps_whichever_master_places_it(cluster, job, index):
    with tf.device("/job:ps/task:0"):
        w = tf.Variable(2.0, name="w")
    with tf.device("/job:worker/task:1"):
        y = tf.multiply(w, 10.0, name="y")
    total = tf.add(y, 1.0, name="total")
    thirteen = tf.constant(13.0, name="thirteen")
    set_w = tf.assign(w, thirteen, name="set_w")
    with tf.Session(cluster.target(job, index)) as sess:
        sess.run(w.initializer)
        assert sess.run(total) == 21.0
        sess.run(set_w)
        placement = sess.placement
    ps = "/job:ps/replica:0/task:0/device:CPU:0"
    assert placement["total"][1] == ps
    assert placement["thirteen"][1] == ps
    assert placement["set_w"][1] == ps
    assert placement["y"][1] == "/job:worker/replica:0/task:1/device:CPU:0"


def test_each_edge_between_devices_gets_one_send_recv_pair(cluster):
    with tf.device("/job:ps/task:0"):
        w = tf.Variable(2.0, name="w")
    with tf.device("/job:worker/task:1"):
        y = tf.multiply(w, 10.0, name="y")
        z = tf.add(y, w, name="z")          # reads w again: still one transfer to worker 1
    total = tf.add(z, 1.0, name="total")    # back to the ps
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(w.initializer)
        metadata = tf.RunMetadata()
        sess.run(total, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                 run_metadata=metadata)
    ran = [(node.node_name, dev.device) for dev in metadata.step_stats.dev_stats
           for node in dev.node_stats]
    sends = sorted(n for n, _ in ran if n.endswith("/_Send"))
    recvs = sorted(n for n, _ in ran if n.endswith("/_Recv"))
    assert len(sends) == len(recvs) == 2, ran      # w/read -> worker 1, z -> ps
    assert [s[:-len("_Send")] for s in sends] == [r[:-len("_Recv")] for r in recvs]
