"""tf.TensorArray (sandbox/ops/tensor_array_ops.py). Reference numbers and messages are TF 2.15's
(tf.compat.v1 graph mode, disable_v2_behavior), which behaves as TF 1.15 here."""
import numpy as np
import pytest

import sandbox as tf


@pytest.fixture
def graph():
    with tf.Graph().as_default() as g:
        yield g


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def test_write_read_stack(graph):
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.write(0, [1., 2.]).write(1, [3., 4.]).write(2, [5., 6.])
    s = ta.stack()
    assert ta.element_shape.as_list() == [2]
    assert s.shape.as_list() == [3, 2]                     # TF 2.15: (3, 2)
    r = ta.read(1)
    assert r.shape.as_list() == [2]
    got_s, got_size = run([s, ta.size()])
    np.testing.assert_array_equal(got_s, [[1, 2], [3, 4], [5, 6]])
    assert got_size == 3
    # a fresh read of an index (stack read them all: each graph run is a fresh array)
    np.testing.assert_array_equal(run(r), [3., 4.])


def test_unstack_then_read_in_while_loop_sums(graph):
    x = tf.constant([1., 2., 3., 4.])
    elems = tf.TensorArray(tf.float32, size=4).unstack(x)
    _, total = tf.while_loop(lambda i, acc: i < 4,
                             lambda i, acc: (i + 1, acc + elems.read(i)), [0, 0.])
    assert run(total) == 10.


def test_while_loop_cumulative_sums_then_stack(graph):
    x = tf.constant([1., 2., 3., 4.])
    ta_in = tf.TensorArray(tf.float32, size=4).unstack(x)

    def body(i, acc, out):
        acc = acc + ta_in.read(i)
        return i + 1, acc, out.write(i, acc)
    _, _, out = tf.while_loop(lambda i, a, o: i < 4, body,
                              [0, 0., tf.TensorArray(tf.float32, size=4)])
    assert isinstance(out, tf.TensorArray)
    cs = out.stack()
    assert cs.shape.as_list() == [4]                       # TF 2.15: (4,)
    np.testing.assert_array_equal(run(cs), [1., 3., 6., 10.])


def test_dynamic_size_grows(graph):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    _, ta = tf.while_loop(lambda i, t: i < 5,
                          lambda i, t: (i + 1, t.write(i, tf.cast(i, tf.float32) * 2.)),
                          [0, ta])
    s = ta.stack()
    assert s.shape.as_list() == [None]                     # TF 2.15: (?,)
    got, size = run([s, ta.size()])
    np.testing.assert_array_equal(got, [0., 2., 4., 6., 8.])
    assert size == 5
    # a single TensorArray loop variable: while_loop returns the TensorArray (TF 2.15 too)
    t1 = tf.while_loop(lambda t: t.size() < 3, lambda t: t.write(t.size(), 1.5),
                       [tf.TensorArray(tf.float32, size=0, dynamic_size=True)])
    assert isinstance(t1, tf.TensorArray)
    np.testing.assert_array_equal(run(t1.stack()), [1.5, 1.5, 1.5])
    # writing past the end grows it; an unwritten element of known shape reads as zeros
    t2 = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(3, 1.)
    assert run([t2.size(), t2.read(1)]) == [4, 0.]         # TF 2.15: 4, 0.0
    t3 = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack([1., 2., 3.])
    assert run(t3.size()) == 3


def test_gather_scatter_concat_split(graph):
    ta = tf.TensorArray(tf.float32, size=4, element_shape=[2]).scatter(
        [3, 0, 1, 2], tf.constant([[1., 1.], [2., 2.], [3., 3.], [4., 4.]]))
    gat = ta.gather([0, 3])
    assert gat.shape.as_list() == [2, 2]
    np.testing.assert_array_equal(run(gat), [[2., 2.], [1., 1.]])
    sp = tf.TensorArray(tf.float32, size=3, infer_shape=False, clear_after_read=False).split(
        tf.constant([1., 2., 3., 4., 5., 6.]), [1, 2, 3])
    r1, cc, n = run([sp.read(1), sp.concat(), sp.size()])
    np.testing.assert_array_equal(r1, [2., 3.])
    np.testing.assert_array_equal(cc, [1., 2., 3., 4., 5., 6.])
    assert n == 3
    # unwritten elements of a fully known shape stack as zeros (TF 2.15: [[1, 2], [0, 0]])
    part = tf.TensorArray(tf.float32, size=2).write(0, [1., 2.]).stack()
    np.testing.assert_array_equal(run(part), [[1., 2.], [0., 0.]])
    empty = tf.TensorArray(tf.float32, size=0, element_shape=[2]).stack()
    assert run(empty).shape == (0, 2)                           # TF 2.15: shape (0, 2)


def test_cond_carries_tensor_arrays(graph):
    p = tf.placeholder(tf.bool, [])
    ta = tf.TensorArray(tf.float32, size=2)
    out = tf.cond(p, lambda: ta.write(0, 1.).write(1, 2.),
                  lambda: ta.write(0, 10.).write(1, 20.))
    assert isinstance(out, tf.TensorArray)                      # as TF 2.15's tf.cond
    s = out.stack()
    np.testing.assert_array_equal(run(s, {p: True}), [1., 2.])
    np.testing.assert_array_equal(run(s, {p: False}), [10., 20.])


def _error(fetch_fn, error=tf.errors.InvalidArgumentError):
    with tf.Graph().as_default():
        fetch = fetch_fn()
        with pytest.raises(error) as e:
            run(fetch)
    return str(e.value)


def _arr(**kwargs):
    kwargs.setdefault("size", 3)
    return tf.TensorArray(tf.float32, name="arr", **kwargs)


def test_errors():
    # messages as TF 2.15's (whose array name would be 'arr_0'...)
    assert "TensorArray arr: Could not read from TensorArray index 1.  Furthermore, the " \
        "element shape is not fully defined: <unknown>." in _error(lambda: _arr().read(1))
    assert "TensorArray arr: Could not write to TensorArray index 1 because it has already " \
        "been written to." in _error(lambda: _arr().write(1, 1.).write(1, 2.).flow)
    assert "TensorArray arr: Tried to write to index 5 but array is not resizeable and size " \
        "is: 3" in _error(lambda: _arr().write(5, 1.).flow)
    assert "Tried to write to index -1 but array is not resizeable" in \
        _error(lambda: _arr().write(-1, 1.).flow)
    assert "Tried to read from index 4 but array size is: 3" in \
        _error(lambda: _arr().write(0, 1.).read(4))
    assert "TensorArray dtype is float but Op is trying to write dtype int32" in \
        _error(lambda: _arr().write(0, tf.constant(1, tf.int32)).flow)

    def read_twice():
        t = _arr(size=2).write(0, 1.)
        return [t.read(0), t.read(0)]
    assert "TensorArray arr: Could not read index 0 twice because it was cleared after a " \
        "previous read (perhaps try setting clear_after_read = false?)." in \
        _error(read_twice)
    assert "TensorArray has inconsistent shapes.  Index 0 has shape: [2] but index 1 has " \
        "shape: [3]" in _error(lambda: _arr(size=2, infer_shape=False).write(0, [1., 2.])
                               .write(1, [1., 2., 3.]).stack())
    assert "Max scatter index must be < array size (2 vs. 2)" in \
        _error(lambda: _arr(size=2).unstack([1., 2., 3.]).flow)
    assert "Expected sum of lengths to be equal to values.shape[0], but sum of lengths is 2" \
        in _error(lambda: _arr(size=2).split([1., 2., 3.], [1, 1]).flow)
    assert "TensorArray has size zero, but element shape <unknown> is not fully defined" in \
        _error(lambda: _arr(size=0).stack(), tf.errors.UnimplementedError)
    # while building: shapes the array already knows
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Inconsistent shapes: saw \(3,\) but expected "
                                             r"\(2,\)"):
            _arr(size=2).write(0, [1., 2.]).write(1, [1., 2., 3.])
        with pytest.raises(ValueError, match="Inconsistent shapes"):
            _arr(size=2, element_shape=[2]).write(0, [1., 2., 3.])


def test_clear_after_read_false_reads_twice(graph):
    t = tf.TensorArray(tf.float32, size=2, clear_after_read=False).write(0, 1.)
    assert run(t.read(0) + t.read(0)) == 2.


def test_gradients_outside_loops(graph):
    a = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    b = tf.constant([7., 8.])
    t4 = tf.TensorArray(tf.float32, size=4, clear_after_read=False).unstack(a * a)
    t4 = t4.write(3, b * 3.)
    v = t4.read(0) * 2. + t4.read(0) + tf.reduce_sum(t4.gather([2, 1, 2]), 0)
    l2 = tf.reduce_sum(v * v) + tf.reduce_sum(tf.square(t4.stack()))
    ga, gb = tf.gradients(l2, [a, b])
    c = tf.constant([1., 2., 3., 4., 5., 6.])
    t5 = tf.TensorArray(tf.float32, size=3, clear_after_read=False,
                        infer_shape=False).split(c * c, [1, 2, 3])
    l3 = tf.reduce_sum(tf.square(t5.concat())) + tf.reduce_sum(t5.read(1) * 10.)
    gc, = tf.gradients(l3, [c])
    got = run([l2, ga, gb, l3, gc])
    # TF 2.15's numbers
    assert got[0] == 17136.
    np.testing.assert_allclose(got[1], [[748., 2432.], [852., 1856.], [2980., 5664.]])
    np.testing.assert_allclose(got[2], [126., 144.])
    assert got[3] == 2405.
    np.testing.assert_allclose(got[4], [4., 72., 168., 256., 500., 864.])


def test_gradient_of_rnn_in_while_loop_matches_tf(graph):
    W = tf.constant([[0.5, -0.3], [0.2, 0.8]])
    xs = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 2, 2) / 10.)
    xta = tf.TensorArray(tf.float32, size=3).unstack(xs)
    h0 = tf.constant([[0.1, 0.2], [0.3, -0.1]])

    def body(t, h, hs):
        h = tf.tanh(tf.matmul(h, W) + xta.read(t))
        return t + 1, h, hs.write(t, h)
    _, h_last, hs = tf.while_loop(lambda t, h, hs: t < 3, body,
                                  [0, h0, tf.TensorArray(tf.float32, size=3)])
    outputs = hs.stack()
    assert outputs.shape.as_list() == [3, 2, 2]
    loss = tf.reduce_sum(outputs * outputs) + tf.reduce_sum(h_last)
    gW, gx, gh0 = tf.gradients(loss, [W, xs, h0])
    got = run([loss, gW, gx, gh0])
    # TF 2.15's numbers
    np.testing.assert_allclose(got[0], 7.9026556, rtol=1e-6)
    np.testing.assert_allclose(got[1], [[1.3076707, 1.7890422], [1.1297252, 1.4530818]],
                               rtol=1e-5)
    np.testing.assert_allclose(got[2], [[[0.22672926, 1.5911225], [0.6246384, 1.3095952]],
                                        [[0.88405097, 1.309901], [0.8010705, 1.1413664]],
                                        [[0.8827768, 0.78672343], [0.552241, 0.60786027]]],
                               rtol=1e-5)
    np.testing.assert_allclose(got[3], [[-0.36397213, 1.318244], [-0.0805594, 1.1726038]],
                               rtol=1e-5)


def test_gradient_when_only_other_loop_vars_are_used(graph):
    w = tf.constant(2.)

    def body(i, h, t):
        h = h * w
        return i + 1, h, t.write(i, h)
    _, h_last, t = tf.while_loop(lambda i, h, t: i < 3, body,
                                 [0, tf.constant(1.), tf.TensorArray(tf.float32, size=3)])
    g_last = tf.gradients(h_last, w)[0]                    # the array gets no gradient
    g_sum = tf.gradients(tf.reduce_sum(t.stack()), w)[0]   # d(w + w^2 + w^3)/dw
    assert run([g_last, g_sum]) == [12., 17.]                 # TF 2.15: 12.0, 17.0


def test_gradient_through_cond(graph):
    p = tf.placeholder(tf.bool, [])
    y = tf.constant(3.)
    ta = tf.TensorArray(tf.float32, size=2)
    out = tf.cond(p, lambda: ta.write(0, y * y).write(1, y), lambda: ta.write(0, y).write(1, y))
    gy = tf.gradients(tf.reduce_sum(out.stack()), y)[0]
    assert run(gy, {p: True}) == 7.                             # TF 2.15: 7.0, 2.0
    assert run(gy, {p: False}) == 2.


def test_identity_close_and_wrapping_a_flow(graph):
    x = tf.constant(2.)
    ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False).write(0, x * x).write(1, x)
    same = ta.identity()
    assert same.flow.op.type == "Identity"
    wrapped = tf.TensorArray(tf.float32, flow=same.flow)
    close = ta.close()
    assert close.type == "TensorArrayCloseV3"
    g = tf.gradients(tf.reduce_sum(same.stack()), x)[0]
    got = run([wrapped.size(), same.stack(), g, close])
    assert got[0] == 2
    np.testing.assert_array_equal(got[1], [4., 2.])
    assert got[2] == 5.
