"""The placement view's model -- which task and device holds each variable and runs each op.

Two sources, both measured by the running system, never guessed from the program:

  * a Session: the device its master chose for every op it has run (`Session.placement`,
    what `log_device_placement` prints), with each op's dtype and static shape from the
    graph. As in TF, an op is placed when a step first needs it: the graph's other ops are
    listed apart, as "not placed yet", with the device they asked for.
  * a cluster -- a LocalCluster, or tasks started elsewhere and attached by ClusterSpec and
    secret: what each task's worker service was given to run (its registered graph pieces,
    the _Send/_Recv ops the partitioner added included) and what lives in its resource
    manager (variables with the bytes of their real arrays, queues, accumulators).

Every op sits in its task's device, grouped by the first part of its name (its outermost name
scope: `weights/w1` and `weights/w1/read` are both in `weights`; `w1` goes with `w1/read`, and
other ops outside any scope are grouped as "(top level)"); a group can be expanded to show its
ops. Each op says its name, type, dtype, shape and bytes (of its output, when the
shape is known; of its array, for a variable).
"""
import collections

from .cluster_watch import job_order, short_name
from .palette import DEAD_COLOR, job_color
from .traffic_kinds import job_of

__all__ = ["PlacementModel", "OpEntry"]

SENDRECV_GROUP = "_Send / _Recv (added by the partitioner)"
TOP_GROUP = "(top level)"
_KINDS = {"VariableV2": "variable", "Variable": "variable", "VarHandleOp": "variable",
          "Placeholder": "placeholder", "PlaceholderWithDefault": "placeholder",
          "Const": "constant", "_Send": "send", "_SendControl": "send", "_Recv": "recv",
          "FIFOQueueV2": "queue", "RandomShuffleQueueV2": "queue",
          "ConditionalAccumulator": "accumulator"}
_DTYPE_SIZES = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int8": 1,
                "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "int64": 8,
                "uint64": 8, "bool": 1, "complex64": 8, "complex128": 16}

OpEntry = collections.namedtuple(
    "OpEntry", "name op kind device dtype shape nbytes sessions state")


def _kind(op_type):
    return _KINDS.get(op_type, "op")


def _nbytes(dtype, shape):
    """Bytes of a tensor of `dtype` (a name) and `shape` (a list), None if unknown."""
    if dtype is None or shape is None or any(d is None for d in shape):
        return None
    size = _DTYPE_SIZES.get(dtype.replace("_ref", ""))
    if size is None:
        return None
    n = size
    for d in shape:
        n *= d
    return n


def _device_short(device):
    """'/job:ps/replica:0/task:0/device:CPU:0' -> 'CPU:0'."""
    return device.rsplit("/device:", 1)[-1] if "/device:" in device else device


def _task_of(device):
    return device.rsplit("/device:", 1)[0]


def _scope(name, op_type, scopes):
    """The group of an op: its outermost name scope; an op at the top level goes with the
    ops named under it (`w1` with `w1/read`), or else in TOP_GROUP."""
    if op_type in ("_Send", "_SendControl", "_Recv"):
        return SENDRECV_GROUP
    if "/" in name:
        return name.split("/", 1)[0]
    if name in scopes or _kind(op_type) in ("variable", "queue", "accumulator"):
        return name
    return TOP_GROUP


class PlacementModel:
    """See the module docstring. Build it with `from_session` or `from_cluster`, or make
    an empty one for `tasks` and call `update_from_session` / `update_from_cluster`."""

    def __init__(self, tasks=()):
        self.tasks = list(tasks)
        self.states = {t: "alive" for t in self.tasks}
        self.ops = {}                   # (task, op name) -> OpEntry
        self.devices = collections.defaultdict(set)      # task -> its devices seen
        self.unplaced = []              # [name, op type, requested device]
        self.source = "none"
        self.note = ""

    # -- building -----------------------------------------------------------------------
    @classmethod
    def from_session(cls, graph, session):
        model = cls()
        model.update_from_session(graph, session)
        return model

    @classmethod
    def from_cluster(cls, tasks, placement, resources=None, states=None, graph=None):
        model = cls(tasks)
        model.update_from_cluster(placement, resources or {}, states, graph)
        return model

    def _ensure_task(self, task):
        if task not in self.states:
            self.tasks.append(task)
            self.states[task] = "alive"

    def update_from_session(self, graph, session):
        """Rebuilds from what `session`'s master placed (Session.placement) and `graph`."""
        placed = session.placement
        self.ops = {}
        self.devices = collections.defaultdict(set)
        for device in session.list_devices():
            self._ensure_task(_task_of(device))
            self.devices[_task_of(device)].add(device)
        for name, (op_type, device) in placed.items():
            dtype, shape = _graph_dtype_shape(graph, name)
            self._put(name, op_type, device, dtype, shape, _nbytes(dtype, shape), 1, "")
        self.unplaced = [[op.name, op.type, op.device or ""] for op in graph.get_operations()
                         if op.name not in placed]
        self.source = "session"
        target = getattr(session, "sess_str", "") or "a local Session"
        self.note = (f"Placed by the master of {target}: {len(placed)} op(s) run so far"
                     + (f"; {len(self.unplaced)} not placed yet (no step has needed them)"
                        if self.unplaced else "") + ".")

    def update_from_cluster(self, placement, resources, states=None, graph=None):
        """Rebuilds from ClusterWatch.placement() and .resources(): {task: rows}."""
        self.ops = {}
        self.devices = collections.defaultdict(set)
        for task, state in (states or {}).items():
            self._ensure_task(task)
            self.states[task] = state
        names = None if graph is None else {op.name for op in graph.get_operations()}
        for task, rows in placement.items():
            self._ensure_task(task)
            for name, op_type, device, dtype, shape, sessions in rows:
                if names is not None and name not in names and \
                        op_type not in ("_Send", "_SendControl", "_Recv"):
                    continue
                if graph is not None and (dtype is None or shape is None) and name in names:
                    g_dtype, g_shape = _graph_dtype_shape(graph, name)
                    dtype, shape = dtype or g_dtype, shape if shape is not None else g_shape
                self._put(name, op_type, device, dtype, shape, _nbytes(dtype, shape),
                          sessions, "")
        for task, rows in resources.items():
            self._ensure_task(task)
            for _, name, kind, dtype, shape, nbytes, state in rows:
                self._put_resource(task, name, kind, dtype, shape, nbytes, state)
        for task in self.tasks:
            if not self.devices[task]:
                self.devices[task].add(f"{task}/device:CPU:0")
        self.unplaced = []
        self.source = "cluster"
        n_graph = len({name for (_, name), e in self.ops.items() if e.sessions})
        self.note = (f"Read from the tasks: {n_graph} op(s) in registered graph pieces, "
                     f"{sum(1 for e in self.ops.values() if e.kind == 'variable')} "
                     "variable(s) in resource managers.")

    def _put(self, name, op_type, device, dtype, shape, nbytes, sessions, state):
        task = _task_of(device)
        self._ensure_task(task)
        self.devices[task].add(device)
        self.ops[(task, name)] = OpEntry(name, op_type, _kind(op_type), device, dtype, shape,
                                         nbytes, sessions, state)

    def _put_resource(self, task, name, kind, dtype, shape, nbytes, state):
        """A resource of `task`'s resource manager: it gives its op (same name) the real
        bytes and state, or stands on its own (on CPU:0) if no registered piece names it."""
        entry = self.ops.get((task, name))
        if entry is not None:
            self.ops[(task, name)] = entry._replace(
                dtype=entry.dtype or dtype, shape=shape if shape is not None else entry.shape,
                nbytes=nbytes if nbytes else entry.nbytes, state=state)
            return
        device = min(self.devices[task]) if self.devices[task] else f"{task}/device:CPU:0"
        self.devices[task].add(device)
        op_type = {"Variable": "VariableV2", "Queue": "FIFOQueueV2",
                   "Accumulator": "ConditionalAccumulator"}.get(kind, kind)
        self.ops[(task, name)] = OpEntry(name, op_type, _kind(op_type), device, dtype, shape,
                                         nbytes or None, 0, state)

    def set_states(self, states):
        for task, state in states.items():
            if task in self.states:
                self.states[task] = state

    # -- reading ------------------------------------------------------------------------
    def ordered_tasks(self):
        def key(task):
            job = job_of(task)
            index = task.rsplit("/task:", 1)[-1]
            return job_order(job), int(index) if index.isdigit() else 0
        return sorted(self.tasks, key=key)

    def groups(self, task, device):
        """[(scope, [OpEntry...])] of one device, variables' groups first, then by name."""
        entries = [e for (t, _), e in self.ops.items() if t == task and e.device == device]
        scopes = {e.name.split("/", 1)[0] for e in entries if "/" in e.name}
        by_scope = collections.defaultdict(list)
        for entry in entries:
            by_scope[_scope(entry.name, entry.op, scopes)].append(entry)
        out = []
        for scope, entries in by_scope.items():
            entries.sort(key=lambda e: (e.kind != "variable", e.name))
            out.append((scope, entries))
        out.sort(key=lambda g: (g[0] == SENDRECV_GROUP, g[0] == TOP_GROUP,
                                not any(e.kind == "variable" for e in g[1]), g[0]))
        return out

    def to_dict(self):
        tasks = []
        for task in self.ordered_tasks():
            job = job_of(task)
            state = self.states.get(task, "alive")
            devices = []
            for device in sorted(self.devices.get(task, ())):
                groups = []
                for scope, entries in self.groups(task, device):
                    kinds = collections.Counter(e.kind for e in entries)
                    groups.append({"scope": scope, "count": len(entries),
                                   "bytes": _held_bytes(entries),
                                   "kinds": dict(kinds),
                                   "ops": [_op_dict(e) for e in entries]})
                devices.append({"name": _device_short(device), "full": device,
                                "groups": groups})
            entries = [e for (t, _), e in self.ops.items() if t == task]
            tasks.append({"name": task, "short": short_name(task), "job": job,
                          "state": state,
                          "color": DEAD_COLOR if state == "dead" else job_color(job),
                          "job_color": job_color(job), "devices": devices,
                          "ops": len(entries),
                          "variables": sum(1 for e in entries if e.kind == "variable"),
                          "bytes": _held_bytes(entries)})
        return {"tasks": tasks,
                "unplaced": [{"name": n, "op": o, "requested": d} for n, o, d in
                             self.unplaced],
                "source": self.source, "note": self.note,
                "counts": {"tasks": len(tasks), "ops": len(self.ops),
                           "variables": sum(1 for e in self.ops.values()
                                            if e.kind == "variable")}}

    # -- saving -------------------------------------------------------------------------
    def save_state(self):
        return {"tasks": self.tasks, "states": self.states,
                "ops": [[task] + list(e) for (task, _), e in self.ops.items()],
                "devices": {t: sorted(d) for t, d in self.devices.items()},
                "unplaced": self.unplaced, "source": self.source, "note": self.note}

    @classmethod
    def from_state(cls, state):
        model = cls(state["tasks"])
        model.states.update(state["states"])
        for task, *fields in state["ops"]:
            entry = OpEntry(*fields)
            model.ops[(task, entry.name)] = entry
        for task, devices in state["devices"].items():
            model.devices[task].update(devices)
        model.unplaced = [list(u) for u in state["unplaced"]]
        model.source, model.note = state["source"], state["note"]
        return model


def _held_bytes(entries):
    """The bytes a task or group holds: its variables' arrays, its queues' and accumulators'
    contents (an op's output is passing through, and `w1/read` is `w1` again)."""
    return sum(e.nbytes or 0 for e in entries if e.kind in ("variable", "queue",
                                                             "accumulator"))


def _op_dict(e):
    return {"name": e.name, "op": e.op, "kind": e.kind, "dtype": e.dtype,
            "shape": e.shape, "bytes": e.nbytes, "sessions": e.sessions, "state": e.state}


def _graph_dtype_shape(graph, name):
    """(dtype name, shape list) of op `name`'s first output in `graph`, or (None, None)."""
    try:
        op = graph.get_operation_by_name(name)
    except (KeyError, ValueError):
        return None, None
    if not op.outputs:
        return None, None
    out = op.outputs[0]
    dtype = getattr(out.dtype, "base_dtype", out.dtype)
    shape = out.get_shape().as_tuple()
    return getattr(dtype, "name", None), None if shape is None else list(shape)
