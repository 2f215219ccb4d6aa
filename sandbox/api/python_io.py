"""`tf.python_io` -- the names of TensorFlow 1.x's tf.python_io namespace (TF's generated
api/_v1/python_io/__init__.py): TFRecord files, written and read in Python.

    with tf.python_io.TFRecordWriter(path) as writer:          # or options="GZIP"
        writer.write(b"one record")
    records = list(tf.python_io.tf_record_iterator(path))

The format and the code are in sandbox/platform/tf_record.py; tf.data.TFRecordDataset reads
the same files inside a graph (sandbox/data/readers.py).
"""
from ..platform.tf_record import (  # noqa: F401
    TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator)

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator"]
