"""Tests for sandbox/ops/sort_ops.py: sort, argsort, unique_with_counts and setdiff1d --
values measured with TF 1.15.5, the gradient of sort by finite differences."""
import numpy as np
import pytest

import sandbox as tf
from tests.gradcheck import check_gradients


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def test_sort_and_argsort_match_tf():
    np.testing.assert_array_equal(run(tf.sort([3, 1, 2], direction="DESCENDING")), [3, 2, 1])
    np.testing.assert_array_equal(run(tf.argsort([3, 1, 2, 1])), [1, 3, 2, 0])  # TF 1.15
    np.testing.assert_array_equal(run(tf.argsort([3., 1, 2, 1], direction="DESCENDING",
                                                 stable=True)), [0, 2, 1, 3])
    assert tf.argsort([3, 1, 2]).dtype == tf.int32
    with pytest.raises(ValueError, match="UP should be one of ASCENDING, DESCENDING"):
        tf.sort([3, 1, 2], direction="UP")
    x = np.random.default_rng(0).standard_normal((3, 4))
    np.testing.assert_array_equal(run(tf.sort(x, axis=0)), np.sort(x, axis=0))
    np.testing.assert_array_equal(run(tf.argsort(x)), np.argsort(x, axis=-1))


def test_sort_gradient():
    x = np.random.default_rng(1).standard_normal((3, 4))
    assert check_gradients(tf.sort, [x])
    assert check_gradients(lambda a: tf.sort(a, axis=0, direction="DESCENDING"), [x])


def test_unique_with_counts_and_setdiff1d():
    y, idx, count = run(tf.unique_with_counts([1, 1, 2, 4, 4, 4, 7, 8, 8]))
    np.testing.assert_array_equal(y, [1, 2, 4, 7, 8])                  # TF 1.15
    np.testing.assert_array_equal(idx, [0, 0, 1, 2, 2, 2, 3, 4, 4])
    np.testing.assert_array_equal(count, [2, 1, 3, 1, 2])
    assert tf.unique_with_counts([3, 1]).count.dtype == tf.int32
    out, where = run(tf.setdiff1d([1, 2, 3, 4, 5, 6], [1, 3, 5]))
    np.testing.assert_array_equal(out, [2, 4, 6])
    np.testing.assert_array_equal(where, [1, 3, 5])
    assert type(tf.setdiff1d([1], [2])).__name__ == "ListDiff"


def test_searchsorted_matches_tf():
    seq, vals = [[1, 3, 5, 7]], [[2, 5, 8]]
    np.testing.assert_array_equal(run(tf.searchsorted(seq, vals)), [[1, 2, 4]])   # TF 1.15
    np.testing.assert_array_equal(run(tf.searchsorted(seq, vals, side="right")), [[1, 3, 4]])
    rows = np.sort(np.random.default_rng(0).standard_normal((3, 5)), axis=1)
    v = np.random.default_rng(1).standard_normal((3, 4))
    np.testing.assert_array_equal(run(tf.searchsorted(rows, v)),
                                  [np.searchsorted(r, x) for r, x in zip(rows, v)])
