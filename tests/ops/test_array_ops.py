"""Tests for sandbox/ops/array_ops.py: forward values vs NumPy, gradients vs finite
differences, static shapes and errors."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def run(fetches, feed_dict=None):
    g = (fetches[0] if isinstance(fetches, (list, tuple)) else fetches).graph
    with tf.Session(graph=g) as sess:
        return sess.run(fetches, feed_dict)


def static(t):
    return t.get_shape().as_list()


small_shapes = hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4)


def arrays(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


# ===================================================================================
# reshape / transpose / expand_dims / squeeze
# ===================================================================================

@SETTINGS
@given(shape=small_shapes, data=st.data())
def test_reshape_matches_numpy(shape, data):
    x = arrays(shape)
    n = x.size
    first = data.draw(st.sampled_from([d for d in range(1, n + 1) if n % d == 0]))
    target = [first, -1] if data.draw(st.booleans()) else [first, n // first]
    with tf.Graph().as_default():
        y = tf.reshape(x, target)
        assert static(y) == list(np.reshape(x, target).shape)
        np.testing.assert_array_equal(run(y), np.reshape(x, target))


def test_reshape_static_shapes_with_unknown_dims():
    x = tf.placeholder(tf.float32, [None, 784])
    assert static(tf.reshape(x, [-1, 28, 28, 1])) == [None, 28, 28, 1]
    assert static(tf.reshape(x, [-1])) == [None]
    img = tf.placeholder(tf.float32, [None, 7, 7, 64])
    assert static(tf.reshape(img, [-1, 7 * 7 * 64])) == [None, 3136]
    assert static(tf.reshape(img, tf.shape(img))) == [None, 7, 7, 64]
    assert static(tf.reshape(tf.zeros([2, 6]), np.array([3, -1]))) == [3, 4]
    assert static(tf.reshape(tf.zeros([2, 6]), tf.constant([4, 3]))) == [4, 3]
    assert static(tf.reshape(tf.zeros([2, 6]), tf.TensorShape([12]))) == [12]
    n = tf.placeholder(tf.int32, [])
    assert static(tf.reshape(x, [-1, n])) == [None, None]
    assert static(tf.reshape(x, [n, 784])) == [None, 784]


def test_reshape_autopacks_tensor_dims_and_gradient():
    x = tf.placeholder(tf.float32, [None, 6])
    n = tf.placeholder(tf.int32, [])
    y = tf.reshape(x, [-1, n])
    pack = y.op.inputs[1].op
    assert pack.type == "Pack" and pack.inputs[0].op.type == "Const"
    value = np.arange(12, dtype=np.float32).reshape(2, 6)
    np.testing.assert_array_equal(run(y, {x: value, n: 3}), value.reshape(4, 3))
    check_gradients(lambda a: tf.reshape(a, [3, -1]) * 1.0, [np.arange(6.0).reshape(2, 3)])


def test_reshape_errors():
    with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 6 elements to shape "
                                         r"\[4\] \(4 elements\)"):
        tf.reshape(tf.zeros([2, 3]), [4])
    with pytest.raises(ValueError, match="evenly divisible by 4 but is 6"):
        tf.reshape(tf.zeros([2, 3]), [-1, 4])
    x = tf.placeholder(tf.float32, [None])
    with pytest.raises(errors.InvalidArgumentError, match="tensor with 6 values, but the "
                                                          "requested shape has 4"):
        run(tf.reshape(x, [4]), {x: np.zeros(6)})
    with pytest.raises(errors.InvalidArgumentError, match="requires a multiple of 4"):
        run(tf.reshape(x, [-1, 4]), {x: np.zeros(6)})
    with pytest.raises(errors.InvalidArgumentError, match="Only one input size may be -1"):
        run(tf.reshape(x, [-1, -1]), {x: np.zeros(6)})


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=0, max_dims=4, max_side=4), data=st.data())
def test_transpose_matches_numpy(shape, data):
    x = arrays(shape)
    perm = data.draw(st.permutations(range(len(shape))))
    with tf.Graph().as_default():
        y, default = tf.transpose(x, perm), tf.transpose(x)
        assert static(y) == list(np.transpose(x, perm).shape)
        assert static(default) == list(x.T.shape)
        a, b = run([y, default])
        np.testing.assert_array_equal(a, np.transpose(x, perm))
        np.testing.assert_array_equal(b, x.T)


def test_transpose_static_shape_names_and_gradient():
    x = tf.placeholder(tf.float32, [None, 3, 5])
    y = tf.transpose(x, [2, 0, 1])
    assert static(y) == [5, None, 3] and y.op.type == "Transpose" and y.op.name == "transpose"
    unknown_rank = tf.placeholder(tf.float32)
    z = tf.transpose(unknown_rank)
    np.testing.assert_array_equal(run(z, {unknown_rank: np.ones((2, 3, 4))}).shape, (4, 3, 2))
    check_gradients(lambda a: tf.transpose(a, [1, 2, 0]), [np.arange(24.0).reshape(2, 3, 4)])
    check_gradients(lambda a: tf.transpose(a), [np.arange(6.0).reshape(2, 3)])
    check_gradients(lambda a: tf.matrix_transpose(a), [np.arange(12.0).reshape(2, 3, 2)])
    p = tf.placeholder(tf.int32, [3])
    dyn = tf.transpose(tf.ones([2, 3, 4]), p)
    assert static(dyn) == [None, None, None]
    grad = tf.gradients(dyn, tf.ones([2, 3, 4]))   # a different tensor: no gradient
    assert grad == [None]
    assert run(tf.invert_permutation([2, 0, 1])).tolist() == [1, 2, 0]


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=3), data=st.data())
def test_expand_dims_and_squeeze_match_numpy(shape, data):
    x = arrays(shape)
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    with tf.Graph().as_default():
        e = tf.expand_dims(x, axis)
        s = tf.squeeze(e, [axis])
        s_all = tf.squeeze(e)
        assert static(e) == list(np.expand_dims(x, axis).shape)
        assert static(s) == list(shape)
        assert static(s_all) == list(np.squeeze(x).shape)
        a, b, c = run([e, s, s_all])
        np.testing.assert_array_equal(a, np.expand_dims(x, axis))
        np.testing.assert_array_equal(b, x)
        np.testing.assert_array_equal(c, np.squeeze(x))


def test_expand_dims_squeeze_details():
    x = tf.placeholder(tf.float32, [None, 1, 3, 1])
    assert static(tf.expand_dims(x, dim=-1)) == [None, 1, 3, 1, 1]
    assert static(tf.squeeze(x, [1])) == [None, 3, 1]
    assert static(tf.squeeze(x, squeeze_dims=[1, 3])) == [None, 3]
    assert tf.squeeze(x).get_shape().ndims is None       # '?' might be 1
    with pytest.raises(ValueError, match="Must specify an axis"):
        tf.expand_dims(x)
    with pytest.raises(ValueError, match="Cannot specify both"):
        tf.expand_dims(x, 0, dim=0)
    with pytest.raises(ValueError, match="Tried to expand dim index 6"):
        tf.expand_dims(x, 6)
    with pytest.raises(ValueError, match=r"Can not squeeze dim\[2\], expected a dimension of "
                                         r"1, got 3"):
        tf.squeeze(x, [2])
    y = tf.placeholder(tf.float32, [None, None])
    with pytest.raises(errors.InvalidArgumentError, match=r"Can not squeeze dim\[1\]"):
        run(tf.squeeze(y, [1]), {y: np.zeros((2, 2))})
    check_gradients(lambda a: tf.expand_dims(a, 1), [np.arange(6.0).reshape(2, 3)])
    check_gradients(lambda a: tf.squeeze(a), [np.arange(3.0).reshape(1, 3, 1)])


# ===================================================================================
# concat / split / stack / unstack
# ===================================================================================

@SETTINGS
@given(shape=small_shapes, data=st.data())
def test_concat_and_split_match_numpy(shape, data):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    sizes = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=4))
    parts = []
    for i, n in enumerate(sizes):
        s = list(shape)
        s[axis] = n
        parts.append(arrays(s, seed=i))
    expected = np.concatenate(parts, axis)
    with tf.Graph().as_default():
        c = tf.concat(parts, axis)
        assert static(c) == list(expected.shape)
        pieces = tf.split(c, sizes, axis=axis)
        with_minus_one = tf.split(c, [-1] + sizes[1:], axis=axis)
        assert [static(p) for p in pieces] == [list(p.shape) for p in parts]
        assert [static(p) for p in with_minus_one] == [list(p.shape) for p in parts]
        got, got_pieces, got_pieces_2 = run([c, pieces, with_minus_one])
        np.testing.assert_array_equal(got, expected)
        for a, b, p in zip(got_pieces, got_pieces_2, parts):
            np.testing.assert_array_equal(a, p)
            np.testing.assert_array_equal(b, p)
        k = data.draw(st.sampled_from([d for d in range(1, 5) if expected.shape[axis] % d == 0]
                                      or [1]))
        if expected.shape[axis] % k == 0:
            equal = tf.split(c, k, axis)
            assert len(equal) == k
            for a, b in zip(run(equal), np.split(expected, k, axis)):
                np.testing.assert_array_equal(a, b)


def test_concat_accepts_variables_lists_and_tf0_order():
    v = tf.Variable([[1.0, 2.0]])
    c = tf.concat([v, [[3.0, 4.0]], tf.constant([[5.0, 6.0]])], 0)
    assert c.op.type == "ConcatV2" and c.op.name == "concat" and static(c) == [3, 2]
    old = tf.concat(1, [tf.ones([2, 1]), tf.zeros([2, 2])])
    one = tf.concat([tf.ones([2])], 0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(c), [[1, 2], [3, 4], [5, 6]])
        np.testing.assert_array_equal(sess.run(old), [[1, 0, 0], [1, 0, 0]])
        np.testing.assert_array_equal(sess.run(one), [1, 1])
    x = tf.placeholder(tf.float32, [None, 3])
    assert static(tf.concat([x, tf.zeros([2, 3])], 0)) == [None, 3]
    assert static(tf.concat([x, tf.zeros([2, 4])], -1)) == [2, 7]


def test_concat_split_errors():
    with pytest.raises(ValueError, match="Dimension 1 in both shapes must be equal, but are 3 "
                                         "and 4"):
        tf.concat([tf.zeros([2, 3]), tf.zeros([2, 4])], 0)
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        tf.concat([tf.zeros([2, 3]), tf.zeros([3])], 0)
    with pytest.raises(ValueError, match=r"concatenating dimensions in the range \[-2, 2\)"):
        tf.concat([tf.zeros([2, 3]), tf.zeros([2, 3])], 2)
    with pytest.raises(ValueError, match="evenly divisible by 3 but is 10"):
        tf.split(tf.zeros([10]), 3)
    with pytest.raises(ValueError, match="Determined shape must either match"):
        tf.split(tf.zeros([10]), [3, 3])
    x = tf.placeholder(tf.float32, [None])
    with pytest.raises(errors.InvalidArgumentError, match="evenly divide the split dimension"):
        run(tf.split(x, 3)[0], {x: np.zeros(10)})
    with pytest.raises(errors.InvalidArgumentError, match="Determined shape must either match"):
        run(tf.split(x, [3, 3])[0], {x: np.zeros(10)})
    a = tf.placeholder(tf.float32, [None, None])
    with pytest.raises(errors.InvalidArgumentError, match="Dimensions of inputs should match"):
        run(tf.concat([a, tf.zeros([1, 3])], 0), {a: np.zeros((1, 2))})


def test_concat_split_gradients():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(4.0).reshape(2, 2)
    check_gradients(lambda x, y: tf.concat([x, y], 1), [a, b])
    check_gradients(lambda x, y: tf.concat([x * 2.0, y], -1), [a, b])
    check_gradients(lambda x: tf.split(x, 3, axis=1)[1], [a])
    check_gradients(lambda x: tf.split(x, [1, -1], axis=1)[1] * 3.0, [a])
    check_gradients(lambda x: tf.concat(tf.split(x, [2, 1], 1)[::-1], 1), [a])

    # Unknown shapes: the gradient uses ConcatOffset + Slice.
    def dynamic(x, y):
        px = tf.placeholder_with_default(x, [None, None])
        py = tf.placeholder_with_default(y, [None, None])
        return tf.concat([px, py], 1)
    check_gradients(dynamic, [a, b])


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=3), data=st.data())
def test_stack_unstack_match_numpy(shape, data):
    n = data.draw(st.integers(1, 4))
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    parts = [arrays(shape, seed=i) for i in range(n)]
    expected = np.stack(parts, axis)
    with tf.Graph().as_default():
        tensors = [tf.constant(p) for p in parts]
        s = tf.stack(tensors, axis=axis)
        assert s.op.type == "Pack" and static(s) == list(expected.shape)
        back = tf.unstack(s, axis=axis)
        assert len(back) == n and all(static(b) == list(shape) for b in back)
        got, got_back = run([s, back])
        np.testing.assert_array_equal(got, expected)
        for a, b in zip(got_back, parts):
            np.testing.assert_array_equal(a, b)


def test_stack_unstack_details_and_gradients():
    assert tf.stack([1, 2, 3]).op.type == "Const"
    assert tf.pack([[1.0], [2.0]]).dtype == tf.float32
    x = tf.placeholder(tf.float32, [None, 2])
    assert static(tf.stack([x, x], axis=1)) == [None, 2, 2]
    assert static(tf.unpack(tf.zeros([3, 2]))[0]) == [2]
    with pytest.raises(ValueError, match="Cannot infer num"):
        tf.unstack(x)
    with pytest.raises(ValueError, match="Shapes must be equal rank"):
        tf.stack([tf.zeros([2]), tf.zeros([2, 1])])
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal"):
        tf.stack([tf.zeros([2]), tf.zeros([3])], axis=1)
    with pytest.raises(ValueError, match=r"axis = 3 not in \[-2, 2\)"):
        tf.stack([tf.zeros([2])], axis=3)
    check_gradients(lambda a, b: tf.stack([a, b * 2.0], axis=1), [np.arange(3.0), np.ones(3)])
    check_gradients(lambda a: tf.unstack(a, axis=1)[2], [np.arange(6.0).reshape(2, 3)])
    check_gradients(lambda a: tf.add_n(tf.unstack(a)[::2]), [np.arange(6.0).reshape(3, 2)])


def test_autopacking_nested_lists():
    t = tf.constant(2)
    packed = tf.convert_to_tensor([[t, 1], [3, 4]])
    assert packed.op.type == "Pack" and packed.dtype == tf.int32 and static(packed) == [2, 2]
    np.testing.assert_array_equal(run(packed), [[2, 1], [3, 4]])
    f = tf.placeholder(tf.float32, [])
    mixed = tf.convert_to_tensor([f, 1, 2.5])
    assert mixed.dtype == tf.float32
    np.testing.assert_array_equal(run(mixed, {f: 7.0}), [7.0, 1.0, 2.5])
    with pytest.raises(TypeError, match="Cannot convert a list containing a tensor of dtype"):
        tf.convert_to_tensor([f, t])


# ===================================================================================
# gather / gather_nd / scatter_nd / one_hot / boolean_mask / unique
# ===================================================================================

@SETTINGS
@given(shape=small_shapes, data=st.data())
def test_gather_matches_numpy(shape, data):
    x = arrays(shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    idx_shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    idx = data.draw(hnp.arrays(np.int32, idx_shape, elements=st.integers(0, n - 1)))
    with tf.Graph().as_default():
        y = tf.gather(x, idx, axis=axis)
        expected = np.take(x, idx, axis=axis)
        assert y.op.type == "GatherV2" and static(y) == list(expected.shape)
        np.testing.assert_array_equal(run(y), expected)


def test_gather_gradient_is_indexed_slices_made_dense_by_a_scatter_add():
    params = np.arange(12.0).reshape(4, 3)
    check_gradients(lambda p: tf.gather(p, [0, 2, 2, 3]), [params])
    check_gradients(lambda p: tf.gather(p, [[1, 1], [0, 2]], axis=1), [params])
    check_gradients(lambda p: tf.gather(p, 2), [params])
    p = tf.constant(params)
    g = tf.gradients(tf.reduce_sum(tf.gather(p, [1, 1, 3])), p)[0]
    assert isinstance(g, tf.IndexedSlices)             # as in TF
    g = tf.convert_to_tensor(g)
    assert static(g) == [4, 3]
    np.testing.assert_array_equal(run(g), [[0] * 3, [2] * 3, [0] * 3, [1] * 3])


def test_gather_out_of_range_index_is_a_run_time_error():
    idx = tf.placeholder(tf.int32, [None])
    y = tf.gather(tf.constant([1.0, 2.0, 3.0]), idx)
    assert static(y) == [None]
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[1\] = 5 is not in \[0, 3\)"):
        run(y, {idx: [0, 5]})
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[0\] = -1 is not in"):
        run(y, {idx: [-1]})
    with pytest.raises(TypeError):
        tf.gather([1.0], [0.5])


def test_gather_nd_scatter_nd():
    params = np.arange(12.0).reshape(3, 4)
    idx = [[0, 1], [2, 3], [0, 1]]
    y = tf.gather_nd(params, idx)
    rows = tf.gather_nd(params, [[2], [0]])
    assert static(y) == [3] and static(rows) == [2, 4]
    np.testing.assert_array_equal(run(y), [1, 11, 1])
    np.testing.assert_array_equal(run(rows), params[[2, 0]])
    s = tf.scatter_nd(idx, [1.0, 2.0, 3.0], [3, 4])
    expected = np.zeros((3, 4))
    expected[0, 1], expected[2, 3] = 4, 2
    assert static(s) == [3, 4]
    np.testing.assert_array_equal(run(s), expected)
    check_gradients(lambda p: tf.gather_nd(p, idx), [params])
    check_gradients(lambda u: tf.scatter_nd(idx, u, [3, 4]), [np.ones(3)])
    with pytest.raises(errors.InvalidArgumentError, match="is not in"):
        run(tf.gather_nd(params, [[3, 0]]))


@SETTINGS
@given(idx=hnp.arrays(np.int32, hnp.array_shapes(min_dims=0, max_dims=2, max_side=4),
                      elements=st.integers(-1, 5)),
       depth=st.integers(0, 5), data=st.data())
def test_one_hot_matches_numpy(idx, depth, data):
    axis = data.draw(st.integers(-1, idx.ndim))
    expected = (idx[..., None] == np.arange(depth)).astype(np.float32)
    if axis != -1:
        expected = np.moveaxis(expected, -1, axis)
    with tf.Graph().as_default():
        y = tf.one_hot(idx, depth, axis=axis)
        assert y.dtype == tf.float32 and static(y) == list(expected.shape)
        np.testing.assert_array_equal(run(y), expected)


def test_one_hot_dtypes_and_values():
    y = tf.one_hot([0, 2], 3, on_value=5, off_value=-1)
    assert y.dtype == tf.int32 and y.op.name == "one_hot"
    np.testing.assert_array_equal(run(y), [[5, -1, -1], [-1, -1, 5]])
    assert tf.one_hot([1], 2, dtype=tf.float64).dtype == tf.float64
    assert tf.one_hot([1], 2, on_value=2.0).dtype == tf.float32
    labels = tf.placeholder(tf.int64, [None])
    assert static(tf.one_hot(labels, 10)) == [None, 10]
    with pytest.raises(TypeError, match="does not match"):
        tf.one_hot([1], 2, on_value=1.0, dtype=tf.int32)
    with pytest.raises(TypeError, match="does not match"):
        tf.one_hot([1], 2, on_value=1.0, off_value=0)


def test_boolean_mask():
    x = np.arange(12.0).reshape(3, 4)
    m = np.array([True, False, True])
    y = tf.boolean_mask(x, m)
    assert static(y) == [None, 4]
    np.testing.assert_array_equal(run(y), x[m])
    m2 = x > 4
    y2 = tf.boolean_mask(x, m2)
    np.testing.assert_array_equal(run(y2), x[m2])
    cols = tf.boolean_mask(x, [True, False, False, True], axis=1)
    np.testing.assert_array_equal(run(cols), x[:, [0, 3]])
    np.testing.assert_array_equal(run(tf.constant(x)[tf.constant(m)]), x[m])
    check_gradients(lambda a: tf.boolean_mask(a, m2), [x])
    with pytest.raises(ValueError, match="mask cannot be scalar"):
        tf.boolean_mask(x, True)


def test_unique():
    y, idx = tf.unique([1, 1, 2, 4, 4, 4, 7, 8, 8])
    assert static(y) == [None] and static(idx) == [9]
    a, b = run([y, idx])
    np.testing.assert_array_equal(a, [1, 2, 4, 7, 8])
    np.testing.assert_array_equal(b, [0, 0, 1, 2, 2, 2, 3, 4, 4])
    a, b = run(list(tf.unique([3, 1, 3, 2])))
    np.testing.assert_array_equal(a, [3, 1, 2])
    np.testing.assert_array_equal(b, [0, 1, 0, 2])


# ===================================================================================
# zeros / ones / fill / range / shape / size / rank
# ===================================================================================

def test_zeros_ones_fill():
    z = tf.zeros([2, 3])
    assert z.op.type == "Const" and z.op.name == "zeros" and z.dtype == tf.float32
    big = tf.ones([784, 10], dtype=tf.int32)
    assert big.op.type == "Fill" and big.op.name == "ones" and static(big) == [784, 10]
    assert tf.zeros(tf.TensorShape([2])).get_shape().as_list() == [2]
    n = tf.placeholder(tf.int32, [])
    dyn = tf.zeros([n, 3], dtype=tf.float64)
    assert dyn.op.type == "Fill" and static(dyn) == [None, 3] and dyn.dtype == tf.float64
    b = tf.zeros([2], dtype=tf.bool)
    f = tf.fill([2, 2], 9)
    assert static(f) == [2, 2] and f.dtype == tf.int32
    z_val, big_val, dyn_val, b_val, f_val = run([z, big, dyn, b, f], {n: 4})
    np.testing.assert_array_equal(z_val, np.zeros((2, 3)))
    assert big_val.dtype == np.int32 and big_val.sum() == 7840
    assert dyn_val.shape == (4, 3) and dyn_val.dtype == np.float64
    assert b_val.dtype == np.bool_ and not b_val.any()
    np.testing.assert_array_equal(f_val, np.full((2, 2), 9))
    check_gradients(lambda v: tf.fill([2, 3], tf.reshape(v, [])), [np.array([1.5])])


@pytest.mark.parametrize("args, kwargs, dtype", [
    ((5,), {}, tf.int32), ((1, 7, 2), {}, tf.int32), ((1.0, 3), {}, tf.float32),
    ((0, 1, 0.25), {}, tf.float32), ((3,), {"dtype": tf.float64}, tf.float64),
    ((10, 2, -3), {}, tf.int32), ((np.int64(4),), {}, tf.int64)])
def test_range(args, kwargs, dtype):
    r = tf.range(*args, **kwargs)
    expected = np.arange(*args) if len(args) > 1 else np.arange(args[0])
    assert r.dtype == dtype and r.op.type == "Range" and static(r) == [len(expected)]
    np.testing.assert_allclose(run(r), expected)
    assert run(r).dtype == dtype.as_numpy_dtype


def test_range_with_tensors_and_errors():
    n = tf.placeholder(tf.int32, [])
    r = tf.range(n)
    assert static(r) == [None] and r.op.name == "range"
    np.testing.assert_array_equal(run(r, {n: 3}), [0, 1, 2])
    assert tf.range(tf.constant(2.0), 4).dtype == tf.float32
    with pytest.raises(errors.InvalidArgumentError, match="Requires delta != 0"):
        run(tf.range(0, n, 0), {n: 3})
    with pytest.raises(errors.InvalidArgumentError, match="Requires start <= limit"):
        run(tf.range(5, n), {n: 3})


def test_shape_size_rank():
    x = tf.placeholder(tf.float32, [None, 3])
    s, sz, r = tf.shape(x), tf.size(x), tf.rank(x)
    assert s.op.type == "Shape" and static(s) == [2] and s.dtype == tf.int32
    assert sz.op.type == "Size" and static(sz) == []
    assert r.op.type == "Const" and run(r) == 2
    assert tf.shape(tf.zeros([2, 5])).op.type == "Const"
    assert tf.shape(x, out_type=tf.int64).dtype == tf.int64
    u = tf.placeholder(tf.float32)
    assert tf.rank(u).op.type == "Rank"
    a, b = tf.shape_n([x, u])
    assert a.op.type == "ShapeN" and static(a) == [2] and b.get_shape().as_list() == [None]
    value = np.zeros((4, 3), np.float32)
    got = run([s, sz, tf.rank(u), a, b, tf.size(tf.zeros([2, 0]))],
              {x: value, u: np.zeros((1, 2, 5))})
    np.testing.assert_array_equal(got[0], [4, 3])
    assert got[1] == 12 and got[2] == 3 and got[5] == 0
    np.testing.assert_array_equal(got[3], [4, 3])
    np.testing.assert_array_equal(got[4], [1, 2, 5])
    # tf.shape(x)[1] of a (?, 3) tensor is statically 3, so the reshape is known too.
    assert static(tf.reshape(x, [-1, tf.shape(x)[1]])) == [None, 3]


# ===================================================================================
# tile / pad / reverse
# ===================================================================================

@SETTINGS
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, max_side=3), data=st.data())
def test_tile_matches_numpy_and_gradient(shape, data):
    x = arrays(shape)
    reps = data.draw(st.lists(st.integers(0, 3), min_size=len(shape), max_size=len(shape)))
    with tf.Graph().as_default():
        y = tf.tile(x, reps)
        assert static(y) == list(np.tile(x, reps).shape)
        np.testing.assert_array_equal(run(y), np.tile(x, reps))
    if np.prod(shape) * max(np.prod(reps), 1) <= 48:
        check_gradients(lambda a: tf.tile(a, reps), [x])


@pytest.mark.parametrize("as_arg", [lambda v: v, np.array, tf.constant],
                         ids=["python", "ndarray", "constant"])
def test_shape_arguments_give_static_shapes(as_arg):
    x = tf.zeros([2, 3])
    checks = [
        (tf.reshape(x, as_arg([3, -1])), [3, 2]),
        (tf.tile(x, as_arg([2, 1])), [4, 3]),
        (tf.fill(as_arg([4, 1]), 2.0), [4, 1]),
        (tf.zeros(as_arg([5, 2])), [5, 2]),
        (tf.ones(as_arg([50, 40])), [50, 40]),
        (tf.slice(x, as_arg([0, 1]), as_arg([-1, 2])), [2, 2]),
        (tf.pad(x, as_arg([[1, 0], [2, 2]])), [3, 7]),
        (tf.pad(x, as_arg([[1, 0], [2, 2]]), mode="SYMMETRIC"), [3, 7]),
        (tf.transpose(x, as_arg([1, 0])), [3, 2]),
        (tf.expand_dims(x, as_arg(1)), [2, 1, 3]),
        (tf.one_hot(as_arg([1, 2]), as_arg(4)), [2, 4]),
        (tf.gather(x, as_arg([0, 0, 1]), axis=as_arg(0)), [3, 3]),
        (tf.concat([x, x], as_arg(1)), [2, 6]),
        (tf.range(as_arg(1), as_arg(7), as_arg(2)), [3]),
        (tf.strided_slice(x, as_arg([0, 1]), as_arg([2, 3]), as_arg([1, 1])), [2, 2]),
        (tf.reverse(x, as_arg([1])), [2, 3]),
    ]
    checks += [(p, [2, s]) for p, s in zip(tf.split(x, as_arg([1, -1]), axis=1), [1, 2])]
    for t, expected in checks:
        assert static(t) == expected, t.op.type
    values = run([t for t, _ in checks])
    assert [list(np.shape(v)) for v in values] == [e for _, e in checks]


def test_tile_errors_and_dynamic_shape():
    with pytest.raises(ValueError, match="Shape must be rank 2"):
        tf.tile(tf.zeros([2, 2]), [1, 2, 3])
    x = tf.placeholder(tf.float32, [None, 2])
    assert static(tf.tile(x, [3, 2])) == [None, 4]
    m = tf.placeholder(tf.int32, [None])
    with pytest.raises(errors.InvalidArgumentError, match="vector of length 2"):
        run(tf.tile(x, m), {x: np.zeros((1, 2)), m: [1, 1, 1]})


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3),
       mode=st.sampled_from(["CONSTANT", "REFLECT", "SYMMETRIC", "constant", "reflect"]),
       data=st.data())
def test_pad_matches_numpy(shape, mode, data):
    x = arrays(shape)
    limit = {"REFLECT": -1, "SYMMETRIC": 0, "CONSTANT": 2}[mode.upper()]
    paddings = [[data.draw(st.integers(0, max(0, d + limit))) for _ in range(2)]
                for d in shape]
    with tf.Graph().as_default():
        y = tf.pad(x, paddings, mode=mode)
        expected = np.pad(x, paddings, mode=mode.lower())
        assert static(y) == list(expected.shape)
        np.testing.assert_array_equal(run(y), expected)


def test_pad_constant_values_gradients_and_errors():
    x = np.arange(6.0).reshape(2, 3)
    y = tf.pad(x, [[1, 0], [0, 2]], constant_values=7)
    assert y.op.type == "PadV2"
    np.testing.assert_array_equal(run(y), np.pad(x, [[1, 0], [0, 2]], constant_values=7))
    for mode in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        check_gradients(lambda a: tf.pad(a, [[1, 1], [2, 1]], mode=mode), [x])
    check_gradients(lambda a: tf.pad(a, [[0, 1], [1, 0]], constant_values=3.0), [x])
    p = tf.placeholder(tf.int32, [2, 2])
    dyn = tf.pad(tf.constant(x), p)
    assert static(dyn) == [None, None]
    g = tf.gradients(dyn, tf.constant(x))   # another constant: not connected
    assert g == [None]
    with pytest.raises(ValueError, match="Unknown padding mode"):
        tf.pad(x, [[1, 1], [1, 1]], mode="WRAP")
    with pytest.raises(ValueError, match="non-negative"):
        tf.pad(x, [[-1, 1], [1, 1]])
    with pytest.raises(errors.InvalidArgumentError, match="less than the dimension size"):
        run(tf.pad(x, p, mode="REFLECT"), {p: [[2, 0], [0, 0]]})


def test_reverse():
    x = np.arange(24.0).reshape(2, 3, 4)
    y = tf.reverse(x, [0, 2])
    assert y.op.type == "ReverseV2" and static(y) == [2, 3, 4]
    np.testing.assert_array_equal(run(y), x[::-1, :, ::-1])
    np.testing.assert_array_equal(run(tf.reverse_v2(x, [-2])), x[:, ::-1])
    check_gradients(lambda a: tf.reverse(a, [1]), [x[0]])


# ===================================================================================
# slice / strided_slice / Tensor.__getitem__
# ===================================================================================

def test_slice():
    x = np.arange(24.0).reshape(2, 3, 4)
    y = tf.slice(x, [1, 0, 1], [1, -1, 2])
    assert y.op.type == "Slice" and static(y) == [1, 3, 2]
    np.testing.assert_array_equal(run(y), x[1:2, :, 1:3])
    check_gradients(lambda a: tf.slice(a, [0, 1], [2, 2]), [x[0, :2]])
    with pytest.raises(ValueError, match=r"Expected size\[1\] in \[0, 2\], but got 3"):
        tf.slice(x, [0, 1, 0], [1, 3, 1])
    b = tf.placeholder(tf.int32, [3])
    dyn = tf.slice(x, b, [1, 2, -1])
    assert static(dyn) == [1, 2, None]
    with pytest.raises(errors.InvalidArgumentError, match=r"Expected size\[1\] in \[0, 1\]"):
        run(dyn, {b: [0, 2, 0]})


def _index_entry(dim):
    """One entry of a NumPy basic index for a dimension of size `dim`."""
    bound = st.one_of(st.none(), st.integers(-dim - 2, dim + 2))
    return st.one_of(
        st.integers(-dim, dim - 1),
        st.builds(slice, bound, bound, st.one_of(st.none(), st.sampled_from([-2, -1, 1, 2, 3]))))


@st.composite
def index_specs(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4))
    n_used = draw(st.integers(0, len(shape)))
    entries = [draw(_index_entry(d)) for d in shape[:n_used]]
    if draw(st.booleans()):                        # an ellipsis somewhere
        entries.insert(draw(st.integers(0, len(entries))), Ellipsis)
        # the dims after the ellipsis are the last ones: draw entries valid for those
        k = entries.index(Ellipsis)
        tail = len(entries) - k - 1
        entries[k + 1:] = [draw(_index_entry(d)) for d in shape[len(shape) - tail:]]
    for _ in range(draw(st.integers(0, 2))):       # tf.newaxis entries
        entries.insert(draw(st.integers(0, len(entries))), None)
    spec = tuple(entries) if len(entries) != 1 or draw(st.booleans()) else entries[0]
    return shape, spec


@SETTINGS
@given(case=index_specs())
def test_getitem_matches_numpy(case):
    shape, spec = case
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    expected = x[spec]
    with tf.Graph().as_default():
        y = tf.constant(x)[spec]
        assert y.op.type == "StridedSlice"
        assert static(y) == list(np.shape(expected))
        np.testing.assert_array_equal(run(y), expected)
        unknown = tf.placeholder(tf.float32, [None] * len(shape))
        z = unknown[spec]
        assert z.get_shape().is_compatible_with(np.shape(expected))
        np.testing.assert_array_equal(run(z, {unknown: x}), expected)


def test_getitem_common_forms_and_static_shapes():
    x = tf.placeholder(tf.float32, [None, 28, 28])
    assert static(x[0]) == [28, 28]
    assert static(x[:, 0]) == [None, 28]
    assert static(x[..., None]) == [None, 28, 28, 1]
    assert static(x[:, tf.newaxis, 1:3, ::2]) == [None, 1, 2, 14]
    assert static(x[1:3]) == [None, 28, 28]
    assert static(x[..., -1]) == [None, 28]
    with tf.Graph().as_default():
        first = tf.placeholder(tf.float32, [3])[0]
        assert first.op.name == "strided_slice" and first.op.inputs[1].op.name == \
            "strided_slice/stack"
    v = np.arange(10.0)
    c = tf.constant(v)
    np.testing.assert_array_equal(run(c[::-1]), v[::-1])
    np.testing.assert_array_equal(run(c[-3:]), v[-3:])
    i = tf.placeholder(tf.int32, [])
    assert static(c[i]) == [] and static(c[i:]) == [None]
    got = run([c[i], c[i:], c[:i]], {i: 7})
    assert got[0] == 7.0
    np.testing.assert_array_equal(got[1], v[7:])
    np.testing.assert_array_equal(got[2], v[:7])
    # Variables and iteration use __getitem__ too.
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    rows = list(tf.constant([[1, 2], [3, 4]]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(w[1, :]), [3.0, 4.0])
        np.testing.assert_array_equal(sess.run(rows[1]), [3, 4])


def test_getitem_errors():
    c = tf.constant(np.arange(6.0).reshape(2, 3))
    with pytest.raises(TypeError, match="Only integers, slices"):
        c[1.5]
    with pytest.raises(TypeError, match="Only integers, slices"):
        c[tf.constant([0, 1])]
    with pytest.raises(ValueError, match="slice index 2 of dimension 0 out of bounds"):
        c[2]
    with pytest.raises(ValueError, match="Index out of range using input dim 2"):
        c[0, 0, 0]
    with pytest.raises(ValueError, match="Multiple ellipses"):
        c[..., 0, ...]
    i = tf.placeholder(tf.int32, [])
    with pytest.raises(errors.InvalidArgumentError, match="out of bounds"):
        run(c[i], {i: 5})


def test_strided_slice_gradients():
    x = np.arange(24.0).reshape(2, 3, 4)
    check_gradients(lambda a: a[1], [x])
    check_gradients(lambda a: a[:, ::-2, 1:3], [x])
    check_gradients(lambda a: a[..., tf.newaxis, -1], [x])
    check_gradients(lambda a: a[0, :, None, ::3], [x])
    check_gradients(lambda a: tf.strided_slice(a, [0, 1], [2, 3], [1, 1]), [x[0]])


# ===================================================================================
# extras: check_numerics, sequence_mask, zeros_like / ones_like
# ===================================================================================

def test_check_numerics_sequence_mask_and_likes():
    x = tf.placeholder(tf.float32, [None])
    y = tf.check_numerics(x, "bad x")
    np.testing.assert_array_equal(run(y, {x: [1.0, 2.0]}), [1.0, 2.0])
    with pytest.raises(errors.InvalidArgumentError, match="bad x : Tensor had NaN values"):
        run(y, {x: [np.nan]})
    check_gradients(lambda a: tf.check_numerics(a, "m") * 2.0, [np.ones(3)])
    m = tf.sequence_mask([1, 3], 4)
    assert m.dtype == tf.bool
    np.testing.assert_array_equal(run(m), [[1, 0, 0, 0], [1, 1, 1, 0]])
    np.testing.assert_array_equal(run(tf.sequence_mask([2, 1], dtype=tf.float32)),
                                  [[1, 1], [1, 0]])
    z, o = tf.zeros_like(tf.ones([2, 2])), tf.ones_like([1, 2], dtype=tf.float32)
    assert o.dtype == tf.float32
    np.testing.assert_array_equal(run(z), np.zeros((2, 2)))
    np.testing.assert_array_equal(run(o), [1.0, 1.0])


def test_conjugate_transpose_conjugates_complex_tensors_as_tf():
    """transpose(conjugate=True), matrix_transpose(conjugate=True) and tf.linalg.adjoint build
    TF's ConjugateTranspose for complex tensors (a plain Transpose for real ones); values and
    the gradient are TF 2.15.1's."""
    a = tf.constant([[1 + 2j, 3 - 1j], [1j, 2]], tf.complex64)
    t = tf.transpose(a, conjugate=True)
    weights = tf.constant([[1 + 1j, 2], [3j, 1 - 1j]], tf.complex64)
    grad = tf.gradients(tf.reduce_sum(tf.real(t * weights)), a)[0]
    assert t.op.type == "ConjugateTranspose"
    assert tf.matrix_transpose(tf.ones([2, 3]), conjugate=True).op.type == "Transpose"
    with tf.Session() as sess:
        expected = [[1 - 2j, -1j], [3 + 1j, 2]]
        assert sess.run(t).tolist() == expected
        assert sess.run(tf.linalg.adjoint(a)).tolist() == expected
        assert sess.run(tf.matrix_transpose(a[None], conjugate=True))[0].tolist() == expected
        assert sess.run(grad).tolist() == [[1 + 1j, 3j], [2, 1 - 1j]]
