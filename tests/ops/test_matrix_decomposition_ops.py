"""Tests for sandbox/ops/matrix_decomposition_ops.py: cholesky, qr, svd and
self_adjoint_eig -- values against NumPy and numbers measured with TF 1.15.5 (up to the signs
of the vectors), TF's shapes, gradients against finite differences."""
import numpy as np

import sandbox as tf
from tests.gradcheck import check_gradients


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def spd(n, seed=0, batch=()):
    a = np.random.default_rng(seed).standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def test_cholesky_value_and_gradient():
    a = spd(3, 4)
    np.testing.assert_allclose(run(tf.cholesky(a)), np.linalg.cholesky(a), rtol=1e-10)
    # symmetric perturbations: the gradient is the symmetric one, as TF's
    assert check_gradients(lambda x: tf.cholesky(0.5 * (x + tf.matrix_transpose(x))), [a])


def test_qr_svd_eig_values_shapes_and_gradients():
    x = np.array([[1., 2], [3, 4], [5, 6]])
    q, r = run(tf.qr(x))
    np.testing.assert_allclose(np.abs(r), np.abs([[-5.91608, -7.437357], [0, 0.82807845]]),
                               rtol=1e-5)                      # TF 1.15 (signs may differ)
    np.testing.assert_allclose(q @ r, x, atol=1e-12)
    assert type(tf.qr(x)).__name__ == "Qr"                     # a namedtuple, as TF's
    assert [t.shape.as_list() for t in tf.qr(tf.ones([3, 2]), full_matrices=True)] == \
        [[3, 3], [3, 2]]
    s, u, v = tf.svd(tf.ones([4, 3, 2]))
    assert [s.shape.as_list(), u.shape.as_list(), v.shape.as_list()] == \
        [[4, 2], [4, 3, 2], [4, 2, 2]]
    assert tf.svd(tf.ones([3, 2]), compute_uv=False).shape.as_list() == [2]
    np.testing.assert_allclose(run(tf.svd(tf.constant([[1., 2], [3, 4]]), compute_uv=False)),
                               [5.4649854, 0.36596614], rtol=1e-5)   # TF 1.15
    e, vecs = run(tf.self_adjoint_eig(tf.constant([[2., 1], [1, 3]])))
    np.testing.assert_allclose(e, [1.3819659, 3.6180334], rtol=1e-5)  # TF 1.15
    np.testing.assert_allclose(np.abs(vecs), [[0.8506507, 0.52573115], [0.52573115, 0.8506507]],
                               rtol=1e-5)
    assert check_gradients(lambda m: tf.qr(m)[1], [x])
    assert check_gradients(lambda m: tf.qr(m)[0], [x])
    assert check_gradients(lambda m: tf.svd(m, compute_uv=False), [x])
    # u and v: only sign-invariant functions of them have a gradient (u_i v_i^T is one)
    assert check_gradients(lambda m: tf.matmul(*tf.svd(m)[1:], transpose_b=True), [x[:2]])
    sym = lambda m: 0.5 * (m + tf.matrix_transpose(m))  # noqa: E731
    a = spd(3, 5)
    assert check_gradients(lambda m: tf.self_adjoint_eigvals(sym(m)), [a])
    assert check_gradients(lambda m: tf.abs(tf.self_adjoint_eig(sym(m))[1]), [a])
