"""`tf.data.experimental.rejection_resample` -- mirrors TF 1.15's
python/data/experimental/ops/resampling.py.

    balanced = dataset.apply(tf.data.experimental.rejection_resample(
        class_func=lambda image, label: label, target_dist=[0.5, 0.5], seed=1))
    # elements: (class, (image, label))

Resamples a dataset so that the classes (`class_func(element)`, an int32/int64 scalar) come
out in the proportions `target_dist`. Built as TF 1.15 builds it, from other transformations:
an element of class c is kept with probability a_c, where a = (target/initial - m) /
(max(target/initial) - m) and m = min(target/initial); the kept elements are mixed with the
dataset as it is in proportion m (sample_from_datasets with weights (m, 1 - m)). The initial
distribution is `initial_dist`, or else estimated while reading: counts of the classes seen,
from 10 each, updated every 32 elements (a scan over batches of the class values). The
elements are (class, element) pairs.

The random draws (a random_uniform in a filter, and sample_from_datasets) follow `seed`;
TF's own numbers depend on how its function graphs seed their random ops, so the sandbox's
resampled sequence is one of TF's possible ones, not TF's, for a given seed. TF also prints a
warning when more than half the examples are rejected; the sandbox does not.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import constant_value
from ..ops.array_ops import expand_dims, fill, shape
from ..ops.indexing_ops import gather, one_hot
from ..ops.math_ops import add, cast, truediv
from ..ops.random_ops import random_uniform
from ..ops.reduction_ops import reduce_max, reduce_min, reduce_sum
from ..ops.slicing_ops import tile
from .dataset_ops import DatasetV1
from .experimental_interleave import sample_from_datasets
from .experimental_scan import scan

__all__ = ["rejection_resample"]


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """A transformation (for dataset.apply) that resamples the dataset so that its classes
    follow `target_dist`; its elements are (class, element) pairs."""

    def _apply_fn(dataset):
        target_dist_t = convert_to_tensor(target_dist, name="target_dist")
        class_values_ds = dataset.map(class_func)
        if initial_dist is not None:
            initial_dist_t = convert_to_tensor(initial_dist, name="initial_dist")
            acceptance_dist, prob_of_original = _calculate_acceptance_probs_with_mixing(
                initial_dist_t, target_dist_t)
            initial_dist_ds = DatasetV1.from_tensors(initial_dist_t).repeat()
            acceptance_dist_ds = DatasetV1.from_tensors(acceptance_dist).repeat()
            prob_of_original_ds = DatasetV1.from_tensors(prob_of_original).repeat()
        else:
            initial_dist_ds = _estimate_initial_dist_ds(target_dist_t, class_values_ds)
            acceptance_and_original_prob_ds = initial_dist_ds.map(
                lambda initial: _calculate_acceptance_probs_with_mixing(initial,
                                                                        target_dist_t))
            acceptance_dist_ds = acceptance_and_original_prob_ds.map(lambda accept, _: accept)
            prob_of_original_ds = acceptance_and_original_prob_ds.map(lambda _, prob: prob)
        filtered_ds = _filter_ds(dataset, acceptance_dist_ds, class_values_ds, seed)
        filtered_ds = filtered_ds.prefetch(3)
        prob_original_static = _get_prob_original_static(initial_dist_t, target_dist_t) \
            if initial_dist is not None else None
        if prob_original_static == 1:
            return DatasetV1.zip((class_values_ds, dataset))
        if prob_original_static == 0:
            return filtered_ds
        return sample_from_datasets(
            [DatasetV1.zip((class_values_ds, dataset)), filtered_ds],
            weights=prob_of_original_ds.map(lambda prob: ((prob, 1.0 - prob),)), seed=seed)

    return _apply_fn


def _get_prob_original_static(initial_dist_t, target_dist_t):
    init_static = constant_value(initial_dist_t)
    target_static = constant_value(target_dist_t)
    if init_static is None or target_static is None:
        return None
    return np.min(target_static / init_static)


def _filter_ds(dataset, acceptance_dist_ds, class_values_ds, seed):
    """The elements kept, each with probability acceptance_dist[its class]."""

    def _gather_and_copy(class_val, acceptance_prob, data):
        return class_val, gather(acceptance_prob, class_val), data

    current_probabilities_and_class_and_data_ds = DatasetV1.zip(
        (class_values_ds, acceptance_dist_ds, dataset)).map(_gather_and_copy)
    filtered_ds = current_probabilities_and_class_and_data_ds.filter(
        lambda _1, p, _2: random_uniform([], seed=seed) < p)
    return filtered_ds.map(lambda class_value, _, data: (class_value, data))


def _estimate_initial_dist_ds(target_dist_t, class_values_ds, dist_estimation_batch_size=32,
                              smoothing_constant=10):
    num_classes = target_dist_t.get_shape().as_list()[0] or shape(target_dist_t)[0]
    initial_examples_per_class_seen = fill([num_classes], np.int64(smoothing_constant))

    def update_estimate_and_tile(num_examples_per_class_seen, c):
        updated_examples_per_class_seen, dist = _estimate_data_distribution(
            c, num_examples_per_class_seen)
        tiled_dist = tile(expand_dims(dist, 0), [dist_estimation_batch_size, 1])
        return updated_examples_per_class_seen, tiled_dist

    return class_values_ds.batch(dist_estimation_batch_size).apply(
        scan(initial_examples_per_class_seen, update_estimate_and_tile)).unbatch()


def _estimate_data_distribution(c, num_examples_per_class_seen):
    num_classes = num_examples_per_class_seen.get_shape().as_list()[0]
    num_examples_per_class_seen = add(num_examples_per_class_seen, reduce_sum(
        one_hot(c, num_classes, dtype=_dtypes.int64), 0))
    init_prob_estimate = truediv(num_examples_per_class_seen,
                                 reduce_sum(num_examples_per_class_seen))
    return num_examples_per_class_seen, cast(init_prob_estimate, _dtypes.float32)


def _calculate_acceptance_probs_with_mixing(initial_probs, target_probs):
    """(a, m): the probability of keeping an element of each class, and the proportion m of
    elements taken as they are."""
    denom = initial_probs + np.finfo(initial_probs.dtype.as_numpy_dtype).tiny
    ratio_l = target_probs / denom
    max_ratio = reduce_max(ratio_l)
    min_ratio = reduce_min(ratio_l)
    m = min_ratio
    a_i = (ratio_l - m) / (max_ratio - m)
    return a_i, m
