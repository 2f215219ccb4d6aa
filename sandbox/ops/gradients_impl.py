"""Second derivatives -- mirrors tf.hessians of TensorFlow 1.x's python/ops/gradients_impl.py
(tf.gradients itself is in ops/gradients.py).

    h = tf.hessians(loss, x)[0]      h[i.., j..] = d^2 loss / dx[i..] dx[j..]

It differentiates the gradient: one tf.gradients call per entry of x, each of the gradient's
entry, stacked and reshaped to x.shape + x.shape. TF runs that loop as a while_loop; the
sandbox unrolls it, so x must have a fully known shape, and the graph grows with x's size
(fine for the few hundred entries hessians are used for). Every op on the way needs a
gradient built from graph ops (most have one; the NumPy gradient ops of the decompositions
do not).
"""
import numpy as np

from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor
from . import array_ops
from .gradients import gradients

__all__ = ["hessians"]


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False,
             gate_gradients=False, aggregation_method=None):
    """For each x of xs, the Hessian of sum(ys) with respect to x: x.shape + x.shape."""
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    kwargs = {"colocate_gradients_with_ops": colocate_gradients_with_ops,
              "gate_gradients": gate_gradients, "aggregation_method": aggregation_method}
    out = []
    with name_scope(name, "hessians", xs):
        first = gradients(ys, xs, **kwargs)
        for x, g in zip(xs, first):
            x = convert_to_tensor(x)
            shape = x.get_shape()
            if not shape.is_fully_defined():
                raise ValueError(f"hessians needs {x.name!r} to have a fully known shape (the "
                                 f"sandbox unrolls TF's loop), got {shape}")
            if g is None:
                out.append(None)
                continue
            n = int(np.prod(shape.as_list(), dtype=np.int64))
            flat = array_ops.reshape(convert_to_tensor(g), [n])
            rows = []
            for i in range(n):
                try:
                    row = gradients(flat[i], x, **kwargs)[0]
                except LookupError as e:
                    raise LookupError(f"{e} hessians differentiates the gradient of "
                                      f"{x.name!r}, so every op of that gradient needs a "
                                      "gradient of its own; this one has none in the "
                                      "sandbox.") from None
                rows.append(array_ops.zeros_like(x) if row is None
                            else convert_to_tensor(row))
            out.append(array_ops.reshape(array_ops.stack(rows), shape.as_list() * 2))
    return out
