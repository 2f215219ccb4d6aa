"""keras.layers.BatchNormalization -- mirrors TensorFlow 1.15's
python/keras/layers/normalization.py (BatchNormalization, the v1 class).

    model = keras.Sequential([keras.layers.Conv2D(32, 3, input_shape=(28, 28, 1)),
                              keras.layers.BatchNormalization(),
                              keras.layers.Activation('relu'), ...])

It is the tf.layers class (sandbox/layers/normalization.py: the same numbers as TF, fused-kernel
moving variance included) with the Keras Layer mixed in, Keras's defaults (momentum 0.99,
epsilon 1e-3, initializers by name) and its variables 'batch_normalization/gamma', '/beta',
'/moving_mean', '/moving_variance' (the last two non-trainable). Without `training=` it
follows keras.backend.learning_phase(): fit feeds True, so each training step normalizes
with the batch's statistics and runs the update ops (moving_mean -= (moving_mean -
batch_mean) * (1 - momentum), the same for the variance; Model.fit groups layer.updates with
the optimizer's step); evaluate and predict leave it False and use the moving statistics,
changing nothing.
"""
from ...layers import normalization as _tf_norm
from .. import backend as K
from .. import initializers, regularizers
from ..engine.base_layer import Layer

__all__ = ["BatchNormalization"]


class BatchNormalization(_tf_norm.BatchNormalization, Layer):
    """BatchNormalization(axis=-1, momentum=0.99, epsilon=0.001, center=True, scale=True,
    ...)."""
    supports_masking = True
    _config_keys = ("axis", "momentum", "epsilon", "center", "scale", "beta_initializer",
                    "gamma_initializer", "moving_mean_initializer",
                    "moving_variance_initializer", "beta_regularizer", "gamma_regularizer",
                    "beta_constraint", "gamma_constraint")

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, fused=None, trainable=True, virtual_batch_size=None,
                 adjustment=None, name=None, **kwargs):
        super().__init__(
            axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
            beta_initializer=initializers.get(beta_initializer),
            gamma_initializer=initializers.get(gamma_initializer),
            moving_mean_initializer=initializers.get(moving_mean_initializer),
            moving_variance_initializer=initializers.get(moving_variance_initializer),
            beta_regularizer=regularizers.get(beta_regularizer),
            gamma_regularizer=regularizers.get(gamma_regularizer),
            beta_constraint=beta_constraint, gamma_constraint=gamma_constraint, renorm=renorm,
            renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
            trainable=trainable, virtual_batch_size=virtual_batch_size, adjustment=adjustment,
            name=name, **kwargs)

    def call(self, inputs, training=None, mask=None):
        if training is None:
            training = K.learning_phase()
        return super().call(inputs, training=training)
