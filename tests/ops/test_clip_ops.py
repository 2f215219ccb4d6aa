"""clip_by_value, clip_by_norm, global_norm, clip_by_global_norm, clip_by_average_norm:
values against NumPy formulas, gradients against finite differences, and errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sandbox as tf
from tests.gradcheck import check_gradients

QUICK = settings(max_examples=25, deadline=None)
RNG = np.random.default_rng(7)


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


@QUICK
@given(x=hnp.arrays(np.float32, st.tuples(st.integers(1, 4), st.integers(1, 4)),
                    elements=st.floats(-10, 10, width=32)),
       lo=st.floats(-5, 0), hi=st.floats(0, 5))
def test_clip_by_value_forward(x, lo, hi):
    y = run(tf.clip_by_value(x, lo, hi))
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y, np.clip(x, np.float32(lo), np.float32(hi)))


def test_clip_by_value_broadcast_bounds_and_ints():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = run(tf.clip_by_value(x, [1.0, 0.0, 0.0], [[2.0], [4.0]]))
    np.testing.assert_array_equal(y, [[1, 1, 2], [3, 4, 4]])
    assert run(tf.clip_by_value(tf.constant([-3, 5, 9]), 0, 6)).tolist() == [0, 5, 6]
    c = tf.clip_by_value(tf.placeholder(tf.float32, [None, 3]), 0.0, 1.0)
    assert c.op.name == "clip_by_value_2" and c.get_shape().as_list() == [None, 3]
    assert c.op.type == "ClipByValue"


def test_clip_by_value_must_not_broadcast_t():
    with pytest.raises(ValueError, match="clip_value_max"):
        tf.clip_by_value(tf.zeros([3]), 0.0, tf.ones([2, 3]))
    hi = tf.placeholder(tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must broadcast to the shape"):
        run(tf.clip_by_value(tf.zeros([3]), 0.0, hi), {hi: np.ones((2, 3))})


def test_clip_by_value_gradients():
    x = RNG.uniform(-3, 3, (3, 4))
    x[np.abs(np.abs(x) - 1) < 0.05] = 0.5            # keep away from the clip points
    # Gradient passes to t only where it was not clipped, to a bound where it was.
    check_gradients(lambda t, lo, hi: tf.clip_by_value(t, lo, hi),
                    [x, np.array(-1.0), np.array([1.0, 1.0, 1.0, 1.0])])
    t = tf.constant(np.array([-5.0, 0.5, 5.0]))
    g = run(tf.gradients(tf.clip_by_value(t, -1.0, 1.0), t)[0])
    assert g.tolist() == [0.0, 1.0, 0.0]


@QUICK
@given(x=hnp.arrays(np.float32, st.tuples(st.integers(1, 3), st.integers(1, 4)),
                    elements=st.floats(-10, 10, width=32)),
       clip=st.floats(0.1, 20))
def test_clip_by_norm_forward(x, clip):
    y, y1 = run([tf.clip_by_norm(x, clip), tf.clip_by_norm(x, clip, axes=[1])])
    x64 = x.astype(np.float64)
    norm = np.sqrt((x64 ** 2).sum())
    np.testing.assert_allclose(y, x64 * clip / max(norm, clip), rtol=1e-5, atol=1e-6)
    rows = np.sqrt((x64 ** 2).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(y1, x64 * clip / np.maximum(rows, clip), rtol=1e-5, atol=1e-6)


def test_clip_by_norm_gradient_and_zero_vector():
    check_gradients(lambda t: tf.clip_by_norm(t, 1.0), [RNG.standard_normal((2, 3)) * 3])
    check_gradients(lambda t: tf.clip_by_norm(t, 100.0), [RNG.standard_normal((2, 3))])
    t = tf.zeros([3])
    value, grad = run([tf.clip_by_norm(t, 1.0), tf.gradients(tf.clip_by_norm(t, 1.0), t)[0]])
    assert value.tolist() == [0, 0, 0] and np.all(np.isfinite(grad))


def test_global_norm_and_clip_by_global_norm():
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    b = RNG.standard_normal(4).astype(np.float32)
    norm = np.sqrt((a.astype(np.float64) ** 2).sum() + (b.astype(np.float64) ** 2).sum())
    gn = tf.global_norm([a, None, b])
    assert gn.op.name == "global_norm/global_norm" and gn.dtype == tf.float32
    np.testing.assert_allclose(run(gn), norm, rtol=1e-5)
    clipped, used = tf.clip_by_global_norm([a, None, b], norm / 2)
    assert clipped[1] is None
    ca, cb, u = run([clipped[0], clipped[2], used])
    np.testing.assert_allclose(u, norm, rtol=1e-5)
    np.testing.assert_allclose(ca, a / 2, rtol=1e-5)
    np.testing.assert_allclose(cb, b / 2, rtol=1e-5)
    same, _ = tf.clip_by_global_norm([a, b], norm * 2)    # short enough: unchanged
    np.testing.assert_allclose(run(same[0]), a, rtol=1e-6)
    assert same[0].op.name.startswith("clip_by_global_norm_1/clip_by_global_norm_1/_0")
    fixed, given_norm = tf.clip_by_global_norm([a], 1.0, use_norm=tf.constant(2.0))
    np.testing.assert_allclose(run(fixed[0]), a / 2, rtol=1e-6)


def test_clip_by_global_norm_nan_when_norm_is_not_finite():
    clipped, norm = tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)
    value, n = run([clipped[0], norm])
    assert np.isinf(n) and np.all(np.isnan(value))


def test_clip_by_global_norm_gradient():
    check_gradients(lambda a, b: tf.add_n([tf.reduce_sum(t * t) for t in
                                           tf.clip_by_global_norm([a, b], 1.5)[0]]),
                    [RNG.standard_normal((2, 2)), RNG.standard_normal(3)])


def test_t_list_must_be_a_sequence():
    with pytest.raises(TypeError, match="t_list should be a sequence"):
        tf.global_norm(tf.zeros([2]))
    with pytest.raises(TypeError, match="t_list should be a sequence"):
        tf.clip_by_global_norm(tf.zeros([2]), 1.0)


def test_clip_by_average_norm():
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    y = run(tf.clip_by_average_norm(x, 0.1))
    avg = np.sqrt((x.astype(np.float64) ** 2).sum()) / x.size
    np.testing.assert_allclose(y, x * 0.1 / max(avg, 0.1), rtol=1e-5)
