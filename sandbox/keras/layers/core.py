"""Keras core layers -- mirrors TensorFlow 1.15's python/keras/layers/core.py: Dense, Dropout,
Flatten, Activation, Reshape, Lambda (and InputLayer / Input from engine/base_layer.py).

Dense, Dropout and Flatten are the tf.layers classes (sandbox/layers/core.py) with the Keras
Layer mixed in: Keras's names ('dense/kernel:0'), Keras's arguments (initializers and
activations by name), and Dropout follows keras.backend.learning_phase() when it is not told
`training=` -- fit feeds True, evaluate and predict leave it False.
"""
import numpy as np

from ...framework.tensor_shape import TensorShape
from ...layers import core as _tf_core
from ...ops import array_ops
from ...ops.control_flow_ops import identity
from .. import activations, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import Input, InputLayer, Layer

__all__ = ["Dense", "Dropout", "Flatten", "Activation", "Reshape", "Lambda", "InputLayer",
           "Input"]


class Dense(_tf_core.Dense, Layer):
    """Dense(units, activation=None, use_bias=True, kernel_initializer='glorot_uniform',
    bias_initializer='zeros', ...): activation(inputs @ kernel + bias)."""
    supports_masking = True

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        if "input_dim" in kwargs and "input_shape" not in kwargs:
            kwargs["input_shape"] = (kwargs.pop("input_dim"),)
        super().__init__(units, activation=activations.get(activation), use_bias=use_bias,
                         kernel_initializer=initializers.get(kernel_initializer),
                         bias_initializer=initializers.get(bias_initializer),
                         kernel_regularizer=regularizers.get(kernel_regularizer),
                         bias_regularizer=regularizers.get(bias_regularizer),
                         activity_regularizer=regularizers.get(activity_regularizer),
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         **kwargs)
        self._activation_name = activations.serialize(activations.get(activation))

    def get_config(self):
        return {**Layer.get_config(self), "units": self.units,
                "activation": self._activation_name, "use_bias": self.use_bias}


class Dropout(_tf_core.Dropout, Layer):
    """Dropout(rate): drops a fraction `rate` of the inputs while training (learning phase 1)."""
    supports_masking = True

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(rate=rate, noise_shape=noise_shape, seed=seed, **kwargs)

    def call(self, inputs, training=None):
        if training is None:
            training = K.learning_phase()
        return super().call(inputs, training=training)

    def get_config(self):
        return {**Layer.get_config(self), "rate": self.rate, "noise_shape": self.noise_shape,
                "seed": self.seed}


class Flatten(_tf_core.Flatten, Layer):
    """Flatten(): [batch, d1, d2, ...] -> [batch, d1 * d2 * ...]."""


class Activation(Layer):
    """Activation('relu'): applies an activation function."""
    supports_masking = True

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)


class Reshape(Layer):
    """Reshape(target_shape): the shape of each example (without the batch axis); one entry
    may be -1."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def _fixed(self, input_shape):
        shape = list(self.target_shape)
        rest = TensorShape(input_shape)[1:]
        if -1 in shape and rest.is_fully_defined():
            known = int(np.prod([d for d in shape if d != -1]))
            total = rest.num_elements()
            if known == 0 or total % known:
                raise ValueError("total size of new array must be unchanged")
            shape[shape.index(-1)] = total // known
        elif rest.is_fully_defined() and rest.num_elements() != int(np.prod(shape)):
            raise ValueError("total size of new array must be unchanged")
        return shape

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        shape = [d if d != -1 else None for d in self._fixed(input_shape)]
        return TensorShape([input_shape[0].value] + shape)

    def call(self, inputs):
        outputs = array_ops.reshape(inputs, [-1] + self._fixed(inputs.get_shape()))
        outputs.set_shape(self.compute_output_shape(inputs.get_shape()))
        return outputs


class Lambda(Layer):
    """Lambda(function, output_shape=None, arguments=None): any function of a tensor as a
    layer (it has no weights)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = output_shape

    def call(self, inputs):
        outputs = self.function(inputs, **self.arguments)
        return identity(outputs) if outputs is inputs else outputs

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return TensorShape(input_shape)
        if callable(self._output_shape):
            return TensorShape(self._output_shape(input_shape))
        return TensorShape([TensorShape(input_shape)[0].value] + list(self._output_shape))
