"""Keras core layers -- mirrors TensorFlow 1.15's python/keras/layers/core.py: Dense, Dropout,
Flatten, Activation, Reshape, Lambda (and InputLayer / Input from engine/base_layer.py),
Masking, SpatialDropout1D/2D/3D, ActivityRegularization, Permute, RepeatVector.

Dense, Dropout and Flatten are the tf.layers classes (sandbox/layers/core.py) with the Keras
Layer mixed in: Keras's names ('dense/kernel:0'), Keras's arguments (initializers and
activations by name), and Dropout follows keras.backend.learning_phase() when it is not told
`training=` -- fit feeds True, evaluate and predict leave it False. SpatialDropout1D/2D/3D
drop whole feature maps (one draw per example and channel, shared along the steps or pixels).

Masking(mask_value=0.) marks the steps whose features all equal mask_value: it zeroes them
and gives its output a mask (any feature != mask_value), which the next layers (LSTM,
GlobalAveragePooling1D ...) skip, as Embedding(mask_zero=True)'s mask.
"""
import sys
import types

import numpy as np

from ...framework.tensor_shape import TensorShape
from ...layers import core as _tf_core
from ...layers.base import InputSpec, select_on
from ...ops import array_ops, comparison_ops, math_ops, nn_ops, reduction_ops, slicing_ops
from ...ops.control_flow_ops import identity
from .. import activations, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import Input, InputLayer, Layer
from ..serialization import deserialize_keras_object, func_dump, func_load

__all__ = ["Dense", "Dropout", "Flatten", "Activation", "Reshape", "Lambda", "InputLayer",
           "Input", "Masking", "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D",
           "ActivityRegularization", "Permute", "RepeatVector"]


class Dense(_tf_core.Dense, Layer):
    """Dense(units, activation=None, use_bias=True, kernel_initializer='glorot_uniform',
    bias_initializer='zeros', ...): activation(inputs @ kernel + bias)."""
    supports_masking = True
    _config_keys = ("units", "activation", "use_bias", "kernel_initializer", "bias_initializer",
                    "kernel_regularizer", "bias_regularizer", "activity_regularizer",
                    "kernel_constraint", "bias_constraint")

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


class Dropout(_tf_core.Dropout, Layer):
    """Dropout(rate): drops a fraction `rate` of the inputs while training (learning phase 1)."""
    supports_masking = True
    _config_keys = ("rate", "noise_shape", "seed")

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(rate=rate, noise_shape=noise_shape, seed=seed, **kwargs)

    def call(self, inputs, training=None):
        if training is None:
            training = K.learning_phase()
        return super().call(inputs, training=training)


class Flatten(_tf_core.Flatten, Layer):
    """Flatten(): [batch, d1, d2, ...] -> [batch, d1 * d2 * ...]."""
    _config_keys = ("data_format",)


class Activation(Layer):
    """Activation('relu'): applies an activation function."""
    supports_masking = True
    _config_keys = ("activation",)

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)


class Reshape(Layer):
    """Reshape(target_shape): the shape of each example (without the batch axis); one entry
    may be -1."""
    _config_keys = ("target_shape",)

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

    # -- saving: a Python function is saved as its bytecode ('lambda', TF's word for any
    # Python function), any other callable by name ('function'), a shape as it is ('raw')
    @staticmethod
    def _serialize_function(value, allow_raw=False):
        if isinstance(value, types.FunctionType):
            return func_dump(value), "lambda", value.__module__
        if callable(value):
            return value.__name__, "function", value.__module__
        if allow_raw:
            return value, "raw", None
        raise ValueError(f"Invalid input for serialization, type: {type(value)} ")

    def get_config(self):
        function, function_type, module = self._serialize_function(self.function)
        shape, shape_type, shape_module = self._serialize_function(self._output_shape,
                                                                   allow_raw=True)
        return {**Layer.get_config(self), "function": function,
                "function_type": function_type, "module": module, "output_shape": shape,
                "output_shape_type": shape_type, "output_shape_module": shape_module,
                "arguments": self.arguments}

    @staticmethod
    def _parse_function(config, custom_objects, key, module_key, type_key):
        globs = dict(globals())
        module = config.pop(module_key, None)
        if module in sys.modules:
            globs.update(sys.modules[module].__dict__)
        globs.update(custom_objects or {})
        kind = config.pop(type_key)
        if kind == "function":
            return deserialize_keras_object(config[key], module_objects=globs,
                                            custom_objects=custom_objects,
                                            printable_module_name="function in Lambda layer")
        if kind == "lambda":
            return func_load(config[key], globs=globs)
        return config[key]

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["function"] = cls._parse_function(config, custom_objects, "function", "module",
                                                 "function_type")
        config["output_shape"] = cls._parse_function(config, custom_objects, "output_shape",
                                                     "output_shape_module",
                                                     "output_shape_type")
        return cls(**config)


class Masking(Layer):
    """Masking(mask_value=0.): a step whose features all equal mask_value is zeroed and
    masked out for the layers after it ([batch, steps, features] -> mask [batch, steps])."""
    supports_masking = True
    _config_keys = ("mask_value",)

    def __init__(self, mask_value=0., **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def _kept(self, inputs, keepdims=False):
        return reduction_ops.reduce_any(comparison_ops.not_equal(inputs, self.mask_value),
                                        axis=-1, keepdims=keepdims)

    def compute_mask(self, inputs, mask=None):
        return self._kept(inputs)

    def call(self, inputs):
        return inputs * math_ops.cast(self._kept(inputs, keepdims=True), inputs.dtype)


class _SpatialDropout(Dropout):
    """Dropout of whole channels: one draw per example and channel, shared along the
    `_rank` spatial axes (steps, rows and columns ...). get_config has Dropout's keys only
    -- rate, noise_shape, seed; no data_format -- as in TF 1.15."""
    _rank = 1
    data_format = "channels_last"

    def __init__(self, rate, **kwargs):
        super().__init__(rate, **kwargs)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def _noise_shape(self):
        """None: that axis of the input (batch, channels); 1: one draw shared along it."""
        if self.data_format == "channels_first":
            return [None, None] + [1] * self._rank
        return [None] + [1] * self._rank + [None]

    def call(self, inputs, training=None):
        if training is None:
            training = K.learning_phase()

        def dropped():
            return nn_ops.dropout(inputs, noise_shape=self._noise_shape(), seed=self.seed,
                                  rate=self.rate)
        return select_on(training, dropped, lambda: identity(inputs))


class SpatialDropout1D(_SpatialDropout):
    """SpatialDropout1D(rate): drops whole channels of [batch, steps, channels]."""


class _SpatialDropoutND(_SpatialDropout):
    """The 2-D and 3-D ones take data_format (None: keras.backend.image_data_format())."""

    def __init__(self, rate, data_format=None, **kwargs):
        super().__init__(rate, **kwargs)
        data_format = data_format or K.image_data_format()
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError('data_format must be in {"channels_last", "channels_first"}')
        self.data_format = data_format


class SpatialDropout2D(_SpatialDropoutND):
    """SpatialDropout2D(rate, data_format=None): drops whole feature maps of 4-D input."""
    _rank = 2


class SpatialDropout3D(_SpatialDropoutND):
    """SpatialDropout3D(rate, data_format=None): drops whole feature volumes of 5-D input."""
    _rank = 3


class ActivityRegularization(Layer):
    """ActivityRegularization(l1=0., l2=0.): the identity, which adds l1 * sum(|x|) +
    l2 * sum(x ** 2) of its output, divided by the batch size, to the model's losses."""
    supports_masking = True
    _config_keys = ("l1", "l2")

    def __init__(self, l1=0., l2=0., **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1 = l1
        self.l2 = l2

    def call(self, inputs):
        return identity(inputs)


class Permute(Layer):
    """Permute(dims): reorders the axes of each example; dims counts from 1 (the batch axis
    stays first): Permute((2, 1)) turns [batch, steps, features] into [batch, features, steps]."""
    _config_keys = ("dims",)

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError(f"Invalid permutation `dims` for Permute Layer: {dims}. The set "
                             "of indices in `dims` must be consecutive and start from 1.")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape).as_list()
        return TensorShape(input_shape[:1] + [input_shape[d] for d in self.dims])

    def call(self, inputs):
        return array_ops.transpose(inputs, perm=(0,) + self.dims)


class RepeatVector(Layer):
    """RepeatVector(n): [batch, features] -> [batch, n, features], the input n times."""
    _config_keys = ("n",)

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape).as_list()
        return TensorShape([input_shape[0], self.n, input_shape[1]])

    def call(self, inputs):
        return slicing_ops.tile(array_ops.expand_dims(inputs, 1), [1, self.n, 1])
