"""Weights for losses and metrics -- mirrors TensorFlow 1.x's python/ops/weights_broadcast_ops.py,
confusion_matrix.remove_squeezable_dimensions and math_ops.div_no_nan: the small rules that
tf.losses and tf.metrics share.

A loss or a metric takes `weights` beside its values: a scalar (every value counts the same),
or a tensor of the values' rank whose every dimension is 1 or the values' own ("one weight
per example" is [batch, 1] for [batch, n] values). Anything else is refused when the graph is
built, where TF would often only fail when the step runs.

Labels of shape [batch, 1] next to predictions of shape [batch] (or the reverse) are the
commonest slip: remove_squeezable_dimensions drops the extra size-1 dimension, as TF does.
"""
from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor

__all__ = ["assert_broadcastable", "broadcast_weights", "remove_squeezable_dimensions",
           "div_no_nan"]


def assert_broadcastable(weights, values):
    """Raises ValueError unless `weights` can stretch to the shape of `values` (checked on the
    static shapes: a dimension still unknown is accepted)."""
    w_shape, v_shape = weights.get_shape(), values.get_shape()
    if w_shape.ndims is None or v_shape.ndims is None or w_shape.ndims == 0:
        return
    ok = w_shape.ndims == v_shape.ndims and all(
        w is None or v is None or w == 1 or w == v
        for w, v in zip(w_shape.as_list(), v_shape.as_list()))
    if not ok:
        raise ValueError(
            f"weights can not be broadcast to values. values.rank={v_shape.ndims}. "
            f"weights.rank={w_shape.ndims}. values.shape={v_shape}. weights.shape={w_shape}. "
            "Give one weight per value, per example ([batch, 1]), or a scalar.")


def broadcast_weights(weights, values):
    """`weights` stretched to the shape of `values` (weights * ones_like(values))."""
    from ..ops import array_ops, math_ops
    with name_scope(None, "broadcast_weights", (weights, values)) as scope:
        values = convert_to_tensor(values, name="values")
        weights = convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
        if weights.get_shape().is_fully_defined() and values.get_shape().is_fully_defined() \
                and weights.get_shape() == values.get_shape():
            return weights
        assert_broadcastable(weights, values)
        return math_ops.multiply(weights, array_ops.ones_like(values), name=scope)


def remove_squeezable_dimensions(labels, predictions, expected_rank_diff=0, weights=None):
    """Drops a trailing size-1 dimension of labels or predictions when their ranks differ by
    one more than `expected_rank_diff`; likewise drops one of `weights` when its rank is one
    more than the labels'. Returns (labels, predictions, weights). Static shapes only: when a
    rank is unknown nothing is squeezed (TF decides that at run time)."""
    from ..ops import array_ops
    labels = convert_to_tensor(labels)
    predictions = convert_to_tensor(predictions)
    l_rank, p_rank = labels.get_shape().ndims, predictions.get_shape().ndims
    if l_rank is not None and p_rank is not None:
        rank_diff = p_rank - l_rank
        if rank_diff == expected_rank_diff + 1 and \
                predictions.get_shape().as_list()[-1] in (1, None):
            predictions = array_ops.squeeze(predictions, [-1])
        elif rank_diff == expected_rank_diff - 1 and labels.get_shape().as_list()[-1] in (1, None):
            labels = array_ops.squeeze(labels, [-1])
    if weights is not None:
        weights = convert_to_tensor(weights)
        l_rank, w_rank = labels.get_shape().ndims, weights.get_shape().ndims
        if l_rank is not None and w_rank is not None and w_rank - l_rank == 1:
            weights = array_ops.squeeze(weights, [-1])
    return labels, predictions, weights


def div_no_nan(x, y, name=None):
    """x / y, and 0 where y is 0: TF's DivNoNan (ops/math_extra_ops.py), y cast to x's dtype
    as TF's div_no_nan converts it."""
    from ..ops import math_extra_ops
    with name_scope(name, "div_no_nan", [x, y]) as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype=x.dtype.base_dtype, name="y")
        return math_extra_ops.divide_no_nan(x, y, name=scope)

