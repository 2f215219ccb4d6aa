"""`tf.gfile` / `tf.io.gfile` -- mirrors TensorFlow 1.x's python/platform/gfile.py (local files).

(Being written: issue 27.)
"""

__all__ = []
