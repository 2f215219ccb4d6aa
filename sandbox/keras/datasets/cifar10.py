"""keras.datasets.cifar10 -- mirrors TensorFlow 1.15's python/keras/datasets/cifar10.py.

    (x_train, y_train), (x_test, y_test) = keras.datasets.cifar10.load_data()

x: uint8 (n, 32, 32, 3) ((n, 3, 32, 32) when keras.backend.image_data_format() is
'channels_first'), y: uint8 (n, 1), class ids 0..9. The files: ~/.keras/datasets/
cifar-10-batches-py/ (data_batch_1 ... data_batch_5, test_batch), unpacked from
cifar-10-python.tar.gz next to it, which is downloaded from TF's origin when missing.
"""
import os

import numpy as np

from .. import backend
from .cache import fetch
from .cifar import load_batch

__all__ = ["load_data"]

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"


def load_data():
    path = fetch("cifar-10-batches-py", origin=ORIGIN, untar=True)
    # TF fills arrays of 5 x 10000 rows; joining the batches gives the same arrays for the
    # real files and also reads smaller ones
    batches = [load_batch(os.path.join(path, f"data_batch_{i}")) for i in range(1, 6)]
    x_train = np.concatenate([x for x, _ in batches]).astype("uint8")
    y_train = np.concatenate([np.asarray(y) for _, y in batches]).astype("uint8")
    x_test, y_test = load_batch(os.path.join(path, "test_batch"))
    x_test = np.asarray(x_test).astype("uint8")
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(np.asarray(y_test), (len(y_test), 1)).astype("uint8")
    if backend.image_data_format() == "channels_last":
        x_train = x_train.transpose(0, 2, 3, 1)
        x_test = x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
