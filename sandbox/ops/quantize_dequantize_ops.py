"""Simulated quantization in one op -- mirrors TF 1.15's tf.quantization.quantize_and_dequantize
(python/ops/array_ops.py), its QuantizeAndDequantizeV2 kernel
(core/kernels/quantize_and_dequantize_op.h) and its straight-through gradient (array_grad.py).

The float input is scaled onto the integers of `num_bits` bits, rounded, and scaled back: the
output is float still, but holds only values an integer model could hold. Compared with
tf.quantization.fake_quant_* (sandbox/ops/quantize_ops.py) the range is not nudged; instead it
is scaled so that 0 stays exactly 0:

    integers   signed_input: [-2**(bits-1), 2**(bits-1) - 1]  (narrow_range: the lowest unused)
               unsigned:     [0, 2**bits - 1]
    scale      the largest that keeps [min, max] within the integers, from the side that
               limits it; the other end of the range moves to match (so with [-1, 2] and 8
               signed bits, scale = 127 / 2 and the range becomes [-2.0157, 2])
    range      input_min, input_max when range_given (the input is clamped to them, as moved),
               else the input's own min and max
    output     round(input * scale) / scale       (round_mode HALF_TO_EVEN or HALF_UP)

With `axis`, input_min and input_max are vectors: one range per slice along that axis.
The gradient passes straight through (TF's QuantizeAndDequantizeV2 gradient), even outside the
range. The arithmetic is done in the input's dtype, as TF's kernel does.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from .math_ops import _check_dtype

__all__ = ["quantize_and_dequantize"]

_FLOATS = (_dtypes.bfloat16, _dtypes.float16, _dtypes.float32, _dtypes.float64)
_ROUND = {"HALF_TO_EVEN": np.rint, "HALF_UP": lambda x: np.floor(x + 0.5)}


def _integer_range(signed_input, num_bits, narrow_range):
    if not signed_input:
        return 0, (1 << num_bits) - 1
    lowest = -(1 << (num_bits - 1))
    return lowest + 1 if narrow_range else lowest, (1 << (num_bits - 1)) - 1


def _one_scale(x, lo, hi, range_given, signed_input, num_bits, narrow_range, round_mode):
    """TF's QuantizeAndDequantizeOneScaleImpl on the array x with the scalar range [lo, hi]."""
    dtype = x.dtype.type
    q_lo, q_hi = _integer_range(signed_input, num_bits, narrow_range)
    q_lo, q_hi = dtype(q_lo), dtype(q_hi)
    biggest = np.finfo(dtype).max
    from_min = q_lo / lo if q_lo * lo > 0 else biggest
    from_max = q_hi / hi if q_hi * hi > 0 else biggest
    if from_min < from_max:                        # the min side limits the scale
        scale, inverse = from_min, lo / q_lo
        hi = q_hi * inverse
    else:
        scale, inverse = from_max, hi / q_hi
        lo = q_lo * inverse
    if range_given:
        x = np.minimum(np.maximum(x, lo), hi)
    return (_ROUND[round_mode](x * scale) * inverse).astype(dtype)


def _quantize_slice(x, lo, hi, range_given, signed_input, num_bits, narrow_range, round_mode):
    """One range's worth: the range checked (given) or found (the input's min and max)."""
    if range_given:
        lo, hi = x.dtype.type(lo), x.dtype.type(hi)
        if lo > hi:
            raise errors.InvalidArgumentError(
                None, None, f"Invalid range: input_min {lo:g} > input_max {hi:g}")
    elif x.size:
        lo, hi = x.min(), x.max()
    else:
        return x.copy()
    return _one_scale(x, lo, hi, range_given, signed_input, num_bits, narrow_range, round_mode)


class QuantizeAndDequantizeV2(OpDef):
    """round(input * scale) / scale on `num_bits` integers (see the module docstring)."""
    shape = unchanged_shape

    def kernel(input, input_min, input_max, signed_input=True, num_bits=8,  # noqa: A002
               range_given=False, round_mode="HALF_TO_EVEN", narrow_range=False, axis=-1,
               T=None):
        options = (range_given, signed_input, num_bits, narrow_range, round_mode)
        if axis == -1:
            return _quantize_slice(input, input_min, input_max, *options)
        slices = np.moveaxis(input, axis, 0)
        n = slices.shape[0]
        mins = np.broadcast_to(np.reshape(input_min, -1), (n,)) if range_given else [0] * n
        maxes = np.broadcast_to(np.reshape(input_max, -1), (n,)) if range_given else [0] * n
        out = [_quantize_slice(slices[i], mins[i], maxes[i], *options) for i in range(n)]
        return np.moveaxis(np.asarray(out, dtype=input.dtype), 0, axis)

    def gradient(op, grad):
        return [grad, None, None]


def _axis(axis, x):
    """The op's axis attr: -1 for one range (axis=None), else the axis counted from 0."""
    if axis is None:
        return -1
    if axis < 0:
        if x.get_shape().ndims is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis += x.get_shape().ndims
    return int(axis)


def quantize_and_dequantize(input, input_min, input_max, signed_input=True,  # noqa: A002
                            num_bits=8, range_given=False, round_mode="HALF_TO_EVEN",
                            name=None, narrow_range=False, axis=None):
    """`input` rounded to the values `num_bits` integers can stand for, as floats (see the
    module docstring); [input_min, input_max] is the range when range_given, else the input's."""
    if round_mode not in _ROUND:
        raise ValueError(f"round_mode must be one of {sorted(_ROUND)}, got {round_mode!r}.")
    with name_scope(name, "QuantizeAndDequantizeV2", [input, input_min, input_max]) as scope:
        x = convert_to_tensor(input, name="input")
        _check_dtype("QuantizeAndDequantizeV2", x, _FLOATS, arg="input")
        dtype = x.dtype.base_dtype
        lo = convert_to_tensor(input_min, dtype=dtype, name="input_min")
        hi = convert_to_tensor(input_max, dtype=dtype, name="input_max")
        attrs = {"signed_input": bool(signed_input), "num_bits": int(num_bits),
                 "range_given": bool(range_given), "round_mode": round_mode,
                 "narrow_range": bool(narrow_range), "axis": _axis(axis, x), "T": dtype}
        return apply_op("QuantizeAndDequantizeV2", [x, lo, hi], attrs, name=scope)
