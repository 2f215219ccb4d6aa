"""layer_norm and unit_norm of tf.contrib.layers -- mirrors TensorFlow 1.15's
contrib/layers/python/layers/layers.py (layer_norm, unit_norm).

    h = tf.contrib.layers.layer_norm(x)           # per example: mean 0, variance 1 over
                                                  # axes 1.., then * gamma + beta
    u = tf.contrib.layers.unit_norm(x, dim=1)     # x / sqrt(1e-7 + sum(x ** 2, dim))

layer_norm normalizes over the axes begin_norm_axis.. (default 1: everything but the batch)
with variance epsilon 1e-12 (1e-3 for float16), then scales by 'LayerNorm/gamma' (ones) and
shifts by 'LayerNorm/beta' (zeros), both of shape inputs.shape[begin_params_axis:] (default:
the last axis) and in MODEL_VARIABLES.
"""
from ...framework import dtypes as _dtypes
from ...framework.tensor import convert_to_tensor
from ...ops import basic_math_ops, init_ops, math_ops, nn_impl, reduction_ops
from ...ops import variable_scope as vs
from ..framework.arg_scope import add_arg_scope
from ..framework.variables import model_variable
from .layers import _variable_collections, collect_named_outputs

__all__ = ["layer_norm", "unit_norm"]


@add_arg_scope
def layer_norm(inputs, center=True, scale=True, activation_fn=None, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               begin_norm_axis=1, begin_params_axis=-1, scope=None):
    """Layer normalization (Ba et al. 2016); see the module docstring."""
    with vs.variable_scope(scope, "LayerNorm", [inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        inputs_shape = inputs.get_shape()
        inputs_rank = inputs_shape.ndims
        if inputs_rank is None:
            raise ValueError(f"Inputs {inputs.name} has undefined rank.")
        dtype = inputs.dtype.base_dtype
        if begin_norm_axis < 0:
            begin_norm_axis = inputs_rank + begin_norm_axis
        if begin_params_axis >= inputs_rank or begin_norm_axis >= inputs_rank:
            raise ValueError(f"begin_params_axis ({begin_params_axis}) and begin_norm_axis "
                             f"({begin_norm_axis}) must be < rank(inputs) ({inputs_rank})")
        params_shape = inputs_shape[begin_params_axis:]
        if not params_shape.is_fully_defined():
            raise ValueError(f"Inputs {inputs.name}: shape(inputs)[{begin_params_axis}:] is "
                             f"not fully defined: {inputs_shape}")
        params = {}
        for name, wanted, initializer in (("beta", center, init_ops.zeros_initializer()),
                                          ("gamma", scale, init_ops.ones_initializer())):
            params[name] = None if not wanted else model_variable(
                name, shape=params_shape, dtype=dtype, initializer=initializer,
                collections=_variable_collections(variables_collections, name),
                trainable=trainable)
        mean, variance = nn_impl.moments(inputs, list(range(begin_norm_axis, inputs_rank)),
                                         keep_dims=True)
        variance_epsilon = 1e-3 if dtype == _dtypes.float16 else 1e-12
        outputs = nn_impl.batch_normalization(inputs, mean, variance, offset=params["beta"],
                                              scale=params["gamma"],
                                              variance_epsilon=variance_epsilon)
        outputs.set_shape(inputs_shape)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def unit_norm(inputs, dim, epsilon=1e-7, scope=None):
    """`inputs` divided by its length along `dim`: sqrt(epsilon + sum(inputs ** 2, dim))."""
    with vs.variable_scope(scope, "UnitNorm", [inputs]):
        inputs = convert_to_tensor(inputs)
        if inputs.get_shape().ndims is None:
            raise ValueError("The input rank must be known.")
        input_rank = inputs.get_shape().ndims
        if dim < 0 or dim >= input_rank:
            raise ValueError("dim must be positive but smaller than the input rank.")
        lengths = basic_math_ops.sqrt(epsilon + reduction_ops.reduce_sum(
            basic_math_ops.square(inputs), dim, keepdims=True))
        return math_ops.div(inputs, lengths)
