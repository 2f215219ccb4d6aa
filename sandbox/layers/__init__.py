"""`tf.layers` -- mirrors TensorFlow 1.x's tf.layers (python/layers/, keras-backed in TF 1.15).

(Being written: issue 27.)
"""

__all__ = []
