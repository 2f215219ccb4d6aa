"""Sessions -- mirrors TensorFlow 1.x's `tf.Session` (python/client/session.py).

A Session runs (parts of) a graph. `sess.run(fetches, feed_dict)`:

  1. flattens `fetches` -- a tensor, an op, a name like 'y:0' or 'train', or lists, tuples,
     dicts and namedtuples of them, nested -- into a list of unique graph elements (an
     IndexedSlices or a SparseTensor stands for its three tensors, a RaggedTensor for its
     flat values and row splits);
  2. checks every fed value against its tensor's dtype and static shape (a SparseTensor key
     is fed with a SparseTensorValue or an (indices, values, dense_shape) tuple, one value
     for each of its three tensors; a RaggedTensor key with a tf.ragged.RaggedTensorValue);
  3. asks its runtime to run the graph piece that computes those fetches (planned once per
     distinct signature and cached);
  4. rebuilds the results in the shape of `fetches` (ops give None, a SparseTensor a
     SparseTensorValue of arrays, a RaggedTensor a tf.ragged.RaggedTensorValue).

`Session('')` runs in this process (DirectSession). `Session('grpc://host:port')` talks to the
master service of a sandbox server (see sandbox/runtime/).
"""
import collections
import contextlib

import numpy as np

# The stack of default sessions is the framework's (Tensor.eval reads it there), as in TF.
from ..framework.default_session import (_default_session_stack, _global_default_session,
                                         get_default_session, get_log_device_placement)
from ..framework.graph import Graph, get_default_graph
from ..framework.indexed_slices import IndexedSlices, IndexedSlicesValue
from ..framework.operation import Operation
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from ..framework.dtypes import string
from ..framework.tensor import Tensor, _as_bytes_array
from ..ops.ragged.ragged_tensor import RaggedTensor                  # ragged (ops/ragged/)
from ..ops.ragged.ragged_tensor_value import RaggedTensorValue
from .config import ConfigProto

__all__ = ["Session", "InteractiveSession", "get_default_session"]


class _FetchStructure:
    """Flattens nested fetches into unique graph elements and rebuilds results in that shape."""

    def __init__(self, graph, fetches):
        self.graph = graph
        self.elements = []
        self._index = {}
        self._tree = self._build(fetches)
        # what the runtime is asked for: the tensors to fetch and the ops to run (by name)
        self.fetch_names = tuple(e.name for e in self.elements if not isinstance(e, Operation))
        self.targets = tuple(e.name for e in self.elements if isinstance(e, Operation))
        # tf.get_session_handle tensors: their strings come back as TensorHandles
        self.handles = {i: e.op.inputs[0].dtype.base_dtype for i, e in enumerate(self.elements)
                        if isinstance(e, Tensor) and e.op.type == "GetSessionHandle"}

    def _build(self, fetch):
        if fetch is None:
            raise TypeError(f"Fetch argument {fetch!r} has invalid type {type(fetch)}")
        if isinstance(fetch, tuple) and hasattr(fetch, "_fields"):
            return ("namedtuple", type(fetch), [self._build(f) for f in fetch])
        if isinstance(fetch, (list, tuple)):
            return ("sequence", type(fetch), [self._build(f) for f in fetch])
        if isinstance(fetch, collections.abc.Mapping):
            return ("mapping", type(fetch), [(k, self._build(v)) for k, v in fetch.items()])
        if isinstance(fetch, IndexedSlices):          # TF: an IndexedSlicesValue of arrays
            parts = [fetch.values, fetch.indices, fetch.dense_shape]
            return ("indexed_slices", None, [None if p is None else self._build(p)
                                             for p in parts])
        if isinstance(fetch, SparseTensor):           # TF: a SparseTensorValue of arrays
            parts = [fetch.indices, fetch.values, fetch.dense_shape]
            return ("sparse_tensor", None, [self._build(p) for p in parts])
        if isinstance(fetch, RaggedTensor):           # TF: a RaggedTensorValue of arrays
            parts = [fetch.flat_values] + list(fetch.nested_row_splits)
            return ("ragged_tensor", None, [self._build(p) for p in parts])
        try:
            element = self.graph.as_graph_element(fetch, allow_tensor=True, allow_operation=True)
        except TypeError as e:
            raise TypeError(f"Fetch argument {fetch!r} has invalid type {type(fetch)}, must be "
                            f"a string or Tensor. ({e})") from None
        except (ValueError, KeyError) as e:
            text = e.args[0] if e.args else str(e)
            raise type(e)(f"Fetch argument {fetch!r} cannot be interpreted as a Tensor. "
                          f"({text})") from None
        if not self.graph.is_fetchable(element):            # Graph.prevent_fetching
            op = getattr(element, "op", element)
            raise ValueError(f"Operation {op.name!r} has been marked as not fetchable.")
        if element not in self._index:
            self._index[element] = len(self.elements)
            self.elements.append(element)
        return ("leaf", self._index[element], isinstance(element, Operation))

    def rebuild(self, values):
        return self._rebuild(self._tree, values)

    def _rebuild(self, node, values):
        kind = node[0]
        if kind == "leaf":
            return None if node[2] else values[node[1]]
        if kind == "namedtuple":
            return node[1](*[self._rebuild(n, values) for n in node[2]])
        if kind == "indexed_slices":
            return IndexedSlicesValue(*[None if n is None else self._rebuild(n, values)
                                        for n in node[2]])
        if kind == "sparse_tensor":
            return SparseTensorValue(*[self._rebuild(n, values) for n in node[2]])
        if kind == "ragged_tensor":                   # flat values, then splits outermost first
            value, *nested_splits = [self._rebuild(n, values) for n in node[2]]
            for splits in reversed(nested_splits):
                value = RaggedTensorValue(value, splits)
            return value
        if kind == "sequence":
            items = [self._rebuild(n, values) for n in node[2]]
            return items if node[1] is list else node[1](items)
        result = node[1]() if node[1] is not dict else {}
        for key, n in node[2]:
            result[key] = self._rebuild(n, values)
        return result


class BaseSession:
    """Shared machinery of Session and InteractiveSession."""

    def __init__(self, target="", graph=None, config=None):
        if graph is None:
            graph = get_default_graph()
        elif not isinstance(graph, Graph):
            raise TypeError(f"graph must be a tf.Graph, but got {type(graph)}")
        if isinstance(target, bytes):                 # TF takes bytes or str (compat.as_bytes)
            target = target.decode("utf-8")
        elif target is None:                          # TF: None is the local runtime, as ""
            target = ""
        if not isinstance(target, str):
            hint = ' Did you do "Session(config)" instead of "Session(config=config)"?' \
                if isinstance(target, ConfigProto) else ""
            raise TypeError(f"target must be a string, but got {type(target)}.{hint}")
        if config is not None and not isinstance(config, ConfigProto):
            raise TypeError(f"config must be a tf.ConfigProto, but got {type(config)}")
        self._graph = graph
        # a Session made without a config logs placements if tf.debugging said so (as TF)
        self._config = config or ConfigProto(log_device_placement=get_log_device_placement())
        self._target = target
        self._closed = False
        self._structures = {}
        self._feed_tensors = {}
        self._dead_handles = []           # of garbage-collected TensorHandles (ops/session_ops)
        self._handle_ops = {}
        if target:
            from ..runtime.remote_session import RemoteSession
            self._runtime = RemoteSession(target, graph, self._config)
        else:
            from ..runtime.direct_session import DirectSession
            self._runtime = DirectSession(graph, self._config)

    # -- properties ------------------------------------------------------------
    @property
    def graph(self):
        return self._graph

    @property
    def graph_def(self):
        """The session's graph as data: self.graph.as_graph_def() (framework/graph_def.py)."""
        return self._graph.as_graph_def()

    @property
    def sess_str(self):
        return self._target

    def list_devices(self):
        """The devices this session can use, as TF's _DeviceAttributes: `.name`,
        `.device_type`, `.memory_limit_bytes`, `.incarnation` (each is also the device's name
        as a string)."""
        return [_DeviceAttributes(name) for name in self._runtime.list_devices()]

    @property
    def placement(self):
        """(A sandbox extra, not in TF.) {op name: (op type, device)} for every op this
        session has run so far, as its master placed it -- what `log_device_placement`
        prints, as data; the placement view draws it. Ops are placed when a step first needs
        them, as in TF, so an op never run is not in it."""
        return dict(self._runtime.placement)

    # -- running ---------------------------------------------------------------
    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs the ops and evaluates the tensors in `fetches`, feeding `feed_dict`.

        Returns values in the same nested structure as `fetches`: NumPy arrays for tensors,
        None for operations.
        """
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if len(self._dead_handles) >= 10:
            self._delete_dead_handles()
        structure = self._structure_for(fetches)
        feed_names, feed_values = self._convert_feeds(feed_dict)
        values = self._runtime.run(tuple(feed_names), structure.fetch_names, structure.targets,
                                   feed_values, options, run_metadata)
        by_element, it = [], iter(values)
        for element in structure.elements:
            by_element.append(None if isinstance(element, Operation) else _as_result(next(it)))
        if structure.handles:
            from ..ops.session_ops import TensorHandle
            for i, dtype in structure.handles.items():
                raw = by_element[i]
                by_element[i] = TensorHandle(raw.item() if isinstance(raw, np.ndarray) else raw,
                                             dtype, self)
        return structure.rebuild(by_element)

    # -- tensors kept in the session (ops/session_ops.py) -----------------------------
    def _session_handle_ops(self, kind, handle, dtype=None):
        """(holder, op) that reads ("read") or deletes ("delete") a handle's value: built
        once per device (and dtype) in the session's graph, as TF's session caches them."""
        from ..ops import session_ops
        device = session_ops._device_of(handle)
        key = (kind, device, dtype)
        if key not in self._handle_ops:
            with self._graph.as_default():
                self._handle_ops[key] = (
                    session_ops.get_session_tensor(handle, dtype) if kind == "read"
                    else session_ops.delete_session_tensor(handle))
        return self._handle_ops[key]

    def _register_dead_handle(self, handle):
        self._dead_handles.append(handle)

    def _delete_dead_handles(self):
        dead, self._dead_handles = self._dead_handles, []
        for handle in dead:
            holder, deleter = self._session_handle_ops("delete", handle)
            self.run(deleter, {holder: handle})

    def _structure_for(self, fetches):
        key = _fetch_key(fetches)
        if key is not None:
            structure = self._structures.get(key)
            if structure is not None:
                return structure
        structure = _FetchStructure(self._graph, fetches)
        if key is not None and len(self._structures) < 1024:
            self._structures[key] = structure
        return structure

    def _convert_feeds(self, feed_dict):
        if not feed_dict:
            return (), ()
        names, values = [], []
        for key, value in _expand_sparse_feeds(feed_dict):
            tensor = self._feed_tensors.get(key)
            if tensor is None:
                tensor = self._feed_tensor(key)
            if tensor in self._graph._unfeedable:          # Graph.prevent_feeding
                raise ValueError(f"Tensor {tensor.name} may not be fed.")
            if getattr(value, "_is_tensor_handle", False):
                value = value.handle               # a TensorHandle feeds its handle string
            if isinstance(value, Tensor):
                raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable "
                                "feed values include Python scalars, strings, lists, numpy "
                                "ndarrays, or TensorHandles. For reference, the tensor object "
                                f"was {value} which was passed to the feed with key {tensor}.")
            dtype = tensor.dtype.base_dtype
            try:
                array = np.asarray(value, dtype=dtype.as_numpy_dtype)
            except (TypeError, ValueError) as e:
                raise TypeError(f"Cannot feed value {_short(value)} of type "
                                f"{type(value).__name__} to Tensor {tensor.name!r} of dtype "
                                f"{dtype.name}: {e}") from None
            if dtype == string and array.dtype == object:
                array = _as_bytes_array(array)    # TF's strings are bytes: 'hi' -> b'hi'
            if dtype.is_integer and isinstance(value, float) and array != value:
                raise TypeError(f"Type of feed value {value} with type {type(value)} is not "
                                f"compatible with Tensor type {dtype!r}.")
            if not tensor.get_shape().is_compatible_with(array.shape):
                raise ValueError(f"Cannot feed value of shape {array.shape!r} for Tensor "
                                 f"{tensor.name!r}, which has shape "
                                 f"{str(tensor.get_shape())!r}")
            names.append(tensor.name)
            values.append(array)
        return names, values

    def _feed_tensor(self, key):
        """The Tensor a feed_dict key names (remembered: a key names the same tensor of the
        graph for the session's whole life)."""
        try:
            tensor = self._graph.as_graph_element(key, allow_tensor=True, allow_operation=False)
        except (TypeError, ValueError, KeyError) as e:
            text = e.args[0] if e.args else str(e)
            raise TypeError(f"Cannot interpret feed_dict key {key!r} as a Tensor: {text}") \
                from None
        if len(self._feed_tensors) < 1024:
            self._feed_tensors[key] = tensor
        return tensor

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function that runs `fetches`, feeding its positional arguments to `feed_list`."""
        if feed_list is not None and not isinstance(feed_list, (list, tuple)):
            raise TypeError("`feed_list` must be a list or tuple.")     # TF's words
        feed_list = list(feed_list or [])

        def _callable(*args, **kwargs):
            if len(args) != len(feed_list):
                raise ValueError(f"Expected {len(feed_list)} positional feed values, got "
                                 f"{len(args)}.")
            return self.run(fetches, dict(zip(feed_list, args)), **kwargs)
        return _callable

    # -- lifetime --------------------------------------------------------------
    def close(self):
        """Frees the session's resources; blocked steps of a remote session are cancelled."""
        if not self._closed:
            self._closed = True
            self._runtime.close()

    @contextlib.contextmanager
    def as_default(self):
        """Makes this the default session for Tensor.eval() and Operation.run()."""
        _default_session_stack.stack.append(self)
        try:
            yield self
        finally:
            if _default_session_stack.stack and _default_session_stack.stack[-1] is self:
                _default_session_stack.stack.pop()

    def __enter__(self):
        self._graph_ctx = self._graph.as_default()
        self._graph_ctx.__enter__()
        self._default_ctx = self.as_default()
        self._default_ctx.__enter__()
        return self

    def __exit__(self, exc_type, exc, tb):
        self._default_ctx.__exit__(exc_type, exc, tb)
        self._graph_ctx.__exit__(exc_type, exc, tb)
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Session(BaseSession):
    """`tf.Session(target='', graph=None, config=None)`: runs a graph in this process, or on a
    sandbox cluster when `target` names a server ('grpc://localhost:2222')."""

    @staticmethod
    def reset(target, containers=None, config=None):
        """Clears the resource containers (variables, queues) of every task of `target`."""
        from ..runtime.remote_session import reset_containers
        reset_containers(target, containers, config)


class InteractiveSession(BaseSession):
    """A Session that installs itself as the default session, for shells and notebooks."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._previous_default = _global_default_session[0]
        _global_default_session[0] = self
        self._graph_ctx = self._graph.as_default()
        self._graph_ctx.__enter__()

    def close(self):
        if not self._closed and _global_default_session[0] is self:
            _global_default_session[0] = self._previous_default
            try:
                self._graph_ctx.__exit__(None, None, None)
            except Exception:
                pass
        super().close()


class _DeviceAttributes(str):
    """One device of `Session.list_devices()` (TF's session._DeviceAttributes); a str of the
    device's full name, so code that treats the list as names keeps working."""

    @property
    def name(self):
        return str(self)

    @property
    def device_type(self):
        return self.rsplit("/device:", 1)[-1].split(":")[0]

    @property
    def memory_limit_bytes(self):
        return 0          # simulated devices: NumPy arrays in the task's memory

    @property
    def incarnation(self):
        return 0

    def __repr__(self):
        return (f"_DeviceAttributes({self.name}, {self.device_type}, {self.memory_limit_bytes},"
                f" {self.incarnation})")


def _fetch_key(fetches):
    """A hashable key for simple fetches (the common case) so planning is skipped on reruns."""
    if isinstance(fetches, (Tensor, Operation, str)):
        return (fetches,)
    if type(fetches) in (list, tuple) and all(isinstance(f, (Tensor, Operation, str))
                                              for f in fetches):
        return (type(fetches),) + tuple(fetches)
    return None


def _expand_sparse_feeds(feed_dict):
    """The (key, value) pairs of feed_dict, a SparseTensor key standing for its three tensors:
    as TF, its value -- a SparseTensorValue or any (indices, values, dense_shape) triple -- is
    zipped with [sp.indices, sp.values, sp.dense_shape]."""
    for key, value in feed_dict.items():
        if isinstance(key, RaggedTensor):
            yield from _ragged_feeds(key, value)
            continue
        if not isinstance(key, SparseTensor):
            yield key, value
            continue
        if isinstance(value, (Tensor, SparseTensor)):
            raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed "
                            "values for a SparseTensor are a tf.SparseTensorValue or a tuple "
                            f"(indices, values, dense_shape); got {value} for the feed with "
                            f"key {key}.")
        try:
            parts = list(value)
        except TypeError:
            raise TypeError(f"Cannot feed value {_short(value)} of type {type(value).__name__} "
                            f"to the SparseTensor of values {key.values.name!r}: feed a "
                            "tf.SparseTensorValue or a tuple (indices, values, dense_shape)."
                            ) from None
        yield from zip([key.indices, key.values, key.dense_shape], parts)


def _ragged_feeds(key, value):
    """A RaggedTensor key is fed, as in TF, with a tf.ragged.RaggedTensorValue: its flat_values
    and nested row_splits feed the key's (ops/ragged/)."""
    if not isinstance(value, RaggedTensorValue):
        raise TypeError(f"Cannot feed value {_short(value)} of type {type(value).__name__} to a "
                        "RaggedTensor: feed a tf.ragged.RaggedTensorValue, e.g. "
                        "tf.ragged.constant_value([[1, 2], [3]]).")
    if value.ragged_rank != key.ragged_rank:
        raise ValueError(f"Cannot feed a RaggedTensorValue of ragged_rank {value.ragged_rank} "
                         f"to a RaggedTensor of ragged_rank {key.ragged_rank}.")
    yield from zip((key.flat_values,) + key.nested_row_splits,
                   (value.flat_values,) + value.nested_row_splits)


def _as_result(value):
    if isinstance(value, np.ndarray):
        return value[()] if value.ndim == 0 else value
    if isinstance(value, (np.generic, bytes)):
        return value
    return np.asarray(value)[()] if np.ndim(value) == 0 else np.asarray(value)


def _short(value):
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."

