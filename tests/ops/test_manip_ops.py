"""Tests for sandbox/ops/manip_ops.py: roll, broadcast_to, broadcast_static_shape,
broadcast_dynamic_shape, meshgrid, reverse_sequence, identity_n, ensure_shape, where_v2 and
repeat -- values measured with TF 1.15.5, TF's errors, gradients by finite differences."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def test_roll():
    got = run(tf.roll([[1, 2, 3], [4, 5, 6]], shift=[1, -1], axis=[0, 1]))
    np.testing.assert_array_equal(got, [[5, 6, 4], [2, 3, 1]])      # TF 1.15
    assert tf.roll([1, 2], 1, 0).op.type == "Roll"
    assert check_gradients(lambda x: tf.roll(x, 2, 1), [np.arange(6.).reshape(2, 3)])


def test_broadcasting_helpers():
    np.testing.assert_array_equal(run(tf.broadcast_to([1, 2, 3], [2, 3])),
                                  [[1, 2, 3], [1, 2, 3]])
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.broadcast_to([1, 2, 3], [2, 4])
    assert check_gradients(lambda x: tf.broadcast_to(x, [2, 2, 3]), [[[1., 2, 3]]])
    assert tf.broadcast_static_shape(tf.TensorShape([2, 1]),
                                     tf.TensorShape([3])).as_list() == [2, 3]
    with pytest.raises(ValueError, match=r"Incompatible shapes for broadcasting: \(2, 2\) "
                                         r"and \(3,\)"):
        tf.broadcast_static_shape(tf.TensorShape([2, 2]), tf.TensorShape([3]))
    np.testing.assert_array_equal(run(tf.broadcast_dynamic_shape([2, 1], [3])), [2, 3])
    with pytest.raises(errors.InvalidArgumentError, match=r"Incompatible shapes: \[2,2\] vs. "
                                                          r"\[3\]"):
        run(tf.broadcast_dynamic_shape([2, 2], [3]))


def test_meshgrid_both_indexings():
    xy = run(tf.meshgrid([1, 2, 3], [4, 5]))
    np.testing.assert_array_equal(xy[0], [[1, 2, 3], [1, 2, 3]])     # TF 1.15
    np.testing.assert_array_equal(xy[1], [[4, 4, 4], [5, 5, 5]])
    ij = run(tf.meshgrid([1, 2, 3], [4, 5], indexing="ij"))
    for got, want in zip(ij, np.meshgrid([1, 2, 3], [4, 5], indexing="ij")):
        np.testing.assert_array_equal(got, want)
    assert check_gradients(lambda a, b: tf.meshgrid(a, b)[0] * tf.meshgrid(a, b)[1],
                           [[1., 2, 3], [4., 5]])


def test_reverse_sequence():
    x = [[1, 2, 3], [4, 5, 6]]
    np.testing.assert_array_equal(run(tf.reverse_sequence(x, [2, 3], seq_axis=1,
                                                          batch_axis=0)),
                                  [[2, 1, 3], [6, 5, 4]])             # TF 1.15
    np.testing.assert_array_equal(run(tf.reverse_sequence(x, [2, 3], seq_dim=1, batch_dim=0)),
                                  [[2, 1, 3], [6, 5, 4]])
    t = np.arange(24.).reshape(3, 4, 2)                              # time-major
    got = run(tf.reverse_sequence(t, [1, 3, 2, 0], seq_axis=0, batch_axis=1))
    assert got[0, 1, 0] == t[2, 1, 0] and got[2, 1, 0] == t[0, 1, 0] and got[1, 3, 0] == t[1, 3, 0]
    assert check_gradients(lambda a: tf.reverse_sequence(a, [1, 3], 1), [np.ones((2, 3)) *
                                                                         np.arange(3)])


def test_identity_n_and_ensure_shape():
    a, b = run(tf.identity_n([1, [2., 3]]))
    assert a == 1 and list(b) == [2., 3.]
    assert check_gradients(lambda x, y: tf.identity_n([x, y])[0] * tf.identity_n([x, y])[1],
                           [[1., 2], [3., 4]])
    np.testing.assert_array_equal(run(tf.ensure_shape([1, 2, 3], [3])), [1, 2, 3])
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are "
                                         "4 and 3"):                 # TF 1.15's text
        tf.ensure_shape([1, 2, 3], [4])
    p = tf.placeholder(tf.float32)
    e = tf.ensure_shape(p, [None, 4])
    assert e.shape.as_list() == [None, 4]
    with pytest.raises(errors.InvalidArgumentError, match=r"\[2,3\] is not compatible with "
                                                          r"expected shape \[\?,4\]"):
        run(e, {p: np.ones([2, 3])})
    assert check_gradients(lambda x: tf.ensure_shape(x, [2]) * 3, [[1., 2]])


def test_where_v2_broadcasts():
    got = run(tf.where_v2([True, False], [1, 2], [[3], [4]]))
    np.testing.assert_array_equal(got, [[1, 3], [1, 4]])              # TF 1.15
    np.testing.assert_array_equal(run(tf.where_v2([True, False, True])), [[0], [2]])
    cond = np.array([True, False, True])
    assert check_gradients(lambda x, y: tf.where_v2(cond, x, y),
                           [[[1., 2, 3]], np.ones((2, 1))])


def test_repeat():
    x = [[1, 2], [3, 4]]
    np.testing.assert_array_equal(run(tf.repeat(x, 2)), [1, 1, 2, 2, 3, 3, 4, 4])  # TF 1.15
    np.testing.assert_array_equal(run(tf.repeat(x, [1, 2], axis=0)), [[1, 2], [3, 4], [3, 4]])
    r = tf.repeat(x, 2, axis=1)
    assert r.shape.as_list() == [2, 4]
    np.testing.assert_array_equal(run(r), [[1, 1, 2, 2], [3, 3, 4, 4]])
    assert check_gradients(lambda a: tf.repeat(a, [1, 3], axis=0), [[[1., 2], [3, 4]]])
    assert check_gradients(lambda a: tf.repeat(a, 2), [[[1., 2], [3, 4]]])


def test_unravel_index_matches_tf():
    np.testing.assert_array_equal(run(tf.unravel_index([5, 7], [3, 4])),
                                  [[1, 1], [1, 3]])                           # TF 1.15
    with pytest.raises(errors.InvalidArgumentError, match="index out of bounds"):
        run(tf.unravel_index([12], [3, 4]))


def test_parallel_stack():
    np.testing.assert_array_equal(run(tf.parallel_stack([[1, 2], [3, 4]])), [[1, 2], [3, 4]])


def test_batch_gather_matches_tf():
    p = np.arange(24.).reshape(2, 3, 4)
    i = [[0, 2], [1, 1]]
    out = tf.batch_gather(p, i)
    assert out.shape.as_list() == [2, 2, 4]
    np.testing.assert_array_equal(run(out), [[p[0, 0], p[0, 2]], [p[1, 1], p[1, 1]]])
    np.testing.assert_array_equal(run(tf.batch_gather([[1, 2, 3], [4, 5, 6]], [[2], [0]])),
                                  [[3], [4]])                                  # TF 1.15
    x = tf.constant(p)
    g = run(tf.gradients(tf.batch_gather(x, i), x)[0])
    np.testing.assert_array_equal(g[:, :, 0], [[1, 0, 1], [0, 2, 0]])         # TF 1.15
    assert check_gradients(lambda a: tf.batch_gather(a, i), [p])
