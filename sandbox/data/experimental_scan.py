"""`tf.data.experimental.scan` and `Counter` -- mirrors TF 1.15's
python/data/experimental/ops/scan_ops.py and counter.py.

    running_sum = dataset.apply(tf.data.experimental.scan(
        tf.constant(0, tf.int64), lambda total, x: (total + x, total + x)))
    steps = tf.data.experimental.Counter(start=1)            # 1, 2, 3, ... (int64)

scan carries a state through the dataset: `scan_func(state, element)` returns the pair
(new state, output element); the state starts at `initial_state` on every pass over the
dataset (TF's ScanDataset, ops/dataset_pipeline.py). The new state must have the initial
state's structure and dtypes; where its shape differs (a state that grows), the function is
traced again with the shapes relaxed, as TF does, so the state may change shape from one
element to the next. Counter is TF's own composition: a scan over an endless dataset.
"""
from ..framework import dtypes as _dtypes
from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor
from . import nest
from .dataset_ops import DatasetV1, _normalize, _Unary
from .nest import Spec
from .structured_function import describe, function_plan, trace_with_state

__all__ = ["scan", "Counter"]


def _pair(result):
    if type(result) is not tuple or len(result) != 2:
        raise TypeError("Invalid `scan_func`. `scan_func` should return a pair consisting of "
                        "new state and the output value but its return type is "
                        f"{describe(result)}.")
    return result[0]


def _type_error(old, new):
    return ("Invalid `scan_func`. The element types for the new state must match the initial "
            f"state. Expected {old}, got {new}.")


class _ScanDataset(_Unary):
    def __init__(self, input_dataset, initial_state, scan_func):
        state = _normalize(initial_state, "tf.data.experimental.scan's initial_state")
        self._initial_state = nest.flatten(state)
        state_structure = nest.map_structure(
            lambda t: Spec(t.dtype.base_dtype, t.get_shape()), state)
        self._fn, self._captures, state_structure, (_, output) = trace_with_state(
            scan_func, state_structure, input_dataset._structure,
            "the scan_func of tf.data.experimental.scan", _type_error, _pair)
        self._state_types = [s.dtype for s in nest.flatten(state_structure)]
        super().__init__(input_dataset, output)

    def _plan(self, tensors):
        return {"op": "ScanDataset", "input": self._input._plan(tensors),
                **function_plan(self._fn, self._captures, tensors),
                "initial_state": [tensors(t) for t in self._initial_state],
                "state_types": self._state_types,
                "output_types": [s.dtype for s in self._flat_specs()]}


def scan(initial_state, scan_func):
    """A transformation (for dataset.apply) that carries a state through the dataset:
    `(state, output) = scan_func(state, element)` for each element, from `initial_state`."""

    def _apply_fn(dataset):
        return _ScanDataset(dataset, initial_state, scan_func)

    return _apply_fn


def Counter(start=0, step=1, dtype=_dtypes.int64):   # noqa: N802 -- TF's name
    """An endless dataset of the numbers start, start + step, start + 2 * step ... (scalars
    of `dtype`)."""
    with name_scope("counter"):
        start = convert_to_tensor(start, dtype=dtype, name="start")
        step = convert_to_tensor(step, dtype=dtype, name="step")
        return DatasetV1.from_tensors(0).repeat(None).apply(
            scan(start, lambda state, _: (state + step, state)))
