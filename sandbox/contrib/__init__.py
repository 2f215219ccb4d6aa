"""`tf.contrib` -- the commonly used pieces of TensorFlow 1.x's contrib (tf.contrib.layers).

(Being written: issue 27.)
"""

__all__ = []
