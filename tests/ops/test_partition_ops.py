"""Tests for sandbox/ops/partition_ops.py: dynamic_partition and dynamic_stitch -- values
measured with TF 1.15.5, errors, gradients by finite differences."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def test_dynamic_partition():
    parts = run(tf.dynamic_partition([10, 20, 30, 40], [0, 1, 0, 2], 3))
    assert [p.tolist() for p in parts] == [[10, 30], [20], [40]]        # TF 1.15
    rows = tf.dynamic_partition(tf.ones([4, 3]), [0, 1, 0, 1], 2)
    assert [r.shape.as_list() for r in rows] == [[None, 3], [None, 3]]
    with pytest.raises(errors.InvalidArgumentError, match=r"partitions\[1\] = 5 is not in "
                                                          r"\[0, 3\)"):
        run(tf.dynamic_partition([1, 2], [0, 5], 3))
    data = np.arange(12.).reshape(4, 3)
    assert check_gradients(lambda d: tf.dynamic_partition(d, [1, 0, 1, 1], 2)[1] * 2, [data])


def test_dynamic_stitch():
    merged = tf.dynamic_stitch([[0, 2], [1, 3]], [[1., 2], [3., 4]])
    assert merged.shape.as_list() == [4]
    np.testing.assert_array_equal(run(merged), [1, 3, 2, 4])
    # a later index wins
    np.testing.assert_array_equal(run(tf.dynamic_stitch([[0, 1], [1]], [[5, 6], [7]])), [5, 7])
    with pytest.raises(TypeError, match="have types \\[float32, int32\\] that don't all "
                                        "match"):                        # TF's text
        tf.dynamic_stitch([[0], [1]], [[1.], [3]])
    assert check_gradients(lambda a, b: tf.dynamic_stitch([[0, 2], [1, 3]], [a, b]),
                           [[[1., 2], [3, 4]], [[5., 6], [7, 8]]])


def test_partition_then_stitch_round_trip():
    data = np.random.default_rng(0).standard_normal((5, 2))
    parts = [1, 0, 1, 2, 0]
    idx = tf.dynamic_partition(tf.range(5), parts, 3)
    pieces = tf.dynamic_partition(data, parts, 3)
    np.testing.assert_allclose(run(tf.dynamic_stitch(idx, pieces)), data)


def test_stitch_gradient_of_an_overwritten_row_as_tf():
    a, b = tf.constant([5., 6]), tf.constant([7.])
    merged = tf.dynamic_stitch([[0, 1], [1]], [a, b])
    with tf.Session() as sess:
        value, (ga, gb) = sess.run([merged, tf.gradients(merged * [1., 10], [a, b])])
    # TF 1.15.5: [5. 7.], [1. 10.] and [10.] -- the overwritten 6 gets its index's gradient
    np.testing.assert_array_equal(value, [5, 7])
    np.testing.assert_array_equal(ga, [1, 10])
    np.testing.assert_array_equal(gb, [10])
