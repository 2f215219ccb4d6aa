"""3-D convolution and pooling -- conv3d (and its transpose), max_pool3d and avg_pool3d, as
TensorFlow's python/ops/nn_ops.py defines them, computed as its kernels do
(core/kernels/conv_ops_3d.cc, conv_grad_ops_3d.cc, pooling_ops_3d.cc).

They are conv2d and its pooling (sandbox/ops/conv_ops.py) with one more spatial axis: input
[batch, depth, height, width, channels] (NDHWC), filter [kd, kh, kw, in_channels,
out_channels], strides and ksize 5-lists [1, sd, sh, sw, 1]. Used for video and volumes:

    y = tf.nn.conv3d(clips, filter, strides=[1, 1, 2, 2, 1], padding="SAME")

The same im2col trick as conv_ops.py: a strided view lists every window, shape
[N, od, oh, ow, kd, kh, kw, C]; one matrix product computes every output; the gradients add
each tap's share back (col2im), a loop over the kd * kh * kw taps.
"""
import itertools

import numpy as np

from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import shape_text
from . import array_ops
from .conv_ops import _known_shape, _lowest, _out_size
from .nn_ops import _float_tensor

__all__ = []   # reached as tf.nn.* (see the report of issue 27: sandbox/nn.py)


class _Window3D:
    """The geometry of a kd x kh x kw window sliding over NDHWC input of `sizes` (d, h, w)."""

    def __init__(self, sizes, ksize, strides, padding, dilations=(1, 1, 1, 1, 1)):
        self.sizes, self.k = tuple(sizes), tuple(ksize)
        self.s, self.d = tuple(strides[1:4]), tuple(dilations[1:4])
        try:
            geometry = [_out_size(n, k, s, d, padding)
                        for n, k, s, d in zip(self.sizes, self.k, self.s, self.d)]
        except ValueError as e:
            raise errors.InvalidArgumentError(None, None, str(e)) from None
        self.out = tuple(g[0] for g in geometry)
        self.pads = ((0, 0),) + tuple((g[1], g[2]) for g in geometry) + ((0, 0),)

    def pad(self, x, value=0):
        return np.pad(x, self.pads, constant_values=value) if any(map(any, self.pads)) else x

    def windows(self, xp):
        """View of padded input as [N, od, oh, ow, kd, kh, kw, C] (no copy)."""
        st = xp.strides
        return np.lib.stride_tricks.as_strided(
            xp, (xp.shape[0], *self.out, *self.k, xp.shape[4]),
            (st[0], *(st[i + 1] * self.s[i] for i in range(3)),
             *(st[i + 1] * self.d[i] for i in range(3)), st[4]), writeable=False)

    def taps(self):
        return list(itertools.product(*(range(k) for k in self.k)))

    def tap(self, t):
        """The padded positions that filter tap t = (i, j, l) reads, one per output."""
        return (slice(None),) + tuple(
            slice(t[a] * self.d[a], t[a] * self.d[a] + self.s[a] * (self.out[a] - 1) + 1,
                  self.s[a]) for a in range(3))

    def add_windows(self, tap_values, n, c, dtype):
        """col2im: sums tap_values(t) -> [N, od, oh, ow, C] onto the input positions of each
        tap; returns the unpadded [N, d, h, w, C]."""
        padded = [n] + [size + p[0] + p[1] for size, p in zip(self.sizes, self.pads[1:4])]
        out = np.zeros(padded + [c], dtype=dtype)
        for t in self.taps():
            out[self.tap(t)] += tap_values(t)
        return out[(slice(None),) + tuple(slice(p[0], p[0] + size)
                                          for size, p in zip(self.sizes, self.pads[1:4]))]


def _get_sequence(value, name):
    """strides / dilations / ksize as a 5-list: an int or a 1-, 3- or 5-list, as TF allows."""
    if isinstance(value, Tensor):
        raise TypeError(f"{name} must be a Python int or list of ints, not a Tensor")
    value = [value] if isinstance(value, (int, np.integer)) else list(value)
    if len(value) == 1:
        value = value * 3
    if len(value) == 3:
        value = [1] + value + [1]
    if len(value) != 5:
        raise ValueError(f"{name} should be of length 1, 3 or 5 but was {len(value)}")
    return [int(v) for v in value]


def _spatial_shape(op, x, k, out_c, dilations=(1, 1, 1, 1, 1)):
    x = x.with_rank(5)
    strides, padding = op.get_attr("strides"), op.get_attr("padding")
    dims = [x[0].value]
    for a in range(3):
        size = x[a + 1].value
        dims.append(None if size is None or k[a] is None else
                    _out_size(size, k[a], strides[a + 1], dilations[a + 1], padding)[0])
    return TensorShape(dims + [out_c])


class Conv3D(OpDef):
    """3-D convolution of NDHWC input with a [kd, kh, kw, in_channels, out_channels] filter."""

    def shape(op):
        x, f = op.inputs[0].get_shape().with_rank(5), op.inputs[1].get_shape().with_rank(5)
        if not x[4].is_compatible_with(f[3]):
            raise ValueError(f"Dimensions must be equal, but are {x[4]} and {f[3]}")
        return _spatial_shape(op, x, [f[i].value for i in range(3)], f[4].value,
                              op.get_attr("dilations"))

    def kernel(input, filter, strides, padding, dilations=(1, 1, 1, 1, 1),  # noqa: A002
               data_format="NDHWC", T=None):
        if input.ndim != 5 or input.shape[4] != filter.shape[3]:
            raise errors.InvalidArgumentError(
                None, None, f"input depth must match the filter's in_channels: input shape "
                f"{shape_text(input.shape)}, filter shape {shape_text(filter.shape)}")
        o = filter.shape[4]
        win = _Window3D(input.shape[1:4], filter.shape[:3], strides, padding, dilations)
        cols = win.windows(win.pad(input)).reshape(-1, filter[..., 0].size)
        return (cols @ filter.reshape(-1, o)).reshape(input.shape[0], *win.out, o)

    def gradient(op, grad):
        x, f = op.inputs
        attrs = _attrs(op)
        return [_conv3d_op("Conv3DBackpropInputV2", [array_ops.shape(x), f, grad], **attrs),
                _conv3d_op("Conv3DBackpropFilterV2", [x, array_ops.shape(f), grad], **attrs)]


class Conv3DBackpropInputV2(OpDef):
    """dinput of Conv3D (and conv3d_transpose): col2im of the output gradient times the
    filter."""

    def shape(op):
        return _known_shape(op.inputs[0], 5)

    def kernel(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
               dilations=(1, 1, 1, 1, 1), data_format="NDHWC", T=None, Tshape=None):
        n, d, h, w, c = (int(v) for v in input_sizes)
        o = filter.shape[4]
        win = _Window3D((d, h, w), filter.shape[:3], strides, padding, dilations)
        cols = (out_backprop.reshape(-1, o) @ filter.reshape(-1, o).T).reshape(
            n, *win.out, *filter.shape[:3], c)
        return win.add_windows(lambda t: cols[(slice(None),) * 4 + t], n, c,
                               out_backprop.dtype)

    def gradient(op, grad):
        _, f, dy = op.inputs
        attrs = _attrs(op)
        return [None, _conv3d_op("Conv3DBackpropFilterV2", [grad, array_ops.shape(f), dy],
                                 **attrs),
                _conv3d_op("Conv3D", [grad, f], **attrs)]


class Conv3DBackpropFilterV2(OpDef):
    """dfilter of Conv3D: every input window times its output gradient, summed."""

    def shape(op):
        return _known_shape(op.inputs[1], 5)

    def kernel(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
               dilations=(1, 1, 1, 1, 1), data_format="NDHWC", T=None):
        kd, kh, kw, c, o = (int(v) for v in filter_sizes)
        win = _Window3D(input.shape[1:4], (kd, kh, kw), strides, padding, dilations)
        cols = win.windows(win.pad(input)).reshape(-1, kd * kh * kw * c)
        return (cols.T @ out_backprop.reshape(-1, o)).reshape(kd, kh, kw, c, o)

    def gradient(op, grad):
        x, _, dy = op.inputs
        attrs = _attrs(op)
        return [_conv3d_op("Conv3DBackpropInputV2", [array_ops.shape(x), grad, dy], **attrs),
                None, _conv3d_op("Conv3D", [x, grad], **attrs)]


def _attrs(op):
    return {k: op.get_attr(k) for k in ("strides", "padding", "dilations", "data_format")}


def _conv3d_op(op_type, inputs, strides, padding, dilations=(1, 1, 1, 1, 1),
               data_format="NDHWC", name=None):
    strides = _get_sequence(strides, "strides")
    dilations = _get_sequence(dilations, "dilations")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    if data_format != "NDHWC":
        raise ValueError(f"The sandbox's conv3d supports data_format='NDHWC' only (as "
                         f"TensorFlow's CPU kernels), got {data_format!r}")
    if strides[0] != 1 or strides[4] != 1:
        raise ValueError(f"Current implementation does not yet support strides in the batch "
                         f"and depth dimensions (strides={strides}).")
    dtype = next(t.dtype.base_dtype for t in inputs if t.dtype.base_dtype.is_floating)
    return apply_op(op_type, inputs, {"T": dtype, "strides": strides, "padding": padding,
                                      "dilations": dilations, "data_format": data_format},
                    name=name or op_type, output_dtypes=[dtype])


def conv3d(input, filter=None, strides=None, padding=None,  # noqa: A002 -- TF's names
           data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None, filters=None):
    """3-D convolution: input [batch, depth, height, width, in_channels], filter [kd, kh, kw,
    in_channels, out_channels], strides a 5-list such as [1, 1, 1, 1, 1]."""
    filter = filters if filters is not None else filter  # noqa: A001
    if filter is None or strides is None or padding is None:
        raise TypeError("conv3d() needs input, filter, strides and padding")
    x = _float_tensor(input, "input", "Conv3D")
    f = convert_to_tensor(filter, dtype=x.dtype.base_dtype)
    return _conv3d_op("Conv3D", [x, f], strides, padding, dilations, data_format, name)


def conv3d_transpose(value, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NDHWC", name=None, filters=None):
    """The transpose of conv3d: value [N, d, h, w, in_channels] up to output_shape with a
    filter [kd, kh, kw, out_channels, in_channels] -- the gradient of conv3d."""
    filter = filters if filters is not None else filter  # noqa: A001
    with name_scope(name, "conv3d_transpose", [value, filter, output_shape]) as scope:
        x = _float_tensor(value, "value", "Conv3DBackpropInputV2")
        f = convert_to_tensor(filter, dtype=x.dtype.base_dtype, name="filter")
        if not x.get_shape().with_rank(5)[4].is_compatible_with(f.get_shape().with_rank(5)[4]):
            raise ValueError(f"input channels does not match filter's input channels, "
                             f"{x.get_shape()[4]} != {f.get_shape()[4]}")
        if isinstance(output_shape, (list, tuple)) and \
                not all(isinstance(d, (int, np.integer)) for d in output_shape):
            output_shape = array_ops.stack(list(output_shape))
        return _conv3d_op("Conv3DBackpropInputV2", [convert_to_tensor(output_shape), f, x],
                          strides, padding, data_format=data_format, name=scope)


# -- pooling ------------------------------------------------------------------------------

class _Pool3D(OpDef):
    abstract = True

    def shape(op):
        ksize = op.get_attr("ksize")
        x = op.inputs[0].get_shape().with_rank(5)
        return _spatial_shape(op, x, ksize[1:4], x[4].value)


def _pool_window(shape, ksize, strides, padding):
    if len(shape) != 5:
        raise errors.InvalidArgumentError(None, None, f"input must be 5-dimensional NDHWC, "
                                          f"got shape {shape_text(shape)}")
    return _Window3D(shape[1:4], ksize[1:4], strides, padding)


class MaxPool3D(_Pool3D):
    """The maximum of each ksize window (SAME padding never wins: it is -inf)."""

    def kernel(input, ksize, strides, padding, data_format="NDHWC", T=None):  # noqa: A002
        win = _pool_window(input.shape, ksize, strides, padding)
        xp = win.pad(input, _lowest(input.dtype))
        taps = win.taps()
        out = xp[win.tap(taps[0])].copy()
        for t in taps[1:]:
            np.maximum(out, xp[win.tap(t)], out=out)
        return out

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}
        return [apply_op("MaxPool3DGrad", [op.inputs[0], op.outputs[0], grad],
                         {"T": grad.dtype.base_dtype, "TInput": grad.dtype.base_dtype,
                          **attrs}, name="MaxPool3DGrad")]


class MaxPool3DGrad(OpDef):
    """dinput of MaxPool3D: each window's gradient goes to the (first) position of its max.
    (No gradient of its own here: TF's MaxPool3DGradGrad is not implemented.)"""

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(orig_input, orig_output, grad, ksize, strides, padding, data_format="NDHWC",
               T=None, TInput=None):
        n, c = orig_input.shape[0], orig_input.shape[4]
        win = _pool_window(orig_input.shape, ksize, strides, padding)
        xp = win.pad(orig_input, _lowest(orig_input.dtype))
        taken = np.zeros(orig_output.shape, dtype=bool)

        def tap_grad(t):                 # taps in order: the first max wins
            hit = xp[win.tap(t)] == orig_output
            hit &= ~taken
            taken[...] |= hit
            return grad * hit
        return win.add_windows(tap_grad, n, c, grad.dtype)


def _window_counts(win, dtype):
    ones = win.pad(np.ones((1, *win.sizes, 1), dtype=dtype))
    return win.windows(ones).sum(axis=(4, 5, 6))


class AvgPool3D(_Pool3D):
    """The mean of each ksize window (with SAME padding: the mean of its real entries)."""

    def kernel(input, ksize, strides, padding, data_format="NDHWC", T=None):  # noqa: A002
        win = _pool_window(input.shape, ksize, strides, padding)
        xp = win.pad(input)
        taps = win.taps()
        sums = xp[win.tap(taps[0])].copy()
        for t in taps[1:]:
            sums += xp[win.tap(t)]
        return sums / _window_counts(win, input.dtype)

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}
        return [apply_op("AvgPool3DGrad", [array_ops.shape(op.inputs[0]), grad],
                         {"T": grad.dtype.base_dtype, **attrs}, name="AvgPool3DGrad",
                         output_dtypes=[grad.dtype.base_dtype])]


class AvgPool3DGrad(OpDef):
    """dinput of AvgPool3D: each window's gradient, divided by its size, spread over it."""

    def shape(op):
        return _known_shape(op.inputs[0], 5)

    def kernel(orig_input_shape, grad, ksize, strides, padding, data_format="NDHWC", T=None):
        n, d, h, w, c = (int(v) for v in orig_input_shape)
        win = _Window3D((d, h, w), ksize[1:4], strides, padding)
        share = grad / _window_counts(win, grad.dtype)
        return win.add_windows(lambda t: share, n, c, grad.dtype)

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}
        return [None, _pool3d("AvgPool3D", grad, **attrs)]


def _pool3d(op_type, value, ksize, strides, padding, data_format="NDHWC", name=None):
    ksize = _get_sequence(ksize, "ksize")
    strides = _get_sequence(strides, "strides")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    if (data_format or "NDHWC") != "NDHWC":
        raise ValueError(f"The sandbox's {op_type} supports data_format='NDHWC' only, got "
                         f"{data_format!r}")
    if ksize[0] != 1 or ksize[4] != 1:
        raise ValueError(f"Pooling is supported over depth, height and width only: ksize must "
                         f"be [1, kd, kh, kw, 1], got {ksize}")
    x = _float_tensor(value, "input", op_type)
    return apply_op(op_type, [x], {"T": x.dtype.base_dtype, "ksize": ksize, "strides": strides,
                                   "padding": padding, "data_format": "NDHWC"},
                    name=name or op_type)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """The maximum over each [1, kd, kh, kw, 1] window of an NDHWC tensor."""
    return _pool3d("MaxPool3D", input, ksize, strides, padding, data_format, name)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """The mean over each [1, kd, kh, kw, 1] window of an NDHWC tensor."""
    return _pool3d("AvgPool3D", input, ksize, strides, padding, data_format, name)
