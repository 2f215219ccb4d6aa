"""Helpers shared by the ragged ops -- mirrors TensorFlow's python/ops/ragged/ragged_util.py
and RowPartition's conversion of a partition: integer tensors of a row-partition dtype,
lengths <-> splits, and the check that several ragged tensors share their row splits.

    lengths_to_splits([2, 0, 3])  ->  [0, 2, 2, 5]      (a zero, then the running sum)
"""
import numpy as np

from ...framework import dtypes
from ...framework.graph import control_dependencies
from ...framework.tensor import Tensor, convert_to_tensor
from .. import check_ops, math_ops
from ..constant_op import constant
from ..control_flow_ops import identity
from ..reduction_ops import cumsum
from ..slicing_ops import concat

__all__ = []

_SPLITS_DTYPES = (dtypes.int32, dtypes.int64)


def convert_to_int_tensor(tensor, name, dtype=dtypes.int32):
    """`tensor` as an integer Tensor of `dtype` (any integer input is cast; TypeError for
    others) -- TF's ragged_util.convert_to_int_tensor."""
    tensor = convert_to_tensor(tensor, name=name, preferred_dtype=dtype)
    if not tensor.dtype.is_integer:
        raise TypeError(f"{name} must be an integer tensor; dtype={tensor.dtype!r}")
    if tensor.dtype.base_dtype != dtype:
        tensor = math_ops.cast(tensor, dtype)
    return tensor


def convert_row_partition(partition, name, dtype_hint=dtypes.int64):
    """A row partition (row_splits, row_lengths ...) as an int32 or int64 Tensor: a Tensor
    keeps its dtype, a Python or NumPy value becomes `dtype_hint` (an int32 NumPy array stays
    int32), as TF's RowPartition._convert_row_partition."""
    if not isinstance(partition, Tensor):
        kind = np.asarray(partition).dtype
        if kind.kind not in "iu" and not (kind.kind == "f" and np.size(partition) == 0):
            raise ValueError(f"{name} must have dtype int32 or int64")
        if isinstance(partition, np.ndarray) and partition.dtype == np.int32:
            dtype_hint = dtypes.int32
        partition = convert_to_tensor(np.asarray(partition, dtype_hint.as_numpy_dtype),
                                      name=name)
    elif partition.dtype.base_dtype not in _SPLITS_DTYPES:
        raise ValueError(f"{name} must have dtype int32 or int64")
    return partition


def zeros_1(dtype):
    """The int vector [0] of `dtype` (what a splits vector starts with)."""
    return constant([0], dtype=dtype)


def lengths_to_splits(lengths):
    """[0, l0, l0 + l1, ...]: the row splits of rows of `lengths`."""
    lengths = convert_to_tensor(lengths)
    return concat([zeros_1(lengths.dtype.base_dtype), cumsum(lengths)], axis=0)


def with_dependencies(checks, tensor, name="control_dependency"):
    """`tensor` through an Identity that waits for `checks` (TF's
    control_flow_ops.with_dependencies)."""
    checks = [c for c in checks if c is not None]
    if not checks:
        return tensor
    with control_dependencies(checks):
        return identity(tensor, name=name)


def assert_splits_match(nested_splits_lists):
    """Checks that every list of row splits equals the first, level by level: a ValueError
    now if their ragged ranks differ, else the assert ops (TF's message)."""
    error_msg = "Inputs must have identical ragged splits"
    for splits_list in nested_splits_lists:
        if len(splits_list) != len(nested_splits_lists[0]):
            raise ValueError(error_msg)
    pairs = [(s1, s2) for splits_list in nested_splits_lists[1:]
             for (s1, s2) in zip(nested_splits_lists[0], splits_list) if s1 is not s2]
    for s1, s2 in pairs:
        if not s1.get_shape().is_compatible_with(s2.get_shape()):
            raise ValueError(f"{error_msg}: row splits of shapes {s1.get_shape()} and "
                             f"{s2.get_shape()}")
    return [check_ops.assert_equal(s1, s2, message=error_msg) for s1, s2 in pairs]

