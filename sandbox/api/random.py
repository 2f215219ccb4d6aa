"""`tf.random` -- the names of TensorFlow 1.x's tf.random namespace.

(Being written: issue 27.)
"""

__all__ = []
