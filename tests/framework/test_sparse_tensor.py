"""tf.SparseTensor, tf.SparseTensorValue, tf.sparse_placeholder and a Session that fetches and
feeds them (framework/sparse_tensor.py, ops/sparse_ops.py, client/session.py).

Names, shapes, values and error messages are what TensorFlow 2.15 (tf.compat.v1, graph mode)
gives for the same programs; TF's output is quoted in the comments."""
import numpy as np
import pytest

import sandbox as tf


def test_sparse_tensor_converts_its_parts_in_a_name_scope():
    st = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [3, 4])
    # TF: SparseTensor/indices:0 (2, 2) int64, SparseTensor/values:0, SparseTensor/dense_shape:0
    assert (st.indices.name, st.values.name, st.dense_shape.name) == \
        ("SparseTensor/indices:0", "SparseTensor/values:0", "SparseTensor/dense_shape:0")
    assert (st.indices.dtype, st.dense_shape.dtype, st.dtype) == (tf.int64, tf.int64, tf.float32)
    assert st.get_shape().as_list() == [3, 4] and st.shape.as_list() == [3, 4]
    assert st.op.name == "SparseTensor/values"
    assert st.graph is tf.get_default_graph()
    assert str(st) == ('SparseTensor(indices=Tensor("SparseTensor/indices:0", shape=(2, 2), '
                       'dtype=int64), values=Tensor("SparseTensor/values:0", shape=(2,), '
                       'dtype=float32), dense_shape=Tensor("SparseTensor/dense_shape:0", '
                       'shape=(2,), dtype=int64))')
    second = tf.SparseTensor([[0, 0]], [1], [2, 2])
    assert second.indices.name == "SparseTensor_1/indices:0"


def test_sparse_tensor_keeps_tensors_it_is_given():
    indices = tf.constant([[0, 0]], tf.int64)
    values = tf.constant([1])
    shape = tf.placeholder(tf.int64, [2])
    st = tf.SparseTensor(indices, values, shape)
    assert st.indices is indices and st.values is values and st.dense_shape is shape
    assert st.get_shape().as_list() == [None, None]      # TF: (?, ?)


@pytest.mark.parametrize("args, message", [
    (([[0, 0]], [1.0, 2.0], [3, 4]), "Dimensions 1 and 2 are not compatible"),
    (([0, 1], [1.0, 2.0], [3, 4]), "Shape (2,) must have rank 2"),
    (([[0, 0, 0]], [1.0], [3, 4]), "Dimensions 3 and 2 are not compatible"),
])
def test_sparse_tensor_checks_the_shapes_of_its_parts_as_tf(args, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        tf.SparseTensor(*args)


def test_sparse_tensor_indices_must_be_integers():
    with pytest.raises(TypeError, match="int64"):          # TF: Expected int64, but got 0.5
        tf.SparseTensor([[0.5, 0]], [1.0], [3, 4])


def test_sparse_tensor_value_is_a_namedtuple():
    v = tf.SparseTensorValue([[0, 1]], [3.0], [2, 2])
    assert tf.SparseTensorValue._fields == ("indices", "values", "dense_shape")
    assert repr(v) == "SparseTensorValue(indices=[[0, 1]], values=[3.0], dense_shape=[2, 2])"
    st = tf.SparseTensor.from_value(v)
    assert isinstance(st, tf.SparseTensor) and st.indices.dtype == tf.int64


def test_convert_to_tensor_or_sparse_tensor():
    st = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
    assert tf.convert_to_tensor_or_sparse_tensor(st) is st
    made = tf.convert_to_tensor_or_sparse_tensor(tf.SparseTensorValue([[0, 1]], [3.0], [2, 2]))
    assert isinstance(made, tf.SparseTensor)
    assert made.indices.name.startswith("SparseTensor_")      # TF: SparseTensor_10/indices:0
    dense = tf.convert_to_tensor_or_sparse_tensor([1.0, 2.0])
    assert isinstance(dense, tf.Tensor)
    with pytest.raises(RuntimeError, match="Sparse dtype"):
        tf.convert_to_tensor_or_sparse_tensor(st, dtype=tf.int32)


# -- sparse_placeholder --------------------------------------------------------------------

def test_sparse_placeholder_names_like_tf():
    p = tf.sparse_placeholder(tf.float32)
    # TF: Placeholder_2:0 (indices) Placeholder_1:0 (values) Placeholder:0 (shape) -- the shape
    # placeholder is made first
    assert (p.indices.name, p.values.name, p.dense_shape.name) == \
        ("Placeholder_2:0", "Placeholder_1:0", "Placeholder:0")
    assert p.indices.get_shape().as_list() == [None, None]
    assert p.get_shape().ndims is None
    named = tf.sparse_placeholder(tf.float32, name="sp")
    assert (named.indices.name, named.values.name, named.dense_shape.name) == \
        ("sp/indices:0", "sp/values:0", "sp/shape:0")
    assert named.dense_shape.op.type == "Placeholder"


def test_sparse_placeholder_with_a_shape_gives_a_default_shape():
    p = tf.sparse_placeholder(tf.float32, shape=[None, 5], name="sq")
    # TF 2.15: sq/shape_default (Const), sq/shape (PlaceholderWithDefault), sq/values, sq/indices
    assert [op.name for op in tf.get_default_graph().get_operations()] == \
        ["sq/shape_default", "sq/shape", "sq/values", "sq/indices"]
    assert p.dense_shape.op.type == "PlaceholderWithDefault"
    assert p.indices.get_shape().as_list() == [None, 2]
    assert p.get_shape().as_list() == [None, 5]
    with tf.Session() as sess:
        # TF: [-1  5] -- the unknown dimension is -1 until the shape is fed
        np.testing.assert_array_equal(
            sess.run(p.dense_shape, {p.indices: [[0, 0]], p.values: [1.0]}), [-1, 5])


# -- Session: fetching and feeding ----------------------------------------------------------

def test_session_fetches_a_sparse_tensor_as_a_sparse_tensor_value():
    st = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [3, 4])
    with tf.Session() as sess:
        out = sess.run(st)
        nested = sess.run({"a": [st, st.values], "b": (st,)})
        evaluated = st.eval()
    assert isinstance(out, tf.SparseTensorValue)
    np.testing.assert_array_equal(out.indices, [[0, 0], [1, 2]])
    np.testing.assert_array_equal(out.values, [1.0, 2.0])
    np.testing.assert_array_equal(out.dense_shape, [3, 4])
    assert (out.indices.dtype, out.values.dtype, out.dense_shape.dtype) == \
        (np.int64, np.float32, np.int64)
    assert isinstance(nested["a"][0], tf.SparseTensorValue)
    assert isinstance(nested["b"], tuple) and isinstance(nested["b"][0], tf.SparseTensorValue)
    np.testing.assert_array_equal(nested["a"][1], [1.0, 2.0])
    np.testing.assert_array_equal(evaluated.values, [1.0, 2.0])


def test_session_feeds_a_sparse_placeholder_with_a_value_or_a_tuple():
    p = tf.sparse_placeholder(tf.float32, name="sp")
    doubled = p.values * 2
    with tf.Session() as sess:
        # TF: [6.]
        np.testing.assert_array_equal(sess.run(doubled, {p: ([[0, 1]], [3.0], [4, 5])}), [6.0])
        value = tf.SparseTensorValue(np.array([[0, 1], [3, 4]]), np.array([3.0, 1.5]),
                                     np.array([4, 5]))
        out = sess.run(p, {p: value})
        fed_fetched = sess.run([p, doubled], {p: value})
        callable_ = sess.make_callable(doubled, [p])
        np.testing.assert_array_equal(callable_(value), [6.0, 3.0])
    assert isinstance(out, tf.SparseTensorValue)
    np.testing.assert_array_equal(out.indices, [[0, 1], [3, 4]])
    assert out.values.dtype == np.float32 and out.dense_shape.dtype == np.int64
    np.testing.assert_array_equal(fed_fetched[1], [6.0, 3.0])


def test_an_unfed_sparse_placeholder_names_the_missing_part():
    p = tf.sparse_placeholder(tf.float32, name="sp")
    with tf.Session() as sess:
        # TF: You must feed a value for placeholder tensor 'sp/values' with dtype float ...
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="You must feed a value for placeholder tensor 'sp/values'"):
            sess.run(p.values)


def test_feeding_a_sparse_placeholder_checks_each_part():
    p = tf.sparse_placeholder(tf.float32, shape=[None, 2], name="sq")
    with tf.Session() as sess:
        # TF: Cannot feed value of shape (3,) for Tensor sq/indices:0, which has shape (?, 2)
        with pytest.raises(ValueError, match="Cannot feed value of shape \\(3,\\) for Tensor "
                                             "'sq/indices:0'"):
            sess.run(p.values, {p: np.ones((2, 3))})
        with pytest.raises(TypeError, match="SparseTensorValue"):
            sess.run(p.values, {p: 3.0})


def test_a_sparse_tensor_is_not_one_graph_element():
    st = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
    with pytest.raises(TypeError, match="three tensors"):
        tf.get_default_graph().as_graph_element(st)
