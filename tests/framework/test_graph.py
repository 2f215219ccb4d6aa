"""Graphs, names, scopes, collections and control dependencies (TF 1.x semantics)."""
import pytest

import sandbox as tf


def test_unique_names_like_tf():
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    c = tf.add(a, b)
    d = tf.add(a, b)
    assert [a.name, b.name, c.name, d.name] == ["Const:0", "Const_1:0", "Add:0", "Add_1:0"]
    assert c.op.name == "Add" and c.op.type == "Add"
    e = tf.constant(3.0, name="x")
    f = tf.constant(3.0, name="x")
    g = tf.constant(3.0, name="x_1")
    assert (e.op.name, f.op.name, g.op.name) == ("x", "x_1", "x_1_1")


def test_name_scopes():
    with tf.name_scope("layer1") as scope:
        assert scope == "layer1/"
        a = tf.constant(1.0, name="w")
        with tf.name_scope("inner"):
            b = tf.constant(1.0)
    with tf.name_scope("layer1"):
        c = tf.constant(1.0, name="w")
    with tf.name_scope("layer1/"):            # re-enter exactly
        d = tf.constant(1.0, name="z")
    with tf.name_scope("layer1"):
        with tf.name_scope(None):              # back to the top level
            e = tf.constant(1.0, name="top")
    assert a.name == "layer1/w:0"
    assert b.name == "layer1/inner/Const:0"
    assert c.name == "layer1_1/w:0"
    assert d.name == "layer1/z:0"
    assert e.name == "top:0"


def test_name_scope_with_default_name_and_values():
    a = tf.constant(1.0)
    with tf.name_scope(None, "my_op", [a]) as scope:
        assert scope == "my_op/"


def test_invalid_op_name():
    with pytest.raises(ValueError, match="not a valid"):
        tf.constant(1.0, name="bad name!")


def test_operation_and_tensor_properties():
    a = tf.constant([[1.0, 2.0]], name="a")
    b = tf.identity(a, name="b")
    assert isinstance(b.op, tf.Operation)
    assert b.op.inputs == (a,)
    assert b.op.outputs == [b]
    assert a.consumers() == [b.op]
    assert b.dtype == tf.float32
    assert b.get_shape().as_list() == [1, 2]
    assert b.shape == tf.TensorShape([1, 2])
    assert b.graph is tf.get_default_graph()
    assert b.value_index == 0
    assert b.op.node_def["input"] == ["a"]
    assert "Tensor(\"b:0\", shape=(1, 2), dtype=float32)" == str(b)


def test_graph_lookup_by_name():
    a = tf.constant(1.0, name="a")
    g = tf.get_default_graph()
    assert g.get_tensor_by_name("a:0") is a
    assert g.get_operation_by_name("a") is a.op
    with pytest.raises(KeyError, match="does not exist"):
        g.get_tensor_by_name("nope:0")
    with pytest.raises(ValueError, match="Did you mean 'a:0'"):
        g.get_tensor_by_name("a")


def test_default_graph_and_as_default():
    g1 = tf.get_default_graph()
    g2 = tf.Graph()
    with g2.as_default():
        assert tf.get_default_graph() is g2
        c = tf.constant(1.0)
    assert c.graph is g2
    assert tf.get_default_graph() is g1
    with g2.as_default():
        with pytest.raises(AssertionError):
            tf.reset_default_graph()
    tf.reset_default_graph()
    assert tf.get_default_graph() is not g1


def test_mixing_graphs_is_an_error():
    g2 = tf.Graph()
    with g2.as_default():
        a = tf.constant(1.0)
    b = tf.constant(2.0)
    with pytest.raises(ValueError, match="same graph"):
        tf.add(a, b)


def test_collections():
    tf.add_to_collection("losses", 1)
    tf.add_to_collections(["a", "b"], 2)
    assert tf.get_collection("losses") == [1]
    assert tf.get_collection("a") == [2] and tf.get_collection("b") == [2]
    ref = tf.get_collection_ref("a")
    ref.append(3)
    assert tf.get_collection("a") == [2, 3]
    v = tf.Variable(1.0, name="layer/w")
    u = tf.Variable(1.0, name="other/w", trainable=False)
    assert tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES) == [v, u]
    assert tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES) == [v]
    assert tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope="layer") == [v]
    assert tf.global_variables() == [v, u] and tf.trainable_variables() == [v]


def test_control_dependencies():
    a = tf.constant(1.0, name="a")
    b = tf.constant(2.0, name="b")
    with tf.control_dependencies([a]):
        c = tf.identity(b, name="c")
        d = tf.identity(c, name="d")        # dominated: c already waits for a
        with tf.control_dependencies(None):
            e = tf.identity(b, name="e")
        with tf.control_dependencies([b.op]):
            f = tf.identity(b, name="f")    # b is an input: not added again
    assert c.op.control_inputs == [a.op]
    assert d.op.control_inputs == []
    assert e.op.control_inputs == []
    assert f.op.control_inputs == [a.op]
    assert "^a" in c.op.node_def["input"]


def test_control_dependency_runs_the_dependency():
    v = tf.Variable(0.0, name="v")
    inc = v.assign_add(1.0)
    with tf.control_dependencies([inc]):
        out = tf.no_op()
    grouped = tf.group(inc, name="grouped")
    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(out)
        sess.run(grouped)
        assert sess.run(v) == 2.0
    assert grouped.name == "grouped"


def test_finalize_blocks_new_ops():
    g = tf.get_default_graph()
    g.finalize()
    with pytest.raises(RuntimeError, match="finalized"):
        tf.constant(1.0)


def test_tensor_bool_and_len_are_errors():
    a = tf.constant([1.0, 2.0])
    with pytest.raises(TypeError, match="Python `bool`"):
        bool(a)
    with pytest.raises(TypeError):
        len(a)


def test_tensor_shape_api():
    s = tf.TensorShape([None, 784])
    assert s.as_list() == [None, 784]
    assert str(s) == "(?, 784)"
    assert s[1].value == 784 and int(s[1]) == 784
    assert s.is_compatible_with([100, 784]) and not s.is_compatible_with([100, 785])
    assert not s.is_fully_defined()
    assert tf.TensorShape(None).ndims is None
    assert s.merge_with([5, None]).as_list() == [5, 784]


def test_dtypes():
    assert tf.as_dtype("float32") is tf.float32
    assert tf.as_dtype(float) is tf.float32
    assert tf.float32_ref.base_dtype is tf.float32
    assert tf.float32.is_floating and tf.int32.is_integer and tf.bool.is_bool
    assert tf.as_dtype(tf.int64.as_numpy_dtype) is tf.int64
    for name in ("float16", "float32", "float64", "int32", "int64", "uint8", "bool", "string"):
        assert tf.as_dtype(name).name == name
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.as_dtype("float33")
    assert tf.constant(1.0).dtype == tf.float32
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant("hi").dtype == tf.string
    assert tf.constant(True).dtype == tf.bool


def test_bytes_constants_keep_their_trailing_nul_bytes():
    # NumPy's fixed-width bytes would drop them; TF keeps every byte (decode_raw needs them).
    with tf.Session() as sess:
        assert sess.run(tf.constant(b"ab\x00")) == b"ab\x00"
        assert list(sess.run(tf.constant([b"a\x00", b"b"]))) == [b"a\x00", b"b"]
        assert sess.run(tf.constant(b"\x00\x01", dtype=tf.string)) == b"\x00\x01"
        # str keeps its NULs too, and str may sit beside bytes that are not UTF-8, as in TF
        assert list(sess.run(tf.constant(["a\x00", "b"]))) == [b"a\x00", b"b"]
        assert list(sess.run(tf.constant([b"a\x00", "b"]))) == [b"a\x00", b"b"]
        assert list(sess.run(tf.constant(["a", b"\xff"]))) == [b"a", b"\xff"]
        assert sess.run(tf.constant([["x", "y"], ["z", "w"]])).shape == (2, 2)


def test_tensor_shape_rank_checks_and_proto_as_tf_115():
    """TensorShape's checks with TF's messages (TF 1.15 prints an unknown dimension as ?)."""
    shape = tf.TensorShape([2, None])
    assert shape.with_rank_at_least(1) is shape and shape.with_rank_at_most(2) is shape
    for check, message in (
            (lambda: shape.assert_is_fully_defined(), r"Shape \(2, \?\) is not fully defined"),
            (lambda: tf.TensorShape([2]).assert_same_rank([2, 3]),
             r"Shapes \(2,\) and \(2, 3\) must have the same rank"),
            (lambda: tf.TensorShape([2, 3]).with_rank_at_least(3),
             r"Shape \(2, 3\) must have rank at least 3"),
            (lambda: tf.TensorShape([2, 3]).with_rank_at_most(1),
             r"Shape \(2, 3\) must have rank at most 1"),
            (lambda: tf.TensorShape([2, 3]).with_rank(3), r"Shape \(2, 3\) must have rank 3")):
        with pytest.raises(ValueError, match=message):
            check()
    assert tf.TensorShape(None).with_rank_at_least(2).ndims is None
    assert tf.TensorShape([2, 3]).most_specific_compatible_shape([2, 4]).as_list() == [2, None]
    assert tf.TensorShape([1]).most_specific_compatible_shape([1, 2]).ndims is None
    assert [d.size for d in shape.as_proto().dim] == [2, -1]
    assert tf.TensorShape(None).as_proto().unknown_rank


def test_gradient_override_map_and_what_a_session_may_feed_or_fetch():
    """Graph.gradient_override_map, as in TF 2.15.1 (same gradients): ops made inside the
    block keep the overriding gradient after it; prevent_feeding / prevent_fetching with TF
    1.15's ValueErrors; collections, graph_def_versions, building_function."""
    @tf.RegisterGradient("ClipGradForTest")
    def _clip(op, grad):
        return tf.clip_by_value(grad, -1.0, 1.0)

    with tf.Graph().as_default() as g:
        x = tf.constant([1.0, 2.0, 3.0])
        with g.gradient_override_map({"Identity": "ClipGradForTest", "Square": "ClipGradForTest"}):
            y = tf.identity(x * 10.0)
            z = tf.square(x)
        w = tf.identity(x)
        grads = [tf.gradients(tf.reduce_sum(y * 5.0), x)[0],
                 tf.gradients(tf.reduce_sum(z), x)[0], tf.gradients(tf.reduce_sum(w * 5.0), x)[0]]
        assert y.op.get_attr("_gradient_op_type") == "ClipGradForTest"
        with tf.Session() as sess:
            assert [v.tolist() for v in sess.run(grads)] == [[10.0] * 3, [1.0] * 3, [5.0] * 3]
        with pytest.raises(TypeError, match="mapping strings to strings"):
            with g.gradient_override_map({"Identity": 3}):
                pass
        tf.add_to_collection("mine", x)
        assert "mine" in g.collections and g.graph_def_versions.producer == tf.GRAPH_DEF_VERSION
        assert g.building_function is False
        g.prevent_feeding(x)
        g.prevent_fetching(w.op)
        assert (g.is_feedable(x), g.is_feedable(y), g.is_fetchable(w), g.is_fetchable(y)) == (
            False, True, False, True)
        with tf.Session() as sess:
            with pytest.raises(ValueError, match="Tensor Const:0 may not be fed"):
                sess.run(y, {x: [0.0, 0.0, 0.0]})
            with pytest.raises(ValueError, match="'Identity_1' has been marked as not fetchable"):
                sess.run(w)
        with g.switch_to_thread_local():
            assert tf.get_default_graph() is g
