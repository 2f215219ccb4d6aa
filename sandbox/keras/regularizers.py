"""keras.regularizers -- mirrors TensorFlow 1.15's python/keras/regularizers.py.

A regularizer maps a weight to a scalar penalty; a layer given one (kernel_regularizer=,
bias_regularizer=, embeddings_regularizer= ...) adds that penalty to its `losses` when it makes
the weight, and compile adds every layer's losses to the model's loss, as Keras does:

    keras.layers.Dense(64, activation='relu', kernel_regularizer=keras.regularizers.l2(0.001))
    # total loss = mean loss over the batch + 0.001 * sum(kernel ** 2)

l1(0.01) is 0.01 * sum(|w|), l2(0.01) is 0.01 * sum(w ** 2), l1_l2(l1=0.01, l2=0.01) both.
Layers also take the names 'l1', 'l2' and 'l1_l2' (each with 0.01).
"""
import numpy as np

from ..ops import basic_math_ops, math_ops, reduction_ops
from ..framework import dtypes as _dtypes

__all__ = ["Regularizer", "L1L2", "l1", "l2", "l1_l2", "get", "serialize", "deserialize"]


class Regularizer:
    """Base class: a callable from a weight tensor to a scalar loss."""

    def __call__(self, x):
        return 0.0

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    """L1L2(l1=0.0, l2=0.0): l1 * sum(|x|) + l2 * sum(x ** 2)."""

    def __init__(self, l1=0.0, l2=0.0):
        # Keras keeps the factors as float32 numbers (get_config shows 0.009999999776482582)
        self.l1 = float(np.float32(l1))
        self.l2 = float(np.float32(l2))

    def __call__(self, x):
        dtype = x.dtype.base_dtype if x.dtype.base_dtype.is_floating else _dtypes.float32
        regularization = None
        if self.l1:
            regularization = math_ops.multiply(
                self.l1, reduction_ops.reduce_sum(basic_math_ops.abs(x)))
        if self.l2:
            term = math_ops.multiply(self.l2, reduction_ops.reduce_sum(basic_math_ops.square(x)))
            regularization = term if regularization is None else regularization + term
        if regularization is None:
            return math_ops.cast(0.0, dtype)
        return regularization

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


def l1(l=0.01):                                            # noqa: E741 (Keras's name)
    return L1L2(l1=l)


def l2(l=0.01):                                            # noqa: E741
    return L1L2(l2=l)


def l1_l2(l1=0.01, l2=0.01):                               # noqa: E741
    return L1L2(l1=l1, l2=l2)


# TF 2.x saves l1(...) and l2(...) as the classes L1 and L2 ({'l2': 0.01}): read them too
_BY_NAME = {"l1": l1, "l2": l2, "l1_l2": l1_l2, "L1L2": L1L2, "L1": l1, "L2": l2}


def serialize(regularizer):
    if regularizer is None:
        return None
    return {"class_name": type(regularizer).__name__, "config": regularizer.get_config()}


def deserialize(config, custom_objects=None):
    name = config["class_name"]
    if custom_objects and name in custom_objects:
        return custom_objects[name].from_config(config.get("config", {}))
    if name not in _BY_NAME:
        raise ValueError(f"Unknown regularizer: {name}. Please ensure this object is passed "
                         "to the `custom_objects` argument.")
    return _BY_NAME[name](**config.get("config", {}))


def get(identifier):
    """None, a regularizer (any callable), its name ('l2'), or {'class_name', 'config'}."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        if identifier in _BY_NAME:
            return _BY_NAME[identifier]()
        raise ValueError(f"Unknown regularizer: {identifier}")
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")
