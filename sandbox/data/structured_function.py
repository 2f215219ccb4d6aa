"""The functions of tf.data.experimental's transformations -- mirrors TF 1.15's
StructuredFunctionWrapper (python/data/ops/dataset_ops.py), which traces a Python function on
placeholders standing for a given *input structure*.

Dataset.map traces its function on one element (data/dataset_ops.py); the experimental
transformations trace theirs on other structures too: scan_func on (state, element),
group_by_reducer's init_func on a key, reduce_func on (key, window dataset) ... As in TF, a
tuple structure is passed as separate arguments (`fn(state, element)`, `fn(*element)`), any
other as one, and the function's result may be a tensor, a tuple or a dict of them.

    function, captures, structure = trace(fn, (state_structure, element_structure), what)

`function` is plain data (ops/dataset_function.py), `captures` the outer tensors it reads --
each becomes an input of the iterator's op -- and `structure` describes its result (nested
Specs, as a dataset's elements are). The plan of a transformation keeps a function as
`{"fn": function, "captures": [the captures' indices among the iterator's inputs]}`.
"""
import warnings

from ..framework import dtypes as _dtypes
from ..framework.tensor_shape import TensorShape
from ..framework.type_spec import TensorSpec, most_specific_compatible_shape
from ..ops.dataset_function import trace_function
from . import nest
from .dataset_ops import DatasetV1, _normalize, _Tensors
from .nest import Spec

__all__ = ["trace", "trace_with_state", "trace_dataset_function", "function_plan", "spec",
           "check_scalar", "same_nesting", "describe"]


def spec(dtype, shape=()):
    """The Spec of one component."""
    return Spec(_dtypes.as_dtype(dtype), TensorShape(shape))


def _call(fn, structure, placeholders):
    value = nest.pack_sequence_as(structure, placeholders)
    return fn(*value) if type(value) is tuple else fn(value)


def trace(fn, structure, what):
    """Traces `fn` on `structure`: (function, captured tensors, structure of its result)."""

    def call(placeholders):
        result = _call(fn, structure, placeholders)
        if isinstance(result, list):
            warnings.warn(f"{what} returned a list; it is converted to a tuple (as TF 1.15 "
                          "does). Return a tuple, or tf.stack the list into one tensor.")
            result = tuple(result)
        result = _normalize(result, what)
        return nest.flatten(result), result

    specs = [(s.dtype, s.shape) for s in nest.flatten(structure)]
    function, captures, out_specs, result = trace_function(call, specs, what)
    leaves = iter(out_specs)
    return function, captures, nest.map_structure(lambda _: Spec(*next(leaves)), result)


def trace_with_state(fn, state, element, what, type_error, new_state_of=lambda result: result):
    """Traces fn(state, element), whose result holds a new state (`new_state_of(result)`):
    (function, captures, state structure, result structure). The new state must have the
    state's nesting and dtypes (else TypeError(type_error(old types, new types))); where its
    shapes differ, `fn` is traced again with the state's shapes relaxed to fit both, as TF
    does."""
    while True:
        function, captures, result = trace(fn, (state, element), what)
        new = new_state_of(result)
        old_specs, new_specs = nest.flatten(state), nest.flatten(new)
        if not same_nesting(state, new) or \
                [s.dtype for s in old_specs] != [s.dtype for s in new_specs]:
            raise TypeError(type_error(_types(state), _types(new)))
        relaxed = [most_specific_compatible_shape(a.shape, b.shape)
                   for a, b in zip(old_specs, new_specs)]
        if all(a.shape.ndims is None or (r.ndims is not None and
                                         a.shape.as_list() == r.as_list())
               for a, r in zip(old_specs, relaxed)):
            return function, captures, state, result
        shapes = iter(relaxed)
        state = nest.map_structure(lambda s: Spec(s.dtype, next(shapes)), state)


def _types(structure):
    return nest.map_structure(lambda s: s.dtype, structure)


def same_nesting(a, b):
    """Whether two structures nest alike (tuples, dicts and their keys)."""
    try:
        nest.assert_same_structure(a, b)
        return True
    except (TypeError, ValueError):
        return False


def trace_dataset_function(fn, structure, what, argument, extra_args=()):
    """Traces `fn` -- which returns a Dataset -- on `structure` (and `extra_args`, Python
    values passed after the placeholders, e.g. a window dataset): (function, captures, the
    returned dataset's plan, its element structure). The function's outputs are the tensors
    the returned dataset reads, in the order its plan numbers them."""

    def call(placeholders):
        value = nest.pack_sequence_as(structure, placeholders)
        args = (value if type(value) is tuple else (value,)) + tuple(extra_args)
        result = fn(*args)
        if not isinstance(result, DatasetV1):
            raise TypeError(f"Invalid `{argument}`. `{argument}` must return a single "
                            "`tf.data.Dataset` object but its return type is "
                            f"{describe(_normalize(result, what))}.")
        tensors = _Tensors()
        plan = result._plan(tensors)
        return tensors.tensors, (plan, result._structure)

    specs = [(s.dtype, s.shape) for s in nest.flatten(structure)]
    function, captures, _, (plan, out_structure) = trace_function(call, specs, what)
    return function, captures, plan, out_structure


def function_plan(function, captures, tensors, **extra):
    """A traced function as a plan keeps it: {"fn", "captures" (input indices), ...}."""
    return {"fn": function, "captures": [tensors(t) for t in captures], **extra}


def describe(structure):
    """A structure of Specs (or tensors) as TF shows it: TensorSpec(shape=(), ...)."""
    return nest.map_structure(
        lambda s: TensorSpec(s.shape if isinstance(s, Spec) else s.get_shape(), s.dtype),
        structure)


def check_scalar(structure, dtype, argument, message=None):
    """ValueError unless `structure` is one scalar of `dtype`, with TF's message
    ("Invalid `key_func`. `key_func` must return a single `tf.int64` scalar tensor ...")."""
    leaves = nest.flatten(structure)
    if nest.is_sequence(structure) or len(leaves) != 1 or leaves[0].dtype != dtype or \
            not leaves[0].shape.is_compatible_with([]):
        raise ValueError(message or (
            f"Invalid `{argument}`. `{argument}` must return a single `tf.{dtype.name}` scalar "
            f"tensor but its return type is {describe(structure)}."))
