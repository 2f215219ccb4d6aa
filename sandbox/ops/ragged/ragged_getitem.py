"""rt[...] -- mirrors TensorFlow's RaggedTensor.__getitem__ (python/ops/ragged/ragged_getitem.py).

    rt = [[1, 2, 3], [], [4], [5, 6]]
    rt[0]        [1, 2, 3]              a row: a Tensor (a RaggedTensor when rt is deeper)
    rt[-1]       [5, 6]
    rt[1:3]      [[], [4]]              rows: a RaggedTensor (any step: rt[::2])
    rt[0, 1]     2
    rt[:, 1:]    [[2, 3], [], [], [6]]  a slice of every row
    rt[:, 0]     ValueError: Cannot index into an inner ragged dimension.  (as TF: row 1 has
                 no entry 0; rt[:, :1] or rt.to_tensor()[:, 0] say what to do with it)

An integer key picks one row (its values sliced from `values` by row_splits); a slice of rows
slices row_splits; a slice inside the rows is built, as in TF, from one range of value indices
per row (tf.ragged.range) and a gather. Keys past the ragged dimensions index the uniform
inner dimensions of `values` (rt[:, :, 0] of a (?, ?, 3) tensor). tf.newaxis and `...` work
as in TF.
"""
from ...framework import dtypes
from ...framework.graph import name_scope
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_util import constant_value
from .. import check_ops, math_ops
from ..array_ops import size as _size, zeros
from ..basic_math_ops import maximum, minimum
from ..manip_ops import where_v2
from ..slicing_ops import concat
from . import ragged_util
from .ragged_gather_ops import gather_rows
from .ragged_math_ops import range as ragged_range
from .ragged_tensor import RaggedTensor

__all__ = []


def ragged_tensor_getitem(rt_input, key):
    """rt_input[key]: see the module docstring."""
    key = list(key) if isinstance(key, (list, tuple)) else [key]
    for k in _flat_keys(key):
        _check_key(k)
    with name_scope(None, "RaggedGetItem", [rt_input] + [k for k in _flat_keys(key)
                                                         if isinstance(k, Tensor)]):
        return _ragged_getitem(rt_input, key)


def _flat_keys(key_list):
    for k in key_list:
        if isinstance(k, slice):
            yield from (k.start, k.stop, k.step)
        else:
            yield k


def _check_key(k):
    if k is None or k is Ellipsis or isinstance(k, (int, slice)) and not isinstance(k, bool):
        return
    if hasattr(k, "__index__") and not isinstance(k, bool):
        return
    if isinstance(k, Tensor) and k.dtype.base_dtype in (dtypes.int32, dtypes.int64) and \
            k.get_shape().ndims in (0, None):
        return
    raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                    f"scalar tf.int32/tf.int64 tensors are valid indices, got {k!r}")


def _ragged_getitem(rt_input, key_list):
    if not key_list:
        return rt_input
    row_key, inner_keys = key_list[0], key_list[1:]
    if row_key is Ellipsis:
        return _ragged_getitem(rt_input, _expand_ellipsis(key_list, rt_input.shape.ndims))
    if row_key is None:                                   # tf.newaxis
        inner_rt = _ragged_getitem(rt_input, inner_keys)
        return RaggedTensor._from_uniform_row_length(inner_rt, _nrows_static(inner_rt), 1)
    if isinstance(row_key, slice):
        sliced = _slice_ragged_row_dimension(rt_input, row_key)
        return _ragged_getitem_inner_dimensions(sliced, inner_keys)
    starts = rt_input.row_splits[:-1]
    limits = rt_input.row_splits[1:]
    row = rt_input.values[starts[row_key]:limits[row_key]]
    if not inner_keys:
        return row
    if isinstance(row, RaggedTensor):
        return _ragged_getitem(row, inner_keys)
    return row[tuple(inner_keys)]


def _nrows_static(rt):
    """nrows of rt: an int when the graph knows it, else a Tensor."""
    nsplits = rt.row_splits.get_shape()[0].value
    return nsplits - 1 if nsplits is not None else rt.nrows()


def _slice_ragged_row_dimension(rt_input, row_key):
    """rt_input[row_key] for a slice of rows."""
    if row_key.start is None and row_key.stop is None and row_key.step is None:
        return rt_input
    new_starts = rt_input.row_splits[:-1][row_key]
    new_limits = rt_input.row_splits[1:][row_key]
    if row_key.step is None or (isinstance(row_key.step, int) and row_key.step == 1):
        zero_pad = zeros([1], rt_input.row_splits.dtype.base_dtype)
        new_splits = concat([zero_pad[_size(new_starts):], new_starts[:1], new_limits], axis=0)
        values_start, values_limit = new_splits[0], new_splits[-1]
        result = RaggedTensor.from_row_splits(rt_input.values[values_start:values_limit],
                                              new_splits - values_start, validate=False)
    else:
        result = _from_value_ranges(new_starts, new_limits, 1, rt_input.values)
    result._uniform_row_length = rt_input._uniform_row_length
    return result


def _ragged_getitem_inner_dimensions(rt_input, key_list):
    """rt_input[:, key_list...]: the rows kept, each indexed by key_list."""
    if not key_list:
        return rt_input
    if not isinstance(rt_input, RaggedTensor):
        return rt_input[tuple([slice(None)] + list(key_list))]
    column_key = key_list[0]
    if column_key is Ellipsis:
        return _ragged_getitem_inner_dimensions(
            rt_input, _expand_ellipsis(key_list, rt_input.values.shape.ndims))
    if column_key is None:                                # tf.newaxis
        inner_rt = _ragged_getitem_inner_dimensions(rt_input, key_list[1:])
        return RaggedTensor._from_uniform_row_length(inner_rt, 1, _nrows_static(inner_rt))
    if isinstance(column_key, slice):
        if column_key.start is None and column_key.stop is None and column_key.step is None:
            return rt_input.with_values(
                _ragged_getitem_inner_dimensions(rt_input.values, key_list[1:]))
        inner_rt = _slice_columns(rt_input, column_key)
        return inner_rt.with_values(
            _ragged_getitem_inner_dimensions(inner_rt.values, key_list[1:]))
    row_length = rt_input._uniform_row_length
    if row_length is None:
        raise ValueError("Cannot index into an inner ragged dimension.")
    dtype = rt_input.row_splits.dtype.base_dtype
    column = math_ops.cast(column_key, dtype) if isinstance(column_key, Tensor) else \
        convert_to_tensor(int(column_key), dtype)
    msg = "Index out of bounds when indexing into a ragged tensor"
    checks = [check_ops.assert_greater_equal(column, -row_length, message=msg),
              check_ops.assert_less(column, row_length, message=msg)]
    column = ragged_util.with_dependencies(checks, column)
    offset = where_v2(column >= 0, column, column + row_length)
    return _ragged_getitem_inner_dimensions(rt_input.values[offset::row_length], key_list[1:])


def _slice_columns(rt_input, column_key):
    """rt_input[:, column_key] for a slice inside the rows (TF's algorithm)."""
    for bound in (column_key.start, column_key.stop):
        if not isinstance(bound, (Tensor, int, type(None))):
            raise TypeError("slice offsets must be integers or None")
    starts = rt_input.row_splits[:-1]
    limits = rt_input.row_splits[1:]
    step = 1 if column_key.step is None else column_key.step
    lower_bound = _if_ge_zero(step, lambda: starts, lambda: starts - 1)
    upper_bound = _if_ge_zero(step, lambda: limits, lambda: limits - 1)
    if column_key.start is None:
        inner_starts = _if_ge_zero(step, lambda: starts, lambda: limits - 1)
    else:
        start_offset = math_ops.cast(column_key.start, starts.dtype.base_dtype)
        inner_starts = _if_ge_zero(
            column_key.start, lambda: minimum(starts + start_offset, upper_bound),
            lambda: maximum(limits + start_offset, lower_bound))
    if column_key.stop is None:
        inner_limits = _if_ge_zero(step, lambda: limits, lambda: starts - 1)
    else:
        stop_offset = math_ops.cast(column_key.stop, starts.dtype.base_dtype)
        inner_limits = _if_ge_zero(
            column_key.stop, lambda: minimum(starts + stop_offset, upper_bound),
            lambda: maximum(limits + stop_offset, lower_bound))
    inner_rt = _from_value_ranges(inner_starts, inner_limits, column_key.step,
                                  rt_input.values)
    return inner_rt


def _from_value_ranges(starts, limits, step, values):
    """The RaggedTensor whose row i is values[starts[i]:limits[i]:step]."""
    step = convert_to_tensor(1 if step is None else step, name="step")
    if not step.dtype.is_integer:
        raise TypeError("slice strides must be integers or None")
    step = math_ops.cast(step, starts.dtype.base_dtype)
    value_indices = ragged_range(starts, limits, step,
                                 row_splits_dtype=starts.dtype.base_dtype)
    return value_indices.with_values(gather_rows(values, value_indices.values))


def _if_ge_zero(value, true_fn, false_fn):
    """true_fn() if value >= 0 else false_fn(); elementwise select for a tensor value the graph
    does not fix (TF uses tf.cond)."""
    if isinstance(value, Tensor):
        const = constant_value(value)
        if const is None:
            return where_v2(value >= 0, true_fn(), false_fn())
        value = const
    return true_fn() if value >= 0 else false_fn()


def _expand_ellipsis(key_list, num_remaining_dims):
    """The leading `...` of key_list made a full slice, or dropped if it stands for no
    dimension."""
    if num_remaining_dims is None:
        raise ValueError("Ellipsis not supported for unknown shape RaggedTensors")
    num_indices = sum(1 for idx in key_list if idx is not None)
    if num_indices > num_remaining_dims + 1:
        raise IndexError("Too many indices for RaggedTensor")
    if num_indices == num_remaining_dims + 1:
        return key_list[1:]
    return [slice(None, None, None)] + key_list
