"""Quantization -- mirrors the quantization functions of TF 1.15's python/ops/array_ops.py
(quantize, quantize_v2, dequantize, quantized_concat, the fake_quant_* family), their kernels
(core/kernels/quantize_op.cc, dequantize_op.cc, quantized_concat_op.cc,
fake_quant_ops_functor.h, quantization_utils.h) and the fake-quant gradients of
python/ops/array_grad.py.

A quantized tensor stores integers that stand for real numbers in a range [min, max] kept
beside it (tf.qint8 ... in framework/dtypes.py; NumPy sees them as TF's one-field structured
dtypes). There are three ways to map the range onto the integers of type T:

    q, q_min, q_max = tf.quantize(x, -1.0, 1.0, tf.quint8)     # mode='MIN_COMBINED'
    tf.dequantize(q, q_min, q_max)                              # x again, to within a step

  MIN_COMBINED   q = round((x - min) * (highest - lowest) / (max - min)) + lowest
  MIN_FIRST      the same, but `min` rounded to a step first (less bias when repeated)
  SCALED         q = round(x * s), one scale s for both signs: zero stays exactly zero
                 (round_mode='HALF_TO_EVEN' rounds ties to even, in this mode only)

Before quantizing, the range is widened to contain 0 and made at least 1% as wide as its
largest end: the returned q_min and q_max are the range actually used (SCALED moves the end
that limits the scale less). tf.quantized_concat joins quantized tensors of different
ranges, re-quantizing each to their common range.

Fake quantization rounds float tensors to the 2**num_bits levels of [min, max] and back, to
train a network to survive being quantized later: its output is still float. min and max
are first "nudged" so that 0.0 is exactly one of the levels. _args takes min/max as
attributes, _vars as (trainable) scalars, _vars_per_channel as one pair per last-axis channel.
Their gradient is the straight-through estimator: the incoming gradient passes through for
inputs inside the nudged range, and (for _vars) what falls outside goes to min or to max.

The arithmetic follows TF's kernels step by step in float32, so the numbers are TF 2.15's bit
for bit (tests/ops/test_quantize_and_dtypes.py; TF's reference kernels, not its oneDNN ones).
TF 2.x's `narrow_range` of quantize/dequantize (SCALED: lowest level unused) is here; its
`axis` (per-slice ranges) and `ensure_minimum_range` are not. TF 1.15's SCALED dequantize
(scale max(|min|, |max|) / 127 for qint8) is replaced by TF 2.x's, which inverts quantize.
"""
import collections
import types

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .slicing_ops import ConcatV2

__all__ = ["quantize", "quantize_v2", "dequantize", "quantized_concat",
           "fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
           "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
           "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient"]

# What the functions return: namedtuples named as TF's.
_QuantizeOutputs = collections.namedtuple("QuantizeV2", ["output", "output_min", "output_max"])
_ConcatOutputs = collections.namedtuple("QuantizedConcat", ["output", "output_min", "output_max"])
_VarsGradients = collections.namedtuple(
    "FakeQuantWithMinMaxVarsGradient",
    ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])
_PerChannelGradients = collections.namedtuple(
    "FakeQuantWithMinMaxVarsPerChannelGradient",
    ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])

_F = np.float32
_MODES = ("MIN_COMBINED", "MIN_FIRST", "SCALED")
_ROUND_MODES = ("HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN")
_QUANTIZED_LIST = "qint8, quint8, qint32, qint16, quint16"


# -- the integers of a quantized type ---------------------------------------------------------

def _int_type(T):  # noqa: N803 -- TF's attr name
    """The integer NumPy type inside quantized type T: np.int8 for qint8 ..."""
    return T.as_numpy_dtype[0].type


def _lowest_highest(T):  # noqa: N803
    info = np.iinfo(_int_type(T))
    return int(info.min), int(info.max)


def _integers(q):
    """The integers of a quantized array: the field of TF's structured dtype (a constant or
    a fed value of type qint8 ...), or the array itself (what the kernels here return)."""
    q = np.asarray(q)
    return q[q.dtype.names[0]] if q.dtype.names else q


def _to_quantized(values, T):  # noqa: N803
    """A float32 array of whole numbers as the integers of quantized type T -- as plain
    integers (int8 for qint8 ...), which is what TF's session.run returns for them. Like TF's
    float -> int32 cast on x86, a value past int32's range becomes its lowest value."""
    if _int_type(T) is np.int32:
        values = np.where(values >= _F(2**31), _F(-2**31), values)
    return values.astype(_int_type(T))


def _round_half_away(x):
    """std::round: ties away from zero (np.round sends them to the even neighbour)."""
    whole = np.trunc(x)
    return whole + np.where(np.abs(x - whole) >= _F(0.5), np.sign(x), _F(0)).astype(x.dtype)


# -- MIN_FIRST's conversions (quantization_utils.h: FloatToQuantizedStruct ...) ------------

def _steps(T):  # noqa: N803
    return 2.0 ** (np.dtype(_int_type(T)).itemsize * 8)


def _float_to_quantized(x, lo, hi, T):  # noqa: N803
    """QUANTIZE_WITH_EIGEN: x rounded in steps of (hi - lo) / (2**bits - 1), `lo` itself rounded
    to a step first."""
    lowest, highest = _lowest_highest(T)
    scale = _F(0.0) if hi == lo else _F((_steps(T) - 1.0) / float(_F(hi - lo)))
    lo_scaled = _round_half_away(_F(lo * scale))
    out = _round_half_away(x * scale) - (lo_scaled - _F(lowest))
    out = np.clip(out, max(_F(lowest), _F(-2.147483648e9)), min(_F(highest), _F(2.147483520e9)))
    return _to_quantized(out, T)


def _quantized_to_float(q, lo, hi, T):  # noqa: N803
    """DEQUANTIZE_WITH_EIGEN, the inverse of _float_to_quantized."""
    scale = _F((float(_F(hi - lo))) / (_steps(T) - 1.0))
    lo_rounded = lo if hi == lo else _round_half_away(_F(lo / scale)) * scale
    lowest = _F(_lowest_highest(T)[0])
    return (lo_rounded - lowest * scale) + _integers(q).astype(_F) * scale


# -- QuantizeV2 and Dequantize ----------------------------------------------------------------

def _check_modes(op_type, mode, round_mode="HALF_AWAY_FROM_ZERO"):
    if mode not in _MODES:
        raise ValueError(f"Attr 'mode' of '{op_type}' Op passed string '{mode}' not in: "
                         '"MIN_COMBINED", "MIN_FIRST", "SCALED".')
    if round_mode not in _ROUND_MODES:
        raise ValueError(f"Attr 'round_mode' of '{op_type}' Op passed string '{round_mode}' "
                         'not in: "HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN".')


def _scalar(array):
    """The first element of a min or max tensor, as TF's kernels read it."""
    return _F(np.asarray(array, _F).reshape(-1)[0]) if np.size(array) else _F(0)


def _scaled_factor(lo, hi, T, narrow_range):  # noqa: N803
    """SCALED mode's scale: as large as keeps both lo and hi representable."""
    lowest, highest = _lowest_highest(T)
    min_out = _F(lowest + (1 if narrow_range else 0))
    big = np.finfo(_F).max
    from_min = min_out / lo if min_out * lo > 0 else big
    from_max = _F(highest) / hi if _F(highest) * hi > 0 else big
    return _F(min(from_min, from_max)), min_out


class QuantizeV2(OpDef):
    """Float input -> (quantized output of type T, the min and max actually used)."""
    multi_output = True               # (no gradient: tf.gradients raises LookupError, as TF)

    def shape(op):
        return [op.inputs[0].get_shape(), TensorShape([]), TensorShape([])]

    def kernel(input, min_range, max_range, T=None, mode="MIN_COMBINED",  # noqa: A002, N803
               round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False):
        if round_mode == "HALF_TO_EVEN" and mode != "SCALED":
            raise InvalidArgumentError(None, None, "Round mode 'HALF_TO_EVEN' only supported "
                                       f"for mode 'SCALED', but mode is '{mode}'.")
        x = np.asarray(input, _F)
        in_lo, in_hi = _scalar(min_range), _scalar(max_range)
        if in_hi < in_lo:
            raise InvalidArgumentError(None, None, "input_max_range must be larger than "
                                       "input_min_range.")
        # Widen the range to hold 0, at least 1% as wide as its largest end.
        lo = min(_F(0), in_lo)
        epsilon = max(_F(1), abs(in_lo), abs(in_hi)) * _F(0.01)
        hi = max(_F(0), max(in_hi, _F(lo + epsilon)))
        lowest, highest = _lowest_highest(T)
        if mode == "MIN_FIRST":
            return _float_to_quantized(x, lo, hi, T), lo, hi
        if mode == "MIN_COMBINED":
            scale = _F((float(highest) - float(lowest)) / float(_F(hi - lo)))
            shifted = (np.clip(x, lo, hi) - lo) * scale
            if lowest < 0:                                   # signed: centre on 0
                half_range = _F((float(highest) - lowest + 1) / 2.0)
                out = _round_half_away(shifted - half_range)
            else:
                out = np.trunc(shifted + _F(0.5))
            return _to_quantized(out, T), lo, hi
        scale, min_out = _scaled_factor(lo, hi, T, narrow_range)
        lo, hi = _F(min_out / scale), _F(_F(highest) / scale)
        scaled = np.clip(x, lo, hi) * scale
        out = np.rint(scaled) if round_mode == "HALF_TO_EVEN" else _round_half_away(scaled)
        return _to_quantized(out, T), lo, hi


class Dequantize(OpDef):
    """Quantized input and its range -> float32 (the inverse of QuantizeV2's mode)."""

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(input, min_range, max_range, T=None, mode="MIN_COMBINED",  # noqa: A002, N803
               narrow_range=False):
        lo, hi = _scalar(min_range), _scalar(max_range)
        lowest, highest = _lowest_highest(T)
        if mode == "MIN_FIRST":
            return _quantized_to_float(input, lo, hi, T)
        q = _integers(input).astype(_F)
        if mode == "MIN_COMBINED":
            scale = (hi - lo) / (_F(highest) - _F(lowest))
            half_range = _F(0) if lowest == 0 else (_F(highest) - _F(lowest) + _F(1)) / _F(2)
            return (q + half_range) * scale + lo
        min_out = _F(lowest + (1 if narrow_range else 0))
        scale = hi / _F(highest) if lowest == 0 else max(lo / min_out, hi / _F(highest))
        if abs(scale) < np.finfo(_F).tiny:      # TF's CPU threads flush denormals to zero
            scale = _F(np.copysign(0, scale))
        return q * scale


def _quantize_op(input, min_range, max_range, T, mode, round_mode, narrow_range,  # noqa: A002
                 name):
    T = dtypes.as_dtype(T).base_dtype  # noqa: N806
    if not T.is_quantized:
        raise TypeError(f"Value passed to parameter 'T' has DataType {T.name} not in list of "
                        f"allowed values: {_QUANTIZED_LIST} (op QuantizeV2: T is one of "
                        "tf.QUANTIZED_DTYPES).")
    _check_modes("QuantizeV2", mode, round_mode)
    with name_scope(name, "QuantizeV2", [input, min_range, max_range]) as scope:
        x = convert_to_tensor(input, dtype=dtypes.float32, name="input")
        lo = convert_to_tensor(min_range, dtype=dtypes.float32, name="min_range")
        hi = convert_to_tensor(max_range, dtype=dtypes.float32, name="max_range")
        outs = apply_op("QuantizeV2", [x, lo, hi],
                        {"T": T, "mode": mode, "round_mode": round_mode,
                         "narrow_range": bool(narrow_range)},
                        name=scope, output_dtypes=[T, dtypes.float32, dtypes.float32])
    return _QuantizeOutputs(*outs)


def quantize(input, min_range, max_range, T, mode="MIN_COMBINED",  # noqa: A002, N803
             round_mode="HALF_AWAY_FROM_ZERO", name=None, narrow_range=False):
    """(output, output_min, output_max): the float32 `input` quantized to type T (one of
    tf.QUANTIZED_DTYPES) over [min_range, max_range] -- see the module docstring for `mode`."""
    return _quantize_op(input, min_range, max_range, T, mode, round_mode, narrow_range, name)


def quantize_v2(input, min_range, max_range, T, mode="MIN_COMBINED", name=None,  # noqa: A002
                round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False):  # noqa: N803
    """tf.quantize under its TF 1.x name (deprecated there; note `name` before round_mode)."""
    return _quantize_op(input, min_range, max_range, T, mode, round_mode, narrow_range, name)


def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None,  # noqa: A002
               narrow_range=False):
    """The float32 values a quantized tensor stands for, given its range and mode."""
    _check_modes("Dequantize", mode)
    with name_scope(name, "Dequantize", [input, min_range, max_range]) as scope:
        q = convert_to_tensor(input, name="input")
        T = q.dtype.base_dtype  # noqa: N806
        if not T.is_quantized:
            raise TypeError(f"Value passed to parameter 'input' has DataType {T.name} not in "
                            f"list of allowed values: {_QUANTIZED_LIST} (op Dequantize, tensor "
                            f"{q.name!r}): dequantize takes the output of tf.quantize.")
        lo = convert_to_tensor(min_range, dtype=dtypes.float32, name="min_range")
        hi = convert_to_tensor(max_range, dtype=dtypes.float32, name="max_range")
        return apply_op("Dequantize", [q, lo, hi],
                        {"T": T, "mode": mode, "narrow_range": bool(narrow_range)},
                        name=scope, output_dtypes=[dtypes.float32])


# -- QuantizedConcat --------------------------------------------------------------------------

class QuantizedConcat(OpDef):
    """concat_dim, N quantized tensors, their N mins and N maxes -> the joined tensor in
    one common range (signed types: symmetric around 0), with that range. (TF registers
    kernels for quint8 and qint32 only; the sandbox's takes every quantized type.)"""
    multi_output = True

    def shape(op):
        n = op.get_attr("N")
        values = list(op.inputs[1:1 + n])
        joined = ConcatV2.shape(types.SimpleNamespace(inputs=values + [op.inputs[0]]))
        return [joined, TensorShape([]), TensorShape([])]

    def kernel(concat_dim, *args, N=None, T=None):  # noqa: N803
        values, mins, maxes = args[:N], args[N:2 * N], args[2 * N:]
        ranges = [(_scalar(a), _scalar(b)) for a, b in zip(mins, maxes)]
        out_lo = min(_F(0), min(r[0] for r in ranges))
        out_hi = max(r[1] for r in ranges)
        if _lowest_highest(T)[0] < 0:
            out_hi = max(abs(out_lo), abs(out_hi))
            out_lo = -out_hi
        requantized = [q if (lo, hi) == (out_lo, out_hi) else
                       _float_to_quantized(_quantized_to_float(q, lo, hi, T), out_lo, out_hi, T)
                       for q, (lo, hi) in zip(values, ranges)]
        return ConcatV2.kernel(*requantized, concat_dim), out_lo, out_hi


def quantized_concat(concat_dim, values, input_mins, input_maxes, name=None):
    """(output, output_min, output_max): quantized tensors of one type joined along
    concat_dim, each re-quantized to the range that holds all of theirs."""
    with name_scope(name, "QuantizedConcat", list(values)) as scope:
        values = [convert_to_tensor(v) for v in values]
        T = values[0].dtype.base_dtype  # noqa: N806
        if not T.is_quantized or any(v.dtype.base_dtype != T for v in values):
            raise TypeError("Tensors in list passed to 'values' of 'QuantizedConcat' Op have "
                            f"types [{', '.join(v.dtype.base_dtype.name for v in values)}]: "
                            "they must all be one quantized type (tf.quantize's output).")
        n = len(values)
        if len(input_mins) != n or len(input_maxes) != n:
            raise ValueError(f"List argument 'input_mins' and 'input_maxes' to "
                             f"'QuantizedConcat' Op must have {n} values (one per tensor), "
                             f"got {len(input_mins)} and {len(input_maxes)}.")
        axis = convert_to_tensor(concat_dim, dtype=dtypes.int32, name="concat_dim")
        ranges = [convert_to_tensor(r, dtype=dtypes.float32)
                  for r in list(input_mins) + list(input_maxes)]
        outs = apply_op("QuantizedConcat", [axis] + values + ranges, {"N": n, "T": T},
                        name=scope, output_dtypes=[T, dtypes.float32, dtypes.float32])
    return _ConcatOutputs(*outs)


# -- fake quantization (fake_quant_ops_functor.h) ---------------------------------------------

def _quant_range(num_bits, narrow_range):
    if not 2 <= num_bits <= 16:
        raise InvalidArgumentError(None, None, "num_bits must be between 2 and 16, inclusive "
                                   f"(got {num_bits}).")
    return (1 if narrow_range else 0), (1 << num_bits) - 1


def _nudge(lo, hi, num_bits, narrow_range):
    """(nudged_min, nudged_max, scale, 1 / scale): [lo, hi] moved so that 0.0 is one of its
    levels."""
    quant_min, quant_max = (_F(q) for q in _quant_range(num_bits, narrow_range))
    lo, hi = _F(lo), _F(hi)
    scale = (hi - lo) / (quant_max - quant_min)
    inv_scale = (quant_max - quant_min) / (hi - lo)      # (not 1 / scale: more exact)
    zero_point_from_min = quant_min - lo / scale
    if zero_point_from_min < quant_min:
        zero_point = quant_min
    elif zero_point_from_min > quant_max:
        zero_point = quant_max
    else:
        zero_point = _round_half_away(zero_point_from_min)
    return (quant_min - zero_point) * scale, (quant_max - zero_point) * scale, scale, inv_scale


def _fake_quant(x, lo, hi, num_bits, narrow_range, divide=False):
    """x rounded to the nearest level of the nudged range (TF's _vars kernel divides by the
    scale, the others multiply by its inverse: the last bit can differ)."""
    nudged_min, nudged_max, scale, inv_scale = _nudge(lo, hi, num_bits, narrow_range)
    quant_zero = np.floor(-nudged_min * inv_scale + _F(0.5))
    shifted = np.clip(x, nudged_min, nudged_max) - nudged_min
    levels = shifted / scale if divide else shifted * inv_scale
    return np.floor(levels - quant_zero + _F(0.5)) * scale


def _inside(x, lo, hi, num_bits, narrow_range):
    nudged_min, nudged_max = _nudge(lo, hi, num_bits, narrow_range)[:2]
    return x < nudged_min, (x >= nudged_min) & (x <= nudged_max), x > nudged_max


def _vars_gradients(dy, x, lo, hi, num_bits, narrow_range):
    """(d input, d min, d max) of fake quantization: straight through inside the nudged range,
    the rest summed into min (below) and max (above). min == max == 0 passes all through."""
    if lo == 0 and hi == 0:
        return dy, _F(0), _F(0)
    below, inside, above = _inside(x, lo, hi, num_bits, narrow_range)
    zero = _F(0)
    return (np.where(inside, dy, zero), np.where(below, dy, zero).sum(dtype=_F),
            np.where(above, dy, zero).sum(dtype=_F))


def _check_args_range(lo, hi):
    if not lo < hi:
        raise InvalidArgumentError(None, None, f"min has to be smaller than max, was: {lo:g} "
                                   f">= {hi:g}")


class FakeQuantWithMinMaxArgs(OpDef):
    """Float inputs rounded to the 2**num_bits levels of [min, max] (attributes)."""
    shape = unchanged_shape

    def kernel(inputs, min=-6.0, max=6.0, num_bits=8, narrow_range=False):  # noqa: A002
        _check_args_range(min, max)
        return _fake_quant(np.asarray(inputs, _F), min, max, num_bits, narrow_range)

    def gradient(op, grad):
        return [fake_quant_with_min_max_args_gradient(
            grad, op.inputs[0], min=op.get_attr("min"), max=op.get_attr("max"),
            num_bits=op.get_attr("num_bits"), narrow_range=op.get_attr("narrow_range"))]


class FakeQuantWithMinMaxArgsGradient(OpDef):
    """gradients where inputs lie in the nudged [min, max], else 0."""
    differentiable = False
    shape = unchanged_shape

    def kernel(gradients, inputs, min=-6.0, max=6.0, num_bits=8,  # noqa: A002
               narrow_range=False):
        _check_args_range(min, max)
        inside = _inside(np.asarray(inputs, _F), min, max, num_bits, narrow_range)[1]
        return np.where(inside, gradients, _F(0)).astype(_F)


class FakeQuantWithMinMaxVars(OpDef):
    """Float inputs rounded to the 2**num_bits levels of [min, max] (scalar tensors)."""
    shape = unchanged_shape

    def kernel(inputs, min, max, num_bits=8, narrow_range=False):  # noqa: A002
        lo, hi = _F(min), _F(max)
        x = np.asarray(inputs, _F)
        if lo == 0 and hi == 0:
            return np.zeros_like(x)
        return _fake_quant(x, lo, hi, num_bits, narrow_range, divide=True)

    def gradient(op, grad):
        return list(fake_quant_with_min_max_vars_gradient(
            grad, *op.inputs, num_bits=op.get_attr("num_bits"),
            narrow_range=op.get_attr("narrow_range")))


class FakeQuantWithMinMaxVarsGradient(OpDef):
    """(d inputs, d min, d max) of FakeQuantWithMinMaxVars."""
    multi_output = True
    differentiable = False

    def shape(op):
        return [op.inputs[1].get_shape(), TensorShape([]), TensorShape([])]

    def kernel(gradients, inputs, min, max, num_bits=8, narrow_range=False):  # noqa: A002
        return _vars_gradients(np.asarray(gradients, _F), np.asarray(inputs, _F), _F(min),
                               _F(max), num_bits, narrow_range)


def _per_channel(function, arrays, mins, maxes):
    """Runs function(*[a[..., c] for a in arrays], mins[c], maxes[c]) for each channel c of
    the last axis; a tuple of its outputs, each stacked along the last axis."""
    shape = np.shape(arrays[0])
    if np.ndim(mins) != 1 or np.ndim(maxes) != 1 or not shape or \
            not shape[-1] == len(mins) == len(maxes):
        raise InvalidArgumentError(None, None, "min and max must be 1-D tensors of the size "
                                   f"of inputs' last dimension: inputs {list(shape)}, min "
                                   f"{list(np.shape(mins))}, max {list(np.shape(maxes))}")
    parts = [function(*[np.asarray(a, _F)[..., c] for a in arrays], _F(mins[c]), _F(maxes[c]))
             for c in range(len(mins))]
    return tuple(np.stack(p, axis=-1).astype(_F) for p in zip(*parts))


class FakeQuantWithMinMaxVarsPerChannel(OpDef):
    """FakeQuantWithMinMaxVars with one [min, max] per channel (the last axis)."""
    shape = unchanged_shape

    def kernel(inputs, min, max, num_bits=8, narrow_range=False):  # noqa: A002
        def one_channel(x, lo, hi):
            if lo == 0 and hi == 0:
                return (np.zeros_like(x),)
            return (_fake_quant(x, lo, hi, num_bits, narrow_range),)
        return _per_channel(one_channel, [inputs], min, max)[0]

    def gradient(op, grad):
        return list(fake_quant_with_min_max_vars_per_channel_gradient(
            grad, *op.inputs, num_bits=op.get_attr("num_bits"),
            narrow_range=op.get_attr("narrow_range")))


class FakeQuantWithMinMaxVarsPerChannelGradient(OpDef):
    """(d inputs, d min, d max) of FakeQuantWithMinMaxVarsPerChannel, per channel."""
    multi_output = True
    differentiable = False

    def shape(op):
        channels = op.inputs[1].get_shape()[-1:] if op.inputs[1].get_shape().ndims else None
        return [op.inputs[1].get_shape(), TensorShape(channels), TensorShape(channels)]

    def kernel(gradients, inputs, min, max, num_bits=8, narrow_range=False):  # noqa: A002
        def one_channel(dy, x, lo, hi):
            return _vars_gradients(dy, x, lo, hi, num_bits, narrow_range)
        d_input, d_min, d_max = _per_channel(one_channel, [gradients, inputs], min, max)
        return d_input, d_min.reshape(-1), d_max.reshape(-1)


def _fake_quant_op(op_type, inputs, attrs, name, n_outputs=1):
    """Adds the op; `inputs`: {argument name: value}, each a float32 tensor (as TF, no
    silent cast: an int32 one is a TypeError)."""
    with name_scope(name, op_type, list(inputs.values())) as scope:
        tensors = [convert_to_tensor(t, preferred_dtype=dtypes.float32, name=arg)
                   for arg, t in inputs.items()]
        for arg, t in zip(inputs, tensors):
            if t.dtype.base_dtype != dtypes.float32:
                raise TypeError(f"Input '{arg}' of '{op_type}' Op has type "
                                f"{t.dtype.base_dtype.name} that does not match expected type "
                                "of float32.")
        return apply_op(op_type, tensors, attrs, name=scope,
                        output_dtypes=[dtypes.float32] * n_outputs)


def _bits(num_bits, narrow_range):
    return {"num_bits": int(num_bits), "narrow_range": bool(narrow_range)}


def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8,  # noqa: A002
                                 narrow_range=False, name=None):
    """`inputs` (float32) rounded to the 2**num_bits levels of [min, max], nudged so that 0.0
    is a level; values outside clamp to the ends. narrow_range drops the lowest level."""
    attrs = {"min": float(min), "max": float(max), **_bits(num_bits, narrow_range)}
    return _fake_quant_op("FakeQuantWithMinMaxArgs", {"inputs": inputs}, attrs, name)


def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6,  # noqa: A002
                                          num_bits=8, narrow_range=False, name=None):
    """`gradients` where `inputs` lie inside the nudged [min, max], 0 elsewhere."""
    attrs = {"min": float(min), "max": float(max), **_bits(num_bits, narrow_range)}
    return _fake_quant_op("FakeQuantWithMinMaxArgsGradient",
                          {"gradients": gradients, "inputs": inputs}, attrs, name)


def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8,  # noqa: A002
                                 narrow_range=False, name=None):
    """fake_quant_with_min_max_args with min and max scalar tensors (variables to train)."""
    return _fake_quant_op("FakeQuantWithMinMaxVars", {"inputs": inputs, "min": min, "max": max},
                          _bits(num_bits, narrow_range), name)


def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max,  # noqa: A002
                                          num_bits=8, narrow_range=False, name=None):
    """(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max) of fake_quant_with_min_max_vars."""
    outs = _fake_quant_op("FakeQuantWithMinMaxVarsGradient",
                          {"gradients": gradients, "inputs": inputs, "min": min, "max": max},
                          _bits(num_bits, narrow_range), name, n_outputs=3)
    return _VarsGradients(*outs)


def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8,  # noqa: A002
                                             narrow_range=False, name=None):
    """fake_quant_with_min_max_vars with 1-D min and max: one range per last-axis channel."""
    return _fake_quant_op("FakeQuantWithMinMaxVarsPerChannel",
                          {"inputs": inputs, "min": min, "max": max},
                          _bits(num_bits, narrow_range), name)


def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max,  # noqa: A002
                                                      num_bits=8, narrow_range=False,
                                                      name=None):
    """(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max) per channel."""
    outs = _fake_quant_op("FakeQuantWithMinMaxVarsPerChannelGradient",
                          {"gradients": gradients, "inputs": inputs, "min": min, "max": max},
                          _bits(num_bits, narrow_range), name, n_outputs=3)
    return _PerChannelGradients(*outs)
