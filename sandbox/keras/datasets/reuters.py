"""keras.datasets.reuters -- mirrors TensorFlow 1.15's python/keras/datasets/reuters.py.

    (x_train, y_train), (x_test, y_test) = keras.datasets.reuters.load_data(num_words=10000)

reuters.npz holds x (11228 newswires as lists of word ranks) and y (46 topics). They are
shuffled (RandomState(seed)), renumbered as datasets/sequences.py says, and the last
test_split of them are the test set.
"""
import json

import numpy as np

from . import sequences
from .cache import BASE_URL, fetch

__all__ = ["load_data", "get_word_index"]

FILE_HASH = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
WORD_INDEX_HASH = "4d44cc38712099c9e383dc6e5f11a921"


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2,
              seed=113, start_char=1, oov_char=2, index_from=3, **kwargs):
    num_words = sequences.check_kwargs(kwargs) or num_words
    path = fetch(path, origin=BASE_URL + "reuters.npz", file_hash=FILE_HASH)
    with np.load(path, allow_pickle=True) as f:
        xs, labels = f["x"], f["y"]
    xs, labels = sequences.shuffled(np.random.RandomState(seed), xs, labels)
    xs = sequences.renumber(xs, start_char, index_from)
    xs, labels = sequences.drop_long(maxlen, xs, labels)
    xs = sequences.keep_vocabulary(xs, num_words, skip_top, oov_char)
    idx = int(len(xs) * (1 - test_split))
    return ((sequences.object_array(xs[:idx]), np.array(labels[:idx])),
            (sequences.object_array(xs[idx:]), np.array(labels[idx:])))


def get_word_index(path="reuters_word_index.json"):
    """{word: rank} of the newswires' words."""
    path = fetch(path, origin=BASE_URL + "reuters_word_index.json",
                 file_hash=WORD_INDEX_HASH)
    with open(path) as f:
        return json.load(f)
