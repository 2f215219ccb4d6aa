"""keras.preprocessing.sequence -- mirrors TensorFlow 1.15's python/keras/preprocessing/sequence.py
(keras_preprocessing's sequence module): lists of word ids made rectangular, word2vec's
skip-gram pairs, and batches of windows over a time series.

    pad_sequences([[1, 2, 3], [4]], maxlen=2)    ->  [[2, 3], [0, 4]]   (int32; 'pre' both ways)
    couples, labels = skipgrams([1, 2, 3], vocabulary_size=4, window_size=1)
    TimeseriesGenerator(data, targets, length=3, batch_size=2)[0]  ->  (x (2, 3, ...), y (2, ...))

Everything is NumPy and Python's `random` (skipgrams), as in TF: nothing is a graph op.
"""
import json
import random

import numpy as np

from ..utils import Sequence

__all__ = ["pad_sequences", "make_sampling_table", "skipgrams", "TimeseriesGenerator"]


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.):
    """A (len(sequences), maxlen) array of the sequences: shorter ones filled with `value`
    before ('pre') or after ('post'), longer ones cut at the start ('pre') or the end ('post').
    maxlen defaults to the longest sequence; entries may be vectors (the array gets their
    shape as trailing dimensions)."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape = [], ()
    for x in sequences:
        try:
            lengths.append(len(x))
        except TypeError:
            raise ValueError("`sequences` must be a list of iterables. Found non-iterable: "
                             + str(x)) from None
        if not sample_shape and len(x):
            sample_shape = np.asarray(x).shape[1:]
    if maxlen is None:
        maxlen = int(np.max(lengths)) if lengths else 0
    is_text = np.issubdtype(dtype, np.str_)
    if isinstance(value, str) and dtype != object and not is_text:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: "
                         f"{type(value)}\nYou should set `dtype=object` for variable length "
                         "strings.")
    x = np.full((len(sequences), maxlen) + tuple(sample_shape), value, dtype=dtype)
    for row, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            trunc = s[-maxlen:]
        elif truncating == "post":
            trunc = s[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {trunc.shape[1:]} of sequence at position {row} "
                             f"is different from expected shape {sample_shape}")
        if padding == "post":
            x[row, :len(trunc)] = trunc
        elif padding == "pre":
            x[row, maxlen - len(trunc):] = trunc
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return x


def make_sampling_table(size, sampling_factor=1e-5):
    """p[i]: the probability of keeping the i-th most common word (word2vec's subsampling,
    with Zipf's law standing in for the word frequencies)."""
    gamma = 0.577
    rank = np.arange(size)
    rank[0] = 1
    inv_fq = rank * (np.log(rank) + gamma) + 0.5 - 1. / (12. * rank)
    f = sampling_factor * inv_fq
    return np.minimum(1., f / np.sqrt(f))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1., shuffle=True,
              categorical=False, sampling_table=None, seed=None):
    """(couples, labels): [word, neighbour] pairs within `window_size` labelled 1, and
    negative_samples times as many [word, random word] pairs labelled 0 ([0, 1] / [1, 0]
    when categorical). Word id 0 is not a word and is skipped."""
    couples, labels = [], []
    for i, wi in enumerate(sequence):
        if not wi:
            continue
        if sampling_table is not None and sampling_table[wi] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([wi, sequence[j]])
                labels.append([0, 1] if categorical else 1)
    if negative_samples > 0:
        num_negative = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, vocabulary_size - 1)]
                    for i in range(num_negative)]
        labels += ([[1, 0]] if categorical else [0]) * num_negative
    if shuffle:
        if seed is None:
            seed = random.randint(0, 10e6)
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels


def _remove_long_seq(maxlen, seq, label):
    """The (sequence, label) pairs whose sequence is shorter than maxlen (datasets use it)."""
    kept = [(x, y) for x, y in zip(seq, label) if len(x) < maxlen]
    return [x for x, _ in kept], [y for _, y in kept]


class TimeseriesGenerator(Sequence):
    """Batches of windows over `data`: sample k of batch b ends just before row
    r = start_index + length + (b * batch_size + k) * stride and takes
    data[r - length : r : sampling_rate]; its target is targets[r]."""

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0,
                 end_index=None, shuffle=False, reverse=False, batch_size=128):
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is "
                             f"{len(data)} while target length is {len(targets)}")
        self.data, self.targets = data, targets
        self.length, self.sampling_rate, self.stride = length, sampling_rate, stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle, self.reverse, self.batch_size = shuffle, reverse, batch_size
        if self.start_index > self.end_index:
            raise ValueError("`start_index+length=%i > end_index=%i` is disallowed, as no part "
                             "of the sequence would be left to be used as current step."
                             % (self.start_index, self.end_index))

    def __len__(self):
        step = self.batch_size * self.stride
        return (self.end_index - self.start_index + step) // step

    def __getitem__(self, index):
        if self.shuffle:
            rows = np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        else:
            i = self.start_index + self.batch_size * self.stride * index
            rows = np.arange(i, min(i + self.batch_size * self.stride, self.end_index + 1),
                             self.stride)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate]
                            for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        if self.reverse:
            return samples[:, ::-1, ...], targets
        return samples, targets

    def get_config(self):
        def as_json(values, what):
            if isinstance(values, np.ndarray):
                values = values.tolist()
            try:
                return json.dumps(values)
            except TypeError:
                raise TypeError(f"{what} not JSON Serializable:", values) from None

        return {"data": as_json(self.data, "Data"), "targets": as_json(self.targets, "Targets"),
                "length": self.length, "sampling_rate": self.sampling_rate,
                "stride": self.stride, "start_index": self.start_index,
                "end_index": self.end_index, "shuffle": self.shuffle, "reverse": self.reverse,
                "batch_size": self.batch_size}

    def to_json(self, **kwargs):
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()},
                          **kwargs)
