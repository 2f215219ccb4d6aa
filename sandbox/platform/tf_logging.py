"""`tf.logging` -- mirrors TensorFlow 1.x's python/platform/tf_logging.py.

(Being written: issue 27.)
"""

__all__ = []
