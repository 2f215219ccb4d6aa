"""Conditional updates that span a worker and the parameter servers -- how the sandbox builds
what the distributed optimizers of TF 1.15's contrib/opt (drop_stale_gradient_optimizer.py,
elastic_average_optimizer.py, model_average_optimizer.py, agn_optimizer.py) build with ONE
`tf.cond(condition, update_fn, no_op)`.

Their branch changes variables on the worker AND on the ps, and talks to queues and
accumulators on the ps: "every `communication_period` steps, pull the center variables to the
worker, move both towards each other". A TF-1 cond is made of Switch and Merge ops placed op
by op: each op of the taken branch runs on its own device, and a tensor of the branch not taken
crosses the wire as a "dead" marker carrying no data -- so on the steps that do not
communicate, nothing but the predicate travels.

The sandbox's tf.cond is one functional If op (ops/cond_v2.py): its branch runs on ONE device,
and its inputs are computed -- and sent -- whether or not the branch is taken. So these
optimizers cut TF's branch by device into stages, each stage waiting for the one before:

  * `cond_on(device, pred, fn)` -- the part of the branch that runs on one device: one If
    there, whose branch changes that device's variables or uses its queues and accumulators.
    `cond_per_device(pred, work)` makes one such If per device of a list of jobs.
  * `rows_if(pred, value)` -- a value that must cross to another device only when the branch
    is taken: a batch of ONE row (value[None]) when pred is true, of ZERO rows when it is
    false, made by a dynamic_partition where the value is. Zero rows are a message of no
    bytes: when nothing is communicated, nothing crosses the wire. The If that receives it
    takes row 0 inside its branch.
  * `apply_gradients_if(opt, pred, grads_and_vars)` -- an optimizer's apply_gradients that
    runs only when pred is true: the updates in one If per device of the variables, then the
    optimizer's _finish (Adam's beta powers), then the global step.

The values come out as TF's, each variable stays where TF keeps it, and what the dashboard's
traffic shows is what TF sends: the predicate on every step, the values only on the steps
that communicate.

Two sandbox details are handled here rather than in each optimizer: a branch cannot create a
variable, so the wrapped optimizer's slots are made before the Ifs; and inside a branch the
default graph is the branch's own, so the optimizer's per-graph variables (Adam's beta powers)
are made visible there for the time the branch is built.
"""
import contextlib

from ...framework import dtypes
from ...framework.graph import get_default_graph, name_scope
from ...framework.indexed_slices import IndexedSlices
from ...framework.tensor import convert_to_tensor
from ...ops import array_ops, math_ops, state_ops
from ...ops.cond_v2 import cond
from ...ops.control_flow_ops import group, identity, no_op
from ...ops.partition_ops import dynamic_partition
from ...train.optimizer import Optimizer

__all__ = ["rows_if", "cond_on", "cond_per_device", "apply_gradients_if", "by_device"]


def rows_if(pred, value, name=None):
    """`value` as a batch of one row if `pred` is true, of zero rows if it is false.

    Made where `value` is (the caller's device scope): only a taken branch sends data."""
    with name_scope(name, "rows_if"):
        value = convert_to_tensor(value)
        select = array_ops.reshape(math_ops.cast(pred, dtypes.int32), [1])
        return dynamic_partition(array_ops.expand_dims(value, 0), select, 2)[1]


def cond_on(device, pred, true_fn, false_fn=None, name=None):
    """tf.cond(pred, true_fn, false_fn or no_op) as one If op on `device` (an If whose branch
    changes variables goes where they live, whatever `device` says)."""
    graph = get_default_graph()
    with graph.device(device):
        return cond(pred, true_fn, false_fn or no_op, name=name)


def by_device(items, device_of=lambda item: item.device):
    """[(device, [items on it]), ...] in the order the devices first appear."""
    groups = {}
    for item in items:
        groups.setdefault(device_of(item), []).append(item)
    return list(groups.items())


def cond_per_device(pred, work, name=None):
    """One If per device for `work`, a list of (device, fn): each If's branch calls the fns of
    its device, in order, and waits for what they return. Returns the If ops."""
    ifs = []
    for device, jobs in by_device(work, device_of=lambda job: job[0]):
        def branch(jobs=jobs):
            return group(*[fn() for _, fn in jobs])
        ifs.append(cond_on(device, pred, branch, name=name))
    return ifs


@contextlib.contextmanager
def _outer_non_slot_variables(opt):
    """Inside a branch, the optimizer's own variables of the outer graph (Adam's beta powers,
    looked up by the default graph) are found under the branch's graph too."""
    graph = get_default_graph()
    outer = getattr(graph, "outer", None)
    added = [(name, graph) for (name, g) in list(opt._non_slot_dict) if g is outer
             and (name, graph) not in opt._non_slot_dict]
    for name, _ in added:
        opt._non_slot_dict[(name, graph)] = opt._non_slot_dict[(name, outer)]
    try:
        yield
    finally:
        for key in added:
            del opt._non_slot_dict[key]


def _grad_rows(pred, grad):
    """A gradient as rows_if of its parts, made where the gradient is."""
    graph = get_default_graph()
    if isinstance(grad, IndexedSlices):
        with graph.colocate_with(grad.values):
            return IndexedSlices(rows_if(pred, grad.values), rows_if(pred, grad.indices),
                                 grad.dense_shape)
    grad = convert_to_tensor(grad)
    with graph.colocate_with(grad):
        return rows_if(pred, grad)


def _first_row(rows):
    """Row 0 of _grad_rows's result, inside a branch (every part made in the branch)."""
    if isinstance(rows, IndexedSlices):
        dense_shape = None if rows.dense_shape is None else identity(rows.dense_shape)
        return IndexedSlices(rows.values[0], rows.indices[0], dense_shape)
    return rows[0]


def apply_gradients_if(opt, pred, grads_and_vars, global_step=None, name=None, rows=False):
    """`opt.apply_gradients(grads_and_vars, global_step, name)`, done only when `pred` is
    true; returns the op that does it.

    With rows=True the gradients are made into rows_if here (on their device), so that they
    cross to the variables' devices only when the update is done.
    """
    if type(opt).apply_gradients is not Optimizer.apply_gradients:
        raise TypeError(
            f"{type(opt).__name__} has an apply_gradients of its own; the sandbox makes a "
            "conditional update (one If per device) only from an optimizer that applies its "
            "gradients the standard way (GradientDescentOptimizer, MomentumOptimizer, "
            "AdamOptimizer ...). Wrap one of those.")
    pairs = [(g, v) for g, v in grads_and_vars if g is not None]
    if not pairs:
        raise ValueError("No gradients provided for any variable: "
                         f"{[str(v) for _, v in grads_and_vars]}.")
    first_var = pairs[0][1]
    graph = get_default_graph()
    with graph.control_dependencies(None):
        opt._create_slots([v for _, v in pairs])    # a branch cannot create variables
    if rows:
        pairs = [(_grad_rows(pred, g), v) for g, v in pairs]
    with name_scope(name, opt.get_name()) as scope:
        opt._prepare()

        def update(pairs_here):
            with _outer_non_slot_variables(opt):
                ops = []
                for grad, var in pairs_here:
                    grad = _first_row(grad) if rows else grad
                    with name_scope("update_" + var.op.name):
                        ops.append(opt._apply_update(grad, var))
                return group(*ops)

        stages = [[cond_on(device, pred, lambda here=here: update(here), name="update")
                   for device, here in by_device(pairs, device_of=lambda p: p[1].device)]]
        if type(opt)._finish is not Optimizer._finish:
            def finish():
                with _outer_non_slot_variables(opt):
                    return opt._finish([], "update")
            with graph.control_dependencies(stages[-1]):
                stages.append([cond_on(first_var.device, pred, finish, name="finish")])
        if global_step is not None:
            with graph.control_dependencies(stages[-1]):
                stages.append([cond_on(global_step.device, pred,
                                       lambda: state_ops.assign_add(global_step, 1).op,
                                       name="global_step")])
        return group(*[op for stage in stages for op in stage], name=scope.rstrip("/"))
