"""The loss functions -- mirrors TensorFlow 1.x's python/ops/losses/losses_impl.py.

Each loss is two steps, as in TF:

  1. a per-example (per-element) loss built from ordinary ops, e.g. (predictions - labels)**2;
  2. compute_weighted_loss: multiply by `weights`, reduce as `reduction` says, cast back to
     the input's dtype, and add the result to GraphKeys.LOSSES.

The reductions (tf.losses.Reduction), for weighted losses l * w:

    NONE                    the weighted losses, unreduced (same shape as the losses)
    SUM                     sum(l * w)
    MEAN                    sum(l * w) / sum(w)
    SUM_OVER_BATCH_SIZE     sum(l * w) / number of losses
    SUM_BY_NONZERO_WEIGHTS  sum(l * w) / number of losses whose weight is not 0  (TF-1's
                            default: a weight of 0 masks an example out of the mean)

Every division is "safe": 0 / 0 is 0 (TF's DivNoNan), so an all-zero weight gives loss 0.
Ops are named as in TF: the result of softmax_cross_entropy is
'softmax_cross_entropy_loss/value'.
"""
from ..framework import dtypes
from ..framework.graph import GraphKeys, get_default_graph, name_scope
from ..framework.tensor import convert_to_tensor
from . import util
from .weights_broadcast import assert_broadcastable, broadcast_weights, div_no_nan, \
    remove_squeezable_dimensions

__all__ = ["Reduction", "compute_weighted_loss", "absolute_difference", "cosine_distance",
           "hinge_loss",
           "huber_loss", "log_loss", "mean_pairwise_squared_error", "mean_squared_error",
           "sigmoid_cross_entropy",
           "softmax_cross_entropy", "sparse_softmax_cross_entropy"]


class Reduction:
    """How compute_weighted_loss reduces the weighted losses (see the module docstring)."""
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Use one of tf.losses.Reduction's: "
                             f"{', '.join(repr(k) for k in cls.all()[:5])}.")


def _ops():
    from ..ops import array_ops, basic_math_ops, math_ops, reduction_ops
    return array_ops, basic_math_ops, math_ops, reduction_ops


def _num_present(losses, weights, per_batch=False):
    """How many losses have a non-zero weight (after broadcasting the weights); per_batch:
    for each example, shaped [batch, 1, ...] (summed over all axes but the first)."""
    if isinstance(weights, float) and weights != 0.0:
        return _num_elements(losses)
    array_ops, _, math_ops, reduction_ops = _ops()
    from ..ops import comparison_ops
    with name_scope(None, "num_present", (losses, weights)) as scope:
        weights = math_ops.cast(weights, dtypes.float32)
        present = comparison_ops.where(comparison_ops.equal(weights, 0.0),
                                       array_ops.zeros_like(weights),
                                       array_ops.ones_like(weights))
        present = broadcast_weights(present, losses)
        if per_batch:
            return reduction_ops.reduce_sum(present, axis=_all_but_first_axis(present),
                                            keepdims=True, name=scope)
        return reduction_ops.reduce_sum(present, name=scope)


def _all_but_first_axis(x):
    """range(1, rank(x)): the axes of each example of a batch."""
    array_ops, _, _, _ = _ops()
    return array_ops.range(1, array_ops.rank(x))


def _num_elements(losses):
    array_ops, _, math_ops, _ = _ops()
    with name_scope(None, "num_elements", [losses]) as scope:
        return math_ops.cast(array_ops.size(losses, name=scope), losses.dtype)


def _safe_mean(loss, num_present):
    return div_no_nan(loss, num_present, name="value")


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """losses * weights, reduced by `reduction`, added to `loss_collection`; see the module
    docstring. `weights` is a scalar or broadcastable to `losses`."""
    Reduction.validate(reduction)
    array_ops, _, math_ops, reduction_ops = _ops()
    with name_scope(scope, "weighted_loss", (losses, weights)):
        get_default_graph()._last_loss_reduction = reduction
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype.base_dtype
        losses = math_ops.cast(losses, dtypes.float32)
        weights_t = math_ops.cast(weights, dtypes.float32)
        assert_broadcastable(weights_t, losses)
        weighted_losses = math_ops.multiply(losses, weights_t)
        if reduction == Reduction.NONE:
            loss = weighted_losses
        else:
            loss = reduction_ops.reduce_sum(weighted_losses)
            if reduction == Reduction.MEAN:
                loss = _safe_mean(loss, reduction_ops.reduce_sum(
                    array_ops.ones_like(losses) * weights_t))
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = _safe_mean(loss, _num_present(losses, weights))
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = _safe_mean(loss, _num_elements(losses))
        loss = math_ops.cast(loss, input_dtype)
        util.add_loss(loss, loss_collection)
        return loss


def _check(labels, predictions, labels_name="labels", predictions_name="predictions"):
    if labels is None:
        raise ValueError(f"{labels_name} must not be None.")
    if predictions is None:
        raise ValueError(f"{predictions_name} must not be None.")


def _float_pair(labels, predictions, loss_name):
    """labels and predictions as float32 tensors of compatible shapes."""
    _, _, math_ops, _ = _ops()
    predictions = math_ops.cast(predictions, dtypes.float32)
    labels = math_ops.cast(labels, dtypes.float32)
    if not predictions.get_shape().is_compatible_with(labels.get_shape()):
        raise ValueError(f"{loss_name}: the shapes of predictions {predictions.get_shape()} and "
                         f"labels {labels.get_shape()} are incompatible. They must match "
                         "(reshape one of them).")
    return labels, predictions


def absolute_difference(labels, predictions, weights=1.0, scope=None,
                        loss_collection=GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """|predictions - labels|, weighted and reduced."""
    _check(labels, predictions)
    _, basic_math_ops, math_ops, _ = _ops()
    with name_scope(scope, "absolute_difference", (predictions, labels, weights)) as scope:
        labels, predictions = _float_pair(labels, predictions, "absolute_difference")
        losses = basic_math_ops.abs(math_ops.subtract(predictions, labels))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None,
                    loss_collection=GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """1 - sum(predictions * labels, axis): the cosine distance of vectors that are already
    unit-normalized (tf.nn.l2_normalize) along `axis`."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("You must specify 'axis'.")
    _check(labels, predictions)
    _, _, math_ops, reduction_ops = _ops()
    with name_scope(scope, "cosine_distance_loss", (predictions, labels, weights)) as scope:
        labels, predictions = _float_pair(labels, predictions, "cosine_distance")
        radial_diffs = math_ops.multiply(predictions, labels)
        losses = 1 - reduction_ops.reduce_sum(radial_diffs, axis=(axis,), keepdims=True)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """max(0, 1 - (2 * labels - 1) * logits): labels are 0 or 1, read as -1 or +1."""
    _check(labels, logits, predictions_name="logits")
    array_ops, _, math_ops, _ = _ops()
    from ..ops import nn_ops
    with name_scope(scope, "hinge_loss", (logits, labels, weights)) as scope:
        labels, logits = _float_pair(labels, logits, "hinge_loss")
        all_ones = array_ops.ones_like(labels)
        labels = math_ops.subtract(2 * labels, all_ones)
        losses = nn_ops.relu(math_ops.subtract(all_ones, math_ops.multiply(labels, logits)))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None,
               loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """0.5 * e**2 where |e| <= delta, else delta * (|e| - 0.5 * delta), e = predictions -
    labels: quadratic near zero, linear (robust to outliers) beyond delta."""
    _check(labels, predictions)
    _, basic_math_ops, math_ops, _ = _ops()
    with name_scope(scope, "huber_loss", (predictions, labels, weights)) as scope:
        labels, predictions = _float_pair(labels, predictions, "huber_loss")
        abs_error = basic_math_ops.abs(math_ops.subtract(predictions, labels))
        quadratic = basic_math_ops.minimum(abs_error, delta)
        linear = math_ops.subtract(abs_error, quadratic)
        losses = math_ops.add(
            math_ops.multiply(convert_to_tensor(0.5, dtype=quadratic.dtype),
                              math_ops.multiply(quadratic, quadratic)),
            math_ops.multiply(delta, linear))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None,
             loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """-labels * log(predictions + eps) - (1 - labels) * log(1 - predictions + eps), for
    predictions that are probabilities (not logits)."""
    _check(labels, predictions)
    _, basic_math_ops, math_ops, _ = _ops()
    with name_scope(scope, "log_loss", (predictions, labels, weights)) as scope:
        labels, predictions = _float_pair(labels, predictions, "log_loss")
        losses = -math_ops.multiply(labels, basic_math_ops.log(predictions + epsilon)) - \
            math_ops.multiply(1 - labels, basic_math_ops.log(1 - predictions + epsilon))
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def mean_squared_error(labels, predictions, weights=1.0, scope=None,
                       loss_collection=GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """(predictions - labels) ** 2, weighted and reduced."""
    _check(labels, predictions)
    _, basic_math_ops, _, _ = _ops()
    with name_scope(scope, "mean_squared_error", (predictions, labels, weights)) as scope:
        labels, predictions = _float_pair(labels, predictions, "mean_squared_error")
        losses = basic_math_ops.squared_difference(predictions, labels)
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None,
                                loss_collection=GraphKeys.LOSSES):
    """The mean, over pairs (i, j) of elements of one example, of
    ((predictions_i - predictions_j) - (labels_i - labels_j)) ** 2: it scores differences
    between elements, not the elements themselves. With d = predictions - labels and n elements
    per example:  2 * sum(d^2) / (n - 1) - 2 * sum(d)^2 / (n (n - 1)). `weights` is one
    per example ([batch] or [batch, 1...]) or a scalar; the weighted per-example values are
    summed (no reduction argument, as in TF)."""
    _check(labels, predictions)
    array_ops, basic_math_ops, math_ops, reduction_ops = _ops()
    from ..ops import comparison_ops
    with name_scope(scope, "mean_pairwise_squared_error", (predictions, labels, weights)):
        weights = math_ops.cast(weights, dtypes.float32)
        labels, predictions = _float_pair(labels, predictions, "mean_pairwise_squared_error")
        assert_broadcastable(weights, labels)
        diffs = math_ops.subtract(predictions, labels)
        axis = _all_but_first_axis(diffs)
        sum_squares = reduction_ops.reduce_sum(basic_math_ops.square(diffs), axis=axis,
                                               keepdims=True)
        n = _num_present(diffs, weights, per_batch=True)
        term1 = 2.0 * div_no_nan(sum_squares, basic_math_ops.maximum(n - 1, 0), name="value")
        sum_diff = reduction_ops.reduce_sum(diffs, axis=axis, keepdims=True)
        term2 = 2.0 * div_no_nan(basic_math_ops.square(sum_diff),
                                 basic_math_ops.maximum(math_ops.multiply(n, n - 1), 0),
                                 name="value")
        loss = reduction_ops.reduce_sum(math_ops.multiply(term1 - term2, weights))
        mean_loss = comparison_ops.where(
            comparison_ops.greater(reduction_ops.reduce_sum(n), 0.0), loss,
            array_ops.zeros_like(loss), name="value")
        util.add_loss(mean_loss, loss_collection)
        return mean_loss


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0,
                          scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """tf.nn.sigmoid_cross_entropy_with_logits, weighted and reduced. label_smoothing > 0
    moves the labels towards 1/2: labels * (1 - s) + 0.5 * s."""
    _check(multi_class_labels, logits, "multi_class_labels", "logits")
    _, _, math_ops, _ = _ops()
    from ..ops import nn_impl
    with name_scope(scope, "sigmoid_cross_entropy_loss",
                    (logits, multi_class_labels, weights)) as scope:
        logits = convert_to_tensor(logits)
        multi_class_labels = math_ops.cast(multi_class_labels, logits.dtype.base_dtype)
        _compatible(logits, multi_class_labels, "sigmoid_cross_entropy")
        if label_smoothing > 0:
            multi_class_labels = (multi_class_labels * (1 - label_smoothing) +
                                  0.5 * label_smoothing)
        losses = nn_impl.sigmoid_cross_entropy_with_logits(labels=multi_class_labels,
                                                           logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """tf.nn.softmax_cross_entropy_with_logits_v2 per example ([batch, classes] -> [batch]),
    weighted and reduced. label_smoothing > 0 mixes the one-hot labels with the uniform
    distribution: labels * (1 - s) + s / num_classes. No gradient flows into the labels."""
    _check(onehot_labels, logits, "onehot_labels", "logits")
    array_ops, _, math_ops, _ = _ops()
    from ..ops import nn_ops
    from ..ops.control_flow_ops import stop_gradient
    with name_scope(scope, "softmax_cross_entropy_loss",
                    (logits, onehot_labels, weights)) as scope:
        logits = convert_to_tensor(logits)
        onehot_labels = math_ops.cast(onehot_labels, logits.dtype.base_dtype)
        _compatible(logits, onehot_labels, "softmax_cross_entropy")
        if label_smoothing > 0:
            num_classes = math_ops.cast(array_ops.shape(onehot_labels)[-1],
                                        logits.dtype.base_dtype)
            smooth_positives = 1.0 - label_smoothing
            smooth_negatives = label_smoothing / num_classes
            onehot_labels = onehot_labels * smooth_positives + smooth_negatives
        onehot_labels = stop_gradient(onehot_labels, name="labels_stop_gradient")
        losses = nn_ops.softmax_cross_entropy_with_logits_v2(labels=onehot_labels,
                                                             logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None,
                                 loss_collection=GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """tf.nn.sparse_softmax_cross_entropy_with_logits: integer class labels [batch] against
    logits [batch, classes]; weighted and reduced. Labels of shape [batch, 1] are squeezed."""
    _check(labels, logits, predictions_name="logits")
    from ..ops import nn_ops
    with name_scope(scope, "sparse_softmax_cross_entropy_loss",
                    (logits, labels, weights)) as scope:
        labels, logits, weights = remove_squeezable_dimensions(
            labels, logits, expected_rank_diff=1, weights=weights)
        losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                                 name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


def _compatible(logits, labels, loss_name):
    if not logits.get_shape().is_compatible_with(labels.get_shape()):
        raise ValueError(f"{loss_name}: the shapes of logits {logits.get_shape()} and labels "
                         f"{labels.get_shape()} are incompatible. They must match.")
