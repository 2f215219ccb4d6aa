"""tf.nn.max_pool_with_argmax -- as TensorFlow 1.15's python/ops/nn_ops.py defines it
(max_pool_with_argmax_v1), computed as core/kernels/maxpooling_op.cc
(SpatialMaxPoolWithArgMaxHelper, MaxPoolGradWithArgmax, MaxPoolGradGradWithArgmax) does.

    y, argmax = tf.nn.max_pool_with_argmax(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                           padding="SAME")

argmax holds, for every output entry, the position of the input entry that won, flattened:
((b * height + y) * width + x) * channels + c with include_batch_in_index=True, and
(y * width + x) * channels + c (the batch left out) by default. A tie goes to the first
maximum in row-major order inside the window; padded positions never win. The gradient sends
each output's gradient to the input entry its argmax names (MaxPoolGradWithArgmax), and the
gradient of that gathers it back (MaxPoolGradGradWithArgmax).

The fractional pools are in ops/fractional_pool_ops.py.
"""
import collections

import numpy as np

from ..framework import dtypes, errors
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import shape_text
from .conv_ops import _check_conv_args, _spatial_shape, _Window

__all__ = []   # reached as tf.nn.* (sandbox/nn.py)


def _window(shape, ksize, strides, padding):
    if len(shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"tensor_in must be 4-dimensional, got "
                                          f"shape {shape_text(shape)}")
    return _Window(shape[1], shape[2], ksize[1], ksize[2], strides, padding)


def _argmax(x, ksize, strides, padding, include_batch_in_index):
    """(max, flat index of the max) of every window, as TF's CPU kernel picks them."""
    n, h, w, c = x.shape
    win = _window(x.shape, ksize, strides, padding)
    low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    xp = win.pad(x, low)
    cols = win.windows(xp).reshape(n, win.oh, win.ow, win.kh * win.kw, c)
    if x.dtype.kind != "f" and win.padded:        # an integer pad could tie with a real min
        real = win.windows(win.pad(np.ones(x.shape, bool), False)).reshape(cols.shape)
        cols = np.where(real, cols.astype(np.float64), -np.inf)
    k = np.argmax(cols, axis=3)                                     # [N, oh, ow, C]
    out = np.take_along_axis(cols, k[:, :, :, None], axis=3)[:, :, :, 0].astype(x.dtype)
    ys = np.arange(win.oh)[None, :, None, None] * win.sh - win.top + k // win.kw
    xs = np.arange(win.ow)[None, None, :, None] * win.sw - win.left + k % win.kw
    index = (ys * w + xs) * c + np.arange(c)
    if include_batch_in_index:
        index = index + np.arange(n)[:, None, None, None] * (h * w * c)
    return out, index


def _flat_positions(argmax, input_shape, include_batch_in_index):
    """argmax as positions in the flattened input (the batch offset added where TF's index
    leaves it out)."""
    n = input_shape[0]
    size = int(np.prod(input_shape[1:]))
    pos = argmax.astype(np.int64).reshape(n, -1)
    if not include_batch_in_index:
        pos = pos + np.arange(n)[:, None] * size
    if pos.size and (pos.min() < 0 or pos.max() >= n * size):
        raise errors.InvalidArgumentError(None, None, "Invalid argmax index: argmax values "
                                          f"must lie in [0, {n * size})")
    return pos.reshape(-1)


class MaxPoolWithArgmax(OpDef):
    """The max of every window and the flattened position it came from."""
    multi_output = True

    def shape(op):
        ksize = op.get_attr("ksize")
        x = op.inputs[0].get_shape().with_rank(4)
        out = _spatial_shape(op, x, ksize[1], ksize[2], x[3].value)
        return [out, out]

    def kernel(input, ksize, strides, padding, Targmax=None, include_batch_in_index=False,  # noqa
               T=None):
        out, index = _argmax(input, ksize, strides, padding, include_batch_in_index)
        return out, index.astype(np.dtype(Targmax.as_numpy_dtype) if Targmax else np.int64)

    def gradient(op, grad, _):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding",
                                             "include_batch_in_index")}
        return [apply_op("MaxPoolGradWithArgmax", [op.inputs[0], grad, op.outputs[1]],
                         {"T": grad.dtype.base_dtype, "Targmax": op.outputs[1].dtype, **attrs},
                         name="MaxPoolGradWithArgmax")]


class MaxPoolGradWithArgmax(OpDef):
    """dinput of MaxPoolWithArgmax: each output gradient added at the input its argmax
    names."""

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(input, grad, argmax, ksize, strides, padding, include_batch_in_index=False,  # noqa
               T=None, Targmax=None):
        out = np.zeros(input.size, dtype=grad.dtype)
        np.add.at(out, _flat_positions(argmax, input.shape, include_batch_in_index),
                  grad.reshape(-1))
        return out.reshape(input.shape)

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding",
                                             "include_batch_in_index")}
        return [None, apply_op("MaxPoolGradGradWithArgmax", [op.inputs[0], grad, op.inputs[2]],
                               {"T": grad.dtype.base_dtype, "Targmax": op.inputs[2].dtype,
                                **attrs}, name="MaxPoolGradGradWithArgmax"), None]


class MaxPoolGradGradWithArgmax(OpDef):
    """The gradient of MaxPoolGradWithArgmax: the input-shaped gradient read at each argmax."""

    def shape(op):
        return op.inputs[2].get_shape()

    def kernel(input, grad, argmax, ksize, strides, padding, include_batch_in_index=False,  # noqa
               T=None, Targmax=None):
        pos = _flat_positions(argmax, input.shape, include_batch_in_index)
        return grad.reshape(-1)[pos].reshape(argmax.shape)


def _sequence(value, name):
    if isinstance(value, int):
        value = [value]
    value = [int(v) for v in value]
    if len(value) != 4:
        raise ValueError(f"{name} must have 4 elements (a list [1, h, w, 1]), got {value}")
    return value


MaxPoolWithArgmaxOutput = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         Targmax=None, name=None, output_dtype=None,  # noqa: N803 -- TF's
                         include_batch_in_index=False):
    """Max pooling of an NHWC tensor that also returns, for every output, the flattened index
    of the input entry it took: returns (output, argmax), argmax int64 unless
    output_dtype (or Targmax) says int32."""
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    if Targmax is not None and output_dtype is not None and Targmax != output_dtype:
        raise ValueError("Cannot specify both 'output_dtype' and 'Targmax'")
    targmax = dtypes.as_dtype(output_dtype or Targmax or dtypes.int64)
    if targmax not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Value passed to parameter 'Targmax' has DataType {targmax.name} not "
                        f"in list of allowed values: int32, int64")
    ksize, strides = _sequence(ksize, "ksize"), _sequence(strides, "strides")
    _check_conv_args(padding, "NHWC", strides, "max_pool_with_argmax")
    if ksize[0] != 1 or ksize[3] != 1:
        raise ValueError(f"Pooling is supported over height and width only: ksize must be "
                         f"[1, kh, kw, 1], got {ksize}")
    x = convert_to_tensor(input, name="input")
    if not (x.dtype.base_dtype.is_floating or x.dtype.base_dtype.is_integer):
        raise TypeError(f"max_pool_with_argmax takes a real input, got {x.dtype.name}")
    return MaxPoolWithArgmaxOutput(*apply_op(
        "MaxPoolWithArgmax", [x],
        {"T": x.dtype.base_dtype, "ksize": ksize, "strides": strides, "padding": padding,
         "Targmax": targmax, "include_batch_in_index": bool(include_batch_in_index)},
        name=name or "MaxPoolWithArgmax", output_dtypes=[x.dtype.base_dtype, targmax]))
