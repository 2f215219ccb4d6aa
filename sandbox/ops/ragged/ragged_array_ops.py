"""tf.ragged.boolean_mask and tf.ragged.stack_dynamic_partitions -- mirrors TensorFlow 1.x's
python/ops/ragged/ragged_array_ops.py.

    tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, False, True]])
        -> [[1, 3], [6]]              unlike tf.boolean_mask, each row keeps its own entries
    tf.ragged.boolean_mask(tf.ragged.constant([[1, 2, 3], [4], []]), [True, False, True])
        -> [[1, 2, 3], []]            a mask of the rows keeps whole rows
    tf.ragged.stack_dynamic_partitions([10, 20, 30, 40, 50], [1, 0, 1, 3, 1], 4)
        -> [[20], [10, 30, 50], [], [40]]      row i: the data of partition i, in order

Both are built from ordinary ops (boolean_mask, segment sums, a stable argsort, gather), as in
TF.
"""
import numpy as np

from ...framework import dtypes
from ...framework.graph import control_dependencies, name_scope
from ...framework.tensor import convert_to_tensor
from .. import check_ops, math_ops
from ..array_ops import range as _range, reshape, shape as _shape, stack as _stack
from ..indexing_ops import boolean_mask as _dense_boolean_mask
from ..indexing_ops import gather, unsorted_segment_sum
from ..math_extra_ops import cumprod
from ..reduction_ops import count_nonzero
from ..sort_ops import argsort
from . import ragged_util
from .ragged_gather_ops import gather_rows
from .ragged_tensor import (RaggedTensor, convert_to_tensor_or_ragged_tensor, is_ragged,
                            match_row_splits_dtypes)

__all__ = ["boolean_mask", "stack_dynamic_partitions"]


def boolean_mask(data, mask, name=None):
    """The entries of `data` where `mask` (a bool Tensor or RaggedTensor shaped like the outer
    dimensions of data) is True, each masked row keeping its own: a RaggedTensor (a Tensor
    when data is dense and mask 1-D)."""
    with name_scope(name, "RaggedMask", [data, mask]):
        data = convert_to_tensor_or_ragged_tensor(data, name="data")
        _check_bool_values(mask)
        mask = convert_to_tensor_or_ragged_tensor(mask, dtypes.bool, name="mask")
        if mask.dtype.base_dtype != dtypes.bool:
            raise TypeError(f"mask must be a bool tensor, got {mask.dtype.base_dtype.name}")
        row_splits_dtype, (data, mask) = match_row_splits_dtypes(
            data, mask, return_dtype=True)
        ndims = mask.shape.ndims
        if ndims is None:
            raise ValueError("mask.shape.ndims must be known statically.")
        if ndims == 0:
            raise ValueError("mask cannot be scalar.")
        if is_ragged(mask):
            if not is_ragged(data):
                data = RaggedTensor.from_tensor(data, ragged_rank=mask.ragged_rank,
                                                row_splits_dtype=mask.row_splits.dtype)
            checks = ragged_util.assert_splits_match(
                [mask.nested_row_splits, data.nested_row_splits[:mask.ragged_rank]])
            with control_dependencies(checks):
                splits = []
                while is_ragged(mask):
                    if mask.shape.ndims > 2:
                        splits.append(mask.row_splits)
                    else:
                        kept = unsorted_segment_sum(
                            math_ops.cast(mask.values, row_splits_dtype), mask.value_rowids(),
                            mask.nrows())
                        splits.append(ragged_util.lengths_to_splits(kept))
                    mask, data = mask.values, data.values
                masked_values = boolean_mask(data, mask)
                return RaggedTensor.from_nested_row_splits(masked_values, splits,
                                                           validate=False)
        if is_ragged(data) and ndims == 1:
            masked_lengths = _dense_boolean_mask(data.row_lengths(), mask)
            masked_splits = ragged_util.lengths_to_splits(masked_lengths)
            segment_mask = gather(mask, data.value_rowids())
            masked_values = boolean_mask(data.values, segment_mask)
            return RaggedTensor.from_row_splits(masked_values, masked_splits, validate=False)
        if is_ragged(data):
            mask = RaggedTensor.from_tensor(mask, ragged_rank=min(data.ragged_rank, ndims - 1),
                                            row_splits_dtype=data.row_splits.dtype)
            return boolean_mask(data, mask)
        masked_values = _dense_boolean_mask(data, mask)
        if ndims >= 2:
            masked_lengths = count_nonzero(mask, axis=-1, dtype=row_splits_dtype)
            masked_values = RaggedTensor.from_row_lengths(
                masked_values, reshape(masked_lengths, [-1]), validate=False)
            if ndims > 2:
                mask_shape = _shape(mask, out_type=row_splits_dtype)
                split_size = cumprod(mask_shape) + 1
                for dim in range(ndims - 3, -1, -1):
                    elt_size = mask_shape[dim + 1]
                    masked_splits = _range(split_size[dim]) * elt_size
                    masked_values = RaggedTensor.from_row_splits(masked_values, masked_splits,
                                                                 validate=False)
        return masked_values


def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """The RaggedTensor whose row i holds the entries of `data` with partitions == i (in
    order): the partitions of tf.dynamic_partition, stacked."""
    with name_scope(name, "SegmentStack", [data, partitions, num_partitions]):
        data = convert_to_tensor_or_ragged_tensor(data, name="data")
        row_splits_dtype = data.row_splits.dtype.base_dtype if isinstance(data, RaggedTensor) \
            else None
        partitions = convert_to_tensor_or_ragged_tensor(partitions, name="partitions",
                                                        preferred_dtype=row_splits_dtype)
        num_partitions = convert_to_tensor(num_partitions, name="num_partitions",
                                           preferred_dtype=partitions.dtype.base_dtype)
        if row_splits_dtype is not None:
            partitions = _cast(partitions, row_splits_dtype)
        num_partitions = math_ops.cast(num_partitions, partitions.dtype.base_dtype)
        rank = partitions.shape.ndims
        if rank is None:
            raise ValueError("partitions must have known rank.")
        num_partitions.get_shape().assert_has_rank(0)
        partitions.shape.assert_is_compatible_with(data.shape[:rank])
        if rank == 0:
            return RaggedTensor.from_value_rowids(values=_stack([data]),
                                                  value_rowids=_stack([partitions]),
                                                  nrows=num_partitions, validate=False)
        if rank == 1:
            permutation = argsort(partitions, stable=True)
            value_rowids = gather(partitions, permutation)
            values = gather_rows(data, permutation)
            checks = [check_ops.assert_less(value_rowids[-1:], num_partitions,
                                            message="partitions must be less than "
                                                    "num_partitions"),
                      check_ops.assert_non_negative(partitions,
                                                    message="partitions must be non-negative.")]
            with control_dependencies(checks):
                return RaggedTensor.from_value_rowids(values, value_rowids,
                                                      nrows=num_partitions, validate=False)
        if not isinstance(data, RaggedTensor):
            data = RaggedTensor.from_tensor(data, row_splits_dtype=partitions.dtype.base_dtype,
                                            ragged_rank=1)
        if not isinstance(partitions, RaggedTensor):
            partitions = RaggedTensor.from_tensor(
                partitions, row_splits_dtype=partitions.dtype.base_dtype,
                ragged_rank=max(data.ragged_rank, rank - 1))
        check = check_ops.assert_equal(
            data.row_splits, partitions.row_splits,
            message="data and partitions have incompatible ragged shapes")
        with control_dependencies([check]):
            return stack_dynamic_partitions(data.values, partitions.values, num_partitions)


def _check_bool_values(mask):
    """TF's TypeError for a Python/NumPy mask that holds anything but bools."""
    if isinstance(mask, (list, tuple, np.ndarray)):
        flat = np.asarray(mask, dtype=object).reshape(-1)
        for v in flat:
            if not isinstance(v, (bool, np.bool_)):
                raise TypeError(f"Expected bool, but got {v!r} of type '{type(v).__name__}'.")


def _cast(t, dtype):
    if isinstance(t, RaggedTensor):
        return t.with_flat_values(math_ops.cast(t.flat_values, dtype))
    return math_ops.cast(t, dtype)
