"""keras.layers.BatchNormalization and LayerNormalization -- mirrors TensorFlow 1.15's
python/keras/layers/normalization.py (BatchNormalization, the v1 class, and
LayerNormalization).

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

LayerNormalization(axis=-1, epsilon=1e-3) normalizes each example on its own, over `axis`
(an int or a list): (x - mean) / sqrt(variance + epsilon) * gamma + beta, with the mean and
variance of that example's values along those axes -- no batch statistics, the same in
training and inference. 'layer_normalization/gamma' (ones) and '/beta' (zeros) have the shape
of the normalized axes.
"""
from ...framework.tensor_shape import TensorShape
from ...layers import normalization as _tf_norm
from ...ops import array_ops, nn_impl
from .. import backend as K
from .. import initializers, regularizers
from ..engine.base_layer import Layer

__all__ = ["BatchNormalization", "LayerNormalization"]


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


class LayerNormalization(Layer):
    """LayerNormalization(axis=-1, epsilon=0.001, center=True, scale=True, ...)."""
    supports_masking = True
    _config_keys = ("axis", "epsilon", "center", "scale", "beta_initializer",
                    "gamma_initializer", "beta_regularizer", "gamma_regularizer",
                    "beta_constraint", "gamma_constraint")

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 trainable=True, name=None, **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise ValueError("Expected an int or a list/tuple of ints for the argument 'axis', "
                             f"but received instead: {axis}")
        self.epsilon = epsilon
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        ndims = input_shape.ndims
        axes = [self.axis] if isinstance(self.axis, int) else self.axis
        for a in axes:
            if not -ndims <= a < ndims:
                raise ValueError(f"Invalid axis: {a}")
        self.axis = sorted(a % ndims for a in axes)       # TF's config then says [1]
        if len(set(self.axis)) != len(self.axis):
            raise ValueError(f"Duplicate axis: {tuple(self.axis)}")
        shape = [input_shape[a].value for a in self.axis]
        self.gamma = self.beta = None
        if self.scale:
            self.gamma = self.add_weight("gamma", shape=shape, initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight("beta", shape=shape, initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint)
        self.built = True

    def call(self, inputs):
        ndims = inputs.get_shape().ndims
        mean, variance = nn_impl.moments(inputs, self.axis, keepdims=True)
        # gamma and beta [d_axis ...] broadcast as [1, .., d_axis, .., 1]
        broadcast = [inputs.get_shape()[i].value if i in self.axis else 1 for i in range(ndims)]

        def shaped(weight):
            if weight is None or self.axis == [ndims - 1]:
                return weight
            return array_ops.reshape(weight, broadcast)

        return nn_impl.batch_normalization(inputs, mean, variance, offset=shaped(self.beta),
                                           scale=shaped(self.gamma),
                                           variance_epsilon=self.epsilon)
