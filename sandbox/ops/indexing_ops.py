"""Indexing -- picking elements of a tensor by their index: Python's `t[1:3, ..., 0]` (the
StridedSlice op), gather, gather_nd, scatter_nd, boolean_mask, one_hot and unique. Mirrors
TF's python/ops/array_ops.py, which holds them, and python/ops/tensor_getitem_override.py,
where TF 2 moved Tensor.__getitem__ (_slice_helper).

An index out of range is an error when the graph runs, naming the index (one_hot gives a row of
off_value instead). The gradient of picking elements puts the incoming gradient back where they
were picked from, into zeros shaped like the input (GatherGrad, StridedSliceGrad; the gradient
of gather_nd is a scatter_nd) -- except along axis 0, where gather's gradient is a
tf.IndexedSlices (the rows and their ids, nothing else), turned dense by an
UnsortedSegmentSum only where a dense tensor is needed (the conversion registered here).
"""
import builtins
import collections
import warnings

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.graph import colocate_with, name_scope
from ..framework.indexed_slices import LARGE_SPARSE_NUM_ELEMENTS, IndexedSlices
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import Dimension, TensorShape, unknown_shape
from ..framework.tensor_util import (SLICE_MASKS, constant_int, constant_value,
                                     constant_value_as_shape, dim_value, flat_tensors,
                                     index_tuple, int_tensor, partial_vector, positive_axis,
                                     shape_text, slice_masks, to_int)
from ..framework.tensor_conversion_registry import register_tensor_conversion_function
from .array_ops import expand_dims, ones_like, reshape, shape, size, squeeze, stack
from .array_ops import zeros_like as array_ops_zeros_like
from .constant_op import constant
from .slicing_ops import concat

__all__ = ["gather", "gather_nd", "scatter_nd", "one_hot", "boolean_mask", "unique",
           "strided_slice", "newaxis", "unsorted_segment_sum"]


# ======================================================================================
# Picking elements: gather, gather_nd, scatter_nd, one_hot, boolean_mask, unique
# ======================================================================================

def _check_indices(indices, n, what="indices"):
    """InvalidArgumentError naming the first index outside [0, n)."""
    if indices.size and (indices.min() < 0 or indices.max() >= n):
        where = np.argwhere((indices < 0) | (indices >= n))[0]
        raise InvalidArgumentError(None, None, f"{what}[{','.join(map(str, where))}] = "
                                   f"{indices[tuple(where)]} is not in [0, {n})")


class GatherV2(OpDef):
    """Picks slices of params along `axis` by integer indices (np.take)."""

    def shape(op):
        params, indices = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        axis = constant_int(op.inputs[2])
        if params.ndims is None or indices.ndims is None:
            return unknown_shape()
        if axis is None:
            return unknown_shape(params.ndims + indices.ndims - 1)
        if params.ndims == 0:
            raise ValueError("params must be at least 1 dimensional")
        axis = positive_axis(axis, params.ndims)
        dims = params.as_list()
        return TensorShape(dims[:axis] + indices.as_list() + dims[axis + 1:])

    def kernel(params, indices, axis, Tparams=None, Tindices=None, Taxis=None, batch_dims=0):
        axis = to_int(axis)
        if not -params.ndim <= axis < params.ndim:
            raise InvalidArgumentError(None, None, f"Expected axis in the range "
                                       f"[{-params.ndim}, {params.ndim}), but got {axis}")
        _check_indices(indices, params.shape[axis])
        return np.take(params, indices, axis=axis)

    def gradient(op, grad):
        """Along axis 0, as in TF: an IndexedSlices -- the incoming rows and the ids they were
        gathered from -- never a dense tensor shaped like params (see
        framework/indexed_slices.py). Along another axis, a dense scatter-add (GatherGrad)."""
        params, indices, axis = op.inputs
        if constant_int(axis) == 0:
            return [_gather_rows_gradient(params, indices, grad), None, None]
        out = apply_op("GatherGrad", [shape(params), indices, grad, axis],
                       {"T": grad.dtype.base_dtype}, name="GatherGrad",
                       output_dtypes=[grad.dtype.base_dtype])
        return [out, None, None]


def _gather_rows_gradient(params, indices, grad):
    """IndexedSlices(values=grad as [n, params.shape[1:]], indices=ids as [n],
    dense_shape=shape(params)) -- TF's _GatherV2Grad for axis 0, op for op."""
    from .math_ops import cast
    with colocate_with(params.op):
        params_shape = cast(shape(params, out_type=dtypes.int64), dtypes.int32)
    indices_size = expand_dims(size(indices), 0)
    values_shape = concat([indices_size, params_shape[1:]], 0)
    values = reshape(grad, values_shape)
    flat_indices = reshape(indices, indices_size)
    n = indices.get_shape().num_elements()
    values.set_shape(TensorShape([n]).concatenate(params.get_shape()[1:])
                     if params.get_shape().ndims is not None else unknown_shape())
    return IndexedSlices(values, flat_indices, params_shape)


class GatherGrad(OpDef):
    """Sandbox op: the dense gradient of GatherV2 -- zeros shaped like params, with each
    incoming gradient slice added at the row it was gathered from (a scatter-add)."""

    def shape(op):
        return constant_value_as_shape(op.inputs[0])

    def kernel(params_shape, indices, grad, axis, T=None):
        out = np.zeros(tuple(params_shape.tolist()), dtype=grad.dtype)
        axis = to_int(axis) % out.ndim
        np.add.at(out, (builtins.slice(None),) * axis + (indices,), grad)
        return out


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """Picks slices of `params` by index along `axis`: `tf.gather(embeddings, word_ids)` gives
    one row per id. An index outside [0, params.shape[axis]) is an error when the graph runs.

    Its gradient (along axis 0) is a tf.IndexedSlices: just the rows and their indices, which
    the optimizers apply sparsely, as in TF. tf.convert_to_tensor makes it dense.
    """
    if batch_dims != 0:
        raise NotImplementedError("The sandbox's tf.gather supports only batch_dims=0.")
    p = convert_to_tensor(params)
    i = convert_to_tensor(indices)
    if i.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"indices must be int32 or int64, got {i.dtype.name}")
    ax = int_tensor(0 if axis is None else axis)
    return apply_op("GatherV2", [p, i, ax], {"Tparams": p.dtype.base_dtype,
                                             "Tindices": i.dtype.base_dtype,
                                             "Taxis": ax.dtype.base_dtype, "batch_dims": 0},
                    name=name or "GatherV2", output_dtypes=[p.dtype.base_dtype])


class UnsortedSegmentSum(OpDef):
    """out[i] = sum of data[j] over the j with segment_ids[j] == i, for i in [0, num_segments);
    zeros where no id points. Negative ids are dropped, as in TF."""

    def shape(op):
        data, ids = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        if data.ndims is None or ids.ndims is None:
            return unknown_shape()
        n = constant_int(op.inputs[2])
        data[:ids.ndims].assert_is_compatible_with(ids)
        return TensorShape([n]).concatenate(data[ids.ndims:])

    def kernel(data, segment_ids, num_segments, T=None, Tindices=None, Tnumsegments=None):
        n = to_int(num_segments)
        if segment_ids.size and segment_ids.max() >= n:
            where = np.argwhere(segment_ids >= n)[0]
            raise InvalidArgumentError(None, None, f"segment_ids[{','.join(map(str, where))}] "
                                       f"= {segment_ids[tuple(where)]} is out of range [0, {n})")
        if data.shape[:segment_ids.ndim] != segment_ids.shape:
            raise InvalidArgumentError(None, None, f"data.shape = {list(data.shape)} does not "
                                       f"start with segment_ids.shape = "
                                       f"{list(segment_ids.shape)}")
        out = np.zeros((n,) + data.shape[segment_ids.ndim:], dtype=data.dtype)
        keep = segment_ids >= 0
        if keep.all():
            np.add.at(out, segment_ids, data)
        else:
            np.add.at(out, segment_ids[keep], data[keep])
        return out

    def gradient(op, grad):
        # Each entry of data went to one segment and gets that segment's gradient; an entry
        # whose id was negative was dropped and gets 0 (TF's _GatherDropNegatives).
        from . import basic_math_ops, comparison_ops, math_ops
        ids = op.inputs[1]
        zeros = array_ops_zeros_like(ids)
        gathered = gather(grad, basic_math_ops.maximum(ids, zeros))
        mask = math_ops.cast(comparison_ops.greater_equal(ids, zeros), grad.dtype.base_dtype)
        for _ in range((grad.get_shape().ndims or 1) - 1):
            mask = expand_dims(mask, -1)
        return [gathered * mask, None, None]


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """`tf.unsorted_segment_sum(data, ids, n)`: row i of the result sums the rows of data whose
    id is i (a tensor of n rows; rows that no id names are zeros)."""
    d, i = convert_to_tensor(data), convert_to_tensor(segment_ids)
    n = int_tensor(num_segments)
    return apply_op("UnsortedSegmentSum", [d, i, n],
                    {"T": d.dtype.base_dtype, "Tindices": i.dtype.base_dtype,
                     "Tnumsegments": n.dtype.base_dtype},
                    name=name or "UnsortedSegmentSum", output_dtypes=[d.dtype.base_dtype])


def _indexed_slices_to_tensor(value, dtype=None, name=None, as_ref=False):
    """tf.convert_to_tensor(IndexedSlices): the dense tensor, as TF builds it -- an
    UnsortedSegmentSum of the values into dense_shape[0] rows (repeated indices add up) --
    with TF's warning when that tensor is large or of unknown size."""
    if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
        raise ValueError(f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} "
                         f"for IndexedSlices with dtype {value.dtype.name}")
    if value.dense_shape is None:
        raise ValueError(f"Tensor conversion requested for IndexedSlices without dense_shape: "
                         f"{value}. Give the IndexedSlices a dense_shape to make it dense.")
    known = constant_value(value.dense_shape)
    if known is None:
        warnings.warn("Converting sparse IndexedSlices to a dense Tensor of unknown shape. "
                      "This may consume a large amount of memory.", stacklevel=3)
    elif int(np.prod(known)) >= LARGE_SPARSE_NUM_ELEMENTS:
        warnings.warn(f"Converting sparse IndexedSlices to a dense Tensor with "
                      f"{int(np.prod(known))} elements. This may consume a large amount of "
                      "memory.", stacklevel=3)
    with value.graph.as_default():
        out = unsorted_segment_sum(value.values, value.indices, value.dense_shape[0],
                                   name=name)
    if known is not None:                     # what TF's shape inference reads off the slice
        out.set_shape(TensorShape([int(known[0])]).concatenate(out.get_shape()[1:]))
    return out


register_tensor_conversion_function(IndexedSlices, _indexed_slices_to_tensor)


class GatherNd(OpDef):
    """Picks elements (or slices) of params by index vectors: the last axis of indices."""

    def shape(op):
        params, indices = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        if params.ndims is None or indices.ndims is None:
            return unknown_shape()
        depth = indices[-1].value
        if depth is None:
            return unknown_shape()
        if depth > params.ndims:
            raise ValueError(f"indices.shape[-1] must be <= params.rank, but saw indices "
                             f"shape: {shape_text(indices)} and params shape: {shape_text(params)}")
        return TensorShape(indices.as_list()[:-1] + params.as_list()[depth:])

    def kernel(params, indices, Tparams=None, Tindices=None):
        depth = indices.shape[-1]
        for k in builtins.range(depth):
            _check_indices(indices[..., k], params.shape[k], f"indices[..., {k}]")
        return params[tuple(np.moveaxis(indices, -1, 0))]

    def gradient(op, grad):
        return [scatter_nd(op.inputs[1], grad, shape(op.inputs[0])), None]


def gather_nd(params, indices, name=None, batch_dims=0):
    """`tf.gather_nd(params, [[0, 1], [2, 0]])` -> [params[0, 1], params[2, 0]]."""
    if batch_dims != 0:
        raise NotImplementedError("The sandbox's tf.gather_nd supports only batch_dims=0.")
    p, i = convert_to_tensor(params), convert_to_tensor(indices)
    return apply_op("GatherNd", [p, i], {"Tparams": p.dtype.base_dtype,
                                         "Tindices": i.dtype.base_dtype},
                    name=name or "GatherNd", output_dtypes=[p.dtype.base_dtype])


class ScatterNd(OpDef):
    """Zeros of `shape`, with `updates` added at `indices` (duplicates add up)."""

    def shape(op):
        return constant_value_as_shape(op.inputs[2])

    def kernel(indices, updates, shape, T=None, Tindices=None):
        out = np.zeros(tuple(shape.tolist()), dtype=updates.dtype)
        for k in builtins.range(indices.shape[-1]):
            _check_indices(indices[..., k], out.shape[k], f"indices[..., {k}]")
        np.add.at(out, tuple(np.moveaxis(indices, -1, 0)), updates)
        return out

    def gradient(op, grad):
        return [None, gather_nd(grad, op.inputs[0]), None]


def scatter_nd(indices, updates, shape, name=None):
    """A tensor of zeros of `shape` with `updates` added at `indices` (inverse of gather_nd)."""
    i, u, s = convert_to_tensor(indices), convert_to_tensor(updates), int_tensor(shape)
    return apply_op("ScatterNd", [i, u, s], {"T": u.dtype.base_dtype,
                                             "Tindices": i.dtype.base_dtype},
                    name=name or "ScatterNd", output_dtypes=[u.dtype.base_dtype])


class OneHot(OpDef):
    """on_value where indices == position along `axis`, off_value elsewhere."""

    def shape(op):
        in_shape = op.inputs[0].get_shape()
        depth = constant_int(op.inputs[1])
        if in_shape.ndims is None:
            return unknown_shape()
        dims = in_shape.as_list()
        axis = op.get_attr("axis")
        if not -1 <= axis <= len(dims):
            raise ValueError(f"Expected axis to be -1 or between [0, {len(dims)}).  But "
                             f"received: {axis}")
        if depth is not None and depth < 0:
            raise ValueError(f"depth must be non-negative, got: {depth}")
        axis = len(dims) if axis == -1 else axis
        return TensorShape(dims[:axis] + [depth] + dims[axis:])

    def kernel(indices, depth, on_value, off_value, axis=-1, T=None, TI=None):
        depth = to_int(depth)
        if depth < 0:
            raise InvalidArgumentError(None, None, f"depth must be non-negative, got: {depth}")
        hot = indices[..., None] == np.arange(depth)     # out-of-range indices match nothing
        out = np.where(hot, on_value, off_value)
        if axis != -1 and axis != indices.ndim:
            out = np.moveaxis(out, -1, axis)
        return out

    def gradient(op, grad):
        return [None, None, None, None]


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """`tf.one_hot([0, 2], 3)` -> [[1, 0, 0], [0, 0, 1]] (float32 unless on/off_value or
    dtype say otherwise). Indices outside [0, depth) give a row of off_value."""
    with name_scope(name, "one_hot", flat_tensors([indices, depth, on_value, off_value])) \
            as scope:
        on = convert_to_tensor(on_value) if on_value is not None else None
        off = convert_to_tensor(off_value) if off_value is not None else None
        dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        if on is not None or off is not None:
            for given, what in ((on, "on_value"), (off, "off_value")):
                if given is not None and dtype is not None and given.dtype.base_dtype != dtype:
                    raise TypeError(f"dtype {given.dtype.base_dtype.name} of {what} does not "
                                    f"match dtype parameter {dtype.name}")
            dtype = dtype or (on if on is not None else off).dtype.base_dtype
        dtype = dtype or dtypes.float32
        on = on if on is not None else constant(1, dtype=dtype, name="on_value")
        off = off if off is not None else constant(0, dtype=dtype, name="off_value")
        if on.dtype.base_dtype != off.dtype.base_dtype:
            raise TypeError(f"dtype {on.dtype.base_dtype.name} of on_value does not match "
                            f"dtype {off.dtype.base_dtype.name} of off_value")
        i = convert_to_tensor(indices)
        d = int_tensor(depth)
        return apply_op("OneHot", [i, d, on, off], {"axis": -1 if axis is None else int(axis),
                                                    "T": dtype, "TI": i.dtype.base_dtype},
                        name=scope, output_dtypes=[dtype])


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """The elements (or slices) of `tensor` where `mask` is True, as a tensor whose first
    masked dimension has the (run-time) number of True values:
    `tf.boolean_mask([1, 2, 3], [True, False, True])` -> [1, 3]."""
    from .comparison_ops import where
    with name_scope(name, values=flat_tensors([tensor, mask])):
        x = convert_to_tensor(tensor, name="tensor")
        m = convert_to_tensor(mask, name="mask")
        mask_shape, x_shape = m.get_shape(), x.get_shape()
        k = mask_shape.ndims
        if k == 0:
            raise ValueError("mask cannot be scalar.")
        if k is None:
            raise ValueError("Number of mask dimensions must be specified, even if some "
                             "dimensions are None.  E.g. shape=[None] is ok, but shape=None "
                             "is not.")
        axis = 0 if axis is None else axis
        x_shape[axis:axis + k].assert_is_compatible_with(mask_shape)
        if k > 1 or x_shape.ndims is None:
            # Merge the k masked dimensions into one: reshape to [..., -1, ...].
            x_dims = shape(x)
            x = reshape(x, concat([x_dims[:axis], [-1], x_dims[axis + k:]], 0))
            masked = x_shape[axis:axis + k].num_elements()
            if x_shape.ndims is not None:
                x.set_shape(x_shape[:axis].concatenate([masked]).concatenate(
                    x_shape[axis + k:]))
            m = reshape(m, [-1])
        indices = squeeze(where(m), axis=[1])
        return gather(x, indices, axis=axis)


class Unique(OpDef):
    """The distinct values of a 1-D tensor in order of first appearance, and for each input
    element the position of its value among them."""
    differentiable = False
    multi_output = True

    def shape(op):
        return [TensorShape([None]), op.inputs[0].get_shape()]

    def kernel(x, T=None, out_idx=None):
        values, first, inverse = np.unique(x, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")         # unique values by first appearance
        rank_of = np.empty_like(order)
        rank_of[order] = np.arange(order.size)
        return values[order], rank_of[inverse.reshape(-1)].astype(out_idx.as_numpy_dtype)


UniqueOutput = collections.namedtuple("Unique", ["y", "idx"])


def unique(x, out_idx=dtypes.int32, name=None):
    """`y, idx = tf.unique([1, 1, 2, 4, 4, 4, 7, 8, 8])`: y = [1 2 4 7 8],
    idx = [0 0 1 2 2 2 3 4 4] -- a namedtuple Unique(y, idx), as TF's."""
    x = convert_to_tensor(x)
    out_idx = dtypes.as_dtype(out_idx)
    return UniqueOutput(*apply_op("Unique", [x], {"T": x.dtype.base_dtype, "out_idx": out_idx},
                            name=name or "Unique", output_dtypes=[x.dtype.base_dtype, out_idx]))


# ======================================================================================
# Python indexing: strided_slice and Tensor.__getitem__ (t[1:3, ..., tf.newaxis, 0])
# ======================================================================================

newaxis = None          # tf.newaxis: `t[:, tf.newaxis]` inserts an axis of size 1, as NumPy's

def _strided_slice_shape(op):
    in_shape = op.inputs[0].get_shape()
    begin, end = partial_vector(op.inputs[1]), partial_vector(op.inputs[2])
    strides = constant_value(op.inputs[3])
    if strides is None or in_shape.ndims is None:
        return unknown_shape()
    strides = np.reshape(strides, -1).tolist()
    m = slice_masks(op)
    n = len(strides)
    begin = begin if begin is not None else [None] * n
    end = end if end is not None else [None] * n
    kinds = []
    for i in builtins.range(n):
        bit = 1 << i
        kinds.append("..." if m["ellipsis_mask"] & bit else "new" if m["new_axis_mask"] & bit
                     else "shrink" if m["shrink_axis_mask"] & bit else "slice")
    if kinds.count("...") > 1:
        raise ValueError("Multiple ellipses in slice spec not allowed")
    if "..." not in kinds:
        kinds.append("...")
        begin, end, strides = begin + [0], end + [0], strides + [1]
    dims = in_shape.as_list()
    used = sum(k in ("shrink", "slice") for k in kinds)
    if used > len(dims):
        raise ValueError(f"Index out of range using input dim {len(dims)}; input has only "
                         f"{len(dims)} dims")
    out, d = [], 0
    for i, kind in enumerate(kinds):
        bit = 1 << i
        if kind == "...":
            out.extend(dims[d:d + len(dims) - used])
            d += len(dims) - used
        elif kind == "new":
            out.append(1)
        elif kind == "shrink":
            if dims[d] is not None and begin[i] is not None and \
                    not -dims[d] <= begin[i] < dims[d]:
                raise ValueError(f"slice index {begin[i]} of dimension {d} out of bounds.")
            d += 1
        else:
            if strides[i] == 0:
                raise ValueError(f"strides[{i}] must be non-zero")
            b = None if m["begin_mask"] & bit else begin[i]
            e = None if m["end_mask"] & bit else end[i]
            known = (b is not None or m["begin_mask"] & bit) and \
                (e is not None or m["end_mask"] & bit)
            if dims[d] is None or not known:
                out.append(None)
            else:
                out.append(len(builtins.range(*builtins.slice(b, e, strides[i]).indices(
                    dims[d]))))
            d += 1
    return TensorShape(out)


class StridedSlice(OpDef):
    """Python/NumPy-style basic indexing, x[begin:end:stride, ...], described by four masks."""
    shape = _strided_slice_shape

    def kernel(input, begin, end, strides, T=None, Index=None, **masks):  # noqa: A002
        try:
            return input[index_tuple(begin, end, strides, **masks)]
        except IndexError as e:
            raise InvalidArgumentError(None, None, f"slice index out of bounds: {e}") from None

    def gradient(op, grad):
        x, begin, end, strides = op.inputs
        out = apply_op("StridedSliceGrad", [shape(x), begin, end, strides, grad],
                       dict(slice_masks(op), T=grad.dtype.base_dtype,
                            Index=begin.dtype.base_dtype),
                       name="StridedSliceGrad", output_dtypes=[grad.dtype.base_dtype])
        return [out, None, None, None]


class StridedSliceGrad(OpDef):
    """The gradient of StridedSlice: zeros shaped like the input, with dy put back where the
    slice came from."""

    def shape(op):
        return constant_value_as_shape(op.inputs[0])

    def kernel(shape, begin, end, strides, dy, T=None, Index=None, **masks):
        out = np.zeros(tuple(shape.tolist()), dtype=dy.dtype)
        out[index_tuple(begin, end, strides, **masks)] = dy
        return out


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """`x[begin:end:strides]` per dimension; usually written with Python's slice syntax,
    which builds this op (see _slice_helper)."""
    x = convert_to_tensor(input_)
    b, e = int_tensor(begin), int_tensor(end)
    s = ones_like(b) if strides is None else int_tensor(strides)
    attrs = {"T": x.dtype.base_dtype, "Index": b.dtype.base_dtype, "begin_mask": begin_mask,
             "end_mask": end_mask, "ellipsis_mask": ellipsis_mask,
             "new_axis_mask": new_axis_mask, "shrink_axis_mask": shrink_axis_mask}
    return apply_op("StridedSlice", [x, b, e, s], attrs, name=name or "StridedSlice",
                    output_dtypes=[x.dtype.base_dtype])


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                     "scalar tf.int32/tf.int64 tensors are valid indices")


def _check_index(idx):
    if isinstance(idx, (int, np.integer, Dimension)) and not isinstance(idx, bool):
        return
    dtype = getattr(idx, "dtype", None)
    if dtype is None or dtypes.as_dtype(dtype).base_dtype not in (dtypes.int32, dtypes.int64) \
            or (isinstance(idx, Tensor) and idx.get_shape().ndims not in (None, 0)):
        raise TypeError(f"{_SLICE_TYPE_ERROR}, got {idx!r}")


def _slice_helper(tensor, slice_spec, var=None):
    """Tensor.__getitem__: turns Python indexing into one StridedSlice op, as TF does.

    `t[1:3]`, `t[:, 0]`, `t[::-1]`, `t[..., 0]`, `t[:, tf.newaxis]`, `t[i]` with a scalar int
    Tensor i. Each entry of the index becomes one entry of begin/end/strides plus a bit in a
    mask: begin_mask/end_mask for an omitted start/stop, shrink_axis_mask for an integer
    (the axis disappears), new_axis_mask for None, ellipsis_mask for `...`.
    A boolean mask (a bool Tensor or NumPy array) goes to tf.boolean_mask.
    """
    if isinstance(slice_spec, bool) or \
            (isinstance(slice_spec, Tensor) and slice_spec.dtype.base_dtype == dtypes.bool) or \
            (isinstance(slice_spec, np.ndarray) and slice_spec.dtype == bool):
        return boolean_mask(tensor, slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    masks = dict.fromkeys(SLICE_MASKS, 0)
    for index, s in enumerate(slice_spec):
        bit = 1 << index
        if isinstance(s, builtins.slice):
            for part, out, mask in ((s.start, begin, "begin_mask"), (s.stop, end, "end_mask")):
                if part is not None:
                    _check_index(part)
                    out.append(dim_value(part))
                else:
                    out.append(0)
                    masks[mask] |= bit
            if s.step is not None:
                _check_index(s.step)
            strides.append(1 if s.step is None else dim_value(s.step))
        elif s is Ellipsis or s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            masks["ellipsis_mask" if s is Ellipsis else "new_axis_mask"] |= bit
        else:
            _check_index(s)
            s = dim_value(s)
            begin.append(s)
            end.append(s + 1)
            strides.append(1)
            masks["shrink_axis_mask"] |= bit
    with name_scope(None, "strided_slice", [tensor] + flat_tensors(begin + end + strides)) \
            as name:
        if begin:
            packed = [stack(v) for v in (begin, end, strides)]
            if any(p.dtype.base_dtype == dtypes.int64 for p in packed):
                from .math_ops import cast
                packed = [p if p.dtype.base_dtype == dtypes.int64 else cast(p, dtypes.int64)
                          for p in packed]
        else:
            empty = constant([], dtype=dtypes.int32)
            packed = [empty] * 3
        return strided_slice(tensor, *packed, var=var, name=name, **masks)


Tensor._override_operator("__getitem__", _slice_helper)
