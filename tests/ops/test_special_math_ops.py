"""Tests for sandbox/ops/special_math_ops.py: einsum (the common forms, against NumPy, and
their gradients) and lgamma, digamma, polygamma, igamma, igammac, lbeta (values measured with
TF 1.15.5, gradients by finite differences)."""
import numpy as np
import pytest

import sandbox as tf
from tests.gradcheck import check_gradients

FORMS = [("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
         ("ij->ji", [(2, 3)]), ("ii->", [(3, 3)]), ("ii->i", [(3, 3)]),
         ("i,j->ij", [(2,), (3,)]), ("ij->j", [(2, 3)]), ("ij->", [(2, 3)]),
         ("ij,ij->i", [(2, 3), (2, 3)]), ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 2)]),
         ("ij,jk", [(2, 3), (3, 4)]), ("i,i", [(3,), (3,)])]


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


@pytest.mark.parametrize("equation,shapes", FORMS)
def test_einsum_forms_values_shapes_gradients(equation, shapes):
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal(s) for s in shapes]
    y = tf.einsum(equation, *xs)
    expected = np.einsum(equation, *xs)
    assert y.shape.as_list() == list(expected.shape)
    np.testing.assert_allclose(run(y), expected, rtol=1e-10)
    assert check_gradients(lambda *a: tf.einsum(equation, *a), xs)


def test_einsum_errors():
    with pytest.raises(ValueError, match='Got 1 arguments for equation "ij,jk->ik", '
                                         'expecting 2'):                  # TF 1.15's text
        tf.einsum("ij,jk->ik", tf.ones([2, 3]))
    with pytest.raises(ValueError):
        tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([4, 5]))


def test_special_functions_match_tf():
    # TF 1.15.5's values
    np.testing.assert_allclose(run(tf.lgamma([0.5, 1, 3, -0.5, 0])),
                               [0.5723649, 0, 0.6931472, 1.2655121, np.inf], rtol=1e-6)
    np.testing.assert_allclose(run(tf.digamma([0.5, 1, 3, -0.5, 0])),
                               [-1.9635108, -0.5772159, 0.9227842, 0.03648996, np.inf],
                               rtol=1e-5)
    np.testing.assert_allclose(run(tf.digamma([-1., -2.5, 1e-3])),
                               [np.inf, 1.1031568, -1000.57556], rtol=1e-5)
    np.testing.assert_allclose(run(tf.polygamma(1., [0.5, 2.])), [4.934802, 0.6449341],
                               rtol=1e-6)
    np.testing.assert_allclose(run(tf.igamma([0.5, 1, 3], [1., 2, 3])),
                               [0.84270084, 0.86466473, 0.5768099], rtol=1e-6)
    np.testing.assert_allclose(run(tf.igammac([0.5, 1, 3], [1., 2, 3])),
                               [0.15729916, 0.13533528, 0.4231901], rtol=1e-5)
    np.testing.assert_allclose(run(tf.lbeta([[1., 2, 3]])), [-4.0943446], rtol=1e-6)


def test_special_function_gradients():
    assert check_gradients(tf.lgamma, [[0.5, 2.5, -0.3]])
    assert check_gradients(tf.digamma, [[0.5, 2.5, -0.3]])
    assert check_gradients(tf.igamma, [[0.5, 2.5], [1., 2.]], rtol=1e-3)
    assert check_gradients(tf.igammac, [[0.5, 2.5], [1., 2.]], rtol=1e-3)
    assert check_gradients(tf.lbeta, [[[1., 2, 3]]])


def test_zeta_and_betainc_match_tf():
    np.testing.assert_allclose(run(tf.zeta([2., 3.], [1., 2.])), [1.644934, 0.20205691],
                               rtol=1e-6)                                       # TF 1.15
    np.testing.assert_allclose(run(tf.betainc([0.5, 2.], [1., 3.], [0.2, 0.7])),
                               [0.44721356, 0.9163], rtol=1e-6)
    assert check_gradients(lambda q: tf.zeta(np.array([2., 3.]), q), [[1.5, 2.]])
    assert check_gradients(lambda x: tf.betainc(np.array([0.5, 2.]), np.array([1., 3.]), x),
                           [[0.2, 0.7]])
