"""keras.losses -- mirrors TensorFlow 1.15's python/keras/losses.py.

A loss function maps (y_true, y_pred) to one loss per sample; compile averages them over the
batch (Keras's SUM_OVER_BATCH_SIZE). The loss classes (MeanSquaredError(), Huber(delta=2) ...)
wrap those functions and do the averaging themselves when called; their get_config holds
'reduction', 'name' and the function's arguments. As in Keras, the cross-entropies of
probabilities made by a softmax (or sigmoid) op use that op's logits (keras.backend's
cross-entropies), so that no log(0) stops training.

    model.compile('adam', loss='kld')             # any name below, or a function, or a Loss
    keras.losses.get('huber_loss')                # the function
    keras.losses.serialize(keras.losses.Huber())  # {'class_name': 'Huber', 'config': {...}}
"""
import numpy as np

from ..framework.graph import get_default_graph
from ..framework.tensor import convert_to_tensor
from ..ops import (array_ops, basic_math_ops, clip_ops, comparison_ops, math_ops, nn_impl,
                   nn_ops, reduction_ops)
from . import backend as K
from .serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
           "mean_squared_logarithmic_error", "squared_hinge", "hinge", "categorical_hinge",
           "huber_loss", "logcosh", "log_cosh", "categorical_crossentropy",
           "sparse_categorical_crossentropy", "binary_crossentropy",
           "kullback_leibler_divergence", "poisson", "cosine_similarity", "cosine_proximity",
           "cosine", "mse", "MSE", "mae", "MAE", "mape", "MAPE", "msle", "MSLE", "kld", "KLD",
           "Loss", "LossFunctionWrapper", "MeanSquaredError", "MeanAbsoluteError",
           "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "Hinge",
           "SquaredHinge", "CategoricalHinge", "Huber", "LogCosh", "KLDivergence", "Poisson",
           "CosineSimilarity", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
           "BinaryCrossentropy", "get", "serialize", "deserialize"]


def _pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype.base_dtype)
    return y_true, y_pred


def _mean_last(x):
    return reduction_ops.reduce_mean(x, axis=-1)


# -- regression ------------------------------------------------------------------------------

def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return _mean_last(basic_math_ops.square(y_pred - y_true))


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return _mean_last(basic_math_ops.abs(y_pred - y_true))


def mean_absolute_percentage_error(y_true, y_pred):
    """100 * mean(|y_true - y_pred| / max(|y_true|, epsilon))."""
    y_true, y_pred = _pair(y_true, y_pred)
    diff = basic_math_ops.abs((y_true - y_pred) /
                              basic_math_ops.maximum(basic_math_ops.abs(y_true), K.epsilon()))
    return 100.0 * _mean_last(diff)


def mean_squared_logarithmic_error(y_true, y_pred):
    """mean((log(1 + y_pred) - log(1 + y_true)) ** 2), both kept above epsilon."""
    y_true, y_pred = _pair(y_true, y_pred)
    first = basic_math_ops.log(basic_math_ops.maximum(y_pred, K.epsilon()) + 1.0)
    second = basic_math_ops.log(basic_math_ops.maximum(y_true, K.epsilon()) + 1.0)
    return _mean_last(basic_math_ops.square(first - second))


def huber_loss(y_true, y_pred, delta=1.0):
    """Quadratic for errors up to `delta`, linear beyond: 0.5 e^2 or delta (|e| - delta / 2)."""
    y_true, y_pred = _pair(y_true, y_pred)
    abs_error = basic_math_ops.abs(y_pred - y_true)
    quadratic = basic_math_ops.minimum(abs_error, delta)
    linear = abs_error - quadratic
    return _mean_last(0.5 * basic_math_ops.square(quadratic) + delta * linear)


def logcosh(y_true, y_pred):
    """mean(log(cosh(y_pred - y_true))), computed as x + softplus(-2x) - log(2)."""
    y_true, y_pred = _pair(y_true, y_pred)
    x = y_pred - y_true
    return _mean_last(x + nn_ops.softplus(-2.0 * x) - np.float32(np.log(2.0)))


def poisson(y_true, y_pred):
    """mean(y_pred - y_true * log(y_pred + epsilon))."""
    y_true, y_pred = _pair(y_true, y_pred)
    return _mean_last(y_pred - y_true * basic_math_ops.log(y_pred + K.epsilon()))


def cosine_similarity(y_true, y_pred, axis=-1):
    """Minus the cosine of the angle between y_true and y_pred (-1: the same direction)."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = nn_impl.l2_normalize(y_true, axis=axis)
    y_pred = nn_impl.l2_normalize(y_pred, axis=axis)
    return -reduction_ops.reduce_sum(y_true * y_pred, axis=axis)


# -- classification --------------------------------------------------------------------------

def _signed_labels(y_true):
    """0/1 labels as -1/1 (hinge losses want -1/1; labels that are not all 0 or 1 are kept)."""
    is_binary = reduction_ops.reduce_all(comparison_ops.logical_or(
        comparison_ops.equal(y_true, 0.0), comparison_ops.equal(y_true, 1.0)))
    flag = math_ops.cast(is_binary, y_true.dtype.base_dtype)
    return flag * (2.0 * y_true - 1.0) + (1.0 - flag) * y_true


def hinge(y_true, y_pred):
    """mean(max(1 - y_true * y_pred, 0)) with labels -1/1 (0/1 are converted)."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _signed_labels(y_true)
    return _mean_last(basic_math_ops.maximum(1.0 - y_true * y_pred, 0.0))


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _signed_labels(y_true)
    return _mean_last(basic_math_ops.square(basic_math_ops.maximum(1.0 - y_true * y_pred, 0.0)))


def categorical_hinge(y_true, y_pred):
    """max(0, 1 + best wrong score - right score) for one-hot y_true."""
    y_true, y_pred = _pair(y_true, y_pred)
    pos = reduction_ops.reduce_sum(y_true * y_pred, axis=-1)
    neg = reduction_ops.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return basic_math_ops.maximum(neg - pos + 1.0, 0.0)


def kullback_leibler_divergence(y_true, y_pred):
    """sum(y_true * log(y_true / y_pred)), both clipped to [epsilon, 1]."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = clip_ops.clip_by_value(y_true, K.epsilon(), 1.0)
    y_pred = clip_ops.clip_by_value(y_pred, K.epsilon(), 1.0)
    return reduction_ops.reduce_sum(y_true * basic_math_ops.log(y_true / y_pred), axis=-1)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype.base_dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    return K.categorical_crossentropy(y_true, y_pred, from_logits=from_logits)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    """Integer labels (any shape that flattens to the batch) against class scores."""
    return K.sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return _mean_last(K.binary_crossentropy(y_true, y_pred, from_logits=from_logits))


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence
log_cosh = logcosh
cosine_proximity = cosine = cosine_similarity


# -- the classes -------------------------------------------------------------------------------

class Loss:
    """A loss object: `loss(y_true, y_pred)` reduces `call(y_true, y_pred)` over the batch:
    reduction 'auto' / 'sum_over_batch_size' (the mean), 'sum' or 'none'."""

    def __init__(self, reduction="auto", name=None):
        if reduction not in ("auto", "none", "sum", "sum_over_batch_size"):
            raise ValueError(f"Invalid Reduction Key {reduction}.")
        self.reduction = reduction
        self.name = name

    def call(self, y_true, y_pred):
        raise NotImplementedError("Must be implemented in subclasses.")

    def __call__(self, y_true, y_pred, sample_weight=None):
        with get_default_graph().name_scope(self.name or type(self).__name__):
            losses = self.call(y_true, y_pred)
            if sample_weight is not None:
                losses = losses * math_ops.cast(sample_weight, losses.dtype.base_dtype)
            if self.reduction == "none":
                return losses
            if self.reduction == "sum":
                return reduction_ops.reduce_sum(losses)
            return reduction_ops.reduce_mean(losses)

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss that calls `fn(y_true, y_pred, **kwargs)`."""

    def __init__(self, fn, reduction="auto", name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        return {**super().get_config(), **self._fn_kwargs}


def _wrapper(class_name, fn, default_name, doc, **arguments):
    """A LossFunctionWrapper subclass whose __init__ takes `arguments` (with their defaults)
    before reduction and name, as TF's classes do."""

    def __init__(self, *args, reduction="auto", name=default_name, **kwargs):
        values = dict(arguments)
        values.update(zip(arguments, args))
        unknown = set(kwargs) - set(arguments)
        if unknown:
            raise TypeError(f"{class_name}.__init__() got an unexpected keyword argument "
                            f"'{sorted(unknown)[0]}'")
        values.update(kwargs)
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **values)

    return type(class_name, (LossFunctionWrapper,), {"__init__": __init__, "__doc__": doc})


MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error",
                            "The batch mean of mean_squared_error.")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error",
                             "The batch mean of mean_absolute_error.")
MeanAbsolutePercentageError = _wrapper(
    "MeanAbsolutePercentageError", mean_absolute_percentage_error,
    "mean_absolute_percentage_error", "The batch mean of mean_absolute_percentage_error.")
MeanSquaredLogarithmicError = _wrapper(
    "MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error", "The batch mean of mean_squared_logarithmic_error.")
Hinge = _wrapper("Hinge", hinge, "hinge", "The batch mean of hinge.")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge",
                        "The batch mean of squared_hinge.")
CategoricalHinge = _wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge",
                            "The batch mean of categorical_hinge.")
Huber = _wrapper("Huber", huber_loss, "huber_loss", "The batch mean of huber_loss.",
                 delta=1.0)
LogCosh = _wrapper("LogCosh", logcosh, "logcosh", "The batch mean of logcosh.")
KLDivergence = _wrapper("KLDivergence", kullback_leibler_divergence,
                        "kullback_leibler_divergence",
                        "The batch mean of kullback_leibler_divergence.")
Poisson = _wrapper("Poisson", poisson, "poisson", "The batch mean of poisson.")
CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity, "cosine_similarity",
                            "The batch mean of cosine_similarity (-1 is best).", axis=-1)
CategoricalCrossentropy = _wrapper(
    "CategoricalCrossentropy", categorical_crossentropy, "categorical_crossentropy",
    "The batch mean of categorical_crossentropy.", from_logits=False, label_smoothing=0)
SparseCategoricalCrossentropy = _wrapper(
    "SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy", "The batch mean of sparse_categorical_crossentropy.",
    from_logits=False)
BinaryCrossentropy = _wrapper(
    "BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
    "The batch mean of binary_crossentropy.", from_logits=False, label_smoothing=0)

_CLASSES = (MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
            MeanSquaredLogarithmicError, Hinge, SquaredHinge, CategoricalHinge, Huber, LogCosh,
            KLDivergence, Poisson, CosineSimilarity, CategoricalCrossentropy,
            SparseCategoricalCrossentropy, BinaryCrossentropy)
for _cls in _CLASSES:
    _cls.__module__ = __name__
_OBJECTS = {name: value for name, value in globals().items()
            if name in __all__ and name not in ("get", "serialize", "deserialize")}


def serialize(loss):
    """A function's name, or a Loss object's {'class_name', 'config'}."""
    return serialize_keras_object(loss)


def deserialize(name, custom_objects=None):
    """The loss function (or Loss object) that `name` or a serialized dict describes."""
    return deserialize_keras_object(name, module_objects=_OBJECTS,
                                    custom_objects=custom_objects,
                                    printable_module_name="loss function")


def get(identifier):
    """A loss function from its name ('mse', 'kld', 'huber_loss' ...) or its serialized dict,
    or the function or Loss object itself."""
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss function identifier: {identifier}")
