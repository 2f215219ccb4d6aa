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

The other stateful classes keep what their result needs: Sum a total, MeanTensor a total and
count per element, RootMeanSquaredError and MeanRelativeError a mean; the confusion-matrix
ones (metrics_confusion.py: TruePositives ... Precision, Recall, AUC, SensitivityAtSpecificity,
MeanIoU) counts at thresholds. In compile such a metric reports its value on each batch
(`batch_value`), averaged over the epoch's batches by batch size: TF's streaming value when
an epoch is one batch.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.tensor import convert_to_tensor
from ..ops import array_ops, basic_math_ops, comparison_ops, math_ops, nn_impl, reduction_ops
from ..ops import state_ops
from ..ops.control_flow_ops import group, identity
from ..ops.math_extra_ops import divide_no_nan
from . import backend as K
from . import losses as _losses
from .losses import (binary_crossentropy, categorical_crossentropy, hinge,
                     kullback_leibler_divergence, logcosh, mean_absolute_error,
                     mean_absolute_percentage_error, mean_squared_error,
                     mean_squared_logarithmic_error, poisson, sparse_categorical_crossentropy,
                     squared_hinge)
from .metrics_base import Metric
from .serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
           "mean_squared_error", "mean_absolute_error", "binary_crossentropy",
           "categorical_crossentropy", "sparse_categorical_crossentropy", "mse", "mae",
           "get", "resolve", "Metric", "Mean", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "MeanSquaredError",
           "MeanAbsoluteError", "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy",
           "hinge", "squared_hinge", "kullback_leibler_divergence", "kld", "KLD", "kl_divergence", "poisson",
           "logcosh", "mean_absolute_percentage_error", "mape", "MAPE",
           "mean_squared_logarithmic_error", "msle", "MSLE", "cosine_proximity", "cosine",
           "MSE", "MAE", "serialize", "deserialize", "Sum", "MeanTensor",
           "RootMeanSquaredError", "MeanRelativeError", "TopKCategoricalAccuracy",
           "SparseTopKCategoricalAccuracy", "Hinge", "SquaredHinge", "CategoricalHinge",
           "KLDivergence", "Poisson", "LogCoshError", "CosineSimilarity",
           "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "BinaryCrossentropy",
           "CategoricalCrossentropy", "SparseCategoricalCrossentropy"]


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


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1 where the true class (one-hot) is among the k highest scores."""
    return math_ops.cast(nn_impl.in_top_k(y_pred, reduction_ops.argmax(y_true, axis=-1), k),
                         K.floatx())


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1 where the integer class is among the k highest scores."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    if y_true.get_shape().ndims is not None and \
            y_true.get_shape().ndims == y_pred.get_shape().ndims:
        y_true = array_ops.squeeze(y_true, [-1])
    return math_ops.cast(nn_impl.in_top_k(y_pred, math_ops.cast(y_true, _dtypes.int32), k),
                         K.floatx())


def _cosine(y_true, y_pred, axis=-1):
    """The cosine of the angle between y_true and y_pred (1: the same direction)."""
    return -_losses.cosine_similarity(y_true, y_pred, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kl_divergence = kullback_leibler_divergence
cosine = cosine_proximity = _losses.cosine_proximity     # minus the cosine, as the loss
acc = accuracy = categorical_accuracy      # the functions; compile resolves 'acc' by the loss


def _objects():
    """What deserialize finds by name: this module's public functions and classes (and the
    confusion-matrix classes)."""
    return {name: globals()[name] for name in __all__
            if name not in ("get", "resolve", "serialize", "deserialize")}


def serialize(metric):
    return serialize_keras_object(metric)


def deserialize(config, custom_objects=None):
    return deserialize_keras_object(config, module_objects=_objects(),
                                    custom_objects=custom_objects,
                                    printable_module_name="metric function")


def get(identifier):
    """A metric function from its name ('mae', 'top_k_categorical_accuracy' ...), a metric
    object from its serialized dict, or the function or object itself."""
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric function identifier: {identifier}")


def resolve(metric, loss_fn, output):
    """(name, function) of one entry of compile's `metrics`, named as TF 1.15 names it."""
    if isinstance(metric, dict):                  # a metric object from a saved model
        metric = deserialize(metric)
    if isinstance(metric, MeanMetricWrapper):
        return metric.name, metric.per_example
    if isinstance(metric, Metric):
        return metric.name, metric.batch_value
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

    def get_config(self):
        return {**super().get_config(), **self._fn_kwargs}

    @classmethod
    def from_config(cls, config):
        if cls is MeanMetricWrapper:                  # the function is a name in the config
            config = dict(config)
            return cls(get(config.pop("fn")), **config)
        return cls(**config)

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


def _wrapper(class_name, fn, default_name, doc, **arguments):
    """A MeanMetricWrapper subclass: __init__(name=default_name, dtype=None, **arguments)."""

    def __init__(self, name=default_name, dtype=None, **kwargs):
        unknown = set(kwargs) - set(arguments)
        if unknown:
            raise TypeError(f"{class_name}.__init__() got an unexpected keyword argument "
                            f"'{sorted(unknown)[0]}'")
        MeanMetricWrapper.__init__(self, fn, name, dtype=dtype, **{**arguments, **kwargs})

    cls = type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc})
    cls.__module__ = __name__
    return cls


TopKCategoricalAccuracy = _wrapper(
    "TopKCategoricalAccuracy", top_k_categorical_accuracy, "top_k_categorical_accuracy",
    "How often the one-hot target is in the top k predictions.", k=5)
SparseTopKCategoricalAccuracy = _wrapper(
    "SparseTopKCategoricalAccuracy", sparse_top_k_categorical_accuracy,
    "sparse_top_k_categorical_accuracy",
    "How often the integer target is in the top k predictions.", k=5)
Hinge = _wrapper("Hinge", hinge, "hinge", "The mean of the hinge loss.")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge",
                        "The mean of the squared hinge loss.")
CategoricalHinge = _wrapper("CategoricalHinge", _losses.categorical_hinge, "categorical_hinge",
                            "The mean of the categorical hinge loss.")
KLDivergence = _wrapper("KLDivergence", kullback_leibler_divergence,
                        "kullback_leibler_divergence", "The mean Kullback-Leibler divergence.")
Poisson = _wrapper("Poisson", poisson, "poisson", "The mean of the Poisson loss.")
LogCoshError = _wrapper("LogCoshError", logcosh, "logcosh", "The mean of log(cosh(error)).")
CosineSimilarity = _wrapper("CosineSimilarity", _cosine, "cosine_similarity",
                            "The mean cosine of y_true and y_pred (1 is best).", axis=-1)
MeanAbsolutePercentageError = _wrapper(
    "MeanAbsolutePercentageError", mean_absolute_percentage_error,
    "mean_absolute_percentage_error", "The mean absolute percentage error.")
MeanSquaredLogarithmicError = _wrapper(
    "MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error", "The mean squared logarithmic error.")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                              "The mean binary cross-entropy.", from_logits=False,
                              label_smoothing=0)
CategoricalCrossentropy = _wrapper(
    "CategoricalCrossentropy", categorical_crossentropy, "categorical_crossentropy",
    "The mean categorical cross-entropy.", from_logits=False, label_smoothing=0)
SparseCategoricalCrossentropy = _wrapper(
    "SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy", "The mean sparse categorical cross-entropy.",
    from_logits=False, axis=-1)


# -- other running statistics -------------------------------------------------------------------

class Sum(Metric):
    """The (weighted) sum of the values given to update_state."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_weight("total")

    def _weighted_sum(self, values, sample_weight):
        values = math_ops.cast(convert_to_tensor(values), self.dtype)
        if sample_weight is not None:
            values = values * math_ops.cast(convert_to_tensor(sample_weight), self.dtype)
        return reduction_ops.reduce_sum(values)

    def update_state(self, values, sample_weight=None):
        return state_ops.assign_add(self.total, self._weighted_sum(values, sample_weight))

    def result(self):
        return identity(self.total.read_value())


class MeanTensor(Metric):
    """The element-wise (weighted) mean of the tensors given to update_state; its total and
    count take the shape of the first tensor."""

    def __init__(self, name="mean_tensor", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.count = None

    def update_state(self, values, sample_weight=None):
        values = math_ops.cast(convert_to_tensor(values), self.dtype)
        shape = values.get_shape().as_list()
        if self.total is None:
            if None in shape:
                raise ValueError("MeanTensor needs values of a fully defined shape, got "
                                 f"{shape}")
            self.total = self.add_weight("total", shape)
            self.count = self.add_weight("count", shape)
        elif shape != self.total.get_shape().as_list():
            raise ValueError("MeanTensor input values must always have the same shape. "
                             f"Expected shape (set during the first call): "
                             f"{self.total.get_shape().as_list()}. Got: {shape}")
        count = array_ops.ones_like(values)
        if sample_weight is not None:
            weight = math_ops.cast(convert_to_tensor(sample_weight), self.dtype)
            values, count = values * weight, count * weight
        return group(state_ops.assign_add(self.total, values),
                     state_ops.assign_add(self.count, count))

    def result(self):
        if self.total is None:
            raise ValueError("MeanTensor does not have any result yet. Please call the "
                             "MeanTensor instance or use `.update_state(value)` before "
                             "retrieving the result.")
        return divide_no_nan(self.total.read_value(), self.count.read_value())


class RootMeanSquaredError(Mean):
    """sqrt of the mean of (y_pred - y_true) ** 2."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = math_ops.cast(convert_to_tensor(y_pred), self.dtype)
        y_true = math_ops.cast(convert_to_tensor(y_true), self.dtype)
        return super().update_state(basic_math_ops.square(y_pred - y_true), sample_weight)

    def result(self):
        return basic_math_ops.sqrt(super().result())

    def batch_value(self, y_true, y_pred):
        y_pred = math_ops.cast(convert_to_tensor(y_pred), self.dtype)
        y_true = math_ops.cast(convert_to_tensor(y_true), self.dtype)
        return basic_math_ops.sqrt(reduction_ops.reduce_mean(
            basic_math_ops.square(y_pred - y_true)))


class MeanRelativeError(Mean):
    """The mean of |y_true - y_pred| / normalizer (0 where the normalizer is 0)."""

    def __init__(self, normalizer, name=None, dtype=None):
        super().__init__(name=name or "mean_relative_error", dtype=dtype)
        self.normalizer = math_ops.cast(convert_to_tensor(normalizer), self.dtype)
        self._normalizer_value = normalizer

    def _relative(self, y_true, y_pred):
        y_pred = math_ops.cast(convert_to_tensor(y_pred), self.dtype)
        y_true = math_ops.cast(convert_to_tensor(y_true), self.dtype)
        return divide_no_nan(basic_math_ops.abs(y_true - y_pred), self.normalizer)

    def update_state(self, y_true, y_pred, sample_weight=None):
        return super().update_state(self._relative(y_true, y_pred), sample_weight)

    def batch_value(self, y_true, y_pred):
        return reduction_ops.reduce_mean(self._relative(y_true, y_pred))

    def get_config(self):
        normalizer = self._normalizer_value
        if hasattr(normalizer, "op"):
            normalizer = K.eval(normalizer)
        return {**super().get_config(), "normalizer": np.asarray(normalizer).tolist()}


from .metrics_confusion import *  # noqa: E402,F401,F403 -- AUC, Precision ... (TF's names)
from .metrics_confusion import __all__ as _confusion_names  # noqa: E402

__all__ += _confusion_names
