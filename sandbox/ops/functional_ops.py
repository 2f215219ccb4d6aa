"""Higher-order functions -- mirrors TensorFlow 1.x's python/ops/functional_ops.py and map_fn.py (tf.map_fn, tf.foldl, tf.scan).

(Being written: issue 27.)
"""

__all__ = []
