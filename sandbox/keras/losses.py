"""keras.losses -- mirrors TensorFlow 1.15's python/keras/losses.py (and the cross-entropies of
python/keras/backend.py).

A loss function maps (y_true, y_pred) to one loss per sample; compile averages them over the
batch (Keras's SUM_OVER_BATCH_SIZE). The loss classes (MeanSquaredError(), ...) do the
averaging themselves when called. As in Keras, the cross-entropies of probabilities made by a
softmax (or sigmoid) op use that op's logits, so that no log(0) stops training.
"""
from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph
from ..framework.tensor import convert_to_tensor
from ..ops import (array_ops, basic_math_ops, clip_ops, math_ops, nn_impl, nn_ops,
                   reduction_ops)
from . import backend as K

__all__ = ["mean_squared_error", "mean_absolute_error", "categorical_crossentropy",
           "sparse_categorical_crossentropy", "binary_crossentropy", "Loss",
           "MeanSquaredError", "MeanAbsoluteError", "CategoricalCrossentropy",
           "SparseCategoricalCrossentropy", "BinaryCrossentropy", "get", "mse", "mae"]


def _pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype.base_dtype)
    return y_true, y_pred


def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return reduction_ops.reduce_mean(basic_math_ops.square(y_pred - y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return reduction_ops.reduce_mean(basic_math_ops.abs(y_pred - y_true), axis=-1)


def _clipped(output):
    eps = K.epsilon()
    return clip_ops.clip_by_value(output, eps, 1.0 - eps)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype.base_dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if not from_logits and y_pred.op.type == "Softmax":
        from_logits, y_pred = True, y_pred.op.inputs[0]
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits_v2(labels=y_true, logits=y_pred)
    y_pred = y_pred / reduction_ops.reduce_sum(y_pred, axis=-1, keepdims=True)
    return -reduction_ops.reduce_sum(y_true * basic_math_ops.log(_clipped(y_pred)), axis=-1)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    """Integer labels (any shape that flattens to the batch) against class scores."""
    y_pred = convert_to_tensor(y_pred)
    if not from_logits and y_pred.op.type == "Softmax":
        logits = y_pred.op.inputs[0]
    elif from_logits:
        logits = y_pred
    else:
        logits = basic_math_ops.log(_clipped(y_pred))
    shape = logits.get_shape()
    classes = shape[-1].value
    labels = math_ops.cast(array_ops.reshape(convert_to_tensor(y_true), [-1]), _dtypes.int64)
    if shape.ndims is not None and shape.ndims > 2:
        logits = array_ops.reshape(logits, [-1, classes])
    loss = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    if shape.ndims is not None and shape.ndims > 2:
        loss = array_ops.reshape(loss, array_ops.shape(y_pred)[:-1])
    return loss


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0):
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if not from_logits and y_pred.op.type == "Sigmoid":
        from_logits, y_pred = True, y_pred.op.inputs[0]
    if from_logits:
        bce = nn_impl.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        eps = K.epsilon()
        out = _clipped(y_pred)
        bce = -(y_true * basic_math_ops.log(out + eps) +
                (1.0 - y_true) * basic_math_ops.log(1.0 - out + eps))
    return reduction_ops.reduce_mean(bce, axis=-1)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


class Loss:
    """A loss object: `loss(y_true, y_pred)` is the batch mean of `call(y_true, y_pred)`."""

    def __init__(self, reduction="sum_over_batch_size", name=None):
        self.reduction = reduction
        self.name = name

    def call(self, y_true, y_pred):
        raise NotImplementedError

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


class _Wrapper(Loss):
    _fn = None
    _default_name = None

    def __init__(self, reduction="sum_over_batch_size", name=None, **kwargs):
        super().__init__(reduction, name or self._default_name)
        self._kwargs = kwargs

    def call(self, y_true, y_pred):
        return type(self)._fn(y_true, y_pred, **self._kwargs)


class MeanSquaredError(_Wrapper):
    _fn, _default_name = mean_squared_error, "mean_squared_error"


class MeanAbsoluteError(_Wrapper):
    _fn, _default_name = mean_absolute_error, "mean_absolute_error"


class CategoricalCrossentropy(_Wrapper):
    _fn, _default_name = categorical_crossentropy, "categorical_crossentropy"

    def __init__(self, from_logits=False, label_smoothing=0, reduction="sum_over_batch_size",
                 name=None):
        super().__init__(reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing)


class SparseCategoricalCrossentropy(_Wrapper):
    _fn, _default_name = sparse_categorical_crossentropy, "sparse_categorical_crossentropy"

    def __init__(self, from_logits=False, reduction="sum_over_batch_size", name=None):
        super().__init__(reduction, name, from_logits=from_logits)


class BinaryCrossentropy(_Wrapper):
    _fn, _default_name = binary_crossentropy, "binary_crossentropy"

    def __init__(self, from_logits=False, label_smoothing=0, reduction="sum_over_batch_size",
                 name=None):
        super().__init__(reduction, name, from_logits=from_logits,
                         label_smoothing=label_smoothing)


_BY_NAME = {"mean_squared_error": mean_squared_error, "mse": mean_squared_error,
            "MSE": mean_squared_error, "mean_absolute_error": mean_absolute_error,
            "mae": mean_absolute_error, "MAE": mean_absolute_error,
            "categorical_crossentropy": categorical_crossentropy,
            "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
            "binary_crossentropy": binary_crossentropy}


def get(identifier):
    """A loss function from its name ('mse', 'sparse_categorical_crossentropy' ...), or the
    function or Loss object itself."""
    if isinstance(identifier, str):
        if identifier in _BY_NAME:
            return _BY_NAME[identifier]
        raise ValueError(f"Unknown loss function:{identifier}")
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss function identifier: {identifier}")
