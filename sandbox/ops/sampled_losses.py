"""Sampled losses -- mirrors TensorFlow's nce_loss and sampled_softmax_loss (python/ops/
nn_impl.py, _compute_sampled_logits).

word2vec's classic distributed setup: the embeddings AND the output weights, [vocab, dim]
each, live on the ps (often partitioned over several ps tasks). A full softmax would read every
row of the output weights every step. A sampled loss reads only the rows of the true classes
and of `num_sampled` classes drawn by a candidate sampler (ops/candidate_sampling_ops.py):

    loss = tf.reduce_mean(tf.nn.nce_loss(weights=nce_w, biases=nce_b, labels=labels,
                                         inputs=embed, num_sampled=64, num_classes=50000))

The rows are fetched with embedding_lookup (one Gather per shard, beside it, on its ps), so
the gradient of the weights is an IndexedSlices of those rows: on a cluster only they travel,
both ways. The logits are the dot products of `inputs` with those rows plus the biases, less
log(expected count) of each class under the sampler; accidental hits (a sampled class that is
a true one) can be taken out of the negatives (remove_accidental_hits).

  nce_loss               each logit against its own label with a sigmoid (true: 1/num_true,
                         sampled: 0), summed per example -- noise-contrastive estimation
  sampled_softmax_loss   one softmax over [true, sampled] logits per example
"""
from ..framework import dtypes as _dtypes
from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor
from . import array_ops, math_ops, slicing_ops
from .basic_math_ops import log
from .candidate_sampling_ops import compute_accidental_hits, log_uniform_candidate_sampler
from .control_flow_ops import stop_gradient
from .indexing_ops import scatter_nd
from .matmul_ops import matmul
from .nn_impl import embedding_lookup, sigmoid_cross_entropy_with_logits
from .nn_ops import softmax_cross_entropy_with_logits_v2
from .partitioned_variables import PartitionedVariable

__all__ = ["nce_loss", "sampled_softmax_loss"]


def _sum_rows(x):
    """The sum of each row of a matrix, as TF computes it (a matmul with ones: its gradient is
    simpler than reduce_sum's)."""
    cols = array_ops.shape(x)[1]
    ones = array_ops.ones(array_ops.stack([cols, 1]), x.dtype)
    return array_ops.reshape(matmul(x, ones), [-1])


def _compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                            num_true=1, sampled_values=None, subtract_log_q=True,
                            remove_accidental_hits=False, partition_strategy="mod", name=None,
                            seed=None):
    """(logits [batch, num_true + num_sampled], labels of the same shape) -- TF's helper."""
    if isinstance(weights, PartitionedVariable):
        weights = list(weights)
    if not isinstance(weights, list):
        weights = [weights]
    with name_scope(name, "compute_sampled_logits", weights + [biases, inputs, labels]):
        labels = convert_to_tensor(labels)
        if labels.dtype.base_dtype != _dtypes.int64:
            labels = math_ops.cast(labels, _dtypes.int64)
        labels_flat = array_ops.reshape(labels, [-1])
        if sampled_values is None:
            sampled_values = log_uniform_candidate_sampler(
                true_classes=labels, num_true=num_true, num_sampled=num_sampled, unique=True,
                range_max=num_classes, seed=seed)
        sampled, true_expected_count, sampled_expected_count = (
            stop_gradient(s) for s in sampled_values)
        sampled = math_ops.cast(sampled, _dtypes.int64)
        all_ids = slicing_ops.concat([labels_flat, sampled], 0)
        # the rows of the true and the sampled classes, each gathered on its shard's task
        all_w = embedding_lookup(weights, all_ids, partition_strategy=partition_strategy)
        inputs = convert_to_tensor(inputs)
        if all_w.dtype.base_dtype != inputs.dtype.base_dtype:
            all_w = math_ops.cast(all_w, inputs.dtype.base_dtype)
        n_true = array_ops.shape(labels_flat)[0]
        true_w = slicing_ops.slice(all_w, [0, 0], array_ops.stack([n_true, -1]))
        sampled_w = slicing_ops.slice(all_w, array_ops.stack([n_true, 0]), [-1, -1])
        sampled_logits = matmul(inputs, sampled_w, transpose_b=True)
        all_b = embedding_lookup(biases, all_ids, partition_strategy=partition_strategy)
        if all_b.dtype.base_dtype != inputs.dtype.base_dtype:
            all_b = math_ops.cast(all_b, inputs.dtype.base_dtype)
        true_b = slicing_ops.slice(all_b, [0], array_ops.shape(labels_flat))
        sampled_b = slicing_ops.slice(all_b, array_ops.shape(labels_flat), [-1])
        dim = array_ops.shape(true_w)[1:2]
        new_true_w_shape = slicing_ops.concat([[-1, num_true], dim], 0)
        row_wise_dots = math_ops.multiply(array_ops.expand_dims(inputs, 1),
                                          array_ops.reshape(true_w, new_true_w_shape))
        dots_as_matrix = array_ops.reshape(row_wise_dots, slicing_ops.concat([[-1], dim], 0))
        true_logits = array_ops.reshape(_sum_rows(dots_as_matrix), [-1, num_true])
        true_logits += array_ops.reshape(true_b, [-1, num_true])
        sampled_logits += sampled_b
        if remove_accidental_hits:
            acc_indices, acc_ids, acc_weights = compute_accidental_hits(labels, sampled,
                                                                        num_true=num_true)
            sparse_indices = slicing_ops.concat(
                [array_ops.reshape(acc_indices, [-1, 1]),
                 array_ops.reshape(math_ops.cast(acc_ids, _dtypes.int32), [-1, 1])], 1,
                name="sparse_indices")
            logits_shape = slicing_ops.concat(
                [array_ops.shape(labels)[:1], array_ops.expand_dims(num_sampled, 0)], 0)
            if acc_weights.dtype.base_dtype != sampled_logits.dtype.base_dtype:
                acc_weights = math_ops.cast(acc_weights, sampled_logits.dtype.base_dtype)
            # (TF: sparse_to_dense; a ScatterNd onto zeros does the same here)
            sampled_logits += scatter_nd(sparse_indices, acc_weights, logits_shape)
        if subtract_log_q:
            true_logits -= log(true_expected_count)
            sampled_logits -= log(sampled_expected_count)
        out_logits = slicing_ops.concat([true_logits, sampled_logits], 1)
        out_labels = slicing_ops.concat([array_ops.ones_like(true_logits) / num_true,
                                         array_ops.zeros_like(sampled_logits)], 1)
        return out_logits, out_labels


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, partition_strategy="mod",
             name="nce_loss"):
    """Noise-contrastive estimation loss per example, [batch]: `weights` [num_classes, dim]
    (a Variable, a list of shards or a PartitionedVariable), `biases` [num_classes], `labels`
    [batch, num_true] class ids, `inputs` [batch, dim]. Take its mean for the training loss."""
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name)
    sampled_losses = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits,
                                                       name="sampled_losses")
    return _sum_rows(sampled_losses)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                         num_true=1, sampled_values=None, remove_accidental_hits=True,
                         partition_strategy="mod", name="sampled_softmax_loss", seed=None):
    """The softmax cross-entropy over the true and `num_sampled` sampled classes, per example
    [batch] (arguments as nce_loss). For training only: evaluate with the full softmax."""
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name, seed=seed)
    labels = stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
