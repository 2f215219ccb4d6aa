"""The TF-1 names of the convolution gradient ops -- tf.nn.depthwise_conv2d_backprop_input,
depthwise_conv2d_backprop_filter, conv3d_backprop_filter and conv3d_backprop_filter_v2, as
TensorFlow 1.15's python/ops/nn_ops.py exports them (the generated wrappers of
core/ops/nn_ops.cc's DepthwiseConv2dNativeBackpropInput/Filter and Conv3DBackpropFilterV2).

They are the ops that tf.gradients builds for depthwise_conv2d and conv3d, callable by hand:

    dx = tf.nn.depthwise_conv2d_backprop_input(tf.shape(x), f, dy, [1, 1, 1, 1], "SAME")
    df = tf.nn.conv3d_backprop_filter_v2(x, [2, 2, 2, 3, 4], dy, [1, 1, 1, 1, 1], "VALID")

The kernels are those of sandbox/ops/depthwise_conv_ops.py and conv3d_ops.py; this module only
gives them TF-1's public names. As in TF 1.15, depthwise_conv2d_backprop_input *is*
depthwise_conv2d_native_backprop_input, and conv3d_backprop_filter *is*
conv3d_backprop_filter_v2 (the old Conv3DBackpropFilter op, which took the filter itself, is
not built by TF 1.15's Python API either).
"""
from ..framework.tensor import convert_to_tensor
from .conv3d_ops import _conv3d_op
from .depthwise_conv_ops import (depthwise_conv2d_native_backprop_filter,
                                 depthwise_conv2d_native_backprop_input)

__all__ = []   # reached as tf.nn.* (sandbox/nn.py)

depthwise_conv2d_backprop_input = depthwise_conv2d_native_backprop_input
depthwise_conv2d_backprop_filter = depthwise_conv2d_native_backprop_filter


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                              data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
    """The gradient of conv3d with respect to its filter: input [N, D, H, W, C],
    filter_sizes the 5 ints [kd, kh, kw, in_channels, out_channels], out_backprop the
    gradient of conv3d's output."""
    x = convert_to_tensor(input, name="input")
    sizes = convert_to_tensor(filter_sizes, name="filter_sizes")
    dy = convert_to_tensor(out_backprop, dtype=x.dtype.base_dtype, name="out_backprop")
    return _conv3d_op("Conv3DBackpropFilterV2", [x, sizes, dy], strides, padding,
                      list(dilations), data_format, name)


conv3d_backprop_filter = conv3d_backprop_filter_v2
