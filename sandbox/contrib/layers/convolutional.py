"""conv2d_transpose and separable_conv2d of tf.contrib.layers -- mirrors TensorFlow 1.15's
contrib/layers/python/layers/layers.py (convolution2d_transpose, separable_convolution2d).

    up = tf.contrib.layers.conv2d_transpose(x, 16, [3, 3], stride=2)   # [N, 2H, 2W, 16]
    y = tf.contrib.layers.separable_conv2d(x, 32, [3, 3], depth_multiplier=1)

Both have contrib's defaults (SAME padding, relu, Xavier weights, zero biases) and names:
'Conv2d_transpose/weights' and '/biases' (a tf.layers.Conv2DTranspose underneath);
'SeparableConv2d/depthwise_weights', '/pointwise_weights', '/biases' (a
tf.layers.SeparableConv2D). separable_conv2d with num_outputs=None is a depthwise
convolution only: depthwise_weights [kh, kw, in, depth_multiplier], then biases.
"""
from ...framework.tensor import convert_to_tensor
from ...layers import convolutional as convolutional_layers
from ...layers.base import normalize_tuple
from ...ops import depthwise_conv_ops, init_ops, nn_ops
from ...ops import variable_scope as vs
from ..framework.arg_scope import add_arg_scope
from ..framework.variables import model_variable
from .initializers import xavier_initializer
from .layers import (_model_variable_getter, _variable_collections, apply_layer,
                     collect_named_outputs)

__all__ = ["conv2d_transpose", "convolution2d_transpose", "separable_conv2d",
           "separable_convolution2d"]

_DATA_FORMATS = ("NCHW", "NHWC")


def _channels(data_format):
    if data_format not in _DATA_FORMATS:
        raise ValueError("data_format has to be either NCHW or NHWC.")
    return "channels_first" if data_format.startswith("NC") else "channels_last"


@add_arg_scope
def convolution2d_transpose(inputs, num_outputs, kernel_size, stride=1, padding="SAME",
                            data_format="NHWC", activation_fn=nn_ops.relu, normalizer_fn=None,
                            normalizer_params=None, weights_initializer=xavier_initializer(),
                            weights_regularizer=None,
                            biases_initializer=init_ops.zeros_initializer(),
                            biases_regularizer=None, reuse=None, variables_collections=None,
                            outputs_collections=None, trainable=True, scope=None):
    """The transpose ("deconvolution") of conv2d: spatial size times `stride` with SAME
    padding; weights [kh, kw, num_outputs, in_channels]."""
    getter = _model_variable_getter({"bias": "biases", "kernel": "weights"})
    with vs.variable_scope(scope, "Conv2d_transpose", [inputs], reuse=reuse,
                           custom_getter=getter) as sc:
        data_format = _channels(data_format)
        inputs = convert_to_tensor(inputs)
        layer = convolutional_layers.Conv2DTranspose(
            filters=num_outputs, kernel_size=kernel_size, strides=stride, padding=padding,
            data_format=data_format, activation=None,
            use_bias=not normalizer_fn and biases_initializer is not None,
            kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
            kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
            trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc,
            _reuse=reuse)
        return apply_layer(layer, inputs, sc, normalizer_fn, normalizer_params, activation_fn,
                           variables_collections, outputs_collections)


conv2d_transpose = convolution2d_transpose


@add_arg_scope
def separable_convolution2d(inputs, num_outputs, kernel_size, depth_multiplier=1, stride=1,
                            padding="SAME", data_format="NHWC", rate=1,
                            activation_fn=nn_ops.relu, normalizer_fn=None,
                            normalizer_params=None, weights_initializer=xavier_initializer(),
                            pointwise_initializer=None, weights_regularizer=None,
                            biases_initializer=init_ops.zeros_initializer(),
                            biases_regularizer=None, reuse=None, variables_collections=None,
                            outputs_collections=None, trainable=True, scope=None):
    """A depthwise convolution (depth_multiplier filters per input channel), then, unless
    num_outputs is None, a 1x1 convolution to num_outputs channels."""
    if pointwise_initializer is None:
        pointwise_initializer = weights_initializer
    getter = _model_variable_getter({"bias": "biases", "depthwise_kernel": "depthwise_weights",
                                     "pointwise_kernel": "pointwise_weights"})
    with vs.variable_scope(scope, "SeparableConv2d", [inputs], reuse=reuse,
                           custom_getter=getter) as sc:
        inputs = convert_to_tensor(inputs)
        channels = _channels(data_format)
        if num_outputs is not None:
            layer = convolutional_layers.SeparableConv2D(
                filters=num_outputs, kernel_size=kernel_size, strides=stride, padding=padding,
                data_format=channels, dilation_rate=normalize_tuple(rate, 2, "rate"),
                activation=None, depth_multiplier=depth_multiplier,
                use_bias=not normalizer_fn and biases_initializer is not None,
                depthwise_initializer=weights_initializer,
                pointwise_initializer=pointwise_initializer,
                bias_initializer=biases_initializer, depthwise_regularizer=weights_regularizer,
                pointwise_regularizer=weights_regularizer, bias_regularizer=biases_regularizer,
                trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc,
                _reuse=reuse)
            return apply_layer(layer, inputs, sc, normalizer_fn, normalizer_params,
                               activation_fn, variables_collections, outputs_collections)
        outputs = _depthwise_only(inputs, kernel_size, depth_multiplier, stride, padding,
                                  data_format, rate, normalizer_fn, normalizer_params,
                                  weights_initializer, weights_regularizer, biases_initializer,
                                  biases_regularizer, variables_collections, trainable)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


separable_conv2d = separable_convolution2d


def _depthwise_only(inputs, kernel_size, depth_multiplier, stride, padding, data_format, rate,
                    normalizer_fn, normalizer_params, weights_initializer, weights_regularizer,
                    biases_initializer, biases_regularizer, variables_collections, trainable):
    """separable_conv2d(num_outputs=None): the depthwise convolution, then biases (or the
    normalizer)."""
    dtype = inputs.dtype.base_dtype
    kernel_h, kernel_w = normalize_tuple(kernel_size, 2, "kernel_size")
    stride_h, stride_w = normalize_tuple(stride, 2, "stride")
    shape = inputs.get_shape().as_list()
    if len(shape) != 4 or shape[1 if data_format == "NCHW" else -1] is None:
        raise ValueError(f"separable_conv2d: inputs must be 4-D with a known channel "
                         f"dimension, got shape {shape}.")
    num_filters_in = shape[1 if data_format == "NCHW" else -1]
    depthwise_weights = model_variable(
        "depthwise_weights", shape=[kernel_h, kernel_w, num_filters_in, depth_multiplier],
        dtype=dtype, initializer=weights_initializer, regularizer=weights_regularizer,
        trainable=trainable, collections=_variable_collections(variables_collections, "weights"))
    strides = [1, 1, stride_h, stride_w] if data_format == "NCHW" else [1, stride_h, stride_w, 1]
    outputs = depthwise_conv_ops.depthwise_conv2d(
        inputs, depthwise_weights, strides, padding, rate=normalize_tuple(rate, 2, "rate"),
        data_format=data_format)
    if normalizer_fn is not None:
        return normalizer_fn(outputs, **(normalizer_params or {}))
    if biases_initializer is None:
        return outputs
    biases = model_variable(
        "biases", shape=[depth_multiplier * num_filters_in], dtype=dtype,
        initializer=biases_initializer, regularizer=biases_regularizer, trainable=trainable,
        collections=_variable_collections(variables_collections, "biases"))
    return nn_ops.bias_add(outputs, biases, data_format=data_format)
