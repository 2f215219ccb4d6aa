"""Tests for sandbox/ops/diag_ops.py: diag, diag_part, matrix_diag, matrix_diag_part,
matrix_set_diag, matrix_band_part and trace -- values against NumPy and TF 1.15.5, shapes and
errors as TF's, gradients against finite differences."""
import numpy as np
import pytest

import sandbox as tf
from tests.gradcheck import check_gradients


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def test_diag_and_diag_part():
    d = np.array([[1, 2], [3, 4]])
    out = run(tf.diag(d))
    assert out.shape == (2, 2, 2, 2)
    expected = np.zeros((2, 2, 2, 2), int)
    for i in range(2):
        for j in range(2):
            expected[i, j, i, j] = d[i, j]
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(run(tf.diag_part(out)), d)
    assert tf.diag_part(tf.ones([2, 3, 2, 3])).shape.as_list() == [2, 3]
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.diag_part(tf.ones([2, 3, 3, 3]))                    # TF 1.15's message
    assert check_gradients(tf.diag, [[1., 2, 3]])
    assert check_gradients(tf.diag_part, [np.arange(16.).reshape(2, 2, 2, 2)])


def test_matrix_diag_family():
    x = np.arange(24.).reshape(2, 3, 4)
    np.testing.assert_array_equal(run(tf.matrix_diag_part(x)),
                                  np.diagonal(x, axis1=-2, axis2=-1))
    np.testing.assert_array_equal(run(tf.matrix_diag([[1, 2], [3, 4]])),
                                  [np.diag([1, 2]), np.diag([3, 4])])
    assert tf.matrix_diag(tf.ones([2, 3])).shape.as_list() == [2, 3, 3]
    set_ = run(tf.matrix_set_diag(x, np.zeros((2, 3))))
    expected = x.copy()
    expected[:, [0, 1, 2], [0, 1, 2]] = 0
    np.testing.assert_array_equal(set_, expected)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.matrix_set_diag(tf.ones([2, 3, 4]), tf.zeros([2, 4]))
    assert tf.matrix_diag(tf.ones([2])).op.name.startswith("diag")   # TF's default name
    assert check_gradients(tf.matrix_diag, [[[1., 2], [3, 4]]])
    assert check_gradients(tf.matrix_diag_part, [x])
    assert check_gradients(tf.matrix_set_diag, [x, np.ones((2, 3))])


def test_matrix_band_part_matches_tf():
    got = run(tf.matrix_band_part(tf.reshape(tf.range(16.), [4, 4]), 1, -1))
    np.testing.assert_array_equal(got, [[0, 1, 2, 3], [4, 5, 6, 7], [0, 9, 10, 11],
                                        [0, 0, 14, 15]])       # TF 1.15
    lower = run(tf.matrix_band_part(np.ones((2, 3, 3)), -1, 0))
    np.testing.assert_array_equal(lower, np.tril(np.ones((2, 3, 3))))
    assert check_gradients(lambda a: tf.matrix_band_part(a, 0, 1), [np.ones((3, 3))])


def test_trace():
    x = np.arange(18.).reshape(2, 3, 3)
    t = tf.trace(x)
    assert t.shape.as_list() == [2]
    np.testing.assert_array_equal(run(t), np.trace(x, axis1=-2, axis2=-1))
    assert check_gradients(tf.trace, [x])
