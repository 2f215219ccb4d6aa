"""Assertions -- mirrors TensorFlow 1.x's python/ops/check_ops.py (tf.assert_equal, tf.assert_positive ...).

(Being written: issue 27.)
"""

__all__ = []
