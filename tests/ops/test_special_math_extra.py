"""Tests for the tf.math functions added from TF 1.15: the modified Bessel functions
(sandbox/ops/bessel_ops.py), polyval, cumulative_logsumexp and nextafter
(sandbox/ops/math_extra_ops.py), and complex numbers in matmul, exp, log, pow and
reduce_prod. The expected numbers are TF 2.15.1's, measured with tf.compat.v1 graphs."""
import numpy as np
import pytest

import sandbox as tf
from tests.gradcheck import check_gradients

X = np.array([-20., -8.5, -3., -0.5, 0., 0.1, 1., 2.5, 7.9, 8.1, 15., 40., 100.])

# TF 2.15.1's values at X (float64)
TF_BESSEL = {
    "bessel_i0e": [0.08978031188482603, 0.13900184305484756, 0.24300035416182536,
                   0.6450352704491502, 1., 0.9071009257823008, 0.46575960759364043,
                   0.27004644161220276, 0.14436986414104191, 0.14251180948829525,
                   0.1038995314488227, 0.06327827987523534, 0.03994437929909669],
    "bessel_i1e": [-0.08750622218328867, -0.13054935509459584, -0.19682671329730084,
                   -0.15642080318487162, 0., 0.04529844680880933, 0.20791041534970844,
                   0.20658464953126654, 0.13489649943989365, 0.13340068832583665,
                   0.10037417504516664, 0.06248222907444206, 0.03974415302513026],
    "bessel_i0": [4.3558282559553541e+07, 6.8316192699011538e+02, 4.8807925858650236e+00,
                  1.0634833707413238e+00, 1., 1.0025015629340954e+00, 1.2660658777520082e+00,
                  3.2898391440501231e+00, 3.8940628328215797e+02, 4.6950060671012142e+02,
                  3.3964937329791381e+05, 1.4894774793419902e+16, 1.0737517071310740e+42],
    "bessel_i1": [-4.2454973385127775e+07, -6.4161990254006662e+02, -3.9533702174026093e+00,
                  -2.5789430539089619e-01, 0., 5.0062526047092701e-02, 5.6515910399248503e-01,
                  2.5167162452886984e+00, 3.6385394408450810e+02, 4.3948430891035855e+02,
                  3.2812492197020637e+05, 1.4707396163259354e+16, 1.0683693903381627e+42],
}
# TF 2.15.1's gradients at X
TF_BESSEL_GRAD = {
    "bessel_i0e": [2.2740897015373629e-03, 8.4524879602517200e-03, 4.6173640864524523e-02,
                   4.8861446726427860e-01, 0., -8.6180247897349149e-01, -2.5784919224393199e-01,
                   -6.3461792080936219e-02, -9.4733647011482625e-03, -9.1111211624586019e-03,
                   -3.5253564036560603e-03, -7.9605080079327151e-04, -2.0022627396643067e-04],
    "bessel_i1e": [-2.1012214076270713e-03, -6.9062596979360402e-03, -1.9435263567909089e-02,
                   1.7577286089453537e-01, 0.5, 4.0881801088539821e-01, 4.9938776894223547e-02,
                   -1.9172067731570375e-02, -7.6021415570661222e-03, -7.3580996185088898e-03,
                   -3.1662552660217114e-03, -7.6600492606777870e-04, -1.9721525628486891e-04],
}


def run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def test_bessel_functions_values_dtypes_gradients_match_tf():
    x = tf.placeholder(tf.float64, name="x")
    xf = tf.placeholder(tf.float32, name="xf")
    names = sorted(TF_BESSEL)
    ys = {n: getattr(tf.math, n)(x) for n in names}
    yf = {n: getattr(tf.math, n)(xf) for n in names}
    grads = {n: tf.gradients(ys[n], x)[0] for n in names}
    got, got_f, got_g = run([ys, yf, grads], {x: X, xf: X.astype(np.float32)})
    for n in names:
        np.testing.assert_allclose(got[n], TF_BESSEL[n], rtol=1e-12, err_msg=n)
        assert got_f[n].dtype == np.float32
        finite = np.isfinite(got_f[n])            # exp(100) overflows float32: inf, as in TF
        np.testing.assert_allclose(got_f[n][finite], np.asarray(TF_BESSEL[n])[finite],
                                   rtol=1e-6, err_msg=n)
    for n, expected in TF_BESSEL_GRAD.items():
        np.testing.assert_allclose(got_g[n], expected, rtol=1e-12, atol=1e-300, err_msg=n)
    # d/dx I0 = I1; d/dx I1 at 0 is 0.5 (TF 1.15's, the true limit; TF 2.x's kernel says 1.0)
    np.testing.assert_allclose(got_g["bessel_i0"], TF_BESSEL["bessel_i1"], rtol=1e-12)
    assert got_g["bessel_i1"][4] == 0.5
    # TF 1.15's graph: bessel_i0e is one op, bessel_i0 = exp(|x|) * bessel_i0e(x)
    assert ys["bessel_i0e"].op.type == "BesselI0e" and ys["bessel_i0e"].name == "BesselI0e:0"
    assert ys["bessel_i1"].op.type == "Mul" and ys["bessel_i1"].name.startswith("bessel_i1/")
    assert not hasattr(tf, "bessel_i0")           # only under tf.math, as in TF 1.15
    with pytest.raises(TypeError, match="BesselI0e"):
        tf.math.bessel_i0e(tf.constant([1, 2]))
    for n in names:
        assert check_gradients(getattr(tf.math, n), [[-9., -2.5, 0.3, 1.7, 8.5]])


def test_polyval_cumulative_logsumexp_nextafter_match_tf():
    xv = np.array([[0.5, -1., 2.], [3., 0., -0.25]])
    x = tf.placeholder(tf.float64, [2, 3])
    p = tf.math.polyval([tf.constant(2., tf.float64), x, tf.constant(-1.5, tf.float64)], x)
    zero = tf.math.polyval([], x)
    w = tf.constant([[1., 2, 3], [-1, .5, 2]], tf.float64)
    scans = {(ex, rv): tf.math.cumulative_logsumexp(x, axis=1, exclusive=ex, reverse=rv)
             for ex in (False, True) for rv in (False, True)}
    grads = {k: tf.gradients(v * w, x)[0] for k, v in scans.items()}
    na = tf.math.nextafter(np.array([1., 0., -1., 2.], np.float32),
                           np.array([2., -1., -3., 2.], np.float32))
    got = run({"p": p, "pg": tf.gradients(p, x)[0], "zero": zero, "scans": scans,
               "grads": grads, "na": na}, {x: xv})
    # TF 2.15.1's
    np.testing.assert_allclose(got["p"], [[-0.75, 1.5, 10.5], [25.5, -1.5, -1.3125]])
    np.testing.assert_allclose(got["pg"], [[3., -6., 12.], [18., 0., -1.5]])
    np.testing.assert_array_equal(got["zero"], np.zeros([2, 3]))
    assert p.name == "polyval/add_1:0"                      # TF 2.15.1's name
    with pytest.raises(ValueError, match="coeffs must be list"):
        tf.math.polyval((1., 2.), x)
    tf_scans = {  # TF 2.15.1's values and gradients of sum(w * scan)
        (False, False): ([[0.5, 0.7014132779827524, 2.241311296657157],
                          [3., 3.048587351573742, 3.0848568942739116]],
                         [[3.161020128807397, 0.48218876742477496, 2.356791103767827],
                          [1.3135745397602312, 0.115186093785192, 0.07123936645457672]]),
        (False, True): ([[2.241311296657157, 2.048587351573742, 2.],
                         [3.0848568942739116, 0.5759394198788436, -0.25]],
                        [[0.17529039214003667, 0.13396431962582103, 5.690745288234143],
                         [-0.9186437381745072, 0.23535167184469474, 2.183292066329813]]),
        (True, False): ([[-np.inf, 0.5, 0.7014132779827524], [-np.inf, 3., 3.048587351573742]],
                        [[4.45272342858093, 0.5472765714190689, 0.],
                         [2.405148253644867, 0.09485174635513358, 0.]]),
        (True, True): ([[2.048587351573742, 2., -np.inf], [0.5759394198788436, -0.25, -np.inf]],
                       [[0., 0.04742587317756678, 2.9525741268224337],
                        [0., -0.5621765008857981, 0.06217650088579812]]),
    }
    for key, (value, grad) in tf_scans.items():
        np.testing.assert_allclose(got["scans"][key], value, rtol=1e-12, err_msg=str(key))
        np.testing.assert_allclose(got["grads"][key], grad, rtol=1e-12, atol=1e-15,
                                   err_msg=str(key))
    assert scans[(False, False)].op.type == "CumulativeLogsumexp"
    np.testing.assert_array_equal(got["na"], np.array([1.0000001, -1.4e-45, -1.0000001, 2.],
                                                      np.float32))
    assert na.dtype == tf.float32 and na.op.type == "NextAfter"
    with pytest.raises(TypeError, match="NextAfter"):
        tf.math.nextafter(tf.constant([1]), tf.constant([2]))


A = np.array([[1 + 2j, 0.5 - 1j], [-1 + 0.5j, 2 + 0j]])
B = np.array([[0.3 - 0.2j, 1j], [2 - 1j, -0.5 + 0.25j]])


def test_complex_matmul_exp_log_pow_prod_and_their_gradients_match_tf():
    a = tf.placeholder(tf.complex128, [2, 2])
    b = tf.placeholder(tf.complex128, [2, 2])
    w = tf.constant(np.array([[1., -2.], [0.5, 3.]]), tf.complex128)

    def loss(t):                          # a real loss of a complex tensor
        return tf.real(tf.reduce_sum(t * w)) + 0.5 * tf.imag(tf.reduce_sum(t * w))

    stacked = tf.stack([a, b])
    outs = {"mm": tf.matmul(a, b), "mmadj": tf.matmul(a, b, adjoint_a=True),
            "bmm": tf.matmul(stacked, stacked, adjoint_b=True), "exp": tf.exp(a),
            "log": tf.log(a), "pow": tf.pow(a, b),
            "prod": tf.reduce_prod(a, axis=0) * tf.constant([1., 2.], tf.complex128)}
    grads = {k: [g for g in tf.gradients(loss(v), [a, b]) if g is not None]
             for k, v in outs.items()}
    got, got_g = run([outs, grads], {a: A, b: B})
    tf_values = {  # TF 2.15.1's
        "mm": [[0.7 - 2.1j, -2. + 1.625j], [3.8 - 1.65j, -1.5 - 0.5j]],
        "mmadj": [[-2.6 - 0.8j, 2.625 + 1.j], [4.35 - 1.8j, -2. + 1.j]],
        "exp": [[-1.1312043837568135 + 2.4717266720048188j,
                 0.8908079042931287 - 1.3873511113297634j],
                [0.32284458245003306 + 0.17637079922503196j, 7.38905609893065 + 0.j]],
        "pow": [[1.5653640495568337 + 0.2706409332048272j,
                 3.0069059633497446 + 0.33688487598599615j],
                [9.22791276661787 - 15.680085930323747j,
                 0.6965167091827812 + 0.12191994844646645j]],
    }
    tf_grads = {  # TF 2.15.1's gradients (d/da, d/db) of the real loss
        "mm": ([[-0.8 + 2.35j, 2.25 + 3.j], [1.6 - 2.825j, -0.375 - 0.5j]],
               [[1.625 - 2.j, -6.25 + 0.j], [1. + 1.75j, 6. + 0.5j]]),
        "mmadj": ([[-0.8 - 2.35j, 1.6 + 2.825j], [2.25 - 3.j, -0.375 + 0.5j]],
                  [[0.5 + 2.125j, 3. - 7.25j], [-0.25 + 0.5j, 8.5 + 3.j]]),
        "bmm": ([[4.125 + 4.5j, -2. - 4.5j], [-10. + 1.25j, 12.5 + 2.125j]],
                [[-3.65 - 1.4j, 1.0625 + 2.25j], [11.8 - 5.325j, -4.25 + 0.j]]),
        "exp": ([[0.10465895224559585 - 3.0373288638832254j,
                  -0.39426469725649405 - 3.6655101269526558j],
                 [0.20551499103127452 - 7.4742540000077157e-03j,
                  22.16716829679195 + 11.083584148395975j]], None),
        "log": ([[0.5j, -1.6 + 1.2j], [-0.5 + 0.j, 1.5 + 0.75j]], None),
        "pow": ([[-0.11594026497495925 + 0.26186870075400775j,
                  4.147302957597287 + 4.4067876901763965j],
                 [-1.3878698014560076 - 20.29404231363268j,
                  -0.4832306102501642 - 0.4538075608859485j]],
                [[1.9354787066917547 - 1.4708615086866352j,
                  1.8745702459303217 - 7.291477972145572j],
                 [27.250588573300586 - 0.726198360575683j,
                  1.5751284823283314 + 0.47065748421535786j]]),
        "prod": ([[-1.125 - 1.5j, 4. + 2.j], [3. - 2.25j, 0. + 2.5j]], None),
    }
    for key, value in tf_values.items():
        np.testing.assert_allclose(got[key], value, rtol=1e-12, err_msg=key)
    np.testing.assert_allclose(got["bmm"][1], [[1.13, 1.05 - 0.6j], [1.05 + 0.6j, 5.3125]],
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got["prod"], np.array([-2. - 1.5j, 1. - 2.j]) * [1, 2])
    for key, (ga, gb) in tf_grads.items():
        np.testing.assert_allclose(got_g[key][0], ga, rtol=1e-12, atol=1e-15, err_msg=key)
        if gb is not None:
            np.testing.assert_allclose(got_g[key][1], gb, rtol=1e-12, atol=1e-15, err_msg=key)
    assert outs["mm"].dtype == tf.complex128 and outs["mm"].op.type == "MatMul"
    assert tf.exp(tf.constant([1j], tf.complex64)).dtype == tf.complex64
    eq, ne = run([tf.equal(a, b), tf.not_equal(a, b)], {a: A, b: A * np.array([[1, 2], [1, 1]])})
    assert eq.tolist() == [[True, False], [True, True]] and (ne == ~eq).all()
