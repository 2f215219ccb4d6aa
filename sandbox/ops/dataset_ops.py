"""Iterator ops -- mirrors TensorFlow's iterator kernels (core/kernels/data/iterator_ops.cc:
IteratorV2, MakeIterator, OneShotIterator, IteratorGetNext).

An iterator is state, like a queue (ops/data_flow_ops.py): the graph only names it; the
iterator itself -- where it is in the dataset, its shuffle buffer -- lives in the resource
manager of the task its op is placed on. So under `tf.device('/job:worker/task:0')` the
elements are made on that worker, and a `get_next` run from any client of the cluster asks
that task for the next one.

    IteratorV2         the iterator's handle (a reference output, as a queue's)
    MakeIterator       (re)starts it on a dataset: the initializer of an initializable
                       iterator. Its inputs are the tensors the dataset reads (a placeholder,
                       a captured variable), its attr `dataset` the plan
                       (ops/dataset_pipeline.py)
    OneShotIterator    handle and dataset in one: it starts itself the first time it runs,
                       computing the dataset's tensors with its `factory` function (TF's
                       dataset_factory), so it cannot read a placeholder or a variable
    IteratorGetNext    the next element, one output per component; OutOfRangeError, naming
                       the iterator, at the end
    IteratorToStringHandle      the iterator's handle as a string (a feedable iterator's
                                value): which device holds it, its container and its name
    IteratorFromStringHandleV2  the iterator a fed string handle names, checked against the
                                types and shapes this op expects

The string handle is TF's ResourceHandleProto, encoded as protocol buffers encode it: field 1
the device, 2 the container, 3 the name, 5 the type name (TF adds a hash of the type, field 4;
the sandbox leaves it out). `sess.run(it.string_handle())` gives these bytes; fed back to an
IteratorFromStringHandleV2 op *on the same device*, they find the same iterator in that task's
resource manager -- from any session on that task, as in TF. A handle for another device is an
InvalidArgumentError, as in TF: an iterator's elements are made where it lives.

Without a `shared_name` each session gets a fresh iterator, as in TF (whose kernel then makes
up a unique resource name): a session's first use of the op starts over. The state stays in
the task's resource manager under the op's name -- one per op and task, so two sessions that
use the same unshared iterator at the same time share it (TF would give each its own).
"""
import threading

import numpy as np

from ..framework import errors
from ..framework.dtypes import cpp_type_name
from ..framework.op_def import OpDef
from ..framework.tensor_shape import TensorShape
from .dataset_function import FunctionRunner
from .dataset_pipeline import PipelineEnv, iterate

__all__ = []


class _IteratorResource:
    """The state of one iterator: the running pipeline (None until initialized)."""

    def __init__(self, name, owner, output_types, output_shapes, container="", device=""):
        self.name = name
        self.owner = owner
        self.container = container          # where the resource manager keeps it, and the
        self.device = device                # device of its op: what its string handle names
        self.output_types = output_types
        self.output_shapes = output_shapes
        self.lock = threading.Lock()
        self.start_lock = threading.Lock()
        self.pipeline = None
        self.env = None
        self.exhausted = False
        self.elements_produced = 0

    def start(self, plan, inputs, env):
        with self.lock:
            self.pipeline = iterate(plan, list(inputs), env)
            self.env = env
            self.exhausted = False
            self.elements_produced = 0

    def reset(self):
        with self.lock:
            self.pipeline = None
            self.env = None
            self.exhausted = False

    def get_next(self, step, node):
        with self.lock:
            if self.pipeline is None:
                raise errors.FailedPreconditionError(
                    node, None, "GetNext() failed because the iterator has not been "
                    "initialized. Ensure that you have run the initializer operation for this "
                    f"iterator before getting the next element (iterator {self.name!r}"
                    f"{_on(self.owner)}: sess.run(iterator.initializer)).")
            self.env.step = step
            element = None if self.exhausted else next(self.pipeline, None)
            if element is None:
                self.exhausted = True
                raise errors.OutOfRangeError(
                    node, None, f"End of sequence: iterator {self.name!r}{_on(self.owner)} "
                    f"has no more elements (it gave {self.elements_produced}). Catch "
                    "tf.errors.OutOfRangeError to end the loop; an initializable iterator "
                    "starts over when its initializer runs again.")
            self.elements_produced += 1
            return element


def _on(owner):
    return f" on {owner}" if owner else ""


def _iterator(ctx, shared_name, container, output_types, output_shapes):
    """The iterator resource of this op on this task; a session's first use of an unshared
    iterator starts it over (a fresh iterator per session, as in TF)."""
    name = shared_name or ctx.name
    resource = ctx.resources.lookup_or_create(
        container, name, lambda: _IteratorResource(
            name, ctx.resources.owner, output_types, output_shapes,
            container or ctx.resources.default_container, ctx.device))
    if not shared_name and "claimed" not in ctx.state:
        ctx.state["claimed"] = True
        resource.reset()
    return resource


class IteratorV2(OpDef):
    """Outputs a reference to the iterator stored on this task (created on first use)."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)

    def shape(op):
        return TensorShape([])

    def kernel(ctx, step, shared_name="", container="", output_types=(), output_shapes=()):
        return _iterator(ctx, shared_name, container, output_types, output_shapes)


class MakeIterator(OpDef):
    """Starts (or restarts) the iterator on the dataset `dataset`, whose tensors are the
    inputs after the first."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(ctx, step, iterator, *inputs, dataset=None):
        env = PipelineEnv(ctx.name, ctx.resources, ctx.device)
        iterator.start(dataset, inputs, env)


class OneShotIterator(OpDef):
    """An iterator that starts itself on its dataset the first time it runs (per session)."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)

    def shape(op):
        return TensorShape([])

    def kernel(ctx, step, dataset=None, factory=None, shared_name="", container="",
               output_types=(), output_shapes=()):
        resource = _iterator(ctx, shared_name, container, output_types, output_shapes)
        with resource.start_lock:              # two first runs at once start it once
            if resource.pipeline is None and not resource.exhausted:
                inputs = FunctionRunner(factory, f"the dataset of {ctx.name!r}",
                                        ctx.resources, ctx.device)(step=step)
                resource.start(dataset, inputs, PipelineEnv(ctx.name, ctx.resources,
                                                            ctx.device))
        return resource


class IteratorGetNext(OpDef):
    """The next element of the iterator: one output per component."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    multi_output = True

    def shape(op):
        return [TensorShape(s) for s in op.get_attr("output_shapes")]

    def kernel(ctx, step, iterator, output_types=(), output_shapes=()):
        element = iterator.get_next(step, ctx.name)
        for value, dtype, shape in zip(element, output_types, output_shapes):
            shape = TensorShape(shape)
            if not shape.is_compatible_with(np.shape(value)):
                raise errors.InvalidArgumentError(
                    ctx.name, None, f"The iterator {iterator.name!r} produced a component of "
                    f"shape {list(np.shape(value))}, but its output_shapes say {shape}.")
        return element


# -- feedable iterators: the handle as a string --------------------------------------------

_TYPE_NAME = "IteratorResource"


def _varint(n):
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def encode_handle(device, container, name):
    """A ResourceHandleProto's bytes: fields 1 (device), 2 (container), 3 (name) and
    5 (maybe_type_name), each a length-delimited string (tag = field << 3 | 2)."""
    out = b""
    for field, text in ((1, device), (2, container), (3, name), (5, _TYPE_NAME)):
        data = text.encode()
        out += bytes([field << 3 | 2]) + _varint(len(data)) + data
    return out


def _read_varint(data, pos):
    value, shift = 0, 0
    while pos < len(data) and shift < 64:
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos += 1
        if not byte & 0x80:
            return value, pos
        shift += 7
    raise ValueError("truncated varint")


def decode_handle(data):
    """The fields of a ResourceHandleProto, {field number: str}; ValueError if `data` is not
    one. Field 4 (TF's hash code) is a number, 6 (dtypes and shapes) is skipped."""
    fields, pos = {}, 0
    while pos < len(data):
        tag, pos = _read_varint(data, pos)
        field, wire_type = tag >> 3, tag & 7
        if field == 4 and wire_type == 0:
            fields[4], pos = _read_varint(data, pos)
        elif field in (1, 2, 3, 5, 6) and wire_type == 2:
            size, pos = _read_varint(data, pos)
            if pos + size > len(data):
                raise ValueError("truncated string")
            if field != 6:
                fields[field] = data[pos:pos + size].decode()      # UnicodeDecodeError too
            pos += size
        else:
            raise ValueError(f"unexpected field {field} (wire type {wire_type})")
    return fields


class IteratorToStringHandle(OpDef):
    """The iterator's handle as a scalar string (runs where the iterator lives)."""
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def shape(op):
        return TensorShape([])

    def kernel(iterator):
        return np.array(encode_handle(iterator.device, iterator.container, iterator.name),
                        dtype=object)


def _shape_text(shape):
    dims = TensorShape(shape).as_tuple()
    if dims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _check_structure(node, iterator, output_types, output_shapes):
    """TF's VerifyTypesMatch and VerifyShapesCompatible, with TF's messages."""
    hint = (f" The handle names iterator {iterator.name!r}{_on(iterator.owner)}: "
            "Iterator.from_string_handle needs the output_types and output_shapes of the "
            "datasets whose handles you feed.")
    theirs = list(iterator.output_types)
    if len(output_types) != len(theirs):
        raise errors.InvalidArgumentError(
            node, None, f"Number of components does not match: expected "
            f"{len(output_types)} types but got {len(theirs)}.{hint}")
    for i, (mine, other) in enumerate(zip(output_types, theirs)):
        if cpp_type_name(mine) != cpp_type_name(other):
            raise errors.InvalidArgumentError(
                node, None, f"Data type mismatch at component {i}: expected "
                f"{cpp_type_name(mine)} but got {cpp_type_name(other)}.{hint}")
    for i, (mine, other) in enumerate(zip(output_shapes, iterator.output_shapes)):
        if not TensorShape(mine).is_compatible_with(TensorShape(other)):
            raise errors.InvalidArgumentError(
                node, None, f"Incompatible shapes at component {i}: expected "
                f"{_shape_text(mine)} but got {_shape_text(other)}.{hint}")


class IteratorFromStringHandleV2(OpDef):
    """The iterator named by a string handle, on this op's device (a feedable iterator)."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)

    def shape(op):
        return TensorShape([])

    def kernel(ctx, step, string_handle, output_types=(), output_shapes=()):
        value = np.asarray(string_handle, dtype=object)
        if value.ndim != 0:
            raise errors.InvalidArgumentError(
                ctx.name, None, f"string_handle must be a scalar, got shape "
                f"{list(value.shape)}: feed one handle, sess.run(iterator.string_handle()).")
        data = value.item()
        data = data.encode() if isinstance(data, str) else data
        try:
            fields = decode_handle(bytes(data))
        except (ValueError, TypeError):
            raise errors.InvalidArgumentError(
                ctx.name, None, "Could not parse string_handle as a valid ResourceHandle "
                "(feed the bytes that sess.run(iterator.string_handle()) returned).") from None
        device = fields.get(1, "")
        if device != ctx.device:
            hint = (f"An iterator is read where it lives: build Iterator.from_string_handle "
                    f"(and its get_next) under tf.device({_task(device)!r}), the device of "
                    "the iterators whose handles you feed." if device else
                    "The handle names no device: feed the bytes that "
                    "sess.run(iterator.string_handle()) returned.")
            raise errors.InvalidArgumentError(
                ctx.name, None, f'Attempted create an iterator on device "{ctx.device}" from '
                f'handle defined on device "{device}". {hint}')
        try:
            iterator = ctx.resources.lookup(fields.get(2, ""), fields.get(3, ""))
        except errors.NotFoundError:
            raise errors.NotFoundError(
                ctx.name, None, f"Resource {fields.get(2, '')}/{fields.get(3, '')}/"
                f"{fields.get(5, '')} does not exist on {device}: no iterator of that name "
                "lives in this task (a local Session keeps its own, and a restarted task has "
                "lost them). Get a fresh handle with sess.run(iterator.string_handle()).") \
                from None
        if not isinstance(iterator, _IteratorResource):
            raise errors.InvalidArgumentError(
                ctx.name, None, f"The handle names {fields.get(3)!r}, a "
                f"{type(iterator).__name__.strip('_')}, not an iterator.")
        _check_structure(ctx.name, iterator, list(output_types), list(output_shapes))
        return iterator


def _task(device):
    """'/job:worker/replica:0/task:0/device:CPU:0' -> '/job:worker/task:0' (for hints)."""
    parts = [p for p in device.split("/") if p.startswith(("job:", "task:"))]
    return "/" + "/".join(parts) if parts else device


class ReduceDataset(OpDef):
    """Dataset.reduce: the whole dataset folded into one state by a function -- TF's
    ReduceDataset op, run to the end of the dataset in one step. Inputs: the tensors the
    dataset reads, then the initial state, then what the function captures."""
    uses_context = True
    stateful = True
    differentiable = False
    multi_output = True

    def shape(op):
        return [TensorShape(s) for s in op.get_attr("output_shapes")]

    def kernel(ctx, step, *inputs, dataset=None, f=None, n_data=0, n_state=0,
               output_types=(), output_shapes=()):
        data = list(inputs[:n_data])
        state = list(inputs[n_data:n_data + n_state])
        captured = inputs[n_data + n_state:]
        env = PipelineEnv(ctx.name, ctx.resources, ctx.device)
        env.step = step
        reduce_func = FunctionRunner(f, "the function of Dataset.reduce", ctx.resources,
                                     ctx.device)
        for element in iterate(dataset, data, env):
            state = [np.asarray(v, dtype=t.as_numpy_dtype) for v, t in zip(
                reduce_func(tuple(state) + tuple(element), captured, step), output_types)]
        return tuple(state)
