"""keras.backend's core -- the state TensorFlow 1.15's python/keras/backend.py keeps in graph
mode: the session Keras runs its ops with, the learning phase, variables and their values,
name counters, and the config (floatx, epsilon, image_data_format). keras/backend.py
re-exports it with the tensor functions (backend_ops.py) and the network ones (backend_nn.py),
which build on it."""
import contextlib

import numpy as np

from ..client.session import Session
from ..framework import dtypes as _dtypes
from ..framework.default_session import get_default_session
from ..framework.graph import GraphKeys, get_default_graph, reset_default_graph
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops import constant_op, state_ops
from ..ops import variables as _variables

__all__ = ["get_session", "set_session", "clear_session", "learning_phase",
           "set_learning_phase", "placeholder", "variable", "eval", "get_value", "set_value",
           "batch_get_value", "batch_set_value", "floatx", "set_floatx", "epsilon",
           "set_epsilon", "image_data_format", "set_image_data_format", "get_uid",
           "reset_uids", "int_shape", "ndim", "dtype", "count_params", "constant",
           "is_placeholder", "zeros", "ones", "get_graph", "learning_phase_scope",
           "manual_variable_initialization", "backend"]

_FLOATX = "float32"
_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = "channels_last"
_SESSION = None                        # the session Keras made or was given (set_session)
_STATE_KEY = ("__keras_backend_state",)   # a graph collection holding this graph's state


def _state(graph=None):
    """This graph's Keras state: name counters, the learning phase, the initialized set."""
    graph = graph or get_default_graph()
    found = graph.get_collection(_STATE_KEY)
    if not found:
        graph.add_to_collection(_STATE_KEY, {"uids": {}, "learning_phase": None,
                                             "initialized": {}, "assign": {},
                                             "history": {}})
        found = graph.get_collection(_STATE_KEY)
    return found[0]


# -- configuration ---------------------------------------------------------------------------

def backend():
    """The name of the backend: always 'tensorflow'."""
    return "tensorflow"


def floatx():
    return _FLOATX


def set_floatx(value):
    global _FLOATX
    if value not in ("float16", "float32", "float64"):
        raise ValueError("Unknown floatx type: " + str(value))
    _FLOATX = str(value)


def epsilon():
    return _EPSILON


def set_epsilon(value):
    global _EPSILON
    _EPSILON = float(value)


def image_data_format():
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format):
    global _IMAGE_DATA_FORMAT
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("Unknown data_format: " + str(data_format))
    _IMAGE_DATA_FORMAT = str(data_format)


# -- names -----------------------------------------------------------------------------------

def get_uid(prefix=""):
    """1, 2, 3 ... per prefix and graph (Keras's get_uid)."""
    uids = _state()["uids"]
    uids[prefix] = uids.get(prefix, 0) + 1
    return uids[prefix]


def reset_uids():
    _state()["uids"].clear()


def unique_object_name(base):
    """'dense', 'dense_1', 'dense_2' ... in this graph (zero-based, as Keras names layers)."""
    uid = get_uid(base)
    return base if uid == 1 else f"{base}_{uid - 1}"


# -- sessions --------------------------------------------------------------------------------

def get_graph():
    return get_default_graph()


def get_session():
    """The default session if one is entered (`with sess.as_default()`), else the one Keras
    keeps for the default graph (made on first use); its Keras variables are initialized."""
    global _SESSION
    graph = get_default_graph()
    session = get_default_session()
    if session is None or session.graph is not graph:
        if _SESSION is None or _SESSION.graph is not graph or getattr(_SESSION, "_closed", False):
            _SESSION = Session(graph=graph)
        session = _SESSION
    if not _MANUAL_VAR_INIT:
        _initialize_variables(session)
    return session


def set_session(session):
    """Keras runs its models with `session` from now on (e.g. one connected to a cluster)."""
    global _SESSION
    _SESSION = session


def clear_session():
    """A new, empty default graph: new models, names from 'dense' again, a new session."""
    global _SESSION
    _SESSION = None
    reset_default_graph()


def _initialize_variables(session):
    """Runs the initializers of the graph's global variables that no run has initialized,
    once each (TF 1.15's _initialize_variables asks is_variable_initialized the same way)."""
    graph = session.graph
    done = _state(graph)["initialized"].setdefault(id(session), set())
    candidates = [v for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES) if id(v) not in done]
    if not candidates:
        return
    with graph.as_default():
        flags = session.run([state_ops.is_variable_initialized(v) for v in candidates])
    todo = [v.initializer for v, flag in zip(candidates, flags) if not flag]
    if todo:
        session.run(todo)
    done.update(id(v) for v in candidates)


# -- the learning phase ----------------------------------------------------------------------

def learning_phase():
    """The bool placeholder 'keras_learning_phase' of the default graph (default False), or
    the 0/1 that set_learning_phase fixed."""
    state = _state()
    if state["learning_phase"] is None:
        with get_default_graph().name_scope(""):
            state["learning_phase"] = constant_op.placeholder_with_default(
                False, shape=(), name="keras_learning_phase")
    return state["learning_phase"]


def set_learning_phase(value):
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    _state()["learning_phase"] = bool(value)


@contextlib.contextmanager
def learning_phase_scope(value):
    """Within the block, learning_phase() is `value` (0 or 1)."""
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    state = _state()
    previous = state["learning_phase"]
    state["learning_phase"] = bool(value)
    try:
        yield
    finally:
        state["learning_phase"] = previous


_MANUAL_VAR_INIT = False


def manual_variable_initialization(value):
    """True: get_session() no longer initializes variables (the user runs the initializers)."""
    global _MANUAL_VAR_INIT
    _MANUAL_VAR_INIT = bool(value)


def _learning_phase_feed(value):
    """{placeholder: value} for a run, or {} when set_learning_phase fixed it."""
    phase = learning_phase()
    return {phase: bool(value)} if isinstance(phase, Tensor) else {}


# -- tensors and variables ---------------------------------------------------------------------

def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None):
    if sparse:
        raise NotImplementedError("sparse placeholders are not in the sandbox's keras")
    dtype = dtype or floatx()
    if shape is None and ndim:
        shape = (None,) * ndim
    return constant_op.placeholder(dtype, shape=shape, name=name)


def is_placeholder(x):
    return isinstance(x, Tensor) and x.op.type in ("Placeholder", "PlaceholderWithDefault")


def variable(value, dtype=None, name=None, constraint=None):
    dtype = dtype or floatx()
    value = np.asarray(value, dtype=_dtypes.as_dtype(dtype).as_numpy_dtype)
    return _variables.Variable(value, dtype=dtype, name=name, constraint=constraint)


def constant(value, dtype=None, shape=None, name=None):
    return constant_op.constant(value, dtype=dtype or floatx(), shape=shape, name=name)


def zeros(shape, dtype=None, name=None):
    return variable(np.zeros(shape), dtype, name)


def ones(shape, dtype=None, name=None):
    return variable(np.ones(shape), dtype, name)


def int_shape(x):
    shape = x.get_shape()
    return None if shape.ndims is None else tuple(shape.as_list())


def ndim(x):
    return x.get_shape().ndims


def dtype(x):
    return x.dtype.base_dtype.name


def count_params(x):
    return int(np.prod(x.get_shape().as_list()))


def eval(x):                                           # noqa: A001 (Keras's name)
    return get_value(convert_to_tensor(x) if not isinstance(x, _variables.Variable) else x)


def get_value(x):
    return get_session().run(x)


def batch_get_value(tensors):
    return get_session().run(list(tensors)) if tensors else []


def set_value(x, value):
    batch_set_value([(x, value)])


def batch_set_value(tuples):
    """Writes numpy values into variables with one assign op per variable, made once and fed
    through a placeholder (as Keras does)."""
    tuples = list(tuples)
    if not tuples:
        return
    session = get_session()
    graph = session.graph
    cache = _state(graph)["assign"]
    ops, feed = [], {}
    with graph.as_default():
        for x, value in tuples:
            if id(x) not in cache:
                base = x.dtype.base_dtype
                holder = constant_op.placeholder(base, shape=x.get_shape())
                cache[id(x)] = (holder, state_ops.assign(x, holder))
            holder, op = cache[id(x)]
            value = np.asarray(value, dtype=holder.dtype.as_numpy_dtype)
            if tuple(value.shape) != tuple(x.get_shape().as_list()):
                raise ValueError(f"Cannot assign a value of shape {value.shape} to variable "
                                 f"{x.name} of shape {tuple(x.get_shape().as_list())}")
            ops.append(op)
            feed[holder] = value
    session.run(ops, feed)
