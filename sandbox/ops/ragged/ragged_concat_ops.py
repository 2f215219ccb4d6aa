"""tf.ragged.stack -- mirrors TensorFlow 1.x's python/ops/ragged/ragged_concat_ops.py: tensors
of one rank (ragged or dense, of any sizes) stacked along a new axis.

    t1 = [[1, 2], [3, 4, 5]];  t2 = [[6], [7, 8, 9]]
    tf.ragged.stack([t1, t2], axis=0)    [[[1, 2], [3, 4, 5]], [[6], [7, 8, 9]]]
    tf.ragged.stack([t1, t2], axis=1)    [[[1, 2], [6]], [[3, 4, 5], [7, 8, 9]]]
    tf.ragged.stack([[1, 2], [3]])       [[1, 2], [3]]      (dense vectors of any lengths)

Axis 0 concatenates the flat values and shifts the row splits; axis 1 interleaves the rows
(a row gather); deeper axes stack the values of tensors whose row splits agree (checked when
the graph runs). The result has ragged_rank 1 + max(axis, the inputs' ragged_ranks).
"""
from ...framework.graph import control_dependencies, name_scope
from ...framework.tensor_shape import TensorShape
from .. import check_ops
from ..array_ops import range as _range, reshape, shape as _shape, stack as _dense_stack
from ..array_ops import transpose
from ..slicing_ops import concat as _dense_concat
from ...framework.tensor_util import positive_axis
from . import ragged_util
from .ragged_gather_ops import gather_rows
from .ragged_tensor import (RaggedTensor, convert_to_tensor_or_ragged_tensor, is_ragged,
                            match_row_splits_dtypes)

__all__ = ["stack"]


def stack(values, axis=0, name=None):
    """The tensors `values` (one rank R, ragged or not, any sizes) stacked along `axis` into
    a RaggedTensor of rank R + 1 (a 1-D Tensor when R is 0)."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    with name_scope(name, "RaggedConcat", values):
        return _ragged_stack_concat(values, axis, stack_values=True)


def _ragged_stack_concat(rt_inputs, axis, stack_values):
    if not rt_inputs:
        raise ValueError("rt_inputs may not be empty.")
    rt_inputs = [convert_to_tensor_or_ragged_tensor(t, name="rt_input") for t in rt_inputs]
    row_splits_dtype, rt_inputs = match_row_splits_dtypes(*rt_inputs,
                                                                      return_dtype=True)
    rt_inputs = list(rt_inputs)
    if len(rt_inputs) == 1 and not stack_values:
        return rt_inputs[0]
    ndims = None
    for rt in rt_inputs:
        if ndims is None:
            ndims = rt.shape.ndims
        else:
            rt.shape.assert_has_rank(ndims)
    out_ndims = ndims if (ndims is None or not stack_values) else ndims + 1
    if out_ndims is None:
        raise ValueError("tf.ragged.stack needs inputs of known rank.")
    axis = positive_axis(axis, out_ndims)
    if stack_values and ndims == 1 and axis == 0:
        return RaggedTensor.from_row_lengths(
            values=_dense_concat(rt_inputs, axis=0),
            row_lengths=_dense_concat([_shape(r) for r in rt_inputs], axis=0))
    if all(not is_ragged(rt) for rt in rt_inputs):
        if axis == out_ndims - 1 or axis == ndims - 1:
            return _dense_stack(rt_inputs, axis) if stack_values else \
                _dense_concat(rt_inputs, axis)
    for i, rt in enumerate(rt_inputs):
        if not is_ragged(rt):
            rt_inputs[i] = RaggedTensor.from_tensor(rt, ragged_rank=1,
                                                    row_splits_dtype=row_splits_dtype)
    ragged_rank = max(max(rt.ragged_rank for rt in rt_inputs), 1)
    rt_inputs = [_increase_ragged_rank_to(rt, ragged_rank, row_splits_dtype)
                 for rt in rt_inputs]
    if axis == 0:
        return _stack_concat_axis_0(rt_inputs, stack_values)
    if axis == 1:
        return _stack_concat_axis_1(rt_inputs, stack_values)
    values = [rt.values for rt in rt_inputs]
    splits = [[rt.row_splits] for rt in rt_inputs]
    with control_dependencies(ragged_util.assert_splits_match(splits)):
        return RaggedTensor.from_row_splits(_ragged_stack_concat(values, axis - 1, stack_values),
                                            splits[0][0], validate=False)


def _stack_concat_axis_0(rt_inputs, stack_values):
    flat_values = _dense_concat([rt.flat_values for rt in rt_inputs], axis=0)
    nested_splits = [rt.nested_row_splits for rt in rt_inputs]
    ragged_rank = rt_inputs[0].ragged_rank
    concatenated = [_concat_ragged_splits([ns[dim] for ns in nested_splits])
                    for dim in range(ragged_rank)]
    if stack_values:
        stack_lengths = _dense_stack([rt.nrows() for rt in rt_inputs])
        concatenated.insert(0, ragged_util.lengths_to_splits(stack_lengths))
    return RaggedTensor.from_nested_row_splits(flat_values, concatenated, validate=False)


def _stack_concat_axis_1(rt_inputs, stack_values):
    num_inputs = len(rt_inputs)
    rt_nrows = rt_inputs[0].nrows()
    checks = [check_ops.assert_equal(rt_nrows, rt.nrows(),
                                     message=f"Input tensors at index 0 (=x) and {index + 1} "
                                             "(=y) have incompatible shapes.")
              for index, rt in enumerate(rt_inputs[1:])]
    with control_dependencies(checks):
        concatenated = _stack_concat_axis_0(rt_inputs, stack_values=False)
        row_indices = _range(rt_nrows * num_inputs)
        row_permutation = reshape(transpose(reshape(row_indices, [num_inputs, -1])), [-1])
        permuted = gather_rows(concatenated, row_permutation)
        if stack_values:
            stack_splits = _range(0, rt_nrows * num_inputs + 1, num_inputs)
            _copy_row_shape(rt_inputs, stack_splits)
            return RaggedTensor.from_row_splits(permuted, stack_splits, validate=False)
        concat_splits = permuted.row_splits[::num_inputs]
        _copy_row_shape(rt_inputs, concat_splits)
        return RaggedTensor.from_row_splits(permuted.values, concat_splits, validate=False)


def _copy_row_shape(rt_inputs, splits):
    for rt in rt_inputs:
        if rt.shape[0].value is not None:
            splits.set_shape(TensorShape([rt.shape[0].value + 1]))


def _increase_ragged_rank_to(rt, ragged_rank, row_splits_dtype):
    if ragged_rank > 0:
        if not is_ragged(rt):
            rt = RaggedTensor.from_tensor(rt, row_splits_dtype=row_splits_dtype)
        if rt.ragged_rank < ragged_rank:
            rt = rt.with_values(_increase_ragged_rank_to(rt.values, ragged_rank - 1,
                                                         row_splits_dtype))
    return rt


def _concat_ragged_splits(splits_list):
    pieces = [splits_list[0]]
    offset = splits_list[0][-1]
    for splits in splits_list[1:]:
        pieces.append(splits[1:] + offset)
        offset += splits[-1]
    return _dense_concat(pieces, axis=0)
