"""Variable scopes -- mirrors TensorFlow 1.x's `tf.get_variable` and `tf.variable_scope`
(python/ops/variable_scope.py).

`tf.Variable(...)` always makes a new variable. `tf.get_variable(name, shape)` looks the name up
first, so that model code can *share* weights: build the same layer twice in
`tf.variable_scope('layer1', reuse=...)` and both builds use the one variable 'layer1/w'.

  * Each graph keeps a variable store (in a graph collection): full name -> Variable.
  * A variable scope prefixes variable names ('layer1/w') and carries defaults for the
    get_variable calls inside it: initializer, regularizer, dtype, reuse ...
  * reuse=None/False: get_variable must CREATE (an existing name is an error);
    reuse=True: it must FIND (a missing name is an error); tf.AUTO_REUSE: either.
    Reuse is inherited by nested scopes and cannot be turned off inside a reusing scope.
  * `variable_scope('layer1')` also opens a name scope, so the other ops built inside get
    names like 'layer1/MatMul' (the name scope is made unique: 'layer1_1/...' the second
    time, while the variables stay 'layer1/w').
  * Without an initializer, floats use glorot_uniform and integers/bools zeros.
  * With a partitioner (an argument, or the scope's), get_variable cuts the variable into
    shards 'emb/part_0', 'emb/part_1' ... and returns them as one PartitionedVariable
    (ops/partitioned_variables.py); the store remembers it under 'emb'.
"""
import contextlib
import copy
import enum
import functools
import inspect
import os
import traceback

from ..framework import dtypes as _dtypes
from ..framework.graph import Graph, GraphKeys, get_default_graph
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import as_shape
from . import init_ops
from . import partitioned_variables as _pv
from .variables import SaveSliceInfo, Variable, VariableSynchronization

__all__ = ["get_variable", "get_local_variable", "variable_scope", "get_variable_scope",
           "VariableScope", "AUTO_REUSE", "no_regularizer", "create_partitioned_variables",
           "variable_op_scope", "variable_creator_scope"]


class _ReuseMode(enum.Enum):
    """Reuse modes beyond True/None: AUTO_REUSE creates a variable if it does not exist
    and returns it otherwise."""
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE

_VARSTORE_KEY = ("__variable_store",)      # graph collections TF keeps them in
_VARSCOPESTORE_KEY = ("__varscope",)
_SANDBOX_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def no_regularizer(_):
    """Use this to turn off the regularizer of the enclosing scope for one variable."""
    return None


# -- the variable store --------------------------------------------------------------

def _takes_no_arguments(fn):
    """True when `fn` can be called with no arguments (TF accepts such a function as the
    initializer of a variable whose shape is not given)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in params)


def _accepts(fn, arg):
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return arg in params or any(p.kind == p.VAR_KEYWORD for p in params.values())


class _VariableStore:
    """The variables tf.get_variable made in one graph, by full name."""

    def __init__(self):
        self._vars = {}
        self._partitioned_vars = {}   # name -> PartitionedVariable
        self._defined_at = {}      # name -> where the user's code created it

    def get_variable(self, name, shape=None, dtype=_dtypes.float32, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, custom_getter=None, constraint=None,
                     synchronization=None, aggregation=None, **kwargs):
        if custom_getter is not None and not callable(custom_getter):
            raise ValueError(f"Passed a custom_getter which is not callable: {custom_getter}")
        dtype = getattr(dtype, "base_dtype", dtype)
        if trainable is None:       # TF's _get_trainable_value: ON_READ is not trained
            trainable = synchronization != VariableSynchronization.ON_READ

        def _true_getter(name, shape=None, dtype=_dtypes.float32, initializer=None,
                         regularizer=None, reuse=None, trainable=None, collections=None,
                         caching_device=None, partitioner=None, validate_shape=True,
                         use_resource=None, constraint=None, synchronization=None,
                         aggregation=None, **_ignored):
            if partitioner is not None:
                return self._get_partitioned_variable(
                    name, partitioner, shape=shape, dtype=dtype, initializer=initializer,
                    regularizer=regularizer, reuse=reuse, trainable=trainable,
                    collections=collections, caching_device=caching_device,
                    validate_shape=validate_shape, constraint=constraint)
            if f"{name}/part_0" in self._vars:
                raise ValueError(f"No partitioner was provided, but a partitioned version of "
                                 f"the variable was found: {name}/part_0. Perhaps a variable "
                                 "of the same name was already created with partitioning?")
            return self._get_single_variable(
                name, shape=shape, dtype=dtype, initializer=initializer,
                regularizer=regularizer, reuse=reuse, trainable=trainable,
                collections=collections, caching_device=caching_device,
                validate_shape=validate_shape, constraint=constraint,
                synchronization=synchronization, aggregation=aggregation)

        args = dict(name=name, shape=shape, dtype=dtype, initializer=initializer,
                    regularizer=regularizer, reuse=reuse, trainable=trainable,
                    collections=collections, caching_device=caching_device,
                    partitioner=partitioner, validate_shape=validate_shape,
                    use_resource=use_resource)
        modes = dict(synchronization=synchronization, aggregation=aggregation)
        if custom_getter is None:
            return _true_getter(constraint=constraint, **args, **modes)
        if _accepts(custom_getter, "constraint"):
            args["constraint"] = constraint
        args.update((k, v) for k, v in modes.items() if _accepts(custom_getter, k))
        return custom_getter(getter=_true_getter, **args)

    def _get_partitioned_variable(self, name, partitioner, shape=None, dtype=_dtypes.float32,
                                  initializer=None, regularizer=None, reuse=None,
                                  trainable=True, collections=None, caching_device=None,
                                  validate_shape=True, constraint=None):
        """The shards of `name` (found, or made now, one Variable per slice) as one
        PartitionedVariable -- TF's _VariableStore._get_partitioned_variable."""
        from ..framework.graph import name_scope
        from ..framework.tensor import Tensor
        from .slicing_ops import slice as slice_op
        initializing_from_value = isinstance(initializer, Tensor)
        if name in self._vars:
            raise ValueError(f"A partitioner was provided, but an unpartitioned version of the "
                             f"variable was found: {name}.  Perhaps a variable of the same "
                             "name was already created without partitioning?")
        dtype = _dtypes.as_dtype(dtype)
        shape = as_shape(shape)
        if initializing_from_value:
            shape = shape.merge_with(initializer.get_shape())
        partitions = _pv.call_partitioner(partitioner, shape, dtype)
        if name in self._partitioned_vars:
            if reuse is False:
                raise ValueError(f"Partitioned variable with name {name} already exists. Did "
                                 "you mean to set reuse=True or reuse=tf.AUTO_REUSE in "
                                 "VarScope?")
            found = self._partitioned_vars[name]
            if not shape.is_compatible_with(found.get_shape()):
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified "
                                 f"shape {shape} and found shape {found.get_shape()}.")
            if not dtype.is_compatible_with(found.dtype):
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified "
                                 f"dtype {dtype.name} and found dtype {found.dtype.name}.")
            if found._get_partitions() != partitions:
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified "
                                 f"partitions {partitions} and found partitions "
                                 f"{found._get_partitions()}.")
            return found
        if reuse is True:
            raise ValueError(f"PartitionedVariable {name} does not exist, or was not created "
                             "with tf.get_variable(). Did you mean to set reuse=False or "
                             "reuse=tf.AUTO_REUSE in VarScope?")
        slice_dim, num_slices = _pv.slice_dim_and_num_slices(partitions)
        if f"{name}/part_0" in self._vars:
            if f"{name}/part_{num_slices - 1}" not in self._vars:
                raise ValueError(f"Partitioner returned a different partitioning than what was "
                                 f"already found.  Partitioner returned {num_slices} shards, "
                                 f"and shard {name}/part_0 was found, but "
                                 f"{name}/part_{num_slices - 1} was not.")
            if f"{name}/part_{num_slices}" in self._vars:
                raise ValueError(f"Partitioner returned a different partitioning than what was "
                                 f"already found.  Partitioner returned {num_slices} shards, "
                                 f"and shard {name}/part_0 was found, but so was the extra "
                                 f"shard {name}/part_{num_slices}.")
        shards = []
        full_shape = shape.as_list()
        for i, (offset, part_shape) in enumerate(_pv.iter_slices(full_shape, num_slices,
                                                                 slice_dim)):
            info = _pv.PartitionInfo(full_shape=full_shape, var_offset=offset)
            part_name = f"{name}/part_{i}"
            with name_scope(part_name + "/PartitionedInitializer"):
                if initializer is None:
                    init, init_shape = self._default_initializer(name, dtype), part_shape
                elif callable(initializer):
                    init, init_shape = initializer, part_shape
                else:                   # a value for the whole variable: this shard's slice
                    value = convert_to_tensor(initializer, dtype=None if initializing_from_value
                                              else dtype)
                    init, init_shape = slice_op(value, offset, part_shape), None
                    dtype = init.dtype.base_dtype
            with name_scope(None):
                shard = self._get_single_variable(
                    part_name, shape=init_shape, dtype=dtype, initializer=init,
                    regularizer=regularizer, reuse=reuse, trainable=trainable,
                    collections=collections, caching_device=caching_device,
                    validate_shape=validate_shape, constraint=constraint, partition_info=info)
            shard._set_save_slice_info(SaveSliceInfo(name, full_shape, offset, part_shape))
            shards.append(shard)
        partitioned = _pv.PartitionedVariable(name=name, shape=shape, dtype=dtype,
                                              variable_list=shards, partitions=partitions)
        self._partitioned_vars[name] = partitioned
        return partitioned

    def _get_single_variable(self, name, shape=None, dtype=_dtypes.float32, initializer=None,
                             regularizer=None, reuse=None, trainable=True, collections=None,
                             caching_device=None, validate_shape=True, constraint=None,
                             partition_info=None, synchronization=None, aggregation=None):
        initializing_from_value = initializer is not None and not callable(initializer)
        if shape is not None and initializing_from_value:
            raise ValueError("If initializer is a constant, do not specify shape.")
        dtype = _dtypes.as_dtype(dtype)
        shape = as_shape(shape)

        if name in self._vars:                      # -- an existing variable
            if reuse is False:
                where = "".join(traceback.format_list(self._defined_at.get(name, [])))
                raise ValueError(f"Variable {name} already exists, disallowed. Did you mean to "
                                 "set reuse=True or reuse=tf.AUTO_REUSE in VarScope? "
                                 f"Originally defined at:\n\n{where}")
            found = self._vars[name]
            if not shape.is_compatible_with(found.get_shape()):
                raise ValueError(f"Trying to share variable {name}, but specified shape {shape} "
                                 f"and found shape {found.get_shape()}.")
            if not dtype.is_compatible_with(found.dtype):
                raise ValueError(f"Trying to share variable {name}, but specified dtype "
                                 f"{dtype.name} and found dtype {found.dtype.base_dtype.name}.")
            return found

        if reuse is True:                           # -- a new variable
            raise ValueError(f"Variable {name} does not exist, or was not created with "
                             "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                             "VarScope?")
        if initializer is None:
            initializer = self._default_initializer(name, dtype)
        variable_shape = None
        if initializing_from_value:
            init_val, variable_dtype = initializer, None
        else:
            if inspect.isclass(initializer):
                initializer = initializer()
            if shape.is_fully_defined():
                dims = shape.as_list()
                if partition_info is not None and _accepts(initializer, "partition_info"):
                    init_val = functools.partial(initializer, dims, dtype=dtype,
                                                 partition_info=partition_info)
                else:
                    init_val = functools.partial(initializer, dims, dtype=dtype)
                variable_dtype = dtype.base_dtype
                variable_shape = shape if validate_shape else None
            elif _takes_no_arguments(initializer):
                init_val, variable_dtype = initializer, None
            else:
                raise ValueError("The initializer passed is not valid. It should be a callable "
                                 "with no arguments and the shape should not be provided or an "
                                 "instance of `tf.keras.initializers.*' and `shape` should be "
                                 "fully defined.")
        g = get_default_graph()
        # Variables ignore the control dependencies around them (TF's init_scope).
        with g.control_dependencies(None):
            v = Variable(initial_value=init_val, name=name, trainable=trainable,
                         collections=collections, caching_device=caching_device,
                         dtype=variable_dtype, validate_shape=validate_shape,
                         constraint=constraint, shape=variable_shape,
                         synchronization=synchronization, aggregation=aggregation)
        self._vars[name] = v
        self._defined_at[name] = [f for f in traceback.extract_stack()[::-1]
                                  if not f.filename.startswith(_SANDBOX_DIR)][:5]
        if regularizer:
            with g.colocate_with(v), g.name_scope(name + "/Regularizer/"), \
                    g.control_dependencies(None):
                loss = regularizer(v)
            if loss is not None:
                g.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
        return v

    @staticmethod
    def _default_initializer(name, dtype):
        if dtype.is_floating:
            return init_ops.glorot_uniform_initializer()
        if dtype.is_integer or dtype.is_unsigned or dtype.is_bool or dtype == _dtypes.string:
            return init_ops.zeros_initializer()
        raise ValueError(f"An initializer for variable {name} of {dtype.base_dtype} is required")


def _get_default_variable_store():
    graph = get_default_graph()
    while getattr(graph, "outer", None) is not None:
        graph = graph.outer     # a loop's or cond's body (ops/func_graph.py) finds the
                                # variables of the graph around it, as TF's FuncGraph does
    store = graph.get_collection(_VARSTORE_KEY)
    if store:
        return store[0]
    store = _VariableStore()
    graph.add_to_collection(_VARSTORE_KEY, store)
    return store


# -- variable scopes ---------------------------------------------------------------------

class VariableScope:
    """A variable scope: a name prefix plus defaults for the get_variable calls inside it.
    Get the current one with tf.get_variable_scope(); enter one with tf.variable_scope."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, caching_device=None,
                 partitioner=None, custom_getter=None, name_scope="", dtype=_dtypes.float32,
                 use_resource=None, constraint=None):
        self._name = name
        self._initializer = initializer
        self._regularizer = regularizer
        self._reuse = reuse
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._name_scope = name_scope
        self._dtype = dtype
        self._use_resource = use_resource
        self._constraint = constraint

    # -- properties ----------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def original_name_scope(self):
        """The name scope opened when this scope was first entered ('layer1/')."""
        return self._name_scope

    @property
    def reuse(self):
        return self._reuse

    @property
    def initializer(self):
        return self._initializer

    @property
    def dtype(self):
        return self._dtype

    @property
    def use_resource(self):
        return self._use_resource

    @property
    def regularizer(self):
        return self._regularizer

    @property
    def caching_device(self):
        return self._caching_device

    @property
    def partitioner(self):
        return self._partitioner

    @property
    def custom_getter(self):
        return self._custom_getter

    @property
    def constraint(self):
        return self._constraint

    # -- setters ---------------------------------------------------------------
    def reuse_variables(self):
        """From now on, get_variable in this scope (and scopes opened inside it) reuses."""
        self._reuse = True

    def set_initializer(self, initializer):
        self._initializer = initializer

    def set_dtype(self, dtype):
        self._dtype = dtype

    def set_use_resource(self, use_resource):
        self._use_resource = use_resource

    def set_regularizer(self, regularizer):
        self._regularizer = regularizer

    def set_caching_device(self, caching_device):
        self._caching_device = caching_device

    def set_partitioner(self, partitioner):
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter):
        self._custom_getter = custom_getter

    # -- collections -------------------------------------------------------------
    def get_collection(self, name):
        return get_default_graph().get_collection(name, self._name + "/" if self._name else "")

    def trainable_variables(self):
        return self.get_collection(GraphKeys.TRAINABLE_VARIABLES)

    def global_variables(self):
        return self.get_collection(GraphKeys.GLOBAL_VARIABLES)

    def local_variables(self):
        return self.get_collection(GraphKeys.LOCAL_VARIABLES)

    # -- get_variable ------------------------------------------------------------
    def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, custom_getter=None, constraint=None,
                     synchronization=None, aggregation=None, **kwargs):
        """Gets an existing variable with this name or creates a new one, with this scope's
        defaults for every argument not given."""
        if regularizer is None:
            regularizer = self._regularizer
        if caching_device is None:
            caching_device = self._caching_device
        if partitioner is None:
            partitioner = self._partitioner
        if custom_getter is None:
            custom_getter = self._custom_getter
        if reuse is None:
            reuse = self._reuse
        if use_resource is None:
            use_resource = self._use_resource
        full_name = self.name + "/" + name if self.name else name
        # Variable names depend only on the variable scope, not on the name scope.
        with get_default_graph().name_scope(None):
            if dtype is not None and initializer is not None and not callable(initializer):
                init_dtype = convert_to_tensor(initializer).dtype.base_dtype
                if init_dtype != _dtypes.as_dtype(dtype):
                    raise ValueError(f"Initializer type '{init_dtype.name}' and explicit dtype "
                                     f"'{_dtypes.as_dtype(dtype).name}' don't match.")
            if initializer is None:
                initializer = self._initializer
            if constraint is None:
                constraint = self._constraint
            if dtype is None:
                dtype = self._dtype
            return var_store.get_variable(
                full_name, shape=shape, dtype=dtype, initializer=initializer,
                regularizer=regularizer, reuse=reuse, trainable=trainable,
                collections=collections, caching_device=caching_device,
                partitioner=partitioner, validate_shape=validate_shape,
                use_resource=use_resource, custom_getter=custom_getter, constraint=constraint,
                synchronization=synchronization, aggregation=aggregation)

    def __repr__(self):
        return f"<tf.VariableScope {self._name!r} reuse={self._reuse}>"


class _VariableScopeStore:
    """The current variable scope of a graph, and how often each scope name was opened
    (to make default names unique: 'dense', 'dense_1' ...)."""

    def __init__(self):
        self.current_scope = VariableScope(False)
        self.variable_scopes_count = {}

    def open_variable_scope(self, scope_name):
        self.variable_scopes_count[scope_name] = self.variable_scopes_count.get(scope_name, 0) + 1

    def close_variable_subscopes(self, scope_name):
        for k in list(self.variable_scopes_count):
            if scope_name is None or k.startswith(scope_name + "/"):
                self.variable_scopes_count[k] = 0

    def variable_scope_count(self, scope_name):
        return self.variable_scopes_count.get(scope_name, 0)


def _get_variable_scope_store():
    graph = get_default_graph()
    store = graph.get_collection(_VARSCOPESTORE_KEY)
    if store:
        return store[0]
    store = _VariableScopeStore()
    graph.add_to_collection(_VARSCOPESTORE_KEY, store)
    return store


def get_variable_scope():
    """The current VariableScope (the root scope, named '', outside any variable_scope)."""
    return _get_variable_scope_store().current_scope


def _maybe_wrap_custom_getter(custom_getter, old_getter):
    """Nested custom getters compose: the inner one receives the outer one as its getter."""
    if old_getter is None:
        return custom_getter

    def wrapped_custom_getter(getter, *args, **kwargs):
        return custom_getter(functools.partial(old_getter, getter), *args, **kwargs)
    return wrapped_custom_getter


def _get_unique_variable_scope(prefix):
    """`prefix`, or `prefix_1`, `prefix_2` ... if a scope of that name was already opened."""
    store = _get_variable_scope_store()
    current = get_variable_scope()
    name = current.name + "/" + prefix if current.name else prefix
    if store.variable_scope_count(name) == 0:
        return prefix
    idx = 1
    while store.variable_scope_count(f"{name}_{idx}") > 0:
        idx += 1
    return f"{prefix}_{idx}"


class _pure_variable_scope:  # noqa: N801 -- TF's name
    """Enters a variable scope without touching name scopes (variable_scope adds those)."""

    def __init__(self, name_or_scope, reuse=None, initializer=None, regularizer=None,
                 caching_device=None, partitioner=None, custom_getter=None,
                 old_name_scope=None, dtype=_dtypes.float32, use_resource=None,
                 constraint=None):
        self._name_or_scope = name_or_scope
        self._reuse = reuse
        self._settings = dict(initializer=initializer, regularizer=regularizer,
                              caching_device=caching_device, partitioner=partitioner,
                              dtype=dtype, use_resource=use_resource)
        self._custom_getter = custom_getter
        self._old_name_scope = old_name_scope
        self._constraint = constraint
        self._store = _get_variable_scope_store()
        self._last_scope = None

    def _apply_settings(self, scope, old_getter):
        for key, value in self._settings.items():
            if value is not None:
                getattr(scope, "set_" + key)(value)
        if self._custom_getter is not None:
            scope.set_custom_getter(_maybe_wrap_custom_getter(self._custom_getter, old_getter))

    def __enter__(self):
        self._old = self._store.current_scope
        if isinstance(self._name_or_scope, VariableScope):
            # Jumping to an existing scope: a copy of it, with the requested changes.
            src = self._name_or_scope
            self._new_name = src.name
            self._store.open_variable_scope(self._new_name)
            self._old_subscopes = copy.copy(self._store.variable_scopes_count)
            scope = VariableScope(
                src.reuse if not self._reuse else self._reuse, name=self._new_name,
                initializer=src.initializer, regularizer=src.regularizer,
                caching_device=src.caching_device, partitioner=src.partitioner,
                dtype=src.dtype, custom_getter=src.custom_getter, name_scope=src._name_scope,
                use_resource=src.use_resource, constraint=self._constraint)
            self._apply_settings(scope, src.custom_getter)
        else:
            # Extending the current scope: the name grows, reuse and defaults are inherited.
            old = self._old
            self._new_name = (old.name + "/" + self._name_or_scope if old.name
                              else self._name_or_scope)
            self._reuse = self._reuse or old.reuse
            name_scope = self._name_or_scope if self._old_name_scope is None \
                else self._old_name_scope
            scope = VariableScope(
                self._reuse, name=self._new_name, initializer=old.initializer,
                regularizer=old.regularizer, caching_device=old.caching_device,
                partitioner=old.partitioner, dtype=old.dtype, use_resource=old.use_resource,
                custom_getter=old.custom_getter, name_scope=name_scope,
                constraint=self._constraint)
            self._apply_settings(scope, old.custom_getter)
            self._store.open_variable_scope(self._new_name)
        self._store.current_scope = scope
        self._last_scope = scope
        return scope

    def __exit__(self, *exc):
        if self._store.current_scope is not self._last_scope:
            raise RuntimeError("Improper nesting of variable_scope.")
        if isinstance(self._name_or_scope, VariableScope):
            self._store.variable_scopes_count = self._old_subscopes
        else:
            self._store.close_variable_subscopes(self._new_name)
        self._store.current_scope = self._old


def _graph_of(values):
    for v in values or ():
        graph = getattr(v, "graph", None)
        if isinstance(graph, Graph):
            return graph
    return get_default_graph()


class variable_scope:  # noqa: N801 -- TF's name
    """A context manager for defining ops that create variables (layers).

        with tf.variable_scope('layer1'):
            w = tf.get_variable('w', [784, 100])     # 'layer1/w'
            y = tf.matmul(x, w)                        # 'layer1/MatMul'

    `name_or_scope` is a string or a VariableScope (to re-enter one); with None, a unique
    name is made from `default_name`. `reuse` is None, True or tf.AUTO_REUSE (False means
    None: inherit). The other arguments set defaults for get_variable inside the scope.
    """

    def __init__(self, name_or_scope, default_name=None, values=None, initializer=None,
                 regularizer=None, caching_device=None, partitioner=None, custom_getter=None,
                 reuse=None, dtype=None, use_resource=None, constraint=None,
                 auxiliary_name_scope=True):
        if default_name is None and name_or_scope is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if reuse is False:
            reuse = None            # non-inheriting scopes are not allowed: False == None
        if not (reuse is True or reuse is None or reuse is AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        if not isinstance(auxiliary_name_scope, bool):
            raise TypeError("The auxiliary_name_scope must be `True` or `False`, while get "
                            f"{auxiliary_name_scope}")
        self._name_or_scope = name_or_scope
        self._default_name = default_name
        self._graph = _graph_of(values)
        self._reuse = reuse
        self._scope_args = dict(initializer=initializer, regularizer=regularizer,
                                caching_device=caching_device, partitioner=partitioner,
                                custom_getter=custom_getter, dtype=dtype,
                                use_resource=use_resource, constraint=constraint)
        self._auxiliary_name_scope = auxiliary_name_scope
        self._exit_stacks = []

    def __enter__(self):
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(self._graph.as_default())
            scope = self._enter_scope(stack)
        except BaseException:
            stack.close()
            raise
        self._exit_stacks.append(stack)
        return scope

    def __exit__(self, *exc):
        return self._exit_stacks.pop().__exit__(*exc)

    def _enter_scope(self, stack):
        g = self._graph
        reenter = None              # the name scope to re-enter instead of opening one
        if not self._auxiliary_name_scope:
            current = g.get_name_scope()
            reenter = current + "/" if current else ""
        name_or_scope = self._name_or_scope
        if name_or_scope is not None:
            if not isinstance(name_or_scope, (VariableScope, str)):
                raise TypeError("VariableScope: name_or_scope must be a string or "
                                "VariableScope.")
            name_scope = name_or_scope if isinstance(name_or_scope, str) else \
                name_or_scope.name.split("/")[-1]
            old_name_scope = None
            if name_scope or reenter is not None:
                opened = stack.enter_context(g.name_scope(
                    reenter if reenter is not None else name_scope))
                old_name_scope = opened if isinstance(name_or_scope, str) else \
                    name_or_scope.original_name_scope
            pure = _pure_variable_scope(name_or_scope, reuse=self._reuse,
                                        old_name_scope=old_name_scope, **self._scope_args)
        else:                       # a unique name made from default_name
            if self._reuse:
                raise ValueError("reuse=True cannot be used without a name_or_scope")
            opened = stack.enter_context(g.name_scope(
                reenter if reenter is not None else self._default_name))
            pure = _pure_variable_scope(_get_unique_variable_scope(self._default_name),
                                        old_name_scope=opened, **self._scope_args)
        return stack.enter_context(pure)


# -- the public functions --------------------------------------------------------------

def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 synchronization=None, aggregation=None):
    """Gets the variable `name` of the current variable scope, or creates it (see the module
    docstring for the reuse rules)."""
    return get_variable_scope().get_variable(
        _get_default_variable_store(), name, shape=shape, dtype=dtype, initializer=initializer,
        regularizer=regularizer, trainable=trainable, collections=collections,
        caching_device=caching_device, partitioner=partitioner, validate_shape=validate_shape,
        use_resource=use_resource, custom_getter=custom_getter, constraint=constraint,
        synchronization=synchronization, aggregation=aggregation)


def create_partitioned_variables(shape, slicing, initializer, dtype=_dtypes.float32,
                                 trainable=True, collections=None, name=None, reuse=None):
    """The older way to make shards (TF's partitioned_variables.create_partitioned_variables,
    deprecated there for get_variable(partitioner=...)): `slicing` gives the number of shards
    per axis; returns the list of shards, named after the variable scope `name`
    ('PartitionedVariable/part_0' ...)."""
    if len(shape) != len(slicing):
        raise ValueError(f"The 'shape' and 'slicing' of a partitioned Variable must have the "
                         f"length: shape: {shape}, slicing: {slicing}")
    if len(shape) < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1: shape: {shape}")
    with variable_scope(name, "PartitionedVariable", reuse=reuse) as scope:
        partitioned = _get_default_variable_store()._get_partitioned_variable(
            scope.name, lambda **unused: list(slicing), shape=shape, dtype=dtype,
            initializer=initializer, trainable=trainable, collections=collections,
            reuse=scope.reuse)
        return list(partitioned)


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=False, collections=None, caching_device=None,
                       partitioner=None, validate_shape=True, use_resource=None,
                       custom_getter=None, constraint=None, synchronization=None,
                       aggregation=None):
    """get_variable for a local variable: in LOCAL_VARIABLES, not trainable, not saved."""
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                        regularizer=regularizer, trainable=False, collections=collections,
                        caching_device=caching_device, partitioner=partitioner,
                        validate_shape=validate_shape, use_resource=use_resource,
                        custom_getter=custom_getter, constraint=constraint,
                        synchronization=synchronization, aggregation=aggregation)


@contextlib.contextmanager
def variable_op_scope(values, name_or_scope, default_name=None, initializer=None,
                      regularizer=None, caching_device=None, partitioner=None,
                      custom_getter=None, reuse=None, dtype=None, use_resource=None,
                      constraint=None):
    """`tf.variable_op_scope(values, name_or_scope, default_name=None, ...)`: TF's deprecated
    form of `tf.variable_scope(name_or_scope, default_name, values, ...)` -- the same scope,
    the arguments in another order (and, as in TF, a warning)."""
    from ..platform import tf_logging
    tf_logging.warn("tf.variable_op_scope(values, name, default_name) is deprecated,"
                    " use tf.variable_scope(name, default_name, values)")
    with variable_scope(name_or_scope, default_name=default_name, values=values,
                        initializer=initializer, regularizer=regularizer,
                        caching_device=caching_device, partitioner=partitioner,
                        custom_getter=custom_getter, reuse=reuse, dtype=dtype,
                        use_resource=use_resource, constraint=constraint) as scope:
        yield scope


@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """Inside it, every tf.Variable (so every get_variable and Keras weight too) is made by
    variable_creator(next_creator, **kwargs): it may change the arguments (a name, a device,
    trainable), wrap what next_creator(**kwargs) returns, or make something else -- TF's
    scope of the same name (ops/variable_scope.py). Scopes nest: the innermost creator is
    called first, and its next_creator is the next one out."""
    from .variables import variable_creator_stack
    stack = variable_creator_stack(get_default_graph())
    stack.append(variable_creator)
    try:
        yield
    finally:
        stack.remove(variable_creator)
