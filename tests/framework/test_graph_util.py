"""Tests for sandbox/framework/graph_util.py (tf.graph_util): freezing a trained graph with
convert_variables_to_constants, extract_sub_graph, remove_training_nodes, must_run_on_cpu,
tensor_shape_from_node_def_name. The node lists and numbers are TF 2.15.1's (tf.compat.v1 with
disable_v2_behavior, so that variables are VariableV2 as in TF 1.15)."""
import numpy as np
import pytest

import sandbox as tf


def names_and_ops(graph_def):
    nodes = graph_def.node if hasattr(graph_def, "SerializeToString") else graph_def["node"]
    return [(n.name, n.op, list(n.input)) for n in nodes]


def build_and_train():
    """A softmax classifier after one training step; returns (sess, x, w)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 10, name="w")
    b = tf.get_variable("b", [2], initializer=tf.constant_initializer([0.5, -0.5]))
    probs = tf.nn.softmax(tf.add(tf.matmul(x, w), b, name="logits"), name="softmax")
    tf.check_numerics(probs, "bad", name="checked")
    tf.add(tf.identity(probs, name="ident"), 0., name="out")
    loss = tf.reduce_sum(tf.square(probs - [[1., 0.]]))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    tf.train.Saver()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    sess.run(train, {x: [[1., 2., 3.]]})
    return sess, x, w


# TF 2.15.1's frozen graph of the same program ('AddV2' there: the sandbox's tf.add is 'Add')
FROZEN = [("x", "Placeholder", []), ("w", "Const", []), ("w/read", "Identity", ["w"]),
          ("b", "Const", []), ("b/read", "Identity", ["b"]),
          ("MatMul", "MatMul", ["x", "w/read"]), ("logits", "Add", ["MatMul", "b/read"]),
          ("softmax", "Softmax", ["logits"])]


def test_freezing_keeps_what_the_outputs_need_with_variables_as_constants(tmp_path):
    sess, x, w = build_and_train()
    trained_w = sess.run(w)
    frozen = tf.graph_util.convert_variables_to_constants(sess, sess.graph_def, ["softmax"])
    assert names_and_ops(frozen) == FROZEN
    const_w = next(n for n in frozen["node"] if n["name"] == "w")
    np.testing.assert_array_equal(const_w["attr"]["value"], trained_w)
    assert const_w["attr"]["dtype"] == tf.float32
    assert any(n["op"] == "VariableV2" for n in sess.graph_def["node"])   # input unchanged

    feed = [[1., 2., 3.], [0., -1., 1.]]
    expected = sess.run("softmax:0", {x: feed})
    with tf.Graph().as_default():                  # loads and runs with no variable at all
        probs, = tf.import_graph_def(frozen, return_elements=["softmax:0"], name="")
        assert tf.global_variables() == []
        with tf.Session() as s2:
            np.testing.assert_allclose(s2.run(probs, {"x:0": feed}), expected, rtol=1e-6)

    path = tf.train.write_graph(frozen, str(tmp_path), "frozen.pb", as_text=False)
    proto = tf.GraphDef()
    with open(path, "rb") as f:
        proto.ParseFromString(f.read())
    with tf.Graph().as_default():                  # the file, parsed back, runs the same
        probs, = tf.import_graph_def(proto, return_elements=["softmax:0"], name="")
        with tf.Session() as s2:
            np.testing.assert_allclose(s2.run(probs, {"x:0": feed}), expected, rtol=1e-6)
    for node in proto.node:                        # as TF 2 freezes it: tf.add is AddV2
        if node.op == "Add":
            node.op = "AddV2"
    with tf.Graph().as_default():
        probs, = tf.import_graph_def(proto, return_elements=["softmax:0"], name="")
        assert probs.graph.get_operation_by_name("logits").type == "AddV2"
        with tf.Session() as s2:
            np.testing.assert_allclose(s2.run(probs, {"x:0": feed}), expected, rtol=1e-6)


def test_freezing_a_graph_def_protobuf_returns_one(tmp_path):
    sess, _, w = build_and_train()
    proto = tf.GraphDef()                          # read from a file, as a TF program would
    with open(tf.train.write_graph(sess.graph, str(tmp_path), "g.pb", as_text=False), "rb") as f:
        proto.ParseFromString(f.read())
    frozen = tf.graph_util.convert_variables_to_constants(sess, proto, ["softmax"])
    assert type(frozen) is type(proto)
    assert names_and_ops(frozen) == FROZEN
    const_w = next(n for n in frozen.node if n.name == "w")
    np.testing.assert_array_equal(tf.make_ndarray(const_w.attr["value"].tensor), sess.run(w))
    with tf.Graph().as_default():
        probs, = tf.import_graph_def(frozen, return_elements=["softmax:0"])
        with tf.Session() as s2:
            assert s2.run(probs, {"import/x:0": [[0., 0., 0.]]}).shape == (1, 2)


def test_whitelist_blacklist_extract_and_remove_training_nodes():
    sess, _, _ = build_and_train()
    gd = sess.graph_def
    convert = tf.graph_util.convert_variables_to_constants
    # TF 2.15.1's results
    only_w = convert(sess, gd, ["softmax"], variable_names_whitelist=["w"])
    assert [(n, op) for n, op, _ in names_and_ops(only_w)][1:4] == \
        [("w", "Const"), ("w/read", "Identity"), ("b", "VariableV2")]
    not_w = convert(sess, gd, ["softmax"], variable_names_blacklist=["w"])
    assert [(n, op) for n, op, _ in names_and_ops(not_w)][1:4] == \
        [("w", "VariableV2"), ("w/read", "Identity"), ("b", "Const")]
    assert len(tf.graph_util.extract_sub_graph(gd, ["logits"])["node"]) == 7
    stripped = tf.graph_util.remove_training_nodes(
        tf.graph_util.extract_sub_graph(gd, ["out", "checked"]))
    assert names_and_ops(stripped) == [
        ("x", "Placeholder", []), ("w", "VariableV2", []), ("b", "VariableV2", []),
        ("MatMul", "MatMul", ["x", "w"]), ("logits", "Add", ["MatMul", "b"]),
        ("softmax", "Softmax", ["logits"]), ("out/y", "Const", []),
        ("out", "Add", ["softmax", "out/y"])]
    kept = tf.graph_util.remove_training_nodes(gd, protected_nodes=["ident"])
    assert "ident" in [n for n, _, _ in names_and_ops(kept)]
    with pytest.raises(AssertionError, match="nope is not in graph"):
        tf.graph_util.extract_sub_graph(gd, ["nope"])
    with pytest.raises(TypeError, match="dest_nodes must be a list"):
        tf.graph_util.extract_sub_graph(gd, "softmax")
    with pytest.raises(TypeError, match="graph_def must be a graph_pb2.GraphDef proto"):
        tf.graph_util.extract_sub_graph(sess.graph, ["softmax"])


def test_must_run_on_cpu_and_tensor_shapes():
    sess, _, w = build_and_train()
    gu = tf.graph_util
    # TF 2.15.1's answers
    assert gu.must_run_on_cpu(tf.constant(1).op) is True
    assert gu.must_run_on_cpu(tf.constant("s").op) is True
    assert gu.must_run_on_cpu(tf.constant(1.).op) is False
    assert gu.must_run_on_cpu(w.op, pin_variables_on_cpu=True) is True
    assert gu.must_run_on_cpu(w.op) is False
    assert gu.must_run_on_cpu(tf.cast(tf.constant([1]), tf.float32).op) is True
    assert gu.tensor_shape_from_node_def_name(sess.graph, "x").as_list() == [None, 3]
    assert gu.tensor_shape_from_node_def_name(sess.graph, "logits:0").as_list() == [None, 2]
    assert tf.graph_util.import_graph_def is tf.import_graph_def
