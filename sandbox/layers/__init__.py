"""`tf.layers` -- mirrors TensorFlow 1.15's tf.layers namespace (python/layers/layers.py).

Layers are objects that own variables and build ops from them each time they are called
(base.py explains the naming and the reuse rules). Each comes in two forms, a class and a
function that makes one layer and calls it once:

    h = tf.layers.conv2d(images, 32, 5, padding='same', activation=tf.nn.relu)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.flatten(h)
    h = tf.layers.dense(h, 1024, activation=tf.nn.relu)
    h = tf.layers.dropout(h, rate=0.4, training=is_training)
    logits = tf.layers.dense(h, 10)

Variables are made with tf.get_variable, so tf.train.replica_device_setter puts them on the
parameter servers like any other.

    core.py           Dense, Dropout, Flatten
    convolutional.py  Conv1D, Conv2D, Conv3D, Conv2DTranspose, Conv3DTranspose,
                      SeparableConv1D, SeparableConv2D
    pooling.py        MaxPooling1D/2D/3D, AveragePooling1D/2D/3D
    normalization.py  BatchNormalization (its moving averages go to tf.GraphKeys.UPDATE_OPS)
"""
from .base import Layer, InputSpec
from .core import Dense, Dropout, Flatten, dense, dropout, flatten
from .convolutional import (Conv1D, Conv2D, Conv3D, Conv2DTranspose, Conv3DTranspose,
                            SeparableConv1D, SeparableConv2D, conv1d, conv2d, conv3d,
                            conv2d_transpose, conv3d_transpose, separable_conv1d,
                            separable_conv2d)
from .pooling import (MaxPooling1D, AveragePooling1D, MaxPooling2D, AveragePooling2D,
                      MaxPooling3D, AveragePooling3D, max_pooling1d, average_pooling1d,
                      max_pooling2d, average_pooling2d, max_pooling3d, average_pooling3d)
from .normalization import BatchNormalization, batch_normalization

__all__ = ["Layer", "InputSpec", "Dense", "Dropout", "Flatten", "dense", "dropout", "flatten",
           "Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose",
           "SeparableConv1D", "SeparableConv2D", "conv1d", "conv2d", "conv3d",
           "conv2d_transpose", "conv3d_transpose", "separable_conv1d", "separable_conv2d",
           "MaxPooling1D", "AveragePooling1D", "MaxPooling2D", "AveragePooling2D",
           "MaxPooling3D", "AveragePooling3D", "max_pooling1d", "average_pooling1d",
           "max_pooling2d", "average_pooling2d", "max_pooling3d", "average_pooling3d",
           "BatchNormalization", "batch_normalization"]
