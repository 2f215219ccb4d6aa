"""Segment reductions -- mirrors the segment functions of TensorFlow 1.x's
python/ops/math_ops.py (segment_mean/max/min/prod, unsorted_segment_max/min/prod/mean/sqrt_n)
and their gradients (python/ops/math_grad.py). segment_sum and unsorted_segment_sum live in
ops/math_extra_ops.py and ops/indexing_ops.py.

A segment reduction reduces the rows of `data` that share an id:

    tf.segment_max([1., 2, 3, 4], [0, 0, 2, 2])   ->  [2, 0, 4]

The segment_* functions need sorted ids (InvalidArgumentError "segment ids are not
increasing" otherwise); the result has ids[-1] + 1 rows and an empty segment gives 0. The
unsorted_segment_* functions take any order and `num_segments`; an empty segment gives the
reduction's identity, as TF does: the lowest value of the dtype for max, the highest for min,
1 for prod, 0 for mean and sqrt_n. A negative id drops its row.

`tf.bincount(arr)` counts each value of arr (or sums their weights): the segment sum of ones,
with the values as segment ids.

Gradients: the mean's is the row's share of its segment's gradient; max's and min's go to the
entries equal to the result (split evenly between ties, as TF's); prod's is the product of
the other entries of the segment (also right when some of them are 0).
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_int, int_tensor, to_int
from . import basic_math_ops, math_ops
from .array_ops import fill, ones_like, rank, reshape, shape
from .indexing_ops import unsorted_segment_sum
from .slicing_ops import concat

__all__ = ["segment_mean", "segment_max", "segment_min", "segment_prod",
           "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
           "unsorted_segment_mean", "unsorted_segment_sqrt_n", "bincount"]

_UFUNC = {"max": np.maximum, "min": np.minimum, "prod": np.multiply, "sum": np.add}


def _identity(kind, dtype, empty_is_zero):
    if empty_is_zero and kind in ("max", "min"):
        return np.zeros((), dtype)
    if kind == "prod":
        return np.ones((), dtype)
    if kind == "sum":
        return np.zeros((), dtype)
    info = np.finfo(dtype) if np.dtype(dtype).kind == "f" else np.iinfo(dtype)
    return np.asarray(info.min if kind == "max" else info.max, dtype)


def _reduce(data, ids, n, kind, empty_is_zero=False):
    """The reduction of the rows of data by id into n rows (negative ids dropped)."""
    if data.shape[:ids.ndim] != ids.shape:
        raise errors.InvalidArgumentError(None, None, f"data.shape = {list(data.shape)} does "
                                          f"not start with segment_ids.shape = "
                                          f"{list(ids.shape)}")
    if ids.size and ids.max() >= n:
        raise errors.InvalidArgumentError(None, None, f"segment_ids[{int(np.argmax(ids))}] = "
                                          f"{int(ids.max())} is out of range [0, {n})")
    out = np.full((n,) + data.shape[ids.ndim:], _identity(kind, data.dtype, False),
                  dtype=data.dtype)
    keep = ids >= 0
    _UFUNC[kind].at(out, ids[keep], data[keep])
    if empty_is_zero and kind in ("max", "min"):
        seen = np.zeros(n, dtype=bool)
        seen[ids[keep]] = True
        out[~seen] = 0
    return out


def _check_sorted(ids):
    if ids.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"segment_ids should be a vector, got "
                                          f"shape {list(ids.shape)}")
    if ids.size and ids.min() < 0:
        raise errors.InvalidArgumentError(None, None, "segment ids must be >= 0")
    if ids.size > 1 and np.any(np.diff(ids) < 0):
        raise errors.InvalidArgumentError(None, None, "segment ids are not increasing")


class _SegmentReduction(OpDef):
    """data, segment_ids -> ids[-1] + 1 rows (ids sorted)."""
    abstract = True
    kind = None

    def shape(op):
        data = op.inputs[0].get_shape()
        if data.ndims is None:
            return unknown_shape()
        return TensorShape([None]).concatenate(data[1:])


def _segment_kernel(kind):
    def kernel(data, segment_ids, T=None, Tindices=None):
        _check_sorted(segment_ids)
        n = int(segment_ids[-1]) + 1 if segment_ids.size else 0
        if kind == "mean":
            sums = _reduce(data, segment_ids, n, "sum")
            counts = np.bincount(segment_ids, minlength=n).astype(data.dtype)
            counts = counts.reshape((n,) + (1,) * (data.ndim - 1))
            return (sums / np.maximum(counts, 1)).astype(data.dtype)
        return _reduce(data, segment_ids, n, kind, empty_is_zero=True)
    return kernel


def _reduction_grad(op, grad, kind, num_segments):
    data, ids = op.inputs[0], op.inputs[1]
    return [apply_op("SegmentReductionGrad", [data, ids, op.outputs[0], grad, num_segments],
                     {"kind": kind, "T": grad.dtype.base_dtype}, name="SegmentReductionGrad"),
            None] + ([None] if len(op.inputs) > 2 else [])


class SegmentMean(_SegmentReduction):
    kernel = _segment_kernel("mean")

    def gradient(op, grad):
        return _reduction_grad(op, grad, "mean", shape(op.outputs[0])[0])


class SegmentMax(_SegmentReduction):
    kernel = _segment_kernel("max")

    def gradient(op, grad):
        return _reduction_grad(op, grad, "max", shape(op.outputs[0])[0])


class SegmentMin(_SegmentReduction):
    kernel = _segment_kernel("min")

    def gradient(op, grad):
        return _reduction_grad(op, grad, "min", shape(op.outputs[0])[0])


class SegmentProd(_SegmentReduction):
    kernel = _segment_kernel("prod")

    def gradient(op, grad):
        return _reduction_grad(op, grad, "prod", shape(op.outputs[0])[0])


class _UnsortedSegmentReduction(OpDef):
    """data, segment_ids, num_segments -> num_segments rows."""
    abstract = True

    def shape(op):
        data, ids = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        if data.ndims is None or ids.ndims is None:
            return unknown_shape()
        return TensorShape([constant_int(op.inputs[2])]).concatenate(data[ids.ndims:])


def _unsorted_kernel(kind):
    def kernel(data, segment_ids, num_segments, T=None, Tindices=None, Tnumsegments=None):
        return _reduce(data, segment_ids, to_int(num_segments), kind)
    return kernel


class UnsortedSegmentMax(_UnsortedSegmentReduction):
    kernel = _unsorted_kernel("max")

    def gradient(op, grad):
        return _reduction_grad(op, grad, "max", op.inputs[2])


class UnsortedSegmentMin(_UnsortedSegmentReduction):
    kernel = _unsorted_kernel("min")

    def gradient(op, grad):
        return _reduction_grad(op, grad, "min", op.inputs[2])


class UnsortedSegmentProd(_UnsortedSegmentReduction):
    kernel = _unsorted_kernel("prod")

    def gradient(op, grad):
        return _reduction_grad(op, grad, "prod", op.inputs[2])


class SegmentReductionGrad(OpDef):
    """The gradient of a segment reduction for data (a sandbox op, NumPy; TF composes it
    from gather, equal and the segment ops)."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(data, ids, output, grad, num_segments, kind=None, T=None):
        n = to_int(num_segments)
        keep = ids >= 0
        safe = np.where(keep, ids, 0)
        mask_rows = keep.reshape(keep.shape + (1,) * (data.ndim - ids.ndim))
        g = np.where(mask_rows, grad[safe], 0)           # each row: its segment's gradient
        if kind == "mean":
            counts = np.bincount(ids[keep], minlength=n).astype(grad.dtype)
            c = np.maximum(counts[safe], 1).reshape(safe.shape + (1,) * (data.ndim - ids.ndim))
            return (g / c).astype(grad.dtype)
        if kind in ("max", "min"):
            hit = (data == output[safe]) & mask_rows
            ties = _reduce(hit.astype(grad.dtype), np.where(keep, ids, -1), n, "sum")
            return np.where(hit, g / np.maximum(ties[safe], 1), 0).astype(grad.dtype)
        # prod: the product of the other entries of the segment
        zero = data == 0
        zeros_in = _reduce(zero.astype(np.int64), np.where(keep, ids, -1), n, "sum")[safe]
        nonzero_prod = _reduce(np.where(zero, 1, data).astype(data.dtype),
                               np.where(keep, ids, -1), n, "prod")[safe]
        with np.errstate(divide="ignore", invalid="ignore"):
            others = np.where(zeros_in == 0, output[safe] / np.where(zero, 1, data),
                              np.where((zeros_in == 1) & zero, nonzero_prod, 0))
        return (g * others).astype(grad.dtype)


def _segment(op_type, data, segment_ids, name):
    with name_scope(name, op_type, [data, segment_ids]) as scope:
        d = convert_to_tensor(data, name="data")
        i = convert_to_tensor(segment_ids, name="segment_ids")
        return apply_op(op_type, [d, i], {"T": d.dtype.base_dtype,
                                          "Tindices": i.dtype.base_dtype}, name=scope,
                        output_dtypes=[d.dtype.base_dtype])


def segment_mean(data, segment_ids, name=None):
    """Row i: the mean of the rows of data whose (sorted) id is i (0 for an empty one)."""
    return _segment("SegmentMean", data, segment_ids, name)


def segment_max(data, segment_ids, name=None):
    return _segment("SegmentMax", data, segment_ids, name)


def segment_min(data, segment_ids, name=None):
    return _segment("SegmentMin", data, segment_ids, name)


def segment_prod(data, segment_ids, name=None):
    return _segment("SegmentProd", data, segment_ids, name)


def _unsorted(op_type, data, segment_ids, num_segments, name):
    with name_scope(name, op_type, [data, segment_ids, num_segments]) as scope:
        d = convert_to_tensor(data, name="data")
        i = convert_to_tensor(segment_ids, name="segment_ids")
        n = int_tensor(num_segments, name="num_segments")
        return apply_op(op_type, [d, i, n], {"T": d.dtype.base_dtype,
                                             "Tindices": i.dtype.base_dtype,
                                             "Tnumsegments": n.dtype.base_dtype}, name=scope,
                        output_dtypes=[d.dtype.base_dtype])


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """Row i: the max of the rows whose id is i; the dtype's lowest value if none is."""
    return _unsorted("UnsortedSegmentMax", data, segment_ids, num_segments, name)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """Row i: the min of the rows whose id is i; the dtype's highest value if none is."""
    return _unsorted("UnsortedSegmentMin", data, segment_ids, num_segments, name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """Row i: the product of the rows whose id is i; 1 if none is."""
    return _unsorted("UnsortedSegmentProd", data, segment_ids, num_segments, name)


def _segment_counts(data, segment_ids, num_segments):
    """How many rows each segment has, shaped to broadcast against the segment sums."""
    ids = convert_to_tensor(segment_ids, name="segment_ids")
    ones = ones_like(ids, dtype=data.dtype.base_dtype)
    counts = unsorted_segment_sum(ones, ids, num_segments)
    rank = data.get_shape().ndims
    id_rank = ids.get_shape().ndims
    if rank is not None and id_rank is not None:
        return reshape(counts, [-1] + [1] * (rank - id_rank))
    tail = fill(math_ops.subtract(rank(data), rank(ids))[None], 1)
    return reshape(counts, concat([[-1], tail], 0))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Row i: the mean of the rows whose id is i; 0 if none is."""
    with name_scope(name, "UnsortedSegmentMean", [data, segment_ids, num_segments]):
        d = convert_to_tensor(data, name="data")
        n = _segment_counts(d, segment_ids, num_segments)
        total = unsorted_segment_sum(d, segment_ids, num_segments)
        return math_ops.realdiv(total, basic_math_ops.maximum(n, 1.0))


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Row i: the sum of the rows whose id is i, divided by the square root of their
    number; 0 if none is."""
    with name_scope(name, "UnsortedSegmentSqrtN", [data, segment_ids, num_segments]):
        d = convert_to_tensor(data, name="data")
        n = _segment_counts(d, segment_ids, num_segments)
        total = unsorted_segment_sum(d, segment_ids, num_segments)
        return math_ops.realdiv(total, basic_math_ops.sqrt(basic_math_ops.maximum(n, 1.0)))



class Bincount(OpDef):
    """out[v] = how many entries of arr equal v (the sum of their weights), v < size."""
    differentiable = False

    def shape(op):
        return TensorShape([constant_int(op.inputs[1])])

    def kernel(arr, size, weights, T=None):
        n = to_int(size)
        if arr.size and arr.min() < 0:
            raise errors.InvalidArgumentError(None, None, "Input arr must be non-negative!")
        keep = arr < n
        w = weights.reshape(-1)[keep.reshape(-1)] if weights.size else None
        out = np.bincount(arr[keep].reshape(-1), weights=w, minlength=n)[:n]
        return out.astype(T.as_numpy_dtype)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=None, name=None):
    """Counts the occurrences of each value of the int32 tensor arr (or sums their weights):
    a vector of max(arr) + 1 entries, at least minlength, at most maxlength."""
    from .reduction_ops import reduce_max
    with name_scope(name, "bincount", [arr, weights, minlength, maxlength]) as scope:
        arr = convert_to_tensor(arr, name="arr")
        if arr.dtype.base_dtype != _dtypes.int32:
            raise TypeError(f"arr must be int32, got {arr.dtype.name}")
        size = basic_math_ops.maximum(reduce_max(arr), -1) + 1
        if minlength is not None:
            size = basic_math_ops.maximum(int_tensor(minlength), size)
        if maxlength is not None:
            size = basic_math_ops.minimum(int_tensor(maxlength), size)
        if weights is None:
            out_dtype = _dtypes.as_dtype(dtype or _dtypes.int32)
            w = convert_to_tensor(np.zeros([0], out_dtype.as_numpy_dtype))
        else:
            w = convert_to_tensor(weights, name="weights")
            out_dtype = w.dtype.base_dtype
        return apply_op("Bincount", [arr, size, w], {"T": out_dtype}, name=scope,
                        output_dtypes=[out_dtype])
