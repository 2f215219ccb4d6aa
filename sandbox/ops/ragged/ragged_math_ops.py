"""tf.ragged.range -- mirrors TensorFlow 1.x's ragged_math_ops.range
(python/ops/ragged/ragged_math_ops.py) and its op RaggedRange
(core/kernels/ragged_range_op.cc): one range per row.

    tf.ragged.range([3, 5, 2])                ->  [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]
    tf.ragged.range([0, 5, 8], [3, 3, 12], 2) ->  [[0, 2], [], [8, 10]]
    tf.ragged.range(3, [0, 5, -2], -1)        ->  [[3, 2, 1], [], [3, 2, 1, 0, -1]]

starts, limits and deltas are each a scalar (shared by every row) or a vector (one per row).
Row i is range(starts[i], limits[i], deltas[i]) as Python's range, floats included.

Reductions over the rows (TF dispatches tf.reduce_sum(rt, axis=1) to a ragged version) are
not here: tf.reduce_sum and friends take Tensors only in the sandbox, and a RaggedTensor
passed to them raises a TypeError that names the way -- for the sum of each row,
tf.math.unsorted_segment_sum(rt.values, rt.value_rowids(), rt.nrows()) (rt.row_lengths()
counts the values, for a mean).
"""
import numpy as np

from ...framework import dtypes
from ...framework import errors
from ...framework.graph import name_scope
from ...framework.op_def import OpDef, apply_op
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import math_ops
from .ragged_tensor import RaggedTensor

__all__ = ["range"]

_RANGE_DTYPES = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


def _range_size(start, limit, delta, integral):
    if (delta > 0 and limit < start) or (delta < 0 and limit > start):
        return 0
    if integral:
        return int((abs(limit - start) + abs(delta) - 1) // abs(delta))
    return int(np.ceil(abs((limit - start) / delta)))


class RaggedRange(OpDef):
    """rt_nested_splits, rt_dense_values of the ranges range(starts[i], limits[i],
    deltas[i]) (each input a scalar or a vector; the vectors of one length)."""
    multi_output = True
    differentiable = False

    def shape(op):
        rows = None
        for t in op.inputs:
            s = t.get_shape()
            if s.ndims is not None and s.ndims > 1:
                raise ValueError(f"Shape must be at most rank 1 but is rank {s.ndims}")
            if s.ndims == 1 and s[0].value is not None:
                if rows is not None and rows != s[0].value:
                    raise ValueError(f"Dimensions must be equal, but are {s[0].value} and "
                                     f"{rows}")
                rows = s[0].value
        if rows is None and all(t.get_shape().ndims == 0 for t in op.inputs):
            rows = 1
        return [TensorShape([None if rows is None else rows + 1]), TensorShape([None])]

    def kernel(starts, limits, deltas, T=None, Tsplits=None):
        for name, a in (("starts", starts), ("limits", limits), ("deltas", deltas)):
            if np.ndim(a) > 1:
                raise errors.InvalidArgumentError(None, None, f"{name} must be a scalar or "
                                                  "vector")
        sizes = {np.size(a) for a in (starts, limits, deltas) if np.ndim(a) == 1}
        if len(sizes) > 1:
            raise errors.InvalidArgumentError(None, None, "starts, limits, and deltas must "
                                              "have the same shape")
        nrows = sizes.pop() if sizes else 1
        starts, limits, deltas = (np.broadcast_to(a, (nrows,)) for a in (starts, limits,
                                                                          deltas))
        integral = np.dtype(T.as_numpy_dtype).kind in "iu"
        splits, pieces = [0], []
        for start, limit, delta in zip(starts.tolist(), limits.tolist(), deltas.tolist()):
            if delta == 0:
                raise errors.InvalidArgumentError(None, None, "Requires delta != 0")
            n = _range_size(start, limit, delta, integral)
            pieces.append(start + np.arange(n) * delta)
            splits.append(splits[-1] + n)
        values = np.concatenate(pieces) if pieces else np.zeros([0])
        return (np.array(splits, dtype=Tsplits.as_numpy_dtype),
                values.astype(T.as_numpy_dtype))


def range(starts, limits=None, deltas=1, dtype=None, name=None,  # noqa: A001 -- TF's name
          row_splits_dtype=dtypes.int64):
    """A RaggedTensor of one range per row: row i is range(starts[i], limits[i], deltas[i])
    (with only `starts`, the ranges [0, starts[i])). The dtype is `dtype`, else the widest
    of the inputs' (int32 < int64 < float32 < float64)."""
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if limits is None:
        starts, limits = 0, starts
    with name_scope(name, "RaggedRange", [starts, limits, deltas]) as scope:
        dtype = None if dtype is None else dtypes.as_dtype(dtype)
        starts = convert_to_tensor(starts, dtype=dtype, name="starts")
        limits = convert_to_tensor(limits, dtype=dtype, name="limits")
        deltas = convert_to_tensor(deltas, dtype=dtype, name="deltas")
        if dtype is None:
            starts, limits, deltas = _infer_matching_dtype([starts, limits, deltas])
        out_type = starts.dtype.base_dtype
        splits, values = apply_op("RaggedRange", [starts, limits, deltas],
                                  {"T": out_type, "Tsplits": row_splits_dtype}, name=scope,
                                  output_dtypes=[row_splits_dtype, out_type])
        return RaggedTensor.from_row_splits(values, splits, validate=False)


def _infer_matching_dtype(tensors):
    """The tensors cast to the widest of their dtypes (TF's _infer_matching_dtype)."""
    for t in tensors:
        if t.dtype.base_dtype not in _RANGE_DTYPES:
            raise TypeError(f"tf.ragged.range takes int32, int64, float32 or float64 values, "
                            f"got {t.dtype.base_dtype.name} ({t.name})")
    widest = max((t.dtype.base_dtype for t in tensors), key=_RANGE_DTYPES.index)
    return [t if t.dtype.base_dtype == widest else math_ops.cast(t, widest) for t in tensors]
