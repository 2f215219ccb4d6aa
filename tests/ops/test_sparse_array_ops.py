"""The sparse layout ops (ops/sparse_array_ops.py: concat, split, transpose, reset_shape,
merge, to_indicator, mask) and the sparse reductions and elementwise math
(ops/sparse_reduce_ops.py: softmax, reduce_max[_sparse], reduce_sum_sparse, maximum, minimum).

Indices, values, dense shapes, op names, static shapes and error messages are what TensorFlow
2.15 (tf.compat.v1, graph mode) gives for the same programs, hard-coded below ("TF:" in the
comments); gradients are also checked against finite differences (tests/gradcheck.py)."""
import numpy as np
import pytest

import sandbox as tf
from tests.gradcheck import check_gradients


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def triple(value):
    return (np.asarray(value.indices).tolist(), np.asarray(value.values).tolist(),
            np.asarray(value.dense_shape).tolist())


def a23():
    return tf.SparseTensor([[0, 2], [1, 0], [1, 1]], [1.0, 2.0, 3.0], [2, 3])


def b24():
    return tf.SparseTensor([[0, 1], [0, 2]], [4.0, 5.0], [2, 4])


# -- concat -----------------------------------------------------------------------------------

def test_concat_joins_along_an_axis_in_row_major_order():
    a, b = a23(), b24()
    x = tf.sparse_concat(1, [a, b])
    # TF: SparseConcat:0 SparseConcat:1 Const:0, static (2, 7), indices (5, 2), values (5,)
    assert (x.indices.name, x.values.name, x.dense_shape.name) == ("SparseConcat:0",
                                                                   "SparseConcat:1", "Const:0")
    assert x.get_shape().as_list() == [2, 7]
    assert x.indices.get_shape().as_list() == [5, 2]
    assert x.values.get_shape().as_list() == [5]
    assert [t.name for t in x.indices.op.inputs] == [
        "SparseTensor/indices:0", "SparseTensor_1/indices:0", "SparseTensor/values:0",
        "SparseTensor_1/values:0", "SparseTensor/dense_shape:0", "SparseTensor_1/dense_shape:0"]
    assert (x.indices.op.get_attr("concat_dim"), x.indices.op.get_attr("N")) == (1, 2)
    out = run([x, tf.sparse.concat(-1, [a, b]), tf.sparse_concat(0, [a, a])])
    # TF 2.15's numbers
    assert triple(out[0]) == ([[0, 2], [0, 4], [0, 5], [1, 0], [1, 1]],
                              [1.0, 4.0, 5.0, 2.0, 3.0], [2, 7])
    assert triple(out[1]) == triple(out[0])
    assert triple(out[2]) == ([[0, 2], [1, 0], [1, 1], [2, 2], [3, 0], [3, 1]],
                              [1.0, 2.0, 3.0, 1.0, 2.0, 3.0], [4, 3])
    assert tf.sparse.concat(1, [a, b], name="cc").indices.name == "cc:0"
    assert tf.sparse_concat(1, [a]) is a                   # TF: the one input, as is


def test_concat_sorts_unordered_inputs_and_expands_other_dims():
    u = tf.SparseTensor([[1, 0], [0, 2]], [2.0, 1.0], [2, 3])
    c = tf.SparseTensor([[0, 1], [2, 2]], [6.0, 7.0], [3, 4])
    x = tf.sparse_concat(1, [a23(), c], expand_nonconcat_dim=True)
    assert x.get_shape().as_list() == [3, 7] and x.dense_shape.op.type == "Const"   # TF
    out = run([tf.sparse_concat(1, [u, b24()]), x])
    assert triple(out[0]) == ([[0, 2], [0, 4], [0, 5], [1, 0]], [1.0, 4.0, 5.0, 2.0], [2, 7])
    assert triple(out[1]) == ([[0, 2], [0, 4], [1, 0], [1, 1], [2, 5]],
                              [1.0, 6.0, 2.0, 3.0, 7.0], [3, 7])


def test_concat_static_shapes_with_placeholders():
    p = tf.sparse_placeholder(tf.float32, shape=[None, 3])
    x = tf.sparse_concat(1, [a23(), p])
    # TF: (2, 6) -- the first input's shape, the concat dimension summed -- indices (?, 2)
    assert x.get_shape().as_list() == [2, 6]
    assert x.indices.get_shape().as_list() == [None, 2]
    assert tf.sparse_concat(0, [a23(), p]).get_shape().as_list() == [None, 3]
    q = tf.sparse_placeholder(tf.float32)
    y = tf.sparse_concat(1, [a23(), q])
    assert y.get_shape().as_list() == [None, None]                    # TF: (?, ?)
    out = run(y, {q: tf.SparseTensorValue([[0, 0]], [1.0], [2, 2])})
    assert triple(out) == ([[0, 2], [0, 3], [1, 0], [1, 1]], [1.0, 1.0, 2.0, 3.0], [2, 5])


def test_concat_errors_are_tfs():
    a, c = a23(), tf.SparseTensor([[0, 1], [2, 2]], [6.0, 7.0], [3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input shapes must match: expected 2 for dimension 0 but got 3 at "
                             "position 1"):
        run(tf.sparse_concat(1, [a, c]))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.sparse_concat(1, [a, tf.SparseTensor([[0, 0, 0]], [1.0], [1, 1, 1])])
    with pytest.raises(IndexError):                                 # TF: IndexError too
        tf.sparse_concat(2, [a, b24()])
    q = tf.sparse_placeholder(tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Ranks of all input tensors must match: expected 2 but got 3 at "
                             "position 1"):
        run(tf.sparse_concat(1, [a, q]), {q: tf.SparseTensorValue([[0, 0, 0]], [1.0],
                                                                    [1, 1, 1])})
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Concat dimension must be in range \[-2, 2\), got 5"):
        run(tf.sparse_concat(5, [q, q]), {q: tf.SparseTensorValue([[0, 0]], [1.0], [2, 2])})
    with pytest.raises(TypeError, match="Inputs must be a list or tuple."):
        tf.sparse_concat(0, a)
    # TF: expand_nonconcat_dim defaults to False, so its alias cannot be given (TF's quirk)
    with pytest.raises(ValueError, match="Cannot specify both 'expand_nonconcat_dim' and "
                                         "'expand_nonconcat_dims'."):
        tf.sparse_concat(1, [a, c], expand_nonconcat_dims=True)
    # TF: ops.NotDifferentiable("SparseConcat") -- no gradient reaches the values
    v = tf.constant([1.0, 2.0, 3.0])
    x = tf.sparse_concat(1, [tf.SparseTensor([[0, 2], [1, 0], [1, 1]], v, [2, 3]), b24()])
    assert tf.gradients(tf.reduce_sum(x.values), v) == [None]


# -- split ------------------------------------------------------------------------------------

def test_split_cuts_along_an_axis_the_first_parts_longer():
    s = tf.SparseTensor([[0, 2], [0, 4], [0, 5], [1, 0], [1, 1]], [1.0, 2.0, 3.0, 4.0, 5.0],
                        [2, 7])
    parts = tf.sparse_split(sp_input=s, num_split=2, axis=1)
    # TF: SparseSplit:0..5; static (?, ?), indices (?, 2), values (?,), dense_shape (2,)
    assert [p.indices.name for p in parts] == ["SparseSplit:0", "SparseSplit:1"]
    assert [p.values.name for p in parts] == ["SparseSplit:2", "SparseSplit:3"]
    assert [p.dense_shape.name for p in parts] == ["SparseSplit:4", "SparseSplit:5"]
    assert parts[0].indices.op.inputs[0].name == "SparseSplit/split_dim:0"
    assert parts[0].get_shape().as_list() == [None, None]
    assert parts[0].indices.get_shape().as_list() == [None, 2]
    assert parts[0].dense_shape.get_shape().as_list() == [2]
    out = run([parts, tf.sparse.split(sp_input=s, num_split=3, axis=1),
               tf.sparse_split(sp_input=s, num_split=2, axis=0),
               tf.sparse_split(sp_input=s, num_split=2, axis=-1)])
    # TF 2.15's numbers
    assert [triple(v) for v in out[0]] == [([[0, 2], [1, 0], [1, 1]], [1.0, 4.0, 5.0], [2, 4]),
                                           ([[0, 0], [0, 1]], [2.0, 3.0], [2, 3])]
    assert [triple(v) for v in out[1]] == [([[0, 2], [1, 0], [1, 1]], [1.0, 4.0, 5.0], [2, 3]),
                                           ([[0, 1]], [2.0], [2, 2]), ([[0, 0]], [3.0], [2, 2])]
    assert [triple(v) for v in out[2]] == [([[0, 2], [0, 4], [0, 5]], [1.0, 2.0, 3.0], [1, 7]),
                                           ([[0, 0], [0, 1]], [4.0, 5.0], [1, 7])]
    assert [triple(v) for v in out[3]] == [triple(v) for v in out[0]]
    unordered = tf.SparseTensor([[1, 0], [0, 5], [0, 2]], [1.0, 2.0, 3.0], [2, 7])
    out = run(tf.sparse_split(sp_input=unordered, num_split=2, axis=1))
    assert [triple(v) for v in out] == [([[1, 0], [0, 2]], [1.0, 3.0], [2, 4]),   # TF: the
                                        ([[0, 1]], [2.0], [2, 3])]                # input order
    assert [p.indices.name for p in tf.sparse.split(sp_input=s, num_split=2, axis=1,
                                                    name="sp")] == ["sp:0", "sp:1"]


def test_split_errors_are_tfs():
    s = tf.SparseTensor([[0, 2], [1, 1]], [1.0, 2.0], [2, 7])
    with pytest.raises(ValueError, match="Keyword arguments are required for this function."):
        tf.sparse_split(s, 2, 1)
    with pytest.raises(ValueError, match="axis is required"):
        tf.sparse_split(sp_input=s, num_split=2)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input num_split should be between 1 and the splitting dimension "
                             r"size \(2\), got 3"):
        run(tf.sparse_split(sp_input=s, num_split=3, axis=0))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input axis should be in range \[-2, 2\), got 2"):
        run(tf.sparse_split(sp_input=s, num_split=2, axis=2))


# -- transpose, reset_shape -------------------------------------------------------------------

def test_transpose_reverses_or_permutes_and_reorders():
    v = tf.constant([1.0, 2.0, 3.0])
    t = tf.SparseTensor([[0, 1, 2], [1, 0, 4], [1, 2, 0]], v, [2, 3, 5])
    y = tf.sparse_transpose(t)
    # TF: SparseTranspose/SparseReorder:0, :1, SparseTranspose/SparseTensor_1/dense_shape:0
    assert (y.indices.name, y.values.name, y.dense_shape.name) == (
        "SparseTranspose/SparseReorder:0", "SparseTranspose/SparseReorder:1",
        "SparseTranspose/SparseTensor_1/dense_shape:0")
    assert y.get_shape().as_list() == [5, 3, 2]
    y021 = tf.sparse.transpose(t, [0, 2, 1])
    g = tf.gradients(tf.reduce_sum(y021.values * tf.constant([1.0, 2.0, 3.0])), v)[0]
    out = run([y, y021, g])
    assert triple(out[0]) == ([[0, 2, 1], [2, 1, 0], [4, 0, 1]], [3.0, 1.0, 2.0], [5, 3, 2])
    assert triple(out[1]) == ([[0, 2, 1], [1, 0, 2], [1, 4, 0]], [1.0, 3.0, 2.0], [2, 5, 3])
    np.testing.assert_array_equal(out[2], [1.0, 3.0, 2.0])                  # TF: [1. 3. 2.]
    p = tf.sparse_placeholder(tf.float32, shape=[None, 3])
    yp = tf.sparse_transpose(p, name="tt")
    assert yp.get_shape().as_list() == [None, None]                       # TF: (?, ?)
    assert (yp.indices.name, yp.dense_shape.name) == ("tt/SparseReorder:0", "tt/Identity:0")
    assert tf.sparse_transpose(tf.sparse_placeholder(tf.float32)).get_shape().ndims is None
    out = run(yp, {p: tf.SparseTensorValue([[0, 1], [2, 0]], [1.0, 2.0], [4, 3])})
    assert triple(out) == ([[0, 2], [1, 0]], [2.0, 1.0], [3, 4])
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        tf.sparse_transpose(t, [0, 1])


def test_reset_shape_tight_or_larger():
    r = tf.SparseTensor([[0, 0, 1], [0, 1, 0], [0, 2, 2], [1, 0, 3]], [1, 2, 3, 4], [2, 3, 5])
    y = tf.sparse_reset_shape(r)
    # TF: Identity:0 Identity_1:0 Maximum:0, static (?, ?, ?)
    assert (y.indices.name, y.values.name, y.dense_shape.name) == ("Identity:0", "Identity_1:0",
                                                                   "Maximum:0")
    assert y.get_shape().as_list() == [None, None, None]
    y6 = tf.sparse.reset_shape(r, [2, 3, 6])
    assert y6.get_shape().as_list() == [2, 3, 6]
    empty = tf.SparseTensor(np.zeros((0, 2), np.int64), tf.zeros([0]), [3, 3])
    out = run([y, y6, tf.sparse_reset_shape(empty)])
    indices = [[0, 0, 1], [0, 1, 0], [0, 2, 2], [1, 0, 3]]
    assert triple(out[0]) == (indices, [1, 2, 3, 4], [2, 3, 4])
    assert triple(out[1]) == (indices, [1, 2, 3, 4], [2, 3, 6])
    assert triple(out[2]) == ([], [], [0, 0])                            # TF: shape [0, 0]


def test_reset_shape_errors_are_tfs():
    r = tf.SparseTensor([[0, 0, 1], [1, 0, 3]], [1, 2], [2, 3, 5])
    # TF's message, its two shapes named the wrong way round
    with pytest.raises(ValueError, match=r"Requested new_shape should have dimension sizes >= "
                                         r"sp_input.shape.  Found new_shape \(\[2 3 5\]\), "
                                         r"sp_input.shape \(\[2 3 4\]\)."):
        tf.sparse_reset_shape(r, [2, 3, 4])
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        tf.sparse_reset_shape(r, [3, 7])
    ns = tf.placeholder(tf.int64, [None])
    y = tf.sparse_reset_shape(r, ns)
    assert y.get_shape().ndims is None                                      # TF: <unknown>
    assert triple(run(y, {ns: [2, 3, 9]}))[2] == [2, 3, 9]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Condition x <= y did not hold element-wise"):
        run(y, {ns: [2, 3, 4]})
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Condition x == y did not hold element-wise"):
        run(y, {ns: [3, 7]})


# -- merge, to_indicator, mask ----------------------------------------------------------------

def test_merge_puts_the_ids_in_the_last_index_column():
    sid = tf.SparseTensor([[0, 0], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1]],
                          tf.constant([0, 1, 4, 3, 0, 3], tf.int64), [3, 3])
    sv = tf.SparseTensor([[0, 0], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1]],
                         [-3.0, 1.0, 1.0, 4.0, 5.0, 9.0], [3, 3])
    m = tf.sparse_merge(sid, sv, 6)
    # TF: SparseMerge/SparseReorder:0, :1, SparseMerge/concat_1:0; static (3, 6), indices (6, 2)
    assert (m.indices.name, m.values.name, m.dense_shape.name) == (
        "SparseMerge/SparseReorder:0", "SparseMerge/SparseReorder:1", "SparseMerge/concat_1:0")
    assert m.get_shape().as_list() == [3, 6]
    assert m.indices.get_shape().as_list() == [6, 2]
    out = run([m, tf.sparse.merge(sid, sv, 6, already_sorted=True),
               tf.sparse_merge([sid, sid], sv, [6, 5]),
               tf.sparse_merge(tf.SparseTensor([[0, 0], [0, 1]], tf.constant([2, 1]), [1, 2]),
                               tf.SparseTensor([[0, 0], [0, 1]], [1.0, 2.0], [1, 2]),
                               tf.constant(4, tf.int32))])
    # TF 2.15's numbers
    assert triple(out[0]) == ([[0, 0], [1, 1], [1, 3], [1, 4], [2, 0], [2, 3]],
                              [-3.0, 1.0, 4.0, 1.0, 5.0, 9.0], [3, 6])
    assert triple(out[1]) == ([[0, 0], [1, 1], [1, 4], [1, 3], [2, 0], [2, 3]],
                              [-3.0, 1.0, 1.0, 4.0, 5.0, 9.0], [3, 6])
    assert triple(out[2]) == ([[0, 0, 0], [1, 1, 1], [1, 3, 3], [1, 4, 4], [2, 0, 0],
                               [2, 3, 3]], [-3.0, 1.0, 4.0, 1.0, 5.0, 9.0], [3, 6, 5])
    assert triple(out[3]) == ([[0, 1], [0, 2]], [2.0, 1.0], [1, 4])
    with pytest.raises(TypeError, match="vocab_size has to be a Tensor or Python int. Found "
                                        "<class 'list'>"):
        tf.sparse_merge(sid, sv, [6])
    with pytest.raises(TypeError, match="vocab_size has to be a list of Tensors or Python ints. "
                                        "Found <class 'int'>"):
        tf.sparse_merge([sid], sv, 6)
    with pytest.raises(ValueError, match="sp_ids and vocab_size have to have equal lengths."):
        tf.sparse_merge([sid], sv, [6, 5])
    with pytest.raises(TypeError, match="sp_ids has to be a SparseTensor or list thereof. "
                                        "Found <class 'int'>"):
        tf.sparse_merge(3, sv, [6])


def test_to_indicator_is_a_dense_bool_of_the_ids():
    ids = tf.SparseTensor([[0, 0, 0], [0, 1, 0], [1, 0, 3], [1, 1, 1], [1, 1, 2], [1, 1, 3],
                           [1, 2, 1]], tf.constant([0, 10, 103, 150, 149, 150, 121], tf.int64),
                          [2, 3, 4])
    ind = tf.sparse_to_indicator(ids, 200)
    # TF: SparseToIndicator:0, a SparseToDense, (2, 3, 200) bool
    assert (ind.name, ind.op.type, ind.dtype) == ("SparseToIndicator:0", "SparseToDense",
                                                  tf.bool)
    assert ind.get_shape().as_list() == [2, 3, 200]
    small = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([2, 0, 1]), [3, 2])
    out = run([ind, tf.sparse.to_indicator(small, 3)])
    assert np.argwhere(out[0]).tolist() == [[0, 0, 0], [0, 1, 10], [1, 0, 103], [1, 1, 149],
                                            [1, 1, 150], [1, 2, 121]]
    assert out[1].tolist() == [[True, False, True], [False, False, False],
                               [False, True, False]]
    # TF: "Indices are not valid (out of bounds).  Shape: [2,3,120]", from the SparseToDense;
    # the sandbox's SparseReorder checks the bounds first (its words differ)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"out of bounds"):
        run(tf.sparse_to_indicator(ids, 120))


def test_mask_drops_the_slices_of_some_indices():
    sl = tf.IndexedSlices(tf.reshape(tf.range(8.0), [4, 2]), tf.constant([12, 26, 37, 45]),
                          tf.constant([50, 2]))
    m = tf.sparse_mask(sl, [12, 45])
    # TF: an IndexedSlices, sparse_mask:0 and sparse_mask/ListDiff:0, values (?, 2)
    assert isinstance(m, tf.IndexedSlices)
    assert (m.values.name, m.indices.name) == ("sparse_mask:0", "sparse_mask/ListDiff:0")
    assert m.values.get_shape().as_list() == [None, 2]
    assert m.dense_shape is sl.dense_shape
    values, indices = run([m.values, m.indices])
    np.testing.assert_array_equal(values, [[2.0, 3.0], [4.0, 5.0]])
    np.testing.assert_array_equal(indices, [26, 37])
    assert indices.dtype == np.int32
    m2 = tf.sparse.mask(tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                                         tf.constant([3, 1])), tf.constant([1]), name="mk")
    assert (m2.values.name, m2.indices.name, m2.dense_shape) == ("mk:0", "mk/ListDiff:0", None)
    values, indices = run([m2.values, m2.indices])
    assert (values.tolist(), indices.tolist()) == ([[1.0, 2.0]], [3])


# -- softmax ----------------------------------------------------------------------------------

SM_INDICES = [[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]]


def test_softmax_over_the_entries_of_each_innermost_row():
    sm = tf.SparseTensor(SM_INDICES, [1.0, 2.0, 3.0, 0.5, -1.0], [2, 2, 2])
    y = tf.sparse_softmax(sm)
    # TF: the input's indices and shape, values SparseSoftmax/SparseSoftmax:0 of shape (5,)
    assert (y.indices.name, y.values.name, y.dense_shape.name) == (
        "SparseTensor/indices:0", "SparseSoftmax/SparseSoftmax:0", "SparseTensor/dense_shape:0")
    assert y.values.get_shape().as_list() == [5] and y.get_shape().as_list() == [2, 2, 2]
    sm2 = tf.SparseTensor([[0, 0], [0, 3], [1, 2], [2, 0], [2, 1], [2, 3]],
                          [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [3, 4])
    y2 = tf.sparse.softmax(sm2, name="ss")
    assert y2.values.name == "ss/SparseSoftmax:0"
    unordered = tf.SparseTensor([[1, 0], [0, 1], [0, 0]], [1.0, 2.0, 3.0], [2, 2])
    out = run([y, y2, tf.sparse_softmax(unordered)])
    # TF 2.15's numbers (float32)
    np.testing.assert_allclose(out[0].values, [1.0, 1.0, 1.0, 0.8175744414329529,
                                               0.18242551386356354], rtol=1e-6)
    np.testing.assert_allclose(out[1].values, [0.2689414322376251, 0.7310585975646973, 1.0,
                                               0.09003057330846786, 0.2447284758090973,
                                               0.6652409434318542], rtol=1e-6)
    # TF: unordered input -- the values of the sorted entries, beside the unsorted indices
    np.testing.assert_allclose(out[2].values, [0.7310585975646973, 0.2689414322376251, 1.0],
                               rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input should have rank >= 2, but received shape: 3"):
        run(tf.sparse_softmax(tf.SparseTensor([[0]], [1.0], [3])))


def test_softmax_gradient():
    v = tf.constant([1.0, 2.0, 3.0, 0.5, -1.0])
    y = tf.sparse_softmax(tf.SparseTensor(SM_INDICES, v, [2, 2, 2]))
    g = tf.gradients(tf.reduce_sum(y.values * tf.constant([1.0, -2.0, 0.5, 3.0, 1.5])), v)[0]
    # TF: [0. 0. 0. 0.22371984 -0.22371963]
    np.testing.assert_allclose(run(g), [0.0, 0.0, 0.0, 0.22371983528137207,
                                        -0.22371962666511536], atol=1e-6)
    check_gradients(lambda x: tf.sparse_softmax(tf.SparseTensor(SM_INDICES, x, [2, 2, 2])).values,
                    [np.array([1.0, 2.0, 3.0, 0.5, -1.0])])
    check_gradients(lambda x: tf.sparse.softmax(tf.SparseTensor(
        [[0, 0], [0, 3], [1, 2], [2, 0], [2, 1], [2, 3]], x, [3, 4])).values,
        [np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])])


# -- reduce_max, reduce_max_sparse, reduce_sum_sparse -----------------------------------------

def rm():
    return tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 3]], [1.0, -2.0, -3.0, 4.0], [4, 4])


# TF 2.15's numbers: (axis, keepdims) -> dense reduce_max, sparse max (indices, values,
# dense_shape), sparse sum (values). A row holding only -3 gives -3; a row holding nothing, 0.
REDUCTIONS = [
    (None, False, 4.0, ([[]], [4.0], []), [0.0]),
    (None, True, [[4.0]], ([[0, 0]], [4.0], [1, 1]), [0.0]),
    (0, False, [1.0, -3.0, -2.0, 4.0], ([[0], [1], [2], [3]], [1.0, -3.0, -2.0, 4.0], [4]),
     [1.0, -3.0, -2.0, 4.0]),
    (0, True, [[1.0, -3.0, -2.0, 4.0]],
     ([[0, 0], [0, 1], [0, 2], [0, 3]], [1.0, -3.0, -2.0, 4.0], [1, 4]), [1.0, -3.0, -2.0, 4.0]),
    (1, False, [1.0, -3.0, 4.0, 0.0], ([[0], [1], [2]], [1.0, -3.0, 4.0], [4]),
     [-1.0, -3.0, 4.0]),
    (1, True, [[1.0], [-3.0], [4.0], [0.0]], ([[0, 0], [1, 0], [2, 0]], [1.0, -3.0, 4.0],
                                              [4, 1]), [-1.0, -3.0, 4.0]),
    ([0, 1], False, 4.0, ([[]], [4.0], []), [0.0]),
    (-1, True, [[1.0], [-3.0], [4.0], [0.0]], ([[0, 0], [1, 0], [2, 0]], [1.0, -3.0, 4.0],
                                               [4, 1]), [-1.0, -3.0, 4.0]),
]


@pytest.mark.parametrize("axis, keepdims, dense_max, sparse_max, sparse_sum", REDUCTIONS)
def test_reductions_take_only_the_entries_present(axis, keepdims, dense_max, sparse_max,
                                                  sparse_sum):
    sp = rm()
    d = tf.sparse_reduce_max(sp, axis, keepdims=keepdims)
    assert d.op.type == "SparseReduceMax" and d.get_shape().as_list() == list(np.shape(dense_max))
    smax = tf.sparse_reduce_max_sparse(sp, axis, keepdims=keepdims)
    ssum = tf.sparse.reduce_sum_sparse(sp, axis, keepdims=keepdims)
    assert smax.get_shape().ndims is None and smax.indices.get_shape().ndims is None  # TF
    out = run([d, smax, ssum])
    np.testing.assert_array_equal(out[0], dense_max)
    assert triple(out[1]) == sparse_max
    assert triple(out[2]) == (sparse_max[0], sparse_sum, sparse_max[2])


def test_reduction_names_and_more_cases():
    sp = rm()
    d = tf.sparse_reduce_max(sp)
    # TF: SparseReduceMax:0, its axes a Const of every axis; SparseReduceMax_1/reduction_axes
    assert d.name == "SparseReduceMax:0" and d.op.inputs[3].op.type == "Const"
    d1 = tf.sparse.reduce_max(sp, reduction_axes=1, keep_dims=True)
    assert d1.op.inputs[3].name == "SparseReduceMax_1/reduction_axes:0"
    s = tf.sparse_reduce_max_sparse(sp, 1)
    assert (s.indices.name, s.values.name, s.dense_shape.name) == (
        "SparseReduceMaxSparse:0", "SparseReduceMaxSparse:1", "SparseReduceMaxSparse:2")
    three = tf.SparseTensor([[0, 1, 0], [1, 0, 1], [1, 1, 1], [0, 1, 1]], [1.0, 2.0, 3.0, 5.0],
                            [2, 2, 2])
    unordered = tf.SparseTensor([[1, 0], [0, 1], [0, 0]], [1.0, 2.0, 3.0], [2, 2])
    out = run([tf.sparse_reduce_sum_sparse(three, [0, 2]), tf.sparse_reduce_max(three, [0, 2]),
               tf.sparse_reduce_max(unordered, 1), tf.sparse_reduce_max_sparse(unordered, 1),
               tf.sparse_reduce_max(tf.SparseTensor([[0, 0], [1, 1]], [3, -4], [3, 2]), 1)])
    # TF 2.15's numbers
    assert triple(out[0]) == ([[0], [1]], [2.0, 9.0], [2])
    assert out[1].tolist() == [2.0, 5.0]
    assert out[2].tolist() == [3.0, 1.0]
    assert triple(out[3]) == ([[0], [1]], [3.0, 1.0], [2])
    assert out[4].tolist() == [3, -4, 0] and out[4].dtype == np.int32


def test_reduction_errors_are_tfs():
    sp = rm()
    for fn in (tf.sparse_reduce_max, tf.sparse_reduce_max_sparse, tf.sparse_reduce_sum_sparse):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Invalid reduction dimension 2, for input with 2 dimensions."):
            run(fn(sp, 2))
        with pytest.raises(ValueError, match="Cannot specify both 'reduction_axes' and 'axis'."):
            fn(sp, 1, reduction_axes=1)
        # TF: no gradient is registered (LookupError)
        out = fn(sp, 1)
        with pytest.raises(LookupError):
            tf.gradients(out if isinstance(out, tf.Tensor) else out.values, sp.values)


# -- maximum, minimum -------------------------------------------------------------------------

def ab():
    a = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 3]], [1.0, -2.0, 3.0, -4.0], [3, 4])
    b = tf.SparseTensor([[0, 0], [1, 0], [1, 1], [2, 2]], [5.0, -1.0, 1.0, 2.0], [3, 4])
    return a, b


def test_maximum_and_minimum_over_the_union_a_missing_entry_zero():
    a, b = ab()
    mx = tf.sparse_maximum(a, b)
    # TF: SparseSparseMaximum:0, :1, sp_a's dense_shape; (?, ?) and (?,)
    assert (mx.indices.name, mx.values.name, mx.dense_shape.name) == (
        "SparseSparseMaximum:0", "SparseSparseMaximum:1", "SparseTensor/dense_shape:0")
    assert mx.indices.get_shape().as_list() == [None, None]
    assert mx.values.get_shape().as_list() == [None]
    assert mx.get_shape().as_list() == [3, 4]
    mn = tf.sparse.minimum(a, b, name="mm")
    assert mn.values.name == "mm:1"
    empty = tf.SparseTensor(np.zeros((0, 2), np.int64), tf.zeros([0]), [3, 4])
    unordered = tf.SparseTensor([[1, 1], [0, 0]], [1.0, 2.0], [3, 4])
    out = run([mx, mn, tf.sparse_maximum(a, empty), tf.sparse_maximum(unordered, b),
               tf.sparse.maximum(tf.SparseTensor([[0], [1]], [3, -1], [7]),
                                 tf.SparseTensor([[1], [5]], [-2, 4], [7]))])
    union = [[0, 0], [0, 2], [1, 0], [1, 1], [2, 2], [2, 3]]
    # TF 2.15's numbers
    assert triple(out[0]) == (union, [5.0, 0.0, 0.0, 3.0, 2.0, 0.0], [3, 4])
    assert triple(out[1]) == (union, [1.0, -2.0, -1.0, 1.0, 0.0, -4.0], [3, 4])
    assert triple(out[2]) == ([[0, 0], [0, 2], [1, 1], [2, 3]], [1.0, 0.0, 3.0, 0.0], [3, 4])
    # TF: unordered input is walked as it comes (no error)
    assert triple(out[3]) == ([[0, 0], [1, 0], [1, 1], [0, 0], [2, 2]],
                              [5.0, 0.0, 1.0, 2.0, 2.0], [3, 4])
    assert triple(out[4]) == ([[0], [1], [5]], [3, -1, 4], [7])


def test_maximum_and_minimum_values_against_numpy():
    rng = np.random.default_rng(3)
    dense_a = np.where(rng.random((4, 5)) < 0.5, rng.standard_normal((4, 5)), 0)
    dense_b = np.where(rng.random((4, 5)) < 0.5, rng.standard_normal((4, 5)), 0)
    a, b = tf.sparse.from_dense(dense_a), tf.sparse.from_dense(dense_b)
    for fn, ref in ((tf.sparse_maximum, np.maximum), (tf.sparse_minimum, np.minimum)):
        out = run(fn(a, b))
        got = np.zeros((4, 5))
        got[tuple(out.indices.T)] = out.values
        np.testing.assert_allclose(got, ref(dense_a, dense_b))
        present = (dense_a != 0) | (dense_b != 0)
        assert sorted(map(tuple, out.indices.tolist())) == list(map(tuple, np.argwhere(present)))


def test_maximum_and_minimum_errors():
    a, _ = ab()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Operands' shapes do not match: got 4 and 5 for dimension 1"):
        run(tf.sparse_maximum(a, tf.SparseTensor([[0, 0]], [1.0], [3, 5])))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Operands do not have the same ranks; got shapes: 3 4 and 3 4 1"):
        run(tf.sparse_minimum(a, tf.SparseTensor([[0, 0, 0]], [1.0], [3, 4, 1])))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Sparse index tuple indices\[0, :\] = \[5, 0\] is out of bounds"):
        run(tf.sparse_maximum(a, tf.SparseTensor([[5, 0]], [1.0], [3, 4])))
    with pytest.raises(TypeError, match="Input 'b_values' of 'SparseSparseMaximum' Op has type "
                                        "int32 that does not match type float32 of argument "
                                        "'a_values'."):
        tf.sparse_maximum(a, tf.SparseTensor([[0, 0]], [1], [3, 4]))
    # TF registers a gradient that raises (in 2.15 a TypeError of its own signature; the
    # NotImplementedError it means to raise here)
    with pytest.raises(NotImplementedError,
                       match="Gradient for SparseSparseMaximum is not implemented."):
        tf.gradients(tf.sparse_maximum(a, ab()[1]).values, a.values)
    with pytest.raises(NotImplementedError,
                       match="Gradient for SparseSparseMinimum is not implemented."):
        tf.gradients(tf.sparse_minimum(a, ab()[1]).values, a.values)


def test_names_are_exported():
    for name in ("sparse_concat", "sparse_split", "sparse_transpose", "sparse_softmax",
                 "sparse_reduce_max", "sparse_reduce_max_sparse", "sparse_reduce_sum_sparse",
                 "sparse_maximum", "sparse_minimum", "sparse_mask", "sparse_to_indicator",
                 "sparse_merge", "sparse_reset_shape"):
        assert callable(getattr(tf, name))
    for name in ("concat", "split", "transpose", "softmax", "reduce_max", "reduce_max_sparse",
                 "reduce_sum_sparse", "maximum", "minimum", "mask", "to_indicator", "merge",
                 "reset_shape"):
        assert callable(getattr(tf.sparse, name))
