"""`tf.estimator` -- mirrors TensorFlow 1.x's Estimator (tensorflow_estimator/python/estimator/).

(Being written: issue 27.)
"""

__all__ = []
