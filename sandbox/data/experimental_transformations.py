"""Small transformations of `tf.data.experimental` -- mirrors TF 1.15's
python/data/experimental/ops/ shuffle_ops.py (shuffle_and_repeat), take_while_ops.py,
unique.py, error_ops.py (ignore_errors), enumerate_ops.py and prefetching_ops.py
(prefetch_to_device, copy_to_device). Each returns a function for `dataset.apply`:

    dataset = dataset.apply(tf.data.experimental.shuffle_and_repeat(1000, count=10, seed=1))
    dataset = dataset.map(decode).apply(tf.data.experimental.ignore_errors())

shuffle_and_repeat is TF 1.15's ShuffleAndRepeatDataset: one shuffle buffer runs across the
epochs, drawn with Philox seeded (seed, seed2) -- the order TF gives for the same seeds, and
the order of `shuffle(buffer_size, seed).repeat(count)`, which TF's optimizer fuses into it.

ignore_errors leaves out the elements whose making failed (a map function that raised, a
malformed CSV record) and goes on with the next. TF's kernels can be asked for more after an
error; the sandbox's are Python generators, which cannot, so ops/dataset_pipeline.py asks for
the elements *tolerantly*: map, filter, batch, take, prefetch and CsvDataset go on after a
failure as TF's do (a batch with a failed element is left out whole). An error that comes
through any other transformation (a shuffle, an interleave ...) still ends the iteration,
with a message that says so: apply ignore_errors() right after what fails.

prefetch_to_device and copy_to_device move elements to a GPU in TF. The sandbox computes on
its one CPU device, so the dataset is kept as it is: the elements are where the iterator is.
"""
from ..framework import dtypes as _dtypes
from ..ops.random_ops import get_seed
from .dataset_ops import _int64, _Unary
from .structured_function import check_scalar, describe, function_plan, trace

__all__ = ["shuffle_and_repeat", "take_while", "unique", "ignore_errors",
           "enumerate_dataset", "prefetch_to_device", "copy_to_device"]


class _ShuffleAndRepeatDataset(_Unary):
    def __init__(self, input_dataset, buffer_size, count, seed):
        self._buffer_size = _int64(buffer_size, "buffer_size")
        self._count = _int64(-1 if count is None else count, "count")
        seed, seed2 = get_seed(seed)
        self._seed = _int64(0 if seed is None else seed, "seed")
        self._seed2 = _int64(0 if seed2 is None else seed2, "seed2")
        super().__init__(input_dataset)

    def _plan(self, tensors):
        return {"op": "ShuffleAndRepeatDataset", "input": self._input._plan(tensors),
                "buffer_size": tensors(self._buffer_size), "count": tensors(self._count),
                "seed": tensors(self._seed), "seed2": tensors(self._seed2)}


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """The dataset `count` times over (forever if None or -1), shuffled with one buffer of
    `buffer_size` elements across the epochs."""

    def _apply_fn(dataset):
        return _ShuffleAndRepeatDataset(dataset, buffer_size, count, seed)

    return _apply_fn


class _TakeWhileDataset(_Unary):
    def __init__(self, input_dataset, predicate):
        self._fn, self._captures, result = trace(
            predicate, input_dataset._structure, "the predicate of take_while")
        check_scalar(result, _dtypes.bool, "predicate", message=(
            "Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its "
            f"return type is {describe(result)}."))
        super().__init__(input_dataset)

    def _plan(self, tensors):
        return {"op": "TakeWhileDataset", "input": self._input._plan(tensors),
                **function_plan(self._fn, self._captures, tensors)}


def take_while(predicate):
    """The elements up to (not including) the first for which `predicate` (a scalar tf.bool)
    is False."""

    def _apply_fn(dataset):
        return _TakeWhileDataset(dataset, predicate)

    return _apply_fn


class _UniqueDataset(_Unary):
    def __init__(self, input_dataset):
        specs = input_dataset._flat_specs()
        for spec in specs:
            if spec.dtype not in (_dtypes.int32, _dtypes.int64, _dtypes.string):
                raise TypeError(f"`tf.data.Dataset.unique` does not support type {spec.dtype} "
                                "-- only `tf.int32`, `tf.int64`, and `tf.string` are "
                                "supported.")
        if len(specs) != 1:          # (TF's kernel says so when it runs)
            raise TypeError("`tf.data.Dataset.unique` supports elements of one component "
                            f"only, got types {input_dataset.output_types}.")
        super().__init__(input_dataset)

    def _plan(self, tensors):
        return {"op": "UniqueDataset", "input": self._input._plan(tensors)}


def unique():
    """Each distinct element once, in the order of first appearance (elements of one
    tf.int32, tf.int64 or tf.string component)."""

    def _apply_fn(dataset):
        return _UniqueDataset(dataset)

    return _apply_fn


class _IgnoreErrorsDataset(_Unary):
    def _plan(self, tensors):
        return {"op": "IgnoreErrorsDataset", "input": self._input._plan(tensors)}


def ignore_errors():
    """The elements whose making did not fail (see the module docstring for which failures
    the sandbox can skip)."""

    def _apply_fn(dataset):
        return _IgnoreErrorsDataset(dataset)

    return _apply_fn


def enumerate_dataset(start=0):
    """(index, element) pairs, the int64 index counting from `start`: dataset.enumerate."""

    def _apply_fn(dataset):
        return dataset.enumerate(start)

    return _apply_fn


def copy_to_device(target_device, source_device="/cpu:0"):
    """TF copies the elements to `target_device`; the sandbox has one device per task, so the
    dataset is kept as it is (its elements are made where the iterator is placed)."""
    for device in (target_device, source_device):
        if not isinstance(device, str):
            raise TypeError(f"copy_to_device takes device names (strings), got {device!r}.")
    return lambda dataset: dataset


def prefetch_to_device(device, buffer_size=None):
    """TF prefetches the elements onto `device` (a GPU); the sandbox keeps the dataset, and
    its prefetch buffers nothing (see ops/dataset_pipeline.py)."""
    copy = copy_to_device(device)
    return lambda dataset: copy(dataset).prefetch(-1 if buffer_size is None else buffer_size)

