"""`tf.while_loop` as one functional op, `While` -- mirrors TensorFlow 2's while_v2.py (the While
op of core/kernels/functional_ops.cc) with TensorFlow 1.15's API (ops/control_flow_ops.py).

What TensorFlow 1.15 does: a loop is a *frame* of ops in the graph itself -- Enter takes the
loop variables in, Merge joins them with the NextIteration of the previous iteration, LoopCond
and Switch decide, Exit lets the final values out -- and its executor runs the body's ops once
per iteration, tagging every tensor with its frame and iteration. Gradients keep each
iteration's values on stacks (StackPush in the forward loop, StackPop in the backward one).

What the sandbox does: cond and body are built once each in a FuncGraph (ops/func_graph.py) and
held by ONE op,

    While(*loop_vars, *captured) -> (*final loop_vars, record)

whose kernel runs `cond` and `body` with nested Executors on its device until cond is false
(or `maximum_iterations` is reached). The whole loop runs on that one device; what it reads
from other devices is sent in before it starts (see cond_v2.py for the same rule).
`parallel_iterations`, `back_prop` and `swap_memory` are accepted and change nothing: the
iterations run one after the other.

Gradients: once tf.gradients asks for the While's gradient, the forward While records, per
iteration, the body's inputs and the intermediate values its gradient needs (the record,
TF 2 keeps them in TensorList accumulators); WhileGrad then runs the body's gradient (built
with tf.gradients inside the body's FuncGraph) from the last iteration back to the first.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .cond_v2 import _create_functional_op, _graphs_of, _zeros_like, branch_gradient
from .func_graph import (FuncGraph, assert_same_structure, flatten, is_tensor_array,
                         pack_sequence_as, to_flow)

__all__ = ["while_loop"]


def _run(ctx, step, fn, values, extra=()):
    """One run of function attr `fn` on `values`: (its outputs, the `extra` values)."""
    fetches = list(fn["outputs"]) + list(extra)
    executor = ctx.function((fn["name"], len(fn["nodes"]), tuple(extra)), fn["nodes"],
                            fn["inputs"], fetches)
    got = executor.run(values, step)
    return got[:len(fn["outputs"])], got[len(fn["outputs"]):]


class While(OpDef):
    """Runs body while cond is true; outputs the final loop variables (and the record)."""
    uses_context = True
    stateful = True
    multi_output = True

    def kernel(ctx, step, *inputs, cond=None, body=None, n_vars=0, T=None,
               shapes=None):
        loop_vars = list(inputs[:n_vars])
        cond_caps = [inputs[i] for i in cond["input_index"]]
        body_caps = [inputs[i] for i in body["input_index"]]
        max_iter = inputs[-1]
        keep = body.get("keep", [])
        recording = bool(body.get("record"))
        record = []
        i = 0
        while max_iter < 0 or i < max_iter:
            (c,), _ = _run(ctx, step, cond, loop_vars + cond_caps)
            if np.asarray(c).shape != ():
                raise errors.InvalidArgumentError(
                    ctx.name, None, f"The cond of while loop {ctx.name!r} must return a scalar "
                    f"bool, got shape {list(np.shape(c))}.")
            if not c:
                break
            step.check(ctx.name)
            new, kept = _run(ctx, step, body, loop_vars + body_caps, keep)
            if recording:
                record.append((loop_vars, dict(zip(keep, kept))))
            for j, (old, value) in enumerate(zip(loop_vars, new)):
                if shapes and shapes[j] is not None and not TensorShape(shapes[j]) \
                        .is_compatible_with(np.shape(value)):
                    raise errors.InvalidArgumentError(
                        ctx.name, None, f"Loop variable {j} of while loop {ctx.name!r} "
                        f"entered the loop with shape {list(np.shape(old))} and has shape "
                        f"{list(np.shape(value))} after one iteration. Give "
                        "tf.while_loop a shape_invariants entry that allows both.")
            loop_vars = list(new)
            i += 1
        return tuple(loop_vars) + ({"iterations": record},)

    def gradient(op, *grads):
        return _while_grad(op, grads)


class WhileGrad(OpDef):
    """Runs the body's gradient over the recorded iterations, last to first."""
    uses_context = True
    stateful = True
    multi_output = True
    gradient = None

    def kernel(ctx, step, record, *values_and_grads, body_grad=None, n_vars=0, n_values=0,
               float_vars=None):
        values, grads = values_and_grads[:n_values], list(values_and_grads[n_values:])
        fn = body_grad["fn"]
        caps_index = fn["input_index"]
        caps = [values[i] for i in caps_index]
        g_vars = [_zeros_like(v) for v in values[:n_vars]]
        for j, gv in zip(float_vars, grads):
            g_vars[j] = gv
        g_caps = [_zeros_like(c) for c in caps]
        wanted = [n for n in body_grad["grad_outputs"] if n is not None]
        executor = ctx.function(("grad:" + fn["name"], len(fn["nodes"]),
                                 tuple(body_grad["keep"]), tuple(wanted)), fn["nodes"],
                                fn["inputs"] + body_grad["keep"] + body_grad["grad_inputs"],
                                wanted)
        for loop_vars, kept in reversed(record["iterations"]):
            got = iter(executor.run(list(loop_vars) + caps + [kept[k] for k in body_grad[
                "keep"]] + [g_vars[j] for j in float_vars], step))
            result = [next(got) if n is not None else None for n in body_grad["grad_outputs"]]
            g_vars = [r if r is not None else _zeros_like(v)
                      for r, v in zip(result[:n_vars], g_vars)]
            g_caps = [c + r if r is not None else c for c, r in zip(g_caps, result[n_vars:])]
        out = list(g_vars) + [_zeros_like(v) for v in values[n_vars:]]
        for i, gc in zip(caps_index, g_caps):
            out[i] = gc
        return tuple(out)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
    """Repeats `body` while `cond` is true; returns the final loop variables."""
    if not callable(cond):
        raise TypeError("cond must be callable.")
    if not callable(body):
        raise TypeError("body must be callable.")
    if parallel_iterations < 1:
        raise TypeError("parallel_iterations must be a positive integer.")
    g = get_default_graph()
    with g.name_scope(name or "while") as scope:
        flat_vars = [convert_to_tensor(to_flow(v)) for v in flatten(loop_vars)]
        if not flat_vars:
            raise ValueError("No loop variables provided")
        if shape_invariants is not None:
            assert_same_structure(loop_vars, shape_invariants, "loop_vars and shape_invariants")
            invariants = [TensorShape([]) if is_tensor_array(v) else TensorShape(s)
                          for v, s in zip(flatten(loop_vars), flatten(shape_invariants))]
        else:
            invariants = [v.get_shape() for v in flat_vars]
        cond_g = FuncGraph(scope + "cond", g)
        body_g = FuncGraph(scope + "body", g)
        args = {}
        for fg in (cond_g, body_g):
            with fg.building():
                args[fg] = [fg.make_input(v.dtype.base_dtype, s, "loop_var")
                            for v, s in zip(flat_vars, invariants)]
                for a, s in zip(args[fg], invariants):
                    a.set_shape(s)
        with cond_g.building():
            c = cond(*_packed(loop_vars, args[cond_g]))
            c = convert_to_tensor(c)
            if c.dtype.base_dtype != _dtypes.bool:
                raise TypeError(f"The cond of tf.while_loop must return a bool tensor, got "
                                f"{c.dtype.name}.")
            c = cond_g.capture(c) if c.graph is not cond_g else c
        with body_g.building():
            result = body(*_packed(loop_vars, args[body_g]))
            structure = list(loop_vars) if isinstance(loop_vars, (list, tuple)) \
                else [loop_vars]
            if not isinstance(result, (list, tuple)) and (
                    len(structure) == 1 or not isinstance(loop_vars, (list, tuple))):
                result = [result]                    # body(x) -> x + 1 for one loop variable
            assert_same_structure(structure, result, "The body's results and loop_vars")
            new = [convert_to_tensor(to_flow(r), dtype=v.dtype.base_dtype)
                   for r, v in zip(flatten(result), flat_vars)]
            new = [body_g.capture(t) if t.graph is not body_g else t for t in new]
        for t, s, v in zip(new, invariants, flat_vars):
            if not s.is_compatible_with(t.get_shape()):
                raise ValueError(
                    f"Input tensor '{v.name}' enters the loop with shape {s}, but has shape "
                    f"{t.get_shape()} after one iteration. To allow the shape to vary across "
                    "iterations, use the `shape_invariants` argument of tf.while_loop to "
                    "specify a less-specific shape.")
        captured = list(dict.fromkeys(cond_g.outer_inputs() + body_g.outer_inputs()))
        n = len(flat_vars)
        attrs = {"cond": cond_g.function_attr([c]), "body": body_g.function_attr(new),
                 "n_vars": n, "T": [v.dtype.base_dtype for v in flat_vars],
                 "shapes": [None if s.dims is None else s for s in invariants]}
        for key, fg in (("cond", cond_g), ("body", body_g)):
            attrs[key]["input_index"] = [n + captured.index(t) for t in fg.outer_inputs()]
        max_iter = convert_to_tensor(-1 if maximum_iterations is None else maximum_iterations,
                                     dtype=_dtypes.int32, name="maximum_iterations")
        op = _create_functional_op(g, "While", flat_vars + captured + [max_iter],
                                   attrs["T"] + [_dtypes.string], attrs, "While",
                                   [cond_g, body_g])
        op._body_graph = body_g
        for t, s in zip(op.outputs, invariants):
            t.set_shape(s)
        outs = op.outputs[:n]
    packed = pack_sequence_as(loop_vars, outs)           # (TensorArrays rebuilt: func_graph)
    if not isinstance(loop_vars, (list, tuple)):
        return packed
    if len(outs) == 1 and not return_same_structure and len(loop_vars) == 1 and \
            not isinstance(loop_vars[0], (list, tuple, dict)):
        return packed[0]
    return packed


def _packed(structure, flat):
    """The arguments cond and body are called with: cond(*loop_vars), as TF does."""
    if not isinstance(structure, (list, tuple)):
        return [pack_sequence_as(structure, flat[:1])]
    return list(pack_sequence_as(structure, flat))


def _while_grad(op, grads):
    n = op.get_attr("n_vars")
    body = op.get_attr("body")
    fg = _graphs_of(op, "_body_graph")
    float_vars = [j for j in range(n) if op.outputs[j].dtype.base_dtype.is_floating]
    ys = [fg.get_tensor_by_name(name) for name in body["outputs"]]
    body_grad = branch_gradient(fg, body, ys, float_vars)
    body["record"] = True
    values = list(op.inputs[:-1])
    g = op.graph
    with g.colocate_with(op):
        grad_op = g.create_op("WhileGrad", [op.outputs[-1]] + values +
                              [grads[j] for j in float_vars],
                              [v.dtype.base_dtype for v in values], name="WhileGrad",
                              attrs={"body_grad": body_grad, "n_vars": n,
                                     "n_values": len(values), "float_vars": float_vars})
    for t, v in zip(grad_op.outputs, values):
        t.set_shape(v.get_shape())
    return grad_op.outputs + [None]
