"""Tests for sandbox/ops/tensor_scatter_ops.py: tensor_scatter_update/add/sub -- values and
errors measured with TF 1.15.5, gradients by finite differences."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients

T = [[1., 2], [3, 4], [5, 6]]


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def test_values_match_tf():
    np.testing.assert_array_equal(run(tf.tensor_scatter_update(T, [[0], [2]],
                                                               [[9., 9], [8, 8]])),
                                  [[9, 9], [3, 4], [8, 8]])                    # TF 1.15
    np.testing.assert_array_equal(run(tf.tensor_scatter_add(T, [[0, 1], [0, 1]], [10., 20])),
                                  [[1, 32], [3, 4], [5, 6]])
    np.testing.assert_array_equal(run(tf.tensor_scatter_sub(T, [[1]], [[1., 1]])),
                                  [[1, 2], [2, 3], [5, 6]])
    assert tf.tensor_scatter_nd_update is tf.tensor_scatter_update


def test_errors_match_tf():
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[0\] = \[5\] does not "
                                                          r"index into shape \[3,2\]"):
        run(tf.tensor_scatter_update(T, [[5]], [[1., 1]]))
    with pytest.raises(ValueError, match=r"The inner 1 dimensions of output.shape=\[3,2\] "
                                         r"must match the inner 1 dimensions of "
                                         r"updates.shape=\[1,3\]"):
        tf.tensor_scatter_update(T, [[0]], [[1., 1, 1]])


def test_gradients():
    x = tf.constant([1., 2])
    g = run(tf.gradients(tf.tensor_scatter_update(tf.stack([x, x]), [[0]], [x * 3]), x)[0])
    np.testing.assert_array_equal(g, [4, 4])                                   # TF 1.15
    idx = [[0, 1], [2, 0], [0, 1]]
    for fn in (tf.tensor_scatter_add, tf.tensor_scatter_sub):
        assert check_gradients(lambda t, u: fn(t, idx, u), [T, [1., 2, 3]])
    assert check_gradients(lambda t, u: tf.tensor_scatter_update(t, [[0, 1], [2, 0]], u),
                           [T, [1., 2]])
