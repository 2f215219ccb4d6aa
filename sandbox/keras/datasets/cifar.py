"""The CIFAR batch files -- mirrors TensorFlow 1.15's python/keras/datasets/cifar.py.

A batch file is a Python pickle of a dict with bytes keys: b'data' (n, 3072) uint8 -- each
row the 1024 red, then green, then blue values of a 32x32 image -- and b'labels' (CIFAR-10) or
b'fine_labels' / b'coarse_labels' (CIFAR-100), lists of ints.
"""
import pickle

__all__ = ["load_batch"]


def load_batch(fpath, label_key="labels"):
    """(data (n, 3, 32, 32) uint8, labels list) of one batch file."""
    with open(fpath, "rb") as f:
        d = pickle.load(f, encoding="bytes")
    d = {(k.decode("utf8") if isinstance(k, bytes) else k): v for k, v in d.items()}
    data = d["data"]
    return data.reshape(data.shape[0], 3, 32, 32), d[label_key]
