"""Batches of parsed tf.train.Examples -- mirrors TF 1.15's
`tf.data.experimental.make_batched_features_dataset` (python/data/experimental/ops/readers.py)
and `parse_example_dataset` (parsing_ops.py).

    features = {"image": tf.FixedLenFeature([784], tf.float32),
                "label": tf.FixedLenFeature([], tf.int64)}
    dataset = tf.data.experimental.make_batched_features_dataset(
        "train-*.tfrecord", batch_size=100, features=features, label_key="label",
        num_epochs=1)                             # elements: ({"image": [100, 784]}, [100])

parse_example_dataset(features) turns a dataset of vectors of serialized Examples (a batch of
records) into a dataset of dicts of parsed features: tf.parse_example on each element.
make_batched_features_dataset is TF's composition: the files matching file_pattern
(list_files, shuffled unless shuffle=False), read by `reader` (TFRecordDataset) through
parallel_interleave(cycle_length=reader_num_threads), shuffle_and_repeat (or repeat), batch
(drop_remainder when drop_final_batch or num_epochs is None), parse_example_dataset, then the
label split off.

The sandbox's datasets hold dense tensors only: features of FixedLenFeature and
FixedLenSequenceFeature are supported; VarLenFeature and SparseFeature, which parse into
tf.SparseTensor, raise NotImplementedError.
"""
from ..framework import dtypes as _dtypes
from ..ops.parsing_ops import FixedLenFeature, FixedLenSequenceFeature, parse_example
from .dataset_ops import DatasetV1
from .experimental_interleave import parallel_interleave
from .experimental_transformations import shuffle_and_repeat
from .readers import TFRecordDataset

__all__ = ["parse_example_dataset", "make_batched_features_dataset"]


def _check_dense(features):
    for key, feature in sorted(features.items()):
        if not isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            raise NotImplementedError(
                f"Feature {key!r} is a {type(feature).__name__}, which parses into a "
                "tf.SparseTensor, and the sandbox's datasets hold dense tensors only. Use a "
                "tf.FixedLenFeature (or FixedLenSequenceFeature with allow_missing=True), or "
                "parse the batches with tf.parse_example outside the dataset.")


def parse_example_dataset(features, num_parallel_calls=1):
    """A transformation (for dataset.apply) that parses each element -- a vector of
    serialized tf.train.Examples -- into a dict of feature tensors (FixedLenFeatures)."""
    if features is None:
        raise ValueError(f"Missing: features was {features}.")
    _check_dense(features)

    def _apply_fn(dataset):
        specs = dataset._flat_specs()
        if len(specs) != 1 or specs[0].dtype != _dtypes.string or \
                not specs[0].shape.is_compatible_with([None]):
            raise TypeError("Input dataset should be a dataset of vectors of strings")
        return dataset.map(lambda serialized: parse_example(serialized, features))

    return _apply_fn


def make_batched_features_dataset(file_pattern, batch_size, features,
                                  reader=TFRecordDataset, label_key=None, reader_args=None,
                                  num_epochs=None, shuffle=True, shuffle_buffer_size=10000,
                                  shuffle_seed=None, prefetch_buffer_size=None,
                                  reader_num_threads=1, parser_num_threads=2,
                                  sloppy_ordering=False, drop_final_batch=False):
    """Batches of parsed Examples from the files of `file_pattern`: each element is a dict of
    feature batches, or (that dict, label batch) with label_key. Repeats forever unless
    num_epochs is given, shuffled unless shuffle=False."""
    _check_dense(features)
    dataset = DatasetV1.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    reader_args = [] if reader_args is None else reader_args
    dataset = dataset.apply(parallel_interleave(
        lambda filename: reader(filename, *reader_args), cycle_length=reader_num_threads,
        sloppy=sloppy_ordering))
    if dataset.output_types == (_dtypes.string, _dtypes.string):       # (key, value) records
        dataset = dataset.map(lambda _, v: v)
    if num_epochs != 1 and shuffle:
        dataset = dataset.apply(shuffle_and_repeat(shuffle_buffer_size, num_epochs,
                                                   shuffle_seed))
    elif shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    elif num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    dataset = dataset.apply(parse_example_dataset(features, num_parallel_calls=parser_num_threads))
    if label_key:
        if label_key not in features:
            raise ValueError(f"The `label_key` provided ({label_key!r}) must be one of the "
                             "`features` keys.")
        dataset = dataset.map(lambda x: (x, x.pop(label_key)))
    return dataset.prefetch(-1 if prefetch_buffer_size is None else prefetch_buffer_size)
