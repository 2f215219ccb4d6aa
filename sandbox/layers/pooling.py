"""The pooling layers, 1-D, 2-D and 3-D, max and average -- mirrors TensorFlow
1.15's python/layers/pooling.py (the tf.layers forms of python/keras/layers/pooling.py).

    h = tf.layers.max_pooling2d(h, pool_size=2, strides=2)   # [N, 28, 28, C] -> [N, 14, 14, C]

A pooling layer has no variables: it is tf.nn.max_pool / tf.nn.avg_pool over pool_size
windows moved by `strides` (which TF 1.15's tf.layers require: there is no default), with
'valid' or 'same' padding. Average pooling with 'same' padding divides each window by the
number of real (unpadded) entries in it, as TF's kernel does.

The 1-D layers pool [N, W, C] sequences the way TF does: the input gets a height of 1
(ExpandDims: [N, 1, W, C]), is pooled over [1, pool_size] windows, and is squeezed back. The
3-D layers pool [N, D, H, W, C] volumes with tf.nn.max_pool3d / avg_pool3d
(sandbox/ops/conv3d_ops.py).
"""
from ..framework.tensor_shape import TensorShape
from ..ops import array_ops, conv3d_ops, conv_ops
from ..ops.conv_ops import _out_size
from .base import (InputSpec, Layer, channels_last_only, normalize_data_format,
                   normalize_padding, normalize_tuple)

__all__ = ["MaxPooling1D", "AveragePooling1D", "max_pooling1d", "average_pooling1d",
           "MaxPooling2D", "AveragePooling2D", "max_pooling2d", "average_pooling2d",
           "MaxPooling3D", "AveragePooling3D", "max_pooling3d", "average_pooling3d"]


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


class _Pooling1D(Layer):
    """The shared part of the 1-D pooling layers."""
    _pool_function = None

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last",
                 name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if strides is None:
            strides = pool_size
        self.pool_size = normalize_tuple(pool_size, 1, "pool_size")
        self.strides = normalize_tuple(strides, 1, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        channels_last_only(self, self.data_format)
        self.built = True

    def call(self, inputs):
        x = array_ops.expand_dims(inputs, 1)
        y = type(self)._pool_function(x, ksize=[1, 1, self.pool_size[0], 1],
                                      strides=[1, 1, self.strides[0], 1],
                                      padding=self.padding.upper(), data_format="NHWC")
        return array_ops.squeeze(y, [1])

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape).with_rank(3)
        size = input_shape[1].value
        return TensorShape([input_shape[0].value, None if size is None else _out_size(
            size, self.pool_size[0], self.strides[0], 1, self.padding.upper())[0],
            input_shape[2].value])


class MaxPooling1D(_Pooling1D):
    """Max pooling for 1-D inputs (sequences [N, W, C]): the largest entry of each window."""
    _pool_function = staticmethod(conv_ops.max_pool)


class AveragePooling1D(_Pooling1D):
    """Average pooling for 1-D inputs (sequences [N, W, C]): the mean of each window."""
    _pool_function = staticmethod(conv_ops.avg_pool)


def max_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """The functional form of MaxPooling1D."""
    layer = MaxPooling1D(pool_size=pool_size, strides=strides, padding=padding,
                         data_format=data_format, name=name)
    return layer.apply(inputs)


def average_pooling1d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    """The functional form of AveragePooling1D."""
    layer = AveragePooling1D(pool_size=pool_size, strides=strides, padding=padding,
                             data_format=data_format, name=name)
    return layer.apply(inputs)


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



class _Pooling3D(_Pooling2D):
    """The shared part of the 3-D pooling layers."""
    _rank = 3

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last",
                 name=None, **kwargs):
        super(_Pooling2D, self).__init__(name=name, **kwargs)   # (past _Pooling2D's own)
        if strides is None:
            strides = pool_size
        self.pool_size = normalize_tuple(pool_size, 3, "pool_size")
        self.strides = normalize_tuple(strides, 3, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        return type(self)._pool_function(inputs, ksize=[1, *self.pool_size, 1],
                                         strides=[1, *self.strides, 1],
                                         padding=self.padding.upper())

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape).with_rank(5)
        dims = [input_shape[0].value]
        for i in (1, 2, 3):
            size = input_shape[i].value
            dims.append(None if size is None else _out_size(
                size, self.pool_size[i - 1], self.strides[i - 1], 1, self.padding.upper())[0])
        return TensorShape(dims + [input_shape[4].value])


class MaxPooling3D(_Pooling3D):
    """Max pooling for 3-D inputs (volumes [N, D, H, W, C])."""
    _pool_function = staticmethod(conv3d_ops.max_pool3d)


class AveragePooling3D(_Pooling3D):
    """Average pooling for 3-D inputs (volumes [N, D, H, W, C])."""
    _pool_function = staticmethod(conv3d_ops.avg_pool3d)


def max_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """The functional form of MaxPooling3D."""
    layer = MaxPooling3D(pool_size=pool_size, strides=strides, padding=padding,
                         data_format=data_format, name=name)
    return layer.apply(inputs)


def average_pooling3d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    """The functional form of AveragePooling3D."""
    layer = AveragePooling3D(pool_size=pool_size, strides=strides, padding=padding,
                             data_format=data_format, name=name)
    return layer.apply(inputs)
