"""Tests for sandbox/ops/space_ops.py: space_to_depth, depth_to_space, space_to_batch_nd and
batch_to_space_nd -- values measured with TF 1.15.5, shapes, round trips, gradients."""
import numpy as np
import pytest

import sandbox as tf
from tests.gradcheck import check_gradients


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def test_space_to_depth_and_back_match_tf():
    x = tf.reshape(tf.range(16), [1, 4, 4, 1])
    s2d = run(tf.space_to_depth(x, 2))
    assert s2d.shape == (1, 2, 2, 4)
    np.testing.assert_array_equal(s2d.ravel(), [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11,
                                                14, 15])                # TF 1.15
    d2s = run(tf.depth_to_space(tf.reshape(tf.range(16), [1, 2, 2, 4]), 2))
    assert d2s.shape == (1, 4, 4, 1)
    np.testing.assert_array_equal(d2s.ravel(), [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11,
                                                14, 15])                # TF 1.15
    with pytest.raises(ValueError, match="evenly divisible by 2 but is 3"):
        tf.space_to_depth(tf.ones([1, 3, 4, 1]), 2)
    data = np.random.default_rng(0).standard_normal((1, 4, 2, 4))
    assert check_gradients(lambda a: tf.space_to_depth(a, 2), [data])
    assert check_gradients(lambda a: tf.depth_to_space(a, 2), [data])


def test_space_to_batch_nd_matches_tf_and_round_trips():
    x = tf.reshape(tf.range(16), [1, 4, 4, 1])
    got = run(tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]))
    assert got.shape == (4, 2, 2, 1)
    np.testing.assert_array_equal(got.ravel(), [0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7,
                                                13, 15])                # TF 1.15
    assert tf.space_to_batch_nd(tf.ones([2, 3, 4, 1]), [2, 2],
                                [[1, 0], [0, 0]]).shape.as_list() == [8, 2, 2, 1]
    assert tf.batch_to_space_nd(tf.ones([8, 2, 2, 1]), [2, 2],
                                [[1, 0], [0, 0]]).shape.as_list() == [2, 3, 4, 1]
    data = np.random.default_rng(1).standard_normal((2, 3, 4, 1))
    there = tf.space_to_batch_nd(data, [2, 2], [[1, 0], [0, 0]])
    np.testing.assert_allclose(run(tf.batch_to_space_nd(there, [2, 2], [[1, 0], [0, 0]])),
                               data)
    np.testing.assert_allclose(run(tf.space_to_batch(data[:, :2], [[0, 0], [0, 0]], 2)),
                               run(tf.space_to_batch_nd(data[:, :2], [2, 2], [[0, 0], [0, 0]])))
    assert check_gradients(lambda a: tf.space_to_batch_nd(a, [2, 2], [[1, 0], [0, 0]]),
                           [data])
    assert check_gradients(lambda a: tf.batch_to_space_nd(a, [2, 1], [[1, 0], [0, 0]]),
                           [data[:, :2]])


def test_required_space_to_batch_paddings_matches_tf():
    paddings, crops = run(tf.required_space_to_batch_paddings([5, 7], [2, 3]))
    np.testing.assert_array_equal(paddings, [[0, 1], [0, 2]])                  # TF 1.15
    np.testing.assert_array_equal(crops, [[0, 1], [0, 2]])
    paddings, crops = run(tf.required_space_to_batch_paddings(
        [5, 7], [2, 3], base_paddings=[[1, 0], [0, 2]]))
    np.testing.assert_array_equal(paddings, [[1, 0], [0, 2]])
    np.testing.assert_array_equal(crops, [[0, 0], [0, 0]])


IMAGE = np.arange(1., 17.).reshape(1, 4, 4, 1)


@pytest.mark.parametrize("ksizes,strides,rates,padding,expected", [
    # TF 1.15.5
    ([1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID",
     [1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16]),
    ([1, 2, 2, 1], [1, 1, 1, 1], [1, 2, 2, 1], "VALID",
     [1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16]),
    ([1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME",
     [1, 2, 3, 5, 6, 7, 9, 10, 11, 3, 4, 0, 7, 8, 0, 11, 12, 0, 9, 10, 11, 13, 14, 15, 0, 0,
      0, 11, 12, 0, 15, 16, 0, 0, 0, 0]),
])
def test_extract_image_patches_matches_tf(ksizes, strides, rates, padding, expected):
    p = tf.extract_image_patches(IMAGE, ksizes, strides, rates, padding)
    got = run(p)
    assert p.shape.as_list() == list(got.shape)
    np.testing.assert_array_equal(got.ravel(), expected)
    assert check_gradients(lambda a: tf.extract_image_patches(a, ksizes, strides, rates,
                                                              padding), [IMAGE])


def test_extract_image_patches_gradient_counts_overlaps_as_tf():
    x = tf.constant(IMAGE)
    g = run(tf.gradients(tf.reduce_sum(tf.extract_image_patches(
        x, [1, 3, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME")), x)[0])
    np.testing.assert_array_equal(g.ravel(), [4, 6, 6, 4, 6, 9, 9, 6, 6, 9, 9, 6, 4, 6, 6, 4])
