"""conv1d, convolution, max_pool1d / avg_pool1d, max_pool_v2 / avg_pool_v2, atrous_conv2d,
conv1d_transpose, conv_transpose, atrous_conv2d_transpose, pool, with_space_to_batch --
mirrors the parts of TensorFlow's python/ops/nn_ops.py that are built from other convolution
ops.

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
from . import array_ops, slicing_ops
from .conv3d_ops import avg_pool3d, conv3d, conv3d_transpose, max_pool3d
from .conv_ops import avg_pool, conv2d, conv2d_transpose, max_pool

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


def atrous_conv2d(value, filters, rate, padding, name=None):
    """2-D convolution with holes (TF's nn_ops.atrous_conv2d): conv2d of value [batch, height,
    width, in_channels] with filters [kh, kw, in_channels, out_channels] dilated by `rate` on
    both spatial axes, stride 1. (TF builds it with SpaceToBatchND -> Conv2D ->
    BatchToSpaceND; the sandbox's conv2d takes the dilations.)"""
    if not isinstance(rate, numbers.Integral) or rate < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return convolution(value, filters, padding, dilation_rate=[rate, rate],
                       name=name or "convolution")


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None):
    """The transpose of conv1d (TF's nn_ops.conv1d_transpose): input [batch, width,
    in_channels] to output_shape [batch, out_width, out_channels] with filters [filter_width,
    out_channels, in_channels]; built as TF builds it: expand_dims -> conv2d_transpose
    (Conv2DBackpropInput) -> squeeze."""
    ncw = _channels_first_1d(data_format, "conv1d_transpose")
    strides = _sequence(strides, 1, 1 if ncw else 2, "strides")
    dilations = _sequence(dilations, 1, 1 if ncw else 2, "dilations")
    s, d = (strides[2], dilations[2]) if ncw else (strides[1], dilations[1])
    with name_scope(name, "conv1d_transpose", [input, filters, output_shape]) as scope:
        x = convert_to_tensor(input, name="input")
        if isinstance(output_shape, Tensor):
            shape = slicing_ops.concat([output_shape[:1], [1], output_shape[1:]], 0)
        else:
            shape = [output_shape[0], 1] + list(output_shape[1:])
        if ncw:
            x = array_ops.transpose(x, [0, 2, 1])
            if not isinstance(shape, list):
                raise ValueError("conv1d_transpose: data_format='NCW' needs a list output_shape")
            shape = [shape[0], 1, shape[3], shape[2]]
        y = conv2d_transpose(array_ops.expand_dims(x, 1), array_ops.expand_dims(filters, 0),
                             shape, [1, 1, s, 1], padding, dilations=[1, 1, d, 1], name=scope)
        y = array_ops.squeeze(y, [1])
        return array_ops.transpose(y, [0, 2, 1]) if ncw else y


def conv_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                   data_format=None, dilations=None, name=None):
    """conv1d_transpose, conv2d_transpose or conv3d_transpose, picked (as TF's
    nn_ops.conv_transpose) by the length of output_shape: 3, 4 or 5 (a list, or a 1-D tensor
    of static length)."""
    with name_scope(name, "conv_transpose", [input, filters, output_shape]) as scope:
        if isinstance(output_shape, Tensor):
            n = output_shape.get_shape()[0].value
            n = None if n is None else n - 2
        elif hasattr(output_shape, "__len__"):
            n = len(output_shape) - 2
        else:
            raise ValueError("output_shape must be a tensor or sized collection.")
        if n is None or not 1 <= n <= 3:
            raise ValueError(f"output_shape must be of length 3, 4 or 5 but was "
                             f"{None if n is None else n + 2}.")
        if n == 1:
            return conv1d_transpose(input, filters, output_shape, strides, padding,
                                    data_format=data_format or "NWC", dilations=dilations,
                                    name=scope)
        channel_index = 1 if data_format in ("NCHW", "NCDHW") else n + 1
        if n == 2:
            return conv2d_transpose(input, filters, output_shape,
                                    _sequence(strides, 2, channel_index, "strides"), padding,
                                    data_format=data_format or "NHWC",
                                    dilations=_sequence(dilations, 2, channel_index,
                                                        "dilations"), name=scope)
        if set(_sequence(dilations, 3, channel_index, "dilations")) != {1}:
            raise NotImplementedError("conv_transpose: the sandbox's conv3d_transpose takes "
                                      "dilations of 1 only")
        return conv3d_transpose(input, filters, output_shape,
                                _sequence(strides, 3, channel_index, "strides"),
                                padding, data_format=data_format or "NDHWC", name=scope)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of atrous_conv2d (TF's nn_ops.atrous_conv2d_transpose): value [batch,
    height, width, in_channels] up to output_shape [batch, out_height, out_width,
    out_channels] with filters [kh, kw, out_channels, in_channels] dilated by `rate` -- the
    gradient of atrous_conv2d. (TF builds it with SpaceToBatch -> Conv2DBackpropInput ->
    BatchToSpace; the sandbox's conv2d_transpose takes the dilations, same numbers.)"""
    with name_scope(name, "atrous_conv2d_transpose", [value, filters, output_shape]) as scope:
        value = convert_to_tensor(value, name="value")
        filters = convert_to_tensor(filters, name="filters")
        if not value.get_shape().with_rank(4)[3].is_compatible_with(
                filters.get_shape().with_rank(4)[3]):
            raise ValueError(f"value's input channels does not match filters' input channels, "
                             f"{value.get_shape()[3]} != {filters.get_shape()[3]}")
        if rate < 1:
            raise ValueError(f"rate {rate} cannot be less than one")
        if padding not in ("SAME", "VALID"):
            raise ValueError(f"padding must be either VALID or SAME: {padding}")
        return conv2d_transpose(value, filters, output_shape, [1, 1, 1, 1], padding,
                                dilations=[1, rate, rate, 1], name=scope)


def pool(input, window_shape, pooling_type, padding, dilation_rate=None,  # noqa: A002
         strides=None, name=None, data_format=None, dilations=None):
    """N-D pooling (TF's nn_ops.pool): the 'MAX' or 'AVG' pool of `window_shape` (one entry
    per spatial axis) over a 3-, 4- or 5-D input; strides default to 1. Only dilation 1 is
    supported here."""
    dilation_rate = _one_of(dilations, "dilations", dilation_rate, "dilation_rate")
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"Invalid pooling_type: {pooling_type}")
    n = len(window_shape)
    if n not in (1, 2, 3):
        raise ValueError(f"It is required that 1 <= num_spatial_dims <= 3, got {n}.")
    rates = [1] * n if dilation_rate is None else \
        [dilation_rate] * n if isinstance(dilation_rate, numbers.Integral) else list(dilation_rate)
    if any(r != 1 for r in rates):
        raise NotImplementedError("pool: the sandbox supports dilation_rate 1 only")
    strides = [1] * n if strides is None else strides
    fn = max_pool_v2 if pooling_type == "MAX" else avg_pool_v2
    with name_scope(name, f"{pooling_type.lower()}_pool", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        return fn(x, list(window_shape), list(strides), padding, data_format=data_format,
                  name=scope)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,  # noqa: A002
                        spatial_dims=None, data_format=None):
    """op(converted_input, num_spatial_dims, padding) on the space_to_batch_nd of input by
    dilation_rate, with batch_to_space_nd of the result (TF's nn_ops.with_space_to_batch):
    runs an undilated op as a dilated one. Here the input's spatial shape and dilation_rate
    must be known statically, and the spatial dims are the ones after the batch dim."""
    from .space_ops import batch_to_space_nd, space_to_batch_nd
    rate = np.asarray(dilation_rate, dtype=np.int64).reshape(-1)
    n = rate.size
    if spatial_dims is not None and list(spatial_dims) != list(range(1, n + 1)):
        raise NotImplementedError("with_space_to_batch: the sandbox supports spatial_dims "
                                  "1..N (channels-last) only")
    if data_format is not None and data_format.startswith("NC"):
        raise NotImplementedError("with_space_to_batch: the sandbox supports channels-last "
                                  "data_format only")
    if (rate < 1).any():
        raise ValueError(f"dilation_rate must be positive. Received: {dilation_rate}")
    x = convert_to_tensor(input, name="input")
    if (rate == 1).all():
        return op(x, n, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("filter_shape must be specified for SAME padding")
        k = np.asarray(filter_shape, dtype=np.int64).reshape(-1)
        extra = (k + (k - 1) * (rate - 1)) - 1
        base = np.stack([extra // 2, extra - extra // 2], axis=1)
    elif padding == "VALID":
        base = np.zeros([n, 2], np.int64)
    else:
        raise ValueError(f"Invalid padding method {padding!r}")
    shape = x.get_shape()
    spatial = [None] if shape.ndims is None else shape.as_list()[1:n + 1]
    if len(spatial) != n or any(d is None for d in spatial):
        raise ValueError("with_space_to_batch: the sandbox needs the input's spatial shape "
                         f"statically. Received: input.shape={x.get_shape()}")
    full = np.asarray(spatial) + base.sum(axis=1)
    pad_more = (rate - full % rate) % rate
    paddings = base + np.stack([np.zeros_like(pad_more), pad_more], axis=1)
    crops = np.stack([np.zeros_like(pad_more), pad_more], axis=1)
    block = rate.astype(np.int32).tolist()
    converted = space_to_batch_nd(x, block, paddings.astype(np.int32).tolist())
    result = op(converted, n, "VALID")
    return batch_to_space_nd(result, block, crops.astype(np.int32).tolist())
