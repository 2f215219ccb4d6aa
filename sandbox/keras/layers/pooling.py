"""Keras 1-D, 3-D and global pooling layers -- mirrors TensorFlow 1.15's
python/keras/layers/pooling.py (MaxPooling1D, AveragePooling1D, MaxPooling3D, AveragePooling3D,
GlobalAveragePooling1D/2D/3D, GlobalMaxPooling1D/2D/3D; the 2-D window poolings are in
convolutional.py).

    model = keras.Sequential([keras.layers.Embedding(10000, 16, input_length=256),
                              keras.layers.GlobalAveragePooling1D(),  # -> (None, 16)
                              keras.layers.Dense(1, activation='sigmoid')])

MaxPooling1D / AveragePooling1D and the 3-D ones are the tf.layers classes
(sandbox/layers/pooling.py) with Keras's defaults (pool_size=2 along each axis,
strides=pool_size). The global poolings reduce the steps axis (1-D: [batch, steps, features]
-> [batch, features]) or all the spatial axes (2-D, 3-D) with reduce_mean / reduce_max; they
need no NHWC kernel, so they take data_format='channels_first' too ([batch, channels, ...]).
GlobalAveragePooling1D takes a mask (Embedding(mask_zero=True)): then it averages the unmasked
steps only, sum(x * mask) / sum(mask), as TF does.
"""
from ...framework.tensor_shape import TensorShape
from ...layers import pooling as _tf_pool
from ...layers.base import InputSpec, normalize_data_format
from ...ops import array_ops, math_ops, reduction_ops
from .. import backend as K
from ..engine.base_layer import Layer
from .convolutional import _KerasPooling

__all__ = ["MaxPooling1D", "AveragePooling1D", "MaxPooling3D", "AveragePooling3D",
           "GlobalAveragePooling1D", "GlobalMaxPooling1D", "GlobalAveragePooling2D",
           "GlobalMaxPooling2D", "GlobalAveragePooling3D", "GlobalMaxPooling3D", "MaxPool1D",
           "AvgPool1D", "MaxPool3D", "AvgPool3D", "GlobalAvgPool1D", "GlobalMaxPool1D",
           "GlobalAvgPool2D", "GlobalMaxPool2D", "GlobalAvgPool3D", "GlobalMaxPool3D"]


class _KerasPooling1D(_KerasPooling):
    """The 1-D window poolings' defaults: pool_size=2, strides=pool_size, channels_last."""
    _config_keys = ("strides", "pool_size", "padding", "data_format")

    def __init__(self, pool_size=2, strides=None, padding="valid",
                 data_format="channels_last", **kwargs):
        super().__init__(pool_size, strides, padding=padding, data_format=data_format,
                         **kwargs)


class MaxPooling1D(_KerasPooling1D, _tf_pool.MaxPooling1D, Layer):
    """MaxPooling1D(pool_size=2, strides=None (= pool_size), padding='valid')."""


class AveragePooling1D(_KerasPooling1D, _tf_pool.AveragePooling1D, Layer):
    """AveragePooling1D(pool_size=2, strides=None (= pool_size), padding='valid')."""


class _KerasPooling3D(_KerasPooling):
    """The 3-D window poolings' defaults: pool_size=(2, 2, 2), strides=pool_size."""

    def __init__(self, pool_size=(2, 2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(pool_size, strides, padding=padding, data_format=data_format,
                         **kwargs)


class MaxPooling3D(_KerasPooling3D, _tf_pool.MaxPooling3D, Layer):
    """MaxPooling3D(pool_size=(2, 2, 2), strides=None (= pool_size), padding='valid'):
    [batch, depth, rows, cols, channels], the largest entry of each window."""


class AveragePooling3D(_KerasPooling3D, _tf_pool.AveragePooling3D, Layer):
    """AveragePooling3D(pool_size=(2, 2, 2), strides=None (= pool_size), padding='valid'):
    the mean of each window."""


class _GlobalPooling(Layer):
    """What the global poolings share: the data format, the rank, the reduced axes."""
    _rank = 3
    _config_keys = ("data_format",)

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = normalize_data_format(data_format or K.image_data_format())
        self.input_spec = InputSpec(ndim=self._rank)

    @property
    def _axes(self):
        """The spatial axes: 1 .. rank - 2 (channels_last) or 2 .. rank - 1 (channels_first)."""
        first = 2 if self.data_format == "channels_first" else 1
        return list(range(first, first + self._rank - 2))

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        channels = 1 if self.data_format == "channels_first" else -1
        return TensorShape([input_shape[0].value, input_shape[channels].value])


class GlobalAveragePooling1D(_GlobalPooling):
    """[batch, steps, features] -> [batch, features]: the mean over the steps (the unmasked
    ones, given a mask)."""
    supports_masking = True

    def call(self, inputs, mask=None):
        steps = self._axes[0]
        if mask is None:
            return reduction_ops.reduce_mean(inputs, axis=steps)
        mask = array_ops.expand_dims(math_ops.cast(mask, inputs.dtype.base_dtype), 3 - steps)
        return math_ops.truediv(reduction_ops.reduce_sum(inputs * mask, axis=steps),
                                reduction_ops.reduce_sum(mask, axis=steps))

    def compute_mask(self, inputs, mask=None):
        return None


class _GlobalMax(_GlobalPooling):
    def call(self, inputs):
        return reduction_ops.reduce_max(inputs, axis=self._axes)


class _GlobalAverage(_GlobalPooling):
    def call(self, inputs):
        return reduction_ops.reduce_mean(inputs, axis=self._axes)


class GlobalMaxPooling1D(_GlobalMax):
    """[batch, steps, features] -> [batch, features]: the largest entry over the steps."""


class GlobalAveragePooling2D(_GlobalAverage):
    """[batch, rows, cols, channels] -> [batch, channels]: the mean over rows and cols."""
    _rank = 4


class GlobalMaxPooling2D(_GlobalMax):
    """[batch, rows, cols, channels] -> [batch, channels]: the largest over rows and cols."""
    _rank = 4


class GlobalAveragePooling3D(_GlobalAverage):
    """[batch, depth, rows, cols, channels] -> [batch, channels]: the mean over the volume."""
    _rank = 5


class GlobalMaxPooling3D(_GlobalMax):
    """[batch, depth, rows, cols, channels] -> [batch, channels]: the largest in the volume."""
    _rank = 5


MaxPool1D = MaxPooling1D
AvgPool1D = AveragePooling1D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool2D = GlobalMaxPooling2D
MaxPool3D = MaxPooling3D
AvgPool3D = AveragePooling3D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool3D = GlobalMaxPooling3D
