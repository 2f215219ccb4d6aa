"""`tf.metrics` -- mirrors TensorFlow 1.x's python/ops/metrics_impl.py.

(Being written: issue 27.)
"""

__all__ = []
