"""Dense, Dropout and Flatten -- mirrors TensorFlow 1.15's python/layers/core.py (the tf.layers
forms of python/keras/layers/core.py).

    h = tf.layers.dense(x, 100, activation=tf.nn.relu)      # dense/kernel [784, 100], dense/bias
    h = tf.layers.dropout(h, rate=0.5, training=is_training)
    y = tf.layers.dense(h, 10)                                # dense_1/kernel, dense_1/bias

dense computes activation(x @ kernel + bias); the kernel starts glorot-uniform (or the
enclosing variable scope's initializer), the bias at zero. dropout is the identity unless
`training` is true; `rate` is the fraction DROPPED (tf.nn.dropout's keep_prob is 1 - rate).
flatten keeps the first (batch) dimension and folds the others into one.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph
from ..framework.tensor_shape import TensorShape
from ..ops import array_ops, init_ops, matmul_ops, nn_ops, slicing_ops
from ..ops.constant_op import constant
from ..ops.control_flow_ops import identity
from .base import InputSpec, Layer, get_activation, normalize_data_format, select_on

__all__ = ["Dense", "Dropout", "Flatten", "dense", "dropout", "flatten"]


class Dense(Layer):
    """A densely-connected layer: outputs = activation(inputs @ kernel + bias). Inputs of
    rank > 2 are multiplied along their last axis."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        self.activation = get_activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.input_spec = InputSpec(min_ndim=2)
        self.kernel = self.bias = None

    def build(self, input_shape):
        dtype = _dtypes.as_dtype(self.dtype or _dtypes.float32)
        if not (dtype.is_floating or dtype.is_complex):
            raise TypeError(f"Unable to build `Dense` layer with non-floating point dtype "
                            f"{dtype.name}")
        input_shape = TensorShape(input_shape)
        if input_shape[-1].value is None:
            raise ValueError("The last dimension of the inputs to `Dense` should be defined. "
                             "Found `None`.")
        last_dim = input_shape[-1].value
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})
        self.kernel = self.add_weight("kernel", shape=[last_dim, self.units],
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, dtype=self.dtype,
                                      trainable=True)
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.units],
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, dtype=self.dtype,
                                        trainable=True)
        self.built = True

    def call(self, inputs):
        rank = inputs.get_shape().ndims
        if rank is not None and rank > 2:
            outputs = _matmul_last_axis(inputs, self.kernel)
        else:
            outputs = matmul_ops.matmul(inputs, self.kernel)
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        if input_shape[-1].value is None:
            raise ValueError("The innermost dimension of input_shape must be defined, but saw: "
                             f"{input_shape}")
        return input_shape[:-1].concatenate(self.units)


def _matmul_last_axis(x, kernel):
    """x [..., n] @ kernel [n, units] -> [..., units] (TF calls tensordot): reshape to a
    matrix, multiply, reshape back."""
    with get_default_graph().name_scope("Tensordot"):
        shape = x.get_shape()
        n = shape[-1].value
        flat = array_ops.reshape(x, [-1, n])
        product = matmul_ops.matmul(flat, kernel)
        units = kernel.get_shape()[-1].value
        if shape[:-1].is_fully_defined():
            out_shape = shape[:-1].as_list() + [units]
        else:
            out_shape = slicing_ops.concat([array_ops.shape(x)[:-1], [units]], 0)
        outputs = array_ops.reshape(product, out_shape)
    outputs.set_shape(shape[:-1].concatenate(units))
    return outputs


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=init_ops.zeros_initializer(), kernel_regularizer=None,
          bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
          bias_constraint=None, trainable=True, name=None, reuse=None):
    """The functional form of Dense: a new layer, called once on `inputs`."""
    layer = Dense(units, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                  trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer.apply(inputs)


class Dropout(Layer):
    """Sets a fraction `rate` of its inputs to 0 and scales the others by 1 / (1 - rate),
    when `training` is true; the identity otherwise (the default)."""

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        self.supports_masking = True

    def call(self, inputs, training=False):
        def dropped():
            return nn_ops.dropout(inputs, noise_shape=self.noise_shape, seed=self.seed,
                                  rate=self.rate)
        return select_on(training, dropped, lambda: identity(inputs))

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """The functional form of Dropout. `training` is a Python bool or a bool tensor (e.g. a
    placeholder fed True while training)."""
    layer = Dropout(rate, noise_shape=noise_shape, seed=seed, name=name)
    return layer.apply(inputs, training=training)


class Flatten(Layer):
    """Flattens an input while keeping the batch axis: [N, 7, 7, 64] -> [N, 3136]."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        rank = inputs.get_shape().ndims
        if self.data_format == "channels_first" and rank is not None and rank > 1:
            inputs = array_ops.transpose(inputs, [0] + list(range(2, rank)) + [1])
        shape = inputs.get_shape()
        if shape[1:].is_fully_defined():
            flat = int(np.prod(shape[1:].as_list(), dtype=np.int64))
            dtype = _dtypes.int64 if flat > np.iinfo(np.int32).max else _dtypes.int32
            outputs = array_ops.reshape(inputs, constant((-1, flat), dtype=dtype))
        elif shape[0].value:
            outputs = array_ops.reshape(inputs, (shape[0].value, -1))
        else:
            outputs = array_ops.reshape(inputs, slicing_ops.concat(
                [array_ops.shape(inputs)[:1], [-1]], 0))
        outputs.set_shape(self.compute_output_shape(inputs.get_shape()))
        return outputs

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        if input_shape.ndims is None:
            return TensorShape([None, None])
        rest = input_shape[1:]
        flat = rest.num_elements() if rest.is_fully_defined() else None
        return TensorShape([input_shape[0].value, flat])


def flatten(inputs, name=None, data_format="channels_last"):
    """The functional form of Flatten."""
    layer = Flatten(name=name, data_format=data_format)
    return layer.apply(inputs)
