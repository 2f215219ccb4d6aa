"""MaxPooling2D and AveragePooling2D -- mirrors TensorFlow 1.15's python/layers/pooling.py (the
tf.layers forms of python/keras/layers/pooling.py).

    h = tf.layers.max_pooling2d(h, pool_size=2, strides=2)   # [N, 28, 28, C] -> [N, 14, 14, C]

A pooling layer has no variables: it is tf.nn.max_pool / tf.nn.avg_pool over pool_size
windows moved by `strides` (which TF 1.15's tf.layers require: there is no default), with
'valid' or 'same' padding. Average pooling with 'same' padding divides each window by the
number of real (unpadded) entries in it, as TF's kernel does.
"""
from ..framework.tensor_shape import TensorShape
from ..ops import conv_ops
from ..ops.conv_ops import _out_size
from .base import (InputSpec, Layer, channels_last_only, normalize_data_format,
                   normalize_padding, normalize_tuple)

__all__ = ["MaxPooling2D", "AveragePooling2D", "max_pooling2d", "average_pooling2d"]


class _Pooling2D(Layer):
    """The shared part of the 2-D pooling layers."""
    _pool_function = None

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last",
                 name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if strides is None:
            strides = pool_size
        self.pool_size = normalize_tuple(pool_size, 2, "pool_size")
        self.strides = normalize_tuple(strides, 2, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def build(self, input_shape):
        channels_last_only(self, self.data_format)
        self.built = True

    def call(self, inputs):
        return type(self)._pool_function(inputs, ksize=[1, *self.pool_size, 1],
                                         strides=[1, *self.strides, 1],
                                         padding=self.padding.upper(), data_format="NHWC")

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        dims = [input_shape[0].value]
        for i in (1, 2):
            size = input_shape[i].value
            dims.append(None if size is None else _out_size(
                size, self.pool_size[i - 1], self.strides[i - 1], 1, self.padding.upper())[0])
        return TensorShape(dims + [input_shape[3].value])


class MaxPooling2D(_Pooling2D):
    """Max pooling for 2-D inputs (images): the largest entry of each window."""
    _pool_function = staticmethod(conv_ops.max_pool)


class AveragePooling2D(_Pooling2D):
    """Average pooling for 2-D inputs (images): the mean of each window."""
    _pool_function = staticmethod(conv_ops.avg_pool)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """The functional form of MaxPooling2D."""
    layer = MaxPooling2D(pool_size=pool_size, strides=strides, padding=padding,
                         data_format=data_format, name=name)
    return layer.apply(inputs)


def average_pooling2d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    """The functional form of AveragePooling2D."""
    layer = AveragePooling2D(pool_size=pool_size, strides=strides, padding=padding,
                             data_format=data_format, name=name)
    return layer.apply(inputs)

