"""Bitwise operations on integers -- mirrors TF 1.15's python/ops/bitwise_ops.py (the
generated BitwiseAnd, BitwiseOr, BitwiseXor, Invert, LeftShift and RightShift ops of
core/ops/bitwise_ops.cc), gathered as `tf.bitwise`:

    flags = tf.bitwise.bitwise_or(tf.bitwise.left_shift(1, 3), 1)     # 0b1001 = 9

All take the eight integer dtypes (int8 .. int64, uint8 .. uint64); the binary ones broadcast
like tf.add. The shifts follow TF's kernels, which define what C leaves undefined: the shift
amount is clamped to [0, bits - 1] (so `x << 40` of an int32 is `x << 31`, `x << -1` is
`x << 0`), a left shift works on the bits (it wraps, sign bit included), and a right shift of
a signed integer is arithmetic (it keeps the sign: -16 >> 2 = -4).

No gradients: integers are not differentiable.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from .math_ops import _BinaryOp, _UnaryOp, _binary, _broadcasting, _unary

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]

_INTEGERS = (_dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64, _dtypes.uint8,
             _dtypes.uint16, _dtypes.uint32, _dtypes.uint64)


def _clamped_shift(x, y):
    """The shift amounts y clamped to [0, bits of x's dtype - 1], as TF's kernels do."""
    bits = np.dtype(x.dtype).itemsize * 8
    return np.clip(y, 0, bits - 1).astype(x.dtype)


def _left_shift(x, y):
    """x << y on the bits: shifted as unsigned integers of the same width, so that it wraps."""
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    unsigned = np.dtype(f"uint{x.dtype.itemsize * 8}")
    shifted = np.left_shift(x.astype(unsigned), _clamped_shift(x, y).astype(unsigned))
    return shifted.astype(unsigned).view(x.dtype)


def _right_shift(x, y):
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    return np.right_shift(x, _clamped_shift(x, y)).astype(x.dtype)


class BitwiseAnd(_BinaryOp):
    """z = x & y elementwise (broadcasting)."""
    kernel = _broadcasting(np.bitwise_and)
    differentiable = False


class BitwiseOr(_BinaryOp):
    """z = x | y elementwise (broadcasting)."""
    kernel = _broadcasting(np.bitwise_or)
    differentiable = False


class BitwiseXor(_BinaryOp):
    """z = x ^ y elementwise (broadcasting)."""
    kernel = _broadcasting(np.bitwise_xor)
    differentiable = False


class LeftShift(_BinaryOp):
    """z = x << y elementwise, y clamped to [0, bits - 1] (broadcasting)."""
    kernel = _broadcasting(_left_shift)
    differentiable = False


class RightShift(_BinaryOp):
    """z = x >> y elementwise (arithmetic for signed x), y clamped to [0, bits - 1]."""
    kernel = _broadcasting(_right_shift)
    differentiable = False


class Invert(_UnaryOp):
    """y = ~x: every bit flipped (-x - 1 for signed integers, max - x for unsigned)."""
    differentiable = False

    def kernel(x, T=None):
        return np.invert(x)


def bitwise_and(x, y, name=None):
    """x & y elementwise, for integer tensors of one dtype."""
    return _binary("BitwiseAnd", x, y, name, allowed=_INTEGERS)


def bitwise_or(x, y, name=None):
    """x | y elementwise, for integer tensors of one dtype."""
    return _binary("BitwiseOr", x, y, name, allowed=_INTEGERS)


def bitwise_xor(x, y, name=None):
    """x ^ y elementwise, for integer tensors of one dtype."""
    return _binary("BitwiseXor", x, y, name, allowed=_INTEGERS)


def invert(x, name=None):
    """~x elementwise: every bit of the integer tensor x flipped."""
    return _unary("Invert", x, name, allowed=_INTEGERS)


def left_shift(x, y, name=None):
    """x << y elementwise; shift amounts outside [0, bits - 1] are clamped into it."""
    return _binary("LeftShift", x, y, name, allowed=_INTEGERS)


def right_shift(x, y, name=None):
    """x >> y elementwise (sign-keeping for signed x); shift amounts clamped as left_shift's."""
    return _binary("RightShift", x, y, name, allowed=_INTEGERS)
