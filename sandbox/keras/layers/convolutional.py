"""Keras convolution layers -- mirrors TensorFlow 1.15's python/keras/layers/convolutional.py
(Conv1D, Conv2D, Conv3D, Conv2DTranspose, Conv3DTranspose, SeparableConv1D, SeparableConv2D,
DepthwiseConv2D) and the 2-D window poolings of pooling.py (MaxPooling2D, AveragePooling2D).

Each is the tf.layers class (sandbox/layers/convolutional.py, pooling.py) with the Keras Layer
mixed in, Keras's defaults (pool_size=(2, 2), strides=pool_size, initializers and activations
by name) and names ('conv2d/kernel:0', 'max_pooling2d'). NHWC ('channels_last') only, as the
sandbox's kernels are. The weights, as TF 1.15 makes them:

    Conv2D(f, (kh, kw))              kernel [kh, kw, in, f]          bias [f]
    Conv3D(f, (kd, kh, kw))          kernel [kd, kh, kw, in, f]      bias [f]
    Conv2DTranspose(f, (kh, kw))     kernel [kh, kw, f, in]          bias [f]
    SeparableConv2D(f, (kh, kw), depth_multiplier=m)
                                     depthwise_kernel [kh, kw, in, m]
                                     pointwise_kernel [1, 1, in * m, f]   bias [f]
    DepthwiseConv2D((kh, kw), depth_multiplier=m)
                                     depthwise_kernel [kh, kw, in, m]     bias [in * m]

The transposed convolutions take Keras's output_padding (how much larger than the smallest
fitting output each spatial axis is, less than its stride); Conv2DTranspose also dilates.
"""
from ...framework.tensor_shape import TensorShape
from ...layers import convolutional as _tf_conv
from ...layers import pooling as _tf_pool
from ...layers.base import InputSpec, normalize_tuple
from ...ops import array_ops, depthwise_conv_ops
from .. import activations, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import Layer

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose",
           "SeparableConv1D", "SeparableConv2D", "DepthwiseConv2D", "MaxPooling2D",
           "AveragePooling2D", "Convolution1D", "Convolution2D", "Convolution3D",
           "Convolution2DTranspose", "Convolution3DTranspose", "SeparableConvolution1D",
           "SeparableConvolution2D", "MaxPool2D", "AvgPool2D"]


class _KerasConv:
    """The Keras arguments of the convolutions (names of initializers, activations and
    regularizers), shared by all of them."""
    _config_keys = ("filters", "kernel_size", "strides", "padding", "data_format",
                    "dilation_rate", "activation", "use_bias", "kernel_initializer",
                    "bias_initializer", "kernel_regularizer", "bias_regularizer",
                    "activity_regularizer", "kernel_constraint", "bias_constraint")

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format or K.image_data_format(),
                         dilation_rate=dilation_rate, activation=activations.get(activation),
                         use_bias=use_bias,
                         kernel_initializer=initializers.get(kernel_initializer),
                         bias_initializer=initializers.get(bias_initializer),
                         kernel_regularizer=regularizers.get(kernel_regularizer),
                         bias_regularizer=regularizers.get(bias_regularizer),
                         activity_regularizer=regularizers.get(activity_regularizer),
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         **kwargs)


class Conv1D(_KerasConv, _tf_conv.Conv1D, Layer):
    """Conv1D(filters, kernel_size, strides=1, padding='valid', activation=None, ...): a
    temporal convolution, [batch, steps, channels] -> [batch, new_steps, filters]."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, **kwargs)


class Conv2D(_KerasConv, _tf_conv.Conv2D, Layer):
    """Conv2D(filters, kernel_size, strides=(1, 1), padding='valid', activation=None, ...)."""


class Conv3D(_KerasConv, _tf_conv.Conv3D, Layer):
    """Conv3D(filters, kernel_size, strides=(1, 1, 1), padding='valid', ...): volumes,
    [batch, depth, rows, cols, channels] -> [batch, new_depth, new_rows, new_cols, filters]."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1, 1), **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, **kwargs)


# -- transposed convolutions -------------------------------------------------------------

def _deconv_extra(kernel, padding, output_padding, stride, dilation):
    """TF's conv_utils.deconv_output_length, which is input * stride + this number."""
    kernel = kernel + (kernel - 1) * (dilation - 1)
    if output_padding is None:
        return max(kernel - stride, 0) if padding == "valid" else 0
    pad = kernel // 2 if padding == "same" else 0
    return kernel - stride - 2 * pad + output_padding


class _KerasTranspose(_KerasConv):
    """The transposed convolutions' Keras part: output_padding (and, in 2-D, dilation_rate,
    which the tf.layers classes do not have), the output shape that they change, and the
    call that builds conv2d_transpose / conv3d_transpose for that shape."""
    _config_keys = _KerasConv._config_keys + ("output_padding",)

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 output_padding=None, data_format=None, dilation_rate=(1, 1), **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format,
                         dilation_rate=dilation_rate if self.rank == 3 else 1, **kwargs)
        self.dilation_rate = normalize_tuple(dilation_rate, self.rank, "dilation_rate")
        self.output_padding = output_padding
        if output_padding is not None:
            self.output_padding = normalize_tuple(output_padding, self.rank, "output_padding")
            for stride, out_pad in zip(self.strides, self.output_padding):
                if out_pad >= stride:
                    raise ValueError(f"Stride {self.strides} must be greater than output "
                                     f"padding {self.output_padding}")

    def _extras(self):
        pads = self.output_padding or (None,) * self.rank
        return [_deconv_extra(self.kernel_size[i], self.padding, pads[i], self.strides[i],
                              self.dilation_rate[i]) for i in range(self.rank)]

    def compute_output_shape(self, input_shape):
        shape = TensorShape(input_shape).with_rank(self.rank + 2).as_list()
        return TensorShape([shape[0]] + [
            None if size is None else size * stride + extra
            for size, stride, extra in zip(shape[1:-1], self.strides, self._extras())] +
            [self.filters])

    def _convolve(self, inputs):
        static = self.compute_output_shape(inputs.get_shape()).as_list()
        dynamic = array_ops.shape(inputs)
        dims = [dynamic[0]] + [
            size if size is not None else dynamic[i + 1] * self.strides[i] + extra
            for i, (size, extra) in enumerate(zip(static[1:-1], self._extras()))]
        dilations = {"dilations": [1, *self.dilation_rate, 1]} if self.rank == 2 else {}
        outputs = self._transpose_op(inputs, self.kernel, array_ops.stack(dims + [self.filters]),
                                     strides=[1, *self.strides, 1],
                                     padding=self.padding.upper(), **dilations)
        outputs.set_shape(static)
        return outputs


class Conv2DTranspose(_KerasTranspose, _tf_conv.Conv2DTranspose, Layer):
    """Conv2DTranspose(filters, kernel_size, strides=(1, 1), padding='valid',
    output_padding=None, dilation_rate=(1, 1), ...): the gradient of a conv2d used as a
    layer; strides=2 with padding='same' doubles the rows and columns."""


class Conv3DTranspose(_KerasTranspose, _tf_conv.Conv3DTranspose, Layer):
    """Conv3DTranspose(filters, kernel_size, strides=(1, 1, 1), padding='valid',
    output_padding=None, ...): the gradient of a conv3d used as a layer (no dilation_rate in
    TF 1.15, nor in its config)."""
    _config_keys = tuple(key for key in _KerasTranspose._config_keys if key != "dilation_rate")

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 output_padding=None, data_format=None, **kwargs):
        kwargs.setdefault("dilation_rate", (1, 1, 1))    # a TF 2 config's; must stay 1
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         output_padding=output_padding, data_format=data_format, **kwargs)


# -- depthwise and separable convolutions ----------------------------------------------------

class _KerasSeparable(_KerasConv):
    """The separable convolutions' Keras arguments. Their config also holds the kernel_*
    entries of a plain convolution, unused, as TF 1.15's does."""
    _config_keys = _KerasConv._config_keys + (
        "depth_multiplier", "depthwise_initializer", "pointwise_initializer",
        "depthwise_regularizer", "pointwise_regularizer", "depthwise_constraint",
        "pointwise_constraint")

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         depth_multiplier=depth_multiplier, activation=activation,
                         use_bias=use_bias,
                         depthwise_initializer=initializers.get(depthwise_initializer),
                         pointwise_initializer=initializers.get(pointwise_initializer),
                         bias_initializer=bias_initializer,
                         depthwise_regularizer=regularizers.get(depthwise_regularizer),
                         pointwise_regularizer=regularizers.get(pointwise_regularizer),
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         depthwise_constraint=depthwise_constraint,
                         pointwise_constraint=pointwise_constraint,
                         bias_constraint=bias_constraint, **kwargs)


class SeparableConv1D(_KerasSeparable, _tf_conv.SeparableConv1D, Layer):
    """SeparableConv1D(filters, kernel_size, strides=1, padding='valid', depth_multiplier=1,
    ...): a depthwise 1-D convolution of each channel, then a pointwise one mixing them."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, **kwargs)


class SeparableConv2D(_KerasSeparable, _tf_conv.SeparableConv2D, Layer):
    """SeparableConv2D(filters, kernel_size, strides=(1, 1), padding='valid',
    depth_multiplier=1, ...): depthwise, then pointwise (1x1) convolution."""


class DepthwiseConv2D(_KerasConv, _tf_conv.Conv2D, Layer):
    """DepthwiseConv2D(kernel_size, strides=(1, 1), padding='valid', depth_multiplier=1, ...):
    each input channel convolved on its own with depth_multiplier filters (the first half of
    a SeparableConv2D), [N, H, W, C] -> [N, out_h, out_w, C * depth_multiplier]. It has no
    `filters`: Conv2D's config without filters and kernel_*, plus the depthwise_* entries."""
    _config_keys = tuple(key for key in _KerasConv._config_keys if key not in (
        "filters", "kernel_initializer", "kernel_regularizer", "kernel_constraint")) + (
        "depth_multiplier", "depthwise_initializer", "depthwise_regularizer",
        "depthwise_constraint")

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1,
                 data_format=None, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        # dilation_rate is Conv2D's, through kwargs (TF 1.15's signature does not name it)
        super().__init__(0, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, activation=activation, use_bias=use_bias,
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         bias_constraint=bias_constraint, **kwargs)
        self.filters = None
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.depthwise_constraint = depthwise_constraint
        self.depthwise_kernel = None

    def build(self, input_shape):
        if TensorShape(input_shape).ndims != 4:
            raise ValueError("Inputs to `DepthwiseConv2D` should have rank 4. Received input "
                             f"shape: {TensorShape(input_shape)}")
        input_dim = self._input_dim(input_shape)
        self.depthwise_kernel = self._weight(
            "depthwise_kernel", list(self.kernel_size) + [input_dim, self.depth_multiplier],
            self.depthwise_initializer, self.depthwise_regularizer, self.depthwise_constraint)
        self.filters = input_dim * self.depth_multiplier       # the bias's length
        self._add_bias()
        self.filters = None
        self.input_spec = InputSpec(ndim=4, axes={-1: input_dim})
        self.built = True

    def _convolve(self, inputs):
        return depthwise_conv_ops.depthwise_conv2d(
            inputs, self.depthwise_kernel, strides=[1, *self.strides, 1],
            padding=self.padding.upper(), rate=self.dilation_rate)

    def compute_output_shape(self, input_shape):
        shape = TensorShape(input_shape).with_rank(4).as_list()
        channels = None if shape[3] is None else shape[3] * self.depth_multiplier
        return TensorShape([shape[0]] + self._spatial(shape, shape[1:3]) + [channels])


# -- the 2-D window poolings (TF 1.15 keeps them importable from here) ----------------------

class _KerasPooling:
    """Keras's pooling arguments: pool_size defaults to 2 along each axis, strides to
    pool_size, data_format to keras.backend.image_data_format()."""
    _config_keys = ("pool_size", "padding", "strides", "data_format")

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(pool_size, strides, padding=padding,
                         data_format=data_format or K.image_data_format(), **kwargs)


class MaxPooling2D(_KerasPooling, _tf_pool.MaxPooling2D, Layer):
    """MaxPooling2D(pool_size=(2, 2), strides=None (= pool_size), padding='valid')."""


class AveragePooling2D(_KerasPooling, _tf_pool.AveragePooling2D, Layer):
    """AveragePooling2D(pool_size=(2, 2), strides=None (= pool_size), padding='valid')."""


Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution3D = Conv3D
Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
