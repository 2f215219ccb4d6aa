"""Tests for sandbox/ops/gradients_impl.py: tf.hessians against TF 1.15.5 and against
finite differences of the gradient."""
import numpy as np
import pytest

import sandbox as tf

M = np.array([[0., 1, 0], [0, 0, 0], [0, 0, 0]], np.float32)


def test_hessian_matches_tf():
    x = tf.constant([1., 2, 3])
    y = tf.reduce_sum(x ** 3) + tf.tensordot(x, tf.tensordot(M, x, 1), 1)
    h = tf.hessians(y, x)
    assert h[0].shape.as_list() == [3, 3]
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(h[0]), [[6, 1, 0], [1, 12, 0], [0, 0, 18]])  # TF


def test_hessian_of_a_matrix_is_shape_twice_and_symmetric():
    a = tf.constant([[1., 2], [3, 4]], tf.float64)
    h = tf.hessians(tf.reduce_sum(a * a * a) + tf.reduce_sum(tf.matmul(a, a)), a)[0]
    assert h.shape.as_list() == [2, 2, 2, 2]                                   # TF 1.15
    with tf.Session() as sess:
        hv = sess.run(h).reshape(4, 4)
    np.testing.assert_allclose(hv, hv.T)
    av = np.array([[1., 2], [3, 4]])

    def grad(v):      # the analytic gradient of sum(a^3) + sum(a @ a)
        ones = np.ones((2, 2))
        return 3 * v * v + ones @ v.T + v.T @ ones
    eps = 1e-6
    for k in range(4):
        d = np.zeros(4)
        d[k] = eps
        fd = (grad(av + d.reshape(2, 2)) - grad(av - d.reshape(2, 2))) / (2 * eps)
        np.testing.assert_allclose(hv[k], fd.reshape(-1), rtol=1e-6, atol=1e-6)


def test_hessian_needs_a_known_shape():
    p = tf.placeholder(tf.float32, [None])
    with pytest.raises(ValueError, match="fully known shape"):
        tf.hessians(tf.reduce_sum(p * p), p)
