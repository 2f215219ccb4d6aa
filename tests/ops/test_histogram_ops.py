"""Tests for sandbox/ops/histogram_ops.py: histogram_fixed_width(_bins), values measured with
TF 1.15.5 (values outside the range go to the first and last bins)."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors

VALUES = [-1., 0, 1.5, 2, 5, 15]


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def test_histogram_matches_tf():
    h = tf.histogram_fixed_width(VALUES, [0., 5.], nbins=5)
    assert h.dtype == tf.int32 and h.shape.as_list() == [5]
    np.testing.assert_array_equal(run(h), [2, 1, 1, 0, 2])                     # TF 1.15
    np.testing.assert_array_equal(run(tf.histogram_fixed_width_bins(VALUES, [0., 5.], nbins=5)),
                                  [0, 0, 1, 2, 4, 4])
    with pytest.raises(errors.InvalidArgumentError, match="value_range"):
        run(tf.histogram_fixed_width(VALUES, [5., 0.], nbins=5))
