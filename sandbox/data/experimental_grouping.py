"""Grouping transformations of `tf.data.experimental` -- mirrors TF 1.15's
python/data/experimental/ops/grouping.py: group_by_window, bucket_by_sequence_length,
group_by_reducer and Reducer.

    # batches of sentences of about the same length (less padding):
    dataset = dataset.apply(tf.data.experimental.bucket_by_sequence_length(
        lambda tokens: tf.shape(tokens)[0], bucket_boundaries=[10, 20],
        bucket_batch_sizes=[64, 32, 16]))

group_by_window sorts elements into groups by `key_func(element)` (an int64 scalar); when a
group holds `window_size` elements (or `window_size_func(key)`), `reduce_func(key, window)` is
called with the group as a dataset -- `window.batch(n)`, say -- and that dataset's elements
come next. At the end of the input, the groups not yet full follow, in increasing key order
(TF's order). bucket_by_sequence_length is TF's composition of it: the key is the bucket of
`element_length_func(element)` and each bucket's window is padded and batched.

group_by_reducer folds each group into a state instead: `Reducer(init_func, reduce_func,
finalize_func)` -- init_func(key) starts a group's state, reduce_func(state, element) folds an
element in, and at the end of the input finalize_func(state) gives one element per key, in
increasing key order.

The kernels are in ops/dataset_pipeline.py (GroupByWindowDataset, GroupByReducerDataset). The
window that reduce_func receives is a dataset whose plan is a WindowArgument: when a group is
full, the kernel puts the group's elements into it.
"""
import itertools

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import control_dependencies, name_scope
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import stack
from ..ops.check_ops import assert_less
from ..ops.comparison_ops import less, less_equal, logical_and, where
from ..ops.constant_op import constant
from ..ops.reduction_ops import reduce_min
from . import nest
from .dataset_ops import DatasetV1, _flat_up_to, _int64, _Unary
from .nest import Spec
from .structured_function import (check_scalar, function_plan, spec, trace,
                                  trace_dataset_function, trace_with_state)

__all__ = ["group_by_window", "bucket_by_sequence_length", "group_by_reducer", "Reducer"]

_INT64 = spec(_dtypes.int64)
_window_tokens = itertools.count(1)


class _WindowArgument(DatasetV1):
    """The dataset reduce_func receives: the elements of one group (TF's WindowDataset)."""

    def __init__(self, structure, token):
        self._token = token
        super().__init__(structure)

    def _plan(self, tensors):
        return {"op": "WindowArgument", "token": self._token}


def _as_int64(fn):
    return lambda *args: convert_to_tensor(fn(*args), dtype=_dtypes.int64)


class _GroupByWindowDataset(_Unary):
    def __init__(self, input_dataset, key_func, reduce_func, window_size_func):
        self._key = trace(_as_int64(key_func), input_dataset._structure,
                          "the key_func of group_by_window")
        check_scalar(self._key[2], _dtypes.int64, "key_func")
        self._size = trace(_as_int64(window_size_func), _INT64,
                           "the window_size_func of group_by_window")
        check_scalar(self._size[2], _dtypes.int64, "window_size_func")
        self._token = next(_window_tokens)
        window = _WindowArgument(input_dataset._structure, self._token)
        fn, captures, self._dataset_plan, structure = trace_dataset_function(
            reduce_func, _INT64, "the reduce_func of group_by_window", "reduce_func",
            extra_args=(window,))
        self._reduce = (fn, captures)
        super().__init__(input_dataset, structure)

    def _plan(self, tensors):
        return {"op": "GroupByWindowDataset", "input": self._input._plan(tensors),
                "window": self._token,
                "key_func": function_plan(*self._key[:2], tensors),
                "window_size_func": function_plan(*self._size[:2], tensors),
                "reduce_func": function_plan(*self._reduce, tensors,
                                             dataset=self._dataset_plan)}


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """A transformation (for dataset.apply) that groups elements by `key_func(element)` (an
    int64 scalar) into windows of `window_size` (or `window_size_func(key)`) elements, each
    turned into a dataset by `reduce_func(key, window_dataset)`."""
    if (window_size is not None and window_size_func) or \
            not (window_size is not None or window_size_func):
        raise ValueError("Either the `window_size` argument or the `window_size_func` argument "
                         "must be specified.")
    if window_size is not None:

        def constant_window_func(unused_key):
            return convert_to_tensor(window_size, dtype=_dtypes.int64)

        window_size_func = constant_window_func

    def _apply_fn(dataset):
        return _GroupByWindowDataset(dataset, key_func, reduce_func, window_size_func)

    return _apply_fn


class _PaddedBatchToShapes(_Unary):
    """padded_batch whose padded shapes may hold scalar int64 tensors (the bucket boundary of
    bucket_by_sequence_length's pad_to_bucket_boundary), read when the batch is made."""

    def __init__(self, input_dataset, batch_size, shapes, padding_values, drop_remainder):
        specs = input_dataset._flat_specs()
        if padding_values is None:
            values = [b"" if s.dtype == _dtypes.string else 0 for s in specs]
        else:
            values = _flat_up_to(input_dataset._structure, padding_values, "padding_values")
        self._batch_size = _int64(batch_size, "batch_size")
        self._drop = convert_to_tensor(drop_remainder, dtype=_dtypes.bool, name="drop_remainder")
        self._shapes = [_shape_vector(dims) for dims in shapes]
        self._values = [convert_to_tensor(v, dtype=s.dtype, name="padding_value")
                        for v, s in zip(values, specs)]
        super().__init__(input_dataset, nest.pack_sequence_as(input_dataset._structure, [
            Spec(s.dtype, TensorShape([None] + [d if isinstance(d, int) and d >= 0 else None
                                                for d in dims]))
            for s, dims in zip(specs, shapes)]))

    def _plan(self, tensors):
        return {"op": "PaddedBatchDatasetV2", "input": self._input._plan(tensors),
                "batch_size": tensors(self._batch_size), "drop_remainder": tensors(self._drop),
                "padded_shapes": [tensors(t) for t in self._shapes],
                "padding_values": [tensors(t) for t in self._values]}


def _shape_vector(dims):
    """A padded shape as an int64 vector (-1: pad to the longest); a dim may be a tensor."""
    dims = [-1 if d is None else d for d in dims]
    if any(isinstance(d, Tensor) for d in dims):
        return stack([_int64(d, "dim") for d in dims])
    return _int64(dims, "padded_shapes")


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """A transformation (for dataset.apply) that batches elements of about the same length:
    an element of length L (`element_length_func(element)`, an int32 scalar) goes to bucket i
    where bucket_boundaries[i-1] <= L < bucket_boundaries[i], and each bucket makes padded
    batches of bucket_batch_sizes[i] elements (plain batches if no_padding). With
    pad_to_bucket_boundary, unknown dimensions pad to the bucket's boundary - 1 (then every
    length must be below the last boundary)."""
    with name_scope("bucket_by_seq_length"):
        if len(bucket_batch_sizes) != (len(bucket_boundaries) + 1):
            raise ValueError(f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + "
                             f"1` but `len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and "
                             f"`len(bucket_boundaries)={len(bucket_boundaries)}`.")
        batch_sizes = constant(bucket_batch_sizes, dtype=_dtypes.int64)

        def element_to_bucket_id(*args):
            seq_length = element_length_func(*args)
            boundaries = list(bucket_boundaries)
            buckets_min = [np.iinfo(np.int32).min] + boundaries
            buckets_max = boundaries + [np.iinfo(np.int32).max]
            conditions_c = logical_and(less_equal(buckets_min, seq_length),
                                       less(seq_length, buckets_max))
            return reduce_min(where(conditions_c))

        def window_size_fn(bucket_id):
            return batch_sizes[bucket_id]

        def make_padded_shapes(shapes, none_filler=None):
            padded = []
            for shape in nest.flatten(shapes):
                dims = TensorShape(shape).as_list()
                padded.append([none_filler if d is None else d for d in dims])
            return padded

        def batching_fn(bucket_id, grouped_dataset):
            batch_size = window_size_fn(bucket_id)
            if no_padding:
                return grouped_dataset.batch(batch_size, drop_remainder=drop_remainder)
            none_filler = None
            if pad_to_bucket_boundary:
                check = assert_less(
                    bucket_id, constant(len(bucket_batch_sizes) - 1, dtype=_dtypes.int64),
                    message="When pad_to_bucket_boundary=True, elements must have length < "
                            "max(bucket_boundaries).")
                with control_dependencies([check]):
                    boundaries = constant(bucket_boundaries, dtype=_dtypes.int64)
                    none_filler = boundaries[bucket_id] - 1
            shapes = make_padded_shapes(padded_shapes or grouped_dataset.output_shapes,
                                        none_filler=none_filler)
            return _PaddedBatchToShapes(grouped_dataset, batch_size, shapes, padding_values,
                                        drop_remainder)

        def _apply_fn(dataset):
            return dataset.apply(group_by_window(element_to_bucket_id, batching_fn,
                                                 window_size_func=window_size_fn))

        return _apply_fn


class Reducer:
    """What group_by_reducer does with each group: init_func(key) -> state,
    reduce_func(state, element) -> state, finalize_func(state) -> output element."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self._init_func = init_func
        self._reduce_func = reduce_func
        self._finalize_func = finalize_func

    init_func = property(lambda self: self._init_func)
    reduce_func = property(lambda self: self._reduce_func)
    finalize_func = property(lambda self: self._finalize_func)


class _GroupByReducerDataset(_Unary):
    def __init__(self, input_dataset, key_func, reducer):
        what = "tf.data.experimental.group_by_reducer()"
        self._key = trace(key_func, input_dataset._structure, f"the key_func of {what}")
        key = nest.flatten(self._key[2])
        check_scalar(self._key[2], _dtypes.int64, "key_func", message=(
            "Invalid `key_func`. Expected `key_func` to return a scalar tf.int64 tensor, but "
            f"instead `key_func` has output types={key[0].dtype if len(key) == 1 else key} "
            f"and shapes={key[0].shape if len(key) == 1 else key}."))
        self._init = trace(reducer.init_func, _INT64, f"the init_func of {what}")
        fn, captures, state, _ = trace_with_state(
            reducer.reduce_func, self._init[2], input_dataset._structure,
            f"the reduce_func of {what}", _reducer_type_error)
        self._reduce = (fn, captures)
        self._state_types = [s.dtype for s in nest.flatten(state)]
        self._finalize = trace(reducer.finalize_func, state, f"the finalize_func of {what}")
        super().__init__(input_dataset, self._finalize[2])

    def _plan(self, tensors):
        return {"op": "GroupByReducerDataset", "input": self._input._plan(tensors),
                "key_func": function_plan(*self._key[:2], tensors),
                "init_func": function_plan(*self._init[:2], tensors),
                "reduce_func": function_plan(*self._reduce, tensors),
                "finalize_func": function_plan(*self._finalize[:2], tensors),
                "state_types": self._state_types,
                "output_types": [s.dtype for s in self._flat_specs()]}


def _reducer_type_error(old, new):
    return (f"Invalid `reducer`. The element types for the new state {new} do not match the "
            f"element types of the old state {old}.")


def group_by_reducer(key_func, reducer):
    """A transformation (for dataset.apply) that folds the elements of each key (an int64
    scalar, `key_func(element)`) with `reducer` (a tf.data.experimental.Reducer) into one
    element per key."""

    def _apply_fn(dataset):
        return _GroupByReducerDataset(dataset, key_func, reducer)

    return _apply_fn
