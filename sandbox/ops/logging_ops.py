"""Printing from a graph -- mirrors TensorFlow 1.x's python/ops/logging_ops.py (tf.Print, tf.print).

(Being written: issue 27.)
"""

__all__ = []
