"""fully_connected, conv2d, max_pool2d, avg_pool2d, dropout, batch_norm and flatten of
tf.contrib.layers -- mirrors TensorFlow 1.15's contrib/layers/python/layers/layers.py.

    h = tf.contrib.layers.fully_connected(x, 100)        # relu by default!
    logits = tf.contrib.layers.fully_connected(h, 10, activation_fn=None)

fully_connected is a tf.layers.Dense underneath, with contrib's defaults and names: the
activation is tf.nn.relu unless activation_fn=None is given, the weights start Xavier-uniform,
and the variables are called 'fully_connected/weights' and 'fully_connected/biases' (a
custom getter renames Dense's 'kernel' and 'bias') and are also added to
tf.GraphKeys.MODEL_VARIABLES. The scope is `scope`, or 'fully_connected', 'fully_connected_1'
...; reuse=True with the same scope shares the variables. conv2d is a tf.layers.Conv2D the
same way (scope 'Conv', padding 'SAME', relu). The pooling functions default to 2x2 windows
moved by 2 ('MaxPool2D', 'AvgPool2D'); dropout takes keep_prob and is_training=True (scope
'Dropout').

batch_norm is a tf.layers.BatchNormalization with contrib's defaults: decay (momentum) 0.999,
scale=False (no gamma), is_training=True, variables 'BatchNorm/beta', '/moving_mean',
'/moving_variance' (also in MODEL_VARIABLES), update ops in tf.GraphKeys.UPDATE_OPS -- or,
with updates_collections=None, run with the output itself. As in TF 1.15 (measured), its
moving variance follows the Bessel-corrected batch variance for 2-D and 4-D inputs (contrib's
fused kernel); use it as `normalizer_fn=tf.contrib.layers.batch_norm`.
"""
import numbers

from ...framework.graph import (GraphKeys, add_to_collections, control_dependencies,
                               get_collection, get_collection_ref, name_scope)
from ...framework.tensor import convert_to_tensor
from ...ops import init_ops, nn_ops
from ...ops.control_flow_ops import identity
from ...ops import variable_scope as vs
from ...layers import convolutional as convolutional_layers
from ...layers import core as core_layers
from ...layers import normalization as normalization_layers
from ...layers import pooling as pooling_layers
from ..framework.arg_scope import add_arg_scope
from .initializers import xavier_initializer

__all__ = ["fully_connected", "conv2d", "convolution2d", "max_pool2d", "avg_pool2d", "dropout",
           "batch_norm", "flatten"]


def _model_variable_getter(rename):
    """A custom getter: renames the last part of the variable's name ('kernel' -> 'weights')
    and adds the variable to MODEL_VARIABLES, as contrib's model_variable does."""
    def layer_variable_getter(getter, name, *args, **kwargs):
        parts = name.split("/")
        parts[-1] = rename.get(parts[-1], parts[-1])
        collections = list(kwargs.pop("collections", None) or [])
        collections += [GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES]
        collections = list(dict.fromkeys(collections))       # each once, in order
        return getter("/".join(parts), *args, collections=collections, **kwargs)
    return layer_variable_getter


def _variable_collections(collections_set, name):
    """contrib's get_variable_collections: a dict names collections per variable."""
    if isinstance(collections_set, dict):
        return collections_set.get(name, None)
    return collections_set


def _add_variable_to_collections(variable, collections_set, name):
    for collection in _variable_collections(collections_set, name) or []:
        if not any(variable is v for v in get_collection(collection)):
            add_to_collections([collection], variable)


def collect_named_outputs(collections, alias, outputs):
    """Adds `outputs` to `collections`, remembering `alias` in outputs.aliases."""
    if collections:
        aliases = getattr(outputs, "aliases", None)
        try:
            if aliases is None:
                outputs.aliases = aliases = []
            if alias not in aliases:
                aliases.append(alias)
        except AttributeError:
            pass
        add_to_collections(collections, outputs)
    return outputs


def apply_layer(layer, inputs, sc, normalizer_fn, normalizer_params, activation_fn,
                variables_collections, outputs_collections):
    """The common tail of the contrib layers built on a tf.layers layer: apply it, file its
    weights (kernel, depthwise_kernel, pointwise_kernel) and biases in variables_collections,
    then normalize (with no biases then), activate and collect the output."""
    outputs = layer.apply(inputs)
    for attr in ("kernel", "depthwise_kernel", "pointwise_kernel"):
        if getattr(layer, attr, None) is not None:
            _add_variable_to_collections(getattr(layer, attr), variables_collections, "weights")
    if getattr(layer, "bias", None) is not None:
        _add_variable_to_collections(layer.bias, variables_collections, "biases")
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def fully_connected(inputs, num_outputs, activation_fn=nn_ops.relu, normalizer_fn=None,
                    normalizer_params=None, weights_initializer=xavier_initializer(),
                    weights_regularizer=None,
                    biases_initializer=init_ops.zeros_initializer(), biases_regularizer=None,
                    reuse=None, variables_collections=None, outputs_collections=None,
                    trainable=True, scope=None):
    """activation_fn(inputs @ weights + biases): a fully connected layer with contrib's
    defaults (relu; Xavier weights; zero biases). With a normalizer_fn (e.g. batch norm) no
    biases are made and the normalizer is applied before the activation."""
    if not isinstance(num_outputs, numbers.Integral) or isinstance(num_outputs, bool):
        raise ValueError(f"num_outputs type should be one of [<class 'int'>], got "
                         f"{type(num_outputs)}.")
    getter = _model_variable_getter({"bias": "biases", "kernel": "weights"})
    with vs.variable_scope(scope, "fully_connected", [inputs], reuse=reuse,
                           custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        layer = core_layers.Dense(
            units=num_outputs, activation=None,
            use_bias=not normalizer_fn and biases_initializer is not None,
            kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
            kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
            activity_regularizer=None, trainable=trainable, name=sc.name,
            dtype=inputs.dtype.base_dtype, _scope=sc, _reuse=reuse)
        return apply_layer(layer, inputs, sc, normalizer_fn, normalizer_params, activation_fn,
                           variables_collections, outputs_collections)


@add_arg_scope
def flatten(inputs, outputs_collections=None, scope=None):
    """Flattens `inputs` to [batch_size, k], in name scope 'Flatten'."""
    with name_scope(scope, "Flatten", [inputs]) as sc:
        inputs = convert_to_tensor(inputs)
        outputs = core_layers.flatten(inputs)
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def convolution2d(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=None,
                  rate=1, activation_fn=nn_ops.relu, normalizer_fn=None, normalizer_params=None,
                  weights_initializer=xavier_initializer(), weights_regularizer=None,
                  biases_initializer=init_ops.zeros_initializer(), biases_regularizer=None,
                  reuse=None, variables_collections=None, outputs_collections=None,
                  trainable=True, scope=None):
    """activation_fn(conv2d(inputs, weights) + biases) on NHWC input, with contrib's defaults
    (SAME padding, stride 1, relu, Xavier weights); variables 'Conv/weights', 'Conv/biases'."""
    if data_format not in (None, "NHWC", "NCHW"):
        raise ValueError(f"Invalid data_format: {data_format!r}")
    getter = _model_variable_getter({"bias": "biases", "kernel": "weights"})
    with vs.variable_scope(scope, "Conv", [inputs], reuse=reuse, custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        rank = inputs.get_shape().ndims
        if rank != 4:
            raise ValueError(f"Convolution expects input with rank 4, got {rank}")
        layer = convolutional_layers.Conv2D(
            filters=num_outputs, kernel_size=kernel_size, strides=stride, padding=padding,
            data_format="channels_first" if data_format == "NCHW" else "channels_last",
            dilation_rate=rate, activation=None,
            use_bias=not normalizer_fn and biases_initializer is not None,
            kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
            kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
            trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc,
            _reuse=reuse)
        return apply_layer(layer, inputs, sc, normalizer_fn, normalizer_params, activation_fn,
                           variables_collections, outputs_collections)


conv2d = convolution2d


def _pool2d(layer_class, default_scope, inputs, kernel_size, stride, padding, data_format,
            outputs_collections, scope):
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    with name_scope(scope, default_scope, [inputs]) as sc:
        inputs = convert_to_tensor(inputs)
        layer = layer_class(pool_size=kernel_size, strides=stride, padding=padding,
                            data_format="channels_first" if data_format == "NCHW"
                            else "channels_last", _scope=sc)
        outputs = layer.apply(inputs)
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def max_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC",
               outputs_collections=None, scope=None):
    """The maximum of each kernel_size window, moved by `stride` (scope 'MaxPool2D')."""
    return _pool2d(pooling_layers.MaxPooling2D, "MaxPool2D", inputs, kernel_size, stride,
                   padding, data_format, outputs_collections, scope)


@add_arg_scope
def avg_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC",
               outputs_collections=None, scope=None):
    """The mean of each kernel_size window, moved by `stride` (scope 'AvgPool2D')."""
    return _pool2d(pooling_layers.AveragePooling2D, "AvgPool2D", inputs, kernel_size, stride,
                   padding, data_format, outputs_collections, scope)


@add_arg_scope
def dropout(inputs, keep_prob=0.5, noise_shape=None, is_training=True, outputs_collections=None,
            scope=None, seed=None):
    """Keeps each entry with probability keep_prob (scaled by 1 / keep_prob) when is_training
    (a Python bool or a bool tensor; True by default, unlike tf.layers.dropout)."""
    with vs.variable_scope(scope, "Dropout", [inputs]) as sc:
        inputs = convert_to_tensor(inputs)
        layer = core_layers.Dropout(rate=1 - keep_prob, noise_shape=noise_shape, seed=seed,
                                    name=sc.name, _scope=sc)
        outputs = layer.apply(inputs, training=is_training)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


class _ContribBatchNorm(normalization_layers.BatchNormalization):
    """contrib's batch_norm uses its fused kernel for 2-D input too, making beta first."""
    _fused_ranks = (2, 4)
    _beta_first_ranks = (2,)


@add_arg_scope
def batch_norm(inputs, decay=0.999, center=True, scale=False, epsilon=0.001, activation_fn=None,
               param_initializers=None, param_regularizers=None,
               updates_collections=GraphKeys.UPDATE_OPS, is_training=True, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               batch_weights=None, fused=None, data_format="NHWC",
               zero_debias_moving_mean=False, scope=None, renorm=False, renorm_clipping=None,
               renorm_decay=0.99, adjustment=None):
    """Batch normalization with contrib's defaults (see the module docstring)."""
    for option, value in (("batch_weights", batch_weights),
                          ("zero_debias_moving_mean", zero_debias_moving_mean),
                          ("renorm", renorm), ("adjustment", adjustment)):
        if value:
            raise NotImplementedError(f"batch_norm: {option}= is not supported by the sandbox; "
                                      "leave it at its default.")
    if updates_collections not in (GraphKeys.UPDATE_OPS, None):
        raise NotImplementedError("batch_norm: the sandbox supports updates_collections="
                                  "tf.GraphKeys.UPDATE_OPS (the default) or None (update in "
                                  f"place), not {updates_collections!r}.")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("data_format has to be either NCHW or NHWC.")
    param_initializers = param_initializers or {}
    param_regularizers = param_regularizers or {}
    getter = _model_variable_getter({})
    with vs.variable_scope(scope, "BatchNorm", [inputs], reuse=reuse,
                           custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        layer = _ContribBatchNorm(
            axis=1 if data_format == "NCHW" else -1, momentum=decay, epsilon=epsilon,
            center=center, scale=scale,
            beta_initializer=param_initializers.get("beta", init_ops.zeros_initializer()),
            gamma_initializer=param_initializers.get("gamma", init_ops.ones_initializer()),
            moving_mean_initializer=param_initializers.get("moving_mean",
                                                           init_ops.zeros_initializer()),
            moving_variance_initializer=param_initializers.get("moving_variance",
                                                               init_ops.ones_initializer()),
            beta_regularizer=param_regularizers.get("beta"),
            gamma_regularizer=param_regularizers.get("gamma"), trainable=trainable,
            name=sc.name, _scope=sc, _reuse=reuse, fused=True if fused is None else fused)
        outputs = layer.apply(inputs, training=is_training)
        if updates_collections is None and layer.updates:
            collection = get_collection_ref(GraphKeys.UPDATE_OPS)
            collection[:] = [u for u in collection if not any(u is m for m in layer.updates)]
            with control_dependencies(layer.updates):
                outputs = identity(outputs)
        for name in ("moving_mean", "moving_variance", "beta", "gamma"):
            if getattr(layer, name) is not None:
                _add_variable_to_collections(getattr(layer, name), variables_collections, name)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)
