"""Ordering and grouping -- mirrors TensorFlow's `tf.group`, `tf.no_op`, `tf.identity`,
`tf.tuple` and `tf.stop_gradient` (ops/control_flow_ops.py, ops/array_ops.py).

A graph runs an op only when a fetch needs it. `group` and `no_op` make an op that does nothing
but *depend* on others, so fetching it runs them; `identity` copies a tensor (and, with a
device scope, is how a value is moved to another device); `stop_gradient` hides its input from
`tf.gradients`.

Control flow proper -- tf.cond, tf.case, tf.while_loop -- is made of functional ops, each in a
module of its own: cond_v2.py (If) and while_v2.py (While), built on the ops here (the facade
takes tf.cond, tf.case and tf.while_loop from there).
"""
import builtins

from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.operation import Operation
from ..framework.tensor import Tensor, convert_to_tensor

__all__ = ["no_op", "group", "identity", "tuple", "stop_gradient"]


class NoOp(OpDef):
    """Does nothing; useful only for its control inputs."""
    differentiable = False

    def kernel():
        return None


def no_op(name=None):
    g = get_default_graph()
    return g.create_op("NoOp", [], [], name=name or "NoOp")


def group(*inputs, **kwargs):
    """An op that runs all `inputs` (ops or tensors) when it runs."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Unknown keyword arguments: {', '.join(kwargs)}")
    ops = []
    for item in inputs:
        items = item if isinstance(item, (list, builtins.tuple, set)) else [item]
        for x in items:
            if isinstance(x, Tensor):
                x = x.op
            elif not isinstance(x, Operation) and hasattr(x, "_as_graph_element"):
                x = x._as_graph_element()
                x = x.op if isinstance(x, Tensor) else x
            if not isinstance(x, Operation):
                raise TypeError(f"tf.group expects ops or tensors, got {x!r}")
            ops.append(x)
    g = ops[0].graph if ops else get_default_graph()
    with g.as_default(), g.control_dependencies(ops):
        return g.create_op("NoOp", [], [], name=name or "group_deps")


class Identity(OpDef):
    """y = x. Placed on another device, it is the op that copies a tensor there."""
    shape = unchanged_shape

    def kernel(x, T=None):
        return x

    def gradient(op, grad):
        return [grad]


def identity(input, name=None):  # noqa: A002 -- TF's name
    x = convert_to_tensor(input)
    return apply_op("Identity", [x], {"T": x.dtype.base_dtype}, name=name or "Identity",
                    output_dtypes=[x.dtype.base_dtype])


def tuple(tensors, name=None, control_inputs=None):  # noqa: A001 -- TF's name
    """Returns the tensors, each gated so that none is available before all are computed."""
    tensors = [convert_to_tensor(t) for t in tensors]
    g = tensors[0].graph if tensors else get_default_graph()
    with g.as_default(), g.name_scope(name or "tuple"):
        gate = group(*(tensors + list(control_inputs or [])))
        with g.control_dependencies([gate]):
            return [identity(t) for t in tensors]


class StopGradient(OpDef):
    """y = x, but tf.gradients treats y as a constant."""
    shape = unchanged_shape
    differentiable = False

    def kernel(x, T=None):
        return x


def stop_gradient(input, name=None):  # noqa: A002 -- TF's name
    x = convert_to_tensor(input)
    return apply_op("StopGradient", [x], {"T": x.dtype.base_dtype}, name=name or "StopGradient",
                    output_dtypes=[x.dtype.base_dtype])

