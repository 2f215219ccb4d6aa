"""Interleaving and sampling transformations of `tf.data.experimental` -- mirrors TF 1.15's
python/data/experimental/ops/interleave_ops.py (parallel_interleave, sample_from_datasets,
choose_from_datasets) and random_ops.py (RandomDataset).

    files = tf.data.Dataset.list_files("/data/train-*.tfrecord")
    records = files.apply(tf.data.experimental.parallel_interleave(
        tf.data.TFRecordDataset, cycle_length=4))
    mixed = tf.data.experimental.sample_from_datasets([cats, dogs], [0.7, 0.3], seed=1)

parallel_interleave with sloppy=False gives the elements of `interleave(map_func,
cycle_length, block_length)` -- TF 1.15's ParallelInterleaveDataset and InterleaveDataset give
the same order (measured with TF 2.15.1, whose parallel_interleave still runs the kernel of
TF 1.15's, as LegacyParallelInterleaveDatasetV2). The sandbox reads the datasets one at a
time, so sloppy=True (any order TF's threads happen to give) gets that order too;
buffer_output_elements and prefetch_input_elements change no element and are accepted.

sample_from_datasets is built as TF builds it: a RandomDataset (32-bit Philox words from the
seeds) batched in pairs, each pair the seed of a stateless_multinomial draw over the logits
log(weights), choosing which dataset gives the next element (a DirectedInterleaveDataset). So
a seeded `sample_from_datasets(..., seed=s)` gives TF's sequence. A dataset that runs out is
passed over; the result ends when all have.
"""
from ..framework import dtypes as _dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.type_spec import most_specific_compatible_shape
from ..ops.array_ops import expand_dims, squeeze
from ..ops.basic_math_ops import log
from ..ops.random_ops import get_seed
from ..ops.stateless_random_ops import stateless_multinomial
from . import nest
from .dataset_ops import DatasetV1, _int64
from .nest import Spec
from .structured_function import same_nesting

__all__ = ["parallel_interleave", "sample_from_datasets", "choose_from_datasets",
           "RandomDataset"]


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
    """The datasets `map_func` returns for `cycle_length` input elements at a time, taken in
    turns, `block_length` elements from each: `dataset.interleave(map_func, cycle_length,
    block_length)`. Use with dataset.apply."""

    def _apply_fn(dataset):
        return dataset.interleave(map_func, cycle_length, block_length)

    return _apply_fn


class RandomDataset(DatasetV1):
    """Endless pseudorandom int64 scalars in [0, 2**32), TF's numbers for the same seed."""

    def __init__(self, seed=None):
        seed, seed2 = get_seed(seed)
        self._seed = _int64(0 if seed is None else seed, "seed")
        self._seed2 = _int64(0 if seed2 is None else seed2, "seed2")
        super().__init__(Spec(_dtypes.int64, []))

    def _plan(self, tensors):
        return {"op": "RandomDataset", "seed": tensors(self._seed),
                "seed2": tensors(self._seed2)}


class _DirectedInterleaveDataset(DatasetV1):
    """The element of data_inputs[i] for each i of `selector_input` (int64 scalars)."""

    def __init__(self, selector_input, data_inputs):
        data_inputs = list(data_inputs)
        first = data_inputs[0]
        for other in data_inputs[1:]:
            if not _compatible(first._structure, other._structure):
                raise TypeError("Invalid `datasets`. `datasets` must have compatible element "
                                "specs.")
        flat = [s.shape for s in first._flat_specs()]
        for other in data_inputs[1:]:
            flat = [most_specific_compatible_shape(a, s.shape)
                    for a, s in zip(flat, other._flat_specs())]
        shapes = iter(flat)
        structure = nest.map_structure(lambda s: Spec(s.dtype, next(shapes)), first._structure)
        super().__init__(structure, [selector_input] + data_inputs)

    def _plan(self, tensors):
        return {"op": "DirectedInterleaveDataset",
                "selector": self._inputs[0]._plan(tensors),
                "inputs": [d._plan(tensors) for d in self._inputs[1:]]}


def _compatible(a, b):
    """Whether elements of structures a and b can come out of one dataset (TF's compatible
    element specs): the same nesting and dtypes, compatible shapes."""
    return same_nesting(a, b) and all(
        x.dtype == y.dtype and x.shape.is_compatible_with(y.shape)
        for x, y in zip(nest.flatten(a), nest.flatten(b)))


def _check_datasets(datasets, name):
    datasets = list(datasets)
    if not datasets or not all(isinstance(d, DatasetV1) for d in datasets):
        raise TypeError(f"{name} takes a non-empty list of tf.data.Dataset objects, got "
                        f"{datasets!r}.")
    return datasets


def sample_from_datasets(datasets, weights=None, seed=None):
    """Elements drawn at random from `datasets`: each next element comes from dataset i with
    probability weights[i] (equal when weights is None; `weights` may also be a Dataset of
    such vectors, one per element drawn). A dataset that runs out is passed over."""
    datasets = _check_datasets(datasets, "sample_from_datasets")
    if not isinstance(weights, DatasetV1):
        if weights is None:
            logits = [[1.0] * len(datasets)]
        else:
            if isinstance(weights, Tensor):
                if not weights.get_shape().is_compatible_with([len(datasets)]):
                    raise ValueError("Invalid `weights`. The shape of `weights` should be "
                                     "compatible with `[len(datasets)]` but is "
                                     f"{weights.get_shape()}.")
            elif len(datasets) != len(weights):
                raise ValueError("Invalid `weights`. `weights` should have the same length as "
                                 f"`datasets` but got `len(weights)={len(weights)}` vs. "
                                 f"`len(datasets)={len(datasets)}`.")
            weights = convert_to_tensor(weights, name="weights")
            if weights.dtype.base_dtype not in (_dtypes.float32, _dtypes.float64):
                raise TypeError("Invalid `weights`. `weights` type must be either `tf.float32` "
                                f"or `tf.float64` but is {weights.dtype.base_dtype}.")
            logits = expand_dims(log(weights, name="logits"), 0)
        if len(datasets) == 1:
            return datasets[0]

        def select_dataset_constant_logits(seed):
            return squeeze(stateless_multinomial(logits, 1, seed=seed), axis=[0, 1])

        selector = RandomDataset(seed).batch(2).map(select_dataset_constant_logits)
    else:
        logits_ds = weights.map(lambda *p: log(p, name="logits"))    # p packed: [1, n]

        def select_dataset_varying_logits(logits, seed):
            return squeeze(stateless_multinomial(logits, 1, seed=seed), axis=[0, 1])

        selector = DatasetV1.zip((logits_ds, RandomDataset(seed).batch(2))).map(
            select_dataset_varying_logits)
    return _DirectedInterleaveDataset(selector, datasets)


def choose_from_datasets(datasets, choice_dataset):
    """The element of datasets[i] for each i of `choice_dataset` (a dataset of int64
    scalars); a dataset that has run out is passed over."""
    datasets = _check_datasets(datasets, "choose_from_datasets")
    specs = choice_dataset._flat_specs() if isinstance(choice_dataset, DatasetV1) else None
    if not specs or nest.is_sequence(choice_dataset._structure) or \
            specs[0].dtype != _dtypes.int64 or not specs[0].shape.is_compatible_with([]):
        raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be "
                        "scalar `tf.int64` tensors but are "
                        f"{getattr(choice_dataset, 'element_spec', choice_dataset)}.")
    return _DirectedInterleaveDataset(choice_dataset, datasets)
