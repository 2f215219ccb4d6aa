"""tf.math, tf.random, tf.io and the tf.nn extras (conv2d_transpose, avg_pool, lrn, moments,
batch_normalization): names as TF 1.15 has them, values against numbers measured with TF 1.15.5
running the same calls (or NumPy), gradients against finite differences."""
import os

import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients

# dir(tf.math), dir(tf.random), dir(tf.io) of TF 1.15.5, public names
TF_MATH = set("""abs accumulate_n acos acosh add add_n angle argmax argmin asin asinh atan atan2
atanh bessel_i0 bessel_i0e bessel_i1 bessel_i1e betainc bincount ceil confusion_matrix conj cos
cosh count_nonzero cumprod cumsum cumulative_logsumexp digamma divide divide_no_nan equal erf erfc
exp expm1 floor floordiv floormod greater greater_equal igamma igammac imag in_top_k
invert_permutation is_finite is_inf is_nan is_non_decreasing is_strictly_increasing l2_normalize
lbeta less less_equal lgamma log log1p log_sigmoid log_softmax logical_and logical_not logical_or
logical_xor maximum minimum mod multiply multiply_no_nan negative nextafter not_equal polygamma
polyval pow real reciprocal reciprocal_no_nan reduce_all reduce_any reduce_euclidean_norm
reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod reduce_std reduce_sum
reduce_variance rint round rsqrt scalar_mul segment_max segment_mean segment_min segment_prod
segment_sum sigmoid sign sin sinh softmax softplus softsign sqrt square squared_difference
subtract tan tanh top_k truediv unsorted_segment_max unsorted_segment_mean unsorted_segment_min
unsorted_segment_prod unsorted_segment_sqrt_n unsorted_segment_sum xdivy xlogy zero_fraction
zeta""".split())
TF_RANDOM = set("""all_candidate_sampler categorical experimental fixed_unigram_candidate_sampler
gamma get_seed learned_unigram_candidate_sampler log_uniform_candidate_sampler multinomial normal
poisson set_random_seed shuffle stateless_categorical stateless_multinomial stateless_normal
stateless_truncated_normal stateless_uniform truncated_normal uniform
uniform_candidate_sampler""".split())
TF_IO = set("""FixedLenFeature FixedLenSequenceFeature PaddingFIFOQueue PriorityQueue QueueBase
RandomShuffleQueue SparseFeature TFRecordCompressionType TFRecordOptions TFRecordWriter
VarLenFeature decode_and_crop_jpeg decode_base64 decode_bmp decode_compressed decode_csv
decode_gif decode_image decode_jpeg decode_json_example decode_png decode_proto decode_raw
deserialize_many_sparse encode_base64 encode_jpeg encode_proto extract_jpeg_shape gfile is_jpeg
match_filenames_once matching_files parse_example parse_sequence_example parse_single_example
parse_single_sequence_example parse_tensor read_file serialize_many_sparse serialize_sparse
serialize_tensor tf_record_iterator write_file write_graph""".split())

TUTORIAL_MATH = """log exp sqrt square reduce_sum reduce_mean reduce_max reduce_min reduce_prod
argmax argmin equal softplus sigmoid tanh divide floordiv mod pow maximum minimum abs sign round
ceil floor rsqrt log1p cumsum top_k in_top_k confusion_matrix l2_normalize is_nan is_finite
logical_and logical_or logical_not logical_xor""".split()


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


# -- the names -------------------------------------------------------------------------------

def test_namespaces_hold_only_tf_names_and_every_tutorial_name():
    for module, tf_names in ((tf.math, TF_MATH), (tf.random, TF_RANDOM), (tf.io, TF_IO)):
        assert set(module.__all__) <= tf_names, set(module.__all__) - tf_names
        for name in module.__all__:
            assert callable(getattr(module, name)) or name == "gfile"
    assert not [n for n in TUTORIAL_MATH if not hasattr(tf.math, n)]
    assert {"normal", "uniform", "truncated_normal", "shuffle", "set_random_seed",
            "categorical", "multinomial"} <= set(tf.random.__all__)
    assert tf.math.log is tf.log and tf.math.reduce_sum is tf.reduce_sum
    assert tf.math.top_k is tf.nn.top_k and tf.random.normal is tf.random_normal
    assert "rnn_cell" in dir(tf.nn) and tf.nn.rnn_cell.LSTMStateTuple(1, 2).h == 2


# -- tf.math values (measured in TF 1.15) --------------------------------------------------------

def test_math_extras_match_tf():
    with tf.Graph().as_default():
        x = tf.constant([[0., 1., 2.], [3., 0., -1.]])
        y = tf.constant([0., 2., 0.])
        r = _run({
            "cm": tf.math.confusion_matrix([1, 2, 4], [2, 2, 4]),
            "cmw": tf.math.confusion_matrix([0, 1, 1], [1, 1, 0], num_classes=3,
                                            weights=[0.5, 1., 2.], dtype=tf.float32),
            "dnn": tf.math.divide_no_nan(x, y), "xlogy": tf.math.xlogy(x, y),
            "xdivy": tf.math.xdivy(x, y),
            "mnn": tf.math.multiply_no_nan(tf.constant([np.inf, 1., 2.]), y),
            "rstd": tf.math.reduce_std(x, 1), "rvar": tf.math.reduce_variance(x),
            "ren": tf.math.reduce_euclidean_norm(x, 0, keepdims=True),
            "cumprod": tf.math.cumprod([1., 2., 3., 4.], exclusive=True, reverse=True),
            "cumprod2": tf.math.cumprod([[1., 2.], [3., 4.]], axis=1),
            "seg": tf.math.segment_sum([1., 2., 3.], [0, 0, 2]),
            "useg": tf.math.unsorted_segment_sum([[1., 2.], [3., 4.], [5., 6.]], [2, 0, 2], 3),
            "useg_neg": tf.math.unsorted_segment_sum([1., 2., 3.], [1, -1, 1], 2),
            "trig": tf.stack([tf.math.tan(0.5), tf.math.sinh(0.5), tf.math.cosh(0.5),
                              tf.math.asin(0.5), tf.math.acos(0.5), tf.math.atan(0.5),
                              tf.math.atan2(1.0, -1.0), tf.math.erfc(0.5)]),
            "logsig": tf.math.log_sigmoid([-100., 0., 3.]),
        })
    inf = np.inf
    np.testing.assert_array_equal(r["cm"], [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0],
                                            [0, 0, 0, 0, 0], [0, 0, 0, 0, 1]])
    assert r["cm"].dtype == np.int32
    np.testing.assert_allclose(r["cmw"], [[0, .5, 0], [2, 1, 0], [0, 0, 0]])
    np.testing.assert_allclose(r["dnn"], [[0, .5, 0], [0, 0, 0]])
    np.testing.assert_allclose(r["xlogy"], [[0, 0.693147, -inf], [-inf, 0, inf]], rtol=1e-6)
    np.testing.assert_allclose(r["xdivy"], [[0, .5, inf], [inf, 0, -inf]])
    np.testing.assert_allclose(r["mnn"], [0, 2, 0])
    np.testing.assert_allclose(r["rstd"], [0.816497, 1.699673], rtol=1e-6)
    np.testing.assert_allclose(r["rvar"], 1.805556, rtol=1e-6)
    np.testing.assert_allclose(r["ren"], [[3.0, 1.0, 2.236068]], rtol=1e-6)
    np.testing.assert_allclose(r["cumprod"], [24, 12, 4, 1])
    np.testing.assert_allclose(r["cumprod2"], [[1, 2], [3, 12]])
    np.testing.assert_allclose(r["seg"], [3, 0, 3])
    np.testing.assert_allclose(r["useg"], [[3, 4], [0, 0], [6, 8]])
    np.testing.assert_allclose(r["useg_neg"], [0, 4])
    np.testing.assert_allclose(r["trig"], [0.546302, 0.521095, 1.127626, 0.523599, 1.047198,
                                           0.463648, 2.356194, 0.4795], rtol=1e-5)
    np.testing.assert_allclose(r["logsig"], [-100.0, -0.693147, -0.048587], rtol=1e-5)


def test_monotonicity_and_inverse_hyperbolic_functions_match_tf():
    with tf.Graph().as_default():
        got = _run([tf.math.is_non_decreasing([1, 2, 2, 3]),
                    tf.math.is_strictly_increasing([1, 2, 2, 3]),
                    tf.math.is_strictly_increasing([[1, 2], [3, 4]]),
                    tf.math.is_non_decreasing([5]),
                    tf.stack([tf.math.asinh(0.5), tf.math.acosh(1.5), tf.math.atanh(0.5)])])
    assert [bool(b) for b in got[:4]] == [True, False, True, True]       # as TF 1.15
    np.testing.assert_allclose(got[4], [0.481212, 0.962424, 0.549306], rtol=1e-5)


@pytest.mark.parametrize("fn, values", [
    (tf.math.tan, [0.3, -0.7]), (tf.math.sinh, [0.3, -1.2]), (tf.math.cosh, [0.3, -1.2]),
    (tf.math.asin, [0.3, -0.6]), (tf.math.acos, [0.3, -0.6]), (tf.math.atan, [0.3, -2.0]),
    (tf.math.erfc, [0.3, -0.6]), (tf.math.log_sigmoid, [0.3, -4.0]),
    (tf.math.asinh, [0.3, -2.0]), (tf.math.acosh, [1.5, 3.0]), (tf.math.atanh, [0.3, -0.6]),
    (lambda x: tf.math.cumprod(x, exclusive=True), [0.3, -0.6, 1.5]),
    (lambda x: tf.math.cumprod(x, reverse=True), [0.3, -0.6, 1.5]),
    (lambda x: tf.math.reduce_std(x), [0.3, -0.6, 1.5]),
    (lambda x: tf.math.reduce_euclidean_norm(x), [0.3, -0.6, 1.5]),
    (lambda x: tf.math.unsorted_segment_sum(x, [1, -1, 1], 2), [0.3, -0.6, 1.5]),
])
def test_math_extras_gradients(fn, values):
    check_gradients(fn, [np.array(values)])


def test_binary_extras_gradients():
    check_gradients(lambda y, x: tf.math.atan2(y, x), [[0.3, -1.0], [0.5, -0.2]])
    check_gradients(lambda x, y: tf.math.divide_no_nan(x, y), [[0.3, -1.0], [0.5, -0.2]])
    check_gradients(lambda x, y: tf.math.xlogy(x, y), [[0.3, -1.0], [0.5, 0.2]])
    with tf.Graph().as_default():                  # at y == 0: value 0 and gradient 0, no NaN
        x, y = tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0])
        gx, gy = _run(tf.gradients(tf.math.divide_no_nan(x, y), [x, y]))
    np.testing.assert_allclose(gx, [0.0, 0.25])
    np.testing.assert_allclose(gy, [0.0, -2.0 / 16])


# -- tf.random -----------------------------------------------------------------------------

def test_random_namespace():
    with tf.Graph().as_default():
        tf.random.set_random_seed(1)
        a = tf.random.normal([3, 2])
        samples = tf.random.categorical(tf.log([[0.5, 0.5], [0.01, 0.99]]), 200, seed=3)
        u = tf.random.uniform([1000], 2.0, 3.0)
        t = tf.random.truncated_normal([1000])
        s = tf.random.shuffle(tf.range(10))
        av, sv, uv, tv, shv = _run([a, samples, u, t, s])
    with tf.Graph().as_default():                  # the same numbers as tf.random_normal
        tf.set_random_seed(1)
        np.testing.assert_array_equal(_run(tf.random_normal([3, 2])), av)
    assert sv.shape == (2, 200) and sv.dtype == np.int64           # TF 1.15: int64
    assert 50 < sv[0].sum() < 150 and sv[1].sum() > 180
    assert 2.0 <= uv.min() and uv.max() < 3.0 and np.abs(tv).max() <= 2.0
    assert sorted(shv) == list(range(10))


# -- tf.io ------------------------------------------------------------------------------------

def test_io_file_ops(tmp_path):
    d = str(tmp_path)
    with tf.Graph().as_default():
        write = tf.io.write_file(d + "/sub/f.bin", "abc\x00def")    # makes sub/, as TF
        contents = tf.io.read_file(d + "/sub/f.bin")
        found = tf.io.matching_files(d + "/sub/*.bin")
        missing = tf.io.read_file(d + "/nope")
        assert contents.get_shape().as_list() == [] and contents.dtype == tf.string
        with tf.Session() as sess:
            assert os.path.exists(d) and not os.path.exists(d + "/sub")   # not at build time
            sess.run(write)
            assert sess.run(contents) == b"abc\x00def"
            assert list(sess.run(found)) == [(d + "/sub/f.bin").encode()]
            with pytest.raises(errors.NotFoundError, match="No such file"):
                sess.run(missing)


def test_decode_raw_matches_tf():
    with tf.Graph().as_default():
        raw = tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x01", b"\xff\xff\x00\x01"]),
                               tf.int16)
        big = tf.io.decode_raw(tf.constant(b"\x01\x00\x02\x01"), tf.uint16,
                               little_endian=False)
        bad = tf.io.decode_raw(tf.constant([b"ab", b"abcd"]), tf.uint8)
        assert raw.get_shape().as_list() == [2, None]
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(raw), [[1, 258], [-1, 256]])   # TF 1.15
            np.testing.assert_array_equal(sess.run(big), [256, 513])
            assert sess.run(raw).dtype == np.int16
            with pytest.raises(errors.InvalidArgumentError, match="same size"):
                sess.run(bad)


# -- tf.nn extras ------------------------------------------------------------------------------

def test_conv2d_transpose_matches_tf():
    rs = np.random.RandomState(0)
    x = rs.uniform(-1, 1, (1, 2, 3, 2)).astype(np.float32)
    f = rs.uniform(-1, 1, (3, 3, 1, 2)).astype(np.float32)
    with tf.Graph().as_default():
        same = tf.nn.conv2d_transpose(x, f, [1, 4, 6, 1], [1, 2, 2, 1], padding="SAME")
        valid = tf.nn.conv2d_transpose(x, f, [1, 5, 7, 1], [1, 2, 2, 1], padding="VALID")
        xp = tf.placeholder(tf.float32, [None, 2, 3, 2])
        dynamic = tf.nn.conv2d_transpose(xp, f, tf.stack([tf.shape(xp)[0], 4, 6, 1]),
                                         [1, 2, 2, 1])
        assert same.name == "conv2d_transpose:0"                     # as TF 1.15
        assert same.get_shape().as_list() == [1, 4, 6, 1]
        assert dynamic.get_shape().as_list() == [None, 4, 6, 1]      # as TF 1.15
        with pytest.raises(ValueError, match="output channels"):
            tf.nn.conv2d_transpose(x, f, [1, 4, 6, 3], [1, 2, 2, 1])
        s, v, dyn = _run([same, valid, dynamic], {xp: np.concatenate([x, x])})
    # TF 1.15's output, first and last rows
    np.testing.assert_allclose(s[0, 0, :, 0], [0.37962, -0.43914, 0.297, -0.25045, 0.09009,
                                               -0.10994], atol=1e-5)
    np.testing.assert_allclose(v[0, 4, :, 0], [0.31457, 0.78587, -0.91239, -0.86877, -0.34896,
                                               -0.36478, 0.01563], atol=1e-5)
    np.testing.assert_allclose(v[0, :4, :6], s[0], atol=1e-6)
    np.testing.assert_allclose(dyn[1], s[0], atol=1e-6)


def test_conv2d_transpose_gradients():
    rs = np.random.RandomState(1)
    check_gradients(lambda x, f: tf.nn.conv2d_transpose(x, f, [2, 5, 5, 2], [1, 2, 2, 1],
                                                        padding="SAME"),
                    [rs.uniform(-1, 1, (2, 3, 3, 3)), rs.uniform(-1, 1, (3, 3, 2, 3))])


def _np_avg_pool_same(x, k, s):
    n, h, w, c = x.shape
    oh, ow = -(-h // s), -(-w // s)
    pad_h, pad_w = max((oh - 1) * s + k - h, 0), max((ow - 1) * s + k - w, 0)
    top, left = pad_h // 2, pad_w // 2
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * s - top, j * s - left
            window = x[:, max(r0, 0):r0 + k, max(c0, 0):c0 + k]
            out[:, i, j] = window.mean(axis=(1, 2))      # padding not counted, as TF
    return out


def test_avg_pool_lrn_moments_batch_normalization_match_numpy():
    """(Also checked against TF 1.15 on the same input while writing this: equal to 1e-7.)"""
    x = np.random.RandomState(0).uniform(-1, 1, (2, 5, 5, 3)).astype(np.float32)
    with tf.Graph().as_default():
        xt = tf.constant(x)
        mean, var = tf.nn.moments(xt, [0, 1, 2])
        r = _run({"avg": tf.nn.avg_pool(xt, [1, 3, 3, 1], [1, 2, 2, 1], "SAME"),
                  "lrn": tf.nn.lrn(xt, depth_radius=1, bias=1.0, alpha=0.001 / 9.0, beta=0.75),
                  "mean": mean, "var": var,
                  "bn": tf.nn.batch_normalization(xt, mean, var, tf.constant([0.1, 0.2, 0.3]),
                                                  tf.constant([1.0, 2.0, 0.5]), 1e-3)})
    np.testing.assert_allclose(r["avg"], _np_avg_pool_same(x, 3, 2), rtol=1e-5, atol=1e-6)
    sq = np.pad(x ** 2, [(0, 0)] * 3 + [(1, 1)])
    sqr_sum = sq[..., :-2] + sq[..., 1:-1] + sq[..., 2:]
    np.testing.assert_allclose(r["lrn"], x / (1.0 + 0.001 / 9.0 * sqr_sum) ** 0.75, rtol=1e-5)
    np.testing.assert_allclose(r["mean"], x.mean(axis=(0, 1, 2)), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(r["var"], x.var(axis=(0, 1, 2)), rtol=1e-5)
    expect = (x - x.mean((0, 1, 2))) / np.sqrt(x.var((0, 1, 2)) + 1e-3) * [1, 2, .5] + \
        [.1, .2, .3]
    np.testing.assert_allclose(r["bn"], expect, rtol=1e-4, atol=1e-5)


def test_namespaces_reach_the_ops_by_their_tf_names():
    # TF 1.15 lists these in tf.math, tf.random and tf.nn as well as (most) at the top level.
    assert tf.math.lgamma is tf.lgamma and tf.math.segment_max is tf.segment_max
    assert tf.math.unsorted_segment_sqrt_n is tf.unsorted_segment_sqrt_n
    assert tf.math.bincount is tf.bincount and tf.math.zeta is tf.zeta
    assert tf.random.gamma is tf.random_gamma and tf.random.poisson is tf.random_poisson
    assert tf.nn.depth_to_space is tf.depth_to_space and tf.nn.space_to_batch is tf.space_to_batch
    assert tf.nn.avg_pool2d is tf.nn.avg_pool and tf.nn.max_pool2d is tf.nn.max_pool
    for name in tf.math.__all__ + tf.random.__all__:
        assert getattr(tf.math if name in tf.math.__all__ else tf.random, name) is not None
