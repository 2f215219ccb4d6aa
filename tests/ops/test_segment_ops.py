"""Tests for sandbox/ops/segment_ops.py: the sorted and unsorted segment reductions -- values
measured with TF 1.15.5 (empty segments included), errors, gradients by finite
differences."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients

F32_MAX = np.finfo(np.float32).max
I32_MAX = np.iinfo(np.int32).max


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def test_sorted_segments_match_tf():
    data, ids = [1., 2, 3, 4], [0, 0, 2, 2]
    np.testing.assert_allclose(run(tf.segment_mean(data, ids)), [1.5, 0, 3.5])   # TF 1.15
    np.testing.assert_allclose(run(tf.segment_max(data, ids)), [2, 0, 4])
    np.testing.assert_array_equal(run(tf.segment_min([1, 2, 3, 4], ids)), [1, 0, 3])
    np.testing.assert_allclose(run(tf.segment_prod(data, ids)), [2, 1, 12])
    with pytest.raises(errors.InvalidArgumentError, match="segment ids are not increasing"):
        run(tf.segment_mean(data, [0, 2, 1, 2]))


def test_unsorted_segments_match_tf():
    data, ids = [1., 2, 3, 4], [0, 0, 2, 2]
    np.testing.assert_allclose(run(tf.unsorted_segment_max(data, ids, 4)),
                               [2, -F32_MAX, 4, -F32_MAX])                    # TF 1.15
    np.testing.assert_array_equal(run(tf.unsorted_segment_min([1, 2, 3, 4], ids, 4)),
                                  [1, I32_MAX, 3, I32_MAX])
    np.testing.assert_allclose(run(tf.unsorted_segment_prod(data, ids, 4)), [2, 1, 12, 1])
    np.testing.assert_allclose(run(tf.unsorted_segment_mean(data, [0, 0, 2, -1], 4)),
                               [1.5, 0, 3, 0])
    np.testing.assert_allclose(run(tf.unsorted_segment_sqrt_n(data, ids, 4)),
                               [2.1213205, 0, 4.9497476, 0], rtol=1e-6)
    got = run(tf.unsorted_segment_max([[1., 2], [3, 4]], [1, 1], 3))
    np.testing.assert_allclose(got, [[-F32_MAX] * 2, [3, 4], [-F32_MAX] * 2])
    assert tf.unsorted_segment_max(tf.ones([4, 3]), ids, 5).shape.as_list() == [5, 3]


def test_segment_gradients():
    data = np.array([[1., 5], [3, 2], [3, 0.5], [4, 7], [2, 2]])
    ids = np.array([0, 0, 0, 2, 2])
    for fn in (tf.segment_mean, tf.segment_max, tf.segment_min, tf.segment_prod):
        assert check_gradients(lambda d: fn(d, ids), [data])
    shuffled = np.array([2, 0, 1, 0, -1])
    for fn in (tf.unsorted_segment_max, tf.unsorted_segment_min, tf.unsorted_segment_prod,
               tf.unsorted_segment_mean, tf.unsorted_segment_sqrt_n):
        assert check_gradients(lambda d: fn(d, shuffled, 3), [data])
    # a product with a zero in it: the zero's gradient is the product of the others
    assert check_gradients(lambda d: tf.segment_prod(d, [0, 0, 0, 1]), [[2., 0, 3, 4]])
    # ties in a max split the gradient, as TF's
    x = tf.constant([1., 3, 3])
    g = run(tf.gradients(tf.segment_max(x, [0, 0, 0]), x)[0])
    np.testing.assert_allclose(g, [0, 0.5, 0.5])


def test_bincount_matches_tf():
    np.testing.assert_array_equal(run(tf.bincount([1, 1, 3])), [0, 2, 0, 1])    # TF 1.15
    got = run(tf.bincount([1, 1, 3], minlength=6, weights=[1., 2, 3]))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, [0, 3, 0, 3, 0, 0])
    np.testing.assert_array_equal(run(tf.bincount([1, 1, 3], maxlength=2)), [0, 2])
