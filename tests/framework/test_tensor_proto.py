"""tf.make_tensor_proto / tf.make_ndarray (framework/tensor_proto.py), tf.get_static_value
(framework/tensor_util.py), tf.dimension_value / tf.dimension_at_index (tensor_shape.py),
compared with TF 2.15's tf.compat.v1: the expected texts and values below are what TF printed
for the same calls (str() of the proto, repr of make_ndarray and get_static_value)."""
import numpy as np
import pytest

import sandbox as tf

PROTO_CASES = [
    ((1.5,), 'dtype: DT_FLOAT\ntensor_shape {\n}\nfloat_val: 1.5\n', np.array(1.5, np.float32)),
    (([1, 2, 3],), 'dtype: DT_INT32\ntensor_shape {\n  dim {\n    size: 3\n  }\n}\n'
     'tensor_content: "\\001\\000\\000\\000\\002\\000\\000\\000\\003\\000\\000\\000"\n',
     np.array([1, 2, 3], np.int32)),
    ((np.arange(6, dtype=np.float64).reshape(2, 3),),
     'dtype: DT_DOUBLE\ntensor_shape {\n  dim {\n    size: 2\n  }\n  dim {\n    size: 3\n  }\n}'
     '\ntensor_content: "\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000'
     '\\360?\\000\\000\\000\\000\\000\\000\\000@\\000\\000\\000\\000\\000\\000\\010@\\000\\000'
     '\\000\\000\\000\\000\\020@\\000\\000\\000\\000\\000\\000\\024@"\n',
     np.arange(6, dtype=np.float64).reshape(2, 3)),
    (([[True, False]],), 'dtype: DT_BOOL\ntensor_shape {\n  dim {\n    size: 1\n  }\n  dim {\n'
     '    size: 2\n  }\n}\nbool_val: true\nbool_val: false\n', np.array([[True, False]])),
    ((["a", "bc"],), 'dtype: DT_STRING\ntensor_shape {\n  dim {\n    size: 2\n  }\n}\n'
     'string_val: "a"\nstring_val: "bc"\n', np.array([b"a", b"bc"], dtype=object)),
    ((b"x",), 'dtype: DT_STRING\ntensor_shape {\n}\nstring_val: "x"\n',
     np.array(b"x", dtype=object)),
    ((3, tf.int64), 'dtype: DT_INT64\ntensor_shape {\n}\nint64_val: 3\n', np.array(3, np.int64)),
    ((1.0, None, [2, 2]), 'dtype: DT_FLOAT\ntensor_shape {\n  dim {\n    size: 2\n  }\n'
     '  dim {\n    size: 2\n  }\n}\nfloat_val: 1\n', np.ones([2, 2], np.float32)),
    (([1, 2], tf.float32, [4]), 'dtype: DT_FLOAT\ntensor_shape {\n  dim {\n    size: 4\n  }\n}'
     '\nfloat_val: 1\nfloat_val: 2\n', np.array([1., 2., 2., 2.], np.float32)),
    ((np.float16(1.5),), 'dtype: DT_HALF\ntensor_shape {\n}\nhalf_val: 15872\n',
     np.array(1.5, np.float16)),
    ((np.array([1, 2], np.uint8),), 'dtype: DT_UINT8\ntensor_shape {\n  dim {\n    size: 2\n'
     '  }\n}\ntensor_content: "\\001\\002"\n', np.array([1, 2], np.uint8)),
    ((2 ** 40,), 'dtype: DT_INT64\ntensor_shape {\n}\nint64_val: 1099511627776\n',
     np.array(2 ** 40, np.int64)),
    (([],), 'dtype: DT_FLOAT\ntensor_shape {\n  dim {\n  }\n}\n', np.zeros([0], np.float32)),
    ((np.zeros((0, 2), np.int32),), 'dtype: DT_INT32\ntensor_shape {\n  dim {\n  }\n  dim {\n'
     '    size: 2\n  }\n}\n', np.zeros((0, 2), np.int32)),
]


@pytest.mark.parametrize("args,text,array", PROTO_CASES)
def test_make_tensor_proto_and_make_ndarray_as_tf(args, text, array):
    proto = tf.make_tensor_proto(*args)
    assert str(proto) == text
    back = tf.make_ndarray(proto)
    assert back.dtype == array.dtype and back.shape == array.shape
    np.testing.assert_array_equal(back, array)
    assert tf.make_tensor_proto(proto) is proto


def test_make_tensor_proto_errors_as_tf():
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(3,\), but got \(2,\)."):
        tf.make_tensor_proto([1, 2], shape=[3], verify_shape=True)
    with pytest.raises(ValueError, match="Too many elements provided. Takes at most 1, but "
                                         "got 2."):
        tf.make_tensor_proto([1, 2], shape=[1])
    with pytest.raises(ValueError, match="None values not supported."):
        tf.make_tensor_proto(None)


def test_a_const_nodes_value_round_trips():
    with tf.Graph().as_default():
        c = tf.constant([[1.5, 2.5]])
    np.testing.assert_array_equal(
        tf.make_ndarray(tf.make_tensor_proto(c.op.get_attr("value"))), [[1.5, 2.5]])


def test_get_static_value_as_tf():
    i32 = np.int32
    with tf.Graph().as_default():
        c = tf.constant([1, 2])
        p = tf.placeholder(tf.int32, [None, 2])
        cases = [  # (tensor, TF's value, TF's value with partial=True); None: None
            (c, np.array([1, 2], i32), None),
            (tf.shape(p), None, None),
            (tf.shape(tf.zeros([2, 3])), np.array([2, 3], i32), None),
            (tf.size(tf.zeros([2, 3])), np.array(6, i32), None),
            (tf.rank(p), np.array(2, i32), None),
            (tf.range(3), np.array([0, 1, 2], i32), None),
            (tf.range(1, 7, 2), np.array([1, 3, 5], i32), None),
            (tf.cast(c, tf.float32), np.array([1., 2.], np.float32), None),
            (tf.identity(c), np.array([1, 2], i32), None),
            (tf.stack([c, c]), np.array([[1, 2], [1, 2]], i32), None),
            (tf.concat([c, c], 0), np.array([1, 2, 1, 2], i32), None),
            (p, None, None),
            (tf.fill([2], 3), np.array([3, 3], i32), None),
            (tf.zeros([2, 2]), np.zeros([2, 2], np.float32), None),
            (tf.add(c, c), None, None),
            (tf.unstack(tf.constant([[1, 2], [3, 4]]))[1], np.array([3, 4], i32), None),
            (tf.split(tf.constant([1, 2, 3, 4]), 2)[1], np.array([3, 4], i32), None),
            (tf.equal(c, 1), np.array([True, False]), None),
        ]
        for tensor, value, _ in cases:
            for partial in (False, True):
                got = tf.get_static_value(tensor, partial=partial)
                if value is None:
                    assert got is None, tensor
                else:
                    got = np.asarray(got)
                    assert got.dtype == value.dtype, tensor
                    np.testing.assert_array_equal(got, value)
        mixed = tf.stack([1, p[0, 0]])
        assert tf.get_static_value(mixed) is None
        part = tf.get_static_value(mixed, partial=True)   # TF: array([array(1), None], object)
        assert part.dtype == object and part[0] == 1 and part[1] is None
        v = tf.Variable(30)
        assert tf.get_static_value(v) is None
    np.testing.assert_array_equal(tf.get_static_value(np.array([1, 2])), [1, 2])
    assert tf.get_static_value(3) == 3


def test_dimension_value_and_dimension_at_index_as_tf():
    assert tf.dimension_value(tf.Dimension(3)) == 3
    assert tf.dimension_value(tf.Dimension(None)) is None
    assert tf.dimension_value(4) == 4 and tf.dimension_value(None) is None
    s = tf.TensorShape([None, 3])
    assert str(tf.dimension_at_index(s, 0)) == "?"
    assert repr(tf.dimension_at_index(s, 1)) == "Dimension(3)"
    assert repr(tf.dimension_at_index(tf.TensorShape(None), 5)) == "Dimension(None)"
    assert tf.dimension_at_index([2, None], 0).value == 2   # TF asserts a TensorShape here
    with pytest.raises(IndexError):
        tf.dimension_at_index(s, 5)
