"""`tf.data.Dataset` -- mirrors TensorFlow 1.15's python/data/ops/dataset_ops.py (DatasetV1).

A Dataset describes a sequence of elements -- each one tensor, or a tuple or dict of them --
and how to make it: slices of tensors, a range of numbers, and transformations (map, batch,
shuffle, repeat ...) chained on top. Building one runs nothing: like any graph op, it only
describes. Elements are made by an iterator (sandbox/data/iterator_ops.py), on the device the
iterator is placed on, one `sess.run(iterator.get_next())` at a time.

How the sandbox keeps a dataset (TF keeps a chain of dataset ops, e.g. TensorSliceDataset ->
MapDataset -> BatchDatasetV2, whose variant output feeds the iterator): each Dataset here is a
Python object holding its *plan* -- plain data named after TF's dataset ops, see
ops/dataset_pipeline.py -- and the tensors it reads (the sliced tensors, batch_size, seeds,
what a map function captures). The iterator's op carries the plan as an attr and takes the
tensors as inputs, so the whole pipeline runs where the iterator lives, as in TF, and can
travel to any task as plain data.

`map(fn)` traces `fn` once into a function (ops/dataset_function.py), as TF does: `fn` is
called on placeholders standing for one element and may use any op; the function then runs
per element inside the iterator's kernel. A tensor of the graph that `fn` uses (a variable,
a placeholder) is captured: its value is read when the iterator is initialized.

`shuffle(buffer_size, seed)` gives TF 1.15's order for the same (seed, seed2) -- an explicit
`seed=` without a graph seed is (87654321, seed) in both. With a graph seed and no op seed,
TF 1.15 uses the graph's op count as op seed while the sandbox (ops/random_ops.get_seed)
follows TF 2's counter, so those orders differ.

`dataset.element_spec` describes an element with tf.TensorSpecs, and tf.data.DatasetSpec a
whole dataset (TF's type specs, framework/type_spec.py). `with_options(options)` attaches
tf.data.Options (data/options.py), merged along the pipeline: they are kept, not acted on.

`from_generator(gen, ...)` is the one source whose elements are made by Python code: the
generator stays in this process (only a token travels), so its iterator must run here -- a
local Session -- as TF's generator, too, runs in the client's process.
"""
import itertools
import warnings

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.type_spec import TensorSpec, TypeSpec, most_specific_compatible_shape
from ..ops.dataset_function import trace_function
from ..ops.dataset_pipeline import GENERATORS
from ..ops.random_ops import get_seed
from . import nest
from .iterator_ops import make_initializable_iterator, make_one_shot_iterator
from .nest import Spec as _Spec
from .options import Options

__all__ = ["Dataset", "DatasetV1", "DatasetSpec", "get_output_types", "get_output_shapes",
           "get_output_classes"]


def _normalize(value, what):
    """An element given by the user as a structure of tensors (lists are tensors)."""
    if isinstance(value, dict):
        return type(value)((k, _normalize(v, what)) for k, v in value.items())
    if isinstance(value, tuple):
        items = [_normalize(v, what) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if value is None:
        raise TypeError(f"{what}: an element component cannot be None.")
    if isinstance(value, (SparseTensor, SparseTensorValue)):
        raise NotImplementedError(
            f"{what}: an element component is a tf.SparseTensor (a VarLenFeature parses into "
            "one), and the sandbox's datasets hold dense tensors only. Make it dense in the "
            "function, e.g. tf.sparse.to_dense(features['x'], default_value=...), or parse a "
            "FixedLenFeature.")
    return convert_to_tensor(value)


def _int64(value, name):
    return convert_to_tensor(value, dtype=_dtypes.int64, name=name)


class _Tensors:
    """The tensors a pipeline reads, each once, in order."""

    def __init__(self):
        self.tensors = []
        self._index = {}

    def __call__(self, tensor):
        key = id(tensor)
        if key not in self._index:
            self._index[key] = len(self.tensors)
            self.tensors.append(tensor)
        return self._index[key]


class DatasetV1:
    """A sequence of elements (the TF-1 `tf.data.Dataset`). Build one with a class method
    (from_tensor_slices, from_tensors, range, zip) and chain transformations."""

    _repr_name = None                             # (its class name)

    def __init__(self, structure, inputs=()):
        self._structure = structure               # nested _Spec
        self._inputs = list(inputs)               # the datasets this one transforms

    # -- what it holds -------------------------------------------------------------------
    @property
    def output_types(self):
        return nest.map_structure(lambda s: s.dtype, self._structure)

    @property
    def output_shapes(self):
        return nest.map_structure(lambda s: s.shape, self._structure)

    @property
    def output_classes(self):
        return nest.map_structure(lambda s: Tensor, self._structure)

    @property
    def element_spec(self):
        """The kind of one element: a tf.TensorSpec per component, nested as the element."""
        return nest.map_structure(lambda s: TensorSpec(s.shape, s.dtype), self._structure)

    def _flat_specs(self):
        return nest.flatten(self._structure)

    def _plan(self, tensors):
        """This dataset's plan (a dict named after TF's op); `tensors(t)` is t's index in the
        iterator's inputs."""
        raise NotImplementedError

    def _plan_and_tensors(self):
        tensors = _Tensors()
        plan = self._plan(tensors)
        return plan, tensors.tensors

    def __repr__(self):
        # named after the dataset's TF op: <RepeatDataset shapes: ..., types: ...>
        name = self._repr_name or type(self).__name__.lstrip("_")
        return f"<{name} shapes: {_text(self.output_shapes)}, types: {_text(self.output_types)}>"

    def __iter__(self):
        raise RuntimeError("dataset.__iter__() is only supported when eager execution is "
                           "enabled. In a TF-1 program, make an iterator: "
                           "it = dataset.make_one_shot_iterator(); x = it.get_next(); "
                           "then sess.run(x) in a loop until tf.errors.OutOfRangeError.")

    # -- sources ---------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors):
        """One element per slice of the tensors along their first dimension."""
        return TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors):
        """A dataset of one element: `tensors` itself."""
        return TensorDataset(tensors)

    @staticmethod
    def from_generator(generator, output_types, output_shapes=None, args=None):
        """The elements a Python generator yields (`generator(*args)`, called anew for each
        pass). The generator runs in this process only: use the dataset with a local
        Session (as in TF, whose generator runs in the client's process)."""
        return GeneratorDataset(generator, output_types, output_shapes, args)

    @staticmethod
    def range(*args):
        """range(stop), range(start, stop) or range(start, stop, step): int64 scalars."""
        return RangeDataset(*args)

    @staticmethod
    def zip(datasets):
        """Elements of several datasets side by side, as a tuple (or dict) of their
        elements; it ends with the shortest."""
        return ZipDataset(datasets)

    # -- transformations -------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None):
        """`map_func` applied to every element (a tuple element is passed as separate
        arguments). num_parallel_calls is accepted; the sandbox maps one element at a time."""
        return MapDataset(self, map_func)

    def flat_map(self, map_func):
        """The elements of the datasets `map_func` returns for each element, one dataset
        after the other."""
        return FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None):
        """The datasets `map_func` returns for `cycle_length` elements at a time, taken in
        turns, `block_length` elements from each (TF's order; cycle_length None or
        tf.data.AUTOTUNE: as many as this machine has cores, as in TF). num_parallel_calls
        is accepted; the sandbox reads one dataset at a time, in the same order."""
        return InterleaveDataset(self, map_func, cycle_length, block_length)

    def filter(self, predicate):
        """The elements for which `predicate` (a scalar tf.bool) is True."""
        return FilterDataset(self, predicate)

    def batch(self, batch_size, drop_remainder=False):
        """Consecutive elements stacked into batches; the last one may be smaller unless
        drop_remainder=True (then output_shapes know the batch size)."""
        return BatchDataset(self, batch_size, drop_remainder)

    def padded_batch(self, batch_size, padded_shapes, padding_values=None,
                     drop_remainder=False):
        """Batches whose components are padded (with 0, b'' or `padding_values`) to
        `padded_shapes`; a None (or -1) dimension pads to the longest in the batch."""
        return PaddedBatchDataset(self, batch_size, padded_shapes, padding_values,
                                  drop_remainder)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None):
        """Elements in a random order, drawn from a buffer of `buffer_size` elements."""
        return ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None):
        """The dataset `count` times over (forever when count is None or -1)."""
        return _Counted(self, "RepeatDataset", count)

    def take(self, count):
        """The first `count` elements (all of them when count is -1)."""
        return _Counted(self, "TakeDataset", count)

    def skip(self, count):
        """All but the first `count` elements (none when count is -1)."""
        return _Counted(self, "SkipDataset", count)

    def prefetch(self, buffer_size):
        """Accepted for TF programs; the sandbox prefetches nothing (see
        ops/dataset_pipeline.py)."""
        return _Counted(self, "PrefetchDataset", buffer_size, key="buffer_size")

    def cache(self, filename=""):
        """Accepted for TF programs; the sandbox recomputes every epoch (same elements)."""
        return self

    def concatenate(self, dataset):
        """This dataset's elements, then `dataset`'s (same types and structure)."""
        return ConcatenateDataset(self, dataset)

    def apply(self, transformation_func):
        return transformation_func(self)

    def shard(self, num_shards, index):
        """Every num_shards-th element, from the one at `index`: how each worker of a cluster
        reads its own share of the data -- dataset.shard(num_workers, task_index) -- before
        shuffling, so the shares never overlap."""
        return _ShardDataset(self, num_shards, index)

    def unbatch(self):
        """Each element split along its first dimension into rows (the inverse of batch)."""
        return _UnbatchDataset(self)

    def enumerate(self, start=0):
        """(index, element) pairs, the index an int64 counting from `start`."""
        return DatasetV1.zip((DatasetV1.range(start, np.iinfo(np.int64).max), self))

    def reduce(self, initial_state, reduce_func):
        """The dataset folded into one value: state = reduce_func(state, element) for every
        element, from `initial_state`; the result has initial_state's structure. It runs the
        dataset to its end in one sess.run (TF's ReduceDataset)."""
        return _reduce(self, initial_state, reduce_func)

    def map_with_legacy_function(self, map_func, num_parallel_calls=None):
        """TF 1.15's map traced the old way (Defun); the sandbox traces one way: as map."""
        return self.map(map_func, num_parallel_calls)

    def filter_with_legacy_function(self, predicate):
        """TF 1.15's filter traced the old way (Defun); the sandbox traces one way: as filter."""
        return self.filter(predicate)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None):
        """The names of the files matching `file_pattern` (a glob, or a list of them), in a
        random order unless shuffle=False (then sorted). Running it when nothing matches is
        an InvalidArgumentError naming the pattern."""
        from ..ops import control_flow_ops, file_io_ops, logging_ops
        from ..ops.array_ops import shape as _shape
        from ..ops.basic_math_ops import maximum
        from ..ops.comparison_ops import greater
        from ..framework.graph import control_dependencies, name_scope
        with name_scope("file_list"):
            pattern = convert_to_tensor(file_pattern, dtype=_dtypes.string, name="file_pattern")
            matching = file_io_ops.matching_files(pattern)
            count = _shape(matching, out_type=_dtypes.int64)[0]
            message = ["No files matched pattern: ", pattern]
            with control_dependencies([logging_ops.Assert(
                    greater(count, 0), message, summarize=1, name="assert_not_empty")]):
                matching = control_flow_ops.identity(matching)
            buffer_size = maximum(_shape(matching, out_type=_dtypes.int64)[0], 1)
        dataset = DatasetV1.from_tensor_slices(matching)
        if shuffle is None or shuffle:
            dataset = dataset.shuffle(buffer_size, seed=seed)
        return dataset

    # -- options ----------------------------------------------------------------------------
    def options(self):
        """The tf.data.Options of this pipeline: its inputs' options, merged."""
        options = Options()
        for dataset in self._inputs:
            options = options.merge(dataset.options())
        return options

    def with_options(self, options):
        """This dataset with `options` merged into its pipeline's (a ValueError if the two set
        one option to different values, as in TF 1.15)."""
        return _OptionsDataset(self, options)

    # -- iterators --------------------------------------------------------------------------
    def make_one_shot_iterator(self):
        """An iterator that needs no initializer (see tf.data.make_one_shot_iterator)."""
        return make_one_shot_iterator(self)

    def make_initializable_iterator(self, shared_name=None):
        """An iterator to start with `sess.run(iterator.initializer)` (again to restart)."""
        return make_initializable_iterator(self, shared_name)


Dataset = DatasetV1


def _text(structure):
    if isinstance(structure, TensorShape):
        return "(" + ", ".join("?" if d is None else str(d) for d in structure.as_list()) + \
            ("," if structure.ndims == 1 else "") + ")" if structure.ndims is not None else "?"
    if isinstance(structure, dict):
        return "{" + ", ".join(f"{k}: {_text(v)}" for k, v in sorted(structure.items())) + "}"
    if isinstance(structure, tuple):
        return "(" + ", ".join(_text(v) for v in structure) + ")"
    return f"tf.{structure.name}" if hasattr(structure, "name") else str(structure)


def get_output_types(dataset_or_iterator):
    return dataset_or_iterator.output_types


def get_output_shapes(dataset_or_iterator):
    return dataset_or_iterator.output_shapes


def get_output_classes(dataset_or_iterator):
    return dataset_or_iterator.output_classes


# -- sources --------------------------------------------------------------------------------

class TensorSliceDataset(DatasetV1):
    def __init__(self, tensors):
        element = _normalize(tensors, "Dataset.from_tensor_slices")
        self._components = nest.flatten(element)
        first = None
        for t in self._components:
            shape = t.get_shape()
            if shape.ndims == 0:
                raise ValueError(f"Dataset.from_tensor_slices needs tensors of rank >= 1 to "
                                 f"slice; {t.name!r} is a scalar.")
            if shape.ndims is not None:
                dim = shape.as_list()[0]
                if first is not None and dim is not None and dim != first:
                    raise ValueError(f"Dimensions {first} and {dim} are not compatible: all "
                                     "components of Dataset.from_tensor_slices must have the "
                                     "same size in dimension 0.")
                first = dim if first is None else first
        super().__init__(nest.map_structure(
            lambda t: _Spec(t.dtype.base_dtype, t.get_shape()[1:] if t.get_shape().ndims
                            is not None else None), element))

    def _plan(self, tensors):
        return {"op": "TensorSliceDataset", "inputs": [tensors(t) for t in self._components]}


class TensorDataset(DatasetV1):
    def __init__(self, tensors):
        element = _normalize(tensors, "Dataset.from_tensors")
        self._components = nest.flatten(element)
        super().__init__(nest.map_structure(
            lambda t: _Spec(t.dtype.base_dtype, t.get_shape()), element))

    def _plan(self, tensors):
        return {"op": "TensorDataset", "inputs": [tensors(t) for t in self._components]}


class RangeDataset(DatasetV1):
    def __init__(self, *args):
        if len(args) == 1:
            start, stop, step = 0, args[0], 1
        elif len(args) == 2:
            (start, stop), step = args, 1
        elif len(args) == 3:
            start, stop, step = args
        else:
            raise ValueError(f"Dataset.range takes 1 to 3 arguments, got {len(args)}.")
        self._args = {"start": _int64(start, "start"), "stop": _int64(stop, "stop"),
                      "step": _int64(step, "step")}
        super().__init__(_Spec(_dtypes.int64, []))

    def _plan(self, tensors):
        return {"op": "RangeDataset", **{k: tensors(t) for k, t in self._args.items()}}


def _flat_up_to(structure, value, what):
    """`value` flattened as deep as `structure` goes (its leaves may be lists or tuples)."""
    if not nest.is_sequence(structure):
        return [value]
    if isinstance(structure, dict):
        if not isinstance(value, dict) or sorted(value) != sorted(structure):
            raise TypeError(f"{what}: expected a dict with keys {sorted(structure)}, got "
                            f"{value!r}.")
        return [x for k in sorted(structure) for x in _flat_up_to(structure[k], value[k],
                                                                    what)]
    if not isinstance(value, (tuple, list)) or len(value) != len(structure):
        raise TypeError(f"{what}: expected a sequence of {len(structure)} components, got "
                        f"{value!r}.")
    return [x for s, v in zip(structure, value) for x in _flat_up_to(s, v, what)]


_generator_tokens = itertools.count(1)
_encode = np.frompyfunc(lambda x: x.encode() if isinstance(x, str) else bytes(x), 1, 1)


def _as_array(value, dtype):
    """A value a generator yielded, as an array of `dtype` (str becomes bytes, as in TF)."""
    if dtype == _dtypes.string:
        return np.asarray(_encode(np.asarray(value, dtype=object)), dtype=object)
    return np.asarray(value, dtype=dtype.as_numpy_dtype)


class GeneratorDataset(DatasetV1):
    def __init__(self, generator, output_types, output_shapes, args):
        if not callable(generator):
            raise TypeError("`generator` must be callable.")
        types = nest.map_structure(_dtypes.as_dtype, output_types)
        flat_types = nest.flatten(types)
        flat_shapes = [TensorShape(None)] * len(flat_types) if output_shapes is None else \
            [TensorShape(s) for s in _flat_up_to(types, output_shapes, "output_shapes")]
        self._args = [convert_to_tensor(a) for a in (args or ())]
        self._token = next(_generator_tokens)
        what = "`generator` of Dataset.from_generator"

        def make(arg_values, node):
            for element in generator(*arg_values):
                flat = _flat_up_to(types, element, f"{what} yielded {element!r}, which")
                values = []
                for v, dtype, shape in zip(flat, flat_types, flat_shapes):
                    try:
                        v = _as_array(v, dtype)
                    except (TypeError, ValueError) as e:
                        raise errors.InvalidArgumentError(
                            node, None, f"{what} yielded an element that could not be "
                            f"converted to the expected type {dtype.name}: {e}") from None
                    if not shape.is_compatible_with(v.shape):
                        raise errors.InvalidArgumentError(
                            node, None, f"{what} yielded an element of shape "
                            f"{list(v.shape)} where an element of shape {shape} was "
                            "expected.")
                    values.append(v)
                yield tuple(values)

        GENERATORS[self._token] = make
        leaves = iter(zip(flat_types, flat_shapes))
        super().__init__(nest.map_structure(lambda _: _Spec(*next(leaves)), types))

    def _plan(self, tensors):
        return {"op": "GeneratorDataset", "token": self._token,
                "args": [tensors(t) for t in self._args]}


class ZipDataset(DatasetV1):
    def __init__(self, datasets):
        self._datasets = datasets
        flat = nest.flatten(datasets)
        for d in flat:
            if not isinstance(d, DatasetV1):
                raise TypeError(f"Dataset.zip takes a (nested) tuple or dict of datasets, got "
                                f"{type(d).__name__}.")
        super().__init__(nest.map_structure(lambda d: d._structure, datasets), flat)

    def _plan(self, tensors):
        return {"op": "ZipDataset", "inputs": [d._plan(tensors) for d in self._inputs]}


# -- transformations -------------------------------------------------------------------------

class _Unary(DatasetV1):
    def __init__(self, input_dataset, structure=None):
        super().__init__(input_dataset._structure if structure is None else structure,
                         [input_dataset])

    @property
    def _input(self):
        return self._inputs[0]


def _trace(dataset, fn, what):
    """Traces `fn` on one element of `dataset`: (function, captured tensors, result
    structure of _Spec)."""
    structure = dataset._structure

    def call(placeholders):
        value = nest.pack_sequence_as(structure, placeholders)
        result = fn(*value) if type(value) is tuple else fn(value)
        if isinstance(result, list):
            warnings.warn(f"{what} returned a list; it is converted to a tuple (as TF 1.15 "
                          "does). Return a tuple, or tf.stack the list into one tensor.")
            result = tuple(result)
        result = _normalize(result, what)
        return nest.flatten(result), result

    specs = [(s.dtype, s.shape) for s in dataset._flat_specs()]
    function, captures, out_specs, result = trace_function(call, specs, what)
    leaves = iter(out_specs)
    out_structure = nest.map_structure(lambda _: _Spec(*next(leaves)), result)
    return function, captures, out_structure


class MapDataset(_Unary):
    def __init__(self, input_dataset, map_func):
        self._fn, self._captures, structure = _trace(input_dataset, map_func,
                                                     "the function of Dataset.map")
        super().__init__(input_dataset, structure)

    def _plan(self, tensors):
        return {"op": "MapDataset", "input": self._input._plan(tensors), "fn": self._fn,
                "captures": [tensors(t) for t in self._captures],
                "output_types": [s.dtype for s in self._flat_specs()]}


def _trace_dataset_function(dataset, fn, what):
    """Traces `fn` -- which returns a Dataset -- on one element of `dataset`: (function,
    captured tensors, the returned dataset's plan, its structure). The function's outputs
    are the tensors the returned dataset reads, in the order its plan numbers them."""
    structure = dataset._structure

    def call(placeholders):
        value = nest.pack_sequence_as(structure, placeholders)
        result = fn(*value) if type(value) is tuple else fn(value)
        if not isinstance(result, DatasetV1):
            raise TypeError(f"The `map_func` argument of {what} must return a `Dataset` "
                            f"object. Got {type(result)!r}.")
        tensors = _Tensors()
        plan = result._plan(tensors)
        return tensors.tensors, (plan, result._structure)

    specs = [(s.dtype, s.shape) for s in dataset._flat_specs()]
    function, captures, _, (plan, out_structure) = trace_function(call, specs, what)
    return function, captures, plan, out_structure


class FlatMapDataset(_Unary):
    def __init__(self, input_dataset, map_func):
        self._fn, self._captures, self._dataset_plan, structure = _trace_dataset_function(
            input_dataset, map_func, "Dataset.flat_map")
        super().__init__(input_dataset, structure)

    def _plan(self, tensors):
        return {"op": "FlatMapDataset", "input": self._input._plan(tensors), "fn": self._fn,
                "captures": [tensors(t) for t in self._captures],
                "dataset": self._dataset_plan}


class InterleaveDataset(_Unary):
    def __init__(self, input_dataset, map_func, cycle_length, block_length):
        self._fn, self._captures, self._dataset_plan, structure = _trace_dataset_function(
            input_dataset, map_func, "Dataset.interleave")
        self._cycle_length = _int64(-1 if cycle_length is None else cycle_length,
                                    "cycle_length")
        self._block_length = _int64(1 if block_length is None else block_length,
                                    "block_length")
        super().__init__(input_dataset, structure)

    def _plan(self, tensors):
        return {"op": "InterleaveDataset", "input": self._input._plan(tensors), "fn": self._fn,
                "captures": [tensors(t) for t in self._captures],
                "dataset": self._dataset_plan, "cycle_length": tensors(self._cycle_length),
                "block_length": tensors(self._block_length)}


class FilterDataset(_Unary):
    def __init__(self, input_dataset, predicate):
        self._fn, self._captures, structure = _trace(input_dataset, predicate,
                                                     "the predicate of Dataset.filter")
        specs = nest.flatten(structure)
        if len(specs) != 1 or specs[0].dtype != _dtypes.bool or \
                not specs[0].shape.is_compatible_with([]):
            raise ValueError("The predicate of Dataset.filter must return a scalar tf.bool "
                             f"tensor, got {[(s.dtype.name, str(s.shape)) for s in specs]}.")
        super().__init__(input_dataset)

    def _plan(self, tensors):
        return {"op": "FilterDataset", "input": self._input._plan(tensors), "fn": self._fn,
                "captures": [tensors(t) for t in self._captures]}


class BatchDataset(_Unary):
    def __init__(self, input_dataset, batch_size, drop_remainder):
        self._batch_size = _int64(batch_size, "batch_size")
        self._drop = convert_to_tensor(drop_remainder, dtype=_dtypes.bool,
                                       name="drop_remainder")
        known = None
        if self._batch_size.op.type == "Const" and self._drop.op.type == "Const" and \
                bool(self._drop.op.get_attr("value")):
            known = int(self._batch_size.op.get_attr("value"))
        super().__init__(input_dataset, nest.map_structure(
            lambda s: _Spec(s.dtype, TensorShape([known]).concatenate(s.shape)),
            input_dataset._structure))

    def _plan(self, tensors):
        return {"op": "BatchDatasetV2", "input": self._input._plan(tensors),
                "batch_size": tensors(self._batch_size),
                "drop_remainder": tensors(self._drop)}


class PaddedBatchDataset(_Unary):
    def __init__(self, input_dataset, batch_size, padded_shapes, padding_values,
                 drop_remainder):
        specs = input_dataset._flat_specs()
        shapes = [TensorShape(s) for s in _flat_up_to(input_dataset._structure, padded_shapes,
                                                      "padded_shapes")]
        if padding_values is None:
            values = [b"" if s.dtype == _dtypes.string else 0 for s in specs]
        else:
            values = _flat_up_to(input_dataset._structure, padding_values, "padding_values")
        for spec, shape in zip(specs, shapes):
            if shape.ndims is None or (spec.shape.ndims is not None and
                                       spec.shape.ndims != shape.ndims) or \
                    any(p is not None and d is not None and p < d for p, d in zip(
                        shape.as_list(), spec.shape.as_list() if spec.shape.ndims else [])):
                raise ValueError(f"The padded shape {shape} is not compatible with the "
                                 f"corresponding input component shape {spec.shape}.")
        self._batch_size = _int64(batch_size, "batch_size")
        self._drop = convert_to_tensor(drop_remainder, dtype=_dtypes.bool,
                                       name="drop_remainder")
        self._padded_shapes = [_int64([-1 if d is None else d for d in s.as_list()],
                                      "padded_shapes") for s in shapes]
        self._padding_values = [convert_to_tensor(v, dtype=s.dtype, name="padding_value")
                                for v, s in zip(values, specs)]
        known = None
        if bool(drop_remainder) is True and isinstance(batch_size, int):
            known = batch_size
        super().__init__(input_dataset, nest.pack_sequence_as(input_dataset._structure, [
            _Spec(spec.dtype, TensorShape([known]).concatenate(shape))
            for spec, shape in zip(specs, shapes)]))

    def _plan(self, tensors):
        return {"op": "PaddedBatchDatasetV2", "input": self._input._plan(tensors),
                "batch_size": tensors(self._batch_size),
                "drop_remainder": tensors(self._drop),
                "padded_shapes": [tensors(t) for t in self._padded_shapes],
                "padding_values": [tensors(t) for t in self._padding_values]}


class ShuffleDataset(_Unary):
    def __init__(self, input_dataset, buffer_size, seed, reshuffle_each_iteration):
        self._buffer_size = _int64(buffer_size, "buffer_size")
        seed, seed2 = get_seed(seed)
        self._seed = _int64(0 if seed is None else seed, "seed")
        self._seed2 = _int64(0 if seed2 is None else seed2, "seed2")
        self._reshuffle = True if reshuffle_each_iteration is None \
            else bool(reshuffle_each_iteration)
        super().__init__(input_dataset)

    def _plan(self, tensors):
        return {"op": "ShuffleDataset", "input": self._input._plan(tensors),
                "buffer_size": tensors(self._buffer_size), "seed": tensors(self._seed),
                "seed2": tensors(self._seed2),
                "reshuffle_each_iteration": self._reshuffle}


class _Counted(_Unary):
    """repeat, take, skip, prefetch: an input and one int64 argument."""

    def __init__(self, input_dataset, op, count, key="count"):
        self._op, self._key = op, key
        self._repr_name = op
        self._count = _int64(-1 if count is None else count, key)
        super().__init__(input_dataset)

    def _plan(self, tensors):
        return {"op": self._op, "input": self._input._plan(tensors),
                self._key: tensors(self._count)}


class _ShardDataset(_Unary):
    def __init__(self, input_dataset, num_shards, index):
        self._num_shards = _int64(num_shards, "num_shards")
        self._index = _int64(index, "index")
        super().__init__(input_dataset)

    def _plan(self, tensors):
        return {"op": "ShardDataset", "input": self._input._plan(tensors),
                "num_shards": tensors(self._num_shards), "index": tensors(self._index)}


class _UnbatchDataset(_Unary):
    def __init__(self, input_dataset):
        specs = input_dataset._flat_specs()
        if any(s.shape.ndims == 0 for s in specs):
            raise ValueError("Cannot unbatch an input with scalar components.")
        super().__init__(input_dataset, nest.pack_sequence_as(input_dataset._structure, [
            _Spec(s.dtype, TensorShape(None) if s.shape.ndims is None else s.shape[1:])
            for s in specs]))

    def _plan(self, tensors):
        return {"op": "UnbatchDataset", "input": self._input._plan(tensors)}


def _reduce(dataset, initial_state, reduce_func):
    """Builds Dataset.reduce's ReduceDataset op (ops/dataset_ops.py)."""
    from ..framework.graph import get_default_graph, name_scope
    from ..framework.op_def import apply_op
    state = _normalize(initial_state, "Dataset.reduce's initial_state")
    flat_state = nest.flatten(state)
    element = dataset._structure

    def call(placeholders):
        old = nest.pack_sequence_as(state, placeholders[:len(flat_state)])
        new = reduce_func(old, nest.pack_sequence_as(element, placeholders[len(flat_state):]))
        new = _normalize(new, "Dataset.reduce's reduce_func")
        try:
            nest.assert_same_structure(state, new)
        except (TypeError, ValueError) as e:
            raise TypeError(f"The structure of the new state of Dataset.reduce's reduce_func "
                            f"must match its initial_state: {e}") from None
        flat_new = nest.flatten(new)
        for old_t, new_t in zip(flat_state, flat_new):
            if old_t.dtype.base_dtype != new_t.dtype.base_dtype:
                raise TypeError(f"The element types for the new state must match the initial "
                                f"state. Expected {[t.dtype for t in flat_state]}; got "
                                f"{[t.dtype for t in flat_new]}.")
        return flat_new, None

    specs = [(t.dtype, t.shape) for t in flat_state] + [
        (s.dtype, s.shape) for s in dataset._flat_specs()]
    function, captures, out_specs, _ = trace_function(call, specs, "Dataset.reduce")
    plan, tensors = dataset._plan_and_tensors()
    with name_scope("ReduceDataset") as scope:
        outputs = apply_op(
            "ReduceDataset", list(tensors) + flat_state + list(captures),
            {"dataset": plan, "f": function, "n_data": len(tensors),
             "n_state": len(flat_state), "output_types": [t.dtype for t in flat_state],
             "output_shapes": [most_specific_compatible_shape(t.shape, shape)
                               for t, (_, shape) in zip(flat_state, out_specs)]},
            name=scope, output_dtypes=[t.dtype for t in flat_state],
            graph=get_default_graph())
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    return nest.pack_sequence_as(state, list(outputs))


class ConcatenateDataset(DatasetV1):
    def __init__(self, input_dataset, dataset_to_concatenate):
        a, b = input_dataset, dataset_to_concatenate
        if a.output_types != b.output_types:
            raise TypeError(f"Dataset.concatenate: the datasets have different types "
                            f"{a.output_types} and {b.output_types}.")
        super().__init__(nest.pack_sequence_as(a._structure, [
            _Spec(x.dtype, most_specific_compatible_shape(x.shape, y.shape))
            for x, y in zip(a._flat_specs(), b._flat_specs())]), [a, b])

    def _plan(self, tensors):
        return {"op": "ConcatenateDataset", "input": self._inputs[0]._plan(tensors),
                "other": self._inputs[1]._plan(tensors)}


class _OptionsDataset(_Unary):
    """The input dataset with options attached; its elements are the input's."""

    def __init__(self, input_dataset, options):
        self._options = input_dataset.options().merge(options)
        super().__init__(input_dataset)

    def options(self):
        return self._options

    def _plan(self, tensors):
        return self._input._plan(tensors)


# -- the type specification of a dataset -----------------------------------------------------

class DatasetSpec(TypeSpec):
    """tf.data.DatasetSpec: describes a dataset by the spec of its elements (and the shape of
    a batch of datasets: () for one)."""

    def __init__(self, element_spec, dataset_shape=()):
        self._element_spec = element_spec
        self._dataset_shape = TensorShape(dataset_shape)

    @staticmethod
    def from_value(value):
        return DatasetSpec(value.element_spec)

    element_spec = property(lambda self: self._element_spec)
    value_type = property(lambda self: Dataset)

    def _serialize(self):
        return (self._element_spec, self._dataset_shape)

