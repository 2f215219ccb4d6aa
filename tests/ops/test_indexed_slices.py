"""tf.IndexedSlices (framework/indexed_slices.py): the gradient of tf.gather and of
tf.nn.embedding_lookup, its aggregation in tf.gradients, its conversion to a dense tensor,
clip_by_global_norm on it, UnsortedSegmentSum and the Scatter ops.

Values are checked against NumPy; names, dtypes and structure against what TF 1.15.5 gives for
the same programs (measured with /tmp/tf115, quoted in the comments)."""
import warnings

import numpy as np
import pytest

import sandbox as tf
from sandbox.ops import state_ops
from tests.gradcheck import check_gradients

RNG = np.random.default_rng(27)


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


def parts(g):
    """What TF's Session.run gives for an IndexedSlices: values, indices, dense_shape."""
    return [g.values, g.indices] + ([g.dense_shape] if g.dense_shape is not None else [])


def dense(values, indices, rows):
    out = np.zeros((rows,) + np.shape(values)[1:], np.asarray(values).dtype)
    np.add.at(out, np.asarray(indices), values)
    return out


# -- the gradient of gather ----------------------------------------------------------------

def test_gather_gradient_is_indexed_slices_of_the_picked_rows():
    params = np.arange(12, dtype=np.float32).reshape(4, 3)
    p = tf.Variable(params, name="p")
    g = tf.gradients(tf.reduce_sum(tf.gather(p, [1, 1, 3]) * 2.0), p)[0]
    assert isinstance(g, tf.IndexedSlices)
    # TF 1.15: values gradients/GatherV2_grad/Reshape:0 (3, 3) float32, indices
    # gradients/GatherV2_grad/Reshape_1:0 (3,) int32, dense_shape GatherV2_grad/Cast:0 int32
    assert g.values.name == "gradients/GatherV2_grad/Reshape:0"
    assert g.indices.name == "gradients/GatherV2_grad/Reshape_1:0"
    assert g.dense_shape.name == "gradients/GatherV2_grad/Cast:0"
    assert g.values.get_shape().as_list() == [3, 3]
    assert (g.dtype, g.indices.dtype, g.dense_shape.dtype) == (tf.float32, tf.int32, tf.int32)
    values, indices, shape = run(parts(g))
    np.testing.assert_array_equal(values, np.full((3, 3), 2.0))
    np.testing.assert_array_equal(indices, [1, 1, 3])
    np.testing.assert_array_equal(shape, [4, 3])


def test_gather_gradient_of_a_matrix_of_ids_is_flattened():
    x = RNG.standard_normal((5, 2)).astype(np.float32)
    ids = np.array([[4, 0], [0, 2]])
    w = RNG.standard_normal((2, 2, 2)).astype(np.float32)
    c = tf.constant(x)
    g = tf.gradients(tf.reduce_sum(tf.gather(c, ids) * w), c)[0]
    assert isinstance(g, tf.IndexedSlices)      # for a constant too, as in TF
    values, indices, shape = run(parts(g))
    np.testing.assert_array_equal(indices, ids.reshape(-1))
    np.testing.assert_allclose(values, w.reshape(4, 2))
    np.testing.assert_array_equal(shape, [5, 2])
    np.testing.assert_allclose(dense(values, indices, 5), dense(w.reshape(4, 2), [4, 0, 0, 2], 5))


def test_gather_along_another_axis_has_a_dense_gradient():
    c = tf.constant(np.ones((4, 3), np.float32))
    g = tf.gradients(tf.reduce_sum(tf.gather(c, [1, 2, 2], axis=1)), c)[0]
    assert isinstance(g, tf.Tensor)             # TF 1.15: a dense Tensor (transpose_1:0)
    np.testing.assert_array_equal(run(g), np.tile([0.0, 1.0, 2.0], (4, 1)))


def test_dense_gradient_through_ops_that_need_one_is_the_numpy_gradient():
    """A gather of x * 2: Mul's gradient gets the slices made dense."""
    x = RNG.standard_normal((4, 3))
    check_gradients(lambda p: tf.gather(p * 2.0, [0, 2, 2, 3]), [x])
    p = tf.constant(x)
    g = tf.gradients(tf.reduce_sum(tf.gather(p * 2.0, [2, 2])), p)[0]
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(run(g), dense(np.full((2, 3), 2.0), [2, 2], 4))


def test_cast_keeps_the_gradient_sparse():
    v = tf.Variable(np.ones((3, 2), np.float32))
    g = tf.gradients(tf.reduce_sum(tf.gather(tf.cast(v, tf.float64), [2])), v)[0]
    assert isinstance(g, tf.IndexedSlices) and g.dtype == tf.float32
    values, indices, _ = run(parts(g))
    np.testing.assert_array_equal(values, [[1.0, 1.0]])
    np.testing.assert_array_equal(indices, [2])


# -- aggregation in tf.gradients ------------------------------------------------------------

def test_two_gathers_of_one_variable_are_concatenated():
    v = tf.Variable(np.zeros((4, 3), np.float32))
    y = tf.reduce_sum(tf.gather(v, [0])) + 3.0 * tf.reduce_sum(tf.gather(v, [2, 0]))
    g = tf.gradients(y, v)[0]
    assert isinstance(g, tf.IndexedSlices)
    assert g.values.op.type == "ConcatV2" and g.indices.op.type == "ConcatV2"
    values, indices, shape = run(parts(g))
    assert sorted(indices.tolist()) == [0, 0, 2]
    expected = np.zeros((4, 3))
    expected[0] = 4.0
    expected[2] = 3.0
    np.testing.assert_array_equal(dense(values, indices, 4), expected)
    np.testing.assert_array_equal(shape, [4, 3])


def test_int32_and_int64_indices_are_concatenated_as_int64():
    # TF 1.15: IndexedSlices(indices=gradients_1/concat_1:0 dtype=int64, ...)
    v = tf.Variable(np.zeros((4, 3), np.float32))
    y = tf.reduce_sum(tf.gather(v, [0])) + tf.reduce_sum(tf.gather(v, tf.constant([2], tf.int64)))
    g = tf.gradients(y, v)[0]
    assert g.indices.dtype == tf.int64
    assert sorted(run(g.indices).tolist()) == [0, 2]


def test_sparse_and_dense_gradients_of_one_tensor_add_up_dense():
    # TF 1.15: Tensor("gradients_2/AddN:0", shape=(4, 3)) = [[4]*3, [3]*3, [3]*3, [3]*3]
    v = tf.Variable(np.zeros((4, 3), np.float32))
    g = tf.gradients(tf.reduce_sum(tf.gather(v, [0])) + tf.reduce_sum(v * 3.0), v)[0]
    assert isinstance(g, tf.Tensor) and g.op.type == "AddN"
    np.testing.assert_array_equal(run(g), [[4.0] * 3, [3.0] * 3, [3.0] * 3, [3.0] * 3])


# -- the IndexedSlices object and its conversion ---------------------------------------------

def test_indexed_slices_properties_and_negation():
    with tf.device("/cpu:0"):
        values = tf.constant([[1.0, 2.0]], name="vals")
    s = tf.IndexedSlices(values, tf.constant([3]), tf.constant([5, 2]))
    assert s.values is values and s.name == "vals:0" and s.op is values.op
    assert s.dtype == tf.float32 and s.graph is values.graph and s.device == values.device
    assert "IndexedSlices(indices=" in str(s)
    neg = -s
    assert isinstance(neg, tf.IndexedSlices) and neg.indices is s.indices
    np.testing.assert_array_equal(run(neg.values), [[-1.0, -2.0]])
    made = tf.IndexedSlices([[1.0]], [0])                   # values are made tensors
    assert isinstance(made.values, tf.Tensor) and made.indices.dtype == tf.int32
    with pytest.raises(TypeError, match="indices must be integers"):
        tf.IndexedSlices([[1.0]], [0.5])
    with tf.Session() as sess:
        try:                     # TF gives an IndexedSlicesValue (client/session.py's part)
            fetched = sess.run(s)
        except TypeError as e:   # ... until the session knows it: the error says what to fetch
            assert "fetch [g.values, g.indices, g.dense_shape]" in str(e)
        else:
            assert fetched.indices.tolist() == [3] and fetched.dense_shape.tolist() == [5, 2]


def test_convert_to_tensor_sums_repeated_rows_with_unsorted_segment_sum():
    # TF 1.15: Tensor("UnsortedSegmentSum:0", shape=(4, 3)), no warning for a known shape
    values = RNG.standard_normal((5, 3)).astype(np.float32)
    indices = [3, 0, 3, 1, 3]
    s = tf.IndexedSlices(tf.constant(values), tf.constant(indices), tf.constant([4, 3]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = tf.convert_to_tensor(s)
    assert d.op.type == "UnsortedSegmentSum" and d.get_shape().as_list() == [4, 3]
    np.testing.assert_allclose(run(d), dense(values, indices, 4), rtol=1e-6)
    assert tf.convert_to_tensor_or_indexed_slices(s) is s


def test_gathers_and_reshapes_densify_the_rows_they_get_without_a_warning_as_tf():
    params = tf.Variable(tf.ones([5, 3]))
    rows = tf.gather(params, tf.placeholder_with_default([1, 4, 1], [None]))
    picked = tf.gather(tf.reshape(rows, [-1, 3]), [0, 2])         # rows of gathered rows
    with warnings.catch_warnings():
        warnings.simplefilter("error")                             # (TF says nothing either)
        grad = tf.gradients(tf.reduce_sum(picked), params)[0]
    assert isinstance(grad, tf.IndexedSlices)
    dense = run(tf.convert_to_tensor(grad))
    np.testing.assert_allclose(dense[:, 0], [0, 2, 0, 0, 0])       # row 1 picked twice


def test_convert_to_tensor_warns_as_tf_does_and_refuses_without_a_shape():
    ph = tf.placeholder(tf.float32, [None, 3])
    g = tf.gradients(tf.reduce_sum(tf.gather(ph, [0])), ph)[0]
    with pytest.warns(UserWarning, match="dense Tensor of unknown shape"):
        tf.convert_to_tensor(g)
    big = tf.Variable(tf.zeros([10000, 10001]))
    gb = tf.gradients(tf.reduce_sum(tf.gather(big, [0])), big)[0]
    with pytest.warns(UserWarning, match="with 100010000 elements"):
        tf.convert_to_tensor(gb)
    with pytest.raises(ValueError, match="without dense_shape"):
        tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0])))
    with pytest.raises(ValueError, match="requested dtype int32"):
        tf.convert_to_tensor(g, dtype=tf.int32)


def test_unsorted_segment_sum_values_errors_and_gradient():
    from sandbox.ops.indexing_ops import unsorted_segment_sum
    data = RNG.standard_normal((4, 2))
    out = unsorted_segment_sum(data, [2, -1, 2, 0], 3)
    assert out.get_shape().as_list() == [3, 2]
    np.testing.assert_allclose(run(out), [data[3], [0, 0], data[0] + data[2]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"segment_ids\[1\] = 5 is out of"):
        run(unsorted_segment_sum(data, [0, 5, 0, 0], 3))
    check_gradients(lambda d: unsorted_segment_sum(d, [1, 1, 0, 2], 3), [data])


# -- embedding_lookup -----------------------------------------------------------------------

def test_embedding_lookup_is_a_gather_beside_params_and_an_identity():
    # TF 1.15: embedding_lookup/Identity:0, whose input is the GatherV2 'embedding_lookup'
    params = RNG.standard_normal((5, 3)).astype(np.float32)
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(params, name="emb")
    with tf.device("/job:worker/task:0"):
        e = tf.nn.embedding_lookup(v, [[4, 0], [2, 2]])
    assert e.name == "embedding_lookup/Identity:0" and e.get_shape().as_list() == [2, 2, 3]
    gather = e.op.inputs[0].op
    assert gather.type == "GatherV2" and gather.name == "embedding_lookup"
    assert gather.colocation_groups() == [b"loc:@emb"]
    g = tf.gradients(tf.reduce_sum(e), v)[0]
    assert isinstance(g, tf.IndexedSlices)
    assert g.values.name == "gradients/embedding_lookup_grad/Reshape:0"


@pytest.mark.parametrize("strategy", ["mod", "div"])
def test_sharded_embedding_lookup_values_and_gradients(strategy):
    """Seven rows in three shards; TF 1.15 gives these rows and, per shard, these gradient
    indices: mod [2, 0, 1, 1], [0], [1]; div [0, 1], [0, 0], [1, 0]."""
    full = RNG.standard_normal((7, 3)).astype(np.float32)
    ids = np.array([[6, 0, 3], [3, 5, 1]])
    if strategy == "mod":
        shards, expected = [full[s::3] for s in range(3)], [[2, 0, 1, 1], [0], [1]]
    else:
        shards, expected = [full[0:3], full[3:5], full[5:7]], [[0, 1], [0, 0], [1, 0]]
    vs = [tf.Variable(s, name=f"shard{i}") for i, s in enumerate(shards)]
    e = tf.nn.embedding_lookup(vs, ids, partition_strategy=strategy)
    assert e.get_shape().as_list() == [2, 3, 3]
    w = RNG.standard_normal((2, 3, 3)).astype(np.float32)
    grads = tf.gradients(tf.reduce_sum(e * w), vs)
    assert all(isinstance(g, tf.IndexedSlices) for g in grads)
    out = run([e] + [parts(g) for g in grads])
    np.testing.assert_array_equal(out[0], full[ids])
    dense_full = dense(w.reshape(6, 3), ids.reshape(-1), 7)
    rebuilt = [dense(vals, idx, len(s)) for (vals, idx, _), s in zip(out[1:], shards)]
    for (_, idx, _), want in zip(out[1:], expected):
        assert idx.tolist() == want
    if strategy == "mod":
        np.testing.assert_allclose(np.concatenate(rebuilt), np.concatenate(
            [dense_full[s::3] for s in range(3)]), rtol=1e-6)
    else:
        np.testing.assert_allclose(np.concatenate(rebuilt), dense_full, rtol=1e-6)
    with pytest.raises(ValueError, match="Unrecognized partition strategy"):
        tf.nn.embedding_lookup(vs, ids, partition_strategy="hash")


def test_embedding_lookup_max_norm_clips_each_row():
    full = RNG.standard_normal((6, 4)).astype(np.float32) * 3
    ids = np.array([5, 0, 2])
    e = tf.nn.embedding_lookup(tf.constant(full), ids, max_norm=1.5)
    rows = full[ids]
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    np.testing.assert_allclose(run(e), rows * 1.5 / np.maximum(norms, 1.5), rtol=1e-5)
    shards = [tf.constant(full[0::2]), tf.constant(full[1::2])]
    np.testing.assert_allclose(run(tf.nn.embedding_lookup(shards, ids, max_norm=1.5)),
                               rows * 1.5 / np.maximum(norms, 1.5), rtol=1e-5)


# -- clip_by_global_norm --------------------------------------------------------------------

def test_clip_by_global_norm_keeps_indexed_slices_sparse():
    v = tf.Variable(np.zeros((5, 2), np.float32))
    w = tf.Variable(np.zeros(2, np.float32))
    y = tf.reduce_sum(tf.gather(v, [1, 3]) * [[3.0, 4.0], [0.0, 12.0]]) + tf.reduce_sum(w * 2.0)
    gv, gw = tf.gradients(y, [v, w])
    (cv, cw), norm = tf.clip_by_global_norm([gv, gw, None], 6.5)[0][:2], \
        tf.clip_by_global_norm([gv, gw], 6.5)[1]
    assert isinstance(cv, tf.IndexedSlices) and cv.indices is gv.indices
    values, indices, norm_value, dense_w = run([cv.values, cv.indices, norm, cw])
    expected_norm = np.sqrt(9 + 16 + 144 + 4 + 4)       # 13.30...
    np.testing.assert_allclose(norm_value, expected_norm, rtol=1e-6)
    scale = 6.5 / expected_norm
    np.testing.assert_allclose(values, np.array([[3, 4], [0, 12]]) * scale, rtol=1e-6)
    np.testing.assert_array_equal(indices, [1, 3])
    np.testing.assert_allclose(dense_w, [2 * scale, 2 * scale], rtol=1e-6)
    clipped = tf.clip_by_norm(gv, 5.0)
    assert isinstance(clipped, tf.IndexedSlices)
    np.testing.assert_allclose(run(clipped.values), np.array([[3, 4], [0, 12]]) * 5 / 13,
                               rtol=1e-6)


# -- the Scatter ops ------------------------------------------------------------------------

def test_scatter_ops_change_only_the_named_rows():
    # TF 1.15: scatter_add [1, 1, 3] -> [[0,0],[4,6],[0,0],[5,6]]; then scatter_update [0, 0]
    # keeps the last row; scatter_nd_add [[0, 1], [0, 1]] adds twice; scatter_mul [0] * 3
    v = tf.Variable(np.zeros((4, 2), np.float32), name="v")
    a = state_ops.scatter_add(v, [1, 1, 3], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    u = state_ops.scatter_update(v, [0, 0], [[1.0, 1.0], [2.0, 2.0]])
    n = state_ops.scatter_nd_add(v, [[0, 1], [0, 1]], [5.0, 5.0])
    m = state_ops.scatter_mul(v, [0], [[3.0, 3.0]])
    s = state_ops.scatter_sub(v, [3], [[1.0, 1.0]])
    assert a.op.type == "ScatterAdd" and a.get_shape().as_list() == [4, 2]
    with tf.Session() as sess:
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(a), [[0, 0], [4, 6], [0, 0], [5, 6]])
        np.testing.assert_array_equal(sess.run(u), [[2, 2], [4, 6], [0, 0], [5, 6]])
        np.testing.assert_array_equal(sess.run(n), [[2, 12], [4, 6], [0, 0], [5, 6]])
        np.testing.assert_array_equal(sess.run(m), [[6, 36], [4, 6], [0, 0], [5, 6]])
        np.testing.assert_array_equal(sess.run(s), [[6, 36], [4, 6], [0, 0], [4, 5]])
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"indices\[0\] = 7 is not in \[0, 4\) \(variable v\)"):
            sess.run(state_ops.scatter_add(v, [7], [[1.0, 1.0]]))
    with pytest.raises(ValueError, match="indices.shape \\+ ref.shape\\[1:\\]"):
        state_ops.scatter_add(v, [1], [[1.0, 1.0, 1.0]])
    assert {"scatter_update", "scatter_add", "scatter_sub", "scatter_nd_update",
            "scatter_nd_add", "scatter_nd_sub"} <= set(state_ops.__all__)
