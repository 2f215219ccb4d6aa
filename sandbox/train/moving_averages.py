"""ExponentialMovingAverage -- mirrors TensorFlow 1.x's python/training/moving_averages.py.

(Being written: issue 27.)
"""

__all__ = []
