"""Comparisons, logic and selection -- equal, less, greater ..., logical_and, logical_or ...,
and where: the part of TensorFlow's math_ops (python/ops/math_ops.py) that the TF guide lists
under "Comparison Operators", "Logical Operators" and "where".

A comparison broadcasts like arithmetic (ops/math_ops.py, whose helpers build these ops too)
and gives a bool tensor; it has no gradient. `where(cond, x, y)` picks from x where cond is
true, else from y, and its gradient goes to x or to y the same way. The Python operators
x < y, x <= y, x > y, x >= y, x & y, x | y, x ^ y and ~x are wired at the bottom of this file.
(x == y stays Python's identity test on tensors, as in TF 1.x: use tf.equal.)
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import merge_shapes, shape_text
from .math_ops import (_BOOL, _NUMBERS, _BinaryOp, _binary, _broadcasting, _check_dtype,
                       _convert_pair, _override_binary_operator)

__all__ = ["equal", "not_equal", "less", "greater", "less_equal", "greater_equal",
           "logical_and", "logical_or", "logical_not", "logical_xor", "where"]


def _comparing(fn):
    """Kernel for a broadcasting comparison: always a bool array (also for strings)."""
    compare = _broadcasting(fn)

    def kernel(x, y, T=None):
        result = compare(x, y)
        return result if result.dtype == np.bool_ else np.asarray(result, dtype=np.bool_)
    return kernel


class _CompareOp(_BinaryOp):
    abstract = True
    differentiable = False


class Equal(_CompareOp):
    """z = (x == y) elementwise, a bool tensor."""
    kernel = _comparing(np.equal)


class NotEqual(_CompareOp):
    """z = (x != y) elementwise, a bool tensor."""
    kernel = _comparing(np.not_equal)


class Less(_CompareOp):
    """z = (x < y) elementwise, a bool tensor."""
    kernel = _comparing(np.less)


class LessEqual(_CompareOp):
    """z = (x <= y) elementwise, a bool tensor."""
    kernel = _comparing(np.less_equal)


class Greater(_CompareOp):
    """z = (x > y) elementwise, a bool tensor."""
    kernel = _comparing(np.greater)


class GreaterEqual(_CompareOp):
    """z = (x >= y) elementwise, a bool tensor."""
    kernel = _comparing(np.greater_equal)


class LogicalAnd(_CompareOp):
    """z = x AND y elementwise (bool)."""
    kernel = _broadcasting(np.logical_and)


class LogicalOr(_CompareOp):
    """z = x OR y elementwise (bool)."""
    kernel = _broadcasting(np.logical_or)


class LogicalNot(OpDef):
    """y = NOT x elementwise (bool)."""
    shape = unchanged_shape
    differentiable = False

    def kernel(x):
        return np.logical_not(x)


_ALL_TYPES = _NUMBERS + (_dtypes.complex64, _dtypes.complex128, _dtypes.bool,
                        _dtypes.string)                   # == and != compare complex too


def equal(x, y, name=None):
    """x == y elementwise (bool result, broadcasting)."""
    return _binary("Equal", x, y, name, allowed=_ALL_TYPES, out_dtype=_dtypes.bool)


def not_equal(x, y, name=None):
    """x != y elementwise (bool result, broadcasting)."""
    return _binary("NotEqual", x, y, name, allowed=_ALL_TYPES, out_dtype=_dtypes.bool)


def less(x, y, name=None):
    """x < y elementwise (bool result, broadcasting)."""
    return _binary("Less", x, y, name, out_dtype=_dtypes.bool)


def less_equal(x, y, name=None):
    """x <= y elementwise (bool result, broadcasting)."""
    return _binary("LessEqual", x, y, name, out_dtype=_dtypes.bool)


def greater(x, y, name=None):
    """x > y elementwise (bool result, broadcasting)."""
    return _binary("Greater", x, y, name, out_dtype=_dtypes.bool)


def greater_equal(x, y, name=None):
    """x >= y elementwise (bool result, broadcasting)."""
    return _binary("GreaterEqual", x, y, name, out_dtype=_dtypes.bool)


def _logical(op_type, x, y, name):
    with name_scope(name, op_type, [x, y]) as scope:
        x, y = _convert_pair(x, y, op_type)
        _check_dtype(op_type, x, _BOOL)
        return apply_op(op_type, [x, y], {}, name=scope)


def logical_and(x, y, name=None):
    """x AND y elementwise for bool tensors."""
    return _logical("LogicalAnd", x, y, name)


def logical_or(x, y, name=None):
    """x OR y elementwise for bool tensors."""
    return _logical("LogicalOr", x, y, name)


def logical_not(x, name=None):
    """NOT x elementwise for a bool tensor."""
    with name_scope(name, "LogicalNot", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        _check_dtype("LogicalNot", x, _BOOL)
        return apply_op("LogicalNot", [x], {}, name=scope)


def logical_xor(x, y, name="LogicalXor"):
    """x XOR y elementwise for bool tensors: (x OR y) AND NOT (x AND y)."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


class Select(OpDef):
    """out = x where condition is true, else y. condition has x's shape, or is a scalar, or
    a vector that picks whole rows (entries of x's first dimension)."""

    def shape(op):
        cond, x, y = (t.get_shape() for t in op.inputs)
        data = merge_shapes(x, y)
        if cond.ndims is None or data.ndims is None or cond.ndims == 0:
            return data
        if cond.ndims != 1 or data.ndims == 0:
            return merge_shapes(data, cond)
        merge_shapes(cond, TensorShape([data[0]]))
        return data

    def kernel(condition, x, y, T=None):
        if np.shape(x) != np.shape(y):
            raise errors.InvalidArgumentError(
                None, None, f"'then' and 'else' must have the same size. but received: "
                f"{shape_text(np.shape(x))} vs. {shape_text(np.shape(y))}")
        if condition.ndim == 1 and np.ndim(x) > 1 and len(condition) == np.shape(x)[0]:
            condition = condition.reshape((-1,) + (1,) * (np.ndim(x) - 1))
        elif condition.ndim != 0 and condition.shape != np.shape(x):
            raise errors.InvalidArgumentError(
                None, None, f"'condition' must be a scalar, a vector of the first dimension "
                f"of 'then', or have the shape of 'then'; got {shape_text(condition.shape)} "
                f"and {shape_text(np.shape(x))}")
        return np.where(condition, x, y)

    def gradient(op, grad):
        from .array_ops import zeros_like
        cond = op.inputs[0]
        zeros = zeros_like(grad)
        return [None, where(cond, grad, zeros), where(cond, zeros, grad)]


class Where(OpDef):
    """The coordinates of the true (non-zero) elements: int64 of shape [count, rank]."""
    differentiable = False

    def shape(op):
        rank = op.inputs[0].get_shape().ndims
        return TensorShape([None, rank])

    def kernel(condition, T=None):
        return np.argwhere(condition).astype(np.int64, copy=False)


def where(condition, x=None, y=None, name=None):
    """With only `condition`: the int64 coordinates [N, rank] of its true elements.
    With x and y: elements of x where condition is true, else of y (TF-1 rules: condition
    has x's shape, or is a vector over x's first dimension)."""
    if x is None and y is None:
        with name_scope(name, "Where", [condition]) as scope:
            condition = convert_to_tensor(condition, preferred_dtype=_dtypes.bool,
                                          name="condition")
            return apply_op("Where", [condition], {"T": condition.dtype.base_dtype},
                            name=scope, output_dtypes=[_dtypes.int64])
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    with name_scope(name, "Select", [condition, x, y]) as scope:
        condition = convert_to_tensor(condition, dtype=_dtypes.bool, name="condition")
        x, y = _convert_pair(x, y, "Select")
        return apply_op("Select", [condition, x, y], {"T": x.dtype.base_dtype}, name=scope,
                        output_dtypes=[x.dtype.base_dtype])


# -- the Python operators on tensors: x < y, x & y, ~x ...

def _and(x, y, name=None):
    return logical_and(x, y, name=name)


def _or(x, y, name=None):
    return logical_or(x, y, name=name)


def _xor(x, y, name=None):
    return logical_xor(x, y, name=name)


_override_binary_operator(_and, "and")
_override_binary_operator(_or, "or")
_override_binary_operator(_xor, "xor")
Tensor._override_operator("__invert__", logical_not)
Tensor._override_operator("__lt__", less)
Tensor._override_operator("__le__", less_equal)
Tensor._override_operator("__gt__", greater)
Tensor._override_operator("__ge__", greater_equal)
