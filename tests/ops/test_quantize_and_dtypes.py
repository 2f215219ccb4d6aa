"""TF 1.15's remaining dtypes (bfloat16, uint32, uint64, the quantized types, resource,
variant: sandbox/framework/dtypes.py, sandbox/framework/tensor_proto.py) and the quantization
ops (sandbox/ops/quantize_ops.py), checked against TensorFlow 2.15.1 (tf.compat.v1 graphs,
TF_ENABLE_ONEDNN_OPTS=0 so that TF runs its reference kernels): every number and error text
below is TF 2.15.1's for the same graph. The quantization numbers are compared bit for bit.
"""
import hashlib

import ml_dtypes
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors

X = np.array([-7.0, -1.5, -0.5, 0.0, 0.3, 0.5, 2.5, 6.4], np.float32)
TIES = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 126.5], np.float32)

# TF 2.15.1's (name, as_datatype_enum, _ref enum, size, is_quantized, is_integer, is_floating,
# is_unsigned, is_numpy_compatible) -- size: TF 1.15 counts 1 for resource and variant.
TF215_DTYPES = [
    ("bfloat16", 14, 114, 2, False, False, True, False, True),
    ("uint32", 22, 122, 4, False, True, False, True, True),
    ("uint64", 23, 123, 8, False, True, False, True, True),
    ("qint8", 11, 111, 1, True, False, False, False, True),
    ("quint8", 12, 112, 1, True, False, False, False, True),
    ("qint16", 15, 115, 2, True, False, False, False, True),
    ("quint16", 16, 116, 2, True, False, False, False, True),
    ("qint32", 13, 113, 4, True, False, False, False, True),
    ("resource", 20, 120, 1, False, False, False, False, False),
    ("variant", 21, 121, 1, False, False, False, False, False),
]
# TF 2.15.1's (output, output_min, output_max, dequantize(output, output_min, output_max)) of
# quantize(x, min_range, max_range, T, mode, round_mode). (qint32: TF's float -> int32 cast
# turns 2**31 into -2**31 for the largest input, as x86 does.)
TF215_QUANTIZE = {
    ('qint8', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([-128, -32, -11, -1, 6, 10, 53, 127], -6.0, 6.0,
         [-6.0, -1.4823527, -0.49411774, -0.02352953, 0.30588245, 0.49411774, 2.5176468, 6.0]),
    ('qint8', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([-128, -32, -11, 0, 6, 11, 53, 127], -6.0, 6.0,
         [-6.0235295, -1.5058824, -0.5176471, 0.0, 0.28235295, 0.5176471, 2.4941177, 5.9764705]),
    ('qint8', 'SCALED', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([-128, -32, -11, 0, 6, 11, 53, 127], -6.047244, 6.0,
         [-6.047244, -1.511811, -0.51968503, 0.0, 0.28346455, 0.51968503, 2.503937, 6.0]),
    ('quint8', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([0, 96, 117, 128, 134, 138, 181, 255], -6.0, 6.0,
         [-6.0, -1.4823527, -0.49411774, 0.02352953, 0.30588245, 0.49411774, 2.5176468, 6.0]),
    ('quint8', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([0, 96, 117, 128, 134, 139, 181, 255], -6.0, 6.0,
         [-6.0235295, -1.5058823, -0.51764727, 0.0, 0.28235292, 0.51764727, 2.4941173,
          5.9764705]),
    ('quint8', 'SCALED', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([0, 0, 0, 0, 13, 21, 106, 255], 0.0, 6.0,
         [0.0, 0.0, 0.0, 0.0, 0.30588236, 0.49411765, 2.4941177, 6.0]),
    ('qint16', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([-32768, -8192, -2731, -1, 1638, 2730, 13653, 32767], -6.0, 6.0,
         [-6.0, -1.4999313, -0.4999771, -9.1552734e-05, 0.30002308, 0.4999771, 2.5000687, 6.0]),
    ('qint16', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([-32768, -8192, -2731, 0, 1638, 2731, 13653, 32767], -6.0, 6.0,
         [-6.0000916, -1.5000229, -0.50006866, 0.0, 0.29993135, 0.50006866, 2.499977,
          5.9999084]),
    ('qint16', 'SCALED', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([-32768, -8192, -2731, 0, 1638, 2731, 13653, 32767], -6.000183, 6.0,
         [-6.000183, -1.5000458, -0.5000763, 0.0, 0.2999359, 0.5000763, 2.5000153, 6.0]),
    ('qint32', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([-2147483648, -536870912, -178956928, 0, 107374336, 178957056, 894785024,
          -2147483648], -6.0, 6.0,
         [-6.0, -1.5, -0.5, 0.0, 0.3000002, 0.5, 2.5, -6.0]),
    ('qint32', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([-2147483648, -536870912, -178956976, 0, 107374192, 178956976, 894784896,
          2147483520], -6.0, 6.0,
         [-6.0, -1.5, -0.5, 0.0, 0.3, 0.5, 2.5, 5.9999995]),
    ('qint32', 'SCALED', 'HALF_AWAY_FROM_ZERO', -6.0, 6.0, 'X'):
        ([-2147483648, -536870912, -178956976, 0, 107374192, 178956976, 894784896,
          -2147483648], -6.0, 6.0,
         [-6.0, -1.5, -0.5, 0.0, 0.3, 0.5, 2.5, -6.0]),
    ('qint8', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO', 2.0, 5.0, 'X'):
        ([-128, -128, -128, -128, -113, -103, -1, 127], 0.0, 5.0,
         [0.0, 0.0, 0.0, 0.0, 0.29411766, 0.4901961, 2.4901962, 5.0]),
    ('qint8', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO', 2.0, 5.0, 'X'):
        ([-128, -128, -128, -128, -113, -102, 0, 127], 0.0, 5.0,
         [0.0, 0.0, 0.0, 0.0, 0.2941177, 0.509804, 2.509804, 5.0]),
    ('qint8', 'SCALED', 'HALF_AWAY_FROM_ZERO', 2.0, 5.0, 'X'):
        ([-128, -38, -13, 0, 8, 13, 64, 127], -5.03937, 5.0,
         [-5.03937, -1.496063, -0.511811, 0.0, 0.31496063, 0.511811, 2.519685, 5.0]),
    ('quint8', 'SCALED', 'HALF_AWAY_FROM_ZERO', -10.0, 9.0, 'X'):
        ([0, 0, 0, 0, 9, 14, 71, 181], 0.0, 9.0,
         [0.0, 0.0, 0.0, 0.0, 0.31764707, 0.49411768, 2.5058825, 6.3882356]),
    ('qint8', 'SCALED', 'HALF_AWAY_FROM_ZERO', -128.0, 127.0, 'TIES'):
        ([1, 2, 3, -1, -3, 127], -128.0, 127.0,
         [1.0, 2.0, 3.0, -1.0, -3.0, 127.0]),
    ('qint8', 'SCALED', 'HALF_TO_EVEN', -128.0, 127.0, 'TIES'):
        ([0, 2, 2, 0, -2, 126], -128.0, 127.0,
         [0.0, 2.0, 2.0, 0.0, -2.0, 126.0]),
}

# TF 2.15.1's fake quantization of X (X.reshape(4, 2) per channel) and its gradients,
# G = 0.5 * [1..8].
TF215_FAKE_QUANT = {
    'args_8': [-6.0235295, -1.5058824, -0.5176471, 0.0, 0.28235295, 0.5176471, 2.4941177,
        5.9764705],
    'args_4_narrow': [-0.94285715, -0.94285715, -0.47142857, 0.0, 0.23571429, 0.47142857,
        2.357143, 2.357143],
    'vars_8': [-2.7066667, -1.5011765, -0.5003922, 0.0, 0.29568627, 0.5003922, 2.501961,
        3.0933335],
    'vars_3_narrow': [0.0, 0.0, 0.0, 0.0, 0.0, 0.9166667, 2.75, 5.5],
    'vars_zero': [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    'per_channel_5': [-6.193548, -0.6548387, -0.38709676, 0.0, 0.38709676, 0.46774194,
        2.3225806, 2.2451613],
    'args_gradient': [0.0, 0.0, 1.5, 2.0, 2.5, 3.0, 0.0, 0.0],
    'vars_gradient': ([0.0, 0.0, 1.5, 2.0, 2.5, 3.0, 0.0, 0.0], 1.5, 7.5),
    'per_channel_gradient': ([0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 0.0, 0.0], [0.5, 0.0], [3.5, 4.0]),
    'vars_zero_gradient': ([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0], 0.0, 0.0),
}
G = np.arange(1, 9, dtype=np.float32) * 0.5


def _bits_equal(got, want):
    """Same float32 bits (so 0.0 and -0.0 differ), or the same integers."""
    got = np.asarray(got)
    want = np.asarray(want, dtype=got.dtype)
    if got.dtype == np.float32:
        return got.shape == want.shape and np.array_equal(got.view(np.uint32),
                                                          want.view(np.uint32))
    return np.array_equal(got, want)


# -- bit for bit on many inputs: TF 2.15.1's outputs, as digests ------------------------------
# The same graphs were built under TF 2.15.1 (tf.compat.v1.quantize, .dequantize and the
# fake_quant ops, TF_ENABLE_ONEDNN_OPTS=0) and the bytes of all their outputs hashed: 481 inputs
# from -12 to 12 and a few ties, six ranges (empty, all negative, tiny ...), every type and mode.

XD = np.concatenate([np.linspace(-12, 12, 481), [0.5, -0.5, 126.5, 1e-3, -0.0]]).astype(np.float32)
RANGES = [(-6.0, 6.0), (-3.7, 11.2), (2.0, 5.0), (-1.0, 0.0), (0.0, 0.0), (-1e-6, 1e-6)]


def dense_quantize_cases(tf, quantize, dequantize):
    """{(T, mode, round_mode): [tensors]}: quantize(XD) over RANGES and dequantize it back,
    with the range quantize returned and with the range it was given."""
    cases = {}
    for name in ("qint8", "quint8", "qint16", "quint16", "qint32"):
        for mode, round_mode in [("MIN_COMBINED", "HALF_AWAY_FROM_ZERO"),
                                 ("MIN_FIRST", "HALF_AWAY_FROM_ZERO"),
                                 ("SCALED", "HALF_AWAY_FROM_ZERO"), ("SCALED", "HALF_TO_EVEN")]:
            tensors = []
            for lo, hi in RANGES:
                q = quantize(XD, lo, hi, getattr(tf, name), mode=mode, round_mode=round_mode)
                tensors += list(q) + [dequantize(q[0], q[1], q[2], mode=mode),
                                      dequantize(q[0], lo, hi, mode=mode)]
            cases[(name, mode, round_mode)] = tensors
    return cases


def dense_fake_quant_cases(tf):
    """{(num_bits, narrow_range): [tensors]}: every fake_quant op on XD and its gradients."""
    cases = {}
    xc = tf.reshape(XD[:483], [-1, 3])
    grads = tf.ones_like(xc) * 0.5
    for num_bits in (2, 4, 8, 16):
        for narrow in (False, True):
            tensors = []
            for lo, hi in RANGES:
                if lo < hi:
                    tensors.append(tf.fake_quant_with_min_max_args(
                        XD, min=lo, max=hi, num_bits=num_bits, narrow_range=narrow))
                tensors.append(tf.fake_quant_with_min_max_vars(
                    XD, lo, hi, num_bits=num_bits, narrow_range=narrow))
            mins, maxes = [-6.0, 0.0, -3.7], [6.0, 1.0, 11.2]
            tensors.append(tf.fake_quant_with_min_max_vars_per_channel(
                xc, mins, maxes, num_bits=num_bits, narrow_range=narrow))
            tensors += list(tf.fake_quant_with_min_max_vars_per_channel_gradient(
                grads, xc, mins, maxes, num_bits=num_bits, narrow_range=narrow))
            cases[(num_bits, narrow)] = tensors
    return cases


def digest(arrays):
    """The first 16 hex digits of the sha256 of the arrays' bytes, in order."""
    return hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes()
                                   for a in arrays)).hexdigest()[:16]


TF215_DENSE_DIGESTS = {
    ('qint8', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO'): '13f9ecff7da2b8e9',
    ('qint8', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO'): 'e1a8a3d0b709cb21',
    ('qint8', 'SCALED', 'HALF_AWAY_FROM_ZERO'): '8baaf91b1c7fef71',
    ('qint8', 'SCALED', 'HALF_TO_EVEN'): '8baaf91b1c7fef71',
    ('quint8', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO'): '16f764b392515069',
    ('quint8', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO'): '9f2135a9d4136cc1',
    ('quint8', 'SCALED', 'HALF_AWAY_FROM_ZERO'): '3fe97d9b3fe2886b',
    ('quint8', 'SCALED', 'HALF_TO_EVEN'): '96f07fd93653a973',
    ('qint16', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO'): 'a397caff2a81dfaa',
    ('qint16', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO'): '6e54b9dba3d58c02',
    ('qint16', 'SCALED', 'HALF_AWAY_FROM_ZERO'): 'fbdba569b80e5f34',
    ('qint16', 'SCALED', 'HALF_TO_EVEN'): '81d0cdffe1c4b85c',
    ('quint16', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO'): '37e627090ca1f7d9',
    ('quint16', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO'): '35f0f0a9b82378e3',
    ('quint16', 'SCALED', 'HALF_AWAY_FROM_ZERO'): '956c1e40ded2305f',
    ('quint16', 'SCALED', 'HALF_TO_EVEN'): '1ad465389dadc1c6',
    ('qint32', 'MIN_COMBINED', 'HALF_AWAY_FROM_ZERO'): '5444e8d8451679f3',
    ('qint32', 'MIN_FIRST', 'HALF_AWAY_FROM_ZERO'): '133b2a6eae4865eb',
    ('qint32', 'SCALED', 'HALF_AWAY_FROM_ZERO'): '61b39956b1aa073c',
    ('qint32', 'SCALED', 'HALF_TO_EVEN'): '61b39956b1aa073c',
    (2, False): '1703c99925b4c283',
    (2, True): 'f88421936f45a0c9',
    (4, False): '98dd0b6f33268514',
    (4, True): 'b33427950be3eb3c',
    (8, False): 'c2a841fc7e92257e',
    (8, True): 'b6790b36cae34c4e',
    (16, False): 'c22f87b9a770b4e0',
    (16, True): 'c518031e9dc00495',
}


def test_quantize_dense_bit_for_bit_as_tf():
    cases = dense_quantize_cases(tf, tf.quantize, tf.dequantize)
    with tf.Session() as sess:
        got = sess.run(cases)
    mismatched = [key for key in cases if digest(got[key]) != TF215_DENSE_DIGESTS[key]]
    assert not mismatched


def test_fake_quant_dense_bit_for_bit_as_tf():
    cases = dense_fake_quant_cases(tf)
    with tf.Session() as sess:
        got = sess.run(cases)
    mismatched = [key for key in cases if digest(got[key]) != TF215_DENSE_DIGESTS[key]]
    assert not mismatched


# -- dtypes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("row", TF215_DTYPES, ids=[r[0] for r in TF215_DTYPES])
def test_dtype_properties_as_tf(row):
    name, enum, ref_enum, size, quantized, integer, floating, unsigned, numpy_ok = row
    dtype = getattr(tf, name)
    assert (dtype.name, dtype.as_datatype_enum, dtype._as_ref.as_datatype_enum, dtype.size) == \
        (name, enum, ref_enum, size)
    assert (dtype.is_quantized, dtype.is_integer, dtype.is_floating, dtype.is_unsigned,
            dtype.is_numpy_compatible) == (quantized, integer, floating, unsigned, numpy_ok)
    assert tf.as_dtype(name) is dtype and tf.as_dtype(enum) is dtype
    assert tf.as_dtype(name + "_ref") is dtype._as_ref and tf.as_dtype(ref_enum) is dtype._as_ref
    assert dtype._as_ref.base_dtype is dtype and str(dtype) == f"<dtype: '{name}'>"
    if numpy_ok:
        assert tf.as_dtype(dtype.as_numpy_dtype) is dtype
        assert tf.as_dtype(np.dtype(dtype.as_numpy_dtype)) is dtype
    else:
        with pytest.raises(KeyError):
            dtype.as_numpy_dtype
    if quantized:                                  # TF's messages
        with pytest.raises(TypeError, match=f"Cannot find minimum value of <dtype: '{name}'> "
                                            f"with quantized type <dtype: '{name}'>"):
            dtype.min
        with pytest.raises(ValueError, match="does not have defined limits"):
            dtype.limits


def test_numpy_twins_and_limits_as_tf():
    assert tf.bfloat16.as_numpy_dtype is ml_dtypes.bfloat16
    assert tf.qint8.as_numpy_dtype == np.dtype([("qint8", np.int8)])
    assert tf.quint16.as_numpy_dtype == np.dtype([("quint16", np.uint16)])
    assert tf.qint32.as_numpy_dtype == np.dtype([("qint32", np.int32)])
    assert (tf.uint32.as_numpy_dtype, tf.uint64.as_numpy_dtype) == (np.uint32, np.uint64)
    assert (tf.uint32.min, tf.uint32.max, tf.uint64.max) == (0, 4294967295, 2**64 - 1)
    assert tf.uint64.limits == (0, 18446744073709551615)
    assert tf.bfloat16.max == float.fromhex("0x1.FEp127")        # TF: 3.38953e+38
    assert tf.bfloat16.min == -tf.bfloat16.max
    with pytest.raises(ValueError, match="does not have defined limits"):
        tf.bfloat16.limits
    with pytest.raises(TypeError, match="Cannot find minimum value of <dtype: 'resource'>"):
        tf.resource.min
    assert tf.QUANTIZED_DTYPES == frozenset(
        [tf.qint8, tf.quint8, tf.qint16, tf.quint16, tf.qint32] +
        [tf.as_dtype(n + "_ref") for n in ("qint8", "quint8", "qint16", "quint16", "qint32")])
    assert tf.qint8 != tf.int8 and tf.bfloat16 != tf.float16 and tf.uint32 != tf.int32
    assert tf.as_dtype(np.uint32) is tf.uint32 and tf.as_dtype(ml_dtypes.bfloat16) is tf.bfloat16


def test_constants_casts_and_feeds_of_the_new_dtypes():
    x = tf.constant([1.5, 3.14159, -2.7, 1e-3, 65504.0, 3e38])
    bf16 = tf.to_bfloat16(x)
    assert (bf16.op.type, bf16.op.name, bf16.dtype) == ("Cast", "ToBFloat16", tf.bfloat16)
    back = tf.cast(bf16, tf.float32)
    u32 = tf.cast(tf.constant([3.9, 7.0]), tf.uint32)
    u64 = tf.cast(tf.constant([2**40], tf.int64), tf.uint64)
    c = tf.constant([1, 2], dtype=tf.uint64)
    fed = tf.placeholder(tf.bfloat16, [2])
    converted = tf.convert_to_tensor(np.array([0.1, 2], ml_dtypes.bfloat16))
    assert (c.dtype, converted.dtype) == (tf.uint64, tf.bfloat16)
    with tf.Session() as sess:
        got = sess.run([bf16, back, u32, u64, c, tf.identity(fed), converted],
                       {fed: [1.5, 2.0]})
    assert got[0].dtype == ml_dtypes.bfloat16
    # TF 2.15.1's float32(bfloat16(x)): 8 bits of mantissa, rounded to nearest even
    assert _bits_equal(got[1], [1.5, 3.140625, -2.703125, 0.00099945068359375, 65536.0,
                                3.00405527047391e+38])
    assert got[2].dtype == np.uint32 and got[2].tolist() == [3, 7]                # TF: [3, 7]
    assert got[3].dtype == np.uint64 and got[3].tolist() == [1099511627776]
    assert got[4].dtype == np.uint64 and got[5].dtype == ml_dtypes.bfloat16
    assert got[6].astype(np.float32).tolist() == [0.10009765625, 2.0]


def test_tensor_protos_of_the_new_dtypes_as_tf():
    proto = tf.make_tensor_proto([1, 2, 3], dtype=tf.bfloat16)
    assert (proto.dtype, proto.tensor_content) == (14, b"\x80?\x00@@@")            # TF's
    scalar = tf.make_tensor_proto(5, dtype=tf.bfloat16)
    assert list(scalar.half_val) == [16544] and tf.make_ndarray(scalar) == 5
    broadcast = tf.make_tensor_proto(2.5, dtype=tf.bfloat16, shape=[3])
    assert list(broadcast.half_val) == [16416]
    assert tf.make_ndarray(broadcast).astype(np.float32).tolist() == [2.5, 2.5, 2.5]
    q = tf.make_tensor_proto(np.array([3, 4], np.int8), dtype=tf.qint8)
    assert (q.dtype, q.tensor_content) == (11, b"\x03\x04")
    one = tf.make_tensor_proto(np.array([5], np.int32), dtype=tf.qint32, shape=[3])
    assert list(one.int_val) == [5]
    back = tf.make_ndarray(one)
    assert back.dtype == tf.qint32.as_numpy_dtype and back["qint32"].tolist() == [5, 5, 5]
    structured = np.array([(3,), (-4,)], tf.qint8.as_numpy_dtype)
    assert tf.make_ndarray(tf.make_tensor_proto(structured)).tolist() == [(3,), (-4,)]
    with pytest.raises(TypeError, match="Expected qint8"):
        tf.make_tensor_proto([1, 2, 3], dtype=tf.qint8)
    content = tf.make_tensor_proto([1, 2, 3], dtype=tf.uint32)
    assert content.tensor_content == b"\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00"
    # tensorboardX's tensor.proto has no uint32_val/uint64_val: single values go as
    # tensor_content (TF writes uint32_val: 7), and come back the same
    for value, dtype, shape, want in [(7, tf.uint32, [3], [7, 7, 7]),
                                      ([1, 2], tf.uint64, [4], [1, 2, 2, 2]),
                                      (2**64 - 1, tf.uint64, None, 2**64 - 1)]:
        array = tf.make_ndarray(tf.make_tensor_proto(value, dtype=dtype, shape=shape))
        assert array.dtype == dtype.as_numpy_dtype and array.tolist() == want


# -- quantize / dequantize --------------------------------------------------------------------

def test_quantize_and_dequantize_bit_for_bit_as_tf():
    inputs = {"X": X, "TIES": TIES}
    fetches = {}
    for key in TF215_QUANTIZE:
        dtype, mode, round_mode, lo, hi, x = key
        q = tf.quantize(inputs[x], lo, hi, getattr(tf, dtype), mode=mode, round_mode=round_mode)
        fetches[key] = list(q) + [tf.dequantize(q.output, q.output_min, q.output_max,
                                                mode=mode)]
    with tf.Session() as sess:
        got = sess.run(fetches)
    for key, want in TF215_QUANTIZE.items():
        output, out_min, out_max, dequantized = got[key]
        assert output.dtype == getattr(tf, key[0]).as_numpy_dtype[0], key   # TF: plain ints
        assert _bits_equal(output, want[0]), (key, output)
        assert _bits_equal(np.float32(out_min), want[1]), key
        assert _bits_equal(np.float32(out_max), want[2]), key
        assert _bits_equal(dequantized, want[3]), (key, dequantized)


def test_quantize_graph_as_tf():
    q = tf.quantize(X, -6.0, 6.0, tf.qint8)
    assert type(q).__name__ == "QuantizeV2" and q._fields == ("output", "output_min",
                                                              "output_max")
    assert (q.output.op.type, q.output.op.name, q.output.dtype) == ("QuantizeV2", "QuantizeV2",
                                                                    tf.qint8)
    assert q.output.shape.as_list() == [8] and q.output_min.shape.as_list() == []
    assert q.output.op.get_attr("mode") == "MIN_COMBINED"
    assert q.output.op.get_attr("round_mode") == "HALF_AWAY_FROM_ZERO"
    v2 = tf.quantize_v2(X, -1.0, 1.0, tf.quint16, "MIN_FIRST", "q2")
    assert (v2.output.op.name, v2.output.dtype) == ("q2", tf.quint16)
    d = tf.dequantize(q.output, q.output_min, q.output_max)
    assert (d.op.type, d.op.name, d.dtype, d.shape.as_list()) == ("Dequantize", "Dequantize",
                                                                  tf.float32, [8])
    fed = tf.placeholder(tf.qint8, [3])               # a fed or constant qint8 value
    const = tf.constant(np.array([1, -128, 127], np.int8), dtype=tf.qint8)
    with tf.Session() as sess:
        a, b = sess.run([tf.dequantize(fed, -1.0, 1.0), tf.dequantize(const, -1.0, 1.0)],
                        {fed: np.array([1, -128, 127], np.int8)})
    assert _bits_equal(a, [0.011764765, -1.0, 1.0]) and _bits_equal(b, a)   # TF 2.15.1's


def test_quantize_errors_as_tf():
    x = tf.constant(X)
    with pytest.raises(TypeError, match="Value passed to parameter 'T' has DataType float32 "
                                        "not in list of allowed values: qint8, quint8"):
        tf.quantize(x, -6.0, 6.0, tf.float32)
    with pytest.raises(ValueError, match="Attr 'mode' of 'QuantizeV2' Op passed string 'FOO' "
                                         'not in: "MIN_COMBINED", "MIN_FIRST", "SCALED".'):
        tf.quantize(x, -6.0, 6.0, tf.qint8, mode="FOO")
    with pytest.raises(TypeError, match="Value passed to parameter 'input' has DataType "
                                        "float32 not in list of allowed values"):
        tf.dequantize(x, 0.0, 1.0)
    with tf.Session() as sess:
        with pytest.raises(errors.InvalidArgumentError,
                           match="Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', "
                                 "but mode is 'MIN_COMBINED'."):
            sess.run(tf.quantize(x, -6.0, 6.0, tf.qint8, round_mode="HALF_TO_EVEN"))
        with pytest.raises(errors.InvalidArgumentError,
                           match="input_max_range must be larger than input_min_range."):
            sess.run(tf.quantize(x, 6.0, -6.0, tf.qint8))
    d = tf.dequantize(tf.quantize(x, -6.0, 6.0, tf.qint8).output, -6.0, 6.0)
    with pytest.raises(LookupError, match="No gradient defined for operation 'Dequantize"):
        tf.gradients(d, x)


def test_quantized_concat_as_tf():
    x1 = np.array([[-1.5, 0.25, 3.0], [0.7, -0.2, 1.1]], np.float32)
    x2 = np.array([[5.5, -4.0, 0.0]], np.float32)
    fetches = {}
    for dtype in (tf.quint8, tf.qint32):
        a = tf.quantize(x1, -1.5, 3.0, dtype, mode="MIN_FIRST")
        b = tf.quantize(x2, -4.0, 5.5, dtype, mode="MIN_FIRST")
        joined = tf.quantized_concat(0, [a.output, b.output], [a.output_min, b.output_min],
                                     [a.output_max, b.output_max])
        same = tf.quantized_concat(1, [a.output, a.output], [a.output_min] * 2,
                                   [a.output_max] * 2)
        assert type(joined).__name__ == "QuantizedConcat"
        assert joined.output.shape.as_list() == [3, 3] and joined.output.dtype == dtype
        fetches[dtype.name] = [joined.output, joined.output_min, joined.output_max,
                               same.output, same.output_min, same.output_max]
    with tf.Session() as sess:
        got = sess.run(fetches)
    # TF 2.15.1's: unsigned -> the union of the ranges, signed -> symmetric around 0
    want_quint8 = [[[67, 114, 188], [126, 102, 136], [255, 0, 107]], -4.0, 5.5,
                   [[0, 99, 255, 0, 99, 255], [125, 74, 147, 125, 74, 147]], -1.5, 3.0]
    want_qint32 = [[[-585677376, 97612904, 1171354624], [273316128, -78090288, 429496736],
                    [2147483520, -1561806336, 0]], -5.5, 5.5,
                   [[-1073741824, 178956992, 2147483520, -1073741824, 178956992, 2147483520],
                    [501079552, -143165536, 787410688, 501079552, -143165536, 787410688]],
                   -3.0, 3.0]
    for name, want in [("quint8", want_quint8), ("qint32", want_qint32)]:
        assert [np.asarray(v).tolist() for v in got[name]] == want, name


# -- fake quantization ------------------------------------------------------------------------

def test_fake_quant_bit_for_bit_as_tf():
    xc = X.reshape(4, 2)
    ops = {
        "args_8": tf.fake_quant_with_min_max_args(X),
        "args_4_narrow": tf.fake_quant_with_min_max_args(X, min=-1.0, max=2.3, num_bits=4,
                                                         narrow_range=True),
        "vars_8": tf.fake_quant_with_min_max_vars(X, -2.7, 3.1),
        "vars_3_narrow": tf.fake_quant_with_min_max_vars(X, 0.5, 6.0, num_bits=3,
                                                         narrow_range=True),
        "vars_zero": tf.fake_quant_with_min_max_vars(X, 0.0, 0.0),
        "per_channel_5": tf.fake_quant_with_min_max_vars_per_channel(xc, [-6.0, -0.7],
                                                                     [6.0, 2.2], num_bits=5),
        "args_gradient": tf.fake_quant_with_min_max_args_gradient(G, X, min=-1.0, max=2.3),
        "vars_gradient": tf.fake_quant_with_min_max_vars_gradient(G, X, -1.0, 2.3),
        "per_channel_gradient": tf.fake_quant_with_min_max_vars_per_channel_gradient(
            G.reshape(4, 2), xc, [-1.0, -6.0], [2.3, 6.0]),
        "vars_zero_gradient": tf.fake_quant_with_min_max_vars_gradient(G, X, 0.0, 0.0),
    }
    assert ops["vars_gradient"]._fields == ("backprops_wrt_input", "backprop_wrt_min",
                                            "backprop_wrt_max")
    assert ops["per_channel_gradient"].backprop_wrt_min.shape.as_list() == [2]
    with tf.Session() as sess:
        got = sess.run(ops)
    for name, want in TF215_FAKE_QUANT.items():
        parts = got[name] if isinstance(want, tuple) else (got[name],)
        for part, expected in zip(parts, want if isinstance(want, tuple) else (want,)):
            assert _bits_equal(np.asarray(part).ravel(), np.ravel(expected)), (name, part)


def test_fake_quant_gradients_are_straight_through_as_tf():
    x = tf.constant([-7.0, -1.0, 0.3, 2.0, 6.5, 6.02])
    lo, hi = tf.constant(-6.0), tf.constant(6.0)
    y = tf.fake_quant_with_min_max_vars(x, lo, hi) * tf.constant([1., 2., 3., 4., 5., 6.])
    grads = tf.gradients(tf.reduce_sum(y), [x, lo, hi])
    assert grads[0].op.type == "FakeQuantWithMinMaxVarsGradient"
    assert grads[0].op.name == "gradients/FakeQuantWithMinMaxVars_grad/" \
                               "FakeQuantWithMinMaxVarsGradient"                 # TF's
    y_args = tf.fake_quant_with_min_max_args(x, min=-1, max=2, num_bits=4)
    grad_args = tf.gradients(tf.reduce_sum(y_args * 3.0), x)[0]
    assert grad_args.op.type == "FakeQuantWithMinMaxArgsGradient"
    xc, lo_c, hi_c = tf.reshape(x, [3, 2]), tf.constant([-1., -6.]), tf.constant([1., 6.])
    y_c = tf.fake_quant_with_min_max_vars_per_channel(xc, lo_c, hi_c)
    grads_c = tf.gradients(tf.reduce_sum(y_c * [[1., 2.]]), [xc, lo_c, hi_c])
    with tf.Session() as sess:
        g, g_args, g_c, fq_args, fq_c = sess.run([grads, grad_args, grads_c, y_args, y_c])
    # TF 2.15.1's
    assert [np.asarray(v).tolist() for v in g] == [[0., 2., 3., 4., 0., 0.], 1.0, 11.0]
    assert g_args.tolist() == [0., 3., 3., 3., 0., 0.]
    assert [v.tolist() for v in g_c] == [[[0., 2.], [1., 2.], [0., 0.]], [1., 0.], [1., 2.]]
    assert _bits_equal(fq_args, [-1., -1., 0.4, 2., 2., 2.])
    assert _bits_equal(fq_c, [[-0.9960785, -0.9882353], [0.29803923, 2.0235295],
                              [1.0039216, 5.9764705]])


def test_fake_quant_errors_as_tf():
    x = tf.constant(X)
    with pytest.raises(TypeError, match="Input 'inputs' of 'FakeQuantWithMinMaxVars' Op has "
                                        "type int32 that does not match expected type of "
                                        "float32."):
        tf.fake_quant_with_min_max_vars(tf.constant([1, 2]), 0.0, 1.0)
    with tf.Session() as sess:
        with pytest.raises(errors.InvalidArgumentError,
                           match="min has to be smaller than max, was: 1 >= 0"):
            sess.run(tf.fake_quant_with_min_max_args(x, min=1, max=0))
        for bad in (tf.fake_quant_with_min_max_args(x, num_bits=1),
                    tf.fake_quant_with_min_max_vars(x, -1.0, 1.0, num_bits=17)):
            with pytest.raises(errors.InvalidArgumentError,
                               match="num_bits must be between 2 and 16, inclusive"):
                sess.run(bad)
        with pytest.raises(errors.InvalidArgumentError, match="min and max must be 1-D"):
            sess.run(tf.fake_quant_with_min_max_vars_per_channel(
                tf.reshape(x, [4, 2]), [-1.0, -1.0, -1.0], [1.0, 1.0, 1.0]))
