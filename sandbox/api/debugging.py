"""`tf.debugging` -- the names of TensorFlow 1.x's tf.debugging namespace.

(Being written: issue 27.)
"""

__all__ = []
