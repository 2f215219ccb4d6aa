"""`tf.cond` and `tf.case` as one functional op, `If` -- mirrors TensorFlow 2's cond_v2.py (the
If op of core/kernels/functional_ops.cc) with TensorFlow 1.15's API (ops/control_flow_ops.py).

What TensorFlow 1.15 does: `tf.cond` builds a Switch op per tensor a branch uses and a Merge per
result. A Switch forwards its input to one of its two outputs and marks the other *dead*; every
op downstream of a dead tensor is skipped (its outputs are dead too), across devices as well
(a _Send carries the deadness), and the Merge passes on whichever input is alive. So only the
taken branch's ops run, wherever they are placed.

What the sandbox does: TF 2's design (also TF 1.15's with `enable_control_flow_v2`). Each branch
is built in a FuncGraph (ops/func_graph.py) and becomes an attr of ONE op:

    If(pred, *captured) -> (*results, record)     then_branch / else_branch: node defs

Its kernel runs the taken branch's node defs with a nested Executor on the If's device; the
other branch's ops never run, side effects included. Why not Switch/Merge: the sandbox's
executor runs a piece in a fixed order and a dead tensor would have to be a value the executor,
the _Send/_Recv pair and the wire all understand -- and tf.while_loop needs a functional op
anyway (see while_v2.py), so one mechanism serves both.

What differs from TF 1.15:
  * A branch runs on ONE device, the If's (the device scope where tf.cond is called, as TF 1
    places the Merge). What a branch reads from another device (a variable on the ps) is
    computed there and sent as an input BEFORE the If runs, whichever branch is taken (TF 1
    would read it only for the taken branch). A branch that CHANGES a variable (assign) runs
    where the variable lives: the If is colocated with it.
  * Tensors and ops made outside the branch functions run whether or not the branch is taken
    -- as in TF 1.15.
  * Variables cannot be created inside a branch (the error says so); ops a branch adds to
    collections (summaries, UPDATE_OPS) stay in the branch's FuncGraph.

Gradients: the gradient of an If is an IfGrad op holding each branch's gradient, built with
tf.gradients inside that branch's FuncGraph. It must use the forward values of the branch that
ran (a dropout mask inside a branch must not be drawn again): the forward If keeps them in its
last output, the *record* (a dict of the branch's intermediate values, dtype string in the
graph where TF uses variant), and IfGrad feeds them to the gradient ops instead of recomputing.
"""
import contextlib
import functools

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .control_flow_ops import identity
from .func_graph import (FuncGraph, assert_same_structure, flatten, pack_sequence_as, refresh,
                         to_output_tensors)

__all__ = ["cond", "case"]


def _run_branch(ctx, step, fn, values, extra_fetches=()):
    """Runs the function attr `fn` on `values`; returns (outputs, extra fetched values)."""
    fetches = list(fn["outputs"]) + list(extra_fetches)
    key = (fn["name"], len(fn["nodes"]), tuple(extra_fetches))
    executor = ctx.function(key, fn["nodes"], fn["inputs"], fetches)
    got = executor.run(values, step)
    n = len(fn["outputs"])
    return got[:n], got[n:]


class If(OpDef):
    """Runs then_branch(*inputs) if cond is true, else else_branch(*inputs)."""
    uses_context = True
    stateful = True            # a branch may change variables: never cached, never folded
    multi_output = True

    def kernel(ctx, step, cond, *inputs, then_branch=None, else_branch=None, Tout=None):
        cond = _scalar_pred(ctx.name, cond)
        fn = then_branch if cond else else_branch
        values = [inputs[i] for i in fn["input_index"]]
        outputs, kept = _run_branch(ctx, step, fn, values, fn.get("keep", ()))
        record = dict(zip(fn.get("keep", ()), kept))
        return tuple(outputs) + (record,)

    def gradient(op, *grads):
        return _if_grad(op, grads)


class IfGrad(OpDef):
    """The gradient of an If: runs the taken branch's gradient ops on the recorded values."""
    uses_context = True
    stateful = True
    multi_output = True
    gradient = None

    def kernel(ctx, step, cond, record, *values_and_grads, then_grad=None, else_grad=None,
               n_values=0):
        g = then_grad if _scalar_pred(ctx.name, cond) else else_grad
        values, grads = values_and_grads[:n_values], values_and_grads[n_values:]
        fn = g["fn"]
        feeds = [values[i] for i in fn["input_index"]] + [record[k] for k in g["keep"]] + \
            list(grads)
        wanted = [name for name in g["grad_outputs"] if name is not None]
        key = ("grad:" + fn["name"], len(fn["nodes"]), tuple(g["keep"]), tuple(wanted))
        executor = ctx.function(key, fn["nodes"], fn["inputs"] + g["keep"] + g["grad_inputs"],
                                wanted)
        got = iter(executor.run(feeds, step))
        result = [_zeros_like(v) for v in values]
        for i, name in zip(fn["input_index"], g["grad_outputs"]):
            if name is not None:
                result[i] = next(got)
        return tuple(result)


def _zeros_like(value):
    value = np.asarray(value)
    return np.zeros(value.shape, value.dtype if value.dtype != object else np.float32)


def _scalar_pred(name, cond):
    cond = np.asarray(cond)
    if cond.shape != ():
        raise errors.InvalidArgumentError(
            name, None, f"The predicate of {name!r} must be a scalar bool, but it has shape "
            f"{list(cond.shape)}. Reduce it first (tf.reduce_all / tf.reduce_any).")
    return bool(cond)


# -- building ------------------------------------------------------------------------------

def _build_branch(fn, name, outer):
    """Calls `fn` inside a FuncGraph; returns (graph, structure, output tensors)."""
    if not callable(fn):
        raise TypeError(f"{name.rstrip('/').rsplit('/', 1)[-1]} must be callable.")
    fg = FuncGraph(name, outer)
    with fg.building():
        structure = fn()
        outputs = [fg.capture(t) if t.graph is not fg else t
                   for t in to_output_tensors(structure, name)]
    return fg, structure, outputs


def _common_shape(a, b):
    if a.dims is None or b.dims is None or len(a.dims) != len(b.dims):
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """true_fn() if `pred` else false_fn(); only the taken function's ops run."""
    true_fn = true_fn if true_fn is not None else fn1
    false_fn = false_fn if false_fn is not None else fn2
    if true_fn is None:
        raise TypeError("cond(): true_fn argument required")
    if false_fn is None:
        raise TypeError("cond(): false_fn argument required")
    if not callable(true_fn):
        raise TypeError("true_fn must be callable.")
    if not callable(false_fn):
        raise TypeError("false_fn must be callable.")
    if isinstance(pred, bool):
        raise TypeError("pred must not be a Python bool")
    pred = convert_to_tensor(pred)
    g = get_default_graph()
    if pred.get_shape().ndims not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {pred.get_shape().ndims} for "
                         f"the predicate {pred.name!r} of tf.cond: a predicate is a scalar "
                         "bool (reduce it with tf.reduce_all / tf.reduce_any).")
    if pred.dtype.base_dtype != _dtypes.bool:
        raise TypeError(f"The predicate of tf.cond must be a bool tensor, got {pred.dtype.name} "
                        f"({pred.name}).")
    with g.name_scope(name or "cond") as scope:
        then_g, then_s, then_out = _build_branch(true_fn, scope + "then", g)
        else_g, else_s, else_out = _build_branch(false_fn, scope + "else", g)
        assert_same_structure(then_s, else_s, "true_fn and false_fn")
        for a, b in zip(then_out, else_out):
            if a.dtype.base_dtype != b.dtype.base_dtype:
                raise ValueError(f"Outputs of true_fn and false_fn must have the same type: "
                                 f"{a.dtype.name}, {b.dtype.name}")
        captured = list(dict.fromkeys(then_g.outer_inputs() + else_g.outer_inputs()))
        attrs = {"Tout": [t.dtype.base_dtype for t in then_out]}
        for key, fg, outs in (("then_branch", then_g, then_out), ("else_branch", else_g,
                                                                 else_out)):
            attrs[key] = fg.function_attr(outs)
            attrs[key]["input_index"] = [captured.index(t) for t in fg.outer_inputs()]
            attrs[key]["keep"] = []
        op = _create_functional_op(g, "If", [pred] + captured,
                                   attrs["Tout"] + [_dtypes.string], attrs, "If",
                                   [then_g, else_g])
        op._branch_graphs = (then_g, else_g)
        results = op.outputs[:-1]
        for t, a, b in zip(results, then_out, else_out):
            t.set_shape(_common_shape(a.get_shape(), b.get_shape()))
    if not strict and isinstance(then_s, (list, tuple)) and len(then_s) == 1 and \
            not isinstance(then_s[0], (list, tuple, dict)):
        then_s = then_s[0]
    return pack_sequence_as(then_s, results) if flatten(then_s) else op


def _create_functional_op(g, op_type, inputs, dtypes, attrs, name, graphs):
    """The op, waiting for the outer ops its functions waited for, and colocated with the
    variables they change."""
    control = [c for fg in graphs for c in fg.outer_control]
    variables = list(dict.fromkeys(v for fg in graphs for v in fg.variables))
    devices = sorted({v.device for v in variables if v.device})
    if len(devices) > 1:
        raise ValueError(
            f"The functions of this {op_type} change variables on several devices ("
            f"{', '.join(devices)}: {', '.join(v.name for v in variables)}). The sandbox runs "
            f"an {op_type}'s functions on one device, where the variables they change live: "
            "change variables of one device per tf.cond / tf.while_loop.")
    with g.control_dependencies(control), contextlib.ExitStack() as stack:
        for v in variables:                    # each one's colocation group: one device
            stack.enter_context(g.colocate_with(v))
        return g.create_op(op_type, inputs, dtypes, name=name, attrs=attrs)


# -- gradient ------------------------------------------------------------------------------

def branch_gradient(fg, fn, ys, float_idx):
    """Adds to `fg` the gradient of its outputs `ys[float_idx]` w.r.t. its inputs; returns the
    attrs for the gradient op: which forward values it reads, its inputs and outputs."""
    from .gradients import gradients
    forward = set(fg.get_operations())
    n_before = len(fg.get_operations())
    xs = [fg.get_tensor_by_name(n) for n in fn["inputs"]]
    with fg.building():
        gys = [fg.create_op("Placeholder", [], [ys[i].dtype.base_dtype], name="grad_y",
                            attrs={"dtype": ys[i].dtype.base_dtype,
                                   "shape": ys[i].get_shape()}).outputs[0] for i in float_idx]
        dxs = gradients([ys[i] for i in float_idx], xs, grad_ys=gys) if float_idx and xs \
            else [None] * len(xs)
        dxs = [None if d is None or not x.dtype.base_dtype.is_floating else convert_to_tensor(d)
               for x, d in zip(xs, dxs)]
    keep = sorted({t.name for op in fg.get_operations()[n_before:] for t in op.inputs
                   if t.op in forward and t.op.type != "Placeholder" and
                   not t.dtype.is_ref})
    fn["keep"] = sorted(set(fn.get("keep", [])) | set(keep))
    refresh(fn, fg)
    return {"fn": fn, "keep": keep, "grad_inputs": [t.name for t in gys],
            "grad_outputs": [d.name if d is not None else None for d in dxs]}


def _if_grad(op, grads):
    n_out = len(op.outputs) - 1
    float_idx = [i for i in range(n_out) if op.outputs[i].dtype.base_dtype.is_floating]
    attrs = {}
    for key, fg in zip(("then_branch", "else_branch"), _graphs_of(op, "_branch_graphs")):
        fn = op.get_attr(key)
        ys = [fg.get_tensor_by_name(n) for n in fn["outputs"]]
        attrs[key.replace("branch", "grad")] = branch_gradient(fg, fn, ys, float_idx)
    values = list(op.inputs[1:])
    attrs["n_values"] = len(values)
    g = op.graph
    with g.colocate_with(op):
        grad_op = g.create_op("IfGrad", [op.inputs[0], op.outputs[-1]] + values +
                              [grads[i] for i in float_idx],
                              [v.dtype.base_dtype for v in values], name="IfGrad", attrs=attrs)
    for t, v in zip(grad_op.outputs, values):
        t.set_shape(v.get_shape())
    return [None] + grad_op.outputs


def _graphs_of(op, attr):
    graphs = getattr(op, attr, None)
    if graphs is None:
        raise LookupError(f"No gradient for {op.type} op {op.name!r}: its gradient is built "
                          "from the Python functions' graphs, which this graph (imported, not "
                          "built by this program) does not have. Call tf.gradients in the "
                          "program that builds the tf.cond / tf.while_loop.")
    return graphs


# -- tf.case -------------------------------------------------------------------------------

def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The result of the first fn whose pred is true (else `default`), as nested tf.conds."""
    from . import logging_ops
    if isinstance(pred_fn_pairs, dict):
        pairs = list(pred_fn_pairs.items())
    elif isinstance(pred_fn_pairs, (list, tuple)):
        pairs = list(pred_fn_pairs)
    else:
        raise TypeError("fns must be a list, tuple, or dict")
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError("Each entry in pred_fn_pairs must be a 2-tuple")
        if not callable(pair[1]):
            raise TypeError("fn for pred %s must be callable." % getattr(pair[0], "name", "?"))
        if not isinstance(pair[0], Tensor) or pair[0].dtype.base_dtype != _dtypes.bool:
            raise TypeError("pred must be Tensor of type bool: %s" % getattr(pair[0], "name",
                                                                            pair[0]))
    if default is not None and not callable(default):
        raise TypeError("default must be callable.")
    g = get_default_graph()
    with g.name_scope(name or "case"):
        preds = [p for p, _ in pairs]
        fns = [f for _, f in pairs]
        if default is None:                            # TF: the last fn, checked by asserts
            k = len(preds) - 1
            last_pred, last_fn = preds[k], fns[k]
            others = preds[:k]
            all_preds = list(preds)

            def default():
                checks = [logging_ops.Assert(last_pred, [
                    "Input error: None of conditions evaluated as True:",
                    _stack(all_preds)], summarize=len(all_preds))]
                if others:
                    checks.append(_at_most_n_true(others, 0, "Implementation error: selected "
                                                  f"default action #{k} was called, but some "
                                                  "of other predicates are True: "))
                with get_default_graph().control_dependencies(checks):
                    return _pass_through(last_fn())
            preds, fns = others, fns[:k]
        fn = default
        for p, f in reversed(list(zip(preds, fns))):
            fn = functools.partial(cond, p, f, fn, strict)
        if exclusive:
            with g.control_dependencies([_at_most_n_true(preds, 1,
                                                         "Input error: exclusive=True")]):
                return fn()
        return fn()


def _pass_through(structure):
    """Every tensor of `structure` through an Identity made here (inside the current control
    dependencies, so that returning an outer tensor still waits for them)."""
    return pack_sequence_as(structure, [identity(t) for t in to_output_tensors(structure,
                                                                              "fn")])


def _stack(preds):
    from .array_ops import stack
    return stack(preds, name="preds_c")


def _at_most_n_true(preds, n, msg):
    from . import logging_ops, math_ops
    from .comparison_ops import less_equal
    from .reduction_ops import reduce_sum
    preds_c = _stack(preds)
    num = reduce_sum(math_ops.cast(preds_c, _dtypes.int32), name="num_true_conds")
    names = ", ".join(getattr(p, "name", "?") for p in preds)
    return logging_ops.Assert(less_equal(num, n),
                              [f"{msg}: more than {n} conditions ({names}) evaluated as True:",
                               preds_c], summarize=len(preds))
