"""FtrlOptimizer -- mirrors TensorFlow 1.x's python/training/ftrl.py.

(Being written: issue 27.)
"""

__all__ = []
