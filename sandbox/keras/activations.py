"""keras.activations -- mirrors TensorFlow 1.15's python/keras/activations.py.

Functions of a tensor: relu, softmax, sigmoid ... `get('relu')` turns the name a layer was
given into the function ('linear' and None into the identity); a saved config holds the name
(serialize), and deserialize looks it up again (in custom_objects first).
"""
from ..ops import basic_math_ops, nn_ops
from . import backend as K
from .backend import sigmoid, softmax, softplus, softsign, tanh   # the same functions as K's

__all__ = ["relu", "elu", "selu", "softmax", "softplus", "softsign", "sigmoid", "tanh",
           "hard_sigmoid", "exponential", "linear", "get", "serialize", "deserialize"]


def relu(x, alpha=0.0, max_value=None, threshold=0):
    """max(x, 0); alpha: the slope below threshold; max_value: a ceiling (K.relu)."""
    return K.relu(x, alpha=alpha, max_value=max_value, threshold=threshold)


def elu(x, alpha=1.0):
    return K.elu(x, alpha)


def selu(x):
    return nn_ops.selu(x)


def exponential(x):
    return basic_math_ops.exp(x)


def hard_sigmoid(x):
    return K.hard_sigmoid(x)


def linear(x):
    return x


_BY_NAME = {f.__name__: f for f in (relu, elu, selu, softmax, softplus, softsign, sigmoid,
                                    tanh, hard_sigmoid, exponential, linear)}


def get(identifier):
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    raise ValueError(f"Unknown activation function:{identifier}")


def serialize(activation):
    return getattr(activation, "__name__", str(activation))


def deserialize(name, custom_objects=None):
    """The activation function called `name` (custom_objects are looked at first)."""
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if name not in _BY_NAME:
        raise ValueError(f"Unknown activation function:{name}. Please ensure this object is "
                         "passed to the `custom_objects` argument.")
    return _BY_NAME[name]
