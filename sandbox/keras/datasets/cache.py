"""Where keras.datasets find their files -- the get_file step of TensorFlow 1.15's
python/keras/datasets/*.py.

    fetch('imdb.npz', origin=BASE + 'imdb.npz', file_hash=...)
        -> ~/.keras/datasets/imdb.npz, downloaded from `origin` only when it is not there yet
           (or its hash is not file_hash): keras.utils.get_file, as TF does it.
    fetch('/data/imdb.npz', ...)
        -> /data/imdb.npz as it is: a path to a file you already have is read without a hash
           check or a download (the convention of keras.datasets.mnist.load_data(path)).
"""
import os

from ..utils import get_file

__all__ = ["BASE_URL", "fetch"]

BASE_URL = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def fetch(path, origin, file_hash=None, **kwargs):
    """The local path of a dataset file: `path` itself when it has a folder part and exists,
    else get_file(path, origin, file_hash, **kwargs) in the Keras cache."""
    local = os.path.expanduser(os.fspath(path))
    if os.path.dirname(local) and os.path.exists(local):
        return local
    return get_file(path, origin=origin, file_hash=file_hash, **kwargs)
