"""Conv2D -- mirrors TensorFlow 1.15's python/layers/convolutional.py (the tf.layers form of
python/keras/layers/convolutional.py).

    h = tf.layers.conv2d(images, filters=32, kernel_size=5, padding='same',
                         activation=tf.nn.relu)     # conv2d/kernel [5, 5, in, 32], conv2d/bias [32]

The kernel has shape kernel_size + [input channels, filters] and starts glorot-uniform, where
each of the kh * kw taps counts towards fan-in and fan-out. The op is tf.nn.conv2d on NHWC
input (sandbox/ops/conv_ops.py), then bias_add and the activation. padding is 'valid' (whole
windows only: the output shrinks by kernel_size - 1) or 'same' (output = ceil(input / stride)).
"""
from ..framework.tensor_shape import TensorShape
from ..ops import conv_ops, init_ops, nn_ops
from ..ops.conv_ops import _out_size
from .base import (InputSpec, Layer, channels_last_only, get_activation,
                   normalize_data_format, normalize_padding, normalize_tuple)

__all__ = ["Conv2D", "conv2d"]


class Conv2D(Layer):
    """2-D convolution layer: outputs = activation(conv2d(inputs, kernel) + bias)."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1), activation=None,
                 use_bias=True, kernel_initializer=None,
                 bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.rank = 2
        self.filters = int(filters)
        self.kernel_size = normalize_tuple(kernel_size, 2, "kernel_size")
        self.strides = normalize_tuple(strides, 2, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self.dilation_rate = normalize_tuple(dilation_rate, 2, "dilation_rate")
        self.activation = get_activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.input_spec = InputSpec(ndim=4)
        self.kernel = self.bias = None

    def build(self, input_shape):
        channels_last_only(self, self.data_format)
        input_shape = TensorShape(input_shape)
        if input_shape[-1].value is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found "
                             "`None`.")
        input_dim = input_shape[-1].value
        self.kernel = self.add_weight("kernel",
                                      shape=list(self.kernel_size) + [input_dim, self.filters],
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, trainable=True,
                                      dtype=self.dtype)
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.filters],
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, trainable=True,
                                        dtype=self.dtype)
        self.input_spec = InputSpec(ndim=4, axes={-1: input_dim})
        self.built = True

    def call(self, inputs):
        outputs = conv_ops.conv2d(inputs, self.kernel, strides=[1, *self.strides, 1],
                                  padding=self.padding.upper(),
                                  dilations=[1, *self.dilation_rate, 1])
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias, data_format="NHWC")
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        dims = [input_shape[0].value]
        for i in (1, 2):
            size = input_shape[i].value
            dims.append(None if size is None else _out_size(
                size, self.kernel_size[i - 1], self.strides[i - 1],
                self.dilation_rate[i - 1], self.padding.upper())[0])
        return TensorShape(dims + [self.filters])


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=init_ops.zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
           reuse=None):
    """The functional form of Conv2D: a new layer, called once on `inputs`."""
    layer = Conv2D(filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,
                   data_format=data_format, dilation_rate=dilation_rate, activation=activation,
                   use_bias=use_bias, kernel_initializer=kernel_initializer,
                   bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                   bias_regularizer=bias_regularizer,
                   activity_regularizer=activity_regularizer,
                   kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                   trainable=trainable, name=name, _reuse=reuse, _scope=name)
    return layer.apply(inputs)

