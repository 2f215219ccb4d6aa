"""Depthwise and separable convolution -- tf.nn.depthwise_conv2d, depthwise_conv2d_native and
separable_conv2d, as TensorFlow 1.15's python/ops/nn_impl.py and nn_ops.py define them, computed
as core/kernels/depthwise_conv_op.cc and depthwise_conv_grad_op.cc do.

A depthwise convolution filters each input channel on its own: the filter is
[kh, kw, in_channels, channel_multiplier], and input channel c gives the output channels
c * multiplier .. c * multiplier + multiplier - 1, each the window of channel c alone times its
own kh x kw taps. No sum over channels -- that is what makes it cheap. A *separable*
convolution follows it with a 1x1 (pointwise) conv2d that mixes the channels:

    y = tf.nn.separable_conv2d(x, depthwise_filter,      # [3, 3, in, m]
                               pointwise_filter,         # [1, 1, in * m, out]
                               strides=[1, 1, 1, 1], padding="SAME")

The kernels reuse conv2d's window geometry (conv_ops._Window: the strided view of every
window, and col2im for the gradient of the input), with an einsum per channel instead of
one matrix product over all of them.
"""
import numpy as np

from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import shape_text
from . import array_ops, conv_ops
from .conv_ops import _check_conv_args, _get_sequence, _known_shape, _spatial_shape, _Window
from .nn_ops import _float_tensor

__all__ = []   # reached as tf.nn.* (sandbox/nn.py)


def _window(input_shape, filter_shape, strides, padding, dilations):
    kh, kw = filter_shape[:2]
    return _Window(input_shape[1], input_shape[2], kh, kw, strides, padding, dilations)


class DepthwiseConv2dNative(OpDef):
    """Each input channel convolved with its own [kh, kw, multiplier] filters."""

    def shape(op):
        x, f = op.inputs[0].get_shape().with_rank(4), op.inputs[1].get_shape().with_rank(4)
        if not x[3].is_compatible_with(f[2]):
            raise ValueError(f"Dimensions must be equal, but are {x[3]} and {f[2]}")
        out_c = None if x[3].value is None and f[2].value is None or f[3].value is None \
            else (x[3].value or f[2].value) * f[3].value
        return _spatial_shape(op, x, f[0].value, f[1].value, out_c, op.get_attr("dilations"))

    def kernel(input, filter, strides, padding, dilations=(1, 1, 1, 1),  # noqa: A002
               data_format="NHWC", T=None):
        kh, kw, c, m = filter.shape
        if input.ndim != 4 or input.shape[3] != c:
            raise errors.InvalidArgumentError(
                None, None, f"input depth must match the filter's in_channels: input shape "
                f"{shape_text(input.shape)}, filter shape {shape_text(filter.shape)}")
        win = _window(input.shape, filter.shape, strides, padding, dilations)
        cols = win.windows(win.pad(input))                      # [N, oh, ow, kh, kw, C]
        out = np.einsum("nyxijc,ijcm->nyxcm", cols, filter, optimize=True)
        return out.reshape(input.shape[0], win.oh, win.ow, c * m).astype(input.dtype, copy=False)

    def gradient(op, grad):
        x, f = op.inputs
        attrs = _attrs(op)
        return [depthwise_conv2d_native_backprop_input(array_ops.shape(x), f, grad, **attrs),
                depthwise_conv2d_native_backprop_filter(x, array_ops.shape(f), grad, **attrs)]


class DepthwiseConv2dNativeBackpropInput(OpDef):
    """dinput of DepthwiseConv2dNative: each channel's output gradients times its taps, added
    back onto the windows they came from (col2im)."""

    def shape(op):
        return _known_shape(op.inputs[0], 4)

    def kernel(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
               dilations=(1, 1, 1, 1), data_format="NHWC", T=None):
        n, h, w, c = (int(d) for d in input_sizes)
        kh, kw, _, m = filter.shape
        win = _window((n, h, w, c), filter.shape, strides, padding, dilations)
        dy = out_backprop.reshape(n, win.oh, win.ow, c, m)
        cols = np.einsum("nyxcm,ijcm->nyxijc", dy, filter, optimize=True)
        return win.add_windows(lambda i, j: cols[:, :, :, i, j], n, c, out_backprop.dtype)

    def gradient(op, grad):
        _, f, dy = op.inputs
        attrs = _attrs(op)
        return [None, depthwise_conv2d_native_backprop_filter(grad, array_ops.shape(f), dy,
                                                              **attrs),
                depthwise_conv2d_native(grad, f, **attrs)]


class DepthwiseConv2dNativeBackpropFilter(OpDef):
    """dfilter of DepthwiseConv2dNative: every window of channel c times the output gradients
    of c's output channels, summed over the batch and the positions."""

    def shape(op):
        return _known_shape(op.inputs[1], 4)

    def kernel(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
               dilations=(1, 1, 1, 1), data_format="NHWC", T=None):
        kh, kw, c, m = (int(d) for d in filter_sizes)
        win = _window(input.shape, (kh, kw), strides, padding, dilations)
        cols = win.windows(win.pad(input))
        dy = out_backprop.reshape(input.shape[0], win.oh, win.ow, c, m)
        return np.einsum("nyxijc,nyxcm->ijcm", cols, dy, optimize=True).astype(
            input.dtype, copy=False)

    def gradient(op, grad):
        x, _, dy = op.inputs
        attrs = _attrs(op)
        return [depthwise_conv2d_native_backprop_input(array_ops.shape(x), grad, dy, **attrs),
                None, depthwise_conv2d_native(x, grad, **attrs)]


def _attrs(op):
    return {k: op.get_attr(k) for k in ("strides", "padding", "dilations", "data_format")}


def _depthwise_op(op_type, inputs, strides, padding, data_format, dilations, name):
    strides = _get_sequence(strides, "strides")
    dilations = _get_sequence(dilations, "dilations")
    _check_conv_args(padding, data_format or "NHWC", strides, "depthwise_conv2d")
    if max(dilations[1:3]) > 1 and max(strides[1:3]) > 1:
        raise ValueError(f"strides > 1 not supported in conjunction with dilation_rate > 1 "
                         f"(strides {strides}, dilations {dilations})")
    dtype = next(t.dtype.base_dtype for t in inputs if t.dtype.base_dtype.is_floating)
    return apply_op(op_type, inputs, {"T": dtype, "strides": strides, "padding": padding,
                                      "dilations": dilations, "data_format": "NHWC"},
                    name=name or op_type, output_dtypes=[dtype])


def depthwise_conv2d_native(input, filter, strides, padding,  # noqa: A002 -- TF's names
                            data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The depthwise convolution op itself: input [N, H, W, C], filter [kh, kw, C, m] ->
    [N, out_h, out_w, C * m]; strides and dilations are 4-lists."""
    x = _float_tensor(input, "input", "DepthwiseConv2dNative")
    f = convert_to_tensor(filter, dtype=x.dtype.base_dtype, name="filter")
    return _depthwise_op("DepthwiseConv2dNative", [x, f], strides, padding, data_format,
                         dilations, name)


def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa
                                           padding, data_format="NHWC",
                                           dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d_native with respect to its input."""
    dy = convert_to_tensor(out_backprop)
    sizes = convert_to_tensor(input_sizes, name="input_sizes")
    f = convert_to_tensor(filter, dtype=dy.dtype.base_dtype)
    return _depthwise_op("DepthwiseConv2dNativeBackpropInput", [sizes, f, dy], strides,
                         padding, data_format, dilations, name)


def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop, strides,  # noqa
                                            padding, data_format="NHWC",
                                            dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d_native with respect to its filter."""
    x = convert_to_tensor(input)
    sizes = convert_to_tensor(filter_sizes, name="filter_sizes")
    dy = convert_to_tensor(out_backprop, dtype=x.dtype.base_dtype)
    return _depthwise_op("DepthwiseConv2dNativeBackpropFilter", [x, sizes, dy], strides,
                         padding, data_format, dilations, name)


def _rate(rate, dilations):
    if rate is not None and dilations is not None:
        raise ValueError("Cannot specify both 'rate' and 'dilations'.")
    rate = dilations if dilations is not None else rate
    return (1, 1) if rate is None else tuple(_get_sequence(rate, "rate")[1:3])


def depthwise_conv2d(input, filter, strides, padding, rate=None,  # noqa: A002 -- TF's names
                     name=None, data_format=None, dilations=None):
    """Depthwise 2-D convolution: input [N, H, W, C], filter [kh, kw, C, channel_multiplier],
    strides [1, s, s, 1]; rate (dilations) an int or [rate_h, rate_w] for atrous convolution.
    Output [N, out_h, out_w, C * channel_multiplier]."""
    rate = _rate(rate, dilations)
    with name_scope(name, "depthwise", [input, filter]) as scope:
        x = _float_tensor(input, "input", "DepthwiseConv2dNative")
        f = convert_to_tensor(filter, dtype=x.dtype.base_dtype, name="filter")
        return depthwise_conv2d_native(x, f, strides, padding, data_format=data_format,
                                       dilations=[1, *rate, 1], name=scope)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides,  # noqa: A002
                     padding, rate=None, name=None, data_format=None, dilations=None):
    """A depthwise convolution (depthwise_filter [kh, kw, C, m]) followed by a 1x1 conv2d
    that mixes the C * m channels (pointwise_filter [1, 1, C * m, out_channels])."""
    rate = _rate(rate, dilations)
    with name_scope(name, "separable_conv2d",
                    [input, depthwise_filter, pointwise_filter]) as scope:
        x = _float_tensor(input, "input", "DepthwiseConv2dNative")
        df = convert_to_tensor(depthwise_filter, dtype=x.dtype.base_dtype,
                               name="depthwise_filter")
        pf = convert_to_tensor(pointwise_filter, dtype=x.dtype.base_dtype,
                               name="pointwise_filter")
        d_shape, p_shape = df.get_shape().with_rank(4), pf.get_shape().with_rank(4)
        if not (p_shape[0].is_compatible_with(1) and p_shape[1].is_compatible_with(1)):
            raise ValueError(f"Shape must be [1, 1, in, out] for pointwise_filter, got "
                             f"{p_shape} (a 1x1 convolution).")
        if d_shape[2].value is not None and d_shape[3].value is not None and \
                not p_shape[2].is_compatible_with(d_shape[2].value * d_shape[3].value):
            raise ValueError(f"pointwise_filter's in_channels ({p_shape[2]}) must be the "
                             f"depthwise output's channels, in_channels * channel_multiplier"
                             f" = {d_shape[2].value * d_shape[3].value}.")
        depthwise = depthwise_conv2d_native(x, df, strides, padding, data_format=data_format,
                                            dilations=[1, *rate, 1], name="depthwise")
        return conv_ops.conv2d(depthwise, pf, [1, 1, 1, 1], padding="VALID", name=scope)
