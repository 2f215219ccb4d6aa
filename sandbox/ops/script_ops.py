"""Python inside a graph -- mirrors TensorFlow 1.x's python/ops/script_ops.py (tf.py_func).

(Being written: issue 27.)
"""

__all__ = []
