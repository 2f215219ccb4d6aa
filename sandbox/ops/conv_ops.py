"""Convolution and pooling -- the layers of image models: conv2d (and its transpose,
conv2d_transpose: the gradient of conv2d used as a layer), max_pool and avg_pool, as
TensorFlow's python/ops/nn_ops.py defines them, computed as its kernels do
(core/kernels/conv_ops.cc, conv_grad_*_ops.cc, pooling_ops_common.h, avgpooling_op.cc).

A 2-D convolution slides a [kh, kw, in_channels, out_channels] filter over an NHWC image.
The kernels below use "im2col": a strided *view* of the (padded) input lists every window,
shape [N, out_h, out_w, kh, kw, C], without copying. Flattened to a matrix with one row per
output position (the one copy), a single matrix multiplication with the filter computes every
output at once. The gradients run the same machinery backwards: "col2im" adds each window's
gradient back onto the input positions it came from (a loop over the kh * kw filter taps, not
over pixels). Pooling loops over the taps too: max_pool is kh * kw np.maximum calls.
"""
import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import const_op_value, shape_text
from . import array_ops
from .nn_ops import _float_tensor

__all__ = []   # no tf.* names: these are reached as tf.nn.* (sandbox/nn.py)


def _out_size(in_size, k, stride, dilation, padding):
    """(output size, padding before, padding after) along one spatial axis -- TF's rule:
    VALID uses whole windows only, SAME pads so that output = ceil(input / stride)."""
    eff = (k - 1) * dilation + 1
    if padding == "VALID":
        if in_size - eff + stride < 0:
            raise ValueError(f"Computed output size would be negative: "
                             f"{(in_size - eff) // stride + 1} [input_size: {in_size}, "
                             f"effective_filter_size: {eff}, stride: {stride}]")
        out = (in_size - eff + stride) // stride
        before = after = 0
    else:
        out = -(-in_size // stride)
        total = max((out - 1) * stride + eff - in_size, 0)
        before, after = total // 2, total - total // 2
    return out, before, after


class _Window:
    """The geometry of one sliding window over NHWC input of height h and width w."""

    def __init__(self, h, w, kh, kw, strides, padding, dilations=(1, 1, 1, 1)):
        self.h, self.w, self.kh, self.kw = h, w, kh, kw
        self.sh, self.sw = strides[1], strides[2]
        self.dh, self.dw = dilations[1], dilations[2]
        try:
            self.oh, top, bottom = _out_size(h, kh, self.sh, self.dh, padding)
            self.ow, left, right = _out_size(w, kw, self.sw, self.dw, padding)
        except ValueError as e:
            raise errors.InvalidArgumentError(None, None, str(e)) from None
        self.top, self.left = top, left
        self.pads = ((0, 0), (top, bottom), (left, right), (0, 0))
        self.padded = bool(top or bottom or left or right)

    def pad(self, x, value=0):
        return np.pad(x, self.pads, constant_values=value) if self.padded else x

    def windows(self, xp):
        """View of padded input [N, H', W', C] as [N, out_h, out_w, kh, kw, C] (no copy)."""
        n, _, _, c = xp.shape
        s0, s1, s2, s3 = xp.strides
        return np.lib.stride_tricks.as_strided(
            xp, (n, self.oh, self.ow, self.kh, self.kw, c),
            (s0, s1 * self.sh, s2 * self.sw, s1 * self.dh, s2 * self.dw, s3), writeable=False)

    def taps(self, xp):
        """For each filter tap (i, j), row by row: the [N, out_h, out_w, C] view of the padded
        input that the tap reads at every output position. (Pooling loops over these.)"""
        return [xp[self._tap(i, j)] for i in range(self.kh) for j in range(self.kw)]

    def _tap(self, i, j):
        """The slice of padded positions that filter tap (i, j) touches, one per output."""
        return (slice(None), slice(i * self.dh, i * self.dh + self.sh * (self.oh - 1) + 1, self.sh),
                slice(j * self.dw, j * self.dw + self.sw * (self.ow - 1) + 1, self.sw))

    def add_windows(self, tap_values, n, c, dtype):
        """col2im: sums tap_values(i, j) -> [N, out_h, out_w, C] back onto the input
        positions of each tap; returns the unpadded [N, h, w, C] result."""
        out = np.zeros((n, self.h + self.pads[1][0] + self.pads[1][1],
                        self.w + self.pads[2][0] + self.pads[2][1], c), dtype=dtype)
        for i in range(self.kh):
            for j in range(self.kw):
                out[self._tap(i, j)] += tap_values(i, j)
        return out[:, self.top:self.top + self.h, self.left:self.left + self.w]


def _get_sequence(value, name, channel_index=3):
    """strides / dilations / ksize as a 4-list: an int or a 1-, 2- or 4-list, as TF allows."""
    if isinstance(value, Tensor):
        raise TypeError(f"{name} must be a Python int or list of ints, not a Tensor")
    value = [value] if isinstance(value, numbers.Integral) else list(value)
    if len(value) == 1:
        value = value * 2
    if len(value) == 2:
        value = [1] + value + [1] if channel_index == 3 else [1, 1] + value
    if len(value) != 4:
        raise ValueError(f"{name} should be of length 1, 2 or 4 but was {len(value)}")
    return [int(v) for v in value]


def _check_conv_args(padding, data_format, strides, what):
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    if data_format != "NHWC":
        raise ValueError(f"The sandbox's {what} supports data_format='NHWC' only (as "
                         f"TensorFlow's CPU kernels), got {data_format!r}")
    if strides[0] != 1 or strides[3] != 1:
        raise ValueError(f"Current implementation does not yet support strides in the batch "
                         f"and depth dimensions (strides={strides}).")


def _spatial_shape(op, x_shape, kh, kw, out_c, dilations=(1, 1, 1, 1)):
    """The static NHWC output shape of a conv / pool op (None where unknown)."""
    x_shape = x_shape.with_rank(4)
    strides, padding = op.get_attr("strides"), op.get_attr("padding")
    dims = [x_shape[0].value]
    for axis, k in ((1, kh), (2, kw)):
        size = x_shape[axis].value
        dims.append(None if size is None or k is None else
                    _out_size(size, k, strides[axis], dilations[axis], padding)[0])
    return TensorShape(dims + [out_c])


def _known_shape(t, rank):
    """What the graph knows of the shape that the 1-D int tensor t holds (Const or Shape op)."""
    if t.op.type == "Const":
        return TensorShape([int(d) for d in t.op.get_attr("value")])
    if t.op.type == "Shape":
        return t.op.inputs[0].get_shape().merge_with(TensorShape([None] * rank))
    return TensorShape([None] * rank)


class Conv2D(OpDef):
    """2-D convolution of NHWC input with a [kh, kw, in_channels, out_channels] filter."""

    def shape(op):
        x, f = op.inputs[0].get_shape().with_rank(4), op.inputs[1].get_shape().with_rank(4)
        if not x[3].is_compatible_with(f[2]):
            raise ValueError(f"Dimensions must be equal, but are {x[3]} and {f[2]}")
        return _spatial_shape(op, x, f[0].value, f[1].value, f[3].value,
                              op.get_attr("dilations"))

    def kernel(input, filter, strides, padding, dilations=(1, 1, 1, 1),  # noqa: A002
               data_format="NHWC", use_cudnn_on_gpu=True, T=None):
        kh, kw, c, _ = filter.shape
        if input.ndim != 4 or input.shape[3] != c:
            raise errors.InvalidArgumentError(
                None, None, f"input depth must match the filter's in_channels: input shape "
                f"{shape_text(input.shape)}, filter shape {shape_text(filter.shape)}")
        n, o = input.shape[0], filter.shape[3]
        win = _Window(input.shape[1], input.shape[2], kh, kw, strides, padding, dilations)
        cols = win.windows(win.pad(input)).reshape(-1, kh * kw * c)   # im2col: the one copy
        return (cols @ filter.reshape(-1, o)).reshape(n, win.oh, win.ow, o)

    def gradient(op, grad):
        x, f = op.inputs
        attrs = _conv_attrs(op)
        return [conv2d_backprop_input(array_ops.shape(x), f, grad, **attrs),
                conv2d_backprop_filter(x, array_ops.shape(f), grad, **attrs)]


class Conv2DBackpropInput(OpDef):
    """dinput of Conv2D: each output gradient, times the filter, added back onto the input
    window it came from (col2im)."""

    def shape(op):
        return _known_shape(op.inputs[0], 4)

    def kernel(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
               dilations=(1, 1, 1, 1), data_format="NHWC", use_cudnn_on_gpu=True, T=None):
        n, h, w, c = (int(d) for d in input_sizes)
        kh, kw = filter.shape[:2]
        win = _Window(h, w, kh, kw, strides, padding, dilations)
        # [N*oh*ow, O] x [O, kh*kw*C] -> the gradient of every window: [N, oh, ow, kh, kw, C]
        o = filter.shape[3]
        cols = (out_backprop.reshape(-1, o) @ filter.reshape(-1, o).T).reshape(
            n, win.oh, win.ow, kh, kw, c)
        return win.add_windows(lambda i, j: cols[:, :, :, i, j], n, c, out_backprop.dtype)

    def gradient(op, grad):
        _, f, dy = op.inputs
        attrs = _conv_attrs(op)
        return [None, conv2d_backprop_filter(grad, array_ops.shape(f), dy, **attrs),
                conv2d(grad, f, **attrs)]


class Conv2DBackpropFilter(OpDef):
    """dfilter of Conv2D: every input window times its output gradient, summed."""

    def shape(op):
        return _known_shape(op.inputs[1], 4)

    def kernel(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
               dilations=(1, 1, 1, 1), data_format="NHWC", use_cudnn_on_gpu=True, T=None):
        kh, kw, c, o = (int(d) for d in filter_sizes)
        win = _Window(input.shape[1], input.shape[2], kh, kw, strides, padding, dilations)
        cols = win.windows(win.pad(input)).reshape(-1, kh * kw * c)   # im2col, as forward
        return (cols.T @ out_backprop.reshape(-1, o)).reshape(kh, kw, c, o)

    def gradient(op, grad):
        x, _, dy = op.inputs
        attrs = _conv_attrs(op)
        return [conv2d_backprop_input(array_ops.shape(x), grad, dy, **attrs), None,
                conv2d(x, grad, **attrs)]


def _conv_attrs(op):
    return {k: op.get_attr(k) for k in ("strides", "padding", "dilations", "data_format")}


def _conv_op(op_type, inputs, strides, padding, data_format, dilations, name):
    strides = _get_sequence(strides, "strides")
    dilations = _get_sequence(dilations, "dilations")
    _check_conv_args(padding, data_format, strides, "conv2d")
    dtype = next(t.dtype.base_dtype for t in inputs if t.dtype.base_dtype.is_floating)
    return apply_op(op_type, inputs, {"T": dtype, "strides": strides, "padding": padding,
                                      "dilations": dilations, "data_format": data_format,
                                      "use_cudnn_on_gpu": True},
                    name=name or op_type, output_dtypes=[dtype])


def conv2d(input, filter=None, strides=None, padding=None,  # noqa: A002 -- TF's names
           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1), name=None,
           filters=None):
    """2-D convolution: input [batch, height, width, in_channels], filter [filter_height,
    filter_width, in_channels, out_channels], strides e.g. [1, 1, 1, 1], padding 'SAME' or
    'VALID'. Output: [batch, out_height, out_width, out_channels]."""
    if filters is not None:
        if filter is not None:
            raise ValueError("Cannot specify both 'filters' and 'filter'")
        filter = filters  # noqa: A001
    if filter is None or strides is None or padding is None:
        raise TypeError("conv2d() needs input, filter, strides and padding")
    x = _float_tensor(input, "input", "Conv2D")
    f = convert_to_tensor(filter, dtype=x.dtype.base_dtype)
    return _conv_op("Conv2D", [x, f], strides, padding, data_format or "NHWC", dilations, name)


def conv2d_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa: A002
                          padding, use_cudnn_on_gpu=True, data_format="NHWC",
                          dilations=(1, 1, 1, 1), name=None):
    """The gradient of conv2d with respect to its input (of shape input_sizes)."""
    sizes = convert_to_tensor(input_sizes, dtype=_dtypes.int32) \
        if not isinstance(input_sizes, Tensor) else input_sizes
    dy = convert_to_tensor(out_backprop)
    f = convert_to_tensor(filter, dtype=dy.dtype.base_dtype)
    return _conv_op("Conv2DBackpropInput", [sizes, f, dy], strides, padding, data_format,
                    dilations, name)


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides,  # noqa: A002
                           padding, use_cudnn_on_gpu=True, data_format="NHWC",
                           dilations=(1, 1, 1, 1), name=None):
    """The gradient of conv2d with respect to its filter (of shape filter_sizes)."""
    x = convert_to_tensor(input)
    sizes = convert_to_tensor(filter_sizes, dtype=_dtypes.int32) \
        if not isinstance(filter_sizes, Tensor) else filter_sizes
    dy = convert_to_tensor(out_backprop, dtype=x.dtype.base_dtype)
    return _conv_op("Conv2DBackpropFilter", [x, sizes, dy], strides, padding, data_format,
                    dilations, name)


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NHWC", name=None, input=None,  # noqa: A002
                     filters=None, dilations=None):
    """The transpose of conv2d (sometimes called "deconvolution"): maps value [batch, height,
    width, in_channels] up to output_shape [batch, out_height, out_width, out_channels] with a
    filter [kh, kw, out_channels, in_channels] -- exactly the gradient of a conv2d whose input
    had output_shape (Conv2DBackpropInput), so its own gradients are conv2d and
    conv2d_backprop_filter."""
    value = input if input is not None else value
    filter = filters if filters is not None else filter  # noqa: A001
    if value is None or filter is None or output_shape is None or strides is None:
        raise TypeError("conv2d_transpose() needs value, filter, output_shape and strides")
    with name_scope(name, "conv2d_transpose", [value, filter, output_shape]) as scope:
        x = _float_tensor(value, "value", "Conv2DBackpropInput")
        f = convert_to_tensor(filter, dtype=x.dtype.base_dtype, name="filter")
        if not x.get_shape().with_rank(4)[3].is_compatible_with(f.get_shape().with_rank(4)[3]):
            raise ValueError(f"input channels does not match filter's input channels, "
                             f"{x.get_shape()[3]} != {f.get_shape()[3]}")
        static = None
        if isinstance(output_shape, (list, tuple)):
            if len(output_shape) != 4:
                raise ValueError(f"output_shape must have shape (4,), got ({len(output_shape)},)")
            static = TensorShape([d if isinstance(d, numbers.Integral) else None
                                  for d in output_shape])
            if static[3].value is not None and \
                    not static[3].is_compatible_with(f.get_shape()[2]):
                raise ValueError(f"output_shape does not match filter's output channels, "
                                 f"{static[3]} != {f.get_shape()[2]}")
            if all(isinstance(d, numbers.Integral) for d in output_shape):
                output_shape = [int(d) for d in output_shape]
            else:
                output_shape = array_ops.stack(list(output_shape))
        elif isinstance(output_shape, Tensor) and output_shape.op.type == "Pack":
            static = TensorShape([None if v is None else int(v) for v in
                                  (const_op_value(t) for t in output_shape.op.inputs)])
        out = conv2d_backprop_input(output_shape, f, x, strides, padding, data_format=data_format,
                                    dilations=dilations or (1, 1, 1, 1), name=scope)
        if static is not None:
            out.set_shape(out.get_shape().merge_with(static))
        return out


class _PoolOp(OpDef):
    abstract = True

    def shape(op):
        ksize = op.get_attr("ksize")
        x = op.inputs[0].get_shape().with_rank(4)
        return _spatial_shape(op, x, ksize[1], ksize[2], x[3].value)


def _pool_window(x_shape, ksize, strides, padding):
    if len(x_shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional NHWC, "
                                          f"got shape {shape_text(x_shape)}")
    return _Window(x_shape[1], x_shape[2], ksize[1], ksize[2], strides, padding)


def _lowest(dtype):
    return -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min


class MaxPool(_PoolOp):
    """The maximum of each ksize window (SAME padding never wins: it is -inf)."""

    def kernel(input, ksize, strides, padding, data_format="NHWC", T=None):  # noqa: A002
        win = _pool_window(input.shape, ksize, strides, padding)
        taps = win.taps(win.pad(input, _lowest(input.dtype)))
        out = taps[0].copy()
        for tap in taps[1:]:
            np.maximum(out, tap, out=out)
        return out

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}
        return [apply_op("MaxPoolGrad", [op.inputs[0], op.outputs[0], grad],
                         {"T": grad.dtype.base_dtype, **attrs}, name="MaxPoolGrad")]


class MaxPoolGrad(OpDef):
    """dinput of MaxPool: each window's gradient goes to the (first) position of its max."""

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(orig_input, orig_output, grad, ksize, strides, padding, data_format="NHWC",
               T=None):
        n, _, _, c = orig_input.shape
        win = _pool_window(orig_input.shape, ksize, strides, padding)
        taps = win.taps(win.pad(orig_input, _lowest(orig_input.dtype)))
        taken = np.zeros(orig_output.shape, dtype=bool)    # windows whose max was found

        def tap_grad(i, j):     # called tap by tap, row by row: the first max wins
            hit = taps[i * win.kw + j] == orig_output
            hit &= ~taken
            taken[...] |= hit
            return grad * hit
        return win.add_windows(tap_grad, n, c, grad.dtype)


class AvgPool(_PoolOp):
    """The mean of each ksize window (with SAME padding: the mean of its real entries)."""

    def kernel(value, ksize, strides, padding, data_format="NHWC", T=None):
        win = _pool_window(value.shape, ksize, strides, padding)
        taps = win.taps(win.pad(value))
        sums = taps[0].copy()
        for tap in taps[1:]:
            sums += tap
        return sums / _window_counts(win, value.dtype)

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}
        return [apply_op("AvgPoolGrad", [array_ops.shape(op.inputs[0]), grad],
                         {"T": grad.dtype.base_dtype, **attrs}, name="AvgPoolGrad",
                         output_dtypes=[grad.dtype.base_dtype])]


def _window_counts(win, dtype):
    """How many real (unpadded) entries each window covers: [1, out_h, out_w, 1]."""
    ones = win.pad(np.ones((1, win.h, win.w, 1), dtype=dtype))
    return win.windows(ones).sum(axis=(3, 4))


class AvgPoolGrad(OpDef):
    """dinput of AvgPool: each window's gradient, divided by its size, spread over it."""

    def shape(op):
        return _known_shape(op.inputs[0], 4)

    def kernel(orig_input_shape, grad, ksize, strides, padding, data_format="NHWC", T=None):
        n, h, w, c = (int(d) for d in orig_input_shape)
        win = _Window(h, w, ksize[1], ksize[2], strides, padding)
        share = grad / _window_counts(win, grad.dtype)
        return win.add_windows(lambda i, j: share, n, c, grad.dtype)

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}
        return [None, avg_pool(grad, **attrs)]


def _pool(op_type, value, ksize, strides, padding, data_format, name):
    ksize = _get_sequence(ksize, "ksize")
    strides = _get_sequence(strides, "strides")
    _check_conv_args(padding, data_format or "NHWC", strides, op_type)
    if ksize[0] != 1 or ksize[3] != 1:
        raise ValueError(f"Pooling is supported over height and width only: ksize must be "
                         f"[1, kh, kw, 1], got {ksize}")
    x = _float_tensor(value, "value", op_type) if op_type == "AvgPool" else \
        convert_to_tensor(value, name="input")
    return apply_op(op_type, [x], {"T": x.dtype.base_dtype, "ksize": ksize, "strides": strides,
                                   "padding": padding, "data_format": "NHWC"},
                    name=name or op_type)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002 -- TF's name
    """The maximum over each [1, kh, kw, 1] window of an NHWC tensor, e.g. 2x2 pooling:
    max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')."""
    if input is not None:
        value = input
    return _pool("MaxPool", value, ksize, strides, padding, data_format, name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002 -- TF's name
    """The mean over each [1, kh, kw, 1] window of an NHWC tensor."""
    if input is not None:
        value = input
    return _pool("AvgPool", value, ksize, strides, padding, data_format, name)
