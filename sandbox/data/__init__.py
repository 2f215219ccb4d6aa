"""`tf.data` -- mirrors TensorFlow 1.x's tf.data (python/data/ops/dataset_ops.py, iterator_ops.py).

(Being written: issue 27.)
"""

__all__ = []
