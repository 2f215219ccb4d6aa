"""Ranking metrics: precision / recall / average precision of the top k classes -- mirrors the
*_at_k part of TensorFlow 1.x's python/ops/metrics_impl.py.

    precision_at_k(labels, predictions, k)    tp / (tp + fp) over the top k classes of
                                              `predictions` ([..., num_classes] scores)
    recall_at_k(labels, predictions, k)       tp / (tp + fn)
    precision_at_top_k, recall_at_top_k       the same from `predictions_idx`, the top k
                                              class ids already chosen ([..., k])
    average_precision_at_k(labels, predictions, k)
                                              the mean over examples of average precision@k
    sparse_precision_at_k, sparse_average_precision_at_k
                                              TF's deprecated names of the two above

`labels` are class ids: an int Tensor [..., num_labels] (or [...], one label each), or a
SparseTensor of them (a different number of labels per example). For each example, the
top-k ids and its labels are two *sets*: tp counts the ids in both, fp the predicted ids that
are no label, fn the labels not predicted. `class_id` restricts both sets to that one class
(binary precision / recall of the class). `weights` are one per example ([...]) or a scalar.
State: float64 counters 'precision_at_<k>/true_positive_at_<k>' and '.../false_positive_at_<k>'
(recall: false_negative_at_<k>); average_precision_at_<k>/total and /max. The value divides
the counters as they are (tp / (tp + fp) is NaN before any update, as in TF).

TF computes the per-example counts with its set ops (tf.sets.set_intersection,
set_difference, set_size; with class_id, also sparse_retain and a set_intersection with a
filled tensor). The sandbox has no set ops: the one sandbox op of this module, SetCountPerRow,
does that computation in NumPy -- the size of the intersection / a minus b / b minus a of each
row's two sets, with the class filter applied first, or (for average precision) whether each
predicted id is a label of its row. Dense labels count every value, negative ones too, as TF's
dense set ops do; only average precision's number of relevant labels skips negative labels.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor, convert_to_tensor_or_sparse_tensor
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..losses.weights_broadcast import assert_broadcastable, broadcast_weights, div_no_nan
from .metrics_impl import _add, metric_variable

__all__ = ["precision_at_k", "recall_at_k", "precision_at_top_k", "recall_at_top_k",
           "sparse_precision_at_k", "average_precision_at_k", "sparse_average_precision_at_k"]


# -- the set computation (a sandbox op) --------------------------------------------------------

def _label_rows(num_rows, outer_shape, b, b_sparse):
    """A list of num_rows Python sets: the labels of each row."""
    if not b_sparse:
        b = np.asarray(b)
        if tuple(b.shape[:-1]) != tuple(outer_shape):
            raise errors.InvalidArgumentError(
                None, None, f"Shape mismatch: labels of shape {list(b.shape)} do not match the "
                f"predictions' leading dimensions {list(outer_shape)}.")
        return [set(row.tolist()) for row in b.reshape(num_rows, -1)]
    indices, values, shape = b
    indices, shape = np.asarray(indices, np.int64), np.asarray(shape, np.int64)
    if shape.size == len(outer_shape):             # labels [D1..DN]: one label per row
        indices = np.concatenate([indices, np.zeros((len(indices), 1), np.int64)], 1)
        shape = np.concatenate([shape, [1]])
    if tuple(shape[:-1]) != tuple(outer_shape):
        raise errors.InvalidArgumentError(
            None, None, f"Shape mismatch: labels of dense shape {shape.tolist()} do not match "
            f"the predictions' leading dimensions {list(outer_shape)}.")
    rows = [set() for _ in range(num_rows)]
    if len(indices):
        flat = np.ravel_multi_index(tuple(indices[:, :-1].T), tuple(shape[:-1])) \
            if len(outer_shape) else np.zeros(len(indices), np.int64)
        for r, v in zip(flat.tolist(), np.asarray(values).tolist()):
            rows[r].add(v)
    return rows


class SetCountPerRow(OpDef):
    """Per row (all dimensions but the last) of `a` (int ids [..., k]) and of the labels b
    (dense [..., n], or sparse indices, values, dense_shape): with `has_class_id` both sets
    keep only that id, then mode 'intersection' / 'a_minus_b' / 'b_minus_a' gives the size of
    that set (int32 [...]), 'size_b' the number of distinct labels, and 'member' gives, for
    each entry of a, 1 when it is a label of its row (int32 [..., k]). A sandbox op: TF builds
    this from its set ops (see the module docstring)."""
    differentiable = False

    def shape(op):
        a_shape = op.inputs[0].get_shape()
        if op.get_attr("mode") == "member":
            return a_shape
        return a_shape[:-1] if a_shape.ndims is not None else TensorShape(None)

    def kernel(a, *b, mode=None, class_id=0, has_class_id=False, b_sparse=False):
        a = np.asarray(a)
        outer = a.shape[:-1]
        num_rows = int(np.prod(outer, dtype=np.int64))
        a_rows = a.reshape(num_rows, a.shape[-1])
        label_rows = _label_rows(num_rows, outer, b if b_sparse else b[0], b_sparse)
        if mode == "member":
            out = np.array([[1 if v in labels else 0 for v in row]
                            for row, labels in zip(a_rows.tolist(), label_rows)], np.int32)
            return out.reshape(a.shape)
        out = np.zeros(num_rows, np.int32)
        for i, (row, labels) in enumerate(zip(a_rows.tolist(), label_rows)):
            predicted = set(row)
            if has_class_id:
                predicted &= {class_id}
                labels = labels & {class_id}
            out[i] = len({"intersection": lambda: predicted & labels,
                          "a_minus_b": lambda: predicted - labels,
                          "b_minus_a": lambda: labels - predicted,
                          "size_b": lambda: labels}[mode]())
        return out.reshape(outer)


def _set_count(predictions_idx, labels, mode, class_id=None, name=None):
    attrs = {"mode": mode, "class_id": 0 if class_id is None else int(class_id),
             "has_class_id": class_id is not None, "b_sparse": isinstance(labels, SparseTensor)}
    inputs = [predictions_idx] + ([labels.indices, labels.values, labels.dense_shape]
                                  if attrs["b_sparse"] else [labels])
    return apply_op("SetCountPerRow", inputs, attrs, name=name or "SetCountPerRow",
                    output_dtypes=[dtypes.int32])


# -- helpers as in TF --------------------------------------------------------------------------

def _ops():
    from ..ops import array_ops, comparison_ops, math_ops, reduction_ops, state_ops
    return array_ops, comparison_ops, math_ops, reduction_ops, state_ops


def _at_k_name(name, k=None, class_id=None):
    name = f"{name}_at_{k}" if k is not None else f"{name}_at_k"
    return f"{name}_class{class_id}" if class_id is not None else name


def _maybe_expand_labels(labels, predictions):
    """labels [D1..DN] next to predictions [D1..DN, k] become [D1..DN, 1] (a SparseTensor is
    expanded by the set op itself)."""
    array_ops = _ops()[0]
    labels = convert_to_tensor_or_sparse_tensor(labels)
    if isinstance(labels, SparseTensor):
        return labels
    l_rank, p_rank = labels.get_shape().ndims, predictions.get_shape().ndims
    if l_rank is None or p_rank is None or p_rank == l_rank:
        return labels
    if p_rank == l_rank + 1:
        return array_ops.expand_dims(labels, -1, name="expand_labels")
    raise ValueError(f"Unexpected labels shape {labels.get_shape()} for predictions shape "
                     f"{predictions.get_shape()}. Predictions rank should be the same rank as "
                     "labels rank or labels rank plus one .")


def _labels_int64(labels):
    _, _, math_ops, _, _ = _ops()
    if isinstance(labels, SparseTensor):
        if labels.values.dtype.base_dtype != dtypes.int64:
            labels = SparseTensor(labels.indices, math_ops.cast(labels.values, dtypes.int64),
                                  labels.dense_shape)
        return labels
    return math_ops.cast(labels, dtypes.int64)


def _weighted_count(labels, predictions_idx, mode, class_id, weights):
    """The per-row count of `mode` as float64, times `weights`."""
    _, _, math_ops, _, _ = _ops()
    count = math_ops.cast(_set_count(predictions_idx, labels, mode, class_id), dtypes.float64)
    if weights is not None:
        weights = convert_to_tensor(weights)
        assert_broadcastable(weights, count)
        count = math_ops.multiply(count, math_ops.cast(weights, dtypes.float64))
    return count


def _streaming_count(prefix, mode, labels, predictions_idx, k, class_id, weights):
    """A float64 counter named '<prefix>_at_<k>[_class<id>]' and its update op."""
    _, _, math_ops, reduction_ops, state_ops = _ops()
    default = {"intersection": "true_positives", "a_minus_b": "false_positives",
               "b_minus_a": "false_negatives"}[mode]
    with name_scope(None, _at_k_name(prefix, k, class_id=class_id),
                    (predictions_idx, labels, weights)) as scope:
        with name_scope(None, default, (predictions_idx, labels, weights)):
            count = _weighted_count(labels, predictions_idx, mode, class_id, weights)
        batch_total = math_ops.cast(reduction_ops.reduce_sum(count), dtypes.float64)
        var = metric_variable([], dtypes.float64, name=scope)
        return var, state_ops.assign_add(var, batch_total, name="update")


def _ratio_at_top_k(metric, other_prefix, other_mode, labels, predictions_idx, k, class_id,
                    weights, metrics_collections, updates_collections, name):
    _, _, math_ops, _, _ = _ops()
    with name_scope(name, _at_k_name(metric, k, class_id=class_id),
                    (predictions_idx, labels, weights)) as scope:
        predictions_idx = convert_to_tensor(predictions_idx)
        labels = _labels_int64(_maybe_expand_labels(labels, predictions_idx))
        top_k_idx = math_ops.cast(predictions_idx, dtypes.int64)
        tp, tp_update = _streaming_count("true_positive", "intersection", labels, top_k_idx, k,
                                         class_id, weights)
        other, other_update = _streaming_count(other_prefix, other_mode, labels, top_k_idx, k,
                                               class_id, weights)
        value = math_ops.divide(tp, math_ops.add(tp, other), name=scope)
        update = math_ops.divide(tp_update, math_ops.add(tp_update, other_update),
                                 name="update")
        _add(metrics_collections, value)
        _add(updates_collections, update)
        return value, update


# -- precision / recall ------------------------------------------------------------------------

def precision_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                       metrics_collections=None, updates_collections=None, name=None):
    """precision@k from the top-k class ids `predictions_idx` ([..., k]): tp / (tp + fp),
    float64 (`k` only names the scope: 'precision_at_<k>', or 'precision_at_k')."""
    return _ratio_at_top_k("precision", "false_positive", "a_minus_b", labels, predictions_idx,
                           k, class_id, weights, metrics_collections, updates_collections, name)


def recall_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                    metrics_collections=None, updates_collections=None, name=None):
    """recall@k from the top-k class ids `predictions_idx` ([..., k]): tp / (tp + fn),
    float64. Labels outside [0, num_classes) always count as false negatives."""
    return _ratio_at_top_k("recall", "false_negative", "b_minus_a", labels, predictions_idx,
                           k, class_id, weights, metrics_collections, updates_collections, name)


def _at_k(metric, at_top_k, labels, predictions, k, class_id, weights, metrics_collections,
          updates_collections, name):
    from ..ops.nn_impl import top_k
    with name_scope(name, _at_k_name(metric, k, class_id=class_id),
                    (predictions, labels, weights)) as scope:
        _, top_k_idx = top_k(predictions, k)
        return at_top_k(labels=labels, predictions_idx=top_k_idx, k=k, class_id=class_id,
                        weights=weights, metrics_collections=metrics_collections,
                        updates_collections=updates_collections, name=scope)


def precision_at_k(labels, predictions, k, class_id=None, weights=None,
                   metrics_collections=None, updates_collections=None, name=None):
    """precision@k: of the k classes with the highest `predictions` ([..., num_classes]) of
    each example, the (weighted) fraction that are labels, over every batch seen (float64).
    With `class_id`: of the examples with class_id in their top k, the fraction labelled so."""
    return _at_k("precision", precision_at_top_k, labels, predictions, k, class_id, weights,
                 metrics_collections, updates_collections, name)


def sparse_precision_at_k(labels, predictions, k, class_id=None, weights=None,
                          metrics_collections=None, updates_collections=None, name=None):
    """TF's deprecated name of precision_at_k."""
    return precision_at_k(labels=labels, predictions=predictions, k=k, class_id=class_id,
                          weights=weights, metrics_collections=metrics_collections,
                          updates_collections=updates_collections, name=name)


def recall_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """recall@k: of the labels of each example, the (weighted) fraction among the k classes
    with the highest `predictions`, over every batch seen (float64). With `class_id`: of the
    examples labelled class_id, the fraction with class_id in their top k."""
    return _at_k("recall", recall_at_top_k, labels, predictions, k, class_id, weights,
                 metrics_collections, updates_collections, name)


# -- average precision ---------------------------------------------------------------------------

def _num_relevant(labels, k, predictions_idx):
    """Per row: min(k, number of labels) -- distinct labels of a SparseTensor, non-negative
    entries of a dense one."""
    array_ops, comparison_ops, math_ops, reduction_ops, _ = _ops()
    from ..ops.basic_math_ops import minimum
    if k < 1:
        raise ValueError(f"Invalid k={k}")
    with name_scope(None, "num_relevant", (labels,)) as scope:
        if isinstance(labels, SparseTensor):
            return minimum(_set_count(predictions_idx, labels, "size_b"), k, name=scope)
        num_labels = reduction_ops.reduce_sum(comparison_ops.where(
            comparison_ops.greater_equal(labels, 0), array_ops.ones_like(labels),
            array_ops.zeros_like(labels)), axis=-1)
        return minimum(num_labels, math_ops.cast(k, num_labels.dtype.base_dtype), name=scope)


def _sparse_average_precision_at_top_k(labels, predictions_idx):
    """Per row, sum over i <= k of precision@i * rel(i), divided by min(k, #labels)."""
    array_ops, _, math_ops, reduction_ops, _ = _ops()
    with name_scope(None, "average_precision", (predictions_idx, labels)) as scope:
        predictions_idx = math_ops.cast(predictions_idx, dtypes.int64, name="predictions_idx")
        if predictions_idx.get_shape().ndims == 0:
            raise ValueError("The rank of `predictions_idx` must be at least 1.")
        k = predictions_idx.get_shape().as_list()[-1]
        if k is None:
            raise ValueError("The last dimension of predictions_idx must be set. Currently, it "
                             "is None.")
        labels = _labels_int64(_maybe_expand_labels(labels, predictions_idx))
        relevant_per_k = math_ops.cast(
            _set_count(predictions_idx, labels, "member", name="relevant_per_k"),
            dtypes.float64)
        tp_per_k = reduction_ops.cumsum(relevant_per_k, axis=-1, name="tp_per_k")
        retrieved_per_k = reduction_ops.cumsum(array_ops.ones_like(relevant_per_k), axis=-1,
                                               name="retrieved_per_k")
        precision_per_k = math_ops.divide(tp_per_k, retrieved_per_k, name="precision_per_k")
        relevant_precision_per_k = math_ops.multiply(precision_per_k, relevant_per_k,
                                                     name="relevant_precision_per_k")
        precision_sum = reduction_ops.reduce_sum(relevant_precision_per_k, axis=(-1,),
                                                 name="precision_sum")
        num_relevant_items = math_ops.cast(_num_relevant(labels, k, predictions_idx),
                                           dtypes.float64)
        return math_ops.divide(precision_sum, num_relevant_items, name=scope)


def _streaming_average_precision_at_top_k(labels, predictions_idx, weights=None,
                                          metrics_collections=None, updates_collections=None,
                                          name=None):
    array_ops, _, math_ops, reduction_ops, state_ops = _ops()
    with name_scope(name, "average_precision_at_top_k",
                    (predictions_idx, labels, weights)) as scope:
        average_precision = _sparse_average_precision_at_top_k(labels, predictions_idx)
        if weights is not None:
            weights = broadcast_weights(math_ops.cast(weights, dtypes.float64),
                                        average_precision)
            average_precision = math_ops.multiply(average_precision, weights)
        with name_scope(None, "max", (average_precision,)) as max_scope:
            max_var = metric_variable([], dtypes.float64, name=max_scope)
            if weights is None:
                batch_max = math_ops.cast(array_ops.size(average_precision, name="batch_max"),
                                          dtypes.float64)
            else:
                batch_max = reduction_ops.reduce_sum(weights, name="batch_max")
            max_update = state_ops.assign_add(max_var, batch_max, name="update")
        with name_scope(None, "total", (average_precision,)) as total_scope:
            total_var = metric_variable([], dtypes.float64, name=total_scope)
            batch_total = reduction_ops.reduce_sum(average_precision, name="batch_total")
            total_update = state_ops.assign_add(total_var, batch_total, name="update")
        value = div_no_nan(total_var, max_var, name="mean")
        update = div_no_nan(total_update, max_update, name=scope)
        _add(metrics_collections, value)
        _add(updates_collections, update)
        return value, update


def _clean_out_of_range_indices(labels, num_classes):
    """Labels >= num_classes become -1 (ignored), under a cond on their max as in TF."""
    array_ops, comparison_ops, _, reduction_ops, _ = _ops()
    from ..ops.cond_v2 import cond
    from ..ops.control_flow_ops import identity

    def clean(values):
        return comparison_ops.where(comparison_ops.greater_equal(values, num_classes),
                                    -1 * array_ops.ones_like(values), values)

    values = labels.values if isinstance(labels, SparseTensor) else labels
    max_labels = reduction_ops.reduce_max(values)
    cleaned = cond(comparison_ops.greater_equal(max_labels, num_classes),
                   lambda: clean(values), lambda: identity(values))
    if isinstance(labels, SparseTensor):
        return SparseTensor(labels.indices, cleaned, labels.dense_shape)
    return cleaned


def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """The (weighted) mean over examples of average precision@k of the k classes with the
    highest `predictions`: per example, sum over i <= k of precision@i for each hit at rank
    i, divided by min(k, number of labels); labels outside [0, num_classes) are ignored.
    State 'average_precision_at_<k>/total' and '.../max' (TF names it 'max_1': its scope
    'max' meets the op 'Max' of the label check, and TF's names ignore case)."""
    _, _, math_ops, _, _ = _ops()
    from ..ops.array_ops import shape
    from ..ops.nn_impl import top_k
    if k < 1:
        raise ValueError(f"Invalid k={k}. `k` should be >= 1.")
    with name_scope(name, _at_k_name("average_precision", k),
                    (predictions, labels, weights)) as scope:
        predictions = convert_to_tensor(predictions)
        _, predictions_idx = top_k(predictions, k)
        labels = _labels_int64(convert_to_tensor_or_sparse_tensor(labels))
        labels = _clean_out_of_range_indices(
            labels, math_ops.cast(shape(predictions)[-1], dtypes.int64))
        return _streaming_average_precision_at_top_k(
            labels=labels, predictions_idx=predictions_idx, weights=weights,
            metrics_collections=metrics_collections, updates_collections=updates_collections,
            name=scope)


def sparse_average_precision_at_k(labels, predictions, k, weights=None,
                                  metrics_collections=None, updates_collections=None,
                                  name=None):
    """TF's deprecated name of average_precision_at_k."""
    return average_precision_at_k(labels=labels, predictions=predictions, k=k, weights=weights,
                                  metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=name)
