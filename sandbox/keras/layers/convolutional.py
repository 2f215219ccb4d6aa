"""Keras convolution and pooling layers -- mirrors TensorFlow 1.15's
python/keras/layers/convolutional.py (Conv1D, Conv2D) and pooling.py (MaxPooling2D,
AveragePooling2D).

Each is the tf.layers class (sandbox/layers/convolutional.py, pooling.py) with the Keras Layer
mixed in, Keras's defaults (pool_size=(2, 2), strides=pool_size, initializers and activations
by name) and names ('conv2d/kernel:0', 'max_pooling2d'). NHWC ('channels_last') only, as the
sandbox's kernels are.
"""
from ...layers import convolutional as _tf_conv
from ...layers import pooling as _tf_pool
from .. import activations, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import Layer

__all__ = ["Conv1D", "Conv2D", "MaxPooling2D", "AveragePooling2D", "Convolution1D",
           "Convolution2D", "MaxPool2D", "AvgPool2D"]


class _KerasConv:
    """The Keras arguments of the convolutions (names of initializers, activations and
    regularizers), shared by Conv1D and Conv2D."""
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


class MaxPooling2D(_tf_pool.MaxPooling2D, Layer):
    """MaxPooling2D(pool_size=(2, 2), strides=None (= pool_size), padding='valid')."""
    _config_keys = ("pool_size", "padding", "strides", "data_format")

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(pool_size, strides, padding=padding,
                         data_format=data_format or K.image_data_format(), **kwargs)


class AveragePooling2D(_tf_pool.AveragePooling2D, Layer):
    """AveragePooling2D(pool_size=(2, 2), strides=None (= pool_size), padding='valid')."""
    _config_keys = ("pool_size", "padding", "strides", "data_format")

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(pool_size, strides, padding=padding,
                         data_format=data_format or K.image_data_format(), **kwargs)


Convolution1D = Conv1D
Convolution2D = Conv2D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
