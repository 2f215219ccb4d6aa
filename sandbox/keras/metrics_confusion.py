"""keras.metrics' confusion-matrix metrics -- mirrors TensorFlow 1.15's python/keras/metrics.py
(TruePositives ... AUC, SensitivityAtSpecificity, MeanIoU) and its helper
python/keras/utils/metrics_utils.py (update_confusion_matrix_variables).

Each metric counts, at one or more thresholds, the true/false positives/negatives of the
batches it saw (a prediction is positive when it is > the threshold), in non-trainable
variables of shape [thresholds]; result() turns the counts into the metric:

    auc = keras.metrics.AUC(num_thresholds=5)
    sess.run(auc.update_state([0, 1, 1], [0.2, 0.7, 0.4]))
    sess.run(auc.result())

The same formula on one batch's counts (batch_value) is what compile reports for it.
keras.metrics re-exports these classes.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.tensor import convert_to_tensor
from ..ops import (array_ops, basic_math_ops, comparison_ops, diag_ops, math_ops, nn_impl,
                   reduction_ops, slicing_ops, state_ops)
from ..ops.control_flow_ops import group
from ..metrics.metrics_impl import _where_pos
from ..ops.math_extra_ops import confusion_matrix, divide_no_nan
from . import backend as K
from .metrics_base import Metric

__all__ = ["TruePositives", "TrueNegatives", "FalsePositives", "FalseNegatives", "Precision",
           "Recall", "AUC", "SensitivityAtSpecificity", "SpecificityAtSensitivity",
           "PrecisionAtRecall", "MeanIoU"]

_KEYS = ("tp", "fp", "tn", "fn")
_VARIABLE_NAMES = {"tp": "true_positives", "fp": "false_positives", "tn": "true_negatives",
                   "fn": "false_negatives"}


def _check_thresholds(thresholds, default):
    thresholds = default if thresholds is None else thresholds
    listed = [thresholds] if np.isscalar(thresholds) else list(thresholds)
    if any(t is None or not 0 <= t <= 1 for t in listed):
        raise ValueError(f"Threshold values must be in [0, 1]. Invalid values: {listed}")
    return listed


def confusion_counts(y_true, y_pred, thresholds, keys=_KEYS, sample_weight=None, top_k=None,
                     class_id=None):
    """{key: [len(thresholds)] float32 counts} of one batch (TF's
    update_confusion_matrix_variables without the variables)."""
    y_pred = math_ops.cast(convert_to_tensor(y_pred), _dtypes.float32)
    y_true = math_ops.cast(convert_to_tensor(y_true), _dtypes.bool)
    if top_k is not None:           # only each row's k best predictions may be positive
        kth = reduction_ops.reduce_min(nn_impl.top_k(y_pred, top_k)[0], axis=-1, keepdims=True)
        y_pred = comparison_ops.where(comparison_ops.greater_equal(y_pred, kth), y_pred,
                                      array_ops.zeros_like(y_pred) - 1.0)
    if class_id is not None:
        classes = y_pred.get_shape().as_list()[-1]
        y_true = array_ops.reshape(y_true, [-1, classes])[:, class_id]
        y_pred = array_ops.reshape(y_pred, [-1, classes])[:, class_id]
    labels = array_ops.reshape(y_true, [1, -1])                      # [1, N]
    preds = array_ops.reshape(y_pred, [1, -1])                       # [1, N]
    limits = array_ops.reshape(convert_to_tensor(np.array(thresholds, np.float32)), [-1, 1])
    pred_pos = comparison_ops.greater(preds, limits)                 # [T, N]
    label_pos = slicing_ops.tile(labels, array_ops.stack([len(thresholds), 1]))
    sides = {"tp": (label_pos, pred_pos),
             "fp": (comparison_ops.logical_not(label_pos), pred_pos),
             "tn": (comparison_ops.logical_not(label_pos), comparison_ops.logical_not(pred_pos)),
             "fn": (label_pos, comparison_ops.logical_not(pred_pos))}
    weight = None
    if sample_weight is not None:
        weight = math_ops.cast(convert_to_tensor(sample_weight), _dtypes.float32)
        for _ in range((y_pred.get_shape().ndims or 0) - (weight.get_shape().ndims or 0)):
            weight = array_ops.expand_dims(weight, -1)      # [batch] -> [batch, 1 ...]
        weight = array_ops.reshape(weight * array_ops.ones_like(y_pred), [1, -1])
    counts = {}
    for key in keys:
        hits = math_ops.cast(comparison_ops.logical_and(*sides[key]), _dtypes.float32)
        if weight is not None:
            hits = hits * weight
        counts[key] = reduction_ops.reduce_sum(hits, axis=1)
    return counts


class _ConfusionMetric(Metric):
    """Counts of _keys at self.thresholds; subclasses give _value(counts)."""
    _keys = _KEYS
    top_k = class_id = None

    def _make_counters(self):
        self.counters = {key: self.add_weight(_VARIABLE_NAMES[key],
                                              shape=(len(self.thresholds),))
                         for key in self._keys}

    def _counts(self, y_true, y_pred, sample_weight=None):
        return confusion_counts(y_true, y_pred, self.thresholds, self._keys, sample_weight,
                                self.top_k, self.class_id)

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = self._counts(y_true, y_pred, sample_weight)
        return group(*[state_ops.assign_add(self.counters[k], math_ops.cast(counts[k],
                                                                            self.dtype))
                       for k in self._keys])

    def result(self):
        return self._value({k: v.read_value() for k, v in self.counters.items()})

    def batch_value(self, y_true, y_pred):
        counts = self._counts(y_true, y_pred)
        return self._value({k: math_ops.cast(v, self.dtype) for k, v in counts.items()})


def _single(value, thresholds_given):
    """A scalar for one threshold, as TF returns it."""
    return value[0] if len(thresholds_given) == 1 else value


class _Count(_ConfusionMetric):
    """The weighted count of one cell of the confusion matrix at `thresholds` (default
    0.5; a scalar for one threshold)."""
    _key = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = _check_thresholds(thresholds, 0.5)
        self._keys = (self._key,)
        self._make_counters()

    def _value(self, counts):
        return _single(counts[self._key], self.thresholds)

    def get_config(self):
        return {"thresholds": self.init_thresholds, **super().get_config()}


class TruePositives(_Count):
    _key = "tp"


class TrueNegatives(_Count):
    _key = "tn"


class FalsePositives(_Count):
    _key = "fp"


class FalseNegatives(_Count):
    _key = "fn"


class Precision(_ConfusionMetric):
    """tp / (tp + fp) at `thresholds` (default 0.5); top_k: only each row's k best
    predictions count; class_id: only that column."""
    _keys = ("tp", "fp")

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds, self.top_k, self.class_id = thresholds, top_k, class_id
        default = -1e-7 if top_k is not None else 0.5       # TF's NEG_INF for top_k
        self.thresholds = [default] if thresholds is None and top_k is not None else \
            _check_thresholds(thresholds, default)
        self._make_counters()

    def _value(self, counts):
        return _single(divide_no_nan(counts["tp"], counts["tp"] + counts[self._keys[1]]),
                       self.thresholds)

    def get_config(self):
        return {"thresholds": self.init_thresholds, "top_k": self.top_k,
                "class_id": self.class_id, **super().get_config()}


class Recall(Precision):
    """tp / (tp + fn), with Precision's arguments."""
    _keys = ("tp", "fn")


def _even_thresholds(num_thresholds, low, high):
    """[low, 1/(n-1), 2/(n-1), ..., high]: n thresholds."""
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [low] + inner + [high]


class _RateAtRate(_ConfusionMetric):
    """One rate at the threshold where another is nearest `value` (TF 1.15's choice)."""

    def __init__(self, value, num_thresholds=200, name=None, dtype=None):
        if value < 0 or value > 1:
            raise ValueError(f"`{self._target_name}` must be in the range [0, 1].")
        if num_thresholds <= 0:
            raise ValueError("`num_thresholds` must be > 0.")
        super().__init__(name=name, dtype=dtype)
        self.value, self.num_thresholds = value, num_thresholds
        self.thresholds = [0.5] if num_thresholds == 1 else \
            _even_thresholds(num_thresholds, 0.0, 1.0)
        self._make_counters()

    def _value(self, c):
        rates = divide_no_nan(c[self._target[0]], c[self._target[0]] + c[self._target[1]])
        index = math_ops.cast(reduction_ops.argmin(basic_math_ops.abs(rates - self.value), 0),
                              _dtypes.int32)
        top, other = c[self._wanted[0]][index], c[self._wanted[1]][index]
        return divide_no_nan(top, top + other)

    def get_config(self):
        return {"num_thresholds": self.num_thresholds, self._target_name: self.value,
                **super().get_config()}


class SensitivityAtSpecificity(_RateAtRate):
    """tp / (tp + fn) where tn / (tn + fp) is nearest `specificity`."""
    _target_name, _target, _wanted = "specificity", ("tn", "fp"), ("tp", "fn")

    def __init__(self, specificity, num_thresholds=200, name=None, dtype=None):
        super().__init__(specificity, num_thresholds, name, dtype)


class SpecificityAtSensitivity(_RateAtRate):
    """tn / (tn + fp) where tp / (tp + fn) is nearest `sensitivity`."""
    _target_name, _target, _wanted = "sensitivity", ("tp", "fn"), ("tn", "fp")

    def __init__(self, sensitivity, num_thresholds=200, name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds, name, dtype)


class PrecisionAtRecall(_RateAtRate):
    """tp / (tp + fp) where tp / (tp + fn) is nearest `recall`."""
    _target_name, _target, _wanted = "recall", ("tp", "fn"), ("tp", "fp")

    def __init__(self, recall, num_thresholds=200, name=None, dtype=None):
        super().__init__(recall, num_thresholds, name, dtype)


class AUC(_ConfusionMetric):
    """The area under the ROC curve (curve='ROC') or the precision-recall curve ('PR'), a
    Riemann sum over `num_thresholds` thresholds in [0, 1]: summation_method 'interpolation'
    (trapezoids; for PR, Davis & Goadrich's interpolation), 'minoring' or 'majoring'."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, thresholds=None, dtype=None):
        if curve not in ("ROC", "PR"):
            raise ValueError(f'Invalid curve: "{curve}". Valid options are: "ROC", "PR"')
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid summation method: "{summation_method}". Valid options '
                             'are: "interpolation", "minoring", "majoring"')
        super().__init__(name=name, dtype=dtype)
        self.curve, self.summation_method = curve, summation_method
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            inner = sorted(_check_thresholds(thresholds, None))
            self.thresholds = [0.0 - K.epsilon()] + inner + [1.0 + K.epsilon()]
        else:
            if num_thresholds <= 1:
                raise ValueError("`num_thresholds` must be > 1.")
            self.num_thresholds = num_thresholds
            self.thresholds = _even_thresholds(num_thresholds, 0.0 - K.epsilon(),
                                               1.0 + K.epsilon())
        self._init_thresholds = thresholds
        self._make_counters()

    def _interpolate_pr_auc(self, c):
        n = self.num_thresholds
        tp, fp, fn = c["tp"], c["fp"], c["fn"]
        dtp = tp[:n - 1] - tp[1:]
        p = tp + fp
        slope = divide_no_nan(dtp, basic_math_ops.maximum(p[:n - 1] - p[1:], 0))
        intercept = tp[1:] - slope * p[1:]
        ratio = _where_pos(p[:n - 1], p[1:])          # p[i] / p[i+1], 1 where either is 0
        return reduction_ops.reduce_sum(divide_no_nan(
            slope * (dtp + intercept * basic_math_ops.log(ratio)),
            basic_math_ops.maximum(tp[1:] + fn[1:], 0)))

    def _value(self, c):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc(c)
        n = self.num_thresholds
        recall = divide_no_nan(c["tp"], c["tp"] + c["fn"])
        if self.curve == "ROC":
            x, y = divide_no_nan(c["fp"], c["fp"] + c["tn"]), recall
        else:
            x, y = recall, divide_no_nan(c["tp"], c["tp"] + c["fp"])
        if self.summation_method == "interpolation":
            heights = (y[:n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = basic_math_ops.minimum(y[:n - 1], y[1:])
        else:
            heights = basic_math_ops.maximum(y[:n - 1], y[1:])
        return reduction_ops.reduce_sum((x[:n - 1] - x[1:]) * heights)

    def get_config(self):
        config = {"num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, **super().get_config()}
        if self._init_thresholds is not None:
            config["thresholds"] = self.thresholds[1:-1]
        return config


class MeanIoU(Metric):
    """The mean over classes of intersection / union of the predicted and true class ids,
    from a running [num_classes, num_classes] confusion matrix (classes never seen or
    predicted are left out)."""

    def __init__(self, num_classes, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.num_classes = num_classes
        self.total_cm = self.add_weight("total_confusion_matrix", (num_classes, num_classes),
                                        dtype=_dtypes.float64)

    def _matrix(self, y_true, y_pred, sample_weight=None):
        y_true = array_ops.reshape(math_ops.cast(convert_to_tensor(y_true), self.dtype), [-1])
        y_pred = array_ops.reshape(math_ops.cast(convert_to_tensor(y_pred), self.dtype), [-1])
        if sample_weight is not None:
            sample_weight = array_ops.reshape(
                math_ops.cast(convert_to_tensor(sample_weight), self.dtype), [-1])
        return confusion_matrix(y_true, y_pred, self.num_classes, weights=sample_weight,
                                dtype=_dtypes.float64)

    def update_state(self, y_true, y_pred, sample_weight=None):
        return state_ops.assign_add(self.total_cm, self._matrix(y_true, y_pred, sample_weight))

    def _value(self, cm):
        rows = math_ops.cast(reduction_ops.reduce_sum(cm, axis=0), self.dtype)
        cols = math_ops.cast(reduction_ops.reduce_sum(cm, axis=1), self.dtype)
        diag = math_ops.cast(diag_ops.matrix_diag_part(cm), self.dtype)
        union = rows + cols - diag
        valid = reduction_ops.reduce_sum(math_ops.cast(comparison_ops.not_equal(union, 0),
                                                       self.dtype))
        return divide_no_nan(reduction_ops.reduce_sum(divide_no_nan(diag, union)), valid)

    def result(self):
        return self._value(self.total_cm.read_value())

    def batch_value(self, y_true, y_pred):
        return self._value(self._matrix(y_true, y_pred))

    def get_config(self):
        return {"num_classes": self.num_classes, **super().get_config()}
