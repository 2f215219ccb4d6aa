"""Ragged <-> dense and sparse -- mirrors TensorFlow's RaggedTensor.to_tensor, from_tensor,
to_sparse and from_sparse (python/ops/ragged/ragged_tensor.py) and the two kernels they use
(core/kernels/ragged_tensor_to_tensor_op.cc, ragged_tensor_to_sparse_kernel.cc).

    rt = [[1, 2], [], [3]]
    rt.to_tensor()              [[1, 2], [0, 0], [3, 0]]    padded to the bounding shape
    rt.to_tensor(9, shape=[2, 3])  [[1, 2, 9], [9, 9, 9]]   cut or padded to `shape`
    rt.to_sparse()              SparseTensor(indices=[[0, 0], [0, 1], [2, 0]], values=[1, 2, 3],
                                             dense_shape=[3, 2])
    RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], padding=0)   [[1, 2], [3]]
    RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], lengths=[1, 3])   [[1], [3, 0, 0]]

to_tensor is op RaggedTensorToTensor (its gradient sends each cell's gradient back to the
value placed there, the rest to default_value); to_sparse is RaggedTensorToSparse.
from_tensor and from_sparse are built from ordinary ops, as in TF.
"""
import numpy as np

from ...framework import dtypes
from ...framework import errors
from ...framework.graph import control_dependencies, name_scope
from ...framework.op_def import OpDef, apply_op
from ...framework.sparse_tensor import SparseTensor, SparseTensorValue
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import TensorShape, as_shape
from ...framework.tensor_util import constant_value_as_shape
from .. import math_ops
from ..array_ops import expand_dims, ones, range as _range, reshape, shape as _shape, stack
from ..array_ops import sequence_mask
from ..basic_math_ops import maximum, minimum
from ..comparison_ops import equal, logical_and, logical_not, not_equal, where
from ..constant_op import constant
from ..indexing_ops import boolean_mask, unsorted_segment_sum
from ..logging_ops import Assert
from ..math_extra_ops import cumprod
from ..reduction_ops import reduce_all, reduce_any, reduce_max, reduce_sum
from ..slicing_ops import concat
from . import ragged_util
from .ragged_tensor import with_rank_at_least

__all__ = []


def value_coordinates(nested_splits):
    """[nvals, ragged_rank + 1]: for each flat value (row of flat_values), its index in the
    dense tensor along the row and the ragged dimensions."""
    coords = np.arange(len(nested_splits[0]) - 1, dtype=np.int64)[:, None]
    for level, splits in enumerate(nested_splits):
        splits = np.asarray(splits, np.int64)
        if len(splits) - 1 != len(coords):
            raise errors.InvalidArgumentError(
                None, None, f"Invalid row splits at ragged dimension {level}: "
                f"{len(splits) - 1} rows, but the dimension above holds {len(coords)} values")
        if len(splits) and (splits[0] != 0 or np.any(np.diff(splits) < 0)):
            raise errors.InvalidArgumentError(
                None, None, f"Invalid row splits at ragged dimension {level}: "
                f"{splits.tolist()} must start at 0 and not decrease")
        lengths = np.diff(splits)
        parent = np.repeat(np.arange(len(lengths)), lengths)
        column = np.arange(splits[-1] if len(splits) else 0) - splits[:-1][parent]
        coords = np.concatenate([coords[parent], column[:, None]], axis=1)
    return coords


def _bounding(nested_splits, inner):
    return [len(nested_splits[0]) - 1] + [int(np.diff(s).max(initial=0))
                                          for s in nested_splits] + list(inner)


def _check_nvals(nested_splits, values):
    if int(nested_splits[-1][-1]) != values.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, f"The last row splits ({int(nested_splits[-1][-1])} values) do not "
            f"match flat_values.shape[0] = {values.shape[0]}")


class RaggedTensorToTensor(OpDef):
    """The dense tensor of a ragged one given by its row_splits (row_partition_types all
    "ROW_SPLITS"): each value at its place, default_value elsewhere; `shape` (-1 entries:
    the bounding size) cuts or pads it."""

    def shape(op):
        shape_in, values, default = op.inputs[:3]
        ragged_rank = len(op.inputs) - 3
        vshape, dshape = values.get_shape(), default.get_shape()
        if vshape.ndims is not None and dshape.ndims is not None:
            if dshape.ndims >= vshape.ndims:
                raise ValueError(
                    f"default_value.shape={dshape.as_list()} and rt_input.flat_values.shape="
                    f"{vshape.as_list()} are incompatible: default_value.rank = "
                    f"{dshape.ndims}  must be less than rt_input.flat_values.rank = "
                    f"{vshape.ndims}")
        nsplits = op.inputs[3].get_shape()[0].value
        out = TensorShape([None if nsplits is None else nsplits - 1] +
                          [None] * ragged_rank).concatenate(vshape[1:])
        if shape_in.get_shape().ndims == 1:
            given = constant_value_as_shape(shape_in)
            if given.ndims is not None and out.ndims is not None and \
                    given.ndims != out.ndims:
                raise ValueError(f"The shape {given} does not have the rank of the ragged "
                                 f"tensor ({out.ndims})")
            if given.ndims is not None and out.ndims is not None:
                out = TensorShape([a if a is not None else b for a, b in
                                   zip(given.as_list(), out.as_list())])
        return out

    def kernel(shape, values, default_value, *row_partition_tensors, T=None, Tindex=None,
               Tshape=None, num_row_partition_tensors=None, row_partition_types=None):
        splits = [np.asarray(s, np.int64) for s in row_partition_tensors]
        _check_nvals(splits, values)
        k, inner = len(splits), values.shape[1:]
        bounding = _bounding(splits, inner)
        if np.ndim(shape) == 0:
            out_shape = bounding
        else:
            shape = np.reshape(shape, -1).tolist()
            if len(shape) != len(bounding):
                raise errors.InvalidArgumentError(
                    None, None, f"shape {shape} does not have the rank of the ragged tensor "
                    f"({len(bounding)})")
            out_shape = [b if s < 0 else int(s) for s, b in zip(shape, bounding)]
            if tuple(out_shape[k + 1:]) != tuple(inner):
                raise errors.InvalidArgumentError(
                    None, None, f"The inner dimensions of shape {shape} must be those of the "
                    f"flat values {list(inner)} (the sandbox pads only the row and ragged "
                    "dimensions)")
        try:
            fill = np.broadcast_to(np.asarray(default_value, dtype=values.dtype), inner)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"default_value of shape {list(np.shape(default_value))} cannot "
                f"be broadcast to the values' inner shape {list(inner)}") from None
        out = np.empty(out_shape, dtype=values.dtype)
        out[...] = fill
        coords = value_coordinates(splits)
        keep = np.all(coords < np.array(out_shape[:k + 1], np.int64), axis=1)
        out[tuple(coords[keep].T)] = values[keep]
        return out

    def gradient(op, grad):
        shape_in, values, default = op.inputs[:3]
        partitions = list(op.inputs[3:])
        k = len(partitions)
        dtype = partitions[0].dtype.base_dtype
        nvals = _shape(values, out_type=dtype)[0]
        # which value each dense cell holds (-1: the default)
        index_map = apply_op("RaggedTensorToTensor",
                             [_shape(op.outputs[0], out_type=dtype)[:k + 1],
                              _range(nvals, dtype=dtype), constant(-1, dtype)] + partitions,
                             _attrs(dtype, dtype, dtype, k), name="RaggedToTensorGrad",
                             output_dtypes=[dtype])
        flat_map = reshape(index_map, [-1])
        flat_grad = reshape(grad, concat([constant([-1], dtypes.int32),
                                          _shape(values)[1:]], axis=0))
        values_grad = unsorted_segment_sum(flat_grad, flat_map, nvals)
        default_grad = reduce_sum(boolean_mask(flat_grad, equal(flat_map, -1)), axis=0)
        default_grad = _sum_to_shape(default_grad, default.get_shape())
        return [None, values_grad, default_grad] + [None] * k


def _attrs(values_dtype, index_dtype, shape_dtype, ragged_rank):
    return {"T": values_dtype, "Tindex": index_dtype, "Tshape": shape_dtype,
            "num_row_partition_tensors": ragged_rank,
            "row_partition_types": ["ROW_SPLITS"] * ragged_rank}


def _sum_to_shape(grad, shape):
    """grad summed over the dimensions `shape` (of a value broadcast into grad) did not have;
    None when that shape is not known."""
    if not shape.is_fully_defined() or grad.get_shape().ndims is None:
        return None
    target, rank = shape.as_list(), grad.get_shape().ndims
    lead = rank - len(target)
    if lead:
        grad = reduce_sum(grad, axis=list(range(lead)))
    ones = [i for i, n in enumerate(target) if n == 1 and grad.get_shape()[i].value != 1]
    if ones:
        grad = reduce_sum(grad, axis=ones, keepdims=True)
    return grad


class RaggedTensorToSparse(OpDef):
    """The SparseTensor (indices, values, dense_shape) of a ragged tensor given by its nested
    row splits and flat values; the values' inner dimensions become sparse dimensions too."""
    multi_output = True

    def shape(op):
        vshape = op.inputs[-1].get_shape()
        rank = None if vshape.ndims is None else vshape.ndims + len(op.inputs) - 1
        return [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])]

    def kernel(*inputs, RAGGED_RANK=None, T=None, Tsplits=None):  # noqa: N803 -- TF's names
        splits, values = [np.asarray(s, np.int64) for s in inputs[:-1]], inputs[-1]
        _check_nvals(splits, values)
        inner = values.shape[1:]
        coords = value_coordinates(splits)
        if inner:
            cells = int(np.prod(inner))
            inner_index = np.indices(inner).reshape(len(inner), -1).T
            coords = np.concatenate([np.repeat(coords, cells, axis=0),
                                     np.tile(inner_index, (len(coords), 1))], axis=1)
        return (coords.astype(np.int64), values.reshape(-1),
                np.array(_bounding(splits, inner), np.int64))

    def gradient(op, indices_grad, values_grad, shape_grad):
        values = op.inputs[-1]
        return [None] * (len(op.inputs) - 1) + [reshape(values_grad, _shape(values))]


# -- to_tensor / to_sparse ------------------------------------------------------------------

def _zero(dtype):
    if dtype == dtypes.string:
        return constant(b"", dtypes.string)
    if dtype == dtypes.bool:
        return constant(False, dtypes.bool)
    return constant(0, dtype)


def ragged_to_tensor(rt, default_value=None, name=None, shape=None):
    """RaggedTensor.to_tensor: see the module docstring."""
    with name_scope(name, "RaggedToTensor", [rt, default_value, shape]):
        dtype = rt.dtype.base_dtype
        default_value = _zero(dtype) if default_value is None else \
            convert_to_tensor(default_value, name="default_value", dtype=dtype)
        partitions = list(rt.nested_row_splits)
        index_dtype = partitions[0].dtype.base_dtype
        if shape is None or (isinstance(shape, TensorShape) and shape.ndims is None):
            shape_tensor = constant(-1, index_dtype)
        elif isinstance(shape, Tensor):
            shape_tensor = math_ops.cast(shape, index_dtype) \
                if shape.dtype.base_dtype != index_dtype else shape
        elif isinstance(shape, (list, tuple)) and any(isinstance(v, Tensor) for v in shape):
            shape_tensor = stack([math_ops.cast(v, index_dtype) if isinstance(v, Tensor)
                                  else constant(-1 if v is None else v, index_dtype)
                                  for v in shape])
        else:
            dims = as_shape(shape).as_list()
            shape_tensor = constant([-1 if d is None else d for d in dims], index_dtype)
        return apply_op("RaggedTensorToTensor",
                        [shape_tensor, rt.flat_values, default_value] + partitions,
                        _attrs(dtype, index_dtype, index_dtype, len(partitions)),
                        name="RaggedTensorToTensor", output_dtypes=[dtype])


def ragged_to_sparse(rt, name=None):
    """RaggedTensor.to_sparse: see the module docstring."""
    with name_scope(name, "RaggedToSparse", [rt]):
        splits = list(rt.nested_row_splits)
        indices, values, dense_shape = apply_op(
            "RaggedTensorToSparse", splits + [rt.flat_values],
            {"RAGGED_RANK": len(splits), "T": rt.dtype.base_dtype,
             "Tsplits": splits[0].dtype.base_dtype}, name="RaggedTensorToSparse",
            output_dtypes=[dtypes.int64, rt.dtype.base_dtype, dtypes.int64])
        return SparseTensor(indices, values, dense_shape)


# -- from_tensor / from_sparse ----------------------------------------------------------------

def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                row_splits_dtype=dtypes.int64):
    """RaggedTensor.from_tensor (TF's algorithm): without lengths or padding every row is
    whole (the static shape keeps the row length); `lengths` cuts each row of the innermost
    ragged dimension; `padding` drops each row's trailing entries equal to it."""
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if not isinstance(ragged_rank, int):
        raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
    if ragged_rank <= 0:
        raise ValueError(f"Argument `ragged_rank` must be greater than 0. Received "
                         f"{ragged_rank}.")
    with name_scope(name, "RaggedFromTensor", [tensor, lengths, padding]):
        tensor = convert_to_tensor(tensor, name="tensor")
        rank = tensor.get_shape().ndims
        if rank is not None and rank < 2:
            raise ValueError(f"The rank of a RaggedTensor must be greater than 1, i.e., a list "
                             f"of scalars won't have ragged dimensions. Received argument "
                             f"`tensor` with rank {rank}.")
        with_rank_at_least(tensor.get_shape(), ragged_rank + 1)
        input_shape = _shape(tensor, out_type=row_splits_dtype)
        static = tensor.get_shape()
        if lengths is not None and isinstance(lengths, (list, tuple)) and len(lengths) and \
                not isinstance(lengths[0], (int, float, np.integer)):
            return _from_nested_lengths(cls, tensor, lengths, ragged_rank)
        if ragged_rank > 1:
            return _from_tensor_deep(cls, tensor, lengths, padding, ragged_rank,
                                     row_splits_dtype, input_shape)
        ncols = input_shape[1]
        if padding is not None:
            lengths = _lengths_before_padding(tensor, padding, ncols, row_splits_dtype)
        if lengths is not None:
            lengths = ragged_util.convert_to_int_tensor(lengths, "lengths", row_splits_dtype)
            lengths.get_shape().assert_has_rank(1)
            lengths = maximum(minimum(lengths, ncols), 0)
            splits = ragged_util.lengths_to_splits(lengths)
            values = boolean_mask(tensor, sequence_mask(lengths, maxlen=ncols))
            return cls.from_row_splits(values, splits, validate=False)
        values = reshape(tensor, concat([reshape(input_shape[0] * input_shape[1], [1]),
                                         input_shape[2:]], axis=0))
        nrows = static[0].value if static[0].value is not None else input_shape[0]
        ncols = static[1].value if static[1].value is not None else input_shape[1]
        if static[:2].is_fully_defined():
            values.set_shape(TensorShape([static[0].value * static[1].value])
                             .concatenate(static[2:]))
        return cls._from_uniform_row_length(values, ncols, nrows, row_splits_dtype)


def _lengths_before_padding(tensor, padding, ncols, dtype):
    """For each row, 1 + the index of its last entry that differs from `padding`."""
    padding = convert_to_tensor(padding, name="padding", dtype=tensor.dtype.base_dtype)
    padding.get_shape().assert_is_compatible_with(tensor.get_shape()[2:])
    has_default = equal(padding, tensor)
    rank = tensor.get_shape().ndims
    if rank is None:
        raise ValueError("from_tensor with padding needs a tensor of known rank in the "
                         "sandbox.")
    if rank > 2:
        has_default = reduce_all(has_default, axis=list(range(2, rank)))
    nondefault = math_ops.cast(logical_not(has_default), dtype)
    position = nondefault * expand_dims(_range(constant(1, dtype), ncols + 1), 0)
    # (TF: reduce_max over axis 1; a zero column keeps rows of no columns at 0.)
    zeros = position[:, :1] * 0
    return reduce_max(concat([zeros, position], axis=1), axis=1)


def _from_tensor_deep(cls, tensor, lengths, padding, ragged_rank, dtype, input_shape):
    """ragged_rank > 1: the first ragged_rank dimensions flattened, cut by lengths/padding at
    the innermost one, then regrouped by the uniform dimensions above it."""
    static = tensor.get_shape()
    if static.is_fully_defined():
        dims = static.as_list()
        dim_size = np.cumprod(dims).tolist()
        new_shape = [dim_size[ragged_rank - 1]] + dims[ragged_rank:]
    else:
        dim_size = cumprod(input_shape)
        new_shape = concat([reshape(dim_size[ragged_rank - 1], [1]), input_shape[ragged_rank:]],
                           axis=0)
    result = from_tensor(cls, reshape(tensor, new_shape), lengths, padding,
                         row_splits_dtype=dtype)
    for axis in range(ragged_rank - 1, 0, -1):
        dim_len = static[axis].value
        if dim_len is None:
            dim_len = input_shape[axis]
        result = cls._from_uniform_row_length(result, dim_len, dim_size[axis - 1], dtype)
    return result


def _from_nested_lengths(cls, tensor, lengths, ragged_rank):
    """from_tensor with one row_lengths per ragged dimension."""
    if ragged_rank not in (1, len(lengths)):
        raise ValueError(f"If Argument `lengths` is a tuple of row_lengths, argument "
                         f"`ragged_rank` must be len(lengths): {len(lengths)}. Received "
                         f"ragged_rank: {ragged_rank}.")
    with_rank_at_least(tensor.get_shape(), len(lengths) + 1)
    num_tokens = reduce_sum(lengths[-1])
    ones_mask = ones(reshape(num_tokens, [1]), dtypes.bool)
    ragged_mask = cls.from_nested_row_lengths(ones_mask, lengths, validate=False)
    dense_mask = ragged_mask.to_tensor(default_value=False)
    masked = boolean_mask(tensor, dense_mask)
    return cls.from_nested_row_lengths(masked, lengths, validate=False)


def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
    """RaggedTensor.from_sparse: see the module docstring."""
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if not isinstance(st_input, (SparseTensor, SparseTensorValue)):
        raise TypeError(f"Argument `st_input` must be of type SparseTensor, but is of type "
                        f"{type(st_input).__name__}.")
    with name_scope(name, "RaggedFromSparse", [st_input]):
        if isinstance(st_input, SparseTensorValue):
            st_input = SparseTensor.from_value(st_input)
        rank_from_shape = st_input.dense_shape.get_shape()[0].value \
            if st_input.dense_shape.get_shape().ndims else None
        rank_from_indices = st_input.indices.get_shape()[1].value \
            if st_input.indices.get_shape().ndims else None
        if rank_from_shape != 2 and rank_from_indices != 2:
            raise ValueError("rank(st_input) must be 2.")
        with control_dependencies(_assert_sparse_indices_are_ragged_right(st_input.indices)):
            segment_ids = math_ops.cast(st_input.indices[:, 0], row_splits_dtype)
            num_segments = math_ops.cast(st_input.dense_shape[0], row_splits_dtype)
            return cls.from_value_rowids(st_input.values, segment_ids, num_segments,
                                         validate=False)


def _assert_sparse_indices_are_ragged_right(indices):
    """An Assert that each row's column indices run 0, 1, 2 ... without gaps (TF's)."""
    index_prefix = indices[:, :-1]
    index_suffix = indices[:, -1]
    prefix_changed = reduce_any(not_equal(index_prefix[1:], index_prefix[:-1]), axis=1)
    index_ok = where(prefix_changed, equal(index_suffix[1:], 0),
                     equal(index_suffix[1:], index_suffix[:-1] + 1))
    ragged_right = logical_and(reduce_all(equal(index_suffix[:1], 0)), reduce_all(index_ok))
    return [Assert(ragged_right, ["SparseTensor is not right-ragged",
                                  "SparseTensor.indices =", indices])]
