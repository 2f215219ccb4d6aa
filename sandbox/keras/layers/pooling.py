"""Keras 1-D and global pooling layers -- mirrors TensorFlow 1.15's python/keras/layers/pooling.py
(MaxPooling1D, AveragePooling1D, GlobalAveragePooling1D, GlobalMaxPooling1D,
GlobalAveragePooling2D, GlobalMaxPooling2D; the 2-D window poolings are in convolutional.py).

    model = keras.Sequential([keras.layers.Embedding(10000, 16, input_length=256),
                              keras.layers.GlobalAveragePooling1D(),  # -> (None, 16)
                              keras.layers.Dense(1, activation='sigmoid')])

MaxPooling1D / AveragePooling1D are the tf.layers classes (sandbox/layers/pooling.py) with
Keras's defaults (pool_size=2, strides=pool_size). The global poolings reduce the steps axis
(1-D: [batch, steps, features] -> [batch, features]) or both spatial axes (2-D, NHWC) with
reduce_mean / reduce_max. GlobalAveragePooling1D takes a mask (Embedding(mask_zero=True)):
then it averages the unmasked steps only, sum(x * mask) / sum(mask), as TF does.
"""
from ...framework.tensor_shape import TensorShape
from ...layers import pooling as _tf_pool
from ...layers.base import InputSpec, channels_last_only, normalize_data_format
from ...ops import array_ops, math_ops, reduction_ops
from .. import backend as K
from ..engine.base_layer import Layer

__all__ = ["MaxPooling1D", "AveragePooling1D", "GlobalAveragePooling1D", "GlobalMaxPooling1D",
           "GlobalAveragePooling2D", "GlobalMaxPooling2D", "MaxPool1D", "AvgPool1D",
           "GlobalAvgPool1D", "GlobalMaxPool1D", "GlobalAvgPool2D", "GlobalMaxPool2D"]


class MaxPooling1D(_tf_pool.MaxPooling1D, Layer):
    """MaxPooling1D(pool_size=2, strides=None (= pool_size), padding='valid')."""
    _config_keys = ("strides", "pool_size", "padding", "data_format")

    def __init__(self, pool_size=2, strides=None, padding="valid",
                 data_format="channels_last", **kwargs):
        super().__init__(pool_size, strides, padding=padding, data_format=data_format,
                         **kwargs)


class AveragePooling1D(_tf_pool.AveragePooling1D, Layer):
    """AveragePooling1D(pool_size=2, strides=None (= pool_size), padding='valid')."""
    _config_keys = ("strides", "pool_size", "padding", "data_format")

    def __init__(self, pool_size=2, strides=None, padding="valid",
                 data_format="channels_last", **kwargs):
        super().__init__(pool_size, strides, padding=padding, data_format=data_format,
                         **kwargs)


class _GlobalPooling(Layer):
    """What the global poolings share: the data format, the rank, the reduced axes."""
    _rank = 3
    _config_keys = ("data_format",)

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = normalize_data_format(data_format or K.image_data_format())
        self.input_spec = InputSpec(ndim=self._rank)

    def build(self, input_shape):
        channels_last_only(self, self.data_format)
        self.built = True

    @property
    def _axes(self):
        return list(range(1, self._rank - 1))

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        return TensorShape([input_shape[0].value, input_shape[-1].value])


class GlobalAveragePooling1D(_GlobalPooling):
    """[batch, steps, features] -> [batch, features]: the mean over the steps (the unmasked
    ones, given a mask)."""
    supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return reduction_ops.reduce_mean(inputs, axis=1)
        mask = array_ops.expand_dims(math_ops.cast(mask, inputs.dtype.base_dtype), 2)
        return math_ops.truediv(reduction_ops.reduce_sum(inputs * mask, axis=1),
                                reduction_ops.reduce_sum(mask, axis=1))

    def compute_mask(self, inputs, mask=None):
        return None


class GlobalMaxPooling1D(_GlobalPooling):
    """[batch, steps, features] -> [batch, features]: the largest entry over the steps."""

    def call(self, inputs):
        return reduction_ops.reduce_max(inputs, axis=1)


class GlobalAveragePooling2D(_GlobalPooling):
    """[batch, rows, cols, channels] -> [batch, channels]: the mean over rows and cols."""
    _rank = 4

    def call(self, inputs):
        return reduction_ops.reduce_mean(inputs, axis=[1, 2])


class GlobalMaxPooling2D(_GlobalPooling):
    """[batch, rows, cols, channels] -> [batch, channels]: the largest over rows and cols."""
    _rank = 4

    def call(self, inputs):
        return reduction_ops.reduce_max(inputs, axis=[1, 2])


MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool2D = GlobalMaxPooling2D
