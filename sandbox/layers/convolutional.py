"""Convolution layers -- mirrors TensorFlow 1.15's python/layers/convolutional.py (the tf.layers
forms of python/keras/layers/convolutional.py): Conv1D, Conv2D, Conv3D, Conv2DTranspose,
Conv3DTranspose, SeparableConv1D and SeparableConv2D, each with its functional form.

    h = tf.layers.conv2d(images, filters=32, kernel_size=5, padding='same',
                         activation=tf.nn.relu)     # conv2d/kernel [5, 5, in, 32], conv2d/bias [32]
    h = tf.layers.conv1d(sequence, 16, 3)           # conv1d/kernel [3, in, 16]
    up = tf.layers.conv2d_transpose(h, 8, 3, strides=2, padding='same')   # twice the size
    h = tf.layers.separable_conv2d(images, 32, 3, depth_multiplier=2)
        # separable_conv2d/depthwise_kernel [3, 3, in, 2], /pointwise_kernel [1, 1, 2 * in, 32]

A kernel starts glorot-uniform, where each of the kernel's taps counts towards fan-in and
fan-out. The ops are tf.nn.conv2d on NHWC input (sandbox/ops/conv_ops.py), then bias_add and the
activation. padding is 'valid' (whole windows only: the output shrinks by kernel_size - 1) or
'same' (output = ceil(input / stride)).

The other layers are built from the same op, as TF builds them:

  * Conv1D runs conv2d on [N, 1, W, C]: the input gets a height of 1 (ExpandDims), the kernel a
    leading 1, and the result is squeezed back to [N, out_w, filters].
  * Conv2DTranspose is conv2d_transpose (the gradient of conv2d, used forward), with the kernel
    [kh, kw, filters, in] and an output of input * stride ('same'), plus max(k - stride, 0)
    ('valid').
  * SeparableConv2D is tf.nn.separable_conv2d: a depthwise convolution, each input channel with
    its own depth_multiplier filters (sandbox/ops/depthwise_conv_ops.py), then a 1x1 conv2d
    mixing the channels. SeparableConv1D is the same on a height of 1.
  * Conv3D and Conv3DTranspose are the same on [N, D, H, W, C] volumes, with the 3-D ops of
    sandbox/ops/conv3d_ops.py.
"""
from ..framework.graph import name_scope
from ..framework.tensor_shape import TensorShape
from ..ops import array_ops, conv3d_ops, conv_ops, depthwise_conv_ops, init_ops, nn_ops
from ..ops.conv_ops import _out_size
from .base import (InputSpec, Layer, channels_last_only, get_activation,
                   normalize_data_format, normalize_padding, normalize_tuple)

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose",
           "SeparableConv1D", "SeparableConv2D", "conv1d", "conv2d", "conv3d",
           "conv2d_transpose", "conv3d_transpose", "separable_conv1d", "separable_conv2d"]

_ZEROS = init_ops.zeros_initializer()


class _Conv(Layer):
    """What the convolution layers share: the arguments, the bias and the activation."""
    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, activation=None,
                 use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        rank = self.rank
        self.filters = int(filters)
        self.kernel_size = normalize_tuple(kernel_size, rank, "kernel_size")
        self.strides = normalize_tuple(strides, rank, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self.dilation_rate = normalize_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = get_activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.input_spec = InputSpec(ndim=rank + 2)
        self.kernel = self.bias = None

    def _input_dim(self, input_shape):
        channels_last_only(self, self.data_format)
        input_shape = TensorShape(input_shape)
        if input_shape[-1].value is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found "
                             "`None`.")
        return input_shape[-1].value

    def _weight(self, name, shape, initializer, regularizer, constraint):
        return self.add_weight(name, shape=shape, initializer=initializer,
                               regularizer=regularizer, constraint=constraint, trainable=True,
                               dtype=self.dtype)

    def _add_bias(self):
        if self.use_bias:
            self.bias = self._weight("bias", [self.filters], self.bias_initializer,
                                     self.bias_regularizer, self.bias_constraint)

    def build(self, input_shape):
        input_dim = self._input_dim(input_shape)
        self.kernel = self._weight("kernel", list(self.kernel_size) + [input_dim, self.filters],
                                   self.kernel_initializer, self.kernel_regularizer,
                                   self.kernel_constraint)
        self._add_bias()
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={-1: input_dim})
        self.built = True

    def _finish(self, outputs):
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias, data_format="NHWC")
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def call(self, inputs):
        return self._finish(self._convolve(inputs))

    def _spatial(self, input_shape, sizes):
        """The output's spatial sizes for the input's (None where unknown)."""
        return [None if size is None else _out_size(
            size, self.kernel_size[i], self.strides[i], self.dilation_rate[i],
            self.padding.upper())[0] for i, size in enumerate(sizes)]

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape).as_list()
        return TensorShape([input_shape[0]] + self._spatial(input_shape, input_shape[1:-1]) +
                           [self.filters])


def _as_1d(x, name=None):
    """[N, W, C] as [N, 1, W, C]: the height of 1 that 1-D layers run conv2d / pooling on."""
    return array_ops.expand_dims(x, 1, name=name)


class Conv1D(_Conv):
    """1-D convolution layer (temporal convolution): [N, W, C] -> [N, out_w, filters]."""
    rank = 1

    def _convolve(self, inputs):
        with name_scope(None, "conv1d", [inputs, self.kernel]) as scope:
            x = _as_1d(inputs, "ExpandDims")
            k = array_ops.expand_dims(self.kernel, 0, name="ExpandDims_1")
            y = conv_ops.conv2d(x, k, strides=[1, 1, self.strides[0], 1],
                                padding=self.padding.upper(),
                                dilations=[1, 1, self.dilation_rate[0], 1], name=scope)
            with name_scope(scope):
                return array_ops.squeeze(y, [1], name="Squeeze")


class Conv2D(_Conv):
    """2-D convolution layer: outputs = activation(conv2d(inputs, kernel) + bias)."""
    rank = 2

    def _convolve(self, inputs):
        return conv_ops.conv2d(inputs, self.kernel, strides=[1, *self.strides, 1],
                               padding=self.padding.upper(),
                               dilations=[1, *self.dilation_rate, 1])


def _deconv_length(size, kernel, stride, padding):
    """TF's conv_utils.deconv_output_length without output_padding."""
    size = size * stride
    return size + max(kernel - stride, 0) if padding == "valid" else size


class _Transpose:
    """The arguments of the transposed convolutions: a convolution's, without dilation_rate."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        if kwargs.get("dilation_rate", 1) not in (1, (1,) * self.rank, [1] * self.rank):
            raise ValueError(f"{type(self).__name__}: the sandbox's transposed convolution "
                             f"layers have no dilation_rate (got {kwargs['dilation_rate']}); "
                             "leave it at 1.")
        kwargs.pop("dilation_rate", None)
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         trainable=trainable, name=name, **kwargs)

    def build(self, input_shape):
        ndim = self.rank + 2
        if TensorShape(input_shape).ndims != ndim:
            raise ValueError(self._rank_message.format(ndim, TensorShape(input_shape)))
        input_dim = self._input_dim(input_shape)
        self.kernel = self._weight("kernel", list(self.kernel_size) + [self.filters, input_dim],
                                   self.kernel_initializer, self.kernel_regularizer,
                                   self.kernel_constraint)
        self._add_bias()
        self.input_spec = InputSpec(ndim=ndim, axes={-1: input_dim})
        self.built = True

    def _convolve(self, inputs):
        outputs = self._transpose_op(inputs, self.kernel,
                                     _transpose_shape(self, inputs, self.rank),
                                     strides=[1, *self.strides, 1],
                                     padding=self.padding.upper())
        outputs.set_shape(self.compute_output_shape(inputs.get_shape()))
        return outputs

    def compute_output_shape(self, input_shape):
        return _transpose_static_shape(self, input_shape, self.rank)


class Conv2DTranspose(_Transpose, Conv2D):
    """Transposed 2-D convolution ("deconvolution"): the gradient of a conv2d used as a layer;
    it makes an image larger, e.g. twice the height and width with strides=2, padding='same'.
    The kernel is [kh, kw, filters, in_channels]."""
    _rank_message = "Inputs should have rank {}. Received input shape: {}"   # Keras's words
    _transpose_op = staticmethod(conv_ops.conv2d_transpose)


class Conv3D(_Conv):
    """3-D convolution layer (volumes, video): [N, D, H, W, C] -> [N, od, oh, ow, filters]."""
    rank = 3

    def _convolve(self, inputs):
        return conv3d_ops.conv3d(inputs, self.kernel, strides=[1, *self.strides, 1],
                                 padding=self.padding.upper(),
                                 dilations=[1, *self.dilation_rate, 1])


class Conv3DTranspose(_Transpose, Conv3D):
    """Transposed 3-D convolution: the gradient of a conv3d used as a layer. The kernel is
    [kd, kh, kw, filters, in_channels]."""
    _rank_message = "Inputs should have rank {}, received input shape: {}"   # (sic, Keras)
    _transpose_op = staticmethod(conv3d_ops.conv3d_transpose)


def _transpose_shape(layer, inputs, rank):
    """The output shape of a transposed convolution as a tensor (the batch may be unknown)."""
    shape = array_ops.shape(inputs)
    dims = [shape[0]]
    for i in range(rank):
        size = shape[i + 1] * layer.strides[i]
        extra = max(layer.kernel_size[i] - layer.strides[i], 0)
        dims.append(size + extra if layer.padding == "valid" and extra else size)
    return array_ops.stack(dims + [layer.filters])


def _transpose_static_shape(layer, input_shape, rank):
    shape = TensorShape(input_shape).with_rank(rank + 2).as_list()
    return TensorShape([shape[0]] + [
        None if shape[i + 1] is None else _deconv_length(
            shape[i + 1], layer.kernel_size[i], layer.strides[i], layer.padding)
        for i in range(rank)] + [layer.filters])


class _SeparableConv(_Conv):
    """A depthwise convolution, then a pointwise (1x1) one: the separable layers."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                 activation=None, use_bias=True, depthwise_initializer=None,
                 pointwise_initializer=None, bias_initializer=_ZEROS, depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                 trainable=True, name=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         bias_constraint=bias_constraint, trainable=trainable, name=name,
                         **kwargs)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = depthwise_initializer
        self.pointwise_initializer = pointwise_initializer
        self.depthwise_regularizer = depthwise_regularizer
        self.pointwise_regularizer = pointwise_regularizer
        self.depthwise_constraint = depthwise_constraint
        self.pointwise_constraint = pointwise_constraint
        self.depthwise_kernel = self.pointwise_kernel = None

    def build(self, input_shape):
        input_dim = self._input_dim(input_shape)
        self.depthwise_kernel = self._weight(
            "depthwise_kernel", list(self.kernel_size) + [input_dim, self.depth_multiplier],
            self.depthwise_initializer, self.depthwise_regularizer, self.depthwise_constraint)
        self.pointwise_kernel = self._weight(
            "pointwise_kernel", [1] * self.rank + [input_dim * self.depth_multiplier,
                                                   self.filters],
            self.pointwise_initializer, self.pointwise_regularizer, self.pointwise_constraint)
        self._add_bias()
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={-1: input_dim})
        self.built = True


class SeparableConv1D(_SeparableConv):
    """Depthwise separable 1-D convolution: [N, W, C] -> [N, out_w, filters]."""
    rank = 1

    def _convolve(self, inputs):
        x = _as_1d(inputs)
        depthwise = array_ops.expand_dims(self.depthwise_kernel, 0)
        pointwise = array_ops.expand_dims(self.pointwise_kernel, 0)
        y = depthwise_conv_ops.separable_conv2d(
            x, depthwise, pointwise, strides=[1, self.strides[0], self.strides[0], 1],
            padding=self.padding.upper(), rate=(1, self.dilation_rate[0]))
        return array_ops.squeeze(y, [1])


class SeparableConv2D(_SeparableConv):
    """Depthwise separable 2-D convolution: each input channel filtered on its own
    (depth_multiplier filters each), then a 1x1 convolution mixing the channels."""
    rank = 2

    def _convolve(self, inputs):
        return depthwise_conv_ops.separable_conv2d(
            inputs, self.depthwise_kernel, self.pointwise_kernel,
            strides=[1, *self.strides, 1], padding=self.padding.upper(),
            rate=self.dilation_rate)


# -- the functional forms: a new layer, called once on `inputs` -----------------------------

def _apply(cls, inputs, name, reuse, **kwargs):
    layer = cls(name=name, _reuse=reuse, _scope=name, **kwargs)
    return layer.apply(inputs)


def conv1d(inputs, filters, kernel_size, strides=1, padding="valid",
           data_format="channels_last", dilation_rate=1, activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """The functional form of Conv1D."""
    return _apply(Conv1D, inputs, name, reuse, filters=filters, kernel_size=kernel_size,
                  strides=strides, padding=padding, data_format=data_format,
                  dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                  trainable=trainable)


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """The functional form of Conv2D."""
    return _apply(Conv2D, inputs, name, reuse, filters=filters, kernel_size=kernel_size,
                  strides=strides, padding=padding, data_format=data_format,
                  dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                  trainable=trainable)


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """The functional form of Conv2DTranspose."""
    return _apply(Conv2DTranspose, inputs, name, reuse, filters=filters,
                  kernel_size=kernel_size, strides=strides, padding=padding,
                  data_format=data_format, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                  trainable=trainable)


def conv3d(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1, 1), activation=None,
           use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None, reuse=None):
    """The functional form of Conv3D."""
    return _apply(Conv3D, inputs, name, reuse, filters=filters, kernel_size=kernel_size,
                  strides=strides, padding=padding, data_format=data_format,
                  dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                  trainable=trainable)


def conv3d_transpose(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True,
                     kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """The functional form of Conv3DTranspose."""
    return _apply(Conv3DTranspose, inputs, name, reuse, filters=filters,
                  kernel_size=kernel_size, strides=strides, padding=padding,
                  data_format=data_format, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                  trainable=trainable)


def _separable(cls, inputs, filters, kernel_size, strides, padding, data_format,
               dilation_rate, depth_multiplier, activation, use_bias, depthwise_initializer,
               pointwise_initializer, bias_initializer, depthwise_regularizer,
               pointwise_regularizer, bias_regularizer, activity_regularizer,
               depthwise_constraint, pointwise_constraint, bias_constraint, trainable, name,
               reuse):
    return _apply(cls, inputs, name, reuse, filters=filters, kernel_size=kernel_size,
                  strides=strides, padding=padding, data_format=data_format,
                  dilation_rate=dilation_rate, depth_multiplier=depth_multiplier,
                  activation=activation, use_bias=use_bias,
                  depthwise_initializer=depthwise_initializer,
                  pointwise_initializer=pointwise_initializer,
                  bias_initializer=bias_initializer, depthwise_regularizer=depthwise_regularizer,
                  pointwise_regularizer=pointwise_regularizer,
                  bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                  depthwise_constraint=depthwise_constraint,
                  pointwise_constraint=pointwise_constraint, bias_constraint=bias_constraint,
                  trainable=trainable)


def separable_conv1d(inputs, filters, kernel_size, strides=1, padding="valid",
                     data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=_ZEROS,
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None,
                     depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                     trainable=True, name=None, reuse=None):
    """The functional form of SeparableConv1D."""
    return _separable(SeparableConv1D, inputs, filters, kernel_size, strides, padding,
                      data_format, dilation_rate, depth_multiplier, activation, use_bias,
                      depthwise_initializer, pointwise_initializer, bias_initializer,
                      depthwise_regularizer, pointwise_regularizer, bias_regularizer,
                      activity_regularizer, depthwise_constraint, pointwise_constraint,
                      bias_constraint, trainable, name, reuse)


def separable_conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=_ZEROS,
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None,
                     depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                     trainable=True, name=None, reuse=None):
    """The functional form of SeparableConv2D."""
    return _separable(SeparableConv2D, inputs, filters, kernel_size, strides, padding,
                      data_format, dilation_rate, depth_multiplier, activation, use_bias,
                      depthwise_initializer, pointwise_initializer, bias_initializer,
                      depthwise_regularizer, pointwise_regularizer, bias_regularizer,
                      activity_regularizer, depthwise_constraint, pointwise_constraint,
                      bias_constraint, trainable, name, reuse)
