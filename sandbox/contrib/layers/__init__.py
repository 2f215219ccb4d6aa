"""`tf.contrib.layers` -- mirrors the commonly used part of TensorFlow 1.15's contrib/layers
(contrib/layers/python/layers/layers.py, initializers.py, regularizers.py).

    layers.py        fully_connected (relu by default; 'fully_connected/weights', '/biases'),
                     conv2d, max_pool2d, avg_pool2d, dropout, batch_norm, flatten
    initializers.py  xavier_initializer, xavier_initializer_conv2d,
                     variance_scaling_initializer
    regularizers.py  l1_regularizer, l2_regularizer, l1_l2_regularizer, sum_regularizer,
                     apply_regularization
"""
from .initializers import (xavier_initializer, xavier_initializer_conv2d,
                           variance_scaling_initializer)
from .regularizers import (l1_regularizer, l2_regularizer, l1_l2_regularizer, sum_regularizer,
                           apply_regularization)
from .layers import (fully_connected, conv2d, convolution2d, max_pool2d, avg_pool2d, dropout,
                     batch_norm, flatten)

__all__ = ["xavier_initializer", "xavier_initializer_conv2d", "variance_scaling_initializer",
           "l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer",
           "apply_regularization", "fully_connected", "conv2d", "convolution2d", "max_pool2d",
           "avg_pool2d", "dropout", "batch_norm", "flatten"]
