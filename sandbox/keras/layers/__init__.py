"""keras.layers -- mirrors TensorFlow 1.15's python/keras/layers/ (the part the sandbox has:
core.py and convolutional.py)."""
from ..engine.base_layer import Input, InputLayer, Layer
from .convolutional import (AveragePooling2D, AvgPool2D, Conv2D, Convolution2D, MaxPool2D,
                            MaxPooling2D)
from .core import Activation, Dense, Dropout, Flatten, Lambda, Reshape

__all__ = ["Layer", "Input", "InputLayer", "Dense", "Dropout", "Flatten", "Activation",
           "Reshape", "Lambda", "Conv2D", "Convolution2D", "MaxPooling2D", "MaxPool2D",
           "AveragePooling2D", "AvgPool2D"]
