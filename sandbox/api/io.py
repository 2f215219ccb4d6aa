"""`tf.io` -- the names of TensorFlow 1.x's tf.io namespace.

(Being written: issue 27.)
"""

__all__ = []
