"""`tf.math` -- the names of TensorFlow 1.x's tf.math namespace.

(Being written: issue 27.)
"""

__all__ = []
