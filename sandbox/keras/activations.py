"""keras.activations -- mirrors TensorFlow 1.15's python/keras/activations.py.

Functions of a tensor: relu, softmax, sigmoid ... `get('relu')` turns the name a layer was
given into the function ('linear' and None into the identity); a saved config holds the name
(serialize), and deserialize looks it up again (in custom_objects first).
"""
from ..ops import basic_math_ops, clip_ops, nn_ops

__all__ = ["relu", "elu", "selu", "softmax", "softplus", "softsign", "sigmoid", "tanh",
           "hard_sigmoid", "exponential", "linear", "get", "serialize", "deserialize"]


def softmax(x, axis=-1):
    return nn_ops.softmax(x, axis=axis)


def relu(x, alpha=0.0, max_value=None, threshold=0):
    if alpha == 0.0 and max_value is None and threshold == 0:
        return nn_ops.relu(x)
    if alpha == 0.0 and max_value == 6 and threshold == 0:
        return nn_ops.relu6(x)
    if threshold != 0 or max_value is not None:
        raise NotImplementedError("relu with threshold or max_value other than 6")
    return nn_ops.leaky_relu(x, alpha=alpha)


def elu(x, alpha=1.0):
    if alpha != 1.0:
        raise NotImplementedError("elu with alpha != 1")
    return nn_ops.elu(x)


def selu(x):
    return nn_ops.selu(x)


def softplus(x):
    return nn_ops.softplus(x)


def softsign(x):
    return nn_ops.softsign(x)


def sigmoid(x):
    return basic_math_ops.sigmoid(x)


def tanh(x):
    return basic_math_ops.tanh(x)


def exponential(x):
    return basic_math_ops.exp(x)


def hard_sigmoid(x):
    return clip_ops.clip_by_value(x * 0.2 + 0.5, 0.0, 1.0)


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
