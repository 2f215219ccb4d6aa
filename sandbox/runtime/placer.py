"""The placer -- mirrors TensorFlow's Placer (core/common_runtime/placer.cc, colocation_graph.cc).

Before a graph runs, every op gets one concrete device, e.g.
'/job:worker/replica:0/task:1/device:CPU:0'. The rules, in TF's order:

  1. Reference edges. An op that takes a variable *reference* (Assign, AssignAdd, ApplyAdam...)
     runs where the variable lives. If both asked for a device and the requests clash, the
     op's request gives way, whole (TF logs "Ignoring device specification ..."); if they
     agree and the op's is the more precise ('/job:ps/task:1' for a variable on '/job:ps'),
     the variable takes it.
  2. Colocation groups. Ops in the same group (the `_class: loc:@weights` attr that
     tf.colocate_with adds) share a device; their requests are merged field by field. A clash
     of job, replica or task is an error; a clash of device type or index is an error too,
     unless allow_soft_placement, which then drops the type and index.
  3. Pick a device. The first available device that matches the group's request, in order
     of job name, replica, task and device: '/job:worker' lands on worker task 0, whichever
     task the session talks to -- and an op that asks for nothing lands on the first task of
     the cluster in that order, which is often /job:ps/task:0 ("ps" sorts before "worker").
     That is TensorFlow's surprise, measured on TF 1.15: forget a device scope and the ps
     does the work. (`device_filters` narrows the devices a session sees, and
     replica_device_setter gives every op a device.) Where the request names no device
     type, the sandbox picks CPU (TF would prefer a GPU when the op has a GPU kernel: the
     sandbox's GPUs are simulated, so ops go to them only when asked).
     If no device matches: with allow_soft_placement, any device of the requested job and
     task (type and index dropped); otherwise -- or if even that finds none -- an
     InvalidArgumentError that names the op and lists the devices that do exist.

  4. Generators. An op with no data inputs and one output (a Const, a Placeholder) that nothing
     pinned (no device of its own that excludes it, no colocation) goes where all its
     consumers are, if they are on one device: `v.assign(13.0)` with `v` on the ps puts the
     constant 13.0 on the ps too, as TF does -- it is not sent there at every step.

The rules depend only on the graph, not on the order of its nodes.
"""
import collections

from ..framework import errors
from ..framework.device_spec import DeviceSpec
from ..framework.op_def import get_op_def
from .executor import parse_input

__all__ = ["place"]

_PLACE_FIELDS = ("job", "replica", "task")           # a clash here is never excused


def place(node_defs, available_devices, default_device, allow_soft_placement=False):
    """Returns {node name: full device name} for `node_defs`.

    `available_devices` are full device names (the session's, after its device_filters);
    `default_device` names the device type an op gets when it asks for none (CPU).
    """
    nodes = {nd["name"]: nd for nd in node_defs}
    groups = _Groups(nodes)

    # 1. reference edges: an update goes where its variable is
    for nd in node_defs:
        for src in _reference_inputs(nd, nodes):
            groups.join_reference(src, nd["name"])

    # 2. colocation groups from `_class` (ops colocated with one outside this piece, too)
    outside = {}
    for nd in node_defs:
        for group in nd["attr"].get("_class") or ():
            target = (group.decode() if isinstance(group, bytes) else group)[len("loc:@"):]
            if target in nodes:
                groups.join(target, nd["name"], allow_soft_placement)
            elif target in outside:
                groups.join(outside[target], nd["name"], allow_soft_placement)
            else:
                outside[target] = nd["name"]

    # 3. one device per group
    default = DeviceSpec.from_string(default_device)
    available = _in_preference_order([DeviceSpec.from_string(d) for d in available_devices])
    resolved = {}
    for name in nodes:
        root = groups.find(name)
        if root not in resolved:
            resolved[root] = _resolve(groups.request[root], name, available, default,
                                      allow_soft_placement)
    placed = {name: resolved[groups.find(name)] for name in nodes}

    # 4. a generator goes where all its consumers are (TF's "Heuristic A")
    consumers = _consumers(node_defs, nodes)
    sizes = collections.Counter(groups.find(name) for name in nodes)
    for nd in node_defs:
        name = nd["name"]
        where = {placed[c] for c in consumers.get(name, ())}
        if len(where) == 1 and _is_generator(nd) and sizes[groups.find(name)] == 1:
            (device,) = where
            if _matches(groups.request[name], DeviceSpec.from_string(device)):
                placed[name] = device
    return placed


class _Groups:
    """Union-find over the nodes; each root holds its group's merged device request."""

    def __init__(self, nodes):
        self.parent = {name: name for name in nodes}
        self.request = {name: DeviceSpec.from_string(nd.get("device") or "")
                        for name, nd in nodes.items()}

    def find(self, name):
        while self.parent[name] != name:
            self.parent[name] = self.parent[self.parent[name]]
            name = self.parent[name]
        return name

    def _union(self, a, b, request):
        ra, rb = self.find(a), self.find(b)
        self.parent[rb] = ra
        self.request[ra] = request

    def join_reference(self, variable, update):
        """TF's rule for a reference edge: the update's request gives way to the variable's."""
        rv, ru = self.find(variable), self.find(update)
        if rv == ru:
            return
        var, upd = self.request[rv], self.request[ru]
        if _has_details(var) and _has_details(upd):
            if not _compatible(var, upd):
                upd = var.replace()                  # "Ignoring device specification ..."
            elif _is_specification(var, upd) and not _is_specification(upd, var):
                var = upd.replace()                  # the update's request is more precise
            else:
                upd = var.replace()
        self._union(rv, ru, _merged(var, upd, variable, update, soft=False))

    def join(self, a, b, soft):
        """tf.colocate_with: both ops' groups become one; their requests merge."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self._union(ra, rb, _merged(self.request[ra], self.request[rb], a, b, soft))


def _reference_inputs(nd, nodes):
    """The nodes whose variable `nd` takes by reference (Assign's first input, say)."""
    positions = get_op_def(nd["op"]).ref_inputs
    if not positions:
        return []
    data_inputs = [t for t in nd["input"] if not t.startswith("^")]
    sources = (parse_input(data_inputs[p])[0] for p in positions if p < len(data_inputs))
    return [src for src in sources if src in nodes]


def _consumers(node_defs, nodes):
    """{node: the nodes that take one of its outputs or wait for it}."""
    out = {}
    for nd in node_defs:
        for text in nd["input"]:
            src = parse_input(text)[0]
            if src in nodes:
                out.setdefault(src, []).append(nd["name"])
    return out


def _is_generator(nd):
    """No data inputs, one output that is a value (not a reference), and no state: a queue or
    a random op stays where it was placed, since each step's graph is placed anew here."""
    op_def = get_op_def(nd["op"])
    return (nd["op"] != "NoOp" and not op_def.multi_output and not op_def.ref_outputs
            and not op_def.stateful and all(t.startswith("^") for t in nd["input"]))


def _has_details(spec):
    return any(getattr(spec, f) is not None for f in DeviceSpec.__slots__)


def _compatible(a, b):
    return all(getattr(a, f) is None or getattr(b, f) is None or getattr(a, f) == getattr(b, f)
               for f in DeviceSpec.__slots__)


def _is_specification(less, more):
    """Every field `less` sets, `more` sets the same way."""
    return all(getattr(less, f) is None or getattr(less, f) == getattr(more, f)
               for f in DeviceSpec.__slots__)


def _merged(first, second, first_name, second_name, soft):
    """The request of two groups made one (TF's DeviceNameUtils::MergeDevNames)."""
    merged = first.replace()
    for field in DeviceSpec.__slots__:
        mine, theirs = getattr(merged, field), getattr(second, field)
        if theirs is None:
            continue
        if mine is None:
            setattr(merged, field, theirs)
        elif mine != theirs:
            if soft and field not in _PLACE_FIELDS:
                merged.device_type = merged.device_index = None
                return merged
            raise errors.InvalidArgumentError(
                second_name, None,
                f"Cannot colocate nodes {first_name!r} and {second_name!r}: Cannot merge devices "
                f"with incompatible {field.replace('device_', '')}s: '{first.to_string()}' and "
                f"'{second.to_string()}'. Ops colocated with a variable (its reads, "
                "assignments, optimizer slots) must not ask for another device.")
    return merged


def _in_preference_order(available):
    """TF's order of a session's devices: by job name, replica, task, type and index (so the
    choice never depends on the order in which the tasks answered)."""
    return sorted(available, key=lambda d: (d.job or "", d.replica or 0, d.task or 0,
                                            d.device_type or "", d.device_index or 0))


def _matches(spec, device):
    return all(getattr(spec, f) is None or getattr(spec, f) == getattr(device, f)
               for f in DeviceSpec.__slots__)


def _resolve(spec, node_name, available, default, soft):
    wanted = spec.replace()
    if wanted.device_type is None:
        wanted.device_type, wanted.device_index = default.device_type, default.device_index
    for device in available:
        if _matches(wanted, device):
            return device.to_string()
    if soft:
        relaxed = spec.replace(device_type=None, device_index=None)
        for device in available:
            if _matches(relaxed, device):
                return device.to_string()
    names = ", ".join(d.to_string() for d in available)
    raise errors.InvalidArgumentError(
        node_name, None,
        f"Cannot assign a device for operation {node_name}: it was explicitly assigned to "
        f"{spec.to_string()} but available devices are [ {names} ]. Make sure the device "
        "specification refers to a valid device" +
        (" (allow_soft_placement lets an op change its device type and index, not its job or "
         "task)." if soft else ", or create the session with "
         "tf.ConfigProto(allow_soft_placement=True) to fall back to another device type."))
