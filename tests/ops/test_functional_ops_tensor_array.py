"""tf.map_fn, tf.scan, tf.foldl, tf.foldr built on tf.TensorArray (sandbox/ops/functional_ops.py):
empty elems where TF accepts them, fn built once, nested structures, scan's reverse, foldr's
order, and gradients. Reference numbers and messages are TF 2.15's (tf.compat.v1 graph mode
with disable_v2_behavior), which behaves as TF 1.15 here."""
import collections

import numpy as np
import pytest

import sandbox as tf


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


X4 = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
EMPTY = np.zeros((0, 3), np.float32)


# -- empty elems, as TF 2.15 handles them -------------------------------------------------

def test_map_fn_on_empty_elems_of_known_shape():
    x = tf.constant(EMPTY)
    m = tf.map_fn(lambda e: e * 2.0, x)
    md = tf.map_fn(lambda e: e * 2.0, x, dtype=tf.float32)
    a, b = tf.map_fn(lambda e: (e * 2.0, tf.reduce_sum(e)), x, dtype=(tf.float32, tf.float32))
    assert m.get_shape().as_list() == [0, 3] and a.get_shape().as_list() == [0, 3]
    got = run([m, md, a, b])
    assert [g.shape for g in got] == [(0, 3), (0, 3), (0, 3), (0,)]
    assert all(g.dtype == np.float32 for g in got)


def test_map_fn_on_a_placeholder_fed_empty():
    x = tf.placeholder(tf.float32, [None])
    m = tf.map_fn(lambda e: e * 2.0, x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(m, {x: [1.0, 2.0]}), [2.0, 4.0])
        assert sess.run(m, {x: []}).shape == (0,)           # TF 2.15: [] too


def test_empty_map_fn_needs_a_static_element_shape_as_in_tf():
    x = tf.placeholder(tf.float32, [None, None])
    m = tf.map_fn(lambda e: e * 2.0, x)
    with pytest.raises(tf.errors.UnimplementedError, match="TensorArray has size zero, but "
                       "element shape .* is not fully defined"):
        run(m, {x: np.zeros((0, 2))})


def test_scan_and_folds_on_empty_elems_with_an_initializer():
    x = tf.constant(EMPTY)
    s = tf.scan(lambda a, e: a + e, x, initializer=tf.zeros([3]))
    fl = tf.foldl(lambda a, e: a + e, x, initializer=tf.ones([3]))
    fr = tf.foldr(lambda a, e: a + e, x, initializer=tf.ones([3]))
    assert s.get_shape().as_list() == [0, 3]
    got = run([s, fl, fr])
    assert got[0].shape == (0, 3)
    np.testing.assert_array_equal(got[1], [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(got[2], [1.0, 1.0, 1.0])


def test_scan_and_foldl_without_initializer_on_empty_elems_fail_as_in_tf():
    x = tf.constant(EMPTY)
    for r in (tf.scan(lambda a, e: a + e, x), tf.foldl(lambda a, e: a + e, x)):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Tried to read from index 0 but array size is: 0"):
            run(r)


def test_scalar_or_missing_elems_are_refused():
    with pytest.raises(ValueError, match="1\\+ dimensional"):
        tf.map_fn(lambda e: e, tf.constant(1.0))
    with pytest.raises(ValueError, match="does not contain any Tensors"):
        tf.map_fn(lambda e: e, [])
    with pytest.raises(TypeError, match="not callable"):
        tf.scan(3, tf.constant(X4))


# -- fn is built once -----------------------------------------------------------------------

def test_fn_is_called_once_while_the_graph_is_built():
    calls = collections.Counter()

    def counted(name, f):
        def wrapper(*args):
            calls[name] += 1
            return f(*args)
        return wrapper
    x = tf.constant(X4)
    outs = [tf.map_fn(counted("map_fn", lambda e: e * e), x),
            tf.scan(counted("scan", lambda a, e: a + e), x),
            tf.scan(counted("scan_init", lambda a, e: a + e), x, initializer=tf.constant(0.0)),
            tf.foldl(counted("foldl", lambda a, e: a + e), x),
            tf.foldr(counted("foldr", lambda a, e: a + e), x, initializer=tf.constant(0.0))]
    assert dict(calls) == {"map_fn": 1, "scan": 1, "scan_init": 1, "foldl": 1, "foldr": 1}
    assert sum(op.type == "While" for op in tf.get_default_graph().get_operations()) == 5
    with tf.Session() as sess:
        for _ in range(2):
            got = sess.run(outs)
    assert dict(calls) == {"map_fn": 1, "scan": 1, "scan_init": 1, "foldl": 1, "foldr": 1}
    np.testing.assert_array_equal(got[0], X4 * X4)
    np.testing.assert_array_equal(got[1], np.cumsum(X4))
    assert got[3] == got[4] == 10.0


# -- nested structures ----------------------------------------------------------------------

def test_map_fn_over_2d_elems_with_a_tuple_of_outputs():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    total, doubled, count = tf.map_fn(
        lambda row: (tf.reduce_sum(row), row * 2.0, tf.size(row)), x,
        dtype=(tf.float32, tf.float32, tf.int32))
    assert total.get_shape().as_list() == [2] and doubled.get_shape().as_list() == [2, 3]
    assert count.dtype == tf.int32
    got = run([total, doubled, count])
    np.testing.assert_array_equal(got[0], [6.0, 15.0])
    np.testing.assert_array_equal(got[1], [[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]])
    np.testing.assert_array_equal(got[2], [3, 3])


def test_map_fn_with_nested_elems_and_a_different_dtype_structure():
    elems = {"a": tf.constant(X4), "b": (tf.constant([1, 2, 3, 4]), tf.constant(X4 * 10.0))}
    out = tf.map_fn(lambda e: {"sum": e["a"] + e["b"][1], "pair": (e["b"][0] * 2, e["a"] > 2.0)},
                    elems, dtype={"sum": tf.float32, "pair": (tf.int32, tf.bool)})
    same = tf.map_fn(lambda e: {"a": -e["a"], "b": (e["b"][0] + 1, e["b"][1])}, elems)
    got = run([out, same])
    np.testing.assert_array_equal(got[0]["sum"], X4 * 11.0)
    np.testing.assert_array_equal(got[0]["pair"][0], [2, 4, 6, 8])
    np.testing.assert_array_equal(got[0]["pair"][1], X4 > 2.0)
    np.testing.assert_array_equal(got[1]["a"], -X4)
    np.testing.assert_array_equal(got[1]["b"][0], [2, 3, 4, 5])


def test_scan_with_a_nested_initializer_and_nested_elems():
    Acc = collections.namedtuple("Acc", "total product")
    x = tf.constant(X4)
    s = tf.scan(lambda a, e: Acc(a.total + e[0], a.product * e[1]), (x, x + 1.0),
                initializer=Acc(tf.constant(0.0), tf.constant(1.0)))
    n = tf.scan(lambda a, e: (a[0] + e[0], a[1] * e[1]), (x, x + 1.0))   # elems' structure
    assert isinstance(s, Acc) and s.total.get_shape().as_list() == [4]
    got = run([s, n])
    np.testing.assert_array_equal(got[0].total, [1.0, 3.0, 6.0, 10.0])
    np.testing.assert_array_equal(got[0].product, [2.0, 6.0, 24.0, 120.0])
    np.testing.assert_array_equal(got[1][0], [1.0, 3.0, 6.0, 10.0])
    np.testing.assert_array_equal(got[1][1], [2.0, 6.0, 24.0, 120.0])


def test_foldl_with_a_tuple_accumulator():
    x = tf.constant(X4)
    lo, hi = tf.foldl(lambda a, e: (tf.minimum(a[0], e), tf.maximum(a[1], e)), x,
                      initializer=(tf.constant(2.5), tf.constant(2.5)))
    assert run([lo, hi]) == [1.0, 4.0]


# -- order: scan's reverse, foldr ---------------------------------------------------------

def test_scan_reverse_as_tf():
    x = tf.constant(X4)
    r = tf.scan(lambda a, e: a * 10.0 + e, x, reverse=True)
    ri = tf.scan(lambda a, e: a * 10.0 + e, x, initializer=tf.constant(5.0), reverse=True)
    rn = tf.scan(lambda a, e: (a[0] * 10.0 + e, a[1] + 1), x,
                 initializer=(tf.constant(0.0), tf.constant(0)), reverse=True)
    got = run([r, ri, rn])
    np.testing.assert_array_equal(got[0], [4321.0, 432.0, 43.0, 4.0])        # TF 2.15
    np.testing.assert_array_equal(got[1], [54321.0, 5432.0, 543.0, 54.0])    # TF 2.15
    np.testing.assert_array_equal(got[2][0], [4321.0, 432.0, 43.0, 4.0])
    np.testing.assert_array_equal(got[2][1], [4, 3, 2, 1])


def test_foldr_goes_from_the_last_element():
    x = tf.constant(X4)
    seen = tf.foldr(lambda a, e: a * 10.0 + e, x)
    seen_init = tf.foldr(lambda a, e: a * 10.0 + e, x, initializer=tf.constant(5.0))
    left = tf.foldl(lambda a, e: a * 10.0 + e, x)
    pair = tf.foldr(lambda a, e: a * 10.0 + e[0] - e[1], (x, x * 0.0),
                    initializer=tf.constant(0.0))
    assert run([seen, seen_init, left, pair]) == [4321.0, 54321.0, 1234.0, 4321.0]  # TF 2.15


def test_options_are_accepted():
    x = tf.constant(X4)
    m = tf.map_fn(lambda e: e + 1.0, x, parallel_iterations=1, back_prop=False,
                  swap_memory=True, infer_shape=False, name="mymap")
    s = tf.scan(lambda a, e: a + e, x, parallel_iterations=3, back_prop=True,
                swap_memory=False, infer_shape=False, name="myscan")
    assert m.op.name.startswith("mymap/") and s.op.name.startswith("myscan/")
    got = run([m, s])
    np.testing.assert_array_equal(got[0], X4 + 1.0)
    np.testing.assert_array_equal(got[1], np.cumsum(X4))


def test_fn_result_must_match_the_structure():
    x = tf.constant(X4)
    with pytest.raises(ValueError, match="same nested structure"):
        tf.map_fn(lambda e: (e, e), x)
    with pytest.raises(ValueError, match="same nested structure"):
        tf.scan(lambda a, e: (a, e), x, initializer=tf.constant(0.0))


# -- gradients, against TF 2.15's numbers ---------------------------------------------------

def test_gradients_match_tf():
    X = np.array([[0.1, 0.2], [0.3, -0.4], [1.0, 0.5]])
    W = np.array([0.7, -1.3])
    x = tf.placeholder(tf.float64, [3, 2])
    w = tf.placeholder(tf.float64, [2])
    a, b = tf.map_fn(lambda r: (tf.tanh(r) * w, tf.reduce_sum(r * r) * w[0]), x,
                     dtype=(tf.float64, tf.float64))
    l1 = tf.reduce_sum(a * tf.constant([[1., 2.], [3., 4.], [5., 6.]], tf.float64)) + \
        tf.reduce_sum(b * tf.constant([1., -1., 2.], tf.float64))
    s = tf.scan(lambda acc, e: {"p": acc["p"] * e[0] + w[0],
                                "q": acc["q"] + tf.sin(e[1]) * acc["p"]},
                (x[:, 0], x[:, 1]), initializer={"p": tf.constant(1.5, tf.float64), "q": w[1]},
                reverse=True)
    l2 = tf.reduce_sum(s["p"] * tf.constant([1., 2., 3.], tf.float64)) + \
        tf.reduce_sum(s["q"] * tf.constant([.5, -1., 2.], tf.float64))
    l3 = tf.foldr(lambda acc, e: acc * e + w[1], x[:, 0], initializer=w[0]) + \
        tf.foldl(lambda acc, e: acc * tf.cos(e), x[:, 1])
    outs = [l1, l2, l3] + tf.gradients(l1, [x, w]) + tf.gradients(l2, [x, w]) + \
        tf.gradients(l3, [x, w])
    got = run(outs, {x: X, w: W})
    tf215 = [   # TF 2.15.1, the same graph in tf.compat.v1 graph mode
        2.81514857274533, 9.848162783339614, -1.286338586645131,
        [[0.8330464035932077, -2.2187117557119027], [1.501787619835921, -3.889321687622124],
         [4.269910195649091, -4.734292317134234]],
        [7.081576611758552, 1.6476577349889667],
        [[1.3599999999999999, 0.6664452729320443], [4.838536263874568, -1.0131670934031738],
         [5.781764356160377, 1.9745607642533387]],
        [7.053844236171115, 1.5],
        [[-1.48, 0.8083070667743452], [-0.06000000000000001, 0.06834934929806553],
         [0.020999999999999998, -0.08831603262743117]],
        [0.03, 1.1300000000000001]]
    for g, want in zip(got, tf215):
        np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-14)
