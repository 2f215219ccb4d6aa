"""The sparse ops (ops/sparse_ops.py) and tf.nn.embedding_lookup_sparse (ops/nn_impl.py).

Values, op names, static shapes and error messages are what TensorFlow 2.15 (tf.compat.v1,
graph mode) gives for the same programs, quoted in the comments; gradients are also checked
against finite differences (tests/gradcheck.py). The last test runs a sparse placeholder fed
on a worker through embedding_lookup_sparse of a table on two ps tasks, on real processes."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from tests.gradcheck import check_gradients

INDICES = [[0, 0], [0, 2], [1, 1], [2, 3]]
VALUES = [1.0, 2.0, 3.0, 4.0]
SHAPE = [3, 4]
DENSE = np.array([[1, 0, 2, 0], [0, 3, 0, 0], [0, 0, 0, 4]], np.float32)


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


def sp():
    return tf.SparseTensor(INDICES, VALUES, SHAPE)


def dense_of(value):
    out = np.zeros(value.dense_shape, value.values.dtype)
    np.add.at(out, tuple(np.asarray(value.indices).T), value.values)
    return out


# -- to_dense, sparse_to_dense ---------------------------------------------------------------

def test_to_dense_builds_sparse_to_dense_with_a_zeros_default():
    d = tf.sparse_tensor_to_dense(sp())
    # TF: SparseToDense:0 SparseToDense (3, 4), inputs [indices, dense_shape, values, zeros:0]
    assert (d.name, d.op.type, d.get_shape().as_list()) == ("SparseToDense:0", "SparseToDense",
                                                            [3, 4])
    assert [t.name for t in d.op.inputs] == ["SparseTensor/indices:0",
                                             "SparseTensor/dense_shape:0",
                                             "SparseTensor/values:0", "zeros:0"]
    assert d.op.get_attr("validate_indices") is True
    d2 = tf.sparse.to_dense(sp(), default_value=-1.0, name="dd")
    out, out2 = run([d, d2])
    np.testing.assert_array_equal(out, DENSE)
    np.testing.assert_array_equal(out2, np.where(DENSE == 0, -1, DENSE))
    assert d2.name == "dd:0"


@pytest.mark.parametrize("indices, validate, message", [
    # TF's messages, word for word
    ([[1, 2], [0, 0]], True, "indices[1] = [0,0] is out of order. Many sparse ops require "
                             "sorted indices.\n    Use `tf.sparse.reorder` to create a correctly "
                             "ordered copy."),
    ([[0, 0], [0, 0]], True, "indices[1] = [0,0] is repeated"),
    ([[0, 0], [5, 0]], True, "indices[1] = [5,0] is out of bounds: need 0 <= index < [3,4]"),
    ([[0, 0], [5, 0]], False, "Indices are not valid (out of bounds).  Shape: [3,4]"),
    ([[0, 0], [-1, 0]], False, "Indices are not valid (out of bounds).  Shape: [3,4]"),
])
def test_to_dense_validates_indices_as_tf(indices, validate, message):
    d = tf.sparse.to_dense(tf.SparseTensor(indices, [2.0, 1.0], [3, 4]),
                           validate_indices=validate)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        run(d)
    assert message in str(info.value)


def test_to_dense_without_validation_takes_unordered_indices():
    unordered = tf.SparseTensor([[1, 2], [0, 0]], [2.0, 1.0], [3, 4])
    out = run(tf.sparse.to_dense(unordered, validate_indices=False))
    np.testing.assert_array_equal(out, [[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]])


def test_to_dense_of_a_placeholder_has_the_static_shape_tf_gives():
    # TF: (?, ?) with a shape (the PlaceholderWithDefault hides it), <unknown> without
    p = tf.sparse_placeholder(tf.float32, shape=[None, 5])
    assert tf.sparse.to_dense(p).get_shape().as_list() == [None, None]
    assert tf.sparse.to_dense(tf.sparse_placeholder(tf.float32)).get_shape().ndims is None


def test_to_dense_takes_a_sparse_tensor_value_and_nothing_dense():
    np.testing.assert_array_equal(run(tf.sparse.to_dense(tf.SparseTensorValue([[1]], [5.0],
                                                                              [3]))), [0, 5, 0])
    with pytest.raises(TypeError, match="Input must be a SparseTensor."):   # TF's words
        tf.sparse.to_dense(tf.ones([3]))


def test_sparse_to_dense_with_vector_scalar_and_matrix_indices():
    a = tf.sparse_to_dense([1, 3], [5], [7, 8])
    assert a.get_shape().as_list() == [5]
    # TF: [0 7 0 8 0], [-1. -1. 1.5 -1.], [[0 3] [3 0]]
    out = run([a, tf.sparse_to_dense(2, [4], 1.5, default_value=-1.0),
               tf.sparse_to_dense([[0, 1], [1, 0]], [2, 2], 3)])
    np.testing.assert_array_equal(out[0], [0, 7, 0, 8, 0])
    np.testing.assert_array_equal(out[1], [-1, -1, 1.5, -1])
    np.testing.assert_array_equal(out[2], [[0, 3], [3, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"sparse_values has incorrect shape \[3\], should be \[\] or \[2\]"):
        run(tf.sparse_to_dense([[0, 1], [1, 0]], [2, 2], [1, 2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"sparse_indices should be a scalar, vector, or matrix, got shape "
                             r"\[1,1,1\]"):
        run(tf.sparse_to_dense([[[0]]], [2], 1))


def test_to_dense_gradient_reaches_the_values():
    st = tf.SparseTensor(INDICES, tf.constant(VALUES), SHAPE)
    weights = np.arange(12, dtype=np.float32).reshape(3, 4)
    g = tf.gradients(tf.reduce_sum(tf.sparse.to_dense(st) * weights), st.values)[0]
    assert g.op.type == "GatherNd"           # TF: gradients/SparseToDense_grad/GatherNd:0
    np.testing.assert_array_equal(run(g), [0, 2, 5, 11])        # TF: [0. 2. 5. 11.]
    check_gradients(lambda v: tf.sparse.to_dense(tf.SparseTensor(INDICES, v, SHAPE)),
                    [np.array(VALUES)])


# -- reorder, retain, slice, from_dense -------------------------------------------------------

def test_reorder_sorts_row_major_and_its_gradient_follows():
    unordered = tf.SparseTensor([[1, 2], [0, 0], [0, 3]], tf.constant([2.0, 1.0, 5.0]), [3, 4])
    r = tf.sparse.reorder(unordered)
    # TF: SparseReorder:0, SparseReorder:1, a new SparseTensor's dense_shape (the shape is known)
    assert (r.indices.name, r.values.name) == ("SparseReorder:0", "SparseReorder:1")
    assert r.dense_shape.op.type == "Const" and r.get_shape().as_list() == [3, 4]
    out = run(r)
    np.testing.assert_array_equal(out.indices, [[0, 0], [0, 3], [1, 2]])
    np.testing.assert_array_equal(out.values, [1.0, 5.0, 2.0])
    g = tf.gradients(tf.reduce_sum(r.values * [10.0, 20.0, 30.0]), unordered.values)[0]
    np.testing.assert_array_equal(run(g), [30.0, 10.0, 20.0])
    assert tf.sparse_reorder(unordered, name="ro").values.name == "ro:1"
    p = tf.sparse_placeholder(tf.float32, shape=[None, 4])
    assert tf.sparse.reorder(p).get_shape().as_list() == [None, 4]


def test_retain_keeps_the_entries_of_a_mask():
    rt = tf.sparse_retain(sp(), [True, False, True, False])
    # TF: GatherV2:0 GatherV2_1:0 Identity:0
    assert (rt.indices.name, rt.values.name, rt.dense_shape.name) == \
        ("GatherV2:0", "GatherV2_1:0", "Identity:0")
    out = run(rt)
    np.testing.assert_array_equal(out.indices, [[0, 0], [1, 1]])
    np.testing.assert_array_equal(out.values, [1.0, 3.0])
    with pytest.raises(ValueError, match="Dimensions 4 and 2 are not compatible"):
        tf.sparse_retain(sp(), [True, False])


def test_slice_cuts_a_box_and_its_gradient_goes_to_the_kept_entries():
    st = tf.SparseTensor(INDICES, tf.constant(VALUES), SHAPE)
    sl = tf.sparse.slice(st, [0, 1], [2, 3])
    assert (sl.indices.name, sl.values.name, sl.dense_shape.name) == \
        ("SparseSlice:0", "SparseSlice:1", "SparseSlice:2")
    assert sl.get_shape().as_list() == [None, None]             # TF: (?, ?)
    out, edge = run([sl, tf.sparse_slice(st, [1, 2], [5, 5])])
    # TF: indices [[0 1] [1 0]], values [2. 3.], dense_shape [2 3]; at the edge: [[1 1]], [4.],
    # [2 2]
    np.testing.assert_array_equal(out.indices, [[0, 1], [1, 0]])
    np.testing.assert_array_equal(out.values, [2.0, 3.0])
    np.testing.assert_array_equal(out.dense_shape, [2, 3])
    np.testing.assert_array_equal(edge.indices, [[1, 1]])
    np.testing.assert_array_equal(edge.dense_shape, [2, 2])
    g = tf.gradients(tf.reduce_sum(sl.values * 3.0), st.values)[0]
    np.testing.assert_array_equal(run(g), [0, 3, 3, 0])           # TF: [0. 3. 3. 0.]


def test_from_dense_keeps_the_non_zero_entries():
    out = run(tf.sparse.from_dense([[0, 3], [4, 0]]))
    np.testing.assert_array_equal(out.indices, [[0, 1], [1, 0]])
    np.testing.assert_array_equal(out.values, [3, 4])
    np.testing.assert_array_equal(out.dense_shape, [2, 2])


# -- reduce_sum --------------------------------------------------------------------------------

def test_reduce_sum_over_all_axes_or_some():
    total = tf.sparse_reduce_sum(sp())
    rows = tf.sparse.reduce_sum(sp(), axis=1)
    kept = tf.sparse.reduce_sum(sp(), axis=0, keepdims=True)
    last = tf.sparse.reduce_sum(sp(), axis=-1)
    # TF: SparseReduceSum:0 () 10.0; (3,) [3 3 4]; (1, 4) [[1 3 2 4]]
    assert (total.name, total.get_shape().as_list()) == ("SparseReduceSum:0", [])
    assert total.op.inputs[3].op.type == "Const"
    assert rows.get_shape().as_list() == [3] and kept.get_shape().as_list() == [1, 4]
    out = run([total, rows, kept, last])
    assert out[0] == 10.0
    np.testing.assert_array_equal(out[1], [3, 3, 4])
    np.testing.assert_array_equal(out[2], [[1, 3, 2, 4]])
    np.testing.assert_array_equal(out[3], [3, 3, 4])
    st3 = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 0, 1]], [1.0, 2.0, 3.0], [2, 2, 2])
    np.testing.assert_array_equal(run(tf.sparse_reduce_sum(st3, [0, 2])), [4, 2])  # TF: [4. 2.]
    np.testing.assert_array_equal(run(tf.sparse_reduce_sum(sp(), 1, keep_dims=True)),
                                  [[3], [3], [4]])
    p = tf.sparse_placeholder(tf.float32, shape=[None, 5])
    assert tf.sparse.reduce_sum(p, 1).get_shape().ndims is None          # TF: <unknown>


def test_reduce_sum_of_a_bad_axis_is_tf_error_when_it_runs():
    for axis in (2, tf.placeholder_with_default(2, [])):      # TF: at run time, both
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Invalid reduction dimension 2, for input with 2 dimensions."):
            run(tf.sparse.reduce_sum(sp(), axis=axis))


def test_reduce_sum_gradient():
    st = tf.SparseTensor(INDICES, tf.constant(VALUES), SHAPE)
    rows = tf.sparse.reduce_sum(st, axis=1)
    g = tf.gradients(tf.reduce_sum(rows * [1.0, 2.0, 3.0]), st.values)[0]
    assert g.op.type == "GatherNd"     # TF: gradients/SparseReduceSum_grad/GatherNd:0
    np.testing.assert_array_equal(run(g), [1, 1, 2, 3])                # TF: [1. 1. 2. 3.]
    for axis in (None, 0, [0, 1]):
        check_gradients(lambda v: tf.sparse.reduce_sum(tf.SparseTensor(INDICES, v, SHAPE),
                                                       axis=axis), [np.array(VALUES)])


# -- sparse_tensor_dense_matmul ------------------------------------------------------------------

B = np.arange(8, dtype=np.float32).reshape(4, 2)


def test_sparse_dense_matmul_matches_the_dense_product():
    m = tf.sparse_tensor_dense_matmul(sp(), B)
    # TF: SparseTensorDenseMatMul/SparseTensorDenseMatMul:0 (3, 2), [[8 11] [6 9] [24 28]]
    assert (m.name, m.get_shape().as_list()) == \
        ("SparseTensorDenseMatMul/SparseTensorDenseMatMul:0", [3, 2])
    m2 = tf.sparse.sparse_dense_matmul(sp(), B.T, adjoint_b=True, name="mm2")
    assert m2.name == "mm2/SparseTensorDenseMatMul:0"
    c = np.arange(6, dtype=np.float32).reshape(3, 2)
    m3 = tf.sparse_tensor_dense_matmul(sp(), c, adjoint_a=True)
    assert m3.get_shape().as_list() == [4, 2]
    out = run([m, m2, m3])
    np.testing.assert_array_equal(out[0], [[8, 11], [6, 9], [24, 28]])
    np.testing.assert_array_equal(out[0], DENSE @ B)
    np.testing.assert_array_equal(out[1], DENSE @ B)
    np.testing.assert_array_equal(out[2], DENSE.T @ c)       # TF: [[0 1] [6 9] [0 2] [16 20]]


def test_sparse_dense_matmul_gradients_as_tf():
    st = tf.SparseTensor(INDICES, tf.constant(VALUES), SHAPE)
    b = tf.constant(B)
    m = tf.sparse_tensor_dense_matmul(st, b)
    gb, ga = tf.gradients(tf.reduce_sum(m * [[1.0, 2.0]]), [b, st.values])
    assert isinstance(gb, tf.Tensor) and gb.op.type == "SparseTensorDenseMatMul"
    gb_value, ga_value = run([gb, ga])
    # TF: [[1 2] [3 6] [2 4] [4 8]] and [2 14 8 20]
    np.testing.assert_array_equal(gb_value, [[1, 2], [3, 6], [2, 4], [4, 8]])
    np.testing.assert_array_equal(ga_value, [2, 14, 8, 20])
    c = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    m3 = tf.sparse_tensor_dense_matmul(st, c, adjoint_a=True)
    gc, ga3 = tf.gradients(tf.reduce_sum(m3 * tf.constant([[1.0, 2.0]] * 4)), [c, st.values])
    gc_value, ga3_value = run([gc, ga3])
    np.testing.assert_array_equal(gc_value, [[3, 6], [3, 6], [4, 8]])     # TF's
    np.testing.assert_array_equal(ga3_value, [2, 2, 8, 14])                # TF's
    rng = np.random.default_rng(3)
    for adj_a, adj_b in [(False, False), (True, False), (False, True), (True, True)]:
        shape_b = {False: (4, 2), True: (3, 2)}[adj_a]
        b_value = rng.standard_normal(shape_b[::-1] if adj_b else shape_b)
        check_gradients(lambda v, bb: tf.sparse_tensor_dense_matmul(
            tf.SparseTensor(INDICES, v, SHAPE), bb, adjoint_a=adj_a, adjoint_b=adj_b),
            [np.array(VALUES), b_value])


def test_sparse_dense_matmul_errors_as_tf():
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 4 and 3"):
        tf.sparse_tensor_dense_matmul(sp(), tf.ones([3, 2]))
    with pytest.raises(TypeError, match="Input 'b' of 'SparseTensorDenseMatMul' Op has type "
                                        "int32 that does not match type float32 of argument "
                                        "'a_values'."):
        tf.sparse_tensor_dense_matmul(sp(), tf.ones([4, 2], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot multiply A and B because inner dimension does not match: "
                             r"4 vs. 3"):
        run(tf.sparse_tensor_dense_matmul(
            sp(), tf.placeholder_with_default(tf.ones([3, 2]), [None, None])))
    oob = tf.SparseTensor([[0, 0], [5, 0]], [2.0, 1.0], [3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"m \(5\) from index\[1,0\] out of bounds \(>=3\)"):
        run(tf.sparse_tensor_dense_matmul(oob, tf.ones([4, 2])))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"k \(7\) from index\[0,1\] out of bounds \(>=4\)"):
        run(tf.sparse_tensor_dense_matmul(tf.SparseTensor([[0, 7]], [1.0], [3, 4]),
                                          tf.ones([4, 2])))


# -- add ----------------------------------------------------------------------------------------

def test_add_with_a_dense_tensor_is_dense():
    ad = tf.sparse.add(sp(), tf.ones([3, 4]))
    ad2 = tf.sparse_add(tf.ones([3, 4]), sp())
    assert (ad.name, ad.op.type) == ("SparseTensorDenseAdd:0", "SparseTensorDenseAdd")
    out = run([ad, ad2])
    np.testing.assert_array_equal(out[0], DENSE + 1)
    np.testing.assert_array_equal(out[1], DENSE + 1)
    st = tf.SparseTensor(INDICES, tf.constant(VALUES), SHAPE)
    weights = np.arange(12, dtype=np.float32).reshape(3, 4)
    g = tf.gradients(tf.reduce_sum(tf.sparse.add(st, tf.ones([3, 4])) * weights), st.values)[0]
    np.testing.assert_array_equal(run(g), [0, 2, 5, 11])             # TF: [0. 2. 5. 11.]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Dimension 0 does not equal \(no broadcasting is supported\): "
                             r"sparse side 3 vs dense side 2"):
        run(tf.sparse.add(sp(), tf.ones([2, 2])))
    with pytest.raises(TypeError, match="At least one input should be SparseTensor; do you mean "
                                        r"to use tf.add\(\)\?"):
        tf.sparse.add(tf.ones([2]), tf.ones([2]))


def test_add_of_two_sparse_tensors_merges_them():
    a = tf.SparseTensor(INDICES, tf.constant(VALUES), SHAPE)
    b = tf.SparseTensor([[0, 0], [1, 2]], tf.constant([1.0, 2.0]), SHAPE)
    ss = tf.sparse.add(a, b)
    assert (ss.indices.name, ss.values.name) == ("SparseAdd:0", "SparseAdd:1")
    assert ss.get_shape().as_list() == [3, 4]
    dropped = tf.sparse.add(a, tf.SparseTensor([[0, 0]], [-1.0], SHAPE), threshold=0.5)
    out, out_dropped = run([ss, dropped])
    # TF: indices [[0 0] [0 2] [1 1] [1 2] [2 3]], values [2 2 3 2 4]
    np.testing.assert_array_equal(out.indices, [[0, 0], [0, 2], [1, 1], [1, 2], [2, 3]])
    np.testing.assert_array_equal(out.values, [2, 2, 3, 2, 4])
    # TF: the sum 1 - 1 = 0 at [0, 0] is under the threshold: [[0 2] [1 1] [2 3]], [2 3 4]
    np.testing.assert_array_equal(out_dropped.indices, [[0, 2], [1, 1], [2, 3]])
    np.testing.assert_array_equal(out_dropped.values, [2, 3, 4])
    ga, gb = tf.gradients(tf.reduce_sum(ss.values * tf.range(5.0)), [a.values, b.values])
    ga_value, gb_value = run([ga, gb])
    np.testing.assert_array_equal(ga_value, [0, 1, 2, 4])               # TF: [0. 1. 2. 4.]
    np.testing.assert_array_equal(gb_value, [0, 3])                     # TF: [0. 3.]
    with pytest.raises(ValueError, match=r"Shapes \(3, 4\) and \(2, 2\) are incompatible"):
        tf.sparse.add(a, tf.SparseTensor([[0, 0]], [1.0], [2, 2]))


# -- sparse segment reductions -------------------------------------------------------------------

def test_sparse_segment_reductions_and_their_gradients():
    data = np.arange(12, dtype=np.float64).reshape(4, 3)
    indices, segments = [0, 2, 2, 3], [0, 0, 2, 2]
    sums, means, sqrtn = run([tf.sparse_segment_sum(data, indices, segments),
                              tf.sparse_segment_mean(data, indices, segments),
                              tf.sparse_segment_sqrt_n(data, indices, segments)])
    picked = data[indices]
    np.testing.assert_allclose(sums, [picked[:2].sum(0), np.zeros(3), picked[2:].sum(0)])
    np.testing.assert_allclose(means, [picked[:2].mean(0), np.zeros(3), picked[2:].mean(0)])
    np.testing.assert_allclose(sqrtn, [picked[:2].sum(0) / np.sqrt(2), np.zeros(3),
                                       picked[2:].sum(0) / np.sqrt(2)])
    for fn in (tf.sparse_segment_sum, tf.sparse_segment_mean, tf.sparse_segment_sqrt_n):
        check_gradients(lambda d: fn(d, indices, segments), [data])
    with pytest.raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing"):
        run(tf.sparse_segment_sum(data, [0, 1], [1, 0]))


# -- embedding_lookup_sparse ---------------------------------------------------------------------

PARAMS = np.arange(24, dtype=np.float32).reshape(6, 4) / 10.0
ID_INDICES = [[0, 0], [0, 1], [1, 0], [3, 0], [3, 1], [3, 2]]
IDS = [1, 3, 0, 5, 1, 1]
WEIGHTS = [2.0, 0.5, 1.0, 1.0, 3.0, 0.25]

# TF 2.15's results for PARAMS, IDS and WEIGHTS (rows 0..3: row 4 of the [5, 3] ids is empty,
# and the result ends at the last row that has ids)
TF_RESULTS = {
    ("mean", False): [[0.8, 0.9, 1.0, 1.1], [0, 0.1, 0.2, 0.3], [0, 0, 0, 0],
                      [0.933333, 1.033333, 1.133333, 1.233333]],
    ("mean", True): [[0.56, 0.66, 0.76, 0.86], [0, 0.1, 0.2, 0.3], [0, 0, 0, 0],
                     [0.776471, 0.876471, 0.976471, 1.07647]],
    ("sum", False): [[1.6, 1.8, 2.0, 2.2], [0, 0.1, 0.2, 0.3], [0, 0, 0, 0],
                     [2.8, 3.1, 3.4, 3.7]],
    ("sum", True): [[1.4, 1.65, 1.9, 2.15], [0, 0.1, 0.2, 0.3], [0, 0, 0, 0],
                    [3.3, 3.725, 4.15, 4.575]],
    ("sqrtn", False): [[1.131371, 1.272792, 1.414214, 1.555635], [0, 0.1, 0.2, 0.3],
                       [0, 0, 0, 0], [1.616581, 1.789786, 1.962991, 2.136196]],
    ("sqrtn", True): [[0.6791, 0.800368, 0.921635, 1.042903], [0, 0.1, 0.2, 0.3],
                      [0, 0, 0, 0], [1.040306, 1.174284, 1.308263, 1.442242]],
}
# TF 2.15: the gradient of sum(result * [0, 1, 2, 3]) for params, made dense (rows 0..5)
TF_WEIGHTED_GRADIENTS = {
    "mean": {1: [0, 1.564706, 3.129412, 4.694118], 3: [0, 0.2, 0.4, 0.6], 0: [0, 1, 2, 3],
             5: [0, 0.23529412, 0.47058824, 0.7058824]},
    "sum": {1: [0, 5.25, 10.5, 15.75], 3: [0, 0.5, 1, 1.5], 0: [0, 1, 2, 3], 5: [0, 1, 2, 3]},
    "sqrtn": {1: [0, 1.994686, 3.989372, 5.984058], 3: [0, 0.24253564, 0.48507127, 0.7276069],
              0: [0, 1, 2, 3], 5: [0, 0.31524417, 0.63048834, 0.9457325]},
}


def _ids():
    return tf.SparseTensor(ID_INDICES, tf.constant(IDS, tf.int64), [5, 3])


def _weights():
    return tf.SparseTensor(ID_INDICES, WEIGHTS, [5, 3])


def _densify(values, indices, rows=6):
    out = np.zeros((rows, 4), np.float32)
    np.add.at(out, indices, values)
    return out


@pytest.mark.parametrize("combiner", ["mean", "sum", "sqrtn"])
@pytest.mark.parametrize("weighted", [False, True])
def test_embedding_lookup_sparse_matches_tf(combiner, weighted):
    p = tf.Variable(PARAMS, name="p")
    e = tf.nn.embedding_lookup_sparse(p, _ids(), _weights() if weighted else None,
                                      combiner=combiner)
    assert e.name == "embedding_lookup_sparse:0"                  # TF's
    assert e.get_shape().as_list() == [None, 4]                   # TF: (?, 4)
    np.testing.assert_allclose(run(e), TF_RESULTS[combiner, weighted], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("combiner", ["mean", "sum", "sqrtn"])
def test_embedding_lookup_sparse_gradient_is_indexed_slices_of_the_ids(combiner):
    p = tf.Variable(PARAMS, name="p")
    e = tf.nn.embedding_lookup_sparse(p, _ids(), _weights(), combiner=combiner)
    g = tf.gradients(tf.reduce_sum(e * np.arange(4, dtype=np.float32)), p)[0]
    assert isinstance(g, tf.IndexedSlices)
    values, indices = run([g.values, g.indices])
    assert sorted(indices.tolist()) == [0, 1, 3, 5]           # each distinct id once
    expected = np.zeros((6, 4), np.float32)
    for row, grad in TF_WEIGHTED_GRADIENTS[combiner].items():
        expected[row] = grad
    np.testing.assert_allclose(_densify(values, indices), expected, rtol=1e-5, atol=1e-6)
    unweighted = tf.nn.embedding_lookup_sparse(p, _ids(), None, combiner=combiner)
    g2 = tf.gradients(tf.reduce_sum(unweighted), p)[0]
    assert isinstance(g2, tf.IndexedSlices)


def test_embedding_lookup_sparse_numeric_gradients():
    for combiner in ("mean", "sum", "sqrtn"):
        for weighted in (False, True):
            check_gradients(lambda params: tf.nn.embedding_lookup_sparse(
                params, _ids(), _weights() if weighted else None, combiner=combiner),
                [PARAMS.astype(np.float64)])


def test_embedding_lookup_sparse_with_shards_and_max_norm():
    mod = [tf.Variable(PARAMS[i::2], name=f"s{i}") for i in range(2)]
    div = [tf.Variable(PARAMS[:3], name="d0"), tf.Variable(PARAMS[3:], name="d1")]
    by_mod = tf.nn.embedding_lookup_sparse(mod, _ids(), _weights(), combiner="sum")
    by_div = tf.nn.embedding_lookup_sparse(div, _ids(), None, partition_strategy="div",
                                           combiner="sqrtn")
    clipped = tf.nn.embedding_lookup_sparse(tf.Variable(PARAMS), _ids(), _weights(),
                                            combiner="mean", max_norm=1.0)
    out = run([by_mod, by_div, clipped])
    np.testing.assert_allclose(out[0], TF_RESULTS["sum", True], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[1], TF_RESULTS["sqrtn", False], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[2], [[0.373664, 0.452316, 0.530968, 0.60962],   # TF's
                                        [0, 0.1, 0.2, 0.3], [0, 0, 0, 0],
                                        [0.381793, 0.455383, 0.528973, 0.602563]],
                               rtol=1e-5, atol=1e-6)
    grads = tf.gradients(tf.reduce_sum(by_mod), mod)
    assert all(isinstance(g, tf.IndexedSlices) for g in grads)
    (v0, i0), (v1, i1) = run([[g.values, g.indices] for g in grads])
    # TF: shard 0 gets [[1 1 1 1]] at [0]; shard 1 [[5.25 ...] [0.5 ...] [1 ...]] at [0 1 2]
    np.testing.assert_allclose(_densify(v0, i0, 3)[:, 0], [1, 0, 0])
    np.testing.assert_allclose(_densify(v1, i1, 3)[:, 0], [5.25, 0.5, 1])


def test_embedding_lookup_sparse_arguments_as_tf():
    p = tf.Variable(PARAMS)
    with pytest.raises(ValueError, match="combiner must be one of 'mean', 'sqrtn' or 'sum', "
                                         "got max"):
        tf.nn.embedding_lookup_sparse(p, _ids(), None, combiner="max")
    with pytest.raises(TypeError, match="sp_ids must be SparseTensor, got <class 'list'>"):
        tf.nn.embedding_lookup_sparse(p, [1, 2], None)
    with pytest.raises(TypeError, match="sp_weights must be either None or SparseTensor"):
        tf.nn.embedding_lookup_sparse(p, _ids(), [1.0])
    default = tf.nn.embedding_lookup_sparse(p, _ids(), _weights())     # combiner None: mean
    np.testing.assert_allclose(run(default), TF_RESULTS["mean", True], rtol=1e-5, atol=1e-6)


def test_embedding_lookup_sparse_of_a_fed_placeholder():
    p = tf.Variable(PARAMS)
    ids = tf.sparse_placeholder(tf.int64, name="ids")
    e = tf.nn.embedding_lookup_sparse(p, ids, None, combiner="sum")
    out = run(e, {ids: ([[0, 0], [2, 1]], [4, 2], [3, 2])})
    # TF: [[1.6 1.7 1.8 1.9] [0 0 0 0] [0.8 0.9 1 1.1]]
    np.testing.assert_allclose(out, [PARAMS[4], np.zeros(4), PARAMS[2]])


# -- fill_empty_rows, reshape, safe_embedding_lookup_sparse ---------------------------------------

def test_fill_empty_rows_as_tf():
    st = tf.SparseTensor([[0, 1], [2, 0], [2, 2]], tf.constant([5.0, 6.0, 7.0]), [4, 3])
    filled, empty = tf.sparse.fill_empty_rows(st, -1.0)
    # TF: SparseFillEmptyRows/SparseFillEmptyRows:0, ...:1, the input's dense_shape, ...:2
    assert (filled.indices.name, filled.values.name, empty.name) == \
        ("SparseFillEmptyRows/SparseFillEmptyRows:0", "SparseFillEmptyRows/SparseFillEmptyRows:1",
         "SparseFillEmptyRows/SparseFillEmptyRows:2")
    assert filled.dense_shape is st.dense_shape
    out, empty_value = run([filled, empty])
    np.testing.assert_array_equal(out.indices, [[0, 1], [1, 0], [2, 0], [2, 2], [3, 0]])
    np.testing.assert_array_equal(out.values, [5, -1, 6, 7, -1])
    np.testing.assert_array_equal(empty_value, [False, True, False, True])
    g = tf.gradients(tf.reduce_sum(filled.values * tf.range(5.0)), st.values)[0]
    np.testing.assert_array_equal(run(g), [0, 2, 3])                     # TF: [0. 2. 3.]
    unordered, _ = tf.sparse_fill_empty_rows(tf.SparseTensor([[2, 0], [0, 1]], [1.0, 2.0],
                                                             [3, 3]), 0.0)
    out = run(unordered)                                      # TF sorts the rows
    np.testing.assert_array_equal(out.indices, [[0, 1], [1, 0], [2, 0]])
    np.testing.assert_array_equal(out.values, [2, 0, 1])


def test_sparse_reshape_as_tf():
    st = tf.SparseTensor([[0, 1], [2, 0], [2, 2]], tf.constant([5.0, 6.0, 7.0]), [4, 3])
    r = tf.sparse.reshape(st, [2, 6])
    # TF: SparseReshape:0 SparseReshape/Identity:0 SparseReshape/Const:0 (2, 6)
    assert (r.indices.name, r.values.name, r.dense_shape.name) == \
        ("SparseReshape:0", "SparseReshape/Identity:0", "SparseReshape/Const:0")
    r2 = tf.sparse_reshape(st, [-1, 2])
    assert (r.get_shape().as_list(), r2.get_shape().as_list()) == ([2, 6], [6, 2])
    out, out2 = run([r, r2])
    np.testing.assert_array_equal(out.indices, [[0, 1], [1, 0], [1, 2]])
    np.testing.assert_array_equal(out2.indices, [[0, 1], [3, 0], [4, 0]])
    np.testing.assert_array_equal(out2.dense_shape, [6, 2])
    np.testing.assert_array_equal(dense_of(out).reshape(4, 3), dense_of(run(st)))
    with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 12 elements to shape "
                                         r"\[5, 2\] \(10 elements\)."):
        tf.sparse.reshape(st, [5, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input to reshape is a tensor with 12 dense values, but the "
                             "requested shape has 10"):
        run(tf.sparse.reshape(st, tf.placeholder_with_default(tf.constant([5, 2], tf.int64),
                                                              [2])))
    g = tf.gradients(tf.reduce_sum(r.values * [1.0, 2.0, 3.0]), st.values)[0]
    np.testing.assert_array_equal(run(g), [1, 2, 3])


SAFE_IDS = [1, -1, 0, 5, 1, 1]                        # -1: an invalid id, dropped
SAFE_WEIGHTS = [2.0, 0.5, 0.0, 1.0, 3.0, 0.25]        # 0.0: dropped but for 'sum'
# TF 2.15's results: one row per row of the ids (5), empty rows zero or default_id's row
TF_SAFE = {
    ("mean", True): [[0.4, 0.5, 0.6, 0.7], [0, 0, 0, 0], [0, 0, 0, 0],
                     [0.776471, 0.876471, 0.976471, 1.07647], [0, 0, 0, 0]],
    ("sum", True): [[0.8, 1.0, 1.2, 1.4], [0, 0, 0, 0], [0, 0, 0, 0],
                    [3.3, 3.725, 4.15, 4.575], [0, 0, 0, 0]],
    ("sqrtn", True): [[0.4, 0.5, 0.6, 0.7], [0, 0, 0, 0], [0, 0, 0, 0],
                      [1.040306, 1.174284, 1.308263, 1.442242], [0, 0, 0, 0]],
    ("mean", False): [[0.4, 0.5, 0.6, 0.7], [0, 0.1, 0.2, 0.3], [1.6, 1.7, 1.8, 1.9],
                      [0.933333, 1.033333, 1.133333, 1.233333], [1.6, 1.7, 1.8, 1.9]],
    ("sum", False): [[0.4, 0.5, 0.6, 0.7], [0, 0.1, 0.2, 0.3], [1.6, 1.7, 1.8, 1.9],
                     [2.8, 3.1, 3.4, 3.7], [1.6, 1.7, 1.8, 1.9]],
    ("sqrtn", False): [[0.4, 0.5, 0.6, 0.7], [0, 0.1, 0.2, 0.3], [1.6, 1.7, 1.8, 1.9],
                       [1.616581, 1.789786, 1.962991, 2.136196], [1.6, 1.7, 1.8, 1.9]],
}


@pytest.mark.parametrize("combiner", ["mean", "sum", "sqrtn"])
def test_safe_embedding_lookup_sparse_matches_tf(combiner):
    p = tf.Variable(PARAMS)
    ids = tf.SparseTensor(ID_INDICES, tf.constant(SAFE_IDS, tf.int64), [5, 3])
    weights = tf.SparseTensor(ID_INDICES, SAFE_WEIGHTS, [5, 3])
    weighted = tf.nn.safe_embedding_lookup_sparse(p, ids, weights, combiner=combiner)
    with_default = tf.nn.safe_embedding_lookup_sparse(p, ids, None, combiner=combiner,
                                                      default_id=4)
    # TF: embedding_lookup/Reshape_5:0 ('sum' prunes fewer entries: Reshape_3:0)
    assert weighted.name == ("embedding_lookup/Reshape_3:0" if combiner == "sum" else
                             "embedding_lookup/Reshape_5:0")
    assert weighted.get_shape().as_list() == [5, 4]                      # TF: (5, 4)
    out = run([weighted, with_default])
    np.testing.assert_allclose(out[0], TF_SAFE[combiner, True], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[1], TF_SAFE[combiner, False], rtol=1e-5, atol=1e-6)


def test_safe_embedding_lookup_sparse_of_rank_3_ids_and_its_gradient():
    p = tf.Variable(PARAMS)
    ids = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 0, 0]], tf.constant([1, 2, 3], tf.int64),
                          [2, 2, 2])
    out = tf.nn.safe_embedding_lookup_sparse([p], ids, None)
    assert out.get_shape().as_list() == [2, 2, 4]                        # TF: (2, 2, 4)
    # TF: [[p1, p2], [p3, 0]]
    np.testing.assert_allclose(run(out), [[PARAMS[1], PARAMS[2]], [PARAMS[3], np.zeros(4)]])
    sparse_ids = tf.SparseTensor(ID_INDICES, tf.constant(SAFE_IDS, tf.int64), [5, 3])
    weights = tf.SparseTensor(ID_INDICES, SAFE_WEIGHTS, [5, 3])
    g = tf.gradients(tf.reduce_sum(tf.nn.safe_embedding_lookup_sparse(p, sparse_ids, weights)
                                   * np.arange(4.0, dtype=np.float32)), p)[0]
    assert isinstance(g, tf.IndexedSlices)
    values, indices = run([g.values, g.indices])
    expected = np.zeros((6, 4), np.float32)                   # TF: rows 1 and 5 (0 is zero)
    expected[1] = [0, 1.7647059, 3.5294118, 5.294118]
    expected[5] = [0, 0.23529412, 0.47058824, 0.7058824]
    np.testing.assert_allclose(_densify(values, indices), expected, rtol=1e-5, atol=1e-6)


# -- VarLenFeature: parse_example and parse_single_example give SparseTensors -------------------

def _example(**features):
    made = {}
    for key, values in features.items():
        if isinstance(values[0], float):
            made[key] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
        elif isinstance(values[0], bytes):
            made[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
        else:
            made[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Example(features=tf.train.Features(feature=made)).SerializeToString()


EXAMPLES = [_example(label=[1], words=[3, 7, 9], tags=[b"a"]),
            _example(label=[0], words=[4], tags=[b"b", b"c"]),
            _example(label=[2], tags=[b"d"])]                       # no words
FEATURES = {"label": tf.FixedLenFeature([], tf.int64), "words": tf.VarLenFeature(tf.int64),
            "tags": tf.VarLenFeature(tf.string)}


def test_parse_example_gives_a_sparse_tensor_per_var_len_feature():
    out = tf.parse_example(EXAMPLES, FEATURES)
    words, tags = out["words"], out["tags"]
    assert isinstance(words, tf.SparseTensor) and words.dtype == tf.int64
    # TF: the op's outputs are the sparse indices, values and shapes (keys sorted: tags,
    # words), then the dense values: ...:0 ...:2 ...:4 for tags, ...:6 for label
    assert (tags.indices.name, tags.values.name, tags.dense_shape.name) == \
        ("ParseExample/ParseExample:0", "ParseExample/ParseExample:2",
         "ParseExample/ParseExample:4")
    assert out["label"].name == "ParseExample/ParseExample:6"
    assert words.indices.get_shape().as_list() == [None, 2]
    assert words.get_shape().as_list() == [None, None]                   # TF: (?, ?)
    value = run(out)
    # TF: words [[0 0] [0 1] [0 2] [1 0]], [3 7 9 4], [3 3]; tags ..., [3 2]
    np.testing.assert_array_equal(value["words"].indices, [[0, 0], [0, 1], [0, 2], [1, 0]])
    np.testing.assert_array_equal(value["words"].values, [3, 7, 9, 4])
    np.testing.assert_array_equal(value["words"].dense_shape, [3, 3])
    assert value["tags"].values.tolist() == [b"a", b"b", b"c", b"d"]
    np.testing.assert_array_equal(value["tags"].dense_shape, [3, 2])
    np.testing.assert_array_equal(value["label"], [1, 0, 2])
    bags = tf.nn.embedding_lookup_sparse(tf.constant(PARAMS.repeat(2, 0)), words, None,
                                         combiner="sum")
    np.testing.assert_allclose(run(bags), [PARAMS.repeat(2, 0)[[3, 7, 9]].sum(0),
                                           PARAMS.repeat(2, 0)[4]])


def test_parse_single_example_gives_a_vector_sparse_tensor():
    one = tf.parse_single_example(EXAMPLES[0], FEATURES)
    assert one["words"].indices.get_shape().as_list() == [None, 1]
    assert one["words"].get_shape().as_list() == [None]                 # TF: (?,)
    value, missing = run([one, tf.io.parse_single_example(EXAMPLES[2], FEATURES)])
    np.testing.assert_array_equal(value["words"].indices, [[0], [1], [2]])
    np.testing.assert_array_equal(value["words"].values, [3, 7, 9])
    np.testing.assert_array_equal(value["words"].dense_shape, [3])
    assert value["label"] == 1
    # TF: a missing VarLenFeature has no entries: indices (0, 1), dense_shape [0]
    assert missing["words"].indices.shape == (0, 1)
    np.testing.assert_array_equal(missing["words"].dense_shape, [0])


def test_parse_example_var_len_errors_as_tf():
    serialized = tf.placeholder(tf.string, [None])
    words = tf.parse_example(serialized, {"words": tf.VarLenFeature(tf.float32)})["words"]
    value = run(words, {serialized: [EXAMPLES[2]]})
    np.testing.assert_array_equal(value.dense_shape, [1, 0])              # TF: [1 0]
    assert value.values.dtype == np.float32
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Name: <unknown>, Key: words, Index: 0.  Data types don't match. "
                             "Expected type: float, Actual type: int64"):
        run(words, {serialized: [EXAMPLES[0]]})


# -- on a cluster ------------------------------------------------------------------------------

def _bytes_from(cluster, job, index, to):
    return sum(nbytes for kind, src, dst, nbytes in cluster.traffic_totals(job, index)
               if kind == "send" and to in dst)


def test_sparse_features_fed_on_a_worker_read_a_table_on_two_ps():
    """The bag-of-words model of a TF-1 recommender: a sparse placeholder fed through a
    session on the worker, embedding_lookup_sparse on a table split over two ps tasks, SGD.
    Only the looked-up rows cross the wire, and only they change."""
    vocab, dim = 20000, 16
    with LocalCluster({"ps": 2, "worker": 1}) as cluster:
        with tf.device(tf.train.replica_device_setter(
                worker_device="/job:worker/task:0", cluster=cluster.cluster_spec)):
            table = tf.get_variable("table", [vocab, dim],
                                    partitioner=tf.fixed_size_partitioner(2),
                                    initializer=tf.random_uniform_initializer(-1, 1, seed=1))
            ids = tf.sparse_placeholder(tf.int64, shape=[None, None], name="ids")
            weights = tf.sparse_placeholder(tf.float32, shape=[None, None], name="weights")
            bags = tf.nn.embedding_lookup_sparse(table, ids, weights, combiner="sqrtn",
                                                 partition_strategy="div")
            loss = tf.reduce_sum(tf.square(bags - 1.0))
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        assert ids.values.device == "/job:worker/task:0"
        indices = [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2]]
        id_values = [7, 10007, 3, 19999, 7, 42]
        feed = {ids: tf.SparseTensorValue(indices, id_values, [3, 3]),
                weights: (indices, [1.0, 2.0, 1.0, 0.5, 0.5, 3.0], [3, 3])}
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(tf.global_variables_initializer())
            before = sess.run(list(table))
            fetched = sess.run({"bags": bags, "ids": ids}, feed)
            sess.run(train, feed)                               # plans the step once
            sent = [_bytes_from(cluster, "ps", k, "worker") for k in (0, 1)]
            sess.run(train, feed)
            sent = [_bytes_from(cluster, "ps", k, "worker") - sent[k] for k in (0, 1)]
            after = sess.run(list(table))
    # the fed ids came back as they went in
    assert isinstance(fetched["ids"], tf.SparseTensorValue)
    np.testing.assert_array_equal(fetched["ids"].values, id_values)
    # the bags computed on the worker from the two shards agree with NumPy
    table_np = np.concatenate(before)
    w = np.array([1.0, 2.0, 1.0, 0.5, 0.5, 3.0])
    rows = [[0, 1], [2], [3, 4, 5]]
    expected = [sum(w[i] * table_np[id_values[i]] for i in r) / np.sqrt(sum(w[i] ** 2 for i in r))
                for r in rows]
    np.testing.assert_allclose(fetched["bags"], expected, rtol=1e-5)
    # only the rows of the looked-up ids changed (ids 7, 3, 42 in shard 0; 10007, 19999 in 1)
    changed = np.flatnonzero(np.any(np.concatenate(after) != table_np, axis=1))
    assert changed.tolist() == sorted(set(id_values))
    # and only those rows left the ps: far less than a shard (10000 x 16 x 4 = 640 kB)
    shard_bytes = vocab // 2 * dim * 4
    assert all(0 < s < 0.01 * shard_bytes for s in sent), sent


def test_sparse_cross_eye_expand_dims_and_the_accumulator_name_as_tf_115():
    """tf.sparse.cross (strings joined by '_X_'), cross_hashed, eye, expand_dims at the front,
    the end and the middle: indices, values and shapes TF 2.15.1 gives for the same inputs."""
    a = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["a", "b", "c"], [2, 2])
    b = tf.SparseTensor([[0, 0], [1, 0]], tf.constant([7, 8], tf.int64), [2, 1])
    d = tf.constant([["x"], ["y"]])
    results = [tf.sparse.cross([a, b, d]), tf.sparse.cross_hashed([a, b, d], num_buckets=100),
               tf.sparse.eye(3, 4), tf.sparse.eye(2, dtype=tf.int32),
               tf.sparse.expand_dims(a, 0), tf.sparse.expand_dims(a, -1),
               tf.sparse.expand_dims(a, 1)]
    assert results[0].values.dtype == tf.string and results[2].dtype == tf.float32
    with tf.Session() as sess:
        got = [(r.indices.tolist(), r.values.tolist(), r.dense_shape.tolist())
               for r in sess.run(results)]
    assert got == [
        ([[0, 0], [1, 0], [1, 1]], [b"a_X_7_X_x", b"b_X_8_X_y", b"c_X_8_X_y"], [2, 2]),
        ([[0, 0], [1, 0], [1, 1]], [54, 34, 53], [2, 2]),
        ([[0, 0], [1, 1], [2, 2]], [1.0, 1.0, 1.0], [3, 4]),
        ([[0, 0], [1, 1]], [1, 1], [2, 2]),
        ([[0, 0, 0], [0, 1, 0], [0, 1, 1]], [b"a", b"b", b"c"], [1, 2, 2]),
        ([[0, 0, 0], [1, 0, 0], [1, 1, 0]], [b"a", b"b", b"c"], [2, 2, 1]),
        ([[0, 0, 0], [1, 0, 0], [1, 0, 1]], [b"a", b"b", b"c"], [2, 1, 2])]
    assert tf.sparse.SparseConditionalAccumulator is tf.SparseConditionalAccumulator
    with pytest.raises(TypeError, match="axis must be an int or tensor"):
        tf.sparse.expand_dims(a, 1.5)
