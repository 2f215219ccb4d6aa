"""keras.datasets.fashion_mnist -- mirrors TensorFlow 1.15's
python/keras/datasets/fashion_mnist.py.

    (x_train, y_train), (x_test, y_test) = keras.datasets.fashion_mnist.load_data()

x: uint8 (n, 28, 28), y: uint8 (n,), 10 classes of clothing. The files: the four gzipped IDX
files of MNIST's layout in ~/.keras/datasets/fashion-mnist/, downloaded one by one from TF's
bucket when missing, and read (and checked) by the sandbox's MNIST reader.
"""
import os

from ...datasets import mnist as _idx
from .cache import BASE_URL, fetch

__all__ = ["load_data"]

FILES = ["train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
         "t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz"]


def _read(path):
    with open(path, "rb") as f:
        raw = _idx._gunzip(path, f.read())
    if "images" in os.path.basename(path):
        images = _idx.parse_images(path, raw)
        return images.reshape(images.shape[:3])
    return _idx.parse_labels(path, raw)


def load_data():
    dirname = os.path.join("datasets", "fashion-mnist")
    paths = [fetch(name, origin=BASE_URL + name, cache_subdir=dirname) for name in FILES]
    y_train, x_train, y_test, x_test = (_read(path) for path in paths)
    return (x_train, y_train), (x_test, y_test)
