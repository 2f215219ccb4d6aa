"""tf.NodeDef as device functions and programs see it: op.node_def answers .name, .op, .device,
.input and .attr like TF's protobuf, and stays the dict the runtime reads."""
import pickle

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


def _ps_for_variables(op):
    """The TF-1 device function of many tutorials (TF 1.15 sees op.node_def.op == 'VariableV2'
    for tf.Variable and tf.get_variable)."""
    return "/job:ps/task:0" if op.node_def.op in ("Variable", "VariableV2") \
        else "/job:worker/task:0"


def test_node_def_fields_as_attributes_and_keys():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0, name="a")
        c = tf.constant(1.0, name="c")
        with tf.control_dependencies([a, c]):
            b = tf.add(a, a, name="b")
    nd = b.op.node_def
    assert isinstance(nd, tf.NodeDef) and isinstance(nd, dict)
    assert (nd.name, nd.op, nd.device) == ("b", "Add", "")
    assert nd["name"] == "b" and nd["op"] == "Add"
    assert list(nd.input) == ["a", "a", "^c"]   # measured in TF 1.15 (a is an input already)
    assert nd.attr["T"] == tf.float32
    with pytest.raises(AttributeError, match="fields"):
        nd.nonsense                                     # noqa: B018
    copy = pickle.loads(pickle.dumps(nd))
    assert isinstance(copy, tf.NodeDef) and copy == nd and copy.op == "Add"


def test_node_def_is_a_snapshot_and_prints_like_the_protobuf():
    with tf.Graph().as_default():
        with tf.device("/job:worker/task:1"):
            c = tf.constant(2.0, name="c")
        text = str(c.op.node_def)
        assert 'name: "c"' in text and 'op: "Const"' in text
        assert 'device: "/job:worker/task:1"' in text
        nd = tf.NodeDef(name="x", op="NoOp")
        nd.device = "/job:ps/task:0"
        assert nd["device"] == "/job:ps/task:0" and nd.input == [] and nd.attr == {}


def test_device_function_reads_node_def_op():
    with tf.Graph().as_default():
        with tf.device(_ps_for_variables):
            v = tf.Variable(1.0, name="v")
            w = tf.get_variable("w", [2], initializer=tf.zeros_initializer())
            y = v * 3.0 + tf.reduce_sum(w)
        assert v.op.device == "/job:ps/task:0"
        assert w.op.device == "/job:ps/task:0"
        assert y.op.device == "/job:worker/task:0"


def test_device_function_on_a_real_cluster_puts_the_variable_on_the_ps():
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.Graph().as_default():
            with tf.device(_ps_for_variables):
                v = tf.Variable(np.float32(2.0), name="v")
                inc = v.assign_add(1.0)
                y = v * 10.0
            with tf.Session(cluster.target("worker", 0)) as sess:
                sess.run(v.initializer)
                sess.run(inc)
                assert sess.run(y) == pytest.approx(30.0)
        with tf.Graph().as_default():             # a second client sees the ps's value
            with tf.device("/job:ps/task:0"):
                v2 = tf.Variable(np.float32(0.0), name="v")
            with tf.Session(cluster.target("worker", 0)) as sess:
                assert sess.run(v2) == pytest.approx(3.0)
