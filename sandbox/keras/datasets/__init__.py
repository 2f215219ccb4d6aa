"""keras.datasets -- mirrors TensorFlow 1.15's python/keras/datasets/: each module's
load_data() returns ((x_train, y_train), (x_test, y_test)) as numpy arrays.

    boston_housing, cifar10, cifar100, fashion_mnist, imdb, reuters: TF's files, found in
        ~/.keras/datasets/ or downloaded there from TF's URLs (keras.utils.get_file); a
        `path=` naming a file you already have is read as it is (datasets/cache.py).
    mnist: load_data(path) from a local mnist.npz or folder of IDX files only.
"""
from . import boston_housing, cifar10, cifar100, fashion_mnist, imdb, mnist, reuters

__all__ = ["boston_housing", "cifar10", "cifar100", "fashion_mnist", "imdb", "mnist",
           "reuters"]
