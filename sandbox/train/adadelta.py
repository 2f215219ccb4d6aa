"""AdadeltaOptimizer -- mirrors TensorFlow 1.x's python/training/adadelta.py.

(Being written: issue 27.)
"""

__all__ = []
