"""The local Session: fetch structures, feeds, errors, caching, default sessions, tracing."""
import collections

import numpy as np
import pytest

import sandbox as tf


@pytest.fixture
def graph():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.constant([[1.0], [2.0]], name="w")
    y = tf.matmul(x, w, name="y")
    return x, w, y


def test_fetch_structures(graph):
    x, w, y = graph
    Pair = collections.namedtuple("Pair", "a b")
    feed = {x: [[1.0, 1.0]]}
    with tf.Session() as sess:
        assert sess.run(y, feed).tolist() == [[3.0]]
        assert sess.run("y:0", feed).tolist() == [[3.0]]
        a, (b, c) = sess.run([y, (w, "w:0")], feed)
        assert a.tolist() == [[3.0]] and b.tolist() == c.tolist() == [[1.0], [2.0]]
        d = sess.run({"out": y, "nested": [w, {"k": y}]}, feed)
        assert d["out"].tolist() == [[3.0]] and d["nested"][1]["k"].tolist() == [[3.0]]
        p = sess.run(Pair(a=y, b=w), feed)
        assert isinstance(p, Pair) and p.a.tolist() == [[3.0]]
        t = sess.run((y,), feed)
        assert isinstance(t, tuple)
        assert sess.run(tf.no_op(name="nothing")) is None
        assert sess.run("nothing") is None


def test_scalar_results_are_numpy_scalars():
    with tf.Session() as sess:
        v = sess.run(tf.constant(2.5))
        assert isinstance(v, np.float32) and v == 2.5
        s = sess.run(tf.constant("hi"))
        assert s == b"hi"


def test_bad_fetches():
    with tf.Session() as sess:
        with pytest.raises(TypeError, match="invalid type"):
            sess.run(None)
        with pytest.raises(TypeError, match="invalid type"):
            sess.run(3.0)
        with pytest.raises(KeyError, match="does not exist"):
            sess.run("missing:0")


def test_feeds_check_shape_and_dtype(graph):
    x, w, y = graph
    with tf.Session() as sess:
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3, 3\) for Tensor "
                                             r"'x:0', which has shape '\(\?, 2\)'"):
            sess.run(y, {x: np.zeros((3, 3))})
        with pytest.raises(TypeError, match="cannot be a tf.Tensor"):
            sess.run(y, {x: w})
        with pytest.raises((TypeError, ValueError)):
            sess.run(y, {x: [["a", "b"]]})
        # ints are converted to the placeholder's dtype
        assert sess.run(y, {x: np.ones((1, 2), dtype=np.int64)}).dtype == np.float32
        # feeding by name and feeding a non-placeholder tensor
        assert sess.run(y, {"x:0": [[1, 0]]}).tolist() == [[1.0]]
        assert sess.run(y, {w: [[10.0], [0.0]], x: [[1, 1]]}).tolist() == [[10.0]]
        # strings fed as str travel as TF's bytes (UTF-8), as TensorFlow converts them
        s = tf.placeholder(tf.string, [None])
        assert sess.run(s, {s: ["hi", b"x", "h\u00e9"]}).tolist() == [b"hi", b"x", b"h\xc3\xa9"]


def test_unfed_placeholder_error_names_it(graph):
    x, _, y = graph
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(y)
    assert "You must feed a value for placeholder tensor 'x'" in str(info.value)
    assert "[?,2]" in str(info.value)
    assert info.value.node_def == "x"


def test_fetching_a_fed_tensor_does_not_run_its_producer():
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.identity(x, name="y")
    with tf.Session() as sess:
        assert sess.run(y, {y: 5.0}) == 5.0       # x not needed: no "must feed" error


def test_plans_are_cached_per_signature(graph):
    x, w, y = graph
    with tf.Session() as sess:
        sess.run(y, {x: [[1, 1]]})
        sess.run(y, {x: [[2, 2]]})
        sess.run([y], {x: [[2, 2]]})
        sess.run(w)
        executors = sess._runtime._executors
        assert len(executors) == 2     # (y | x) and (w | -)


def test_closed_session_and_context_manager(graph):
    x, w, y = graph
    sess = tf.Session()
    sess.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(w)
    with tf.Session() as sess2:
        assert tf.get_default_session() is sess2
        assert w.eval().tolist() == [[1.0], [2.0]]
    assert tf.get_default_session() is None


def test_eval_and_run_need_a_default_session():
    c = tf.constant(1.0)
    with pytest.raises(ValueError, match="No default session"):
        c.eval()
    sess = tf.Session()
    with sess.as_default():
        assert c.eval() == 1.0
    assert c.eval(session=sess) == 1.0
    v = tf.Variable(3.0, name="v")
    v.initializer.run(session=sess)
    assert v.eval(session=sess) == 3.0
    other = tf.Graph()
    with other.as_default():
        d = tf.constant(2.0)
    with pytest.raises(ValueError, match="graph is different"):
        d.eval(session=sess)
    sess.close()


def test_interactive_session():
    c = tf.constant(4.0)
    sess = tf.InteractiveSession()
    try:
        assert c.eval() == 4.0
        assert tf.get_default_session() is sess
    finally:
        sess.close()
    assert tf.get_default_session() is None


def test_sessions_have_separate_variables():
    v = tf.Variable(1.0, name="v")
    inc = v.assign_add(1.0)
    with tf.Session() as s1, tf.Session() as s2:
        s1.run(v.initializer)
        s2.run(v.initializer)
        s1.run(inc)
        assert s1.run(v) == 2.0 and s2.run(v) == 1.0


def test_run_metadata_full_trace(graph):
    x, w, y = graph
    md = tf.RunMetadata()
    opts = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    with tf.Session() as sess:
        sess.run(y, {x: [[1, 1]]}, options=opts, run_metadata=md)
    names = [n.node_name for d in md.step_stats.dev_stats for n in d.node_stats]
    assert "y" in names and "w" in names
    assert md.step_stats.dev_stats[0].device == "/job:localhost/replica:0/task:0/device:CPU:0"


def test_config_proto_rejects_unknown_fields():
    with pytest.raises(ValueError, match='has no "log_placement" field'):
        tf.ConfigProto(log_placement=True)
    with pytest.raises(TypeError, match="ConfigProto"):
        tf.Session(config={"log_device_placement": True})


def test_make_callable(graph):
    x, _, y = graph
    with tf.Session() as sess:
        f = sess.make_callable(y, [x])
        assert f([[1.0, 2.0]]).tolist() == [[5.0]]


def test_kernel_failure_names_the_op():
    a = tf.placeholder(tf.float32, [None, None], name="a")
    b = tf.placeholder(tf.float32, [None, None], name="b")
    c = tf.matmul(a, b, name="product")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(c, {a: np.ones((2, 3)), b: np.ones((4, 5))})
    assert info.value.node_def == "product"
    assert "product" in str(info.value)
