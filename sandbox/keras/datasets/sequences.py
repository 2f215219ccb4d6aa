"""What imdb and reuters do to their word-id sequences -- the shared part of TensorFlow
1.15's python/keras/datasets/imdb.py and reuters.py.

The files keep each text as word ranks (1 = the most frequent word). load_data shifts them by
index_from (ids 0, 1, 2 mean padding, start, out-of-vocabulary), puts start_char first,
drops sequences of maxlen words or more, and turns ranks outside [skip_top, num_words) into
oov_char (or drops them when oov_char is None).
"""
import numpy as np

from ..preprocessing.sequence import _remove_long_seq

__all__ = ["shuffled", "renumber", "drop_long", "keep_vocabulary", "object_array",
           "check_kwargs"]


def check_kwargs(kwargs):
    """TF's handling of the old nb_words argument: num_words (or None)."""
    num_words = None
    if "nb_words" in kwargs:
        print("WARNING: The `nb_words` argument in `load_data` has been renamed `num_words`.")
        num_words = kwargs.pop("nb_words")
    if kwargs:
        raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
    return num_words


def shuffled(rng, *arrays):
    """The arrays in one random order (the same permutation for each)."""
    indices = np.arange(len(arrays[0]))
    rng.shuffle(indices)
    return [a[indices] for a in arrays]


def renumber(xs, start_char, index_from):
    if start_char is not None:
        return [[start_char] + [w + index_from for w in x] for x in xs]
    if index_from:
        return [[w + index_from for w in x] for x in xs]
    return [list(x) for x in xs]


def drop_long(maxlen, xs, labels):
    return _remove_long_seq(maxlen, xs, labels) if maxlen else (xs, labels)


def keep_vocabulary(xs, num_words, skip_top, oov_char):
    if not num_words:
        num_words = max(max(x) for x in xs)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    return [[w for w in x if skip_top <= w < num_words] for x in xs]


def object_array(lists):
    """A 1-D array of lists (dtype object), as TF returns the sequences."""
    out = np.empty(len(lists), dtype=object)
    out[:] = lists
    return out
