"""keras.preprocessing -- mirrors TensorFlow 1.15's python/keras/preprocessing/: image, sequence, text."""
from . import image, sequence, text

__all__ = ["image", "sequence", "text"]
