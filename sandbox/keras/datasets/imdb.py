"""keras.datasets.imdb -- mirrors TensorFlow 1.15's python/keras/datasets/imdb.py.

    (x_train, y_train), (x_test, y_test) = keras.datasets.imdb.load_data(num_words=10000)
    word_index = keras.datasets.imdb.get_word_index()     # {'the': 1, ...}: ranks

imdb.npz holds x_train, y_train, x_test, y_test: 25000 + 25000 reviews as lists of word
ranks, labels 0 / 1. Each split is shuffled (RandomState(seed)), then renumbered as
datasets/sequences.py says: with the defaults, word of rank r is id r + 3, and every
sequence starts with 1. x: 1-D object arrays of lists; y: int arrays.
"""
import json

import numpy as np

from . import sequences
from .cache import BASE_URL, fetch

__all__ = ["load_data", "get_word_index"]

FILE_HASH = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"
WORD_INDEX_HASH = "bfafd718b763782e994055a2d397834f"


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113,
              start_char=1, oov_char=2, index_from=3, **kwargs):
    num_words = sequences.check_kwargs(kwargs) or num_words
    path = fetch(path, origin=BASE_URL + "imdb.npz", file_hash=FILE_HASH)
    with np.load(path, allow_pickle=True) as f:
        x_train, labels_train = f["x_train"], f["y_train"]
        x_test, labels_test = f["x_test"], f["y_test"]
    rng = np.random.RandomState(seed)
    x_train, labels_train = sequences.shuffled(rng, x_train, labels_train)
    x_test, labels_test = sequences.shuffled(rng, x_test, labels_test)
    x_train = sequences.renumber(x_train, start_char, index_from)
    x_test = sequences.renumber(x_test, start_char, index_from)
    x_train, labels_train = sequences.drop_long(maxlen, x_train, labels_train)
    x_test, labels_test = sequences.drop_long(maxlen, x_test, labels_test)
    if maxlen and (not x_train or not x_test):
        raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, no "
                         "sequence was kept. Increase maxlen.")
    xs = sequences.keep_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    idx = len(x_train)
    return ((sequences.object_array(xs[:idx]), labels[:idx]),
            (sequences.object_array(xs[idx:]), labels[idx:]))


def get_word_index(path="imdb_word_index.json"):
    """{word: rank} of the reviews' words (rank 1: the most frequent)."""
    path = fetch(path, origin=BASE_URL + "imdb_word_index.json", file_hash=WORD_INDEX_HASH)
    with open(path) as f:
        return json.load(f)
