"""Variables -- mirrors TensorFlow 1.x's `tf.Variable` (RefVariable, ops/variables.py).

`w = tf.Variable(tf.zeros([784, 10]), name='weights')` adds four ops, all in name scope 'weights':

    weights               VariableV2  the variable itself (a reference to its storage)
    weights/initial_value Const       (or the op that computes the initial value)
    weights/Assign        Assign      the initializer: weights = initial_value
    weights/read          Identity    the value other ops consume, colocated with the variable

Where `weights` is placed (e.g. on /job:ps/task:0) decides which task stores it; every task
that names it in its graph reads and writes that one copy.

`synchronization=` and `aggregation=` (tf.VariableSynchronization, tf.VariableAggregation) say
how the copies of a *mirrored* variable -- one per replica, under a tf.distribute strategy --
are kept in step and combined. The sandbox shares one copy between all workers instead, so it
checks them and keeps them on the variable, as TF does without a strategy; ON_READ makes a
variable non-trainable by default.
"""
import enum
import inspect

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.default_session import session_for
from ..framework.graph import GraphKeys, get_default_graph
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_conversion_registry import register_tensor_conversion_function
from ..framework.tensor_shape import TensorShape
from . import state_ops
from .control_flow_ops import group, identity, no_op

__all__ = ["Variable", "global_variables", "all_variables", "trainable_variables",
           "local_variables", "model_variables", "moving_average_variables",
           "variables_initializer", "initialize_variables", "global_variables_initializer",
           "initialize_all_variables", "local_variables_initializer",
           "initialize_local_variables", "report_uninitialized_variables",
           "is_variable_initialized", "assert_variables_initialized", "VariableAggregation",
           "VariableSynchronization"]


class VariableSynchronization(enum.Enum):
    """When a distributed variable's copies are made equal: AUTO (the strategy chooses),
    NONE (one copy), ON_WRITE (on every write), ON_READ (when read across replicas)."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How the replicas' updates of a distributed variable are combined."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3            # TF 1.x's old name, an alias of ONLY_FIRST_REPLICA


def validate_synchronization_aggregation_trainable(synchronization, aggregation, trainable,
                                                   name):
    """(synchronization, aggregation, trainable) checked and defaulted, as TF's function of
    this name: None -> AUTO and NONE; trainable None -> not ON_READ."""
    try:
        aggregation = VariableAggregation(
            VariableAggregation.NONE if aggregation is None else aggregation)
    except ValueError:
        raise ValueError(f"Invalid variable aggregation mode: {aggregation} for variable: "
                         f"{name}") from None
    try:
        synchronization = VariableSynchronization(
            VariableSynchronization.AUTO if synchronization is None else synchronization)
    except ValueError:
        raise ValueError(f"Invalid variable synchronization mode: {synchronization} for "
                         f"variable: {name}") from None
    if trainable is None:
        trainable = synchronization != VariableSynchronization.ON_READ
    return synchronization, aggregation, trainable


class SaveSliceInfo:
    """Which slice of a bigger, partitioned variable a Variable holds -- TF's
    Variable.SaveSliceInfo. A shard `emb/part_1` of a [10, 4] variable `emb` cut in two along
    axis 0 has full_name 'emb', full_shape [10, 4], var_offset [5, 0], var_shape [5, 4]; the
    Saver writes it into the checkpoint as that slice of 'emb' (spec '10 4 5,5:0,4')."""

    def __init__(self, full_name=None, full_shape=None, var_offset=None, var_shape=None):
        self.full_name = full_name
        self.full_shape = list(full_shape)
        self.var_offset = list(var_offset)
        self.var_shape = list(var_shape)

    @property
    def spec(self):
        """TF's shape-and-slice string: the full shape, then 'offset,length' per axis."""
        return (" ".join(str(d) for d in self.full_shape) + " " +
                ":".join(f"{o},{n}" for o, n in zip(self.var_offset, self.var_shape)))

    def __repr__(self):
        return f"<SaveSliceInfo {self.full_name!r} {self.spec!r}>"


class _VariableMetaclass(type):
    """Makes `tf.Variable(...)` go through the variable creators of the default graph's
    `tf.variable_creator_scope`s, innermost first (TF's VariableMetaclass): each is called as
    creator(next_creator, **kwargs) with every argument of Variable by name, and
    next_creator(**kwargs) calls the next one out -- the last one makes the variable."""

    def __call__(cls, *args, **kwargs):
        stack = variable_creator_stack(get_default_graph())
        if not stack:
            return super().__call__(*args, **kwargs)
        bound = inspect.signature(cls.__init__).bind(None, *args, **kwargs)
        bound.apply_defaults()
        arguments = {k: v for k, v in bound.arguments.items() if k != "self"}

        def creator_at(depth):
            def next_creator(**kw):
                if depth < 0:
                    return type.__call__(cls, **kw)
                return stack[depth](creator_at(depth - 1), **kw)
            return next_creator

        return creator_at(len(stack) - 1)(**arguments)


def variable_creator_stack(graph):
    """The graph's variable creators (tf.variable_creator_scope), outermost first."""
    return graph.__dict__.setdefault("_variable_creator_stack", [])


class Variable(metaclass=_VariableMetaclass):
    """A tensor whose value persists across Session.run calls, stored on the task it is
    placed on."""

    SaveSliceInfo = SaveSliceInfo
    _save_slice_info = None

    def __init__(self, initial_value=None, trainable=None, collections=None,
                 validate_shape=True, caching_device=None, name=None, variable_def=None,
                 dtype=None, expected_shape=None, import_scope=None, constraint=None,
                 use_resource=None, synchronization=None, aggregation=None, shape=None):
        if variable_def is not None:
            raise NotImplementedError("Variable(variable_def=...) is not supported by the sandbox")
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        self._synchronization, self._aggregation, trainable = \
            validate_synchronization_aggregation_trainable(synchronization, aggregation,
                                                           trainable, name)
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        collections = list(collections)
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        self._trainable = trainable
        self._constraint = constraint
        g = get_default_graph()
        # TF builds variables in an "init scope": outer control dependencies do not apply.
        with g.control_dependencies(None), g.name_scope(name or "Variable") as scope:
            true_name = scope[:-1]
            if callable(initial_value):
                # Initial values from a function are colocated with the variable, as in TF.
                with g._attr_scope({"_class": [f"loc:@{true_name}".encode()]}), \
                        g.name_scope("Initializer"), g.device(None):
                    initial_value = convert_to_tensor(initial_value(), dtype=dtype,
                                                      name="initial_value")
            else:
                initial_value = convert_to_tensor(initial_value, dtype=dtype,
                                                  name="initial_value")
            self._initial_value = initial_value
            value_shape = initial_value.get_shape()
            if shape is not None:
                value_shape = value_shape.merge_with(shape) if validate_shape else TensorShape(shape)
            if validate_shape and not value_shape.is_fully_defined():
                raise ValueError(f"initial_value must have a shape specified: {initial_value}. "
                                 "Give the variable a fully known initial shape, or pass "
                                 "validate_shape=False.")
            if not validate_shape and shape is None:
                value_shape = TensorShape(None)
            with g._init_scope_devices():
                self._variable = state_ops.variable_op_v2(
                    value_shape, initial_value.dtype.base_dtype, name=true_name + "/")
            with g.colocate_with(self._variable.op):
                self._initializer_op = state_ops.assign(
                    self._variable, initial_value, validate_shape=validate_shape,
                    name="Assign").op
                if caching_device is None:
                    self._snapshot = identity(self._variable, name="read")
            if caching_device is not None:
                with g.device(caching_device):
                    self._snapshot = identity(self._variable, name="read")
        g.add_to_collections(collections, self)
        self._graph = g

    # -- identity -------------------------------------------------------------
    @property
    def name(self):
        return self._variable.name

    @property
    def op(self):
        return self._variable.op

    @property
    def dtype(self):
        return self._variable.dtype

    @property
    def shape(self):
        return self._variable.get_shape()

    def get_shape(self):
        return self._variable.get_shape()

    @property
    def device(self):
        return self._variable.device

    @property
    def graph(self):
        return self._graph

    @property
    def trainable(self):
        return self._trainable

    @property
    def synchronization(self):
        return self._synchronization

    @property
    def aggregation(self):
        return self._aggregation

    @property
    def constraint(self):
        return self._constraint

    # -- initialization ---------------------------------------------------------
    @property
    def initializer(self):
        return self._initializer_op

    @property
    def initial_value(self):
        return self._initial_value

    def initialized_value(self):
        """The value, initializing the variable first if it is not yet (TF's cond is replaced
        by a control dependency on the initializer)."""
        with self._graph.control_dependencies([self._initializer_op]):
            return identity(self._variable)

    # -- reading and writing --------------------------------------------------
    def value(self):
        """The `name/read` tensor: the variable's value as other ops consume it."""
        return self._snapshot

    def read_value(self):
        """A new read of the variable, made inside the current control-dependency scope."""
        return identity(self._variable, name="read")

    def _ref(self):
        return self._variable

    def _as_graph_element(self):
        return self._variable

    def eval(self, session=None):
        return self._variable.eval(session=session)

    def assign(self, value, use_locking=False, name=None, read_value=True):
        result = state_ops.assign(self._variable, value, use_locking=use_locking, name=name)
        return result if read_value else result.op

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        result = state_ops.assign_add(self._variable, delta, use_locking=use_locking, name=name)
        return result if read_value else result.op

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        result = state_ops.assign_sub(self._variable, delta, use_locking=use_locking, name=name)
        return result if read_value else result.op

    # -- sparse updates and reads (TF 1.15's RefVariable methods) ----------------------------
    def _scatter(self, fn, sparse_delta, use_locking, name, method):
        from ..framework.indexed_slices import IndexedSlices
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f"sparse_delta is not IndexedSlices: {sparse_delta!r} (Variable."
                            f"{method} of {self.name!r} takes tf.IndexedSlices(values, "
                            "indices)).")
        return fn(self._variable, sparse_delta.indices, sparse_delta.values,
                  use_locking=use_locking, name=name)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """Adds sparse_delta.values to the rows sparse_delta.indices of this variable."""
        return self._scatter(state_ops.scatter_add, sparse_delta, use_locking, name,
                             "scatter_add")

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_sub, sparse_delta, use_locking, name,
                             "scatter_sub")

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_mul, sparse_delta, use_locking, name,
                             "scatter_mul")

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_div, sparse_delta, use_locking, name,
                             "scatter_div")

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_max, sparse_delta, use_locking, name,
                             "scatter_max")

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_min, sparse_delta, use_locking, name,
                             "scatter_min")

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_update, sparse_delta, use_locking, name,
                             "scatter_update")

    def batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.batch_scatter_update, sparse_delta, use_locking, name,
                             "batch_scatter_update")

    def scatter_nd_add(self, indices, updates, name=None):
        return state_ops.scatter_nd_add(self._variable, indices, updates, use_locking=True,
                                        name=name)

    def scatter_nd_sub(self, indices, updates, name=None):
        return state_ops.scatter_nd_sub(self._variable, indices, updates, use_locking=True,
                                        name=name)

    def scatter_nd_update(self, indices, updates, name=None):
        return state_ops.scatter_nd_update(self._variable, indices, updates, use_locking=True,
                                           name=name)

    def sparse_read(self, indices, name=None):
        """The rows `indices` of the variable (tf.gather)."""
        from .indexing_ops import gather
        return gather(self._variable, indices, name=name)

    def gather_nd(self, indices, name=None):
        from .indexing_ops import gather_nd
        return gather_nd(self._variable, indices, name=name)

    def count_up_to(self, limit):
        """Adds one to this integer variable until it reaches `limit` (tf.count_up_to)."""
        from .dataset_counter_ops import count_up_to
        return count_up_to(self._variable, limit)

    def experimental_ref(self):
        """A hashable reference to this variable (`.deref()` gives it back)."""
        from ..framework.tensor import Reference
        return Reference(self)

    def load(self, value, session=None):
        """Writes `value` into the variable through `session` (no new op per call)."""
        session = session_for(session, self._graph, f"load variable {self.name!r}")
        session.run(self._initializer_op, {self._initial_value: value})

    def _set_save_slice_info(self, save_slice_info):
        self._save_slice_info = save_slice_info

    def _get_save_slice_info(self):
        return self._save_slice_info

    def set_shape(self, shape):
        self._variable.set_shape(shape)
        self._snapshot.set_shape(shape)

    def __repr__(self):
        return (f"<tf.Variable '{self.name}' shape={self.get_shape()} "
                f"dtype={self.dtype.name}>")

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __iter__(self):
        raise TypeError(f"Variable {self.name!r} is not iterable.")

    def __bool__(self):
        raise TypeError(f"Using a tf.Variable ({self.name}) as a Python `bool` is not allowed.")

    __array_priority__ = 100


def _variable_to_tensor(v, dtype=None, name=None, as_ref=False):
    if as_ref:
        tensor = v._ref()
    elif _waits_for_control_inputs(v):
        tensor = v.read_value()         # read after them, as TF's aliased reads see it
    else:
        tensor = v.value()
    if dtype is not None and not dtype.is_compatible_with(tensor.dtype):
        raise ValueError(f"Incompatible type conversion requested to type {dtype.name} for "
                         f"variable of type {tensor.dtype.name} ({v.name}).")
    return tensor


def _waits_for_control_inputs(v):
    """Whether an op made here must wait for control inputs (`with tf.control_dependencies`).

    In TF 1.15 `v + 0` reads `v/read`, whose output shares the variable's memory: an op made
    under control_dependencies([tf.assign_add(v, 1)]) runs after the update and so sees it --
    the pattern `with tf.control_dependencies([train_op]): ema.apply(...)` counts on it. The
    sandbox's reads copy the value when they run, so there a read made for such an op is a new
    one, made in the scope, that waits too (what TF 2's resource variables do)."""
    graph = v._variable.graph
    return graph is get_default_graph() and bool(
        graph._control_dependencies_stack and
        graph._control_dependencies_for_inputs([v._variable.op]))


register_tensor_conversion_function(Variable, _variable_to_tensor)


def _overload(operator):
    def _run_op(a, *args, **kwargs):
        return getattr(Tensor, operator)(_variable_to_tensor(a), *args, **kwargs)
    _run_op.__name__ = operator
    setattr(Variable, operator, _run_op)


for _operator in Tensor.OVERLOADABLE_OPERATORS:
    _overload(_operator)


# -- collections and initializers ---------------------------------------------------

def global_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


all_variables = global_variables


def trainable_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def local_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    """One op that runs the initializers of `var_list`."""
    if var_list:
        return group(*[v.initializer for v in var_list], name=name)
    return no_op(name=name)


initialize_variables = variables_initializer


def global_variables_initializer():
    return variables_initializer(global_variables())


initialize_all_variables = global_variables_initializer


def local_variables_initializer():
    return variables_initializer(local_variables())


initialize_local_variables = local_variables_initializer


def is_variable_initialized(variable):
    return state_ops.is_variable_initialized(variable)


class UninitializedNames(OpDef):
    """Given one 'is initialized' flag per variable, outputs the names of those that are not."""
    differentiable = False

    def kernel(*flags, names):
        return np.array([n.encode() for n, ok in zip(names, flags) if not ok], dtype=object)


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A 1-D string tensor with the names of the variables that are not initialized yet.
    Each check runs on the task that holds its variable."""
    if var_list is None:
        var_list = global_variables() + local_variables()
    g = get_default_graph()
    with g.name_scope(name) as scope:
        flags = []
        for v in var_list:
            with g.colocate_with(v.op):
                flags.append(state_ops.is_variable_initialized(v))
        return apply_op("UninitializedNames", flags, {"names": [v.op.name for v in var_list]},
                        name=scope, output_dtypes=[_dtypes.string], graph=g)


def assert_variables_initialized(var_list=None):
    from .control_flow_ops import group as _group
    if var_list is None:
        var_list = global_variables() + local_variables()
    return _group(*[state_ops.is_variable_initialized(v) for v in var_list],
                  name="assert_variables_initialized")

