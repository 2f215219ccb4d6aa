"""Complex numbers and the FFT family (sandbox/framework/dtypes.py, sandbox/ops/complex_ops.py,
sandbox/ops/fft_ops.py, sandbox/api/spectral.py), checked against TensorFlow 2.15.1
(tf.compat.v1, disable_v2_behavior): every value in TF215 below, and every error text quoted,
is TF 2.15's output for the same graph.

The gradient checks rely on tf.gradients passing gradients into complex tensors, as TF's
does (backprop_util.IsTrainable takes floats and complex numbers).
"""
from math import nan

import numpy as np
import pytest

import sandbox as tf
from sandbox.api import spectral
from sandbox.framework import dtypes as dtypes_module
from sandbox.ops.complex_ops import complex_abs

X0 = np.array([3., 0., -1., 0.5], np.float32)
Y0 = np.array([4., 0., 2., -1.5], np.float32)
A = (np.arange(12).reshape(3, 4) * 0.37 % 1.3 - 0.6).astype(np.float32)
B = (np.arange(12).reshape(3, 4) * 0.71 % 1.1 - 0.4).astype(np.float32)
C = (A + 1j * B).astype(np.complex64)
W = np.array([[0.3, -1.2, 0.7, 2.0], [1.1, 0.4, -0.8, 0.25], [-0.5, 0.9, 1.3, -0.2]], np.float32)

# TF 2.15.1's outputs (rounded to 6 decimals) of the graphs built in FORWARD and GRADIENTS.
TF215 = {
    'fwd': [[(3+4j), 0j, (-1+2j), (0.5-1.5j)], [3.0, 0.0, -1.0, 0.5], [4.0, 0.0, 2.0, -1.5],
        [(3-4j), -0j, (-1-2j), (0.5+1.5j)], [0.927295, 0.0, 2.034444, -1.249046], [5.0, 0.0,
        2.236068, 1.581139]],
    'angle_real': [0.0, 0.0, 3.141593, 0.0],
    'arith': [[(-7+24j), 0j, (-3-4j), (-2-1.5j)], [(6+8j), 0j, (-2+4j), (1-3j)], [8j, 0j, 4j,
        -3j], [(0.96+0.28j), complex(nan, nan), (-0.8+0.6j), (-0.6+0.8j)], [(-3-4j), (-0-0j),
        (1-2j), (-0.5+1.5j)]],
    'abs_sum': [6.227525, [0.18, 0.0, -0.313049, 0.632456], [0.24, 0.0, 0.626099, -1.897367]],
    'abs_sum0': [0.0, [0.0, 0.0], [0.0, 0.0]],
    'fft_real': [1.605, [[1.8, -0.4, 0.2, -0.4], [0.95, 1.9, -0.35, 1.9], [1.5, -1.8, 0.1, -1.8]],
        [[0.0, -3.2, 0.0, 3.2], [0.0, 0.15, 0.0, -0.15], [0.0, 1.1, 0.0, -1.1]]],
    'fft_imag': [-4.595, [[0.0, 3.2, 0.0, -3.2], [0.0, -0.15, 0.0, 0.15], [0.0, -1.1, 0.0, 1.1]],
        [[1.8, -0.4, 0.2, -0.4], [0.95, 1.9, -0.35, 1.9], [1.5, -1.8, 0.1, -1.8]]],
    'ifft_real': [-0.51575, [[0.45, -0.1, 0.05, -0.1], [0.2375, 0.475, -0.0875, 0.475], [0.375,
        -0.45, 0.025, -0.45]], [[0.0, 0.8, 0.0, -0.8], [0.0, -0.0375, 0.0, 0.0375], [0.0, -0.275,
        0.0, 0.275]]],
    'fft2d': [-8.055417, [[0.0, 1.95, 0.0, -1.95], [0.476314, 0.620706, 0.389711, -7.029294],
        [-0.476314, 7.029294, -0.389711, -0.620706]], [[4.25, -0.3, -0.05, -0.3], [0.575,
        0.372724, 0.325, -1.272724], [0.575, -1.272724, 0.325, 0.372724]]],
    'ifft2d': [-0.155491, [[0.354167, -0.025, -0.004167, -0.025], [0.047917, 0.03106, 0.027083,
        -0.10606], [0.047917, -0.10606, 0.027083, 0.03106]], [[0.0, 0.1625, 0.0, -0.1625],
        [0.039693, 0.051726, 0.032476, -0.585775], [-0.039693, 0.585775, -0.032476, -0.051726]]],
    'fft3d': [-6.087186, [[[4.25, -0.3, -0.05, -0.3], [0.575, 0.372724, 0.325, -1.272724], [0.575,
        -1.272724, 0.325, 0.372724]]], [[[0.0, -1.95, 0.0, 1.95], [-0.476314, -0.620706,
        -0.389711, 7.029294], [0.476314, -7.029294, 0.389711, 0.620706]]]],
    'ifft3d': [0.211952, [[[0.0, -0.1625, 0.0, 0.1625], [-0.039693, -0.051726, -0.032476,
        0.585775], [0.039693, -0.585775, 0.032476, 0.051726]]], [[[0.354167, -0.025, -0.004167,
        -0.025], [0.047917, 0.03106, 0.027083, -0.10606], [0.047917, -0.10606, 0.027083,
        0.03106]]]],
    'angle_g': [-0.795792, [-0.048, nan, -0.28, 1.2], [0.036, nan, -0.14, 0.4]],
    'conj_g': [0.4, [0.0, 0.0, 0.0, 0.0], [-0.3, 1.2, -0.7, -2.0]],
    'mul_g': [-21.5, [-12.900002, 0.0, -4.9, -6.0], [-7.2, 0.0, 2.8, 3.0]],
    'div_g': [-1.659416, [-0.041201, 0.0, 0.072485, 0.0], [0.033175, -0.4, 0.095266, 2.4]],
    'cast_g': [3.2, [0.6, 0.0, -2.8, 5.0], [-0.9, 0.0, 0.7, -1.0]],
    'bcast_g': [1.532285, [[-1.072, 0.552, 0.196, 2.04], [-0.8295, -0.04, -0.512, 0.345], [-0.009,
        0.234, 1.3, 0.172]], [[0.522, -0.336, 0.396, 1.257]]],
    'rfft': [[[(-0.18+0j), (-0.74+0.74j), (-0.74+0j)], [(0.54+0j), (-0.74+0.74j), (-0.74+0j)],
        [(-0.04+0j), (-0.74-0.56j), (0.56+0j)]], [[(-0.18+0j), (-1.295+0.077942j),
        (-0.045+0.320429j), (-0.74+0j)], [(0.54+0j), (-1.295-0.233827j), (0.135+0.320429j),
        (-0.74+0j)], [(-0.04+0j), (0.005-0.545596j), (-0.985+0.320429j), (0.56+0j)]],
        [[(-0.69+0j), (-0.555+0.320429j)], [(-0.15+0j), (-0.555+0.320429j)], [(0.39+0j),
        (-0.555+0.320429j)]], [[(0.32+0j), (-2.22+0.92j), (-0.92+0j)], [(-0.43-0.502295j),
        (1.125833+0.65j), (-0.65+1.125833j)], [(-0.43+0.502295j), (-1.125833+0.65j),
        (-0.65-1.125833j)]], [[(0.36+0j), (-2.449493+0.701257j), (-0.280507-0.539202j)],
        [(-0.72+0j), (0.055623+0.17119j), (-0.145623+0.105801j)]]],
    'irfft': [[[-0.045, -0.313062, -0.112583, -0.061667, 0.112583, -0.180271], [0.135, -0.365023,
        0.204959, -0.061667, -0.204959, -0.12831], [0.098333, -0.200318, -0.32925, 0.155,
        -0.104083, 0.140318]], [[0.034286, -0.391934, 0.028183, -0.26578, 0.197795, -0.06074,
        -0.141808], [0.214286, -0.410427, 0.1329, 0.062342, -0.130327, -0.165458, -0.123316],
        [0.022857, -0.033587, -0.436734, 0.091032, 0.006284, -0.058987, 0.169135]], [[0.062778,
        -0.292801, -0.078958, 0.010556, -0.065486, -0.056088], [-0.080832, 0.072793, -0.069736,
        -0.141959, 0.036111, -0.039168], [-0.026946, -0.093054, 0.036111, 0.069736, 0.141959,
        -0.085016]], [[0.018, -0.241211, -0.004244, -0.038154, -0.049391], [-0.143, 0.051586,
        -0.014606, -0.068274, 0.024295], [0.006, -0.107044, -0.114263, 0.10013, 0.010176],
        [-0.037, 0.003813, 0.001529, 0.081352, -0.079693]]],
    'rfft_g': [0.486, [[-0.2, -1.1, 2.2, 0.3], [0.7, 2.7, -0.1, 1.1], [1.7, -3.1, -0.1, -0.5]]],
    'rfft_g5': [-0.524786, [[-0.2, -2.478442, 2.977796, 0.0], [0.7, 2.48472, 1.237172, 0.0], [1.7,
        -2.392423, -1.780725, 0.0]]],
    'rfft2d_g': [2.696856, [[2.2, -1.5, 2.0, 0.9], [0.461955, 0.355737, 0.524648, 0.389711],
        [-3.261955, -2.155736, 4.075352, -0.389711]]],
    'irfft_g': [-0.349, [[0.45, -0.2, 0.05], [0.2375, 0.95, -0.0875], [0.375, -0.9, 0.025]],
        [[0.0, 1.6, 0.0], [0.0, -0.075, 0.0], [0.0, -0.55, 0.0]]],
    'irfft_g7': [-0.378, [[0.3, 0.0, 0.0, -0.0], [0.3, 0.0, 0.0, -0.0], [0.3, 0.0, 0.0, -0.0]],
        [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]],
    'irfft2d_g': [-1.395363, [[7.0, -1.0, -1.0], [-2.5, 0.0, 0.0], [-2.5, 0.0, 0.0]], [[0.0,
        1.376382, 0.32492], [1.443376, 0.0, -0.0], [-1.443376, 0.0, 0.0]]],
}


def _z():
    return tf.complex(tf.constant(X0), tf.constant(Y0))


def _grads(fn, *values):
    """[loss, d loss / d value ...] of a real loss."""
    xs = [tf.constant(v) for v in values]
    loss = fn(*xs)
    return [loss] + tf.gradients(loss, xs)


def _sum_re_im(t, w_re, w_im):
    return tf.reduce_sum(tf.real(t) * w_re) + tf.reduce_sum(tf.imag(t) * w_im)


FORWARD = {
    "fwd": lambda: [_z(), tf.real(_z()), tf.imag(_z()), tf.conj(_z()), tf.angle(_z()),
                    complex_abs(_z())],
    "angle_real": lambda: tf.angle(tf.constant(X0)),
    "arith": lambda: [_z() * _z(), _z() + _z(), _z() - tf.conj(_z()),
                      _z() / tf.complex(tf.constant(Y0), tf.constant(X0)), -_z()],
    "rfft": lambda: [spectral.rfft(tf.constant(A)), spectral.rfft(tf.constant(A), [6]),
                     spectral.rfft(tf.constant(A), [3]), spectral.rfft2d(tf.constant(A)),
                     spectral.rfft2d(tf.constant(A), [2, 5])],
    "irfft": lambda: [spectral.irfft(tf.constant(C)), spectral.irfft(tf.constant(C), [7]),
                      spectral.irfft2d(tf.constant(C)), spectral.irfft2d(tf.constant(C), [4, 5])],
}

GRADIENTS = {
    "abs_sum": lambda: _grads(lambda p, q: tf.reduce_sum(complex_abs(tf.complex(p, q)) * W[0]),
                              X0, Y0),
    "abs_sum0": lambda: _grads(lambda p, q: tf.reduce_sum(complex_abs(tf.complex(p, q))),
                               np.zeros(2, np.float32), np.zeros(2, np.float32)),
    "fft_real": lambda: _grads(lambda p, q: tf.reduce_sum(tf.real(tf.fft(tf.complex(p, q))) * W),
                               A, B),
    "fft_imag": lambda: _grads(lambda p, q: tf.reduce_sum(tf.imag(tf.fft(tf.complex(p, q))) * W),
                               A, B),
    "ifft_real": lambda: _grads(
        lambda p, q: tf.reduce_sum(tf.real(tf.ifft(tf.complex(p, q))) * W), A, B),
    "fft2d": lambda: _grads(
        lambda p, q: tf.reduce_sum(tf.imag(tf.fft2d(tf.complex(p, q))) * W), A, B),
    "ifft2d": lambda: _grads(
        lambda p, q: tf.reduce_sum(tf.real(tf.ifft2d(tf.complex(p, q))) * W), A, B),
    "fft3d": lambda: _grads(lambda p, q: tf.reduce_sum(tf.real(tf.fft3d(tf.complex(p, q))) * W),
                            A.reshape(1, 3, 4), B.reshape(1, 3, 4)),
    "ifft3d": lambda: _grads(
        lambda p, q: tf.reduce_sum(tf.imag(tf.ifft3d(tf.complex(p, q))) * W),
        A.reshape(1, 3, 4), B.reshape(1, 3, 4)),
    "angle_g": lambda: _grads(lambda p, q: tf.reduce_sum(tf.angle(tf.complex(p, q)) * W[0]),
                              X0, Y0),
    "conj_g": lambda: _grads(
        lambda p, q: tf.reduce_sum(tf.imag(tf.conj(tf.complex(p, q))) * W[0]), X0, Y0),
    "mul_g": lambda: _grads(lambda p, q: tf.reduce_sum(
        tf.real(tf.complex(p, q) * tf.complex(q, p) * tf.complex(p, p)) * W[0]), X0, Y0),
    "div_g": lambda: _grads(lambda p, q: tf.reduce_sum(
        tf.imag(tf.complex(p, q) / tf.complex(q + 3.0, p)) * W[0]), X0, Y0),
    "cast_g": lambda: _grads(lambda p, q: tf.reduce_sum(
        tf.cast(tf.complex(p, q) * tf.complex(p, p), tf.float32) * W[0]), X0, Y0),
    "bcast_g": lambda: _grads(lambda p, q: tf.reduce_sum(
        tf.real(tf.complex(p, q) * tf.complex(p, p[:, :1])) * W), A, B[:1]),
    "rfft_g": lambda: _grads(lambda p: _sum_re_im(spectral.rfft(p), W[:, :3], W[:, 1:]), A),
    "rfft_g5": lambda: _grads(
        lambda p: _sum_re_im(spectral.rfft(p[:, :3], [5]), W[:, :3], W[:, 1:]), A),
    "rfft2d_g": lambda: _grads(lambda p: _sum_re_im(spectral.rfft2d(p), W[:, :3], W[:, 1:]), A),
    "irfft_g": lambda: _grads(
        lambda p, q: tf.reduce_sum(spectral.irfft(tf.complex(p, q)) * W), A[:, :3], B[:, :3]),
    "irfft_g7": lambda: _grads(lambda p, q: tf.reduce_sum(
        spectral.irfft(tf.complex(p, q), [7]) * np.full([3, 7], 0.3, np.float32)), A, B),
    "irfft2d_g": lambda: _grads(lambda p, q: tf.reduce_sum(
        spectral.irfft2d(tf.complex(p, q), [3, 5]) * np.arange(15.).reshape(3, 5).astype(
            np.float32)), A[:, :3], B[:, :3]),
}


def _run(build):
    with tf.Graph().as_default():
        out = build()
        with tf.Session() as sess:
            return sess.run(out)


def _assert_close(got, want):
    """got: what Session.run returned (a list for a list of fetches); want: TF215's."""
    if isinstance(got, list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _assert_close(g, w)
        return
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5, atol=2e-5)


def _backprop_takes_complex():
    with tf.Graph().as_default():
        z = tf.complex(1.0, 2.0)
        return tf.gradients(tf.real(z), z)[0] is not None


# -- dtypes ------------------------------------------------------------------------------

def test_complex_dtypes_as_tf():
    assert (tf.complex64.as_datatype_enum, tf.complex128.as_datatype_enum) == (8, 18)
    assert tf.as_dtype(8) is tf.complex64 and tf.as_dtype(18) is tf.complex128
    assert tf.as_dtype(108) is tf.complex64._as_ref and tf.complex128_ref.as_datatype_enum == 118
    assert tf.as_dtype(np.complex64) is tf.complex64
    assert tf.as_dtype(np.dtype("complex128")) is tf.complex128
    assert tf.as_dtype("complex64") is tf.complex64 and tf.float32.as_datatype_enum == 1
    assert tf.complex64.is_complex and not tf.complex64.is_floating
    assert not (tf.complex64.is_integer or tf.float32.is_complex)
    assert tf.complex64.real_dtype is tf.float32 and tf.complex128.real_dtype is tf.float64
    assert tf.int32.real_dtype is tf.int32
    assert (tf.complex64.size, tf.complex128.size) == (8, 16)
    assert tf.complex64.as_numpy_dtype is np.complex64
    assert str(tf.complex64) == "<dtype: 'complex64'>"
    assert tf.dtypes.complex128.name == "complex128" and tf.complex64.base_dtype is tf.complex64
    # TF 2.15's errors
    with pytest.raises(TypeError, match=r"^Cannot find minimum value of <dtype: 'complex64'> "
                                        r"with type <dtype: 'complex64'>\.$"):
        tf.complex64.min
    with pytest.raises(TypeError, match=r"^Cannot find maximum value of <dtype: 'complex128'>"):
        tf.complex128.max
    with pytest.raises(ValueError, match=r"^<dtype: 'complex64'> does not have defined limits"):
        tf.complex64.limits


def test_constants_placeholders_variables_feeds_and_fetches():
    assert tf.constant(1 + 2j).dtype == tf.complex128          # TF: Python complex -> c128
    assert tf.constant([1j, 2]).dtype == tf.complex128
    assert tf.constant(C).dtype == tf.complex64
    p = tf.placeholder(tf.complex64, [3, 4])
    v = tf.Variable(C, name="v")
    assert v.dtype == tf.complex64_ref
    w = v.assign_add(p)
    with tf.Session() as sess:
        sess.run(v.initializer)
        got_p, got_w = sess.run([p, w], {p: C * 1j})
        assert got_p.dtype == np.complex64 and got_w.dtype == np.complex64
        np.testing.assert_allclose(got_w, C + C * 1j, rtol=1e-6)
        np.testing.assert_allclose(sess.run(tf.to_complex128(tf.constant(A))), A + 0j)
        assert sess.run(tf.to_complex64(tf.constant(A))).dtype == np.complex64
        # complex -> real keeps the real part, as TF's Cast
        np.testing.assert_array_equal(sess.run(tf.cast(tf.constant(C), tf.float32)), C.real)


def test_a_complex_tensor_crosses_between_two_tasks(local_cluster):
    cluster = local_cluster(ps=1, worker=1)
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(np.array([1 + 2j, -3j], np.complex64), name="v")
    with tf.device("/job:worker/task:0"):
        p = tf.placeholder(tf.complex128, [2])
        y = tf.cast(p, tf.complex64) + tf.fft(v * tf.conj(v))
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(v.initializer)
        got = sess.run(y, {p: np.array([1j, 2])})
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, [14 + 1j, -2], atol=1e-5)


# -- complex ops, FFTs: values -------------------------------------------------------------

@pytest.mark.parametrize("case", sorted(FORWARD))
def test_values_as_tf(case):
    _assert_close(_run(FORWARD[case]), TF215[case])


def test_dtypes_of_the_results():
    z = _z()
    z128 = tf.complex(tf.constant(A, tf.float64), tf.constant(B, tf.float64))
    assert z.dtype == tf.complex64 and z128.dtype == tf.complex128
    assert tf.real(z).dtype == tf.float32 and tf.imag(z128).dtype == tf.float64
    assert tf.angle(z128).dtype == tf.float64 and complex_abs(z).dtype == tf.float32
    assert tf.fft(z).dtype == tf.complex64 and tf.ifft2d(z128).dtype == tf.complex128
    assert spectral.rfft(tf.constant(A, tf.float64)).dtype == tf.complex128
    assert spectral.irfft(z).dtype == tf.float32
    # TF's names and static shapes
    assert tf.real(z, name="re").name == "re:0" and tf.fft(z).op.type == "FFT"
    with tf.Graph().as_default():
        assert spectral.rfft(tf.constant(A)).name == "rfft:0"
    assert spectral.rfft(tf.constant(A)).op.type == "RFFT"
    assert spectral.rfft2d(tf.constant(A), [2, 5]).get_shape().as_list() == [2, 3]
    assert spectral.irfft(tf.constant(C)).get_shape().as_list() == [3, 6]
    x = tf.constant(A)
    assert tf.real(x) is x and tf.conj(x) is x                # no op for a real tensor
    with tf.Session() as sess:
        out = sess.run([tf.fft(z128), tf.ifft3d(tf.reshape(z128, [1, 3, 4])), tf.imag(x)])
    np.testing.assert_allclose(out[0], np.fft.fft(A + 1j * B.astype(np.float64)), atol=1e-12)
    np.testing.assert_allclose(out[1][0], np.fft.ifft2(A + 1j * B.astype(np.float64)),
                               atol=1e-12)
    np.testing.assert_array_equal(out[2], np.zeros_like(A))


def test_spectral_namespace_and_math_names():
    assert spectral.fft is tf.fft and spectral.ifft3d is tf.ifft3d
    assert set(spectral.__all__) >= {"rfft", "irfft", "rfft2d", "irfft2d"}
    for name in ("real", "imag", "conj", "angle"):
        assert getattr(tf.math, name) is getattr(tf, name)


def test_fft_with_an_unknown_shape_and_its_gradient_size():
    p = tf.placeholder(tf.complex64, [None, None])
    x = tf.placeholder(tf.float32, [None, None])
    grads = [tf.gradients(tf.real(tf.fft2d(p)), p)[0], tf.gradients(tf.real(tf.ifft(p)), p)[0]]
    with tf.Session() as sess:
        got = sess.run([tf.fft2d(p), spectral.rfft(x), spectral.irfft(spectral.rfft(x))],
                       {p: C, x: A})
        got_grads = sess.run(grads, {p: C})
    np.testing.assert_allclose(got_grads[0], np.fft.ifft2(np.ones((3, 4))) * 12, atol=1e-5)
    np.testing.assert_allclose(got_grads[1], np.fft.fft(np.ones((3, 4))) / 4, atol=1e-6)
    np.testing.assert_allclose(got[0], np.fft.fft2(C), atol=1e-5)
    np.testing.assert_allclose(got[1], np.fft.rfft(A), atol=1e-5)
    np.testing.assert_allclose(got[2], A, atol=1e-6)


# -- errors (TF 2.15's texts; the sandbox's own sentences may follow them) -----------------

def test_errors_as_tf():
    with pytest.raises(TypeError, match=r"^The `real` and `imag` components have incorrect "
                       r"types: float32 float64\. They must be consistent, and one of "
                       r"\[tf\.float32, tf\.float64\]$"):
        tf.complex(tf.constant(X0), tf.constant(Y0, tf.float64))
    with pytest.raises(TypeError, match=r"incorrect types: int32 int32\."):
        tf.complex(tf.constant([1]), tf.constant([2]))
    with pytest.raises(TypeError, match=r"^Value passed to parameter 'input' has DataType "
                       r"float32 not in list of allowed values: complex64, complex128"):
        tf.fft(tf.constant(X0))
    with pytest.raises(ValueError, match=r"^Shape must be at least rank 2 but is rank 1"):
        tf.fft2d(tf.constant(C[0]))
    with pytest.raises(TypeError, match=r"^Expected numeric or variant tensor, got dtype "
                       r"tf\.string\.$"):
        tf.conj(tf.constant(["a"]))
    with pytest.raises(ValueError, match=r"^RFFT requires tf\.float32 or tf\.float64 inputs, "
                       r"got: Tensor\(\"Const(_\d+)?:0\", shape=\(3, 4\), dtype=complex64\)$"):
        spectral.rfft(tf.constant(C))
    with pytest.raises(ValueError, match=r"^IRFFT requires tf\.complex64 or tf\.complex128 "
                       r"inputs, got: Tensor"):
        spectral.irfft(tf.constant(X0))
    with pytest.raises(ValueError, match=r"^Shape \(2,\) must have rank at least 2$"):
        spectral.rfft2d(tf.constant([1.0, 2.0]))
    re, im = tf.placeholder(tf.float32, [None]), tf.placeholder(tf.float32, [None])
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match=r"Incompatible shapes: \[4\] vs\. \[3\]"):
        sess.run(tf.complex(re, im), {re: X0, im: Y0[:3]})


# -- gradients --------------------------------------------------------------------------

@pytest.mark.parametrize("case", sorted(GRADIENTS))
def test_gradients_as_tf(case):
    _assert_close(_run(GRADIENTS[case]), TF215[case])


def test_fft_gradient_is_ifft_scaled():
    z = tf.constant(C)
    g = tf.constant((W + 1j * A).astype(np.complex64))
    with tf.Session() as sess:
        got = sess.run(tf.gradients(tf.fft(z), z, grad_ys=g)[0])
        got_i = sess.run(tf.gradients(tf.ifft2d(z), z, grad_ys=g)[0])
    np.testing.assert_allclose(got, np.fft.ifft(W + 1j * A) * 4, atol=1e-5)
    np.testing.assert_allclose(got_i, np.fft.fft2(W + 1j * A) / 12, atol=1e-5)


def test_gradients_reach_complex_tensors():
    assert _backprop_takes_complex()


def test_abs_of_a_complex_tensor_is_its_real_magnitude_with_tfs_gradient():
    z = tf.constant(np.array([3 + 4j, 0j, -1 + 1j], np.complex64))
    a = tf.abs(z)
    assert a.dtype == tf.float32 and a.op.type == "ComplexAbs"
    g = tf.gradients(tf.reduce_sum(a), z)[0]
    with tf.Session() as sess:
        got_a, got_g = sess.run([a, g])
    np.testing.assert_allclose(got_a, [5.0, 0.0, 2 ** 0.5], rtol=1e-6)
    # TF 2.15: the gradient of sum(|z|) is z / |z| (0 at z = 0)
    np.testing.assert_allclose(got_g, [0.6 + 0.8j, 0j, (-1 + 1j) / 2 ** 0.5], rtol=1e-6)


def test_array_ops_and_sums_of_complex_tensors():
    z = tf.constant(C)
    with tf.Session() as sess:
        got = sess.run([tf.reshape(z, [12]), tf.concat([z, z], 0), tf.transpose(z),
                        tf.gather(z, [2, 0]), tf.add_n([z, z, z]), tf.zeros_like(z),
                        tf.ones_like(z), z[1, 2:], tf.truediv(z, z + 1)])
    want = [C.reshape(12), np.concatenate([C, C]), C.T, C[[2, 0]], 3 * C, 0 * C, C * 0 + 1,
            C[1, 2:], C / (C + 1)]
    for g, w in zip(got, want):
        assert g.dtype == np.complex64
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_reduce_sum_and_mean_of_complex_tensors_and_their_gradients_as_tf():
    z = tf.constant(np.array([[1 + 2j, 3 - 1j, 0.5j], [2, -1 + 1j, 4 - 2j]], np.complex64))
    s, m = tf.reduce_sum(z, axis=1), tf.reduce_mean(z)
    loss = tf.abs(tf.reduce_sum(z * z)) + tf.real(tf.reduce_mean(z * 3))
    g = tf.gradients(loss, z)[0]
    with tf.Session() as sess:
        got_s, got_m, got_g = sess.run([s, m, g])
    # TF 2.15.1's outputs for the same graph
    np.testing.assert_allclose(got_s, [4 + 1.5j, 5 - 1j], rtol=1e-6)
    np.testing.assert_allclose(got_m, 1.5 + 0.08333j, rtol=1e-5)
    np.testing.assert_allclose(got_g, [[-0.8359 - 4.26795j, 6.20794 - 2.72385j, -0.19398 - 0.72j],
                                       [3.38 - 2.7759j, -2.32795 - 0.05205j, 9.03589 - 2.6718j]],
                               atol=2e-5)
