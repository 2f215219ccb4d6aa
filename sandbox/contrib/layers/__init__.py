"""`tf.contrib.layers` -- mirrors TensorFlow 1.x's contrib/layers (layers.py, initializers.py, regularizers.py).

(Being written: issue 27.)
"""

__all__ = []
