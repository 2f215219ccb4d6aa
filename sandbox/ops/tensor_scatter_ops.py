"""Scatter into a tensor (not a variable) -- mirrors TensorFlow 1.x's tensor_scatter_update,
tensor_scatter_add and tensor_scatter_sub (tf.tensor_scatter_nd_*; core/kernels/
scatter_nd_op.cc) and their gradients (python/ops/array_grad.py).

Like the tf.scatter_nd_* ops of state_ops.py, but on a value: the result is a new tensor, the
input is left alone, and gradients flow.

    t = [[1., 2], [3, 4], [5, 6]]
    tf.tensor_scatter_update(t, [[0], [2]], [[9., 9], [8, 8]])  ->  [[9, 9], [3, 4], [8, 8]]
    tf.tensor_scatter_add(t, [[0, 1], [0, 1]], [10., 20])       ->  [[1, 32], [3, 4], [5, 6]]

Each row of `indices` names an element (or a slice) of `tensor` by its first indices.shape[-1]
coordinates; repeated indices add up (add, sub), or the last one wins (update). The gradient
of an update sends the incoming gradient to the updates at their indices and to the tensor
everywhere else; for add and sub, to the tensor everywhere and (negated for sub) to the
updates at their indices.
"""
import numpy as np

from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import merge_shapes, shape_text
from . import math_ops
from .array_ops import zeros_like
from .indexing_ops import gather_nd

__all__ = ["tensor_scatter_update", "tensor_scatter_add", "tensor_scatter_sub",
           "tensor_scatter_nd_update", "tensor_scatter_nd_add", "tensor_scatter_nd_sub"]


def _scatter_shape(op):
    tensor, indices, updates = (t.get_shape() for t in op.inputs)
    if tensor.ndims is None or indices.ndims is None or updates.ndims is None:
        return tensor
    depth = indices.as_list()[-1]
    if depth is None:
        return tensor
    if depth > tensor.ndims:
        raise ValueError(f"Index innermost dimension length must be <= tensor rank; saw: "
                         f"{depth} vs. {tensor.ndims}")
    inner = tensor[depth:]
    upd_inner = updates[indices.ndims - 1:]
    try:
        merge_shapes(inner, upd_inner)
    except ValueError as e:
        raise ValueError(f"The inner {tensor.ndims - depth} dimensions of output.shape="
                         f"{shape_text(tensor)} must match the inner "
                         f"{updates.ndims - indices.ndims + 1} dimensions of updates.shape="
                         f"{shape_text(updates)}: {e}") from None
    return tensor


def _scatter(kind):
    def kernel(tensor, indices, updates, T=None, Tindices=None):
        depth = indices.shape[-1]
        flat = indices.reshape(-1, depth)
        for k, row in enumerate(flat):
            if np.any(row < 0) or np.any(row >= np.array(tensor.shape[:depth])):
                raise errors.InvalidArgumentError(
                    None, None, f"indices[{k}] = {row.tolist()} does not index into shape "
                    f"{shape_text(tensor.shape)}")
        out = tensor.copy()
        where = tuple(np.moveaxis(indices, -1, 0))
        if kind == "update":
            out[where] = updates
        elif kind == "add":
            np.add.at(out, where, updates)
        else:
            np.subtract.at(out, where, updates)
        return out
    return kernel


class TensorScatterUpdate(OpDef):
    shape = _scatter_shape
    kernel = _scatter("update")

    def gradient(op, grad):
        indices, updates = op.inputs[1], op.inputs[2]
        return [tensor_scatter_update(grad, indices, zeros_like(updates)), None,
                gather_nd(grad, indices)]


class TensorScatterAdd(OpDef):
    shape = _scatter_shape
    kernel = _scatter("add")

    def gradient(op, grad):
        return [grad, None, gather_nd(grad, op.inputs[1])]


class TensorScatterSub(OpDef):
    shape = _scatter_shape
    kernel = _scatter("sub")

    def gradient(op, grad):
        return [grad, None, math_ops.negative(gather_nd(grad, op.inputs[1]))]


def _apply(op_type, tensor, indices, updates, name):
    with name_scope(name, op_type, [tensor, indices, updates]) as scope:
        t = convert_to_tensor(tensor, name="tensor")
        i = convert_to_tensor(indices, name="indices")
        u = convert_to_tensor(updates, dtype=t.dtype.base_dtype, name="updates")
        return apply_op(op_type, [t, i, u], {"T": t.dtype.base_dtype,
                                             "Tindices": i.dtype.base_dtype}, name=scope)


def tensor_scatter_update(tensor, indices, updates, name=None):
    """A copy of tensor with the elements (slices) at `indices` replaced by `updates`."""
    return _apply("TensorScatterUpdate", tensor, indices, updates, name)


def tensor_scatter_add(tensor, indices, updates, name=None):
    """A copy of tensor with `updates` added at `indices` (repeated indices add up)."""
    return _apply("TensorScatterAdd", tensor, indices, updates, name)


def tensor_scatter_sub(tensor, indices, updates, name=None):
    """A copy of tensor with `updates` subtracted at `indices`."""
    return _apply("TensorScatterSub", tensor, indices, updates, name)


tensor_scatter_nd_update = tensor_scatter_update
tensor_scatter_nd_add = tensor_scatter_add
tensor_scatter_nd_sub = tensor_scatter_sub
