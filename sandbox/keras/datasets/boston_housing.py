"""keras.datasets.boston_housing -- mirrors TensorFlow 1.15's
python/keras/datasets/boston_housing.py.

    (x_train, y_train), (x_test, y_test) = keras.datasets.boston_housing.load_data()

boston_housing.npz holds x (506, 13) float64 and y (506,): the rows are shuffled with
RandomState(seed) and the last test_split of them are the test set.
"""
import numpy as np

from .cache import BASE_URL, fetch

__all__ = ["load_data"]

FILE_HASH = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    assert 0 <= test_split < 1
    path = fetch(path, origin=BASE_URL + "boston_housing.npz", file_hash=FILE_HASH)
    with np.load(path, allow_pickle=True) as f:
        x, y = f["x"], f["y"]
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    split = int(len(x) * (1 - test_split))
    return (np.array(x[:split]), np.array(y[:split])), (np.array(x[split:]),
                                                         np.array(y[split:]))
