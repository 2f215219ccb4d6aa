"""The resource manager -- mirrors TensorFlow's ResourceMgr (core/framework/resource_mgr.h).

Stateful things -- variables, queues, accumulators -- do not live in the graph. The graph only
*names* them; their storage lives in the resource manager of the task that runs the op, keyed by
(container, name). That is why two programs that build the same graph and run it on the same
task share one variable: both ask the task's resource manager for 'weights' and get the same cell.

A local Session owns its own resource manager, so two local Sessions never share variables.
"""
import threading

from . import errors

__all__ = ["ResourceMgr", "VariableCell"]


class VariableCell:
    """The storage behind one variable: a NumPy array, or None until it is initialized.

    Values are never modified in place: an assignment stores a new array. So a value someone
    read earlier (a fetched result, a tensor in flight to another task) never changes under them.
    """

    __slots__ = ("name", "dtype", "shape", "value", "owner", "lock")

    def __init__(self, name, dtype, shape, owner):
        self.name = name
        self.dtype = dtype          # DType of the elements
        self.shape = shape          # TensorShape declared by the graph
        self.value = None
        self.owner = owner          # task name, for error messages
        self.lock = threading.Lock()

    def read(self, node_name=None):
        value = self.value
        if value is None:
            where = f" on {self.owner}" if self.owner else ""
            raise errors.FailedPreconditionError(
                node_name, None,
                f"Attempting to use uninitialized value {self.name}{where}. Run its initializer "
                "first (sess.run(tf.global_variables_initializer())), or restore it from a "
                "checkpoint.")
        return value

    @property
    def initialized(self):
        return self.value is not None

    def __repr__(self):
        state = "uninitialized" if self.value is None else f"shape={self.value.shape}"
        return f"<VariableCell {self.name} {state}>"


_EMPTY = {}


class ResourceMgr:
    """Named resources of one task (or one local Session), grouped in containers."""

    def __init__(self, owner=""):
        self.owner = owner
        self._lock = threading.Lock()
        self._containers = {}
        # TF names a task's default container after its job ("ps", "worker", "localhost"):
        # Session.reset(target, ["ps"]) clears what the ps tasks keep there
        self.default_container = owner.split("/job:", 1)[-1].split("/", 1)[0] \
            if "/job:" in owner else ""

    def lookup_or_create(self, container, name, factory):
        """Returns the resource `name`, creating it with `factory()` the first time."""
        if container == self.default_container:
            container = ""
        resource = self._containers.get(container or "", _EMPTY).get(name)
        if resource is not None:              # the usual case, on every step: no lock needed
            return resource                   # to read a dict
        with self._lock:
            resources = self._containers.setdefault(container or "", {})
            resource = resources.get(name)
            if resource is None:
                resource = resources[name] = factory()
            return resource

    def lookup(self, container, name):
        if container == self.default_container:
            container = ""
        with self._lock:
            resource = self._containers.get(container or "", {}).get(name)
        if resource is None:
            raise errors.NotFoundError(None, None, f"Resource {container or ''}/{name} does not "
                                       f"exist on {self.owner or 'this task'}.")
        return resource

    def drop(self, container, name):
        """Forgets the resource `name` (NotFoundError if there is none)."""
        if container == self.default_container:
            container = ""
        with self._lock:
            resources = self._containers.get(container or "", {})
            if name not in resources:
                raise errors.NotFoundError(None, None, f"Resource {container or ''}/{name} "
                                           f"does not exist on {self.owner or 'this task'}.")
            del resources[name]

    def names(self, container=""):
        with self._lock:
            return sorted(self._containers.get(container or "", {}))

    def items(self, container=""):
        with self._lock:
            return list(self._containers.get(container or "", {}).items())

    def describe(self):
        """What lives here, as plain data for the placement view: [container, name, kind,
        dtype, shape, bytes, state] per resource -- a variable's real array (bytes 0 and
        state 'uninitialized' until it has one), a queue's or accumulator's current fill."""
        with self._lock:
            items = [(c, n, r) for c, resources in self._containers.items()
                     for n, r in resources.items()]
        return [[container, name] + _describe(resource) for container, name, resource in
                sorted(items, key=lambda item: (item[0], item[1]))]

    def clear(self, container=None):
        """Drops every resource (of one container, or of all): TF's Session.reset."""
        with self._lock:
            if container is None:
                self._containers.clear()
            else:
                self._containers.pop(container, None)
                if container == self.default_container:
                    self._containers.pop("", None)


def _describe(resource):
    """[kind, dtype, shape, bytes, state] of one resource (duck-typed: variables, queues,
    accumulators and anything else a kernel keeps here)."""
    if isinstance(resource, VariableCell):
        value = resource.value
        if value is None:
            return ["Variable", _dtype_name(resource.dtype), _shape_list(resource.shape), 0,
                    "uninitialized"]
        return ["Variable", _dtype_name(resource.dtype), list(value.shape), int(value.nbytes),
                "initialized"]
    if all(hasattr(resource, a) for a in ("dtype", "shape", "nbytes")):   # an array kept by
        return ["SessionTensor", str(resource.dtype), list(resource.shape),  # a session
                int(resource.nbytes), "kept"]                                # handle
    kind = type(resource).__name__.strip("_")
    items = getattr(resource, "items", None)
    if items is not None and hasattr(resource, "capacity"):          # a queue
        state = f"{len(items)} element(s){', closed' if resource.closed else ''}"
        return ["Queue", None, None, 0, state]
    grads = getattr(resource, "grads", None)
    if grads is not None:                                            # an accumulator
        return ["Accumulator", _dtype_name(getattr(resource, "dtype", None)),
                _shape_list(getattr(resource, "shape", None)),
                int(sum(getattr(g, "nbytes", 0) for g in grads)),
                f"{len(grads)} gradient(s) this round, "
                f"{getattr(resource, 'num_dropped', 0)} dropped"]
    return [kind, None, None, 0, ""]


def _dtype_name(dtype):
    return getattr(dtype, "name", None) if dtype is not None else None


def _shape_list(shape):
    """A TensorShape (or a list) as a list with None for unknown dimensions; None if the rank
    is unknown."""
    if shape is None:
        return None
    if hasattr(shape, "as_tuple"):
        dims = shape.as_tuple()
        return None if dims is None else list(dims)
    return list(shape)
