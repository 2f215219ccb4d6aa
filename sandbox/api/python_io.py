"""`tf.python_io` -- the names of TensorFlow 1.x's tf.python_io namespace (TFRecordWriter, tf_record_iterator).

(Being written: issue 27.)
"""

__all__ = []
