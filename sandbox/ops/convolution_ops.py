"""conv1d, convolution, max_pool1d / avg_pool1d, max_pool_v2 / avg_pool_v2 -- mirrors the
parts of TensorFlow's python/ops/nn_ops.py that are built from other convolution ops.

TF builds these from the 2-D ops (conv_ops.py here) and the 3-D ones (conv3d_ops.py): a 1-D
input [batch, width, channels] gets a height of 1 (expand_dims), goes through conv2d or the
2-D pooling, and loses the height again (squeeze); the _v2 pools and convolution pick the 1-,
2- or 3-D function by the input's rank. They add no op of their own: their gradients are
those of the ops they are built from.
"""
import numbers

import numpy as np

from ..framework.graph import name_scope
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import array_ops
from .conv3d_ops import avg_pool3d, conv3d, max_pool3d
from .conv_ops import avg_pool, conv2d, max_pool

__all__ = []   # no tf.* names: these are reached as tf.nn.* (sandbox/nn.py)


def _sequence(value, n, channel_index, name):
    """TF's _get_sequence: an int or a 1-, n- or (n + 2)-list as the (n + 2)-list of strides
    (or ksize, dilations) over every axis, 1 on the batch and channel axes."""
    if isinstance(value, Tensor):
        raise TypeError(f"{name} must be a Python int or list of ints, not a Tensor")
    value = [1] if value is None else [value] if isinstance(value, numbers.Integral) \
        else list(value)
    if len(value) == n + 2:
        return [int(v) for v in value]
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: "
                         f"{name}={value} of length {len(value)}")
    value = [int(v) for v in value]
    return [1, 1] + value if channel_index == 1 else [1] + value + [1]


def _channels_first_1d(data_format, what):
    """Whether a 1-D data_format is channels-first ('NCW'); raises unless 'NWC' or 'NCW'."""
    if data_format in (None, "NWC", "NHWC"):
        return False
    if data_format in ("NCW", "NCHW"):
        return True
    raise ValueError(f"{what}: `data_format` must be 'NWC' or 'NCW'. Received: "
                     f"data_format={data_format}")


def _one_of(new, new_name, old, old_name):
    if new is not None and old is not None:
        raise ValueError(f"Cannot specify both '{new_name}' and '{old_name}'.")
    return new if new is not None else old


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None,
           data_format=None, name=None, input=None, dilations=None):  # noqa: A002
    """1-D convolution (TF's nn_ops.conv1d): value [batch, in_width, in_channels] ('NWC'; or
    [batch, in_channels, in_width] with data_format='NCW'), filters [filter_width,
    in_channels, out_channels]; built as TF builds it: expand_dims -> conv2d -> squeeze."""
    value = _one_of(input, "input", value, "value")
    ncw = _channels_first_1d(data_format, "conv1d")
    stride = _sequence(stride, 1, 1 if ncw else 2, "stride")
    dilations = _sequence(dilations, 1, 1 if ncw else 2, "dilations")
    s, d = (stride[2], dilations[2]) if ncw else (stride[1], dilations[1])
    with name_scope(name, "conv1d", [value, filters]) as scope:
        x = convert_to_tensor(value, name="value")
        if ncw:     # the sandbox's conv2d is NHWC only: NCW goes through NWC (TF's CPU too)
            x = array_ops.transpose(x, [0, 2, 1])
        y = conv2d(array_ops.expand_dims(x, -3), array_ops.expand_dims(filters, 0),
                   [1, 1, s, 1], padding, dilations=[1, 1, d, 1], name=scope)
        y = array_ops.squeeze(y, [-3])
        return array_ops.transpose(y, [0, 2, 1]) if ncw else y


def convolution(input, filter=None, padding=None, strides=None,  # noqa: A002 -- TF's names
                dilation_rate=None, name=None, data_format=None, filters=None, dilations=None):
    """N-D convolution (TF's nn_ops.convolution): conv1d, conv2d or conv3d by the rank of the
    filter ([spatial..., in_channels, out_channels]); strides and dilation_rate have one entry
    per spatial axis (or one for all)."""
    filter = _one_of(filters, "filters", filter, "filter")  # noqa: A001
    dilation_rate = _one_of(dilations, "dilations", dilation_rate, "dilation_rate")
    f = filter if isinstance(filter, Tensor) else convert_to_tensor(filter, name="filters")
    x = input if isinstance(input, Tensor) else convert_to_tensor(input, name="input")
    rank = f.get_shape().ndims or x.get_shape().ndims
    if rank is None:
        raise ValueError("convolution: the rank of `input` or `filter` must be known "
                         "statically; give one of them a static shape.")
    n = rank - 2
    if n not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: "
                         f"num_spatial_dims={n}.")
    channel_index = n + 1 if data_format is None or not data_format.startswith("NC") else 1
    dilation_rate = _sequence(dilation_rate, n, channel_index, "dilations")
    strides = _sequence(strides, n, channel_index, "strides")
    spatial = slice(2, None) if channel_index == 1 else slice(1, -1)
    if any(v != 1 for v in dilation_rate) and any(v != 1 for v in strides):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > "
                         f"1`. Received: strides={strides[spatial]} and "
                         f"dilation_rate={dilation_rate[spatial]}")
    with name_scope(name, "convolution", [x, f]) as scope:
        if n == 1:
            return conv1d(x, f, strides, padding, data_format=data_format,
                          dilations=dilation_rate, name=scope)
        if n == 2:
            return conv2d(x, f, strides, padding, data_format=data_format or "NHWC",
                          dilations=dilation_rate, name=scope)
        return conv3d(x, f, strides, padding, data_format=data_format or "NDHWC",
                      dilations=dilation_rate, name=scope)


def _pool1d(pool, default_name, x, ksize, strides, padding, data_format, name):
    """max_pool1d / avg_pool1d: the 2-D pool over [batch, 1, width, channels]."""
    ncw = _channels_first_1d(data_format, default_name)
    k = _sequence(ksize, 1, 1 if ncw else 2, "ksize")
    s = _sequence(strides, 1, 1 if ncw else 2, "strides")
    if ncw:
        k, s = [k[0], k[2], k[1]], [s[0], s[2], s[1]]
    with name_scope(name, default_name, [x]) as scope:
        x = convert_to_tensor(x, name="input")
        if ncw:
            x = array_ops.transpose(x, [0, 2, 1])
        y = array_ops.squeeze(pool(array_ops.expand_dims(x, 1), [1] + k, [1] + s, padding,
                                   name=scope), [1])
        return array_ops.transpose(y, [0, 2, 1]) if ncw else y


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """The maximum over each window of `ksize` along the width of [batch, width, channels]
    (TF's nn_ops.max_pool1d)."""
    return _pool1d(max_pool, "MaxPool1d", input, ksize, strides, padding, data_format, name)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """The mean over each window of `ksize` along the width of [batch, width, channels]
    (TF's nn_ops.avg_pool1d)."""
    return _pool1d(avg_pool, "AvgPool1D", input, ksize, strides, padding, data_format, name)


def _pool_v2(kind, input, ksize, strides, padding, data_format, name):  # noqa: A002
    """max_pool_v2 / avg_pool_v2: the 1-, 2- or 3-D pool, by the rank of input."""
    shape = input.get_shape() if isinstance(input, Tensor) else TensorShape(np.shape(input))
    if shape.ndims is not None:
        n = shape.ndims - 2
    elif data_format is not None:
        n = len(data_format) - 2
    else:
        raise ValueError(f"{kind}_pool_v2: the input's rank must be known statically, or "
                         f"data_format given. Received: input.shape={shape}")
    if not 1 <= n <= 3:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: "
                         f"input.shape={shape} of rank {n + 2}.")
    channel_index = 1 if data_format is not None and data_format.startswith("NC") else n + 1
    ksize = _sequence(ksize, n, channel_index, "ksize")
    strides = _sequence(strides, n, channel_index, "strides")
    if n == 1:
        pool1d = max_pool1d if kind == "max" else avg_pool1d
        return pool1d(input, ksize, strides, padding, data_format=data_format, name=name)
    if n == 2:
        pool2d, default = (max_pool, "MaxPool2d") if kind == "max" else (avg_pool, "AvgPool")
        return pool2d(input, ksize, strides, padding, data_format=data_format or "NHWC",
                      name=name or default)
    pool3d = max_pool3d if kind == "max" else avg_pool3d
    return pool3d(input, ksize, strides, padding, data_format=data_format or "NDHWC",
                  name=name)


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """max_pool1d, max_pool (2-D) or max_pool3d by the rank (3, 4 or 5) of input -- TF 2's
    tf.nn.max_pool (nn_ops.max_pool_v2)."""
    return _pool_v2("max", input, ksize, strides, padding, data_format, name)


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """avg_pool1d, avg_pool (2-D) or avg_pool3d by the rank (3, 4 or 5) of input -- TF 2's
    tf.nn.avg_pool (nn_ops.avg_pool_v2)."""
    return _pool_v2("avg", input, ksize, strides, padding, data_format, name)
