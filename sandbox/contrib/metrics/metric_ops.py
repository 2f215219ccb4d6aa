"""The streaming metrics of tf.contrib.metrics -- mirrors TF 1.15's
contrib/metrics/python/ops/metric_ops.py and contrib/metrics/python/metrics/classification.py.

Each `streaming_<name>` is tf.metrics.<name> (sandbox/metrics) with TF 1.15's contrib
argument order -- predictions first, then labels -- and the same (value, update_op) pair:

    acc, acc_update = tf.contrib.metrics.streaming_accuracy(predictions, labels)
    values, updates = tf.contrib.metrics.aggregate_metric_map({
        "accuracy": tf.contrib.metrics.streaming_accuracy(predictions, labels),
        "auc": tf.contrib.metrics.streaming_auc(probabilities, labels)})

streaming_concat keeps every batch seen, concatenated (TF grows a buffer by doubling; the
sandbox re-assigns the concatenation, same values). Not implemented: the streaming_*_at_k
names with dense labels deprecated before 1.15, streaming_covariance /
streaming_pearson_correlation, streaming_curve_points and the other research metrics.
"""
import inspect

from ... import metrics as _metrics
from ...framework import dtypes
from ...framework.graph import get_default_graph, name_scope
from ...framework.tensor import convert_to_tensor
from ...ops import math_ops, reduction_ops
from ...ops.comparison_ops import equal

__all__ = [
    "streaming_accuracy", "streaming_mean", "streaming_mean_tensor", "streaming_auc",
    "streaming_precision", "streaming_recall", "streaming_true_positives",
    "streaming_false_positives", "streaming_true_negatives", "streaming_false_negatives",
    "streaming_mean_squared_error", "streaming_mean_absolute_error",
    "streaming_root_mean_squared_error", "streaming_mean_relative_error",
    "streaming_mean_iou", "streaming_mean_cosine_distance", "streaming_percentage_less",
    "streaming_sensitivity_at_specificity", "streaming_specificity_at_sensitivity",
    "streaming_precision_at_thresholds", "streaming_recall_at_thresholds",
    "streaming_sparse_precision_at_k", "streaming_sparse_recall_at_k",
    "streaming_sparse_average_precision_at_k", "aggregate_metrics", "aggregate_metric_map",
    "streaming_concat", "confusion_matrix", "accuracy",
]


def _predictions_first(metric, contrib_name):
    """tf.metrics.<metric>(labels, predictions, ...) as contrib's
    `contrib_name(predictions, labels, ...)`: the same metric, the first two arguments
    swapped."""
    def streaming_metric(predictions, labels, *args, **kwargs):
        return metric(labels, predictions, *args, **kwargs)

    params = list(inspect.signature(metric).parameters.values())
    streaming_metric.__signature__ = inspect.Signature([params[1], params[0]] + params[2:])
    streaming_metric.__name__ = streaming_metric.__qualname__ = contrib_name
    streaming_metric.__doc__ = (f"tf.metrics.{metric.__name__} with predictions first (TF 1.15's "
                                f"tf.contrib.metrics.{contrib_name}): returns (value, update_op).")
    return streaming_metric


def _same_arguments(metric, contrib_name):
    """tf.metrics.<metric> under its contrib name (the arguments already agree)."""
    def streaming_metric(*args, **kwargs):
        return metric(*args, **kwargs)

    streaming_metric.__signature__ = inspect.signature(metric)
    streaming_metric.__name__ = streaming_metric.__qualname__ = contrib_name
    streaming_metric.__doc__ = (f"tf.metrics.{metric.__name__} (TF 1.15's "
                                f"tf.contrib.metrics.{contrib_name}): returns (value, update_op).")
    return streaming_metric


streaming_mean = _same_arguments(_metrics.mean, "streaming_mean")
streaming_mean_tensor = _same_arguments(_metrics.mean_tensor, "streaming_mean_tensor")
streaming_percentage_less = _same_arguments(_metrics.percentage_below,
                                            "streaming_percentage_less")

streaming_accuracy = _predictions_first(_metrics.accuracy, "streaming_accuracy")
streaming_auc = _predictions_first(_metrics.auc, "streaming_auc")
streaming_precision = _predictions_first(_metrics.precision, "streaming_precision")
streaming_recall = _predictions_first(_metrics.recall, "streaming_recall")
streaming_true_positives = _predictions_first(_metrics.true_positives, "streaming_true_positives")
streaming_false_positives = _predictions_first(
    _metrics.false_positives, "streaming_false_positives")
streaming_true_negatives = _predictions_first(_metrics.true_negatives, "streaming_true_negatives")
streaming_false_negatives = _predictions_first(
    _metrics.false_negatives, "streaming_false_negatives")
streaming_mean_squared_error = _predictions_first(
    _metrics.mean_squared_error, "streaming_mean_squared_error")
streaming_mean_absolute_error = _predictions_first(
    _metrics.mean_absolute_error, "streaming_mean_absolute_error")
streaming_root_mean_squared_error = _predictions_first(
    _metrics.root_mean_squared_error, "streaming_root_mean_squared_error")
streaming_mean_relative_error = _predictions_first(
    _metrics.mean_relative_error, "streaming_mean_relative_error")
streaming_mean_iou = _predictions_first(_metrics.mean_iou, "streaming_mean_iou")
streaming_mean_cosine_distance = _predictions_first(
    _metrics.mean_cosine_distance, "streaming_mean_cosine_distance")
streaming_sensitivity_at_specificity = _predictions_first(
    _metrics.sensitivity_at_specificity, "streaming_sensitivity_at_specificity")
streaming_specificity_at_sensitivity = _predictions_first(
    _metrics.specificity_at_sensitivity, "streaming_specificity_at_sensitivity")
streaming_precision_at_thresholds = _predictions_first(
    _metrics.precision_at_thresholds, "streaming_precision_at_thresholds")
streaming_recall_at_thresholds = _predictions_first(
    _metrics.recall_at_thresholds, "streaming_recall_at_thresholds")
streaming_sparse_precision_at_k = _predictions_first(
    _metrics.sparse_precision_at_k, "streaming_sparse_precision_at_k")
streaming_sparse_recall_at_k = _predictions_first(
    _metrics.recall_at_k, "streaming_sparse_recall_at_k")
streaming_sparse_average_precision_at_k = _predictions_first(
    _metrics.sparse_average_precision_at_k, "streaming_sparse_average_precision_at_k")


def aggregate_metrics(*value_update_tuples):
    """([value, ...], [update_op, ...]) from (value, update_op) pairs, to run all the
    updates at once."""
    if not value_update_tuples:
        raise ValueError("Expected at least one value_tensor/update_op pair")
    value_ops, update_ops = zip(*value_update_tuples)
    return list(value_ops), list(update_ops)


def aggregate_metric_map(names_to_tuples):
    """({name: value}, {name: update_op}) from {name: (value, update_op)}."""
    metric_names = names_to_tuples.keys()
    value_ops, update_ops = zip(*names_to_tuples.values())
    return dict(zip(metric_names, value_ops)), dict(zip(metric_names, update_ops))


def streaming_concat(values, axis=0, max_size=None, metrics_collections=None,
                     updates_collections=None, name=None):
    """(value, update_op): the concatenation along `axis` of every `values` seen (at most
    `max_size` entries along `axis`; later ones are dropped). All dimensions but `axis` must
    be known."""
    from ...metrics.metrics_impl import _add, metric_variable
    from ...ops import array_ops, state_ops
    from ...ops.basic_math_ops import maximum
    from ...ops.slicing_ops import concat
    from ...ops.variable_scope import variable_scope
    with variable_scope(name, "streaming_concat", (values,)):
        values = convert_to_tensor(values, name="values")
        values_shape = values.get_shape()
        if values_shape.ndims is None:
            raise ValueError("`values` must have known statically known rank")
        ndim = values_shape.ndims
        if axis < 0:
            axis += ndim
        if not 0 <= axis < ndim:
            raise ValueError("axis = %r not in [0, %r)" % (axis, ndim))
        fixed_shape = [dim.value for n, dim in enumerate(values_shape) if n != axis]
        if any(value is None for value in fixed_shape):
            raise ValueError("all dimensions of `values` other than the dimension to "
                             "concatenate along must have statically known size")
        # The buffer holds the values with `axis` moved to the front, so batches stack on 0.
        array = metric_variable([0] + fixed_shape, values.dtype, validate_shape=False,
                                name="array")
        size = metric_variable([], dtypes.int32, name="size")
        to_front = [axis] + [n for n in range(ndim) if n != axis]
        batch_values = array_ops.transpose(values, to_front)
        if max_size is not None:          # only the room left
            batch_values = batch_values[:maximum(0, max_size - size)]
        new_array = concat([array, batch_values], 0)
        update_array = state_ops.assign(array, new_array, validate_shape=False)
        with get_default_graph().control_dependencies([update_array]):
            update_op = state_ops.assign(size, array_ops.shape(new_array)[0])
        valid_array = array.value()
        valid_array.set_shape([None] + fixed_shape)
        back = [to_front.index(n) for n in range(ndim)]
        value = array_ops.transpose(valid_array, back, name="concat")
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


def confusion_matrix(labels, predictions, num_classes=None, dtype=dtypes.int32, name=None,
                     weights=None):
    """Deprecated alias of tf.confusion_matrix (TF 1.15 keeps it in contrib.metrics)."""
    from ...ops.math_extra_ops import confusion_matrix as _confusion_matrix
    return _confusion_matrix(labels, predictions, num_classes=num_classes, dtype=dtype,
                             name=name, weights=weights)


def accuracy(predictions, labels, weights=None, name=None):
    """The fraction of predictions equal to labels, computed now (not streaming): a float32
    scalar, weighted by `weights` when given."""
    with name_scope(name, "accuracy", [predictions, labels]):
        predictions = convert_to_tensor(predictions, name="predictions")
        labels = convert_to_tensor(labels, name="labels")
        if labels.dtype != predictions.dtype:
            raise ValueError(f"Dtypes of predictions ({predictions.dtype.name}) and labels "
                             f"({labels.dtype.name}) should match: cast one of them.")
        is_correct = math_ops.cast(equal(predictions, labels), dtypes.float32)
        if weights is not None:
            weights = math_ops.cast(convert_to_tensor(weights, name="weights"), dtypes.float32)
            return math_ops.div(reduction_ops.reduce_sum(is_correct * weights),
                                reduction_ops.reduce_sum(weights), name="accuracy")
        return reduction_ops.reduce_mean(is_correct, name="accuracy")
