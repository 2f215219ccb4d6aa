"""Tensors kept in a session between runs -- mirrors TensorFlow 1.x's python/ops/session_ops.py
(get_session_handle, get_session_tensor, delete_session_tensor, TensorHandle) and the kernels
of core/kernels/session_ops.cc.

    h = sess.run(tf.get_session_handle(a * b))     # the value stays on a's task; h names it
    holder, value = tf.get_session_tensor(h.handle, tf.float32)
    sess.run(value + 1, {holder: h})               # feed the handle: the value is used there
    h.delete()                                     # or let h be garbage-collected

A handle is a string, '<node>;<id>;<device>': the device is where the value lives, so
get_session_tensor puts its op there -- the value never crosses the wire unless an op on
another task reads it. The values live in the task's resources (container
'_session_tensors'), where the placement view lists them, until deleted: by
delete_session_tensor, TensorHandle.delete(), or when the TensorHandle is garbage-collected
(the session deletes dead handles in batches of 10 on its next run, as TF's does).
"""
import itertools
import threading

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import unknown_shape
from .constant_op import placeholder

__all__ = ["get_session_handle", "get_session_tensor", "delete_session_tensor", "TensorHandle"]

_CONTAINER = "_session_tensors"
_ids = itertools.count()
_ids_lock = threading.Lock()


def _device_of(handle):
    """The device named at the end of a handle string."""
    text = handle.decode() if isinstance(handle, bytes) else str(handle)
    parts = text.split(";")
    if len(parts) < 3:
        raise ValueError(f"{text!r} is not a session tensor handle ('<node>;<id>;<device>', "
                         "what sess.run of tf.get_session_handle(t) gives).")
    return parts[-1]


class GetSessionHandle(OpDef):
    """Keeps its input's value on this task; outputs the handle string that names it."""
    uses_context = True
    stateful = True
    differentiable = False
    shape = scalar_shape

    def kernel(ctx, step, value):
        with _ids_lock:
            number = next(_ids)
        handle = f"{ctx.name};{number};{ctx.device}"
        ctx.resources.lookup_or_create(_CONTAINER, handle, lambda: np.array(value, copy=True))
        return np.array(handle.encode(), dtype=object)


def _look_up(ctx, handle):
    key = handle.item() if isinstance(handle, np.ndarray) else handle
    key = key.decode() if isinstance(key, bytes) else str(key)
    try:
        return key, ctx.resources.lookup(_CONTAINER, key)
    except errors.NotFoundError:
        raise errors.InvalidArgumentError(
            ctx.name, None, f"The session tensor {key!r} does not exist on {ctx.device}: it "
            "was deleted, or its handle is from another cluster.") from None


class GetSessionTensor(OpDef):
    """The value that a handle names (on the task that keeps it)."""
    uses_context = True
    stateful = True
    differentiable = False

    def shape(op):
        return unknown_shape()

    def kernel(ctx, step, handle, dtype):
        _, value = _look_up(ctx, handle)
        if value.dtype != dtype.as_numpy_dtype and dtype != _dtypes.string:
            raise errors.InvalidArgumentError(
                ctx.name, None, f"The session tensor is {value.dtype}, but "
                f"get_session_tensor was given dtype {dtype.name}.")
        return value


class DeleteSessionTensor(OpDef):
    """Forgets the value that a handle names."""
    uses_context = True
    stateful = True
    differentiable = False

    def kernel(ctx, step, handle):
        key, _ = _look_up(ctx, handle)
        ctx.resources.drop(_CONTAINER, key)


def get_session_handle(data, name=None):
    """A string tensor: run it to keep `data`'s value in the session (sess.run returns a
    TensorHandle); the op runs where `data` is made."""
    data = convert_to_tensor(data)
    graph = get_default_graph()
    with graph.colocate_with(data.op):
        handle = apply_op("GetSessionHandle", [data], name=name or "GetSessionHandle",
                          output_dtypes=[_dtypes.string])
    handle._session_handle_dtype = data.dtype.base_dtype
    return handle


def get_session_tensor(handle, dtype, name=None):
    """(holder, tensor): feed `holder` a handle (or the TensorHandle) and `tensor` is the
    value it names, on the device that keeps it."""
    graph = get_default_graph()
    with graph.device(_device_of(handle)):
        holder = placeholder(_dtypes.string, [], name="GetSessionTensor/handle"
                             if name is None else f"{name}/handle")
        tensor = apply_op("GetSessionTensor", [holder], {"dtype": _dtypes.as_dtype(dtype)},
                          name=name or "GetSessionTensor",
                          output_dtypes=[_dtypes.as_dtype(dtype)])
    return holder, tensor


def delete_session_tensor(handle, name=None):
    """(holder, deleter): feed `holder` a handle and run `deleter` to free its value."""
    graph = get_default_graph()
    with graph.device(_device_of(handle)):
        holder = placeholder(_dtypes.string, [], name="DeleteSessionTensor/handle"
                             if name is None else f"{name}/handle")
        deleter = apply_op("DeleteSessionTensor", [holder], name=name or "DeleteSessionTensor",
                           output_dtypes=[])
    return holder, deleter


class TensorHandle:
    """What sess.run gives for a tf.get_session_handle tensor: the handle of a value kept in
    the session. Feed it to get_session_tensor's holder; eval() fetches the value."""

    _is_tensor_handle = True

    def __init__(self, handle, dtype, session):
        self._handle = handle.decode() if isinstance(handle, bytes) else str(handle)
        self._dtype = _dtypes.as_dtype(dtype)
        self._session = session
        self._auto_gc_enabled = True

    @property
    def handle(self):
        """The handle string, '<node>;<id>;<device>'."""
        return self._handle

    def __str__(self):
        return self._handle

    def __repr__(self):
        return f"<TensorHandle {self._handle!r} ({self._dtype.name})>"

    def eval(self):
        """The value, fetched to this process."""
        holder, tensor = self._session._session_handle_ops("read", self._handle, self._dtype)
        return self._session.run(tensor, {holder: self._handle})

    def delete(self):
        """Frees the value in the session now."""
        self._auto_gc_enabled = False
        holder, deleter = self._session._session_handle_ops("delete", self._handle)
        self._session.run(deleter, {holder: self._handle})

    def get_raw_handle(self):
        return self._handle

    def __del__(self):
        if getattr(self, "_auto_gc_enabled", False):
            try:
                self._session._register_dead_handle(self._handle)
            except Exception:               # the session may be gone already
                pass
