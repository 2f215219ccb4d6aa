"""The dataflow graph -- mirrors TensorFlow 1.x's `tf.Graph` (python/framework/ops.py).

Building a TF-1 program only *describes* a computation: every tf.* call adds an Operation to
the default Graph. While an op is added the graph applies the context the program set up:

  * name scopes      `with tf.name_scope('layer1')`   -> op names like 'layer1/MatMul'
  * device scopes    `with tf.device('/job:ps')`      -> op.device, innermost scope wins per field
  * control deps     `with tf.control_dependencies([a])` -> the op waits for `a`
  * colocation       `with tf.colocate_with(v)`       -> the op goes wherever `v` goes

Collections (`tf.GraphKeys.GLOBAL_VARIABLES` ...) are named lists the graph keeps for libraries.
"""
import contextlib
import re
import threading

from . import device_spec as _device_spec
from .default_session import _reset_default_session_stack
from .operation import Operation
from .tensor import Tensor

__all__ = ["Graph", "GraphKeys", "get_default_graph", "reset_default_graph", "name_scope",
           "device", "container", "control_dependencies", "colocate_with", "add_to_collection",
           "add_to_collections", "get_collection", "get_collection_ref", "get_name_scope",
           "op_scope"]

_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\-/>]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\-/>]*$")


class GraphKeys:
    """Standard names for graph collections (tf.GraphKeys)."""
    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    METRIC_VARIABLES = "metric_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    LOSSES = "losses"
    SAVERS = "savers"
    GLOBAL_STEP = "global_step"
    TRAIN_OP = "train_op"
    UPDATE_OPS = "update_ops"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    ASSET_FILEPATHS = "asset_filepaths"
    CONCATENATED_VARIABLES = "concatenated_variables"
    LOCAL_RESOURCES = "local_resources"
    TABLE_INITIALIZERS = "table_initializer"
    VARIABLES = GLOBAL_VARIABLES  # TF 0.x name


class _ControlDependenciesController:
    def __init__(self, graph, control_inputs):
        self._graph = graph
        self.control_inputs = control_inputs   # None means "clear the outer dependencies"
        self.seen_ops = set()


class Graph:
    """A TensorFlow computation as a dataflow graph of Operations and Tensors."""

    def __init__(self):
        self._lock = threading.RLock()
        self._nodes_by_name = {}
        self._nodes = []
        self._names_in_use = {}
        self._name_stack = ""
        self._device_function_stack = []   # entries: device function, or None (= reset)
        self._control_dependencies_stack = []
        self._colocation_stack = []
        self._collections = {}
        self._version = 0
        self._last_id = 0
        self._finalized = False
        self._seed = None
        self._random_seed_count = 0       # random ops seeded from the graph seed so far
        self._attr_scope_map = {}
        self._gradient_override_map = {}  # op type -> the gradient to use (tf.RegisterGradient)
        self._devices_outside_colocation = []   # device stacks colocate_with set aside
        self._unfeedable = set()          # tensors prevent_feeding named
        self._unfetchable = set()         # ops prevent_fetching named
        self._container = ""              # tf.container: where stateful ops keep their state

    # -- identity and versioning --------------------------------------------------
    def _next_id(self):
        self._last_id += 1
        return self._last_id

    @property
    def version(self):
        """Grows whenever an op is added; sessions use it to know their graph changed."""
        return self._version

    @property
    def seed(self):
        """The graph-level random seed (tf.set_random_seed)."""
        return self._seed

    @seed.setter
    def seed(self, value):
        self._seed = value

    @property
    def finalized(self):
        return self._finalized

    def finalize(self):
        """Makes the graph read-only: adding an op afterwards raises RuntimeError."""
        self._finalized = True

    def _unsafe_unfinalize(self):
        self._finalized = False

    # -- default graph -------------------------------------------------------
    @contextlib.contextmanager
    def as_default(self):
        """Makes this graph the default graph inside the `with` block."""
        _default_graph_stack.push(self)
        try:
            yield self
        finally:
            _default_graph_stack.pop(self)

    @contextlib.contextmanager
    def _init_scope_devices(self):
        """The device functions TF's init_scope restores for creating a variable: inside
        colocate_with, which hides them, those of the scopes outside it -- so a
        replica_device_setter's ps_strategy is consulted for an optimizer's slots too (its
        round-robin moves on), and colocation then puts each slot beside its variable, as
        TensorFlow 2.15.1 does in graph mode (measured)."""
        stack = self._device_function_stack
        if not stack:
            for outside in reversed(self._devices_outside_colocation):
                if outside:
                    stack = outside
                    break
        saved, self._device_function_stack = self._device_function_stack, stack
        try:
            yield
        finally:
            self._device_function_stack = saved

    # -- op creation ---------------------------------------------------------
    def create_op(self, op_type, inputs, dtypes=None, input_types=None, name=None, attrs=None,
                  op_def=None, compute_shapes=True, compute_device=True):
        """Adds an Operation of `op_type` with `inputs`; returns it (outputs of type `dtypes`)."""
        with self._lock:
            if self._finalized:
                raise RuntimeError("Graph is finalized and cannot be modified: a "
                                   "MonitoredTrainingSession/Supervisor finalizes the graph so "
                                   "that no op is added by mistake inside the training loop. "
                                   "Build every op before you create the session.")
            for t in inputs:
                if not isinstance(t, Tensor):
                    raise TypeError(f"Input to op {op_type!r} must be a Tensor, got {t!r}.")
                if t.graph is not self:
                    raise ValueError(f"Tensor {t.name!r} must be from the same graph as the "
                                     f"{op_type} op being created (it belongs to another Graph).")
            name = self.unique_name(name or op_type) if not (name or "").endswith("/") \
                else name[:-1]
            if not _VALID_OP_NAME.match(name):
                raise ValueError(f"'{name}' is not a valid node name (op type {op_type}).")
            input_ops = {t.op for t in inputs}
            control_inputs = self._control_dependencies_for_inputs(input_ops)
            attrs = dict(attrs or {})
            for key, value in self._attr_scope_map.items():
                attrs.setdefault(key, value)
            if self._container and attrs.get("container") == "":
                attrs["container"] = self._container       # as TF's Graph.create_op does
            if op_type in self._gradient_override_map:     # gradient_override_map, as TF's
                attrs["_gradient_op_type"] = self._gradient_override_map[op_type]
            op = Operation(self, op_type, name, inputs, dtypes or [], attrs, control_inputs)
            self._nodes_by_name[name] = op
            self._nodes.append(op)
            self._version += 1
            op._added_at_version = self._version          # for as_graph_def(from_version)
            for controller in self._control_dependencies_stack:
                controller.seen_ops.add(op)
            if compute_device:
                self._apply_device_functions(op)
            self._apply_colocation(op)
            if compute_shapes:
                from .op_def import set_shapes_for_outputs
                set_shapes_for_outputs(op)
            return op

    # -- names ------------------------------------------------------------
    def unique_name(self, name, mark_as_used=True):
        """`name` under the current name scope, made unique with _1, _2 ... as TF does."""
        if self._name_stack:
            name = f"{self._name_stack}/{name}"
        name_key = name.lower()
        i = self._names_in_use.get(name_key, 0)
        if mark_as_used:
            self._names_in_use[name_key] = i + 1
        if i > 0:
            base_key = name_key
            while name_key in self._names_in_use:
                name_key = f"{base_key}_{i}"
                i += 1
            if mark_as_used:
                self._names_in_use[name_key] = 1
            name = f"{name}_{i - 1}"
        return name

    def get_name_scope(self):
        return self._name_stack

    @contextlib.contextmanager
    def name_scope(self, name):
        """Opens a name scope. 'a' makes a new unique scope; 'a/' re-enters exactly 'a';
        None or '' returns to the top level. Yields the scope string ending in '/'."""
        if name:
            if isinstance(name, Tensor) or not isinstance(name, str):
                raise TypeError(f"name_scope expects a string name, got {name!r}.")
            if not _VALID_SCOPE_NAME.match(name):
                raise ValueError(f"'{name}' is not a valid scope name.")
        old_stack = self._name_stack
        if not name:
            new_stack = ""
        elif name.endswith("/"):
            new_stack = name[:-1]
        else:
            new_stack = self.unique_name(name)
        self._name_stack = new_stack
        try:
            yield f"{new_stack}/" if new_stack else ""
        finally:
            self._name_stack = old_stack

    # -- containers ---------------------------------------------------------------
    @contextlib.contextmanager
    def container(self, container_name):
        """The stateful ops created inside (variables, queues) keep their state in the
        resource container `container_name` of their task instead of its default one, so
        that `tf.Session.reset(target, [container_name])` clears them alone."""
        original, self._container = self._container, container_name
        try:
            yield self._container
        finally:
            self._container = original

    # -- devices ----------------------------------------------------------------
    @contextlib.contextmanager
    def device(self, device_name_or_function):
        """Requests a device for the ops created inside: a string ('/job:ps/task:0'), a
        DeviceSpec, a function of the Operation, or None to clear the outer scopes."""
        if device_name_or_function is None:
            entry = None
        elif callable(device_name_or_function) and not isinstance(
                device_name_or_function, (str, _device_spec.DeviceSpec)):
            entry = device_name_or_function
        else:
            entry = _device_spec.merge_device(device_name_or_function)
        self._device_function_stack.append(entry)
        try:
            yield
        finally:
            self._device_function_stack.pop()

    def _apply_device_functions(self, op):
        # Innermost first: each outer scope only fills the fields the inner ones left unset.
        for fn in reversed(self._device_function_stack):
            if fn is None:
                break
            op._set_device(fn(op))

    # -- colocation ------------------------------------------------------------
    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        """Places the ops created inside on the same device as `op` (a Tensor, Operation or
        Variable). Outer device scopes do not apply inside, as in TF."""
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is "
                             "not True")
        op = _op_to_colocate_with(op)
        saved_devices = self._device_function_stack
        saved_colocation = self._colocation_stack
        self._devices_outside_colocation.append(saved_devices)
        self._device_function_stack = []
        if ignore_existing:
            self._colocation_stack = []
        if op is not None:
            self._colocation_stack = self._colocation_stack + [op]
        try:
            yield
        finally:
            self._devices_outside_colocation.pop()
            self._device_function_stack = saved_devices
            self._colocation_stack = saved_colocation

    def _apply_colocation(self, op):
        if not self._colocation_stack:
            return
        groups = set()
        for target in self._colocation_stack:
            groups.update(target.colocation_groups())
            if target.device:
                op._set_device(target.device)
        op._set_attr("_class", sorted(groups))

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        """Ops of the types in `op_type_map` made inside the block take their gradient from the
        function registered (tf.RegisterGradient) under the mapped name:

            @tf.RegisterGradient("ClipGrad")
            def _clip(op, grad): return tf.clip_by_value(grad, -1., 1.)
            with g.gradient_override_map({"Identity": "ClipGrad"}):
                y = tf.identity(x)          # tf.gradients(y, x) goes through _clip
        """
        if not isinstance(op_type_map, dict):
            raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        for key, value in op_type_map.items():
            if not (isinstance(key, str) and isinstance(value, str)):
                raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        saved = self._gradient_override_map
        self._gradient_override_map = {**saved, **op_type_map}
        try:
            yield
        finally:
            self._gradient_override_map = saved

    @contextlib.contextmanager
    def _attr_scope(self, attr_map):
        saved = self._attr_scope_map
        self._attr_scope_map = {**saved, **attr_map}
        try:
            yield
        finally:
            self._attr_scope_map = saved

    # -- control dependencies --------------------------------------------------
    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops created inside run only after every op/tensor in `control_inputs` has run.
        `None` clears the dependencies of outer scopes."""
        if control_inputs is None:
            saved = self._control_dependencies_stack
            self._control_dependencies_stack = [_ControlDependenciesController(self, None)]
            try:
                yield
            finally:
                self._control_dependencies_stack = saved
            return
        ops = []
        for c in control_inputs:
            if hasattr(c, "_as_graph_element") and not isinstance(c, (Tensor, Operation)):
                c = c._as_graph_element()
            if isinstance(c, Tensor):
                c = c.op
            if not isinstance(c, Operation):
                raise TypeError(f"Control input must be an Operation, a Tensor or a Variable, "
                                f"got {c!r}.")
            if c.graph is not self:
                raise ValueError(f"Control input {c.name!r} belongs to another graph.")
            if c not in ops:
                ops.append(c)
        controller = _ControlDependenciesController(self, ops)
        self._control_dependencies_stack.append(controller)
        try:
            yield
        finally:
            self._control_dependencies_stack.remove(controller)

    def _control_dependencies_for_inputs(self, input_ops):
        result = []
        for controller in self._control_dependencies_stack:
            if controller.control_inputs is None:
                result = []
                continue
            if any(op in controller.seen_ops for op in input_ops):
                continue   # an input already waits for this scope's dependencies
            result.extend(c for c in controller.control_inputs
                          if c not in input_ops and c not in result)
        return result

    # -- lookup ----------------------------------------------------------------
    def get_operations(self):
        return list(self._nodes)

    def as_graph_def(self, from_version=None, add_shapes=False):
        """The graph as data (framework/graph_def.py): a GraphDef of the ops' node_defs, read as
        TF's protobuf is (`.node`, `.SerializeToString()`). from_version: only the ops added
        since `version` had that value; add_shapes: each node's output shapes in its
        '_output_shapes' attr, as TF adds them."""
        from .graph_def import GraphDef
        from ..version import GRAPH_DEF_VERSION
        nodes = []
        for op in self._nodes:
            if from_version is not None and op._added_at_version <= from_version:
                continue
            node_def = op.node_def
            if add_shapes and op.outputs:
                node_def["attr"]["_output_shapes"] = [t.get_shape() for t in op.outputs]
            nodes.append(node_def)
        return GraphDef(node=nodes, versions={"producer": GRAPH_DEF_VERSION})

    def get_operation_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

    def get_tensor_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

    def _get_operation_by_name_unsafe(self, name):
        return self._nodes_by_name[name]

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """Turns a Tensor, Operation, Variable or name ('y:0', 'train') into a graph element."""
        if hasattr(obj, "_as_graph_element") and not isinstance(obj, (Tensor, Operation)):
            obj = obj._as_graph_element()
        if isinstance(obj, str):
            if ":" in obj and allow_tensor:
                op_name, _, index = obj.rpartition(":")
                try:
                    index = int(index)
                except ValueError:
                    raise ValueError(f"The name {obj!r} looks like a Tensor name, but is not a "
                                     "valid one. Tensor names must be of the form "
                                     "\"<op_name>:<output_index>\".") from None
                if op_name not in self._nodes_by_name:
                    raise KeyError(f"The name {obj!r} refers to a Tensor which does not exist. "
                                   f"The operation, {op_name!r}, does not exist in the graph.")
                op = self._nodes_by_name[op_name]
                if index >= len(op.outputs):
                    raise KeyError(f"The name {obj!r} refers to a Tensor which does not exist. "
                                   f"The operation, {op_name!r}, exists but only has "
                                   f"{len(op.outputs)} outputs.")
                return op.outputs[index]
            if ":" in obj:
                raise ValueError(f"Name {obj!r} appears to refer to a Tensor, not an Operation.")
            if not allow_operation:
                hint = (f" Did you mean {obj + ':0'!r}? (An operation named {obj!r} exists; "
                        "its first output is that tensor.)") if obj in self._nodes_by_name else ""
                raise ValueError(f"The name {obj!r} looks like an (invalid) Operation name, "
                                 f"not a Tensor.{hint}")
            if obj not in self._nodes_by_name:
                raise KeyError(f"The name {obj!r} refers to an Operation not in the graph.")
            return self._nodes_by_name[obj]
        if isinstance(obj, Tensor) and allow_tensor:
            if obj.graph is not self:
                raise ValueError(f"Tensor {obj.name!r} is not an element of this graph.")
            return obj
        if isinstance(obj, Operation) and allow_operation:
            if obj.graph is not self:
                raise ValueError(f"Operation {obj.name!r} is not an element of this graph.")
            return obj
        kinds = " or ".join(k for k, ok in (("Tensor", allow_tensor), ("Operation",
                                                                       allow_operation)) if ok)
        raise TypeError(f"Can not convert a {type(obj).__name__} into a {kinds}.")

    # -- collections -------------------------------------------------------------
    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        names = (names,) if isinstance(names, str) else set(names)
        for name in names:
            self.add_to_collection(name, value)

    def get_collection_ref(self, name):
        return self._collections.setdefault(name, [])

    def get_collection(self, name, scope=None):
        items = self._collections.get(name, [])
        if scope is None:
            return list(items)
        pattern = re.compile(scope)
        return [item for item in items
                if hasattr(item, "name") and pattern.match(item.name)]

    @property
    def collections(self):
        """The names of the graph's collections (TF's Graph.collections)."""
        return self.get_all_collection_keys()

    @property
    def graph_def_versions(self):
        """The versions of GraphDef this graph writes (TF's VersionDef): producer and
        min_consumer."""
        from ..version import GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER
        from .graph_def import _Versions
        return _Versions(producer=GRAPH_DEF_VERSION, min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER)

    @property
    def building_function(self):
        """True in the graph of a function body (a FuncGraph), False here."""
        return False

    # -- what a session may feed and fetch ---------------------------------------------
    def prevent_feeding(self, tensor):
        """Marks `tensor` as one that sess.run must not be fed."""
        self._unfeedable.add(tensor)

    def is_feedable(self, tensor):
        return tensor not in self._unfeedable

    def prevent_fetching(self, op):
        """Marks `op` (and its outputs) as ones that sess.run must not fetch."""
        self._unfetchable.add(op)

    def is_fetchable(self, tensor_or_op):
        op = getattr(tensor_or_op, "op", tensor_or_op)
        return op not in self._unfetchable

    @contextlib.contextmanager
    def switch_to_thread_local(self):
        """TF makes the graph's device, name and control scopes per thread from here on; the
        sandbox builds a graph from one thread at a time, so nothing changes."""
        yield

    def get_all_collection_keys(self):
        return [k for k, v in self._collections.items() if v]

    def clear_collection(self, name):
        self._collections.pop(name, None)

    def __repr__(self):
        return f"<sandbox.Graph with {len(self._nodes)} ops>"


def _op_to_colocate_with(v):
    if v is None:
        return None
    if isinstance(v, Operation):
        return v
    if isinstance(v, Tensor):
        return v.op
    if hasattr(v, "op") and isinstance(v.op, Operation):   # a Variable
        return v.op
    raise TypeError(f"colocate_with expects a Tensor, an Operation or a Variable, got {v!r}.")


# -- the default graph -----------------------------------------------------------

class _DefaultGraphStack(threading.local):
    """Per-thread stack of `with g.as_default()` graphs, over one global default graph."""
    global_default = None

    def __init__(self):
        self.stack = []

    def push(self, g):
        self.stack.append(g)

    def pop(self, g):
        if self.stack and self.stack[-1] is g:
            self.stack.pop()
        elif g in self.stack:
            self.stack.remove(g)

    def get(self):
        if self.stack:
            return self.stack[-1]
        if _DefaultGraphStack.global_default is None:
            _DefaultGraphStack.global_default = Graph()
        return _DefaultGraphStack.global_default


_default_graph_stack = _DefaultGraphStack()


def get_default_graph():
    """The graph new ops go into: the innermost `with g.as_default()`, else the global one."""
    return _default_graph_stack.get()


def reset_default_graph():
    """Clears the global default graph (not allowed inside a `with g.as_default()` block)."""
    if _default_graph_stack.stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If "
                             "you need a cleared graph, exit the nesting and create a new graph.")
    _DefaultGraphStack.global_default = Graph()
    _reset_default_session_stack()


# -- module-level forms of the graph's context managers ------------------------------

@contextlib.contextmanager
def name_scope(name, default_name=None, values=None):
    """`tf.name_scope(name, default_name=None, values=None)`: opens a name scope in the graph of
    `values` (default graph otherwise). `default_name` is used when `name` is None."""
    n = default_name if name is None else name
    if n is None and values is not None:
        raise ValueError(f"At least one of name ({name}) and default_name ({default_name}) "
                         "must be provided.")
    g = _graph_from_values(values)
    with g.as_default(), g.name_scope(n) as scope:
        yield scope


@contextlib.contextmanager
def op_scope(values, name, default_name=None):
    """`tf.op_scope(values, name, default_name=None)`: TF's deprecated form of
    `tf.name_scope(name, default_name, values)` -- the same scope, the arguments in another
    order (and, as in TF, a warning)."""
    from ..platform import tf_logging
    tf_logging.warn("tf.op_scope(values, name, default_name) is deprecated,"
                    " use tf.name_scope(name, default_name, values)")
    with name_scope(name, default_name=default_name, values=values) as scope:
        yield scope


def _graph_from_values(values):
    for v in values or ():
        graph = getattr(v, "graph", None)
        if isinstance(graph, Graph):
            return graph
    return get_default_graph()


def get_name_scope():
    return get_default_graph().get_name_scope()


def device(device_name_or_function):
    """`with tf.device('/job:ps/task:0'):` -- see Graph.device."""
    return get_default_graph().device(device_name_or_function)


def container(container_name):
    """`with tf.container('experiment0'):` -- see Graph.container."""
    return get_default_graph().container(container_name)


def control_dependencies(control_inputs):
    """`with tf.control_dependencies([a, b]):` -- see Graph.control_dependencies."""
    return get_default_graph().control_dependencies(control_inputs)


def colocate_with(op, ignore_existing=False):
    """`with tf.colocate_with(v):` -- see Graph.colocate_with."""
    return get_default_graph().colocate_with(op, ignore_existing)


def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    get_default_graph().add_to_collections(names, value)


def get_collection(key, scope=None):
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)
