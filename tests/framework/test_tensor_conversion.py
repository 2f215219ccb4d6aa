"""convert_to_tensor of what is not a tensor's value: TF raises TypeError for objects that are
neither numbers nor strings (a dict, a Graph, a SparseTensor) and for an Operation; the sandbox
used to make them silently into tf.string constants holding the Python object. Messages are
TensorFlow's (2.15.1's compat.v1 for the first, TF 1.15's for Operations)."""
import numpy as np
import pytest

import sandbox as tf


@pytest.mark.parametrize("value", [{"a": 1}, {1}, object(), [1, "a"]],
                         ids=["dict", "set", "object", "mixed-list"])
def test_objects_that_are_not_values_are_a_type_error(value):
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="Failed to convert elements of .* to Tensor. "
                                            "Consider casting elements to a supported type"):
            tf.convert_to_tensor(value)


def test_sparse_tensor_graph_and_operation_are_not_tensors():
    with tf.Graph().as_default() as g:
        sparse = tf.SparseTensor([[0]], [1.0], [2])
        with pytest.raises(TypeError, match="Failed to convert elements of SparseTensor"):
            tf.convert_to_tensor(sparse)
        with pytest.raises(TypeError, match="Failed to convert elements of"):
            tf.constant(g)
        x = tf.placeholder(tf.float32, name="x")
        train_op = tf.no_op(name="train")
        with pytest.raises(TypeError, match=r"Can't convert Operation 'train' to Tensor "
                                            r"\(target dtype=None, name=None, as_ref=False\)"):
            tf.convert_to_tensor(train_op)
        with pytest.raises(TypeError, match=r"Can't convert Operation 'train' to Tensor "
                                            r"\(target dtype=None, name='input_tensor'"):
            tf.reduce_mean(train_op)
        with pytest.raises(TypeError, match="Can't convert Operation 'x'"):
            tf.add(x.op, 1.0)


def test_strings_still_convert():
    with tf.Graph().as_default():
        values = [["a", b"b"], np.array([b"x", "y"], dtype=object), "abc", b"x\x00"]
        tensors = [tf.convert_to_tensor(v) for v in values]
        assert all(t.dtype == tf.string for t in tensors)
        with tf.Session() as sess:
            got = sess.run(tensors)
    assert got[0].tolist() == [b"a", b"b"]
    assert got[1].tolist() == [b"x", b"y"]
    assert got[3] == b"x\x00"
