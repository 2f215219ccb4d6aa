"""Functions for tf.data -- mirrors how TensorFlow traces a Python function into a graph
function (python/framework/func_graph.py, FunctionDef) and runs it (core/common_runtime/
function.cc), as `Dataset.map(fn)` and `Dataset.filter(fn)` need.

`ds.map(lambda x: x * 2)` does not keep the lambda: a task in another process could not run
it (nothing received over the wire is ever unpickled). It *traces* it once, as TensorFlow
does: the lambda is called on placeholder tensors standing for one element, the ops it builds
are the function's body, and the body travels as plain data -- a list of NodeDefs, like any
graph piece -- inside the iterator's op. The iterator's kernel then runs the body once per
element with the small loop below (kernels in topological order, as runtime/executor.py does
for a whole graph piece).

Tracing happens in the default graph -- the sandbox's ops pick the graph of their first input,
so a separate graph could not take `x * w` with `w` from the outer graph -- and the body ops
are taken out of it afterwards, so the graph a student inspects holds no trace of them (in
TF they live in the graph's function library, not among its ops). A body op that reads a
tensor of the outer graph (a Variable, a placeholder) *captures* it: that tensor becomes an
input of the iterator's op and the body receives its value, read when the iterator is
initialized (TF 1.15 reads a captured ref variable the same way).
"""
import inspect

import numpy as np

from ..framework import errors
from ..framework.graph import get_default_graph

__all__ = ["trace_function", "subgraph_function", "FunctionRunner"]

_STATEFUL_CAPTURE = ("VariableV2", "Variable", "VarHandleOp", "IteratorV2", "OneShotIterator",
                     "FIFOQueueV2", "RandomShuffleQueueV2", "ConditionalAccumulator",
                     "SparseConditionalAccumulator")


def _node_def(op):
    """The plain-data NodeDef of `op` (no control inputs: the body runs in creation order)."""
    return {"name": op.name, "op": op.type, "input": [t._as_node_def_input() for t in op.inputs],
            "attr": {k: v for k, v in op.attrs.items() if not k.startswith("_")}}


def _tensor_key(t):
    return f"{t.op.name}:{t.value_index}"


def trace_function(call, arg_specs, what):
    """Traces `call(placeholders)` -- which calls the user's function on the element built
    from the placeholders and returns (the flat list of output tensors, anything else) -- and
    returns (function, captured outer tensors, [(dtype, shape)] of the outputs, anything else).

    `function` is plain data: {"nodes": [NodeDef...], "args": [tensor names],
    "captures": [tensor names], "outputs": [tensor names]}; `what` names the function in
    errors ("the function of Dataset.map")."""
    from .constant_op import placeholder
    g = get_default_graph()
    start = len(g._nodes)
    # TF traces into a graph of the function's own, so the names and seeds the body uses are
    # not the outer graph's: keep the outer graph's (its next 'Cast', its next random op's
    # seed) as they were, and count the body's random ops from 0 as a new graph does.
    names_in_use, seed_count = dict(g._names_in_use), g._random_seed_count
    g._random_seed_count = 0
    with g.control_dependencies(None):
        try:
            args = [placeholder(dtype, shape, name=f"arg{i}")
                    for i, (dtype, shape) in enumerate(arg_specs)]
            outputs, extra = call(args)
        except BaseException:
            _remove_ops(g, g._nodes[start:])
            g._names_in_use, g._random_seed_count = names_in_use, seed_count
            raise
    body = g._nodes[start:]
    body_set = set(body)
    for op in body:
        if op.type in ("VariableV2", "VarHandleOp"):
            _remove_ops(g, body)
            g._names_in_use, g._random_seed_count = names_in_use, seed_count
            raise ValueError(f"{what} creates the variable {op.name!r}: a tf.data function "
                             "cannot create variables. Create it outside the function and "
                             "use it inside (it is captured).")
    # The body ops the outputs need, in creation (so topological) order; captures on the way.
    needed, stack, captures = set(), [t.op for t in outputs if t.op in body_set], []
    for t in outputs:
        if t.op not in body_set and t not in captures:
            captures.append(t)                # fn returned an outer tensor itself
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        needed.add(op)
        for t in op.inputs:
            if t.op in body_set:
                stack.append(t.op)
            elif t not in captures:
                captures.append(t)
        stack.extend(c for c in op.control_inputs if c in body_set)
    arg_ops = {t.op for t in args}
    nodes = [_node_def(op) for op in body if op in needed and op not in arg_ops]
    function = {"nodes": nodes, "args": [_tensor_key(t) for t in args],
                "captures": [_tensor_key(t) for t in captures],
                "outputs": [_tensor_key(t) for t in outputs]}
    specs = [(t.dtype, t.get_shape()) for t in outputs]
    _remove_ops(g, body)
    g._names_in_use, g._random_seed_count = names_in_use, seed_count
    return function, captures, specs, extra


def _remove_ops(g, ops):
    """Takes the traced body back out of the graph (they were the last ops added)."""
    ops = list(ops)
    if not ops:
        return
    gone = set(ops)
    with g._lock:
        g._nodes[:] = [op for op in g._nodes if op not in gone]
        for op in ops:
            g._nodes_by_name.pop(op.name, None)
            for t in op.inputs:
                if t.op not in gone and op in t._consumers:
                    t._consumers.remove(op)
            for c in op.control_inputs:
                if c not in gone and op in c._control_outputs:
                    c._control_outputs.remove(op)
        for items in g._collections.values():
            items[:] = [x for x in items if not (getattr(x, "op", None) in gone or
                                                 (isinstance(x, type(ops[0])) and x in gone))]
        g._version += 1


def subgraph_function(tensors, what):
    """The function that computes `tensors` of the outer graph from nothing: what a one-shot
    iterator runs once to build its dataset (TF's `dataset_factory`). Raises ValueError, as TF
    does, when they depend on a placeholder or on state (a variable, a queue)."""
    needed, stack = set(), [t.op for t in tensors]
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        if op.type in ("Placeholder", "PlaceholderWithDefault"):
            raise ValueError(f"Cannot capture a placeholder (name:{op.name}, type:{op.type}) "
                             f"by value: {what} cannot depend on a placeholder. Use "
                             "dataset.make_initializable_iterator() and feed the placeholder "
                             "when you run its initializer.")
        if op.type in _STATEFUL_CAPTURE:
            raise ValueError(
                "Failed to create a one-shot iterator for a dataset. "
                "`Dataset.make_one_shot_iterator()` does not support datasets that capture "
                "stateful objects, such as a `Variable` or `LookupTable`. In these cases, use "
                f"`Dataset.make_initializable_iterator()`. (Original error: Cannot capture a "
                f"stateful node (name:{op.name}, type:{op.type}) by value.)")
        needed.add(op)
        stack.extend(t.op for t in op.inputs)
    nodes = [_node_def(op) for op in op_order(needed)]
    return {"nodes": nodes, "args": [], "captures": [],
            "outputs": [_tensor_key(t) for t in tensors]}


def op_order(ops):
    return sorted(ops, key=lambda op: op._id)


# -- running a function ---------------------------------------------------------------------

class _Context:
    """What a `uses_context` kernel inside a function gets (runtime/executor.py's
    NodeContext, duck-typed: the ops layer cannot import the runtime)."""

    __slots__ = ("name", "op_type", "device", "resources", "state", "attrs")

    def __init__(self, name, op_type, device, resources, state, attrs):
        self.name, self.op_type, self.device = name, op_type, device
        self.resources, self.state, self.attrs = resources, state, attrs


def _kernel_attrs(kernel, attrs):
    """The attrs the kernel's signature names (all of them for a **kwargs kernel)."""
    try:
        params = inspect.signature(kernel).parameters
    except (TypeError, ValueError):
        return dict(attrs)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return dict(attrs)
    return {k: v for k, v in attrs.items() if k in params}


class FunctionRunner:
    """A function, bound to the task that runs it: call it with the values of its args and
    captures, get the values of its outputs. Random ops in the body keep their generators
    from one call to the next (a new number for every element)."""

    def __init__(self, function, what, resources=None, device=""):
        from ..framework.op_def import get_op_def
        self.what = what
        self.args = function["args"]
        self.captures = function["captures"]
        self.outputs = function["outputs"]
        refs = set()
        self.steps = []
        for nd in function["nodes"]:
            op_def = get_op_def(nd["op"])
            attrs = _kernel_attrs(op_def.kernel, nd["attr"])
            ins = [_normalize(t) for t in nd["input"] if not t.startswith("^")]
            deref = [i for i, t in enumerate(ins) if t in refs and i not in op_def.ref_inputs]
            refs.update(f"{nd['name']}:{i}" for i in op_def.ref_outputs)
            ctx = _Context(nd["name"], nd["op"], device, resources, {}, nd["attr"]) \
                if op_def.uses_context else None
            self.steps.append((op_def.kernel, ins, attrs, ctx, op_def.multi_output, deref, nd))

    def __call__(self, args=(), captures=(), step=None):
        vals = dict(zip(self.args, args))
        vals.update(zip(self.captures, captures))
        for kernel, ins, attrs, ctx, multi, deref, nd in self.steps:
            inputs = [vals[t] for t in ins]
            for i in deref:
                inputs[i] = inputs[i].read(nd["name"])
            try:
                with np.errstate(all="ignore"):
                    out = kernel(ctx, step, *inputs, **attrs) if ctx is not None \
                        else kernel(*inputs, **attrs)
            except errors.OpError:
                raise
            except Exception as e:
                raise errors.InvalidArgumentError(
                    nd["name"], None, f"{nd['op']} op {nd['name']!r} in {self.what} failed: "
                    f"{type(e).__name__}: {e}") from e
            if multi:
                for i, v in enumerate(out):
                    vals[f"{nd['name']}:{i}"] = v
            else:
                vals[f"{nd['name']}:0"] = out
        return tuple(vals[t] for t in self.outputs)


def _normalize(text):
    name, sep, index = text.rpartition(":")
    if sep and index.isdigit():
        return text
    return f"{text}:0"
