"""keras.metrics -- mirrors the metric functions of TensorFlow 1.15's python/keras/metrics.py.

A metric function maps (y_true, y_pred) to one value per sample; fit and evaluate report its
mean over the epoch (weighted by batch size, as Keras's stateful Mean does). `compile(metrics=
['accuracy'])` picks the accuracy that fits the loss and output (binary, categorical or
sparse categorical) and, as TF 1.15 in graph mode, names it 'acc'; other metrics are named
after their function ('mae' -> 'mean_absolute_error').

The class forms (Metric, Mean, MeanMetricWrapper, Accuracy, BinaryAccuracy,
CategoricalAccuracy, SparseCategoricalAccuracy, MeanSquaredError, MeanAbsoluteError) keep a
running total and count in two non-trainable variables ('total:0', 'count:0', as TF 2.15's
compat.v1 names them), which keras.backend's session initializes:

    acc = keras.metrics.BinaryAccuracy()
    sess = keras.backend.get_session()
    sess.run(acc.update_state([[1], [0]], [[0.8], [0.6]]))    # adds 1 right of 2
    sess.run(acc.result())                                    # 0.5 (total / count, 0 if empty)
    acc.reset_states()                                        # total = count = 0

In compile(metrics=[keras.metrics.BinaryAccuracy()]) such a metric is reported under its name
('binary_accuracy', or name=); fit and evaluate average its per-example values over the epoch
(weighted by batch size, as for the function forms), the value TF's stateful metric reaches
at the end of the epoch. The object's own variables are not used there.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import control_dependencies
from ..framework.tensor import convert_to_tensor
from ..layers.base import to_snake_case
from ..ops import array_ops, comparison_ops, math_ops, reduction_ops, state_ops
from ..ops import variables as _variables
from ..ops.control_flow_ops import group, identity
from ..ops.math_extra_ops import divide_no_nan
from . import backend as K
from . import losses as _losses
from .losses import (binary_crossentropy, categorical_crossentropy, mean_absolute_error,
                     mean_squared_error, sparse_categorical_crossentropy)

__all__ = ["binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
           "mean_squared_error", "mean_absolute_error", "binary_crossentropy",
           "categorical_crossentropy", "sparse_categorical_crossentropy", "mse", "mae",
           "get", "resolve", "Metric", "Mean", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "MeanSquaredError",
           "MeanAbsoluteError"]


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
    if isinstance(metric, MeanMetricWrapper):
        return metric.name, metric.per_example
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


class Metric:
    """A running statistic: update_state() returns the op that adds a batch, result() the
    tensor of the value so far, reset_states() starts again; calling it does both."""

    def __init__(self, name=None, dtype=None):
        self.name = name or to_snake_case(type(self).__name__)
        self.dtype = _dtypes.as_dtype(dtype or K.floatx())
        self._variables = []

    def add_weight(self, name, shape=()):
        variable = _variables.Variable(np.zeros(shape, self.dtype.as_numpy_dtype),
                                       trainable=False, name=name, dtype=self.dtype)
        self._variables.append(variable)
        return variable

    @property
    def variables(self):
        return list(self._variables)

    weights = variables

    def reset_states(self):
        K.batch_set_value([(v, np.zeros(v.get_shape().as_list())) for v in self._variables])

    def __call__(self, *args, **kwargs):
        update = self.update_state(*args, **kwargs)
        with control_dependencies([update]):
            return identity(self.result())


class Mean(Metric):
    """The (weighted) mean of the values given to update_state."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_weight("total")
        self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        values = math_ops.cast(convert_to_tensor(values), self.dtype)
        if sample_weight is None:
            count = math_ops.cast(array_ops.size(values), self.dtype)
        else:
            weight = math_ops.cast(convert_to_tensor(sample_weight), self.dtype)
            values = values * weight
            count = reduction_ops.reduce_sum(weight * array_ops.ones_like(values))
        return group(state_ops.assign_add(self.total, reduction_ops.reduce_sum(values)),
                     state_ops.assign_add(self.count, count))

    def result(self):
        # read_value: a new read, after the update when called under its control dependency
        return divide_no_nan(self.total.read_value(), self.count.read_value())


class MeanMetricWrapper(Mean):
    """The mean of fn(y_true, y_pred), one value per example."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn, self._fn_kwargs = fn, kwargs

    def per_example(self, y_true, y_pred):
        """fn's values for a batch (what compile averages)."""
        return self._fn(y_true, y_pred, **self._fn_kwargs)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = convert_to_tensor(y_pred, dtype=self.dtype)
        y_true = convert_to_tensor(y_true)
        return super().update_state(self.per_example(y_true, y_pred), sample_weight)


def _equal(y_true, y_pred):
    return math_ops.cast(comparison_ops.equal(math_ops.cast(y_true, y_pred.dtype.base_dtype),
                                              y_pred), K.floatx())


class Accuracy(MeanMetricWrapper):
    """How often y_pred equals y_true."""

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(_equal, name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    """How often (y_pred > threshold) equals y_true."""

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    """How often argmax(y_pred) equals argmax(y_true) (one-hot targets)."""

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype=dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often argmax(y_pred) equals the integer target."""

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name, dtype=dtype)


class MeanSquaredError(MeanMetricWrapper):
    """The mean of (y_true - y_pred) ** 2."""

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name, dtype=dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    """The mean of |y_true - y_pred|."""

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name, dtype=dtype)
