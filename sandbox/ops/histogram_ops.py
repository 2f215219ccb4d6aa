"""Histograms -- mirrors TensorFlow 1.x's python/ops/histogram_ops.py
(histogram_fixed_width, histogram_fixed_width_bins).

    tf.histogram_fixed_width(values, [0., 5.], nbins=5)
        how many values fall in each of 5 equal bins of [0, 5); values below the range count
        in the first bin, values above it in the last
    tf.histogram_fixed_width_bins(values, [0., 5.], nbins=5)
        the bin of each value (the same rule), shaped like values

Counting has no gradient.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import constant_int

__all__ = ["histogram_fixed_width", "histogram_fixed_width_bins"]


def _bins(values, value_range, nbins):
    lo, hi = (float(v) for v in np.reshape(value_range, -1)[:2])
    if not lo < hi:
        raise errors.InvalidArgumentError(None, None, f"value_range should satisfy "
                                          f"value_range[0] < value_range[1], but got "
                                          f"[{lo}, {hi}]")
    if nbins <= 0:
        raise errors.InvalidArgumentError(None, None, f"nbins should be a positive number, "
                                          f"but got '{nbins}'")
    scaled = (np.asarray(values, np.float64) - lo) / (hi - lo)
    return np.clip(np.floor(scaled * nbins), 0, nbins - 1).astype(np.int64)


class HistogramFixedWidth(OpDef):
    """How many values fall in each of nbins equal bins of value_range."""
    differentiable = False

    def shape(op):
        return TensorShape([constant_int(op.inputs[2])])

    def kernel(values, value_range, nbins, T=None, dtype=None):
        n = int(nbins)
        return np.bincount(_bins(values, value_range, n).reshape(-1),
                           minlength=n).astype(dtype.as_numpy_dtype)


class HistogramFixedWidthBins(OpDef):
    """The bin of each value (a sandbox op: TF composes it from elementwise ops)."""
    differentiable = False
    shape = unchanged_shape

    def kernel(values, value_range, nbins, T=None, dtype=None):
        return _bins(values, value_range, int(nbins)).astype(dtype.as_numpy_dtype)


def _histogram(op_type, values, value_range, nbins, dtype, name, default):
    with name_scope(name, default, [values, value_range, nbins]) as scope:
        v = convert_to_tensor(values, name="values")
        r = convert_to_tensor(value_range, dtype=v.dtype.base_dtype, name="value_range")
        n = convert_to_tensor(nbins, dtype=_dtypes.int32, name="nbins")
        dtype = _dtypes.as_dtype(dtype)
        return apply_op(op_type, [v, r, n], {"T": v.dtype.base_dtype, "dtype": dtype},
                        name=scope, output_dtypes=[dtype])


def histogram_fixed_width(values, value_range, nbins=100, dtype=_dtypes.int32, name=None):
    """The counts of `values` in nbins equal bins of [value_range[0], value_range[1])."""
    return _histogram("HistogramFixedWidth", values, value_range, nbins, dtype, name,
                      "histogram_fixed_width")


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=_dtypes.int32,
                               name=None):
    """The bin index of each value, shaped like values."""
    return _histogram("HistogramFixedWidthBins", values, value_range, nbins, dtype, name,
                      "histogram_fixed_width_bins")
