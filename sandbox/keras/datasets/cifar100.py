"""keras.datasets.cifar100 -- mirrors TensorFlow 1.15's python/keras/datasets/cifar100.py.

    (x_train, y_train), (x_test, y_test) = keras.datasets.cifar100.load_data(label_mode='fine')

x: uint8 (n, 32, 32, 3) (channels first when keras.backend says so), y: int64 (n, 1) -- the
100 'fine' classes or the 20 'coarse' superclasses. The files: ~/.keras/datasets/
cifar-100-python/ (train, test), unpacked from cifar-100-python.tar.gz.
"""
import os

import numpy as np

from .. import backend
from .cache import fetch
from .cifar import load_batch

__all__ = ["load_data"]

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"


def load_data(label_mode="fine"):
    if label_mode not in ["fine", "coarse"]:
        raise ValueError('`label_mode` must be one of `"fine"`, `"coarse"`.')
    path = fetch("cifar-100-python", origin=ORIGIN, untar=True)
    x_train, y_train = load_batch(os.path.join(path, "train"), label_key=label_mode + "_labels")
    x_test, y_test = load_batch(os.path.join(path, "test"), label_key=label_mode + "_labels")
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    if backend.image_data_format() == "channels_last":
        x_train = x_train.transpose(0, 2, 3, 1)
        x_test = x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
