"""The executor -- mirrors TensorFlow's Executor (core/common_runtime/executor.cc), simplified.

Given a graph (as NodeDefs), the tensors to feed, the tensors to fetch and the ops to run, the
executor plans once and then runs many steps:

  1. prune   keep only the nodes the fetches and targets need; a fed tensor cuts the walk
  2. order   sort the kept nodes so every node comes after its inputs and control inputs
  3. bind    give every tensor a slot in a flat list, and pre-bind each kernel with its attrs
             (only those it reads and that differ from its defaults; after its inputs, by
             position, when its signature allows: most ops then call their kernel directly)
  4. run     for each node in order: read its input slots, call its kernel, fill its outputs

TensorFlow runs independent nodes in parallel on a thread pool; this executor runs them one by
one in a fixed topological order, which makes every run easy to follow and reproduce.
A functional op (If, While: ops/cond_v2.py, ops/while_v2.py) runs the sub-graph it holds with
a nested Executor that its kernel gets from its context (`NodeContext.function`).

A reference to a variable (`weights:0`, dtype float32_ref) is dereferenced where a node wants
the value rather than the reference -- the same rule TF applies -- when that node runs: after
an assign it depends on, it sees the new value. A reference whose value LEAVES the task -- the
input of a _Send, or a fetch for a master on another task -- is read when it leaves. In TF
that is when its _Send has run (at once: it only waits for the variable op) AND the other task
has asked for it; the other task asks at the start of its step, so by the time this piece
waits for a tensor from another task the value has gone. So such a reference is read when
its _Send runs or, if sooner, just before the piece first waits for another task (a _Recv from
another task) after the variable op ran; a fetch that nothing made leave sooner goes with the
reply, at the end of the piece, as does a fetch that stays in the master's own task (or a
local Session: TF's fetched tensor shares the variable's buffer until the run ends). That is
why `sess.run([train_op, global_step])` on a worker, with global_step on a ps, returns the step
from BEFORE this run's update (0, 1, 2 ... as on TensorFlow): the ps waits for the gradients
before it adds one. Where nothing makes a task wait, TF races, and the sandbox shows its usual
outcome: the value at the end of the piece.
"""
import functools
import importlib
import pkgutil
import time

import numpy as np

from .. import ops
from ..framework import errors
from ..framework.op_def import get_op_def
from .kernel_attrs import attrs_to_pass, positional_attrs

__all__ = ["Executor", "prune", "StepState", "NodeContext", "parse_input", "normalize_tensor_name",
           "task_of"]


def _register_all_kernels():
    """TF links every kernel into the runtime; here the runtime imports every ops module once
    (each op class registers its kernel as it is defined: framework/op_def.py), so that a task
    runs any op a graph names -- one its own program never built too, such as the _Send and
    _Recv the partition adds (runtime/rendezvous.py)."""
    for module in pkgutil.iter_modules(ops.__path__):
        importlib.import_module(f"{ops.__name__}.{module.name}")


_register_all_kernels()


def task_of(device):
    """'/job:ps/replica:0/task:0/device:CPU:0' -> '/job:ps/replica:0/task:0'."""
    return device.rsplit("/device:", 1)[0]


def parse_input(text):
    """'^init' -> ('init', None); 'add:1' -> ('add', 1); 'add' -> ('add', 0)."""
    if text.startswith("^"):
        return text[1:], None
    name, sep, index = text.rpartition(":")
    if sep and index.isdigit():
        return name, int(index)
    return text, 0


def normalize_tensor_name(text):
    name, index = parse_input(text)
    return f"{name}:{index}"


class StepState:
    """What one run of a graph carries: its step id, deadline, cancellation and timings."""

    __slots__ = ("step_id", "deadline", "cancelled", "stats", "rendezvous", "_at_end")

    def __init__(self, step_id=0, deadline=None, collect_stats=False, rendezvous=None):
        self.step_id = step_id
        self.deadline = deadline            # time.monotonic() value, or None
        self.cancelled = None               # set to a reason string to cancel the step
        self.stats = [] if collect_stats else None
        self.rendezvous = rendezvous
        self._at_end = None

    def at_end(self, callback):
        """Calls callback() when the step's piece ends, however it ends (a MutexLock's lock
        is released then at the latest, as TF frees a step's tensors)."""
        if self._at_end is None:
            self._at_end = []
        self._at_end.append(callback)

    def end(self):
        """The piece ended: runs the at_end callbacks (the runtime calls this)."""
        callbacks, self._at_end = self._at_end, None
        for callback in callbacks or ():
            callback()

    def check(self, node_name=None):
        """What a kernel that waits (a _Recv, a queue's dequeue...) calls while it waits:
        raises if the step was cancelled or ran past its deadline. First it lets go the
        step's sends that a batching transport may still hold (runtime/step_channels.py):
        whoever waits must not keep back what others wait for."""
        if self.rendezvous is not None:
            self.rendezvous.flush()
        if self.cancelled is not None:
            raise errors.CancelledError(node_name, None, f"Step {self.step_id} was cancelled: "
                                        f"{self.cancelled}")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise errors.DeadlineExceededError(node_name, None,
                                               f"Step {self.step_id} ran past its deadline "
                                               "(RunOptions.timeout_in_ms).")

    def time_left(self):
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())


class NodeContext:
    """What a `uses_context` kernel gets about its node: name, device, the task's resources
    and a state dict that lives as long as the session (random generators keep theirs here)."""

    __slots__ = ("name", "op_type", "device", "resources", "state", "attrs")

    def __init__(self, name, op_type, device, resources, state, attrs):
        self.name = name
        self.op_type = op_type
        self.device = device
        self.resources = resources
        self.state = state
        self.attrs = attrs

    def function(self, key, node_defs, inputs, outputs):
        """The sandbox's function runtime (TF: OpKernelContext::function_library()): the body
        of a functional op (an If's branch, a While's body: ops/func_graph.py) planned once as
        an Executor that runs on this node's device, with this task's resources, and is cached
        in the node's state under `key` (its kernel state, e.g. random generators, under
        `key[0]`). The kernel runs it with `.run(input_values, step)`."""
        cache = self.state.setdefault("@functions", {})
        executor = cache.get(key)
        if executor is None:
            nodes = [dict(nd, device="") for nd in node_defs]
            executor = cache[key] = Executor(
                nodes, inputs, outputs, (), self.resources,
                self.state.setdefault(("@state", key[0]), {}), self.device)
        return executor


_DEREF, _CTX, _MULTI, _ATTRS, _READ = 1, 2, 8, 16, 32   # what a node needs beyond a plain
                                                        # call
_SEND_OPS = ("_Send", "_SendControl")
_PLACEHOLDERS = ("Placeholder", "PlaceholderV2")
_READ_KEY = "@read"            # slot key suffix: a reference's value, read as it leaves


def prune(node_defs, feeds=(), fetches=(), targets=()):
    """Steps 1 + 2: the nodes that `fetches` and `targets` need (a fed tensor cuts the walk),
    in a deterministic topological order (inputs and control inputs first)."""
    nodes = {nd["name"]: nd for nd in node_defs}
    feeds = [normalize_tensor_name(f) for f in feeds]
    fetches = [normalize_tensor_name(f) for f in fetches]
    fed = set(feeds)
    needed, stack = set(), []
    for name in fetches:
        if name not in fed:
            stack.append(parse_input(name)[0])
    stack.extend(targets)
    deps, cut = {}, {}
    while stack:
        name = stack.pop()
        if name in needed:
            continue
        if name not in nodes:
            raise errors.NotFoundError(name, None, f"Node {name!r} is needed for this run "
                                       "but is not in the graph.")
        needed.add(name)
        node_deps = []
        for text in nodes[name]["input"]:
            src, index = parse_input(text)
            if index is not None and f"{src}:{index}" in fed:
                continue
            if index is None and f"{src}:0" in fed and \
                    nodes.get(src, {}).get("op") in _PLACEHOLDERS:
                # a control edge from a fed placeholder: the feed satisfies it (TF's
                # subgraph.cc FeedInputs moves such edges onto the feed), so it goes
                cut.setdefault(name, set()).add(text)
                continue
            node_deps.append(src)
            stack.append(src)
        deps[name] = node_deps
    position = {nd["name"]: i for i, nd in enumerate(node_defs)}
    order, done = [], set()
    # Depth-first topological sort from the lowest-numbered nodes: deterministic.
    for start in sorted(needed, key=position.__getitem__):
        if start in done:
            continue
        path = [(start, iter(deps[start]))]
        visiting = {start}
        while path:
            name, it = path[-1]
            for dep in it:
                if dep in done:
                    continue
                if dep in visiting:
                    raise errors.InvalidArgumentError(dep, None, f"The graph has a cycle "
                                                      f"through node {dep!r}.")
                visiting.add(dep)
                path.append((dep, iter(deps[dep])))
                break
            else:
                path.pop()
                visiting.discard(name)
                done.add(name)
                nd = nodes[name]
                if name in cut:
                    nd = dict(nd, input=[t for t in nd["input"] if t not in cut[name]])
                order.append(nd)
    return order


class Executor:
    """A planned graph piece, ready to run step after step."""

    def __init__(self, node_defs, feeds=(), fetches=(), targets=(), resources=None,
                 state_store=None, device="", place_fn=None, fetches_leave=False):
        """`fetches_leave`: the fetched tensors go to a master on another task (see the
        module's docstring for when a fetched variable reference is read then)."""
        self.fetches_leave = fetches_leave
        self.feeds = [normalize_tensor_name(f) for f in feeds]
        self.fetches = [normalize_tensor_name(f) for f in fetches]
        self.targets = list(targets)
        order = prune(node_defs, self.feeds, self.fetches, self.targets)
        self.nodes = order                      # NodeDefs that run, in order
        if place_fn is not None:
            place_fn(order)                     # sets nd["device"] on each kept node
        self._bind(order, resources, state_store if state_store is not None else {}, device)

    # -- 3: bind kernels and slots ----------------------------------------------------
    def _bind(self, order, resources, state_store, device):
        slots = {}

        def slot_of(tensor_name):
            if tensor_name not in slots:
                slots[tensor_name] = len(slots)
            return slots[tensor_name]

        self._feed_slots = [slot_of(name) for name in self.feeds]
        ref_tensors = set()
        leaving = self._leaving_references(order)
        unread, read = [], set()       # leaving references whose op ran: not read yet / read
        steps = []
        for nd in order:
            op_def = get_op_def(nd["op"])
            node_attrs = {k: v for k, v in nd["attr"].items() if not k.startswith("_")}
            kernel = op_def.kernel
            attrs = attrs_to_pass(kernel, node_attrs)
            flags = 0
            reads = ()
            if unread and nd["op"] == "_Recv" and \
                    task_of(node_attrs.get("send_device", "")) != task_of(nd.get("device") or
                                                                          device):
                # the piece waits for another task: what leaves has left by now
                reads = tuple((slot_of(t), slot_of(t + _READ_KEY), parse_input(t)[0])
                              for t in unread)
                read.update(unread)
                unread = []
                flags |= _READ
            ins, deref = [], []
            for position, text in enumerate(t for t in nd["input"] if not t.startswith("^")):
                tensor_name = normalize_tensor_name(text)
                if tensor_name in read and nd["op"] in _SEND_OPS:
                    ins.append(slot_of(tensor_name + _READ_KEY))
                    continue
                ins.append(slot_of(tensor_name))
                if tensor_name in ref_tensors and position not in op_def.ref_inputs:
                    deref.append(position)
            if deref:
                flags |= _DEREF
            # The attrs follow the inputs as positional arguments when the kernel's signature
            # allows it (a partial with keywords copies a dict on every call).
            lead = 2 if op_def.uses_context else 0        # (ctx, step)
            after = positional_attrs(kernel, lead + len(ins), attrs)
            kw = attrs if after is None else {}
            if after:
                flags |= _ATTRS
            if op_def.uses_context:
                ctx = NodeContext(nd["name"], nd["op"], nd.get("device") or device, resources,
                                  state_store.setdefault(nd["name"], {}), node_attrs)
                fn = functools.partial(kernel, ctx, **kw)
                flags |= _CTX
            else:
                fn = functools.partial(kernel, **kw) if kw else kernel
            for index in op_def.ref_outputs:
                ref_tensors.add(f"{nd['name']}:{index}")
                if f"{nd['name']}:{index}" in leaving:
                    unread.append(f"{nd['name']}:{index}")
            steps.append([fn, tuple(ins), None, flags, tuple(deref), after or (), nd,
                          op_def.multi_output, reads])
        fed = set(self.feeds)
        self._fetch_slots = [slot_of(name + _READ_KEY) if name in read and self.fetches_leave
                             else slot_of(name) for name in self.fetches]
        self._fetch_deref = [name in ref_tensors and name not in fed and
                             not (name in read and self.fetches_leave) for name in self.fetches]
        # Outputs: only the tensors somebody reads (or fetches) get a slot.
        outputs_of = {}
        for name, slot in slots.items():
            if name.endswith(_READ_KEY):          # filled by a _READ step, not by the op
                continue
            op_name, _, index = name.rpartition(":")
            outputs_of.setdefault(op_name, []).append((int(index), slot))
        for step in steps:
            used = sorted(outputs_of.get(step[6]["name"], ()))
            if step[7]:
                step[2] = tuple(used)
                step[3] |= _MULTI
            else:
                step[2] = used[0][1] if used else len(slots)
        self._steps = [tuple(s[:7]) + (s[8],) for s in steps]
        self._num_slots = len(slots) + 1          # the last slot swallows unused outputs

    def _leaving_references(self, order):
        """The variable references whose value leaves the task: inputs of _Send ops, and the
        fetched ones when the fetches go to a master on another task (not the fed ones)."""
        ref_outputs = {nd["name"]: get_op_def(nd["op"]).ref_outputs for nd in order}

        def is_ref(tensor_name):
            name, index = parse_input(tensor_name)
            return index in ref_outputs.get(name, ())

        leaving = {normalize_tensor_name(t) for nd in order if nd["op"] in _SEND_OPS
                   for t in nd["input"] if not t.startswith("^") and is_ref(t)}
        if self.fetches_leave:
            leaving.update(f for f in self.fetches if is_ref(f))
        return leaving - set(self.feeds)

    # -- 4: run -----------------------------------------------------------------------
    def run(self, feed_values=(), step=None):
        """Runs one step; returns the fetched values in the order of `fetches`."""
        step = step or StepState()
        vals = [None] * self._num_slots
        for slot, value in zip(self._feed_slots, feed_values):
            vals[slot] = value
        stats = step.stats
        node = None
        try:
            with np.errstate(all="ignore"):
                for fn, ins, out, flags, deref, attrs, node, reads in self._steps:
                    if stats is not None:
                        start = time.time_ns()
                    if not flags:                   # the usual op: values in, one value out
                        if len(ins) == 2:           # (no list for the inputs of most ops)
                            vals[out] = fn(vals[ins[0]], vals[ins[1]])
                        elif len(ins) == 1:
                            vals[out] = fn(vals[ins[0]])
                        else:
                            vals[out] = fn(*[vals[i] for i in ins])
                    else:
                        if flags & _READ:           # references leaving the task: read now
                            for ref, value, name in reads:
                                vals[value] = vals[ref].read(name)
                        args = [vals[i] for i in ins]
                        for i in deref:
                            args[i] = args[i].read(node["name"])
                        if flags & _ATTRS:          # the node's attrs, after its inputs
                            args += attrs
                        result = fn(step, *args) if flags & _CTX else fn(*args)
                        if flags & _MULTI:
                            for index, slot in out:
                                vals[slot] = result[index]
                        else:
                            vals[out] = result
                    if stats is not None:
                        stats.append((node["name"], node["op"], node.get("device", ""), start,
                                      time.time_ns()))
            node = None                             # what follows is no node's doing
            outputs = [vals[s] for s in self._fetch_slots]
            for i, needs_deref in enumerate(self._fetch_deref):
                if needs_deref:
                    outputs[i] = outputs[i].read(parse_input(self.fetches[i])[0])
            return outputs
        except errors.OpError as e:
            if e.node_def is None and node is not None:
                e._node_def = node["name"]
            raise
        except Exception as e:
            if node is None:
                raise
            raise _kernel_failure(node, e) from e


# What NumPy raises for inputs a kernel cannot take (shapes that do not broadcast, an index
# out of range, a value of the wrong kind): the op's InvalidArgumentError, as TF's kernels
# report bad inputs. Anything else a kernel raises is a bug in that kernel: an InternalError.
_BAD_INPUT = (ValueError, TypeError, IndexError, ArithmeticError)


def _kernel_failure(node, e):
    """The OpError for a plain Python exception `e` raised by the kernel of `node`, naming the
    op, its type and the device (so the task) it ran on."""
    where = f"{node['op']} op {node['name']!r}"
    device = node.get("device")
    if device:
        where += f" on {device}"
    if isinstance(e, _BAD_INPUT):
        return errors.InvalidArgumentError(node["name"], None,
                                           f"{where} failed: {type(e).__name__}: {e}")
    return errors.InternalError(
        node["name"], None, f"Internal error in {where}: {type(e).__name__}: {e}. This is a "
        f"bug in the sandbox's kernel of {node['op']}, not in your program; please report it "
        "with this message.")
