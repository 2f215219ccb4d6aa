"""`tf.contrib.layers` -- mirrors the commonly used part of TensorFlow 1.15's contrib/layers
(contrib/layers/python/layers/layers.py, initializers.py, regularizers.py, optimizers.py,
summaries.py, encoders.py).

    layers.py         fully_connected (relu by default; 'fully_connected/weights', '/biases'),
                      conv2d, max_pool2d, avg_pool2d, dropout, batch_norm, flatten
    convolutional.py  conv2d_transpose, separable_conv2d
    normalization.py  layer_norm, unit_norm
    core.py           bias_add, softmax, one_hot_encoding, embed_sequence, repeat, stack
    initializers.py   xavier_initializer, xavier_initializer_conv2d,
                      variance_scaling_initializer
    regularizers.py   l1_regularizer, l2_regularizer, l1_l2_regularizer, sum_regularizer,
                      apply_regularization
    optimizers.py     optimize_loss, OPTIMIZER_CLS_NAMES, OPTIMIZER_SUMMARIES
    summaries.py      summarize_activation, summarize_tensor(s), summarize_collection ...

Every layer function is decorated with tf.contrib.framework.add_arg_scope, so
`with arg_scope([conv2d], padding='VALID'):` sets its defaults.
"""
from .initializers import (xavier_initializer, xavier_initializer_conv2d,
                           variance_scaling_initializer)
from .regularizers import (l1_regularizer, l2_regularizer, l1_l2_regularizer, sum_regularizer,
                           apply_regularization)
from .layers import (fully_connected, conv2d, convolution2d, max_pool2d, avg_pool2d, dropout,
                     batch_norm, flatten)
from .convolutional import (conv2d_transpose, convolution2d_transpose, separable_conv2d,
                            separable_convolution2d)
from .normalization import layer_norm, unit_norm
from .core import bias_add, softmax, one_hot_encoding, embed_sequence, repeat, stack
from .optimizers import optimize_loss, OPTIMIZER_CLS_NAMES, OPTIMIZER_SUMMARIES
from .summaries import (summarize_activation, summarize_activations, summarize_tensor,
                        summarize_tensors, summarize_collection, summarize_variables,
                        summarize_weights, summarize_biases)

__all__ = ["xavier_initializer", "xavier_initializer_conv2d", "variance_scaling_initializer",
           "l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer",
           "apply_regularization", "fully_connected", "conv2d", "convolution2d", "max_pool2d",
           "avg_pool2d", "dropout", "batch_norm", "flatten", "conv2d_transpose",
           "convolution2d_transpose", "separable_conv2d", "separable_convolution2d",
           "layer_norm", "unit_norm", "bias_add", "softmax", "one_hot_encoding",
           "embed_sequence", "repeat", "stack", "optimize_loss", "OPTIMIZER_CLS_NAMES",
           "OPTIMIZER_SUMMARIES", "summarize_activation", "summarize_activations",
           "summarize_tensor", "summarize_tensors", "summarize_collection",
           "summarize_variables", "summarize_weights", "summarize_biases"]
