"""Tests for the TF 1.15 names added in ops/tensor_serialization_ops.py (serialize_tensor,
parse_tensor, serialize_sparse, serialize_many_sparse, deserialize_many_sparse),
ops/encode_ops.py (encode_base64, decode_base64, decode_compressed, decode_json_example),
ops/edit_distance_ops.py, ops/switch_case_ops.py, check_ops.py (assert_near, assert_rank_in,
assert_same_float_dtype, assert_proper_iterable, tf.debugging.assert_shapes), tf.timestamp,
tf.fingerprint, tf.bitcast and tf.guarantee_const.

Every value, byte string and error message marked "TF 2.15" was measured with TensorFlow
2.15.1 under tf.compat.v1 with disable_v2_behavior(). Only switch_case has a gradient in TF
(the taken branch's); the others have none (NotDifferentiable, or no gradient registered:
guarantee_const's LookupError).
"""
import gzip
import zlib

import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


# -- serialize_tensor / parse_tensor ----------------------------------------------------------

SERIALIZED = [   # TF 2.15: tf.serialize_tensor(value)
    (np.array([1, 2, 3], np.int32),
     b'\x08\x03\x12\x04\x12\x02\x08\x03"\x0c\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00'),
    (np.float32(1.5), b'\x08\x01\x12\x00"\x04\x00\x00\xc0?'),
    (np.array([[b"a", b"bc"]]), b'\x08\x07\x12\x08\x12\x02\x08\x01\x12\x02\x08\x02B\x01aB\x02bc'),
    (np.array([True, False]), b'\x08\n\x12\x04\x12\x02\x08\x02"\x02\x01\x00'),
    (np.array([], np.float32), b'\x08\x01\x12\x02\x12\x00'),
    (np.int64(7), b'\x08\t\x12\x00"\x08\x07\x00\x00\x00\x00\x00\x00\x00'),
    (np.array([1 + 2j], np.complex64),
     b'\x08\x08\x12\x04\x12\x02\x08\x01"\x08\x00\x00\x80?\x00\x00\x00@'),
    (np.array([1.5, 2], np.float16), b'\x08\x13\x12\x04\x12\x02\x08\x02"\x04\x00>\x00@'),
    (np.array(b"x"), b'\x08\x07\x12\x00B\x01x'),
    (np.zeros((0, 2), np.int32), b'\x08\x03\x12\x06\x12\x00\x12\x02\x08\x02'),
]


def test_serialize_tensor_bytes_are_tfs_and_parse_back():
    tensors = [tf.serialize_tensor(v) for v, _ in SERIALIZED]
    assert tensors[0].dtype == tf.string and tensors[0].shape.as_list() == []
    parsed = [tf.parse_tensor(t, tf.as_dtype(v.dtype))
              for t, (v, _) in zip(tensors, SERIALIZED)]
    assert parsed[0].shape.ndims is None                       # TF 2.15: <unknown>
    got, back = run([tensors, parsed])
    for (value, want), g, b in zip(SERIALIZED, got, back):
        assert g == want
        assert np.shape(b) == value.shape
        np.testing.assert_array_equal(np.asarray(b, dtype=object) if value.dtype.kind == "S"
                                      else b, value.astype(object) if value.dtype.kind == "S"
                                      else value)


def test_parse_tensor_errors():
    with pytest.raises(errors.InvalidArgumentError,       # TF 2.15
                       match=r"Type mismatch between parsed tensor \(int32\) and dtype "
                             r"\(float\)"):
        run(tf.parse_tensor(tf.serialize_tensor([1, 2, 3]), tf.float32))
    with pytest.raises(errors.InvalidArgumentError,       # TF 2.15
                       match="Could not parse `serialized` as TensorProto, base64: "
                             "Z2FyYmFnZf8="):
        run(tf.parse_tensor(b"garbage\xff", tf.float32))
    with pytest.raises(errors.InvalidArgumentError, match="Cannot parse tensor from proto: "):
        run(tf.parse_tensor(b"", tf.int32))               # TF 2.15
    with pytest.raises(errors.InvalidArgumentError,       # TF 2.15: only when it runs
                       match=r"Expected `serialized` to be a scalar, got shape: \[2\]"):
        run(tf.parse_tensor([b"a", b"b"], tf.int32))
    # a TensorProto with *_val fields (make_tensor_proto's scalars) parses too
    proto = tf.make_tensor_proto(5).SerializeToString()
    assert run(tf.parse_tensor(proto, tf.int32)) == 5


# -- the SparseTensor serializers --------------------------------------------------------------

def test_serialize_sparse_layouts_are_tfs():
    one = tf.serialize_sparse(tf.SparseTensor([[0, 1], [2, 3]], [1.5, 2.5], [3, 4]))
    many = tf.serialize_many_sparse(tf.SparseTensor([[0, 0], [0, 2], [2, 1]],
                                                    [b"a", b"b", b"c"], [3, 4]))
    assert one.shape.as_list() == [3] and many.shape.as_list() == [None, 3]   # TF 2.15
    got_one, got_many = run([one, many])
    assert list(got_one) == [                                                 # TF 2.15
        b'\x08\t\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02" \x00\x00\x00\x00\x00\x00\x00\x00'
        b'\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00'
        b'\x00\x00\x00\x00',
        b'\x08\x01\x12\x04\x12\x02\x08\x02"\x08\x00\x00\xc0?\x00\x00 @',
        b'\x08\t\x12\x04\x12\x02\x08\x02"\x10\x03\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00'
        b'\x00\x00\x00\x00']
    shape_row = b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x04\x00\x00\x00\x00\x00\x00\x00'
    assert got_many.tolist() == [                                             # TF 2.15
        [b'\x08\t\x12\x08\x12\x02\x08\x02\x12\x02\x08\x01"\x10\x00\x00\x00\x00\x00\x00\x00'
         b'\x00\x02\x00\x00\x00\x00\x00\x00\x00',
         b'\x08\x07\x12\x04\x12\x02\x08\x02"\x04\x01\x01ab', shape_row],
        [b'\x08\t\x12\x06\x12\x00\x12\x02\x08\x01', b'\x08\x07\x12\x02\x12\x00', shape_row],
        [b'\x08\t\x12\x08\x12\x02\x08\x01\x12\x02\x08\x01"\x08\x01\x00\x00\x00\x00\x00\x00'
         b'\x00', b'\x08\x07\x12\x04\x12\x02\x08\x01"\x02\x01c', shape_row]]
    back = tf.deserialize_many_sparse(many, tf.string, rank=2)
    assert back.indices.shape.as_list() == [None, 2]                          # TF 2.15
    assert back.dense_shape.shape.as_list() == [2]
    value = run(back)
    np.testing.assert_array_equal(value.indices, [[0, 0], [0, 2], [2, 1]])
    assert list(value.values) == [b"a", b"b", b"c"]
    np.testing.assert_array_equal(value.dense_shape, [3, 4])


def test_deserialize_many_sparse_pads_shapes_and_errors():
    with tf.Session() as sess:
        x1 = sess.run(tf.serialize_sparse(tf.SparseTensor([[0], [2]], [1, 2], [3])))
        x2 = sess.run(tf.serialize_sparse(tf.SparseTensor([[4]], [5], [5])))
        x3 = sess.run(tf.serialize_sparse(tf.SparseTensor([[1, 1]], [5], [2, 2])))
        value = sess.run(tf.deserialize_many_sparse(np.stack([x1, x2]), tf.int32))
    np.testing.assert_array_equal(value.indices, [[0, 0], [0, 2], [1, 4]])   # TF 2.15
    np.testing.assert_array_equal(value.values, [1, 2, 5])
    np.testing.assert_array_equal(value.dense_shape, [2, 5])
    cases = [   # TF 2.15's messages
        (np.stack([x1, x3]), tf.int32, "Inconsistent shape across SparseTensors: rank prior to "
         r"SparseTensor\[1\] was: 1 but rank of SparseTensor\[1\] is: 2"),
        (np.stack([x1]), tf.string, r"Requested SparseTensor of type string but "
         r"SparseTensor\[0\].values.dtype\(\) == int32"),
        (np.array([[b"x", b"y", b"z"]]), tf.int32, "Could not parse serialized proto"),
        (np.zeros((0, 3), object), tf.int32, "Serialized sparse should have at least 1 "
         r"serialized tensor, but has a zero dimension \[0,3\]"),
    ]
    for rows, dtype, message in cases:
        with pytest.raises(errors.InvalidArgumentError, match=message):
            run(tf.deserialize_many_sparse(tf.constant(rows, tf.string), dtype))
    with pytest.raises(ValueError, match="Dimension must be 3 but is 2"):     # TF 2.15
        tf.deserialize_many_sparse(np.array([[b"x", b"y"]]), tf.int32)
    with pytest.raises(errors.InvalidArgumentError,                           # TF 2.15
                       match=r"indices\[1\] = \[0,1\] is out of order. Many sparse ops "
                             "require sorted indices.\n    Use `tf.sparse.reorder`"):
        run(tf.serialize_many_sparse(tf.SparseTensor([[1, 0], [0, 1]], [1, 2], [2, 2])))
    with pytest.raises(errors.InvalidArgumentError,                           # TF 2.15
                       match=r"indices\[1\] = \[5,0\] is out of bounds: need 0 <= index < "
                             r"\[2,2\]"):
        run(tf.serialize_many_sparse(tf.SparseTensor([[0, 0], [5, 0]], [1, 2], [2, 2])))
    with pytest.raises(errors.InvalidArgumentError,                           # TF 2.15
                       match="Rank of input SparseTensor should be > 1, but saw rank: 1"):
        run(tf.serialize_many_sparse(tf.SparseTensor([[0]], [1], [3])))


# -- base64, decode_compressed, decode_json_example -------------------------------------------

def test_base64_web_safe_and_errors():
    enc = run([tf.encode_base64([b"hello?>", b"\xff\xfe", b""]),
               tf.encode_base64(b"ab", pad=True)])
    assert list(enc[0]) == [b"aGVsbG8_Pg", b"__4", b""] and enc[1] == b"YWI="   # TF 2.15
    dec = run(tf.decode_base64([b"aGVsbG8_Pg", b"__4=", b"aGVsbG8_Pg=="]))
    assert list(dec) == [b"hello?>", b"\xff\xfe", b"hello?>"]                 # TF 2.15
    for bad, message in [(b"a", "Base64 string length cannot be 1 modulo 4."),   # TF 2.15
                         (b"aGVs+", "Base64 string length cannot be 1 modulo 4."),
                         (b"aG Vs", "Invalid character found in base64.")]:
        with pytest.raises(errors.InvalidArgumentError, match=message):
            run(tf.decode_base64(bad))
    with pytest.raises(TypeError, match="Expected string passed to parameter 'input' of op "
                                        "'EncodeBase64', got 3 of type 'int' instead."):
        tf.encode_base64(3)                                                     # TF 2.15


def test_decode_compressed():
    z, g = zlib.compress(b"hello hello"), gzip.compress(b"gz data")
    got = run([tf.decode_compressed([z], "ZLIB"), tf.decode_compressed(g, "GZIP"),
               tf.decode_compressed(b"raw", "")])
    assert list(got[0]) == [b"hello hello"] and got[1] == b"gz data" and got[2] == b"raw"
    with pytest.raises(errors.DataLossError,                                    # TF 2.15
                       match="inflate\\(\\) failed with error -3: incorrect header check"):
        run(tf.decode_compressed(b"raw", "ZLIB"))
    bz2 = tf.decode_compressed(b"raw", "BZ2")                  # TF 2.15: fails only at run
    with pytest.raises(errors.InvalidArgumentError,
                       match="Only ZLIB, GZIP or NONE are supported compressions"):
        run(bz2)


def test_decode_json_example_bytes_are_tfs():
    text = ('{"features": {"feature": {"b": {"floatList": {"value": [1.5, 2]}}, "a": '
            '{"int64List": {"value": ["1", 2, -3]}}, "c": {"bytesList": {"value": ["YWJj"]}}}}}')
    got = run(tf.decode_json_example([text]))
    assert list(got) == [                                                       # TF 2.15
        b'\n9\n\x11\n\x01b\x12\x0c\x12\n\r\x00\x00\xc0?\r\x00\x00\x00@\n\x16\n\x01a\x12\x11'
        b'\x1a\x0f\x08\x01\x08\x02\x08\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x01\n\x0c\n\x01c'
        b'\x12\x07\n\x05\n\x03abc']
    parsed = run(tf.parse_single_example(tf.decode_json_example(text),
                                         {"a": tf.FixedLenFeature([3], tf.int64)}))
    np.testing.assert_array_equal(parsed["a"], [1, 2, -3])
    assert run(tf.decode_json_example("{}")) == b""                             # TF 2.15
    for bad, message in [   # TF 2.15
            ('{"bad": 1}', "Error while parsing JSON: bad: Cannot find field."),
            ('{"features": {"feature": {"a": {"int64List": {"value": [1.5]}}}}}',
             r"Error while parsing JSON: \(features.feature\[0\].value.int64_list.value\[0\]\)"
             ": invalid value 1.5 for type TYPE_INT64")]:
        with pytest.raises(errors.InvalidArgumentError, match=message):
            run(tf.decode_json_example(bad))


# -- edit_distance -----------------------------------------------------------------------------

def test_edit_distance_values_shape_and_errors():
    h = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], [b"a", b"b"], [2, 1, 1])
    t = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]],
                        [b"a", b"b", b"c", b"a"], [2, 2, 2])
    d = tf.edit_distance(h, t)
    assert d.name == "edit_distance:0" and d.shape.as_list() == [2, 2]          # TF 2.15
    assert d.dtype == tf.float32
    h2 = tf.SparseTensor([[0, 0]], [1], [1, 3])
    t2 = tf.SparseTensor([[1, 0]], [2], [2, 1])
    empty = tf.SparseTensor(np.zeros((0, 2), np.int64), np.zeros(0, np.int32), [2, 2])
    got = run([d, tf.edit_distance(h, t, normalize=False), tf.edit_distance(h2, t2),
               tf.edit_distance(h2, t2, normalize=False), tf.edit_distance(empty, empty)])
    np.testing.assert_array_equal(got[0], [[np.inf, 1.0], [0.5, 1.0]])           # TF 2.15
    np.testing.assert_array_equal(got[1], [[1.0, 1.0], [1.0, 1.0]])
    np.testing.assert_array_equal(got[2], [np.inf, 1.0])
    np.testing.assert_array_equal(got[3], [1.0, 1.0])
    np.testing.assert_array_equal(got[4], [0.0, 0.0])
    with pytest.raises(TypeError, match="Hypothesis must be a SparseTensor."):  # TF 2.15
        tf.edit_distance([1, 2], t2)
    with pytest.raises(TypeError, match="Input 'truth_values' of 'EditDistance' Op has type "
                                        "float32 that does not match type int32 of argument "
                                        "'hypothesis_values'."):               # TF 2.15
        tf.edit_distance(h2, tf.SparseTensor([[0, 0]], [1.0], [2, 2]))
    with pytest.raises(ValueError, match="Num elements of hypothesis_shape does not match "
                                         "truth_shape: 3 vs. 2"):               # TF 2.15
        tf.edit_distance(tf.SparseTensor([[0, 0, 0]], [1], [1, 1, 3]), t2)


# -- switch_case -------------------------------------------------------------------------------

def test_switch_case_out_of_range_default_and_gradient():
    i = tf.placeholder(tf.int32, [])
    last = tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20),
                              lambda: tf.constant(30)])
    dflt = tf.switch_case(i, {1: lambda: tf.constant(20), 0: lambda: tf.constant(10)},
                          default=lambda: tf.constant(-1))
    pairs = tf.switch_case(i, [(1, lambda: tf.constant(2)), (0, lambda: tf.constant(1))])
    v = tf.constant(3.0)
    out = tf.switch_case(i, [lambda: v * v, lambda: v * 2.0, lambda: v])
    grad = tf.gradients(out, v)[0]
    with tf.Session() as sess:
        got = [sess.run([last, dflt, pairs, out, grad], {i: k}) for k in [-1, 0, 1, 2, 7]]
    # TF 2.15: out of range -> the last branch, or the default
    assert [g[0] for g in got] == [30, 10, 20, 30, 30]
    assert [g[1] for g in got] == [-1, 10, 20, -1, -1]
    assert [g[2] for g in got] == [2, 1, 2, 2, 2]
    assert [g[3] for g in got] == [3.0, 9.0, 6.0, 3.0, 3.0]
    assert [g[4] for g in got] == [1.0, 6.0, 2.0, 1.0, 1.0]                    # TF 2.15


def test_switch_case_errors():
    i = tf.placeholder(tf.int32, [])
    cases = [   # TF 2.15's messages
        (dict(branch_fns={0: lambda: 1, 2: lambda: 2}), ValueError,
         r"branch indices \(keys\) must form contiguous range of \[0 to 2\) but found \{0,2\}"),
        (dict(branch_fns=[]), ValueError, "Must provide at least one item in 'branch_fns'"),
        (dict(branch_fns=[1]), TypeError, "Each entry in 'branch_fns' must be a 2-tuple. "
                                          "Received 1."),
        (dict(branch_fns=3), TypeError, "'branch_fns' must be a list, tuple, or dict"),
        (dict(branch_fns={0: lambda: 1, 0.5: lambda: 2}), TypeError,
         "key must be a Python `int`, got <class 'float'>"),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=message):
            tf.switch_case(i, **kwargs)
    with pytest.raises(TypeError, match="'branch_index' must be an integer Tensor, got "
                                        "<dtype: 'float32'>"):
        tf.switch_case(tf.constant(1.0), [lambda: 1])
    with pytest.raises(TypeError, match="Input 'branch_index' of 'Case' Op has type int64 that "
                                        "does not match expected type of int32."):
        tf.switch_case(tf.constant(1, tf.int64), [lambda: 1])   # TF 2.15 says 'StatelessCase'


# -- check_ops ---------------------------------------------------------------------------------

def test_assert_near():
    ok = tf.assert_near([1.0, 2.0], [1.0, 2.0000001])
    far = tf.assert_near([1.0, 2.0], [1.0, 2.1], message="msg", rtol=0.01, atol=0.0)
    assert ok.type == "Assert" and far.type == "Assert"       # TF checks only when it runs
    run(ok)
    # TF 2.15: "assertion failed: [msg.  ] [x and y not equal to tolerance rtol =
    # Tensor(\"assert_near_1/rtol:0\", ...)] [x (assert_near_1/x:0) = ] [1 2] [y (...) = ]
    # [1 2.1]" -- TF escapes the quotes of the Tensor's text, the sandbox prints them as is
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"assertion failed: \[msg.  \] \[x and y not equal to tolerance "
                             r"rtol = Tensor\(\"assert_near_1/rtol:0\", shape=\(\), "
                             r"dtype=float32\), atol = Tensor\(\"assert_near_1/atol:0\", "
                             r"shape=\(\), dtype=float32\)\] \[x \(assert_near_1/x:0\) = \] "
                             r"\[1 2\] \[y \(assert_near_1/y:0\) = \] \[1 2.1\]"):
        run(far)
    with pytest.raises(ValueError, match="data type <class 'numpy.int32'> not inexact"):
        tf.assert_near([1, 2], [1, 2])                                          # TF 2.15


def test_assert_rank_in_same_float_dtype_proper_iterable():
    assert tf.assert_rank_in(tf.constant([1, 2]), [1, 2]).type == "NoOp"        # TF 2.15
    with pytest.raises(ValueError, match=r"m.  Tensor Const(_\d+)?:0 must have rank in "
                                         r"\(array\(0, dtype=int32\), array\(2, dtype=int32\)"
                                         r"\).  Received rank 1, shape \(2,\)"):  # TF 2.15
        tf.assert_rank_in(tf.constant([1, 2]), [0, 2], message="m")
    p = tf.placeholder(tf.float32)
    check = tf.assert_rank_in(p, [0, 2])
    run(check, {p: 1.0})
    with pytest.raises(errors.InvalidArgumentError,                             # TF 2.15
                       match=r"assertion failed: \[\] \[Tensor Placeholder(_\d+)?:0 must have "
                             r"rank in\] \[0\] \[2\] \[Received shape: \] \[1\]"):
        run(check, {p: [1.0]})
    with pytest.raises(ValueError, match="Rank must be a scalar."):
        tf.assert_rank_in(tf.constant([1, 2]), [[1]])
    a, b = tf.constant(1.0), tf.constant(2.0, tf.float64)
    assert tf.assert_same_float_dtype([a, tf.constant(3.0)]) == tf.float32
    assert tf.assert_same_float_dtype(None, tf.float64) == tf.float64
    assert tf.assert_same_float_dtype([]) == tf.float32
    with pytest.raises(ValueError, match=f"{b.name}, type=<dtype: 'float64'>, must be of the "
                                         f"same type \\(<dtype: 'float32'>\\) as {a.name}."):
        tf.assert_same_float_dtype([a, b])                                      # TF 2.15
    with pytest.raises(ValueError, match="Expected floating point type, got <dtype: 'int32'>."):
        tf.assert_same_float_dtype([tf.constant(1)])
    assert tf.assert_proper_iterable([1, 2]) is None
    assert tf.assert_proper_iterable({1}) is None
    for value in ["ab", b"ab", np.zeros(2), tf.constant([1])]:
        with pytest.raises(TypeError, match='Expected argument "values" to be a "proper" '
                                            'iterable.  Found: '):
            tf.assert_proper_iterable(value)
    with pytest.raises(TypeError, match='Expected argument "values" to be iterable.  Found: '
                                        "<class 'int'>"):
        tf.assert_proper_iterable(3)


def test_debugging_assert_shapes():
    assert not hasattr(tf, "assert_shapes")         # TF 1.15: tf.debugging.assert_shapes only
    x = tf.constant(np.zeros((2, 3)))
    y = tf.constant(np.zeros(3))
    assert tf.debugging.assert_shapes([(x, ("N", "Q")), (y, ("Q",))]).type == "NoOp"
    with pytest.raises(ValueError, match=f"mm.  Specified by tensor {x.name} dimension 0.  "
                                         f"Tensor {y.name} dimension 0 must have size 2.  "
                                         r"Received size 3, shape \(3,\)"):     # TF 2.15
        tf.debugging.assert_shapes([(x, ("N", 3)), (y, ("N",))], message="mm")
    with pytest.raises(ValueError, match=f"Specified explicitly.  Tensor {x.name} dimension 1 "
                                         r"must have size 4.  Received size 3, shape \(2, 3\)"):
        tf.debugging.assert_shapes([(x, (2, 4))])                               # TF 2.15
    with pytest.raises(ValueError, match=f"Specified explicitly.  Tensor {y.name} dimension 0 "
                                         "must have size 4."):
        tf.debugging.assert_shapes([(x, ("...", "Q")), (y, (4,))])              # TF 2.15
    ph = tf.placeholder(tf.float32, [None, 3])
    check = tf.debugging.assert_shapes([(ph, ("N", 3)), (y, ("N",))])
    run(check, {ph: np.zeros((3, 3))})
    with pytest.raises(errors.InvalidArgumentError,                             # TF 2.15
                       match=rf"assertion failed: \[\] \[Specified by tensor {ph.name} "
                             rf"dimension 0\] \[Tensor {y.name} dimension\] \[0\] \[must have "
                             r"size\] \[2\] \[Received shape: \] \[3\]"):
        run(check, {ph: np.zeros((2, 3))})
    assert {"assert_near", "assert_rank_in", "assert_same_float_dtype",
            "assert_proper_iterable", "assert_shapes"} <= set(tf.debugging.__all__)


# -- timestamp, fingerprint, bitcast, guarantee_const -----------------------------------------

def test_timestamp_runs_when_run():
    import time
    t = tf.timestamp()
    assert t.dtype == tf.float64 and t.shape.as_list() == [] and t.op.type == "Timestamp"
    before = time.time()
    with tf.Session() as sess:
        a = sess.run(t)
        b = sess.run(t)
    assert before <= a <= b <= time.time()


def test_fingerprint_is_tfs():
    f = tf.fingerprint([b"hello", b"", b"a" * 70])
    assert f.dtype == tf.uint8 and f.shape.as_list() == [3, 8]                  # TF 2.15
    got = run([f, tf.fingerprint(np.array([[1, 2], [3, 4]], np.int32)),
               tf.fingerprint(np.array([[b"ab", b"c"], [b"", b"abc"]])),
               tf.fingerprint(np.array([1.5, 2.5]))])
    np.testing.assert_array_equal(got[0], [[232, 12, 56, 49, 169, 229, 139, 180],  # TF 2.15
                                           [79, 64, 144, 47, 59, 106, 225, 154],
                                           [24, 130, 137, 168, 1, 209, 129, 235]])
    np.testing.assert_array_equal(got[1], [[76, 18, 253, 133, 168, 204, 240, 10],
                                           [254, 162, 60, 240, 103, 244, 53, 255]])
    np.testing.assert_array_equal(got[2], [[65, 83, 39, 149, 164, 245, 170, 22],
                                           [131, 181, 83, 135, 221, 9, 49, 130]])
    np.testing.assert_array_equal(got[3], [[179, 164, 179, 195, 72, 236, 82, 76],
                                           [76, 233, 121, 29, 44, 105, 144, 60]])
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
        tf.fingerprint(b"abc")                                                  # TF 2.15
    with pytest.raises(ValueError, match="Unsupported method: x"):
        tf.fingerprint([1.0, 2.0], method="x")                                  # TF 2.15


def test_bitcast_and_guarantee_const():
    a = tf.bitcast(np.array([1.0, 2.0], np.float32), tf.int32)
    b = tf.bitcast(np.array([1, 2], np.int32), tf.uint8)
    c = tf.bitcast(np.array([[1, 2, 3, 4]], np.uint8), tf.int32)
    assert (a.shape.as_list(), b.shape.as_list(), c.shape.as_list()) == ([2], [2, 4], [1])
    assert tf.bitcast(tf.placeholder(tf.uint8, [None, None]), tf.int16).shape.as_list() == \
        [None]                                                                  # TF 2.15
    got = run([a, b, c])
    np.testing.assert_array_equal(got[0], [1065353216, 1073741824])             # TF 2.15
    np.testing.assert_array_equal(got[1], [[1, 0, 0, 0], [2, 0, 0, 0]])
    np.testing.assert_array_equal(got[2], [67305985])
    with pytest.raises(ValueError, match="Cannot bitcast from 4 to 3 due to shape. 3 does not "
                                         "match 4"):                            # TF 2.15
        tf.bitcast(np.array([1, 2, 3], np.uint8), tf.int32)
    with pytest.raises(TypeError, match="Value passed to parameter 'input' has DataType string "
                                        "not in list of allowed values: bfloat16, float16"):
        tf.bitcast(np.array([b"a"]), tf.int32)
    with pytest.raises(TypeError, match="Value passed to parameter 'type' has DataType bool"):
        tf.bitcast(np.array([1.0]), tf.bool)
    x = tf.constant([1.0, 2.0])
    assert tf.gradients(tf.bitcast(x, tf.int32), x) == [None]    # TF: NotDifferentiable
    g = tf.guarantee_const(x)
    assert g.op.type == "GuaranteeConst" and g.shape.as_list() == [2]
    np.testing.assert_array_equal(run(g), [1.0, 2.0])
    with pytest.raises(LookupError, match="No gradient defined for operation 'GuaranteeConst'"):
        tf.gradients(tf.reduce_sum(g * g), x)                  # TF 2.15: LookupError too


def test_dtypes_initializers_and_errors_namespaces_hold_tf_115s_names():
    """tf.dtypes has TF's four ops beside the DTypes; tf.initializers TF 1.15's 20 names;
    tf.errors.error_code_from_exception_type gives a class's code (and, as TF, warns and
    answers an UnknownError for a class that is no OpError)."""
    assert tf.dtypes.float32 is tf.float32 and tf.dtypes.as_dtype("int64") is tf.int64
    values = tf.constant([300.0, -5.0, 7.6])
    with tf.Session() as sess:
        assert sess.run(tf.dtypes.saturate_cast(values, tf.uint8)).tolist() == [255, 0, 7]
        assert sess.run(tf.dtypes.cast(values, tf.int32)).tolist() == [300, -5, 7]
        assert sess.run(tf.dtypes.as_string(tf.constant(3))) == b"3"
        assert sess.run(tf.dtypes.complex(1.0, 2.0)) == 1 + 2j
        w = tf.get_variable("w_identity", [2, 3], initializer=tf.initializers.identity(gain=2.0))
        sess.run(tf.initializers.variables([w]))
        assert sess.run(w).tolist() == [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    assert tf.errors.error_code_from_exception_type(tf.errors.NotFoundError) == 5
    assert tf.errors.error_code_from_exception_type(tf.errors.InvalidArgumentError) == 3
    with pytest.warns(UserWarning, match="Unknown class exception"):
        unknown = tf.errors.error_code_from_exception_type(ValueError)
    assert isinstance(unknown, tf.errors.UnknownError)
