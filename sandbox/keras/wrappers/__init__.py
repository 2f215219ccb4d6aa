"""keras.wrappers -- mirrors TensorFlow 1.15's python/keras/wrappers/: scikit_learn."""
from . import scikit_learn

__all__ = ["scikit_learn"]
