"""keras.metrics -- mirrors the metric functions of TensorFlow 1.15's python/keras/metrics.py.

A metric function maps (y_true, y_pred) to one value per sample; fit and evaluate report its
mean over the epoch (weighted by batch size, as Keras's stateful Mean does). `compile(metrics=
['accuracy'])` picks the accuracy that fits the loss and output (binary, categorical or
sparse categorical) and, as TF 1.15 in graph mode, names it 'acc'; other metrics are named
after their function ('mae' -> 'mean_absolute_error').
"""
from ..framework.tensor import convert_to_tensor
from ..ops import array_ops, comparison_ops, math_ops, reduction_ops
from . import backend as K
from . import losses as _losses
from .losses import (binary_crossentropy, categorical_crossentropy, mean_absolute_error,
                     mean_squared_error, sparse_categorical_crossentropy)

__all__ = ["binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
           "mean_squared_error", "mean_absolute_error", "binary_crossentropy",
           "categorical_crossentropy", "sparse_categorical_crossentropy", "mse", "mae",
           "get", "resolve"]


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(y_true, y_pred.dtype.base_dtype)
    predicted = math_ops.cast(comparison_ops.greater(y_pred, threshold),
                              y_pred.dtype.base_dtype)
    return reduction_ops.reduce_mean(
        math_ops.cast(comparison_ops.equal(y_true, predicted), K.floatx()), axis=-1)


def categorical_accuracy(y_true, y_pred):
    return math_ops.cast(comparison_ops.equal(reduction_ops.argmax(y_true, axis=-1),
                                              reduction_ops.argmax(y_pred, axis=-1)),
                         K.floatx())


def sparse_categorical_accuracy(y_true, y_pred):
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    if y_true.get_shape().ndims is not None and \
            y_true.get_shape().ndims == y_pred.get_shape().ndims:
        y_true = array_ops.squeeze(y_true, [-1])
    predicted = math_ops.cast(reduction_ops.argmax(y_pred, axis=-1), y_true.dtype.base_dtype)
    return math_ops.cast(comparison_ops.equal(y_true, predicted), K.floatx())


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
acc = accuracy = categorical_accuracy      # the functions; compile resolves 'acc' by the loss

_BY_NAME = {"binary_accuracy": binary_accuracy, "categorical_accuracy": categorical_accuracy,
            "sparse_categorical_accuracy": sparse_categorical_accuracy,
            "mse": mean_squared_error, "mean_squared_error": mean_squared_error,
            "mae": mean_absolute_error, "mean_absolute_error": mean_absolute_error,
            "binary_crossentropy": binary_crossentropy,
            "categorical_crossentropy": categorical_crossentropy,
            "sparse_categorical_crossentropy": sparse_categorical_crossentropy}


def get(identifier):
    if isinstance(identifier, str):
        if identifier in _BY_NAME:
            return _BY_NAME[identifier]
        raise ValueError(f"Unknown metric function:{identifier}")
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric function identifier: {identifier}")


def resolve(metric, loss_fn, output):
    """(name, function) of one entry of compile's `metrics`, named as TF 1.15 names it."""
    if metric in ("accuracy", "acc"):
        loss_name = getattr(loss_fn, "__name__", None) or getattr(loss_fn, "name", None)
        last = output.get_shape()[-1].value if output.get_shape().ndims else None
        if last == 1 or loss_fn is _losses.binary_crossentropy or \
                isinstance(loss_fn, _losses.BinaryCrossentropy):
            return "acc", binary_accuracy
        if loss_fn is _losses.sparse_categorical_crossentropy or \
                isinstance(loss_fn, _losses.SparseCategoricalCrossentropy) or \
                loss_name == "sparse_categorical_crossentropy":
            return "acc", sparse_categorical_accuracy
        return "acc", categorical_accuracy
    fn = get(metric)
    return getattr(fn, "name", None) or fn.__name__, fn
