"""tf.TensorArray -- mirrors TensorFlow 1.15's python/ops/tensor_array_ops.py (_GraphTensorArray)
and its kernels, core/kernels/tensor_array_ops.cc (TensorArrayV3, TensorArrayWriteV3, ...).

What TensorFlow 1.15 does: a TensorArray is a *resource* (a vector of tensors living in the
step's resource manager) reached through a `handle`, plus a scalar float `flow` tensor that
does nothing but order the ops: write(i, v) changes the resource and returns a TensorArray
with a new flow; read(i) waits for the flow it is given. Gradients use a second resource, the
"grad" TensorArray, found by name from the forward one.

What the sandbox does: the flow's *value* is the array. A TensorArray is still a Python object
around a float32 scalar `flow` tensor, but at run time that tensor holds an immutable
`TensorArrayValue` (a tuple of per-index arrays, None where nothing was written yet) -- so
write / scatter / split make a NEW value and return a TensorArray around it, and read / gather
/ concat / size read the value they are given. That makes a TensorArray an ordinary value:
it is a loop variable of tf.while_loop and a result of tf.cond like any tensor (both pass a
TensorArray as its flow, as TF's control flow does, and rebuild it on the other side). What TF
keeps in the resource and checks across all flows of one array -- which indices were written,
which were cleared by a read (clear_after_read), the element shape learned from the first
write -- lives in a small state object that every value of one array shares, created afresh
by each run of its TensorArrayV3 op; so TF's errors come with TF's messages.

Gradients flow through the flow, as TF's flows carry the grad TensorArray: the gradient of a
flow is a `TensorArrayGradValue` (index -> gradient of that element; missing = zeros) that
AddN adds like any gradient. write/scatter/split pass the gradient on for the other indices
and hand their value the gradient of its indices; read/gather/stack/concat turn the gradient
of their result into one for the indices they read. It works inside tf.while_loop too
(WhileGrad runs the body's gradient ops on these values).
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape

__all__ = ["TensorArray"]


# -- run-time values ------------------------------------------------------------------------

class _ArrayState:
    """What TF's resource knows of one array in one run, shared by all its values."""
    __slots__ = ("name", "dtype", "element_shape", "dynamic_size", "clear_after_read",
                 "identical_shapes", "written", "cleared")

    def __init__(self, name, dtype, element_shape, dynamic_size, clear_after_read,
                 identical_shapes):
        self.name = name
        self.dtype = dtype                         # a NumPy dtype
        self.element_shape = element_shape         # tuple with None, or None (unknown rank)
        self.dynamic_size = dynamic_size
        self.clear_after_read = clear_after_read
        self.identical_shapes = identical_shapes   # infer_shape: all elements one shape
        self.written = set()
        self.cleared = set()


class TensorArrayValue:
    """The run-time value of a TensorArray's flow: its elements (None = not written)."""
    __slots__ = ("elements", "state")
    __array_ufunc__ = None                # NumPy leaves `+` with it to us (never elementwise)

    def __init__(self, elements, state):
        self.elements = tuple(elements)
        self.state = state

    def __repr__(self):
        return (f"<TensorArray {self.state.name!r} size={len(self.elements)}, written: "
                f"{[i for i, e in enumerate(self.elements) if e is not None]}>")


class TensorArrayGradValue:
    """The gradient of a flow: {index: gradient of that element}; an index not in it (or any
    other value, e.g. the 0.0 zeros_like makes of a flow) means zeros."""
    __slots__ = ("grads",)
    __array_ufunc__ = None

    def __init__(self, grads=None):
        self.grads = dict(grads or {})

    def __add__(self, other):
        if not isinstance(other, TensorArrayGradValue):
            return self
        out = dict(self.grads)
        for i, g in other.grads.items():
            out[i] = out[i] + g if i in out else g
        return TensorArrayGradValue(out)

    __radd__ = __add__

    def __repr__(self):
        return f"<TensorArray gradient, indices {sorted(self.grads)}>"


def _grad_value(g):
    return g if isinstance(g, TensorArrayGradValue) else TensorArrayGradValue()


_TF_DTYPE_NAMES = {"float32": "float", "float64": "double"}


def _dtype_text(np_dtype):
    name = _dtypes.as_dtype(np_dtype).name
    return _TF_DTYPE_NAMES.get(name, name)


def _shape_text(shape):
    return "<unknown>" if shape is None else \
        "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _fail(state, message):
    raise errors.InvalidArgumentError(None, None, f"TensorArray {state.name}: {message}")


def _array_of(flow):
    if not isinstance(flow, TensorArrayValue):
        raise errors.InvalidArgumentError(None, None, "The flow of a TensorArray is not a "
                                          "TensorArray value (was it fed, or made by another "
                                          "op?).")
    return flow


def _check_index(value, index, what):
    state = value.state
    if index < 0 or (index >= len(value.elements) and not state.dynamic_size):
        _fail(state, f"Tried to {what} index {index} but array is not resizeable and size "
                     f"is: {len(value.elements)}")


def _written(value, pairs):
    """A new value: `value` with elements[i] = v for (i, v) in pairs (TF's checks on each)."""
    state = value.state
    elements = list(value.elements)
    for index, v in pairs:
        _check_index(value, index, "write to")
        v = np.asarray(v)
        if v.dtype != state.dtype:
            _fail(state, f"TensorArray dtype is {_dtype_text(state.dtype)} but Op is trying to "
                         f"write dtype {_dtype_text(v.dtype)} (index {index}).")
        if index in state.cleared:
            _fail(state, f"Could not write to TensorArray index {index} because it has "
                         "already been read.")
        if index in state.written:
            _fail(state, f"Could not write to TensorArray index {index} because it has "
                         "already been written to.")
        if state.identical_shapes:
            known = state.element_shape
            if known is not None and not TensorShape(list(known)).is_compatible_with(v.shape):
                _fail(state, f"Could not write to TensorArray index {index} because the value "
                             f"shape is {_shape_text(v.shape)} which is incompatible with the "
                             "TensorArray's inferred element shape: "
                             f"{_shape_text(known)} (consider setting infer_shape=False).")
            state.element_shape = tuple(v.shape)
        if index >= len(elements):
            elements.extend([None] * (index + 1 - len(elements)))
        elements[index] = v
        state.written.add(index)
    return TensorArrayValue(elements, state)


def _read(value, index):
    state = value.state
    if index < 0 or index >= len(value.elements):
        _fail(state, f"Tried to read from index {index} but array size is: "
                     f"{len(value.elements)}")
    if index in state.cleared:
        _fail(state, f"Could not read index {index} twice because it was cleared after a "
                     "previous read (perhaps try setting clear_after_read = false?).")
    element = value.elements[index]
    if element is None:
        shape = state.element_shape
        if shape is None or any(d is None for d in shape):
            _fail(state, f"Could not read from TensorArray index {index}.  Furthermore, the "
                         f"element shape is not fully defined: {_shape_text(shape)}.  It is "
                         "possible you are working with a resizeable TensorArray and "
                         "stop_gradients is not allowing the gradients to be written.  If you "
                         "set the full element_shape property on the forward TensorArray, the "
                         "proper all-zeros tensor will be returned instead of incurring this "
                         "error.")
        return np.zeros(shape, state.dtype)
    if state.clear_after_read:
        state.cleared.add(index)
    return element


def _stacked(value, indices, element_shape=None):
    """The elements at `indices`, stacked. With none to stack, the shape of an element is the
    array's own if fully known, else `element_shape` (the one the Python TensorArray had
    learned from its writes when the gather op was built), as TF's TensorArrayGatherV3."""
    state = value.state
    elements = [_read(value, int(i)) for i in indices]
    if not elements:
        shape = state.element_shape
        if (shape is None or any(d is None for d in shape)) and element_shape is not None \
                and element_shape.is_fully_defined():
            shape = tuple(element_shape.as_list())
        if shape is None or any(d is None for d in shape):
            raise errors.UnimplementedError(
                None, None, f"TensorArray {state.name}: TensorArray has size zero, but element "
                f"shape {_shape_text(shape)} is not fully defined. Currently only static "
                f"shapes are supported when packing zero-size TensorArrays.")
        return np.zeros((0,) + tuple(shape), state.dtype)
    for i, e in zip(indices, elements):
        if e.shape != elements[0].shape:
            _fail(state, f"TensorArray has inconsistent shapes.  Index {int(indices[0])} has "
                         f"shape: {_shape_text(elements[0].shape)} but index {int(i)} has "
                         f"shape: {_shape_text(e.shape)}")
    return np.stack(elements)


# -- ops ------------------------------------------------------------------------------------

def _flow_shape(op):
    return TensorShape([])


class TensorArrayV3(OpDef):
    """A new TensorArray of `size` unwritten elements (its flow's value)."""
    stateful = True                  # a fresh array (and its read / write marks) per run
    shape = _flow_shape
    differentiable = False

    def kernel(size, dtype=None, element_shape=None, dynamic_size=False,
               clear_after_read=True, identical_element_shapes=True, tensor_array_name=""):
        size = int(size)
        if size < 0:
            raise errors.InvalidArgumentError(None, None, f"Size should be >= 0, got {size}")
        shape = None if element_shape is None or element_shape.dims is None else \
            tuple(element_shape.as_list())
        state = _ArrayState(tensor_array_name, np.dtype(dtype.as_numpy_dtype), shape,
                            bool(dynamic_size), bool(clear_after_read),
                            bool(identical_element_shapes))
        return TensorArrayValue([None] * size, state)


class TensorArrayWriteV3(OpDef):
    """flow' = flow with element `index` set to `value`."""
    stateful = True
    shape = _flow_shape

    def kernel(index, value, flow_in, T=None):
        return _written(_array_of(flow_in), [(int(index), value)])

    def gradient(op, grad):
        index, value, _ = op.inputs
        d_flow, d_value = apply_op("TensorArrayWriteGrad", [grad, index, value],
                                   output_dtypes=[_dtypes.float32, value.dtype.base_dtype])
        return [None, d_value, d_flow]


class TensorArrayReadV3(OpDef):
    """Element `index` (cleared after the read when clear_after_read)."""
    stateful = True

    def kernel(index, flow_in, dtype=None, element_shape=None):
        return _read(_array_of(flow_in), int(index))

    def shape(op):
        return op.get_attr("element_shape")

    def gradient(op, grad):
        return [None, apply_op("TensorArrayReadGrad", [op.inputs[0], grad],
                               output_dtypes=[_dtypes.float32])]


class TensorArrayGatherV3(OpDef):
    """The elements at `indices`, stacked (tf.TensorArray.stack gathers them all)."""
    stateful = True

    def kernel(indices, flow_in, dtype=None, element_shape=None):
        return _stacked(_array_of(flow_in), np.asarray(indices).reshape(-1),
                        TensorShape(element_shape) if element_shape is not None else None)

    def shape(op):
        n = op.inputs[0].get_shape()
        n = n[0] if n.ndims == 1 else None
        return TensorShape([n]).concatenate(op.get_attr("element_shape"))

    def gradient(op, grad):
        return [None, apply_op("TensorArrayGatherGrad", [op.inputs[0], grad],
                               output_dtypes=[_dtypes.float32])]


class TensorArrayScatterV3(OpDef):
    """flow' = flow with element indices[k] set to value[k]."""
    stateful = True
    shape = _flow_shape

    def kernel(indices, value, flow_in, T=None):
        array = _array_of(flow_in)
        indices = np.asarray(indices).reshape(-1)
        value = np.asarray(value)
        if value.ndim == 0 or value.shape[0] != len(indices):
            _fail(array.state, f"Expected len(indices) == values.shape[0], but saw: "
                               f"{len(indices)} vs. {value.shape[0] if value.ndim else 0}")
        if len(indices) and not array.state.dynamic_size and \
                indices.max() >= len(array.elements):
            _fail(array.state, f"Max scatter index must be < array size ({indices.max()} vs. "
                               f"{len(array.elements)})")
        return _written(array, [(int(i), value[k]) for k, i in enumerate(indices)])

    def gradient(op, grad):
        indices, value, _ = op.inputs
        d_flow, d_value = apply_op("TensorArrayScatterGrad", [grad, indices, value],
                                   output_dtypes=[_dtypes.float32, value.dtype.base_dtype])
        return [None, d_value, d_flow]


class TensorArrayConcatV3(OpDef):
    """All elements concatenated along their first axis, and their lengths."""
    stateful = True
    multi_output = True

    def kernel(flow_in, dtype=None, element_shape_except0=None):
        array = _array_of(flow_in)
        elements = [_read(array, i) for i in range(len(array.elements))]
        for i, e in enumerate(elements):
            if e.ndim == 0:
                _fail(array.state, f"Concat saw a scalar shape at index {i} but requires at "
                                   "least vectors.")
            if e.shape[1:] != elements[0].shape[1:]:
                _fail(array.state, f"Concat saw inconsistent shapes: index 0 has shape "
                                   f"{_shape_text(elements[0].shape)} but index {i} has shape "
                                   f"{_shape_text(e.shape)}")
        lengths = np.array([e.shape[0] for e in elements], np.int64)
        if not elements:
            shape = array.state.element_shape
            rest = () if shape is None or len(shape) < 1 else tuple(shape[1:])
            if any(d is None for d in rest):
                rest = ()
            return np.zeros((0,) + rest, array.state.dtype), lengths
        return np.concatenate(elements), lengths

    def shape(op):
        return [TensorShape([None]).concatenate(op.get_attr("element_shape_except0")),
                TensorShape([None])]

    def gradient(op, grad, _):
        return [apply_op("TensorArrayConcatGrad", [op.outputs[1], grad],
                         output_dtypes=[_dtypes.float32])]


class TensorArraySplitV3(OpDef):
    """flow' = flow with element i set to the i-th piece of `value` (pieces of `lengths`)."""
    stateful = True
    shape = _flow_shape

    def kernel(value, lengths, flow_in, T=None):
        array = _array_of(flow_in)
        value = np.asarray(value)
        lengths = np.asarray(lengths).reshape(-1)
        if value.ndim == 0:
            _fail(array.state, "Expected value to be at least a vector, but received shape: "
                               "[]")
        if int(lengths.sum()) != value.shape[0]:
            _fail(array.state, f"Expected sum of lengths to be equal to values.shape[0], but "
                               f"sum of lengths is {int(lengths.sum())} and value's shape is: "
                               f"{_shape_text(value.shape)}")
        if not array.state.dynamic_size and len(lengths) > len(array.elements):
            _fail(array.state, f"Expected lengths to be less than or equal to "
                               f"{len(array.elements)}, but saw {len(lengths)}")
        starts = np.concatenate([[0], np.cumsum(lengths)])
        return _written(array, [(i, value[starts[i]:starts[i + 1]])
                                for i in range(len(lengths))])

    def gradient(op, grad):
        value, lengths, _ = op.inputs
        d_flow, d_value = apply_op("TensorArraySplitGrad", [grad, lengths, value],
                                   output_dtypes=[_dtypes.float32, value.dtype.base_dtype])
        return [d_value, None, d_flow]


class TensorArraySizeV3(OpDef):
    """The number of elements (grown by writes past the end of a dynamic_size array)."""
    stateful = True
    shape = scalar_shape
    differentiable = False

    def kernel(flow_in):
        return np.int32(len(_array_of(flow_in).elements))


class TensorArrayCloseV3(OpDef):
    """Nothing to free here (the value goes when nothing holds it); kept for TF's API."""
    stateful = True
    differentiable = False

    def kernel(flow_in):
        return None


# -- gradient kernels: on TensorArrayGradValues ---------------------------------------------

class TensorArrayWriteGrad(OpDef):
    """(the flow's gradient without `index`, the written value's gradient)."""
    multi_output = True
    gradient = None

    def kernel(grad, index, value):
        grads = dict(_grad_value(grad).grads)
        d = grads.pop(int(index), None)
        return TensorArrayGradValue(grads), (np.zeros_like(value) if d is None else d)

    def shape(op):
        return [TensorShape([]), op.inputs[2].get_shape()]


class TensorArrayReadGrad(OpDef):
    """The flow's gradient from the gradient of one read element."""
    shape = _flow_shape
    gradient = None

    def kernel(index, grad):
        return TensorArrayGradValue({int(index): np.asarray(grad)})


class TensorArrayGatherGrad(OpDef):
    """The flow's gradient from the gradient of gathered (stacked) elements."""
    shape = _flow_shape
    gradient = None

    def kernel(indices, grad):
        grads = {}
        for k, i in enumerate(np.asarray(indices).reshape(-1)):
            i = int(i)
            grads[i] = grads[i] + grad[k] if i in grads else np.asarray(grad[k])
        return TensorArrayGradValue(grads)


class TensorArrayScatterGrad(OpDef):
    """(the flow's gradient without `indices`, the scattered value's gradient)."""
    multi_output = True
    gradient = None

    def kernel(grad, indices, value):
        grads = dict(_grad_value(grad).grads)
        out = np.zeros_like(value)
        for k, i in enumerate(np.asarray(indices).reshape(-1)):
            d = grads.pop(int(i), None)
            if d is not None:
                out[k] = d
        return TensorArrayGradValue(grads), out

    def shape(op):
        return [TensorShape([]), op.inputs[2].get_shape()]


class TensorArrayConcatGrad(OpDef):
    """The flow's gradient from the gradient of the concatenation."""
    shape = _flow_shape
    gradient = None

    def kernel(lengths, grad):
        starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        return TensorArrayGradValue({i: grad[starts[i]:starts[i + 1]]
                                     for i in range(len(lengths))})


class TensorArraySplitGrad(OpDef):
    """(the flow's gradient without the split indices, the split value's gradient)."""
    multi_output = True
    gradient = None

    def kernel(grad, lengths, value):
        grads = dict(_grad_value(grad).grads)
        out = np.zeros_like(value)
        start = 0
        for i, n in enumerate(np.asarray(lengths).reshape(-1)):
            d = grads.pop(i, None)
            if d is not None:
                out[start:start + int(n)] = d
            start += int(n)
        return TensorArrayGradValue(grads), out

    def shape(op):
        return [TensorShape([]), op.inputs[2].get_shape()]


# -- the Python class -----------------------------------------------------------------------

def _static_int(t):
    """The value of `t` if it is a Python int or a Const op's scalar, else None."""
    if isinstance(t, (int, np.integer)) and not isinstance(t, bool):
        return int(t)
    if isinstance(t, Tensor) and t.op.type == "Const":
        try:
            v = np.asarray(t.op.get_attr("value"))
        except (ValueError, KeyError):
            return None
        if v.shape == () and v.dtype.kind in "iu":
            return int(v)
    return None


class TensorArray:
    """Class wrapping dynamic-sized, per-time-step, write-once Tensor arrays (TF 1.15's
    tf.TensorArray, graph mode). Every method that writes returns a new TensorArray: use it
    (`ta = ta.write(i, x)`), as in TF."""

    _is_tensor_array = True          # while_loop / cond carry it as its flow (func_graph.py)

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        if handle is not None:
            raise ValueError("The sandbox's TensorArray has no resource handle: pass `flow` "
                             "(the flow of an existing TensorArray) to wrap it, not `handle`.")
        if flow is not None and size is not None:
            raise ValueError("Cannot provide both a flow and size at the same time")
        if flow is None and size is None:
            raise ValueError("Size must be provided if handle is not provided")
        if clear_after_read is None:
            clear_after_read = True
        self._dtype = _dtypes.as_dtype(dtype).base_dtype
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = clear_after_read
        self._infer_shape = infer_shape
        # one list shared by every TensorArray made from this one (TF's _element_shape):
        # a write inside a loop body teaches the element shape to the array after the loop
        self._element_shape = [TensorShape(element_shape)]
        g = get_default_graph()
        if flow is not None:
            self._flow = convert_to_tensor(flow)
            self._static_size = None
            self._name = getattr(self._flow.op, "name", "TensorArray")
            return
        with g.name_scope(name or "TensorArray") as scope:
            size = convert_to_tensor(size, dtype=_dtypes.int32, name="size")
            op_name = scope.rstrip("/") if scope else "TensorArray"
            attrs = {"dtype": self._dtype, "element_shape": self._element_shape[0],
                     "dynamic_size": self._dynamic_size,
                     "clear_after_read": bool(clear_after_read),
                     "identical_element_shapes": bool(infer_shape),
                     "tensor_array_name": tensor_array_name or op_name.rsplit("/", 1)[-1]}
            self._flow = apply_op("TensorArrayV3", [size], attrs, name=op_name,
                                  output_dtypes=[_dtypes.float32])
        self._static_size = None if self._dynamic_size else _static_int(size)
        self._name = attrs["tensor_array_name"]

    # -- properties -------------------------------------------------------------------
    @property
    def flow(self):
        """The flow tensor: its value at run time is the whole array."""
        return self._flow

    @property
    def handle(self):
        """TF's resource handle; the sandbox has none -- its flow stands for it."""
        return self._flow

    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self):
        return self._dynamic_size

    @property
    def element_shape(self):
        return self._element_shape[0]

    def _with_flow(self, flow):
        """A TensorArray like this one around `flow` (TF's _make_tensor_array)."""
        ta = object.__new__(TensorArray)
        ta.__dict__.update(self.__dict__)
        ta._flow = flow
        return ta

    def _merge_element_shape(self, shape):
        shape = TensorShape(shape)
        if not self._infer_shape:
            return
        if not self._element_shape[0].is_compatible_with(shape):
            raise ValueError(f"Inconsistent shapes: saw {_tuple_text(shape)} but expected "
                             f"{_tuple_text(self._element_shape[0])} ")
        self._element_shape[0] = self._element_shape[0].merge_with(shape)

    def _value_tensor(self, value, name="value"):
        if isinstance(value, Tensor):
            return value              # a wrong dtype is the kernel's error, as in TF
        return convert_to_tensor(value, dtype=self._dtype, name=name)

    # -- the API ----------------------------------------------------------------------
    def identity(self):
        """A TensorArray whose flow is an Identity of this one's."""
        from .control_flow_ops import identity
        return self._with_flow(identity(self._flow))

    def grad(self, source, flow=None, name=None):
        raise NotImplementedError(
            "TensorArray.grad: the sandbox's TensorArrays take their gradients through their "
            "flow (tf.gradients of a loss through write/read/stack...), not through a grad "
            "TensorArray looked up by name.")

    def read(self, index, name=None):
        index = convert_to_tensor(index, dtype=_dtypes.int32)
        return apply_op("TensorArrayReadV3", [index, self._flow],
                        {"dtype": self._dtype, "element_shape": self.element_shape},
                        name=name or "TensorArrayReadV3", output_dtypes=[self._dtype])

    def write(self, index, value, name=None):
        g = get_default_graph()
        with g.name_scope(name or "TensorArrayWrite"):
            index = convert_to_tensor(index, dtype=_dtypes.int32)
            value = self._value_tensor(value)
            self._merge_element_shape(value.get_shape())
            flow = apply_op("TensorArrayWriteV3", [index, value, self._flow],
                            {"T": value.dtype.base_dtype}, name="TensorArrayWriteV3",
                            output_dtypes=[_dtypes.float32])
        return self._grown(flow, index)

    def _grown(self, flow, index=None):
        ta = self._with_flow(flow)
        if self._dynamic_size:
            ta._static_size = None
        return ta

    def stack(self, name=None):
        g = get_default_graph()
        with g.name_scope(name or "TensorArrayStack"):
            from .array_ops import range as _range
            value = self.gather(_range(0, self.size()), name="TensorArrayGatherV3")
            if self._static_size is not None:
                value.set_shape(TensorShape([self._static_size]).concatenate(
                    self.element_shape))
            return value

    def gather(self, indices, name=None):
        indices = convert_to_tensor(indices, dtype=_dtypes.int32)
        return apply_op("TensorArrayGatherV3", [indices, self._flow],
                        {"dtype": self._dtype, "element_shape": self.element_shape},
                        name=name or "TensorArrayGatherV3", output_dtypes=[self._dtype])

    def concat(self, name=None):
        shape = self.element_shape
        except0 = TensorShape(shape.dims[1:]) if shape.ndims else TensorShape(None)
        value, _ = apply_op("TensorArrayConcatV3", [self._flow],
                            {"dtype": self._dtype, "element_shape_except0": except0},
                            name=name or "TensorArrayConcatV3",
                            output_dtypes=[self._dtype, _dtypes.int64])
        return value

    def unstack(self, value, name=None):
        g = get_default_graph()
        with g.name_scope(name or "TensorArrayUnstack"):
            from .array_ops import range as _range
            from .array_ops import shape as _shape
            value = self._value_tensor(value)
            return self.scatter(_range(0, _shape(value)[0]), value,
                                name="TensorArrayScatter")

    def scatter(self, indices, value, name=None):
        g = get_default_graph()
        with g.name_scope(name or "TensorArrayScatter"):
            indices = convert_to_tensor(indices, dtype=_dtypes.int32)
            value = self._value_tensor(value)
            vshape = value.get_shape()
            if vshape.ndims:
                self._merge_element_shape(TensorShape(vshape.dims[1:]))
            flow = apply_op("TensorArrayScatterV3", [indices, value, self._flow],
                            {"T": value.dtype.base_dtype}, name="TensorArrayScatterV3",
                            output_dtypes=[_dtypes.float32])
        return self._grown(flow)

    def split(self, value, lengths, name=None):
        g = get_default_graph()
        with g.name_scope(name or "TensorArraySplit"):
            value = self._value_tensor(value)
            lengths = convert_to_tensor(lengths, dtype=_dtypes.int64)
            vshape = value.get_shape()
            n = _static_lengths(lengths)
            if vshape.ndims and n is not None and len(set(n)) == 1:
                self._merge_element_shape(TensorShape([n[0]]).concatenate(vshape.dims[1:]))
            flow = apply_op("TensorArraySplitV3", [value, lengths, self._flow],
                            {"T": value.dtype.base_dtype}, name="TensorArraySplitV3",
                            output_dtypes=[_dtypes.float32])
        return self._grown(flow)

    def size(self, name=None):
        return apply_op("TensorArraySizeV3", [self._flow], name=name or "TensorArraySizeV3",
                        output_dtypes=[_dtypes.int32])

    def close(self, name=None):
        return apply_op("TensorArrayCloseV3", [self._flow], name=name or "TensorArrayCloseV3",
                        output_dtypes=[])


def _static_lengths(lengths):
    if lengths.op.type == "Const":
        try:
            return [int(x) for x in np.asarray(lengths.op.get_attr("value")).reshape(-1)]
        except (ValueError, KeyError):
            return None
    return None


def _tuple_text(shape):
    if shape.dims is None:
        return "<unknown>"
    return str(tuple(shape.as_list()))
