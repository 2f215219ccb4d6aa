"""Neural-network functions built from other ops -- mirrors TensorFlow's nn_impl
(python/ops/nn_impl.py): moments, sufficient_statistics, normalize_moments, weighted_moments,
batch_normalization, l2_normalize, zero_fraction, swish, crelu, relu_layer, the losses
sigmoid_cross_entropy_with_logits, weighted_cross_entropy_with_logits and log_poisson_loss,
and compute_average_loss and scale_regularization_loss (TF's nn_impl_distribute.py; one
replica here); and beside them the tf.nn ops that are not parts of a layer:
local_response_normalization (core/kernels/lrn_op.cc), embedding_lookup and
embedding_lookup_sparse (python/ops/embedding_ops.py), and top_k and in_top_k, which evaluate
a network's predictions (python/ops/nn_ops.py, core/kernels/topk_op.cc, in_topk_op.cc).

Most of these are a few lines of other ops -- moments is a reduce_mean and a
squared_difference, batch_normalization is (x - mean) * rsqrt(variance + epsilon) * scale +
offset -- so their gradients come from those ops with no code here. The others are ops with a
kernel and a gradient of their own: SigmoidCrossEntropyWithLogits (TF builds it from six ops;
the sandbox fuses them), LRN and TopKV2.
"""
import collections

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import colocate_with, name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import const_op_value, constant_value, shape_text
from ..platform import tf_logging
from . import (array_ops, basic_math_ops, clip_ops, comparison_ops, indexing_ops, math_extra_ops,
               math_ops, matmul_ops, reduction_ops, slicing_ops, sparse_math_ops,
               sparse_ops)
from .constant_op import constant
from .partitioned_variables import PartitionedVariable
from .control_flow_ops import identity, stop_gradient
from .nn_ops import (_at_least_rank_1, _ensure_xent_args, _float_tensor, _merged_shape,
                     bias_add, relu)

__all__ = []   # no tf.* names: these are reached as tf.nn.* (sandbox/nn.py)


# -- sigmoid_cross_entropy_with_logits, relu_layer -------------------------------------

class SigmoidCrossEntropyWithLogits(OpDef):
    """loss = max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x and labels z: the stable
    form of -z * log(sigmoid(x)) - (1 - z) * log(1 - sigmoid(x)). (TF builds it from six ops;
    the sandbox fuses it.)"""
    shape = _merged_shape

    def kernel(logits, labels, T=None):
        return np.maximum(logits, 0) - logits * labels + np.log1p(np.exp(-np.abs(logits)))

    def gradient(op, grad):
        logits, labels = op.inputs
        grad_logits = apply_op("SigmoidCrossEntropyWithLogitsGrad", [grad, logits, labels],
                               {"T": logits.dtype.base_dtype},
                               name="SigmoidCrossEntropyWithLogitsGrad")
        return [grad_logits, -grad * logits]


class SigmoidCrossEntropyWithLogitsGrad(OpDef):
    """dlogits = grad * (sigmoid(logits) - labels)."""
    shape = unchanged_shape

    def kernel(grad, logits, labels, T=None):
        return grad * (1 / (1 + np.exp(-logits)) - labels)


def sigmoid_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):
    """Elementwise logistic loss for independent binary labels in [0, 1]:
    labels * -log(sigmoid(logits)) + (1 - labels) * -log(1 - sigmoid(logits))."""
    _ensure_xent_args("sigmoid_cross_entropy_with_logits", _sentinel, labels, logits)
    with name_scope(name, "logistic_loss", [logits, labels]) as scope:
        logits = _float_tensor(logits, "logits", "SigmoidCrossEntropyWithLogits", name="logits")
        labels = convert_to_tensor(labels, name="labels",
                                   preferred_dtype=logits.dtype.base_dtype)
        if labels.dtype.base_dtype != logits.dtype.base_dtype:
            raise TypeError(f"labels has type {labels.dtype.base_dtype.name} that does not "
                            f"match type {logits.dtype.base_dtype.name} of logits. Use tf.cast.")
        try:
            labels.get_shape().merge_with(logits.get_shape())
        except ValueError:
            raise ValueError(f"logits and labels must have the same shape "
                             f"({logits.get_shape()} vs {labels.get_shape()})") from None
        return apply_op("SigmoidCrossEntropyWithLogits", [logits, labels],
                        {"T": logits.dtype.base_dtype}, name=scope)


def relu_layer(x, weights, biases, name=None):
    """relu(matmul(x, weights) + biases)."""
    with name_scope(name, "relu_layer", [x, weights, biases]) as scope:
        return relu(bias_add(matmul_ops.matmul(x, weights), biases), name=scope)


# -- statistics and normalization: moments, batch_normalization, l2_normalize, lrn -----

def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """(mean, variance) of x over `axes` (e.g. [0] for per-feature batch statistics)."""
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
    keep = bool(keepdims if keepdims is not None else keep_dims)
    with name_scope(name, "moments", [x, axes]):
        y = convert_to_tensor(x)
        half = y.dtype.base_dtype == _dtypes.float16
        if half:
            y = math_ops.cast(y, _dtypes.float32)
        mean = reduction_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        squared = basic_math_ops.squared_difference(y, stop_gradient(mean))
        variance = reduction_ops.reduce_mean(squared, axes, keepdims=True, name="variance")
        if not keep:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if half:
            mean = math_ops.cast(mean, _dtypes.float16)
            variance = math_ops.cast(variance, _dtypes.float16)
        return mean, variance


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    with name_scope(name, "l2_normalize", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        square_sum = reduction_ops.reduce_sum(basic_math_ops.square(x), axis, keepdims=True)
        x_inv_norm = basic_math_ops.rsqrt(basic_math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, x_inv_norm, name=scope)


def zero_fraction(value, name=None):
    """The fraction of entries of value that are zero (a float32 scalar)."""
    with name_scope(name, "zero_fraction", [value]):
        value = convert_to_tensor(value, name="value")
        zero = array_ops.zeros_like(value)
        is_zero = math_ops.cast(comparison_ops.equal(value, zero), _dtypes.float32)
        return reduction_ops.reduce_mean(is_zero, name="fraction")


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) / sqrt(variance + variance_epsilon) * scale + offset (offset and scale may
    be None), usually with the mean and variance of tf.nn.moments."""
    with name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        inv = basic_math_ops.rsqrt(variance + variance_epsilon)
        if scale is not None:
            inv *= scale
        return x * inv + (offset - mean * inv if offset is not None else -mean * inv)


def _depth_window_sum(a, radius):
    """sum(a[..., d - radius : d + radius + 1]) for every d of the last axis (zero-padded)."""
    padded = np.pad(a, [(0, 0)] * (a.ndim - 1) + [(radius, radius)])
    depth = a.shape[-1]
    total = padded[..., :depth].copy()
    for k in range(1, 2 * radius + 1):
        total += padded[..., k:k + depth]
    return total


class LRN(OpDef):
    """Local response normalization: y = x / (bias + alpha * sqr_sum) ** beta, where sqr_sum
    sums x**2 over the depth_radius neighbouring channels on each side (last axis)."""
    shape = unchanged_shape

    def kernel(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, T=None):  # noqa: A002
        norm = bias + alpha * _depth_window_sum(np.square(input), depth_radius)
        return input * norm ** -beta

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("depth_radius", "bias", "alpha", "beta")}
        return [apply_op("LRNGrad", [grad, op.inputs[0], op.outputs[0]],
                         {"T": grad.dtype.base_dtype, **attrs}, name="LRNGrad")]


class LRNGrad(OpDef):
    """dx_j = g_j * N_j**-beta - 2 * alpha * beta * x_j * sum over the channels d near j of
    g_d * y_d / N_d, with N = bias + alpha * sqr_sum as in LRN."""
    shape = unchanged_shape

    def kernel(input_grads, input_image, output_image, depth_radius=5, bias=1.0, alpha=1.0,
               beta=0.5, T=None):
        norm = bias + alpha * _depth_window_sum(np.square(input_image), depth_radius)
        near = _depth_window_sum(input_grads * output_image / norm, depth_radius)
        return input_grads * norm ** -beta - (2 * alpha * beta) * input_image * near


def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5,  # noqa: A002
                                 name=None):
    """Normalizes each entry of a 4-D tensor by the activity of its neighbouring channels
    (AlexNet's and the CIFAR-10 tutorial's `norm1` layer)."""
    x = _float_tensor(input, "input", "LRN")
    x.get_shape().with_rank(4)
    return apply_op("LRN", [x], {"T": x.dtype.base_dtype, "depth_radius": int(depth_radius),
                                 "bias": float(bias), "alpha": float(alpha),
                                 "beta": float(beta)}, name=name or "LRN")


lrn = local_response_normalization


# -- embedding_lookup (TF: python/ops/embedding_ops.py) --------------------------------

def _clip(params, ids, max_norm):
    """Each looked-up embedding rescaled to an L2 norm of at most max_norm (TF's _clip)."""
    if max_norm is None:
        return params
    ids_rank = ids.get_shape().ndims
    params_rank = convert_to_tensor(params).get_shape().ndims
    if ids_rank is None or params_rank is None:
        raise NotImplementedError("embedding_lookup(max_norm=...) needs ids and params of "
                                  "known rank in the sandbox.")
    return clip_ops.clip_by_norm(params, max_norm, axes=list(range(ids_rank, params_rank)))


def _partition(flat_ids, params, partition_strategy):
    """(p_assignments, new_ids): which shard holds each id, and its row in that shard --
    'mod': id % n in shard id % n at row id // n; 'div': contiguous blocks, the first
    (rows % n) shards one row longer."""
    n = len(params)
    if partition_strategy == "mod":
        return math_ops.floormod(flat_ids, n), math_ops.floordiv(flat_ids, n)
    if partition_strategy != "div":
        raise ValueError(f"Unrecognized partition strategy: {partition_strategy}")
    dims = [p.get_shape()[0].value if p.get_shape().ndims else None for p in params]
    if all(d is not None for d in dims):
        total = constant(sum(dims), dtype=flat_ids.dtype.base_dtype)
    else:
        sizes = []
        for p, d in zip(params, dims):
            if d is not None:
                sizes.append(d)
            else:
                with colocate_with(p.op):
                    sizes.append(array_ops.shape(p)[0])
        total = reduction_ops.reduce_sum(math_ops.cast(array_ops.stack(sizes),
                                                       flat_ids.dtype.base_dtype))
    per_shard = total // n
    extras = total % n
    p_assignments = basic_math_ops.maximum(flat_ids // (per_shard + 1),
                                           (flat_ids - extras) // per_shard)
    new_ids = comparison_ops.where(p_assignments < extras, flat_ids % (per_shard + 1),
                                   (flat_ids - extras) % per_shard)
    return p_assignments, new_ids


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
    """The rows of `params` (an embedding matrix, a list of its shards, or a
    PartitionedVariable) picked by `ids`:
    tf.gather(params, ids), placed beside params, so that on a cluster only the picked rows
    leave the ps. Its gradient for params is a tf.IndexedSlices (only those rows).

    With a list of shards, each id goes to one shard: partition_strategy 'mod' (id % n) or
    'div' (contiguous blocks); each shard's rows are gathered beside it and the results put
    back in the order of `ids`. max_norm rescales each embedding to at most that L2 norm."""
    if params is None:
        raise ValueError("params must be specified")
    if isinstance(params, (list, tuple)) and not params:
        raise ValueError("Need at least one param")
    if isinstance(params, PartitionedVariable):
        params = list(params)        # its shards, each looked up on its own task
    params = list(params) if isinstance(params, (list, tuple)) else [params]
    with name_scope(name, "embedding_lookup", params + [ids]) as scope:
        params = [convert_to_tensor(p, name="params") for p in params]
        ids = convert_to_tensor(ids, name="ids")
        if len(params) == 1:
            with colocate_with(params[0].op):
                result = _clip(indexing_ops.gather(params[0], ids, name=scope), ids, max_norm)
            return identity(result)
        flat_ids = array_ops.reshape(ids, [-1])
        count = array_ops.size(flat_ids)
        original_indices = array_ops.range(count)
        p_assignments, new_ids = _partition(flat_ids, params, partition_strategy)
        p_assignments = math_ops.cast(p_assignments, _dtypes.int32)
        element_shape = params[0].get_shape()[1:]
        for p in params[1:]:
            element_shape = element_shape.merge_with(p.get_shape()[1:])
        if element_shape.is_fully_defined():
            element_dims = constant(element_shape.as_list(), dtype=_dtypes.int32)
        else:
            with colocate_with(params[0].op):
                element_dims = array_ops.shape(params[0])[1:]
        stitched_shape = slicing_ops.concat([array_ops.expand_dims(count, 0), element_dims], 0)
        pieces = []
        for shard, p in enumerate(params):
            mine = comparison_ops.equal(p_assignments, shard)
            pids = indexing_ops.boolean_mask(new_ids, mine)
            positions = array_ops.expand_dims(indexing_ops.boolean_mask(original_indices, mine),
                                              1)
            with colocate_with(p.op):
                rows = indexing_ops.gather(p, pids)
            # (TF stitches the pieces with DynamicStitch; a ScatterNd per shard does the same)
            pieces.append(indexing_ops.scatter_nd(positions, rows, stitched_shape))
        ret = math_ops.add_n(pieces) if len(pieces) > 1 else pieces[0]
        ret = array_ops.reshape(ret, slicing_ops.concat([array_ops.shape(ids), element_dims],
                                                        0), name=scope)
        ret.set_shape(ids.get_shape().concatenate(element_shape))
        return _clip(ret, ids, max_norm)


# -- embedding_lookup_sparse, safe_embedding_lookup_sparse (TF: embedding_ops.py) -------

_COMBINERS = ("mean", "sqrtn", "sum")


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None,
                            combiner=None, max_norm=None):
    """One combined embedding per row of a SparseTensor of ids: a bag of words, the items a
    user clicked. Row r of the result combines the embeddings of the ids in row r of sp_ids,
    weighted by sp_weights (None: all 1) -- 'sum', 'mean' (the default; the weighted mean)
    or 'sqrtn' (the sum / sqrt of the sum of the squared weights).

    As TF: the distinct ids are looked up once with embedding_lookup (each shard's rows
    gathered beside it, so on a cluster only those rows leave the ps, and the gradient for
    params is an IndexedSlices of those rows), then combined per row with segment sums. The
    result has (last non-empty row + 1) rows; an empty row in between gives zeros. The rows of
    sp_ids must be in order (tf.sparse.reorder)."""
    if combiner is None:
        tf_logging.warn('The default value of combiner will change from "mean" to "sqrtn" '
                        'after 2016/11/01.')
        combiner = "mean"
    if combiner not in _COMBINERS:
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    if isinstance(params, PartitionedVariable):
        params = list(params)        # its shards
    if not isinstance(params, list):
        params = [params]
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    ignore_weights = sp_weights is None
    if not ignore_weights:
        if not isinstance(sp_weights, SparseTensor):
            raise TypeError(f"sp_weights must be either None or SparseTensor,got "
                            f"{type(sp_weights)}")
        sp_ids.values.get_shape().assert_is_compatible_with(sp_weights.values.get_shape())
        sp_ids.indices.get_shape().assert_is_compatible_with(sp_weights.indices.get_shape())
        sp_ids.dense_shape.get_shape().assert_is_compatible_with(
            sp_weights.dense_shape.get_shape())
    with name_scope(name, "embedding_lookup_sparse", params + [sp_ids]) as name:
        segment_ids = math_ops.cast(sp_ids.indices[:, 0], _dtypes.int32)   # the row of each id
        ids, idx = indexing_ops.unique(sp_ids.values)     # each distinct id looked up once
        embeddings = embedding_lookup(params, ids, partition_strategy=partition_strategy,
                                      max_norm=max_norm)
        if ignore_weights:
            combine = {"sum": sparse_math_ops.sparse_segment_sum,
                       "mean": sparse_math_ops.sparse_segment_mean,
                       "sqrtn": sparse_math_ops.sparse_segment_sqrt_n}[combiner]
            return combine(embeddings, idx, segment_ids, name=name)
        weights = sp_weights.values
        embeddings = indexing_ops.gather(embeddings, idx)  # one row per entry of sp_ids
        if weights.dtype.base_dtype != embeddings.dtype.base_dtype:
            weights = math_ops.cast(weights, embeddings.dtype.base_dtype)
        # weights [n] -> [n, 1, ...] so that each one scales its embedding row
        ones = array_ops.ones(array_ops.expand_dims(array_ops.rank(embeddings) - 1, 0),
                              dtype=_dtypes.int32)
        bcast_weights_shape = slicing_ops.concat([array_ops.shape(weights), ones], 0)
        orig_weights_shape = weights.get_shape()
        weights = array_ops.reshape(weights, bcast_weights_shape)
        if embeddings.get_shape().ndims is not None:
            weights.set_shape(orig_weights_shape.concatenate(
                [1] * (embeddings.get_shape().ndims - 1)))
        embeddings = embeddings * weights
        if combiner == "sum":
            return math_extra_ops.segment_sum(embeddings, segment_ids, name=name)
        embeddings = math_extra_ops.segment_sum(embeddings, segment_ids)
        if combiner == "mean":
            weight_sum = math_extra_ops.segment_sum(weights, segment_ids)
        else:
            weight_sum = basic_math_ops.sqrt(
                math_extra_ops.segment_sum(math_ops.pow(weights, 2), segment_ids))
        return math_extra_ops.divide_no_nan(embeddings, weight_sum, name=name)


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, name=None,
                                 partition_strategy="div", max_norm=None):
    """embedding_lookup_sparse made safe for real input, as TF's feature columns use it:
    ids < 0 are dropped (and, unless combiner is 'sum', weights <= 0); a row with no ids left
    gives default_id's embedding, or zeros; the result has one row per row of sparse_ids
    (dense_shape[0] of them, also empty ones at the end), and sparse_ids of rank > 2 give a
    result of shape dense_shape[:-1] + the embedding's shape. Built as TF builds it, from
    sparse_reshape, sparse_retain, sparse_fill_empty_rows and embedding_lookup_sparse."""
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    if isinstance(embedding_weights, PartitionedVariable):
        embedding_weights = list(embedding_weights)
    if not isinstance(embedding_weights, list):
        embedding_weights = [embedding_weights]
    if len(embedding_weights) < 1:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    dtype = sparse_weights.dtype if sparse_weights is not None else None
    embedding_weights = [convert_to_tensor(w, dtype=dtype) for w in embedding_weights]
    with name_scope(name, "embedding_lookup",
                    embedding_weights + [sparse_ids, sparse_weights]) as scope:
        # ids of any rank -> a matrix: one row per position of dense_shape[:-1]
        original_shape = sparse_ids.dense_shape
        original_rank_dim = original_shape.get_shape()[0].value
        original_rank = array_ops.size(original_shape) if original_rank_dim is None \
            else original_rank_dim
        sparse_ids = sparse_ops.sparse_reshape(sparse_ids, [
            reduction_ops.reduce_prod(slicing_ops.slice(original_shape, [0],
                                                        [original_rank - 1])),
            indexing_ops.gather(original_shape, original_rank - 1)])
        if sparse_weights is not None:
            sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values,
                                          sparse_ids.dense_shape)
        # drop the invalid ids (and the weights <= 0, but for 'sum')
        valid = comparison_ops.greater_equal(sparse_ids.values, 0)
        if sparse_weights is not None:
            valid = comparison_ops.logical_and(
                valid, array_ops.ones_like(sparse_weights.values, dtype=_dtypes.bool))
        sparse_ids = sparse_ops.sparse_retain(sparse_ids, valid)
        if sparse_weights is not None:
            sparse_weights = sparse_ops.sparse_retain(sparse_weights, valid)
        if combiner != "sum" and sparse_weights is not None:
            positive = comparison_ops.greater(sparse_weights.values, 0)
            sparse_ids = sparse_ops.sparse_retain(sparse_ids, positive)
            sparse_weights = sparse_ops.sparse_retain(sparse_weights, positive)
        # every row gets an id: default_id (or 0, zeroed below)
        sparse_ids, is_row_empty = sparse_ops.sparse_fill_empty_rows(sparse_ids,
                                                                     default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = sparse_ops.sparse_fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights,
                                         combiner=combiner,
                                         partition_strategy=partition_strategy,
                                         name=None if default_id is None else scope,
                                         max_norm=max_norm)
        if default_id is None:
            is_row_empty = slicing_ops.tile(array_ops.reshape(is_row_empty, [-1, 1]),
                                            array_ops.stack([1, array_ops.shape(result)[1]]))
            result = comparison_ops.where(is_row_empty, array_ops.zeros_like(result), result,
                                          name=scope)
        # back to the shape of the ids: dense_shape[:-1] + the embedding's shape
        final_result = array_ops.reshape(result, slicing_ops.concat([
            slicing_ops.slice(math_ops.cast(original_shape, _dtypes.int32), [0],
                              [original_rank - 1]),
            slicing_ops.slice(array_ops.shape(result), [1], [-1])], 0))
        known = constant_value(original_shape)        # TF's shape inference sees it too
        final_result.set_shape(TensorShape(
            None if original_rank_dim is None else
            [None] * (original_rank_dim - 1) if known is None else [int(d) for d in known[:-1]]
        ).concatenate(result.get_shape()[1:]))
        return final_result


# -- evaluation helpers: in_top_k, top_k -----------------------------------------------

class InTopKV2(OpDef):
    """out[i] = True when targets[i] is among the k largest predictions[i] (ties count as
    in; a row with a non-finite prediction or an out-of-range target gives False)."""
    differentiable = False

    def shape(op):
        predictions = op.inputs[0].get_shape().with_rank(2)
        return TensorShape([predictions[0].merge_with(op.inputs[1].get_shape().with_rank(1)[0])])

    def kernel(predictions, targets, k, T=None):
        if predictions.ndim != 2 or targets.shape != predictions.shape[:1]:
            raise errors.InvalidArgumentError(
                None, None, f"predictions must be 2-D and targets 1-D with one entry per row of "
                f"predictions, got {shape_text(predictions.shape)} and "
                f"{shape_text(targets.shape)}")
        n = predictions.shape[1]
        valid = (targets >= 0) & (targets < n)
        target_pred = predictions[np.arange(len(targets)), np.where(valid, targets, 0)]
        valid &= np.isfinite(predictions).all(axis=1)
        larger = (predictions > target_pred[:, None]).sum(axis=1)
        return valid & (larger < k)


def in_top_k(predictions, targets, k, name=None):
    """Whether each target is in the top k predictions of its row (a bool vector)."""
    predictions = _float_tensor(predictions, "predictions", "InTopKV2")
    targets = convert_to_tensor(targets)
    k = convert_to_tensor(k, dtype=targets.dtype.base_dtype)
    return apply_op("InTopKV2", [predictions, targets, k], {"T": targets.dtype.base_dtype},
                    name=name or "in_top_k", output_dtypes=[_dtypes.bool])


class TopKV2(OpDef):
    """values, indices of the k largest entries along the last axis, largest first (equal
    values: the lower index first)."""
    multi_output = True

    def shape(op):
        shape = _at_least_rank_1(op.inputs[0].get_shape())
        k = const_op_value(op.inputs[1])
        k = None if k is None else int(k)
        if shape.ndims is None:
            return [shape, shape]
        if k is not None and shape[-1].value is not None and shape[-1].value < k:
            raise ValueError(f"input must have last dimension >= k = {k} but is {shape[-1]}")
        out = shape[:-1].concatenate([k])
        return [out, out]

    def kernel(input, k, sorted=True, T=None):  # noqa: A002 -- TF's name
        k = int(k)
        if k < 0 or input.ndim < 1 or input.shape[-1] < k:
            raise errors.InvalidArgumentError(
                None, None, f"input must have at least k={k} columns (and k must be >= 0); "
                f"input shape is {shape_text(input.shape)}")
        keys = -input if input.dtype.kind in "fi" else -input.astype(np.int64)
        indices = np.argsort(keys, axis=-1, kind="stable")[..., :k]
        return np.take_along_axis(input, indices, axis=-1), indices.astype(np.int32)

    def gradient(op, grad_values, grad_indices):
        grad = apply_op("TopKGrad", [op.inputs[0], op.outputs[1], grad_values],
                        {"T": grad_values.dtype.base_dtype}, name="TopKGrad",
                        output_dtypes=[grad_values.dtype.base_dtype])
        return [grad, None]


class TopKGrad(OpDef):
    """dinput = grad_values scattered back to the positions top_k picked, zeros elsewhere."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(input, indices, grad, T=None):  # noqa: A002 -- TF's name
        out = np.zeros(input.shape, dtype=grad.dtype)
        np.put_along_axis(out, indices.astype(np.intp), grad, axis=-1)
        return out


TopKV2Output = collections.namedtuple("TopKV2", ["values", "indices"])


def top_k(input, k=1, sorted=True, name=None):  # noqa: A002 -- TF's name
    """(values, indices) of the k largest entries of the last axis, largest first: a
    namedtuple TopKV2, as TF's (`tf.nn.top_k(x, 2).indices`)."""
    x = convert_to_tensor(input)
    k = convert_to_tensor(k, dtype=_dtypes.int32)
    values, indices = apply_op("TopKV2", [x, k], {"T": x.dtype.base_dtype, "sorted": sorted},
                               name=name or "TopKV2",
                               output_dtypes=[x.dtype.base_dtype, _dtypes.int32])
    return TopKV2Output(values, indices)


# -- swish, crelu ------------------------------------------------------------------------

def swish(features, beta=1.0):
    """features * sigmoid(beta * features) (TF's nn_impl.swish, also called SiLU). TF wraps it
    in a custom gradient; here the gradient comes from the ops (the same values)."""
    features = _float_tensor(features, "features", "Sigmoid", name="features")
    with name_scope(None, "swish", [features]):
        beta = math_ops.cast(convert_to_tensor(beta, name="beta"), features.dtype.base_dtype)
        return math_ops.multiply(features, basic_math_ops.sigmoid(beta * features))


def crelu(features, name=None, axis=-1):
    """Concatenated ReLU (TF's nn_ops.crelu): relu(concat([features, -features], axis)) -- the
    positive and the negative part side by side, so the last axis doubles."""
    with name_scope(name, "CRelu", [features]) as scope:
        features = convert_to_tensor(features, name="features")
        c = slicing_ops.concat([features, math_ops.negative(features)], axis, name=scope)
        return relu(c)


# -- sufficient_statistics, normalize_moments, weighted_moments -----------------------------

def _keep_dims(keepdims, keep_dims):
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'.")
    return bool(keepdims if keepdims is not None else keep_dims)


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    """(count, sum of x - shift, sum of (x - shift) ** 2, shift) over `axes` -- what
    normalize_moments turns into a mean and a variance (TF's nn_impl.sufficient_statistics).
    count is a constant when the reduced dimensions are known, else computed at run time."""
    axes = list(set(axes))
    keep = _keep_dims(keepdims, keep_dims)
    with name_scope(name, "sufficient_statistics", [x, shift]):
        x = convert_to_tensor(x, name="x")
        dims = x.get_shape().dims
        if dims is not None and all(dims[d].value is not None for d in axes):
            counts = constant(int(np.prod([dims[d].value for d in axes])),
                              dtype=x.dtype.base_dtype)
        else:                 # count at run time: the product of the reduced dimensions
            rank = array_ops.rank(x)
            positive = [a + rank if a < 0 else a for a in axes]
            x_dims = indexing_ops.gather(math_ops.cast(array_ops.shape(x), x.dtype.base_dtype),
                                         positive)
            counts = reduction_ops.reduce_prod(x_dims, name="count")
        if shift is not None:
            shift = convert_to_tensor(shift, name="shift")
            m_ss = math_ops.subtract(x, shift)
            v_ss = basic_math_ops.squared_difference(x, shift)
        else:
            m_ss, v_ss = x, basic_math_ops.square(x)
        m_ss = reduction_ops.reduce_sum(m_ss, axes, keepdims=keep, name="mean_ss")
        v_ss = reduction_ops.reduce_sum(v_ss, axes, keepdims=keep, name="var_ss")
    return counts, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from the sums of sufficient_statistics: mean = mean_ss / counts +
    shift, variance = variance_ss / counts - (mean_ss / counts) ** 2."""
    with name_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
        divisor = basic_math_ops.reciprocal(counts, name="divisor")
        if shift is not None:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="shifted_mean")
            mean = math_ops.add(shifted_mean, shift, name="mean")
        else:
            shifted_mean = mean = math_ops.multiply(mean_ss, divisor, name="mean")
        variance = math_ops.subtract(math_ops.multiply(variance_ss, divisor),
                                     basic_math_ops.square(shifted_mean), name="variance")
    return mean, variance


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    """(mean, variance) of x over `axes`, each entry counted frequency_weights times (the
    weights broadcast against x) -- TF's nn_impl.weighted_moments. Where the weights sum to
    0 both are 0 (div_no_nan)."""
    keep = _keep_dims(keepdims, keep_dims)
    with name_scope(name, "weighted_moments", [x, frequency_weights, axes]):
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(frequency_weights, name="frequency_weights")
        half = x.dtype.base_dtype == _dtypes.float16
        if half:
            x = math_ops.cast(x, _dtypes.float32)
        if weights.dtype.base_dtype != x.dtype.base_dtype:
            weights = math_ops.cast(weights, x.dtype.base_dtype)
        weighted_sum = reduction_ops.reduce_sum(weights * x, axes, keepdims=True,
                                                name="weighted_input_sum")
        sum_of_weights = reduction_ops.reduce_sum(weights + array_ops.zeros_like(x), axes,
                                                  keepdims=True, name="sum_of_weights")
        mean = math_extra_ops.divide_no_nan(weighted_sum, sum_of_weights)
        distsq = reduction_ops.reduce_sum(
            weights * basic_math_ops.squared_difference(x, mean), axes, keepdims=True,
            name="weighted_distsq")
        variance = math_extra_ops.divide_no_nan(distsq, sum_of_weights)
        if not keep:
            mean = array_ops.squeeze(mean, axis=axes)
            variance = array_ops.squeeze(variance, axis=axes)
        if half:
            mean = math_ops.cast(mean, _dtypes.float16)
            variance = math_ops.cast(variance, _dtypes.float16)
        return mean, variance


# -- weighted_cross_entropy_with_logits, log_poisson_loss -----------------------------------

def _same_shape(a, b, a_name, b_name):
    if not a.get_shape().is_compatible_with(b.get_shape()):
        raise ValueError(f"`{a_name}` and `{b_name}` must have the same shape, received "
                         f"({a.get_shape()} vs {b.get_shape()}).")


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None,
                                       targets=None):
    """sigmoid_cross_entropy_with_logits with the positive term weighted by pos_weight:
    (1 - z) * x + (1 + (pos_weight - 1) * z) * log(1 + exp(-x)) for labels (targets) z and
    logits x, computed stably. TF 1's first argument was named targets; both names work."""
    labels = _one_of_args(labels, "labels", targets, "targets")
    if labels is None or logits is None or pos_weight is None:
        raise TypeError("weighted_cross_entropy_with_logits() needs labels (or targets), "
                        "logits and pos_weight")
    with name_scope(name, "logistic_loss", [logits, labels]) as scope:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        _same_shape(logits, labels, "logits", "labels")
        log_weight = 1 + (pos_weight - 1) * labels
        return math_ops.add(
            (1 - labels) * logits,
            log_weight * (basic_math_ops.log1p(basic_math_ops.exp(-basic_math_ops.abs(logits)))
                          + relu(-logits)), name=scope)


def _one_of_args(new, new_name, old, old_name):
    if new is not None and old is not None:
        raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
    return new if new is not None else old


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """The negative log-likelihood of targets under a Poisson distribution of log rate
    log_input, up to a constant: exp(log_input) - log_input * targets (TF's
    nn_impl.log_poisson_loss). compute_full_loss adds Stirling's approximation of
    log(targets!) (for targets > 1)."""
    with name_scope(name, "log_poisson_loss", [targets, log_input]):
        log_input = convert_to_tensor(log_input, name="log_input")
        targets = convert_to_tensor(targets, name="targets")
        _same_shape(log_input, targets, "log_input", "targets")
        result = basic_math_ops.exp(log_input) - log_input * targets
        if compute_full_loss:
            dtype = targets.dtype.base_dtype
            point_five = constant(0.5, dtype=dtype)
            two_pi = constant(2 * np.pi, dtype=dtype)
            stirling = (targets * basic_math_ops.log(targets) - targets
                        + point_five * basic_math_ops.log(two_pi * targets))
            zeros = array_ops.zeros_like(targets, dtype=dtype)
            ones = array_ops.ones_like(targets, dtype=dtype)
            cond = comparison_ops.logical_and(targets >= zeros, targets <= ones)
            result += comparison_ops.where(cond, zeros, stirling)
        return result


# -- compute_average_loss, scale_regularization_loss (one replica: no tf.distribute) -------

def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size (TF's
    nn_impl_distribute.compute_average_loss). The sandbox has no distribution strategy, so
    the number of replicas is 1 and global_batch_size defaults to the first dimension."""
    from . import check_ops
    per_example_loss = convert_to_tensor(per_example_loss)
    dtype = per_example_loss.dtype.base_dtype
    if per_example_loss.get_shape().ndims == 0:
        raise ValueError(f"Invalid value passed for `per_example_loss`. Expected a tensor with "
                         f"at least rank 1. Received per_example_loss={per_example_loss} with "
                         f"rank 0")
    if sample_weight is not None:
        losses = math_ops.cast(per_example_loss, _dtypes.float32)
        weights = math_ops.cast(convert_to_tensor(sample_weight), _dtypes.float32)
        lr, wr = losses.get_shape().ndims, weights.get_shape().ndims
        if lr is not None and wr is not None and wr - lr == 1:
            weights = array_ops.squeeze(weights, [-1])
        elif lr is not None and wr is not None and lr - wr == 1 and wr > 0:
            weights = array_ops.expand_dims(weights, -1)
        per_example_loss = math_ops.cast(math_ops.multiply(losses, weights), dtype)
    if global_batch_size is None:
        global_batch_size = array_ops.shape(per_example_loss)[0] * 1    # 1 replica
    check_ops.assert_scalar(global_batch_size, message="global_batch_size must be scalar.")
    check_ops.assert_integer(global_batch_size, message="global_batch_size must be an integer.")
    check_ops.assert_non_negative(global_batch_size,
                                  message="global_batch_size must be non-negative.")
    loss = reduction_ops.reduce_sum(per_example_loss)
    return math_extra_ops.divide_no_nan(loss, math_ops.cast(global_batch_size, dtype))


def scale_regularization_loss(regularization_loss):
    """sum(regularization_loss) / the number of replicas -- 1 in the sandbox, which has no
    distribution strategy (TF's nn_impl_distribute.scale_regularization_loss)."""
    return reduction_ops.reduce_sum(regularization_loss) / 1
