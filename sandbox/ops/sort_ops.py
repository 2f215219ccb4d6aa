"""Sorting -- mirrors TensorFlow 1.x's python/ops/sort_ops.py (tf.sort, tf.argsort) and the
set functions of python/ops/array_ops.py (unique_with_counts, setdiff1d).

    tf.sort(values, axis=-1, direction='ASCENDING')     the values, sorted along axis
    tf.argsort(values, axis=-1, direction=..., stable)  the indices that sort them (int32)
    tf.searchsorted(seq, values)  where each value would go in its (sorted) row of seq
    tf.unique_with_counts(x)   (y, idx, count): the distinct values in order of first
                               appearance, where each entry went, how often each value occurs
    tf.setdiff1d(x, y)         (out, idx): the entries of x not in y, in x's order, and their
                               positions in x

TF sorts with top_k, whose ties keep the order of their indices: the sandbox's sort is stable
in both directions, which gives TF's indices also with `stable=False`. The gradient of sort
sends each entry's gradient back to the position it came from (as top_k's gradient does).
"""
import collections

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import positive_axis

__all__ = ["sort", "argsort", "searchsorted", "unique_with_counts", "setdiff1d"]

UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])
ListDiff = collections.namedtuple("ListDiff", ["out", "idx"])


def _argsort(values, axis, descending):
    if descending:
        if values.dtype.kind == "f":
            key = -values
        elif values.dtype.kind in "iu":
            key = -values.astype(np.float64) if values.dtype.itemsize >= 8 \
                else -values.astype(np.int64)
        else:
            key = np.logical_not(values)
        return np.argsort(key, axis=axis, kind="stable")
    return np.argsort(values, axis=axis, kind="stable")


class Sort(OpDef):
    """values sorted along `axis` (a sandbox op: TF sorts with TopKV2)."""
    shape = unchanged_shape

    def kernel(values, axis=-1, descending=False, T=None):
        _check_axis(values, axis)
        order = _argsort(values, axis, descending)
        return np.take_along_axis(values, order, axis)

    def gradient(op, grad):
        return [apply_op("SortGrad", [op.inputs[0], grad],
                         {"axis": op.get_attr("axis"), "descending": op.get_attr("descending"),
                          "T": grad.dtype.base_dtype}, name="SortGrad")]


class SortGrad(OpDef):
    """The gradient of each sorted entry, put back where the entry was before sorting."""
    shape = unchanged_shape
    differentiable = False

    def kernel(values, grad, axis=-1, descending=False, T=None):
        order = _argsort(values, axis, descending)
        out = np.zeros_like(grad)
        np.put_along_axis(out, order, grad, axis)
        return out


class Argsort(OpDef):
    """The indices that sort values along `axis` (stable)."""
    shape = unchanged_shape
    differentiable = False

    def kernel(values, axis=-1, descending=False, T=None):
        _check_axis(values, axis)
        return _argsort(values, axis, descending).astype(np.int32)


def _check_axis(values, axis):
    if values.ndim == 0 or not -values.ndim <= axis < values.ndim:
        raise errors.InvalidArgumentError(None, None, f"axis {axis} is out of range for a "
                                          f"tensor of rank {values.ndim}")


def _sort_op(op_type, values, axis, direction, name, default, out_dtype=None):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"{direction} should be one of ASCENDING, DESCENDING")
    if not isinstance(axis, int):
        raise ValueError(f"axis must be a constant scalar, got {axis!r}")
    with name_scope(name, default, [values]) as scope:
        x = convert_to_tensor(values, name="values")
        rank = x.get_shape().ndims
        if rank is not None:
            if rank == 0:
                raise ValueError("values must be at least rank 1 to be sorted")
            axis = positive_axis(axis, rank)
        dtype = x.dtype.base_dtype
        return apply_op(op_type, [x], {"axis": axis, "descending": direction == "DESCENDING",
                                       "T": dtype}, name=scope,
                        output_dtypes=[out_dtype or dtype])


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """The values sorted along `axis`, ascending or descending."""
    return _sort_op("Sort", values, axis, direction, name, "sort")


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The int32 indices that sort `values` along `axis` (ties in order of index)."""
    return _sort_op("Argsort", values, axis, direction, name, "argsort", _dtypes.int32)


class LowerBound(OpDef):
    """For each row: the first index whose entry is >= the value (UpperBound: > the value)."""
    differentiable = False

    def shape(op):
        return op.inputs[1].get_shape()

    def kernel(sorted_inputs, values, T=None, out_type=None, side="left"):
        if sorted_inputs.shape[:-1] != values.shape[:-1]:
            raise errors.InvalidArgumentError(
                None, None, f"Leading dim_size of both tensors must match, got "
                f"{list(sorted_inputs.shape)} and {list(values.shape)}")
        seq = sorted_inputs.reshape(-1, sorted_inputs.shape[-1])
        vals = values.reshape(-1, values.shape[-1])
        out = np.stack([np.searchsorted(r, v, side=side) for r, v in zip(seq, vals)]) \
            if seq.shape[0] else np.zeros(vals.shape, np.int64)
        return out.reshape(values.shape).astype(out_type.as_numpy_dtype)


class UpperBound(LowerBound):
    def kernel(sorted_inputs, values, T=None, out_type=None):
        return LowerBound.kernel(sorted_inputs, values, T, out_type, side="right")


def searchsorted(sorted_sequence, values, side="left", out_type=_dtypes.int32, name=None):
    """For each value, the index at which it would be inserted into its row of
    sorted_sequence (innermost dimension; the leading ones must match): before equal entries
    with side='left', after them with 'right'."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be either 'right' or 'left'.  Saw: {side}.")
    with name_scope(name, "searchsorted", [sorted_sequence, values]) as scope:
        seq = convert_to_tensor(sorted_sequence, name="sorted_sequence")
        vals = convert_to_tensor(values, dtype=seq.dtype.base_dtype, name="values")
        out_type = _dtypes.as_dtype(out_type)
        return apply_op("LowerBound" if side == "left" else "UpperBound", [seq, vals],
                        {"T": seq.dtype.base_dtype, "out_type": out_type}, name=scope,
                        output_dtypes=[out_type])


# -- sets -----------------------------------------------------------------------------------

class UniqueWithCounts_(OpDef):
    """y, idx, count of a 1-D tensor (y in order of first appearance)."""
    type_name = "UniqueWithCounts"
    multi_output = True
    differentiable = False

    def shape(op):
        return [TensorShape([None]), op.inputs[0].get_shape(), TensorShape([None])]

    def kernel(x, T=None, out_idx=None):
        if x.ndim != 1:
            raise errors.InvalidArgumentError(None, None, f"unique expects a 1D vector, got "
                                              f"a tensor of shape {list(x.shape)}")
        values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                                   return_counts=True)
        order = np.argsort(first, kind="stable")
        rank_of = np.empty_like(order)
        rank_of[order] = np.arange(order.size)
        idx_type = out_idx.as_numpy_dtype
        return (values[order], rank_of[inverse.reshape(-1)].astype(idx_type),
                counts[order].astype(idx_type))


def unique_with_counts(x, out_idx=_dtypes.int32, name=None):
    """(y, idx, count): unique_with_counts([1, 1, 2, 4, 4, 4, 7, 8, 8]) gives y = [1 2 4 7 8],
    idx = [0 0 1 2 2 2 3 4 4], count = [2 1 3 1 2]."""
    x = convert_to_tensor(x, name="x")
    out_idx = _dtypes.as_dtype(out_idx)
    y, idx, count = apply_op("UniqueWithCounts", [x], {"T": x.dtype.base_dtype,
                                                       "out_idx": out_idx},
                             name=name or "UniqueWithCounts",
                             output_dtypes=[x.dtype.base_dtype, out_idx, out_idx])
    return UniqueWithCounts(y, idx, count)


class ListDiff_(OpDef):
    """out, idx: the entries of x that are not in y, and where they are in x."""
    type_name = "ListDiff"
    multi_output = True
    differentiable = False

    def shape(op):
        return [TensorShape([None]), TensorShape([None])]

    def kernel(x, y, T=None, out_idx=None):
        if x.ndim != 1 or y.ndim != 1:
            raise errors.InvalidArgumentError(None, None, "x and y must be 1-D (setdiff1d)")
        keep = ~np.isin(x, y)
        return x[keep], np.flatnonzero(keep).astype(out_idx.as_numpy_dtype)


def setdiff1d(x, y, index_dtype=_dtypes.int32, name=None):
    """(out, idx): setdiff1d([1, 2, 3, 4, 5, 6], [1, 3, 5]) gives out = [2 4 6],
    idx = [1 3 5]."""
    with name_scope(name, "ListDiff", [x, y]) as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype=x.dtype.base_dtype, name="y")
        index_dtype = _dtypes.as_dtype(index_dtype)
        out, idx = apply_op("ListDiff", [x, y], {"T": x.dtype.base_dtype,
                                                 "out_idx": index_dtype}, name=scope,
                            output_dtypes=[x.dtype.base_dtype, index_dtype])
        return ListDiff(out, idx)
