"""Grayscale morphology -- tf.nn.dilation2d and tf.nn.erosion2d, as TensorFlow 1.15's
python/ops/nn_ops.py defines them (dilation2d_v1, erosion2d), computed as
core/kernels/dilation_ops.cc does (Dilation2D, Dilation2DBackpropInput,
Dilation2DBackpropFilter).

Dilation is max-plus convolution: the filter [kh, kw, C] is *added* to each window of channel c
and the maximum taken (no sum over channels):

    out[b, y, x, c] = max over (i, j) of  input[b, y*sh + i*rh - top, x*sw + j*rw - left, c]
                                          + filter[i, j, c]

strides and rates are 4-lists [1, s, s, 1] / [1, r, r, 1]; padding SAME or VALID with
conv2d's geometry (the filter's effective size (k - 1) * rate + 1). Padded positions never win.
Erosion is its dual: erosion2d(x, k) = -dilation2d(-x, k reversed in h and w), the minimum of
x - k over the window. The gradient goes to the one input entry and the one filter tap that
won each window (the first in row-major order on a tie), as TF's backprop kernels send it.
"""
import numpy as np

from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import shape_text
from . import array_ops, math_ops
from .conv_ops import _Window, _out_size
from .nn_ops import _float_tensor

__all__ = []   # reached as tf.nn.* (sandbox/nn.py)


def _winner(input, filter, strides, rates, padding):  # noqa: A002
    """(max of input + filter over each window, the tap (i*kw + j) that won, the window)."""
    if strides[0] != 1 or strides[3] != 1:      # TF checks these when the kernel runs
        raise errors.UnimplementedError(None, None, "Stride is only supported across "
                                        "spatial dimensions.")
    if rates[0] != 1 or rates[3] != 1:
        raise errors.UnimplementedError(None, None, "Rate is only supported across spatial "
                                        "dimensions.")
    if input.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional: "
                                          f"{shape_text(input.shape)}")
    if filter.ndim != 3:
        raise errors.InvalidArgumentError(None, None, f"filter must be 3-dimensional: "
                                          f"{shape_text(filter.shape)}")
    if input.shape[3] != filter.shape[2]:
        raise errors.InvalidArgumentError(None, None, f"input and filter must have the same "
                                          f"depth: {input.shape[3]} vs {filter.shape[2]}")
    kh, kw, c = filter.shape
    win = _Window(input.shape[1], input.shape[2], kh, kw, strides, padding, rates)
    cols = win.windows(win.pad(input, -np.inf)) + filter          # [N, oh, ow, kh, kw, C]
    cols = cols.reshape(input.shape[0], win.oh, win.ow, kh * kw, c)
    k = np.argmax(cols, axis=3)
    out = np.take_along_axis(cols, k[:, :, :, None], axis=3)[:, :, :, 0]
    return out.astype(input.dtype, copy=False), k, win


class Dilation2D(OpDef):
    """The max over each window of input + filter, channel by channel."""

    def shape(op):
        x = op.inputs[0].get_shape().with_rank(4)
        f = op.inputs[1].get_shape().with_rank(3)
        if not x[3].is_compatible_with(f[2]):
            raise ValueError(f"Dimensions must be equal, but are {x[3]} and {f[2]}")
        strides, rates, padding = (op.get_attr(a) for a in ("strides", "rates", "padding"))
        dims = [x[0].value]
        for axis in (1, 2):
            size, k = x[axis].value, f[axis - 1].value
            dims.append(None if size is None or k is None else
                        _out_size(size, k, strides[axis], rates[axis], padding)[0])
        return TensorShape(dims + [x[3].value if x[3].value is not None else f[2].value])

    def kernel(input, filter, strides, rates, padding, T=None):  # noqa: A002
        return _winner(input, filter, strides, rates, padding)[0]

    def gradient(op, grad):
        x, f = op.inputs
        attrs = {k: op.get_attr(k) for k in ("strides", "rates", "padding")}
        dtype = grad.dtype.base_dtype
        return [apply_op("Dilation2DBackpropInput", [x, f, grad], {"T": dtype, **attrs},
                         name="Dilation2DBackpropInput"),
                apply_op("Dilation2DBackpropFilter", [x, f, grad], {"T": dtype, **attrs},
                         name="Dilation2DBackpropFilter")]


def _check_backprop(out_backprop, win, n, c):
    want = (n, win.oh, win.ow, c)
    if tuple(out_backprop.shape) != want:
        raise errors.InvalidArgumentError(None, None, f"out_backprop has incompatible size: "
                                          f"{shape_text(out_backprop.shape)} vs "
                                          f"{shape_text(want)}")


class Dilation2DBackpropInput(OpDef):
    """dinput of Dilation2D: each output's gradient to the input entry that won its window."""

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(input, filter, out_backprop, strides, rates, padding, T=None):  # noqa: A002
        n, h, w, c = input.shape
        _, k, win = _winner(input, filter, strides, rates, padding)
        _check_backprop(out_backprop, win, n, c)
        ys = np.arange(win.oh)[None, :, None, None] * win.sh - win.top + (k // win.kw) * win.dh
        xs = np.arange(win.ow)[None, None, :, None] * win.sw - win.left + (k % win.kw) * win.dw
        bs = np.broadcast_to(np.arange(n)[:, None, None, None], k.shape)
        cs = np.broadcast_to(np.arange(c), k.shape)
        out = np.zeros(input.shape, dtype=out_backprop.dtype)
        np.add.at(out, (bs, ys, xs, cs), out_backprop)
        return out


class Dilation2DBackpropFilter(OpDef):
    """dfilter of Dilation2D: each output's gradient to the filter tap that won its window."""

    def shape(op):
        return op.inputs[1].get_shape()

    def kernel(input, filter, out_backprop, strides, rates, padding, T=None):  # noqa: A002
        n, _, _, c = input.shape
        _, k, win = _winner(input, filter, strides, rates, padding)
        _check_backprop(out_backprop, win, n, c)
        out = np.zeros(filter.size // c * c, dtype=out_backprop.dtype).reshape(-1, c)
        np.add.at(out, (k, np.broadcast_to(np.arange(c), k.shape)), out_backprop)
        return out.reshape(filter.shape)


def _sequence(value, name):
    value = [int(v) for v in value]
    if len(value) != 4:
        raise ValueError(f"Attr '{name}' of 'Dilation2D' Op must have 4 elements, got "
                         f"{len(value)}")
    return value


def _dilation2d(x, f, strides, rates, padding, name):
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    strides = _sequence(strides, "strides")
    rates = _sequence(rates, "rates")
    return apply_op("Dilation2D", [x, f], {"T": x.dtype.base_dtype, "strides": strides,
                                           "rates": rates, "padding": padding},
                    name=name or "Dilation2D")


def dilation2d(input, filter=None, strides=None, rates=None, padding=None,  # noqa: A002
               name=None, filters=None, dilations=None):
    """Grayscale dilation of input [N, H, W, C] by filter [kh, kw, C]: the max over each
    window of input + filter. strides and rates (dilations) are 4-lists [1, s, s, 1]."""
    if filter is not None and filters is not None:
        raise ValueError("Cannot specify both 'filters' and 'filter'")
    if rates is not None and dilations is not None:
        raise ValueError("Cannot specify both 'dilations' and 'rates'")
    filter = filters if filters is not None else filter  # noqa: A001
    rates = dilations if dilations is not None else rates
    x = _float_tensor(input, "input", "Dilation2D")
    f = convert_to_tensor(filter, dtype=x.dtype.base_dtype, name="filter")
    return _dilation2d(x, f, strides, rates, padding, name)


def erosion2d(value, kernel, strides, rates, padding, name=None):
    """Grayscale erosion of value [N, H, W, C] by kernel [kh, kw, C]: the min over each
    window of value - kernel (reflected), i.e. -dilation2d(-value, reverse(kernel))."""
    with name_scope(name, "erosion2d", [value, kernel]) as scope:
        x = _float_tensor(value, "value", "Dilation2D")
        k = convert_to_tensor(kernel, dtype=x.dtype.base_dtype, name="kernel")
        return math_ops.negative(_dilation2d(math_ops.negative(x),
                                             array_ops.reverse_v2(k, [0, 1]),
                                             strides, rates, padding, scope))
