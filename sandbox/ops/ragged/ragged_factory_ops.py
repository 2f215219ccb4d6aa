"""Ragged constants and placeholders -- mirrors TensorFlow 1.x's tf.ragged.constant,
tf.ragged.constant_value and tf.ragged.placeholder (python/ops/ragged/ragged_factory_ops.py).

    tf.ragged.constant([[1, 2], [], [3]])           a RaggedTensor of Const ops
    tf.ragged.constant([[[1], [2, 3]], []])          ragged_rank 2: (2, ?, ?)
    tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)    (2, ?, 2)
    tf.ragged.constant_value([[1, 2], [3]])          a RaggedTensorValue (NumPy arrays)
    rt = tf.ragged.placeholder(tf.float32, ragged_rank=1)
    sess.run(rt + 1, {rt: tf.ragged.constant_value([[1., 2.], [3.]])})

All scalars of the list must sit at the same depth K; the result has rank K and, unless told
otherwise, ragged_rank K - 1 (a list of scalars gives a plain Tensor). `inner_shape` or
`ragged_rank` make the innermost dimensions uniform instead.
"""
import numpy as np

from ...framework import dtypes
from ...framework.graph import name_scope
from ...framework.tensor_shape import TensorShape
from ..constant_op import constant as _constant
from ..constant_op import placeholder as _placeholder
from .ragged_tensor import RaggedTensor, is_ragged
from .ragged_tensor_value import RaggedTensorValue

__all__ = ["constant", "constant_value", "placeholder"]


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
    """A constant RaggedTensor from a nested list (rank K = the depth of its scalars)."""
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)

    def ragged_factory(values, row_splits):
        row_splits = _constant(row_splits, dtype=row_splits_dtype)
        return RaggedTensor.from_row_splits(values, row_splits, validate=False)

    def inner_factory(values, dtype, shape, name=None):
        return _constant(values, dtype=dtype, shape=shape, name=name or "Const")

    with name_scope(name, "RaggedConstant"):
        return _constant_value(ragged_factory, inner_factory, pylist,
                               None if dtype is None else dtypes.as_dtype(dtype), ragged_rank,
                               inner_shape)


def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None,
                   row_splits_dtype="int64"):
    """A RaggedTensorValue from a nested list (a NumPy array for a list of scalars)."""
    if isinstance(dtype, dtypes.DType):
        dtype = dtype.as_numpy_dtype
    splits_dtype = dtypes.as_dtype(row_splits_dtype).as_numpy_dtype

    def ragged_factory(values, row_splits):
        return RaggedTensorValue(values, np.array(row_splits, dtype=splits_dtype))

    def inner_factory(values, dtype, shape, name=None):
        array = np.array(values, dtype=dtype)
        return array if shape is None else np.reshape(array, shape)

    return _constant_value(ragged_factory, inner_factory, pylist, dtype, ragged_rank,
                           inner_shape)


def _constant_value(ragged_factory, inner_factory, pylist, dtype, ragged_rank, inner_shape):
    """TF's _constant_value: the nested lists flattened level by level into row splits."""
    if is_ragged(pylist):
        raise TypeError("pylist may not be a RaggedTensor or RaggedTensorValue.")
    if not isinstance(pylist, (list, tuple)) and np.ndim(pylist) == 0:
        if ragged_rank is not None and ragged_rank != 0:
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with "
                             f"ragged_rank={ragged_rank}")
        if inner_shape is not None and inner_shape:
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with "
                             f"dim(inner_shape)={len(inner_shape)}")
        return inner_factory(pylist, dtype, ())
    if ragged_rank is not None and ragged_rank < 0:
        raise ValueError(f"Invalid ragged_rank={ragged_rank!r}: must be nonnegative")
    scalar_depth, max_depth = _find_scalar_and_max_depth(pylist)
    if scalar_depth is not None:
        if max_depth > scalar_depth:
            raise ValueError(f"Invalid pylist={pylist!r}: empty list nesting is greater than "
                             "scalar value nesting")
        if ragged_rank is not None and max_depth < ragged_rank:
            raise ValueError(f"Invalid pylist={pylist}, max depth smaller than "
                             f"ragged_rank={ragged_rank}")
    if inner_shape is not None and ragged_rank is not None:
        expected_depth = ragged_rank + len(inner_shape) + 1
        if ((scalar_depth is not None and expected_depth != scalar_depth) or
                (scalar_depth is None and expected_depth < max_depth)):
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with "
                             f"ragged_rank={ragged_rank} and "
                             f"dim(inner_shape)={len(inner_shape)}")
    if ragged_rank == 0 or (ragged_rank is None and (
            max_depth < 2 or (inner_shape is not None and max_depth - len(inner_shape) < 2))):
        return inner_factory(pylist, dtype, inner_shape)
    if inner_shape is None:
        inner_shape = () if ragged_rank is None else \
            _default_inner_shape_for_pylist(pylist, ragged_rank)
    inner_shape = tuple(inner_shape)
    if ragged_rank is None:
        ragged_rank = max(1, max_depth - 1) if scalar_depth is None else \
            max(1, scalar_depth - 1 - len(inner_shape))
    nested_splits, values = [], pylist
    for _ in range(ragged_rank):
        splits, concatenated = [0], []
        for row in values:
            splits.append(splits[-1] + len(row))
            concatenated.extend(row)
        nested_splits.append(splits)
        values = concatenated
    values = inner_factory(values, dtype=dtype, shape=(len(values),) + inner_shape,
                           name="values")
    for row_splits in reversed(nested_splits):
        values = ragged_factory(values, row_splits)
    return values


def _find_scalar_and_max_depth(pylist):
    """(depth of the scalars or None when there are none, depth of the deepest list)."""
    if isinstance(pylist, (list, tuple)) or np.ndim(pylist) != 0:
        scalar_depth, max_depth = None, 1
        for child in pylist:
            child_scalar_depth, child_max_depth = _find_scalar_and_max_depth(child)
            if child_scalar_depth is not None:
                if scalar_depth is not None and scalar_depth != child_scalar_depth + 1:
                    raise ValueError("all scalar values must have the same nesting depth")
                scalar_depth = child_scalar_depth + 1
            max_depth = max(max_depth, child_max_depth + 1)
        return scalar_depth, max_depth
    return 0, 0


def _default_inner_shape_for_pylist(pylist, ragged_rank):
    """The shape of the values below `ragged_rank` levels (they must all have it)."""

    def get_inner_shape(item):
        if not isinstance(item, (list, tuple)) and np.ndim(item) == 0:
            return ()
        if len(item) > 0:
            return (len(item),) + get_inner_shape(item[0])
        return (0,)

    def check_inner_shape(item, shape):
        is_nested = isinstance(item, (list, tuple)) or np.ndim(item) != 0
        if is_nested != bool(shape):
            raise ValueError("inner values have inconsistent shape")
        if is_nested:
            if shape[0] != len(item):
                raise ValueError("inner values have inconsistent shape")
            for child in item:
                check_inner_shape(child, shape[1:])

    flat_values = pylist
    for dim in range(ragged_rank):
        if not all(isinstance(v, (list, tuple)) or np.ndim(v) != 0 for v in flat_values):
            raise ValueError(f"pylist has scalar values depth {dim + 1}, but "
                             f"ragged_rank={ragged_rank} requires scalar value depth greater "
                             f"than {ragged_rank}")
        flat_values = sum((list(v) for v in flat_values), [])
    inner_shape = get_inner_shape(flat_values)
    check_inner_shape(flat_values, inner_shape)
    return inner_shape[1:]


def placeholder(dtype, ragged_rank, value_shape=None, name=None):
    """A RaggedTensor of placeholders (flat_values, row_splits_0 ...) to be fed with a
    tf.ragged.RaggedTensorValue; ragged_rank 0 gives a plain placeholder."""
    if ragged_rank == 0:
        return _placeholder(dtype, value_shape, name)
    with name_scope(name, "RaggedPlaceholder", []):
        flat_shape = TensorShape([None]).concatenate(value_shape)
        result = _placeholder(dtype, flat_shape, "flat_values")
        for i in reversed(range(ragged_rank)):
            row_splits = _placeholder(dtypes.int64, [None], f"row_splits_{i}")
            result = RaggedTensor.from_row_splits(result, row_splits, validate=False)
        return result
