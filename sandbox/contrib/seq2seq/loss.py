"""sequence_loss -- mirrors TF 1.15's contrib/seq2seq/python/ops/loss.py.

The cross-entropy of a decoder's logits [batch, time, classes] against the target ids
[batch, time], each step weighted by weights [batch, time] (usually a sequence_mask of the
target lengths, so the padding counts for nothing):

    crossent[b, t] = weights[b, t] * -log softmax(logits[b, t])[targets[b, t]]

and then reduced as asked:

    average_across_timesteps and average_across_batch   sum(crossent) / sum(weights)  (a scalar)
    sum_over_timesteps and sum_over_batch               sum(crossent) / count_nonzero(weights)
    only one axis averaged (or summed)                  per-example [batch] or per-step [time]:
        average: sum over the axis / sum of the weights over it
        sum:     sum over the axis / number of nonzero weights over it
    none of them                                         crossent itself, [batch, time]

A divisor of 0 gives 0, not NaN (div_no_nan), as in TF.
"""
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...ops import array_ops, math_extra_ops, math_ops, nn_ops, reduction_ops

__all__ = ["sequence_loss"]


def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                  average_across_batch=True, sum_over_timesteps=False, sum_over_batch=False,
                  softmax_loss_function=None, name=None):
    """Weighted cross-entropy loss for a sequence of logits (see the module docstring).
    softmax_loss_function(labels=..., logits=...) replaces the sparse softmax cross-entropy
    (e.g. a sampled softmax)."""
    logits = convert_to_tensor(logits, name="logits")
    targets = convert_to_tensor(targets, name="targets")
    weights = convert_to_tensor(weights, name="weights")
    if logits.get_shape().ndims != 3:
        raise ValueError("Logits must be a [batch_size x sequence_length x logits] tensor")
    if targets.get_shape().ndims != 2:
        raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
    if weights.get_shape().ndims != 2:
        raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to "
                         "True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at "
                         "same time.")
    with name_scope(name, "sequence_loss", [logits, targets, weights]):
        num_classes = array_ops.shape(logits)[2]
        logits_flat = array_ops.reshape(logits, array_ops.stack([-1, num_classes]))
        targets_flat = array_ops.reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = nn_ops.sparse_softmax_cross_entropy_with_logits(
                labels=targets_flat, logits=logits_flat)
        else:
            crossent = softmax_loss_function(labels=targets_flat, logits=logits_flat)
        crossent = crossent * array_ops.reshape(weights, [-1])

        def divided(total, weights, axis, count):
            """total / (sum of the weights) -- or / (number of nonzero weights) if count."""
            if count:
                divisor = math_ops.cast(reduction_ops.count_nonzero(weights, axis=axis),
                                        total.dtype.base_dtype)
            else:
                divisor = reduction_ops.reduce_sum(weights, axis=axis)
            return math_extra_ops.divide_no_nan(total, divisor)

        if average_across_timesteps and average_across_batch:
            return divided(reduction_ops.reduce_sum(crossent), weights, None, False)
        if sum_over_timesteps and sum_over_batch:
            return divided(reduction_ops.reduce_sum(crossent), weights, None, True)
        crossent = array_ops.reshape(crossent, array_ops.shape(logits)[0:2])
        if average_across_timesteps or average_across_batch:
            axis = [0] if average_across_batch else [1]
            return divided(reduction_ops.reduce_sum(crossent, axis=axis), weights, axis, False)
        if sum_over_timesteps or sum_over_batch:
            axis = [0] if sum_over_batch else [1]
            return divided(reduction_ops.reduce_sum(crossent, axis=axis), weights, axis, True)
        return crossent
