"""keras.datasets.mnist -- mirrors TensorFlow 1.15's python/keras/datasets/mnist.py, without
the download.

    (x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data(path)

`path` is either Keras's mnist.npz (arrays x_train, y_train, x_test, y_test) or a folder with
the four IDX files of MNIST (train-images-idx3-ubyte.gz ...), read and checked by the
sandbox's MNIST reader (sandbox/datasets/mnist.py). The arrays are uint8, as Keras returns
them: images (n, 28, 28), labels (n,). Nothing is ever downloaded: a missing file is an error.
"""
import os

import numpy as np

from ...datasets import mnist as _idx

__all__ = ["load_data"]


def load_data(path="mnist.npz"):
    """((x_train, y_train), (x_test, y_test)) from an .npz file or a folder of IDX files."""
    path = os.path.expanduser(str(path))
    if os.path.isdir(path):
        missing = [name for name in _idx.FILES if not os.path.exists(os.path.join(path, name))]
        if missing:
            raise FileNotFoundError(f"MNIST IDX files {missing} not found in {path} (the "
                                    "sandbox's keras never downloads)")
        x_train, y_train, x_test, y_test = _idx._read_idx_files(path)
    elif os.path.isfile(path):
        with np.load(path, allow_pickle=False) as f:
            x_train, y_train = f["x_train"], f["y_train"]
            x_test, y_test = f["x_test"], f["y_test"]
    else:
        raise FileNotFoundError(f"{path}: no such .npz file or folder of MNIST IDX files. The "
                                "sandbox's keras does not download MNIST: pass load_data(path=) "
                                "a folder with train-images-idx3-ubyte.gz ... or an mnist.npz.")

    def images(a):
        a = np.asarray(a)
        return a.reshape(len(a), 28, 28).astype(np.uint8)

    def labels(a):
        a = np.asarray(a)
        if a.ndim == 2:
            a = a.argmax(axis=1)
        return a.astype(np.uint8)

    return (images(x_train), labels(y_train)), (images(x_test), labels(y_test))
