"""Streaming metrics -- mirrors TensorFlow 1.x's python/ops/metrics_impl.py.

A metric is not one number computed once: it accumulates over many batches. Each tf.metrics
function returns two tensors,

    acc, acc_update = tf.metrics.accuracy(labels, predictions)
    sess.run(tf.local_variables_initializer())      # counters to 0
    for batch in batches:
        sess.run(acc_update, feed_dict=batch)       # add this batch to the counters
    print(sess.run(acc))                             # the value over all batches so far

and keeps its counters in *local* variables (GraphKeys.LOCAL_VARIABLES and METRIC_VARIABLES,
named as in TF: 'accuracy/total', 'accuracy/count'), so a Saver does not save them and
tf.local_variables_initializer() resets them. `update_op` adds one batch and returns the value
including it; `value` only reads. `weights` (a scalar, or one per value, or [batch, 1]) weigh
each value; `metrics_collections` / `updates_collections` name collections the value / update
op are added to.

    mean, accuracy, mean_squared_error, mean_absolute_error    total / count
    root_mean_squared_error                                     sqrt(total / count)
    true_positives, false_positives, false_negatives,
    true_negatives                                              one counter
    precision, recall                                           tp / (tp + fp), tp / (tp + fn)
    auc                                                         tp, fn, tn, fp at 200
                                                                thresholds -> a Riemann sum
    *_at_thresholds (the four counters, precision, recall)     one value per threshold
    mean_iou                                                    a confusion matrix
    mean_cosine_distance, mean_relative_error, percentage_below
                                                                mean of a derived value
    mean_tensor                                                 element-wise total / count
    mean_per_class_accuracy                                     per-class total / count
    sensitivity_at_specificity, specificity_at_sensitivity     the four counters at
                                                                `num_thresholds` thresholds

The *_at_k family (precision_at_k, recall_at_k, average_precision_at_k, ...) lives in
ranking_metrics.py.

Where TF divides with DivNoNan ("0 where the divisor is 0"), so does the sandbox
(losses/weights_broadcast.py, ops/math_extra_ops.py).
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph import GraphKeys, add_to_collections
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import constant_value
from ..losses.weights_broadcast import broadcast_weights, div_no_nan, \
    remove_squeezable_dimensions

__all__ = ["metric_variable", "mean", "accuracy", "mean_squared_error", "mean_absolute_error",
           "root_mean_squared_error", "true_positives", "false_positives", "false_negatives",
           "true_negatives", "precision", "recall", "auc", "mean_iou",
           "true_positives_at_thresholds", "false_positives_at_thresholds",
           "false_negatives_at_thresholds", "true_negatives_at_thresholds",
           "precision_at_thresholds", "recall_at_thresholds", "mean_cosine_distance",
           "mean_per_class_accuracy", "mean_relative_error", "mean_tensor", "percentage_below",
           "sensitivity_at_specificity", "specificity_at_sensitivity"]


def _ops():
    from ..ops import array_ops, basic_math_ops, comparison_ops, math_ops, reduction_ops, \
        state_ops
    return array_ops, basic_math_ops, comparison_ops, math_ops, reduction_ops, state_ops


def _scope(name, default_name, values):
    from ..ops.variable_scope import variable_scope
    return variable_scope(name, default_name, values)


def metric_variable(shape, dtype, validate_shape=True, name=None):
    """A local variable of zeros, in LOCAL_VARIABLES and METRIC_VARIABLES (not trainable,
    not saved): the state of a metric."""
    from ..ops.array_ops import zeros
    from ..ops.variables import Variable
    return Variable(lambda: zeros(shape, dtype), trainable=False,
                    collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES],
                    validate_shape=validate_shape, name=name)


def _add(collections, value):
    if collections:
        add_to_collections(collections, value)


def _check_weights_shape(weights, values, metric):
    w_shape, v_shape = weights.get_shape(), values.get_shape()
    if w_shape.ndims not in (None, 0) and v_shape.ndims is not None and \
            w_shape.ndims != v_shape.ndims:
        raise ValueError(f"{metric}: weights of shape {w_shape} do not fit the values of shape "
                         f"{v_shape}: give a scalar or a tensor of rank {v_shape.ndims}.")


# -- total / count ---------------------------------------------------------------------

def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of `values` over every batch seen: state 'mean/total' and
    'mean/count'; value = total / count (0 before any value)."""
    array_ops, _, _, math_ops, reduction_ops, state_ops = _ops()
    from ..ops.basic_math_ops import maximum
    with _scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, dtypes.float32)
        total = metric_variable([], dtypes.float32, name="total")
        count = metric_variable([], dtypes.float32, name="count")
        if weights is None:
            num_values = math_ops.cast(array_ops.size(values), dtypes.float32)
        else:
            values, _, weights = remove_squeezable_dimensions(values, values, weights=weights)
            weights = broadcast_weights(math_ops.cast(weights, dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = reduction_ops.reduce_sum(weights)
        update_total_op = state_ops.assign_add(total, reduction_ops.reduce_sum(values))
        from ..framework.graph import control_dependencies
        with control_dependencies([values]):
            update_count_op = state_ops.assign_add(count, num_values)
        mean_t = div_no_nan(total, maximum(count, 0.0), name="value")
        update_op = div_no_nan(update_total_op, maximum(update_count_op, 0.0), name="update_op")
        _add(metrics_collections, mean_t)
        _add(updates_collections, update_op)
        return mean_t, update_op


def accuracy(labels, predictions, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """How often predictions equal labels: the mean of equal(predictions, labels)."""
    _, _, comparison_ops, math_ops, _, _ = _ops()
    labels, predictions, weights = remove_squeezable_dimensions(labels, predictions,
                                                                weights=weights)
    if not predictions.get_shape().is_compatible_with(labels.get_shape()):
        raise ValueError(f"accuracy: predictions of shape {predictions.get_shape()} and labels "
                         f"of shape {labels.get_shape()} are incompatible.")
    if labels.dtype.base_dtype != predictions.dtype.base_dtype:
        predictions = math_ops.cast(predictions, labels.dtype.base_dtype)
    is_correct = math_ops.cast(comparison_ops.equal(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections,
                name or "accuracy")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    """The mean of (labels - predictions) ** 2 over every batch seen."""
    _, basic_math_ops, _, _, _, _ = _ops()
    labels, predictions, weights = remove_squeezable_dimensions(labels, predictions,
                                                                weights=weights)
    squared_error = basic_math_ops.squared_difference(labels, predictions)
    return mean(squared_error, weights, metrics_collections, updates_collections,
                name or "mean_squared_error")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The mean of |predictions - labels| over every batch seen."""
    _, basic_math_ops, _, _, _, _ = _ops()
    labels, predictions, weights = remove_squeezable_dimensions(labels, predictions,
                                                                weights=weights)
    absolute_errors = basic_math_ops.abs(predictions - labels)
    return mean(absolute_errors, weights, metrics_collections, updates_collections,
                name or "mean_absolute_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """sqrt of mean_squared_error (state 'root_mean_squared_error/total' and '/count')."""
    _, basic_math_ops, _, _, _, _ = _ops()
    labels, predictions, weights = remove_squeezable_dimensions(labels, predictions,
                                                                weights=weights)
    mse, update_mse_op = mean_squared_error(labels, predictions, weights, None, None,
                                            name or "root_mean_squared_error")
    rmse, update_rmse_op = basic_math_ops.sqrt(mse), basic_math_ops.sqrt(update_mse_op)
    _add(metrics_collections, rmse)
    _add(updates_collections, update_rmse_op)
    return rmse, update_rmse_op


# -- counters ---------------------------------------------------------------------------

def _count_condition(values, weights=None, metrics_collections=None, updates_collections=None):
    """Sums the (weighted) true entries of the bool tensor `values` into 'count'."""
    _, _, _, math_ops, reduction_ops, state_ops = _ops()
    from ..ops.control_flow_ops import identity
    if values.dtype.base_dtype != dtypes.bool:
        raise TypeError(f"_count_condition needs bool values, got {values.dtype.name}.")
    count = metric_variable([], dtypes.float32, name="count")
    values = math_ops.cast(values, dtypes.float32)
    if weights is not None:
        weights = math_ops.cast(weights, dtypes.float32)
        _check_weights_shape(weights, values, "count")
        values = math_ops.multiply(values, weights)
    value_tensor = identity(count)
    update_op = state_ops.assign_add(count, reduction_ops.reduce_sum(values))
    _add(metrics_collections, value_tensor)
    _add(updates_collections, update_op)
    return value_tensor, update_op


def _bool_pair(labels, predictions, weights):
    _, _, _, math_ops, _, _ = _ops()
    labels, predictions, weights = remove_squeezable_dimensions(
        math_ops.cast(labels, dtypes.bool), math_ops.cast(predictions, dtypes.bool),
        weights=weights)
    if not predictions.get_shape().is_compatible_with(labels.get_shape()):
        raise ValueError(f"predictions of shape {predictions.get_shape()} and labels of shape "
                         f"{labels.get_shape()} are incompatible.")
    return labels, predictions, weights


def _counter(default_name, label_is, prediction_is):
    def metric(labels, predictions, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        _, _, comparison_ops, _, _, _ = _ops()
        with _scope(name, default_name, (predictions, labels, weights)):
            labels, predictions, weights = _bool_pair(labels, predictions, weights)
            is_label = labels if label_is else comparison_ops.logical_not(labels)
            is_pred = predictions if prediction_is else comparison_ops.logical_not(predictions)
            return _count_condition(comparison_ops.logical_and(is_label, is_pred), weights,
                                    metrics_collections, updates_collections)
    metric.__name__ = default_name
    metric.__doc__ = (f"The (weighted) number of {default_name.replace('_', ' ')}: labels "
                      f"{label_is}, predictions {prediction_is}, over every batch seen.")
    return metric


true_positives = _counter("true_positives", True, True)
false_positives = _counter("false_positives", False, True)
false_negatives = _counter("false_negatives", True, False)
true_negatives = _counter("true_negatives", False, False)


def _ratio(tp, other, name):
    """tp / (tp + other), 0 when nothing was counted (TF: where(tp + other > 0, ...))."""
    _, _, comparison_ops, math_ops, _, _ = _ops()
    total = tp + other
    return comparison_ops.where(comparison_ops.greater(total, 0),
                                math_ops.divide(tp, total), 0.0 * total, name=name)


def _ratio_metric(default_name, other_counter):
    def metric(labels, predictions, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        with _scope(name, default_name, (predictions, labels, weights)):
            labels, predictions, weights = _bool_pair(labels, predictions, weights)
            tp, tp_update = true_positives(labels, predictions, weights)
            other, other_update = other_counter(labels, predictions, weights)
            value = _ratio(tp, other, "value")
            update_op = _ratio(tp_update, other_update, "update_op")
            _add(metrics_collections, value)
            _add(updates_collections, update_op)
            return value, update_op
    metric.__name__ = default_name
    return metric


precision = _ratio_metric("precision", false_positives)
precision.__doc__ = "tp / (tp + fp) over every batch seen (0 while nothing is predicted)."
recall = _ratio_metric("recall", false_negatives)
recall.__doc__ = "tp / (tp + fn) over every batch seen (0 while there is no positive label)."


# -- AUC ----------------------------------------------------------------------------------

def _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights=None,
                                    includes=("tp", "fn", "tn", "fp")):
    """Counters tp, fn, tn, fp (those in `includes`; one per threshold, shape [T]) and their
    update ops: a prediction is positive at threshold t when prediction > t."""
    array_ops, _, comparison_ops, math_ops, reduction_ops, state_ops = _ops()
    from ..ops.constant_op import constant
    from ..ops.slicing_ops import tile
    predictions = math_ops.cast(predictions, dtypes.float32)
    known = constant_value(predictions)
    if known is not None and np.size(known) and (np.min(known) < 0 or np.max(known) > 1):
        # TF checks this when the step runs (an Assert op); a value known now is checked now.
        raise ValueError(f"predictions must be in [0, 1]: {predictions.name} has values from "
                         f"{np.min(known)} to {np.max(known)}. Pass probabilities (e.g. "
                         "tf.sigmoid(logits)), not logits.")
    labels, predictions, weights = remove_squeezable_dimensions(
        math_ops.cast(labels, dtypes.bool), predictions, weights=weights)
    num_thresholds = len(thresholds)
    predictions_2d = array_ops.reshape(predictions, [-1, 1])
    labels_2d = array_ops.reshape(labels, [1, -1])
    num_predictions = predictions_2d.get_shape().as_list()[0]
    if num_predictions is None:
        num_predictions = array_ops.shape(predictions_2d)[0]
    thresh_tiled = tile(array_ops.expand_dims(constant(thresholds, dtype=dtypes.float32), 1),
                        array_ops.stack([1, num_predictions]))
    preds_tiled = tile(array_ops.transpose(predictions_2d), [num_thresholds, 1])
    pred_is_pos = comparison_ops.greater(preds_tiled, thresh_tiled)
    label_is_pos = tile(labels_2d, [num_thresholds, 1])
    label_is_neg = comparison_ops.logical_not(label_is_pos)
    pred_is_neg = comparison_ops.logical_not(pred_is_pos)
    weights_tiled = None
    if weights is not None:
        weights = broadcast_weights(math_ops.cast(weights, dtypes.float32), predictions)
        weights_tiled = tile(array_ops.reshape(weights, [1, -1]), [num_thresholds, 1])
    values, update_ops = {}, {}
    for key, var_name, label_side, pred_side in (
            ("tp", "true_positives", label_is_pos, pred_is_pos),
            ("fn", "false_negatives", label_is_pos, pred_is_neg),
            ("tn", "true_negatives", label_is_neg, pred_is_neg),
            ("fp", "false_positives", label_is_neg, pred_is_pos)):
        if key not in includes:
            continue
        var = metric_variable([num_thresholds], dtypes.float32, name=var_name)
        hits = math_ops.cast(comparison_ops.logical_and(label_side, pred_side), dtypes.float32)
        if weights_tiled is not None:
            hits = hits * weights_tiled
        update_ops[key] = state_ops.assign_add(var, reduction_ops.reduce_sum(hits, 1))
        values[key] = var
    return values, update_ops


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
        updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal",
        thresholds=None):
    """The area under the ROC curve (curve='ROC': recall against false-positive rate) or the
    precision-recall curve (curve='PR'), from counters at `num_thresholds` thresholds evenly
    spread over [0, 1] (or the given `thresholds`); `predictions` are probabilities in [0, 1].
    summation_method: 'trapezoidal' (default), 'minoring', 'majoring' or
    'careful_interpolation' (PR only; ROC treats it as trapezoidal)."""
    _, basic_math_ops, _, math_ops, reduction_ops, _ = _ops()
    with _scope(name, "auc", (labels, predictions, weights)):
        if curve not in ("ROC", "PR"):
            raise ValueError(f"curve must be either ROC or PR, {curve} unknown")
        if summation_method not in ("trapezoidal", "careful_interpolation", "minoring",
                                    "majoring"):
            raise ValueError(f"Invalid summation_method: {summation_method}")
        kepsilon = 1e-7
        if thresholds is not None:
            thresholds = sorted(thresholds)
            num_thresholds = len(thresholds) + 2
        else:
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1)
                          for i in range(num_thresholds - 2)]
        thresholds = [0.0 - kepsilon] + list(thresholds) + [1.0 + kepsilon]
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)
        epsilon = 1.0e-6
        n = num_thresholds

        def interpolate_pr_auc(tp, fp, fn, name):
            dtp = tp[:n - 1] - tp[1:]
            p = tp + fp
            prec_slope = div_no_nan(dtp, basic_math_ops.maximum(p[:n - 1] - p[1:], 0))
            intercept = tp[1:] - prec_slope * p[1:]
            safe_p_ratio = _where_pos(p[:n - 1], p[1:])
            return reduction_ops.reduce_sum(div_no_nan(
                prec_slope * (dtp + intercept * basic_math_ops.log(safe_p_ratio)),
                basic_math_ops.maximum(tp[1:] + fn[1:], 0)), name=name)

        def compute_auc(tp, fn, tn, fp, name):
            if curve == "PR" and summation_method == "careful_interpolation":
                return interpolate_pr_auc(tp, fp, fn, name)
            rec = math_ops.divide(tp + epsilon, tp + fn + epsilon)
            if curve == "ROC":
                x, y = math_ops.divide(fp, fp + tn + epsilon), rec
            else:
                x, y = rec, math_ops.divide(tp + epsilon, tp + fp + epsilon)
            if summation_method in ("trapezoidal", "careful_interpolation"):
                heights = (y[:n - 1] + y[1:]) / 2.
            elif summation_method == "minoring":
                heights = basic_math_ops.minimum(y[:n - 1], y[1:])
            else:
                heights = basic_math_ops.maximum(y[:n - 1], y[1:])
            return reduction_ops.reduce_sum(math_ops.multiply(x[:n - 1] - x[1:], heights),
                                            name=name)

        auc_value = compute_auc(values["tp"], values["fn"], values["tn"], values["fp"],
                                "value")
        update_op = compute_auc(update_ops["tp"], update_ops["fn"], update_ops["tn"],
                                update_ops["fp"], "update_op")
        _add(metrics_collections, auc_value)
        _add(updates_collections, update_op)
        return auc_value, update_op


def _where_pos(a, b):
    """a / b where both are positive, else 1 (TF's safe_p_ratio)."""
    from ..ops import array_ops, comparison_ops
    both = comparison_ops.logical_and(comparison_ops.greater(a, 0), comparison_ops.greater(b, 0))
    return comparison_ops.where(both, div_no_nan(a, b), array_ops.ones_like(a))


def _counter_at_thresholds(key, default_name):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        from ..ops.control_flow_ops import identity
        with _scope(name, default_name, (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(
                labels, predictions, thresholds, weights=weights, includes=(key,))
            value = identity(values[key])
            _add(metrics_collections, value)
            _add(updates_collections, update_ops[key])
            return value, update_ops[key]
    metric.__name__ = default_name + "_at_thresholds"
    metric.__doc__ = (f"The (weighted) number of {default_name.replace('_', ' ')} at each of "
                      "`thresholds` (a prediction is positive when it is > the threshold): "
                      "a vector, over every batch seen.")
    return metric


true_positives_at_thresholds = _counter_at_thresholds("tp", "true_positives")
false_positives_at_thresholds = _counter_at_thresholds("fp", "false_positives")
false_negatives_at_thresholds = _counter_at_thresholds("fn", "false_negatives")
true_negatives_at_thresholds = _counter_at_thresholds("tn", "true_negatives")


def _ratio_at_thresholds(default_name, other):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        _, _, _, math_ops, _, _ = _ops()
        with _scope(name, default_name, (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(
                labels, predictions, thresholds, weights, includes=("tp", other))
            short = default_name.split("_")[0]

            def ratio(tp, rest, name):                  # tp / (tp + rest), epsilon 1e-7
                return math_ops.divide(tp, 1e-7 + tp + rest, name=f"{short}_{name}")
            value = ratio(values["tp"], values[other], "value")
            update_op = ratio(update_ops["tp"], update_ops[other], "update_op")
            _add(metrics_collections, value)
            _add(updates_collections, update_op)
            return value, update_op
    metric.__name__ = default_name
    return metric


precision_at_thresholds = _ratio_at_thresholds("precision_at_thresholds", "fp")
precision_at_thresholds.__doc__ = "tp / (tp + fp) at each of `thresholds`, over every batch."
recall_at_thresholds = _ratio_at_thresholds("recall_at_thresholds", "fn")
recall_at_thresholds.__doc__ = "tp / (tp + fn) at each of `thresholds`, over every batch."


# -- mean IoU ----------------------------------------------------------------------------

def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """The mean over classes of intersection / union (TP / (TP + FP + FN)), from a
    [num_classes, num_classes] float64 confusion matrix 'mean_iou/total_confusion_matrix'
    (rows: labels, columns: predictions). update_op adds a batch and returns that matrix."""
    array_ops, _, comparison_ops, math_ops, reduction_ops, state_ops = _ops()
    from ..ops.constant_op import constant
    from ..ops.indexing_ops import one_hot
    from ..ops.matmul_ops import matmul
    with _scope(name, "mean_iou", (predictions, labels, weights)):
        labels, predictions = convert_to_tensor(labels), convert_to_tensor(predictions)
        if not predictions.get_shape().is_compatible_with(labels.get_shape()):
            raise ValueError(f"mean_iou: predictions of shape {predictions.get_shape()} and "
                             f"labels of shape {labels.get_shape()} are incompatible.")
        total_cm = metric_variable([num_classes, num_classes], dtypes.float64,
                                   name="total_confusion_matrix")
        flat = [array_ops.reshape(math_ops.cast(t, dtypes.int64), [-1])
                for t in (labels, predictions)]
        rows, cols = (one_hot(t, num_classes, dtype=dtypes.float64) for t in flat)
        if weights is not None:
            w = array_ops.reshape(math_ops.cast(weights, dtypes.float64), [-1, 1])
            rows = rows * w
        current_cm = matmul(rows, cols, transpose_a=True)       # sum of outer products
        update_op = state_ops.assign_add(total_cm, current_cm)

        sum_over_row = math_ops.cast(reduction_ops.reduce_sum(total_cm, 0), dtypes.float32)
        sum_over_col = math_ops.cast(reduction_ops.reduce_sum(total_cm, 1), dtypes.float32)
        eye = constant(np.eye(num_classes), dtype=dtypes.float64)
        cm_diag = math_ops.cast(reduction_ops.reduce_sum(total_cm * eye, 1), dtypes.float32)
        denominator = sum_over_row + sum_over_col - cm_diag
        num_valid_entries = reduction_ops.reduce_sum(
            math_ops.cast(comparison_ops.not_equal(denominator, 0), dtypes.float32))
        denominator = comparison_ops.where(comparison_ops.greater(denominator, 0), denominator,
                                           array_ops.ones_like(denominator))
        iou = math_ops.divide(cm_diag, denominator)
        value = comparison_ops.where(
            comparison_ops.greater(num_valid_entries, 0),
            reduction_ops.reduce_sum(iou, name="mean_iou") / num_valid_entries,
            0.0 * num_valid_entries)
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


# -- means of derived values ----------------------------------------------------------------

def _squeeze_or_expand_weights(predictions, labels, weights):
    """TF's metrics_impl._remove_squeezable_dimensions on static shapes: squeezes labels or
    predictions whose rank is one more, then squeezes (rank + 1) or expands (rank - 1) the
    last dimension of non-scalar `weights` to the rank of `predictions`."""
    from ..ops import array_ops
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        labels, predictions, _ = remove_squeezable_dimensions(labels, predictions)
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
    if weights is None:
        return predictions, labels, None
    weights = convert_to_tensor(weights)
    w_rank, p_rank = weights.get_shape().ndims, predictions.get_shape().ndims
    if w_rank not in (None, 0) and p_rank is not None:
        if w_rank - p_rank == 1:
            weights = array_ops.squeeze(weights, [-1])
        elif p_rank - w_rank == 1:
            weights = array_ops.expand_dims(weights, -1)
    return predictions, labels, weights


def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """1 - the (weighted) mean of sum(labels * predictions, axis=dim): the cosine distance of
    unit-normalized vectors (state 'mean_cosine_distance/total' and '/count'). As in TF the
    value and update op are `1 - mean` built outside the metric's scope ('Sub', 'Sub_1')."""
    _, basic_math_ops, _, math_ops, reduction_ops, _ = _ops()
    predictions, labels, weights = _squeeze_or_expand_weights(predictions, labels, weights)
    radial_diffs = reduction_ops.reduce_sum(math_ops.multiply(predictions, labels), axis=[dim],
                                            keepdims=True)
    mean_distance, update_op = mean(radial_diffs, weights, None, None,
                                    name or "mean_cosine_distance")
    mean_distance = basic_math_ops.subtract(1.0, mean_distance)
    update_op = basic_math_ops.subtract(1.0, update_op)
    _add(metrics_collections, mean_distance)
    _add(updates_collections, update_op)
    return mean_distance, update_op


def mean_relative_error(labels, predictions, normalizer, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The (weighted) mean of |labels - predictions| / normalizer (0 where normalizer is 0)."""
    array_ops, basic_math_ops, comparison_ops, math_ops, _, _ = _ops()
    predictions, labels, weights = _squeeze_or_expand_weights(predictions, labels, weights)
    predictions, normalizer, _ = remove_squeezable_dimensions(predictions, normalizer)
    predictions.get_shape().assert_is_compatible_with(normalizer.get_shape())
    relative_errors = comparison_ops.where(
        comparison_ops.equal(normalizer, 0.0), array_ops.zeros_like(labels),
        math_ops.divide(basic_math_ops.abs(labels - predictions), normalizer))
    return mean(relative_errors, weights, metrics_collections, updates_collections,
                name or "mean_relative_error")


def percentage_below(values, threshold, weights=None, metrics_collections=None,
                     updates_collections=None, name=None):
    """The (weighted) fraction of `values` < `threshold` (state
    'percentage_below_threshold/total' and '/count')."""
    _, _, comparison_ops, math_ops, _, _ = _ops()
    is_below_threshold = math_ops.cast(comparison_ops.less(values, threshold), dtypes.float32)
    return mean(is_below_threshold, weights, metrics_collections, updates_collections,
                name or "percentage_below_threshold")


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None,
                name=None):
    """The element-wise (weighted) mean of `values` over every batch: state
    'mean/total_tensor' and 'mean/count_tensor' of the values' (fully defined) shape."""
    array_ops, basic_math_ops, _, math_ops, _, state_ops = _ops()
    from ..framework.graph import control_dependencies
    with _scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, dtypes.float32)
        total = metric_variable(values.get_shape(), dtypes.float32, name="total_tensor")
        count = metric_variable(values.get_shape(), dtypes.float32, name="count_tensor")
        num_values = array_ops.ones_like(values)
        if weights is not None:
            values, _, weights = _squeeze_or_expand_weights(values, None, weights)
            weights = broadcast_weights(math_ops.cast(weights, dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.multiply(num_values, weights)
        update_total_op = state_ops.assign_add(total, values)
        with control_dependencies([values]):
            update_count_op = state_ops.assign_add(count, num_values)
        mean_t = div_no_nan(total, basic_math_ops.maximum(count, 0.0), name="value")
        update_op = div_no_nan(update_total_op, basic_math_ops.maximum(update_count_op, 0.0),
                               name="update_op")
        _add(metrics_collections, mean_t)
        _add(updates_collections, update_op)
        return mean_t, update_op


def mean_per_class_accuracy(labels, predictions, num_classes, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
    """The mean over classes of the (weighted) accuracy of the examples labelled with each
    class: state 'mean_accuracy/total' (examples per class) and 'mean_accuracy/count'
    (correct ones), both [num_classes]. As in TF, update_op returns the per-class accuracies
    (a vector), the value their mean (a class never seen counts as 0)."""
    array_ops, basic_math_ops, comparison_ops, math_ops, reduction_ops, state_ops = _ops()
    with _scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = math_ops.cast(labels, dtypes.int64)
        predictions = convert_to_tensor(predictions)
        if labels.get_shape().ndims > 1:
            labels = array_ops.reshape(labels, [-1])
        if predictions.get_shape().ndims > 1:
            predictions = array_ops.reshape(predictions, [-1])
        predictions.get_shape().assert_is_compatible_with(labels.get_shape())
        total = metric_variable([num_classes], dtypes.float32, name="total")
        count = metric_variable([num_classes], dtypes.float32, name="count")
        ones = array_ops.ones(array_ops.reshape(array_ops.size(labels), [1]), dtypes.float32)
        if labels.dtype != predictions.dtype:
            predictions = math_ops.cast(predictions, labels.dtype)
        is_correct = math_ops.cast(comparison_ops.equal(predictions, labels), dtypes.float32)
        if weights is not None:
            weights = convert_to_tensor(weights)
            if weights.get_shape().ndims > 1:
                weights = array_ops.reshape(weights, [-1])
            weights = math_ops.cast(weights, dtypes.float32)
            is_correct = is_correct * weights
            ones = ones * weights
        update_total_op = state_ops.scatter_add(total, labels, ones)
        update_count_op = state_ops.scatter_add(count, labels, is_correct)
        per_class = div_no_nan(count, basic_math_ops.maximum(total, 0.0))
        value = reduction_ops.reduce_mean(per_class, name="mean_accuracy")
        update_op = div_no_nan(update_count_op, basic_math_ops.maximum(update_total_op, 0.0),
                               name="update_op")
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


# -- one rate at a given value of the other ------------------------------------------------

def _rate_at_rate(default_name, target_name, target, labels, predictions, weights,
                  num_thresholds, metrics_collections, updates_collections, name):
    """sensitivity_at_specificity / specificity_at_sensitivity: the four counters at
    `num_thresholds` thresholds, the threshold whose one rate is nearest `target`, and the
    other rate there (TF's choice of ties: the first such threshold for a sensitivity, the
    last for a specificity; TF's top threshold is 1 + 1e-7 and 1 - 1e-7 respectively)."""
    array_ops, basic_math_ops, comparison_ops, math_ops, reduction_ops, _ = _ops()
    if target < 0 or target > 1:
        verb = "got" if target_name == "specificity" else "is"      # TF's two messages
        raise ValueError(f"`{target_name}` must be in the range [0, 1]. Currently, "
                         f"`{target_name}` {verb} {target}.")
    with _scope(name, default_name, (predictions, labels, weights)):
        kepsilon = 1e-7
        top = 1.0 + kepsilon if default_name == "sensitivity_at_specificity" else 1.0 - kepsilon
        thresholds = [0.0 - kepsilon] + [(i + 1) * 1.0 / (num_thresholds - 1)
                                         for i in range(num_thresholds - 2)] + [top]
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)

        def compute(tp, tn, fp, fn, op_name):
            if default_name == "sensitivity_at_specificity":
                rates = math_ops.divide(tn, tn + fp + kepsilon)
                index = reduction_ops.argmin(basic_math_ops.abs(rates - target), 0)
                num, other = tp, fn
            else:
                rates = math_ops.divide(tp, tp + fn + kepsilon)
                distance = basic_math_ops.abs(rates - target)
                at_min = math_ops.cast(comparison_ops.equal(
                    distance, reduction_ops.reduce_min(distance)), dtypes.int64)
                index = reduction_ops.argmax(reduction_ops.cumsum(at_min), 0)
                num, other = tn, fp
            index = math_ops.cast(index, dtypes.int32)
            return math_ops.divide(num[index], num[index] + other[index] + kepsilon,
                                   name=op_name)

        value = compute(values["tp"], values["tn"], values["fp"], values["fn"], "value")
        update_op = compute(update_ops["tp"], update_ops["tn"], update_ops["fp"],
                            update_ops["fn"], "update_op")
        _add(metrics_collections, value)
        _add(updates_collections, update_op)
        return value, update_op


def sensitivity_at_specificity(labels, predictions, specificity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The sensitivity (recall, tp / (tp + fn)) at the threshold whose specificity
    (tn / (tn + fp)) is nearest `specificity`, among `num_thresholds` thresholds in [0, 1];
    `predictions` are probabilities. State: the four counters, each [num_thresholds]."""
    return _rate_at_rate("sensitivity_at_specificity", "specificity", specificity, labels,
                         predictions, weights, num_thresholds, metrics_collections,
                         updates_collections, name)


def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The specificity (tn / (tn + fp)) at the threshold whose sensitivity (tp / (tp + fn))
    is nearest `sensitivity` (the last such threshold), among `num_thresholds` thresholds."""
    return _rate_at_rate("specificity_at_sensitivity", "sensitivity", sensitivity, labels,
                         predictions, weights, num_thresholds, metrics_collections,
                         updates_collections, name)
