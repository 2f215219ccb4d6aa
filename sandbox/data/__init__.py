"""`tf.data` -- mirrors TensorFlow 1.15's tf.data (python/data/ops/dataset_ops.py,
iterator_ops.py, options.py).

    dataset = tf.data.Dataset.from_tensor_slices((images, labels))
    dataset = dataset.shuffle(1000, seed=1).map(preprocess).batch(100).repeat(5)
    next_batch = dataset.make_one_shot_iterator().get_next()
    records = tf.data.TFRecordDataset(["a.tfrecords", "b.tfrecords"])

The datasets are in dataset_ops.py, the file readers in readers.py, the iterators in
iterator_ops.py; what runs on the task that holds an iterator is in sandbox/ops/dataset_ops.py
(the iterator ops), sandbox/ops/dataset_pipeline.py (the transformations and the file readers'
kernels) and sandbox/ops/dataset_function.py (the traced functions of map, filter, flat_map
and interleave).
"""
from .dataset_ops import Dataset, DatasetV1, DatasetSpec, get_output_types, \
    get_output_shapes, get_output_classes
from .options import Options
from .readers import TFRecordDataset, TextLineDataset, FixedLengthRecordDataset
from .iterator_ops import Iterator, make_one_shot_iterator, make_initializable_iterator
from . import experimental
from .experimental import AUTOTUNE

__all__ = ["Dataset", "DatasetV1", "Iterator", "make_one_shot_iterator",
           "make_initializable_iterator", "get_output_types", "get_output_shapes",
           "get_output_classes", "TFRecordDataset", "TextLineDataset",
           "FixedLengthRecordDataset", "experimental", "AUTOTUNE", "DatasetSpec", "Options"]
