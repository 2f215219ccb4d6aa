"""Tests for sandbox/ops/linalg_ops.py: eye, norm, tensordot, inverse, determinant, solve and
cross -- values against NumPy and numbers measured with TF 1.15.5, gradients against finite
differences, TF's shapes and errors."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def spd(n, seed=0, batch=()):
    a = np.random.default_rng(seed).standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def test_eye_shapes_and_values():
    e = tf.eye(2, 3, batch_shape=[2])
    assert e.shape.as_list() == [2, 2, 3]                      # TF 1.15: (2, 2, 3)
    np.testing.assert_array_equal(run(e), np.broadcast_to(np.eye(2, 3), (2, 2, 3)))
    i = tf.eye(3, dtype=tf.int32)
    assert i.dtype == tf.int32
    np.testing.assert_array_equal(run(i), np.eye(3, dtype=np.int32))


# TF 1.15.5 on [[3, 4], [1, 2]]: (all entries, axis=1, axis=[0, 1])
NORMS = {"euclidean": (5.477226, [5.0, 2.236068], 5.477226),
         1: (10.0, [7.0, 3.0], 6.0),
         2: (5.477226, [5.0, 2.236068], 5.464986),
         np.inf: (4.0, [4.0, 2.0], 7.0)}


@pytest.mark.parametrize("ord_", list(NORMS))
def test_norm_matches_tf(ord_):
    x = tf.constant([[3., 4], [1, 2]])
    whole, rows, matrix = run([tf.norm(x, ord=ord_), tf.norm(x, ord=ord_, axis=1),
                               tf.norm(x, ord=ord_, axis=[0, 1])])
    np.testing.assert_allclose(whole, NORMS[ord_][0], rtol=1e-5)
    np.testing.assert_allclose(rows, NORMS[ord_][1], rtol=1e-5)
    np.testing.assert_allclose(matrix, NORMS[ord_][2], rtol=1e-5)


def test_norm_p_keepdims_and_errors():
    x = tf.constant([[3., 4], [1, 2]])
    np.testing.assert_allclose(run(tf.norm(x, ord=3, axis=1)), [4.4979415, 2.0800838],
                               rtol=1e-5)                      # TF 1.15
    assert tf.norm(x, keepdims=True).shape.as_list() == [1, 1]
    assert tf.norm(x, axis=-1, keepdims=True).shape.as_list() == [2, 1]
    np.testing.assert_allclose(run(tf.norm(x, "fro", axis=(0, 1))), 5.477226, rtol=1e-5)
    with pytest.raises(ValueError, match="supported vector norm, got fro"):
        tf.norm(x, ord="fro")                                  # TF's error too
    assert check_gradients(lambda a: tf.norm(a, axis=1), [[[3., 4], [1, 2]]])
    assert check_gradients(lambda a: tf.norm(a, ord=1, axis=[0, 1]), [[[3., -4], [1, 2]]])


def test_tensordot_shapes_values_and_gradient():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 2, 5))
    got = run(tf.tensordot(a, b, [[0, 1], [1, 0]]))
    np.testing.assert_allclose(got, np.tensordot(a, b, [[0, 1], [1, 0]]), rtol=1e-6)
    assert tf.tensordot(tf.ones([2, 3, 4]), tf.ones([4, 5]), 1).shape.as_list() == [2, 3, 5]
    assert tf.tensordot(tf.ones([2, 3]), tf.ones([4]), 0).shape.as_list() == [2, 3, 4]
    p = tf.placeholder(tf.float32, [None, 3])
    assert tf.tensordot(p, tf.ones([3, 5]), 1).shape.as_list() == [None, 5]
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.tensordot(tf.ones([2, 3]), tf.ones([4, 3]), [[1], [0]])
    assert check_gradients(lambda x, y: tf.tensordot(x, y, [[0, 1], [1, 0]]), [a, b])


def test_inverse_determinant_solve_values_and_gradients():
    a = spd(3, 1)
    b = np.random.default_rng(2).standard_normal((3, 2))
    inv, det, sol, sol_t = run([tf.matrix_inverse(a), tf.matrix_determinant(a),
                                tf.matrix_solve(a + np.triu(a), b),
                                tf.matrix_solve(a + np.triu(a), b, adjoint=True)])
    np.testing.assert_allclose(inv, np.linalg.inv(a), rtol=1e-10)
    np.testing.assert_allclose(det, np.linalg.det(a), rtol=1e-10)
    np.testing.assert_allclose(sol, np.linalg.solve(a + np.triu(a), b), rtol=1e-10)
    np.testing.assert_allclose(sol_t, np.linalg.solve((a + np.triu(a)).T, b), rtol=1e-10)
    assert tf.matrix_determinant(tf.ones([5, 3, 3])).shape.as_list() == [5]
    assert check_gradients(tf.matrix_inverse, [a])
    assert check_gradients(lambda x: tf.matrix_inverse(x, adjoint=True), [a + np.triu(a)])
    assert check_gradients(tf.matrix_determinant, [spd(3, 3, (2,))])
    assert check_gradients(tf.matrix_solve, [a + np.triu(a), b])
    assert check_gradients(lambda x, y: tf.matrix_solve(x, y, adjoint=True),
                           [a + np.triu(a), b])


def test_linalg_errors_as_tf():
    with pytest.raises(errors.InvalidArgumentError, match="Input is not invertible."):
        run(tf.matrix_inverse(tf.zeros([2, 2])))
    with pytest.raises(errors.InvalidArgumentError, match="Cholesky decomposition was not "
                                                          "successful"):
        run(tf.cholesky(tf.constant([[1., 2], [2, 1]])))
    with pytest.raises(errors.InvalidArgumentError, match="Input matrix is not invertible."):
        run(tf.matrix_solve(tf.zeros([2, 2]), tf.ones([2, 1])))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.matrix_inverse(tf.zeros([2, 3]))
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values"):
        tf.matrix_inverse(tf.zeros([2, 2], tf.int32))


def test_cross():
    a, b = np.random.default_rng(6).standard_normal((2, 2, 3))
    np.testing.assert_allclose(run(tf.cross(a, b)), np.cross(a, b))
    with pytest.raises(ValueError, match="Dimension must be 3 but is 4"):
        tf.cross(tf.ones([2, 4]), tf.ones([2, 4]))
    assert check_gradients(tf.cross, [a, b])


def test_triangular_and_cholesky_solve_match_tf():
    a, b = np.array([[2., 0], [1, 3]]), np.array([[1.], [2]])
    got = run([tf.matrix_triangular_solve(a, b), tf.matrix_triangular_solve(a, b, lower=False),
               tf.matrix_triangular_solve(a, b, adjoint=True),
               tf.cholesky_solve(np.linalg.cholesky(a @ a.T), b)])
    # TF 1.15.5
    for g, want in zip(got, [[[0.5], [0.5]], [[0.5], [2 / 3]], [[1 / 6], [2 / 3]],
                             [[1 / 6], [1 / 6]]]):
        np.testing.assert_allclose(g, want, rtol=1e-12)
    with pytest.raises(errors.InvalidArgumentError, match="Input matrix is not invertible."):
        run(tf.matrix_triangular_solve(np.zeros((2, 2)), b))
    full = np.array([[2., 5], [1, 3]])          # the upper 5 is not read: no gradient there
    assert check_gradients(tf.matrix_triangular_solve, [full, b])
    assert check_gradients(lambda m, r: tf.matrix_triangular_solve(m, r, lower=False,
                                                                   adjoint=True), [full, b])


def test_matrix_solve_ls_matches_tf():
    a, b = np.array([[1., 2], [3, 4], [5, 7]]), np.array([[1.], [2], [2]])
    got = run([tf.matrix_solve_ls(a, b), tf.matrix_solve_ls(a, b, l2_regularizer=0.5),
               tf.matrix_solve_ls(a.T, b[:2]), tf.matrix_solve_ls(a, b, fast=False)])
    # TF 1.15.5
    for g, want in zip(got, [[[-0.21428571], [0.5]], [[0.08301887], [0.28679245]],
                             [[0.92857143], [-0.21428571], [0.14285714]],
                             [[-0.21428571], [0.5]]]):
        np.testing.assert_allclose(g, want, rtol=1e-7)
    assert check_gradients(tf.matrix_solve_ls, [a, b])
    assert check_gradients(lambda x, y: tf.matrix_solve_ls(x, y, l2_regularizer=0.5),
                           [a.T, b[:2]])
    m = tf.constant(a)
    with pytest.raises(ValueError, match="Gradient not defined for fast=False"):
        tf.gradients(tf.matrix_solve_ls(m, b, fast=False), m)
