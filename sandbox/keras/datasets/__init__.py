"""keras.datasets -- mirrors TensorFlow 1.15's python/keras/datasets/ (MNIST only)."""
from . import mnist

__all__ = ["mnist"]
