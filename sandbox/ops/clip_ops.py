"""Clipping -- mirrors TensorFlow's clip_ops (python/ops/clip_ops.py).

Clipping keeps numbers in a safe range. `clip_by_value` clamps every entry into [min, max]
(e.g. probabilities away from 0 before a log). The norm-based functions rescale a whole tensor
instead, keeping its direction: `clip_by_norm` shrinks one tensor whose L2 norm exceeds
`clip_norm`, and `clip_by_global_norm` shrinks a *list* of tensors (usually the gradients of
every variable) by one common factor when their joint norm

    global_norm = sqrt(sum over tensors of sum(t ** 2))

is larger than `clip_norm` -- the usual cure for exploding gradients:

    grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), 5.0)
    train_op = optimizer.apply_gradients(zip(grads, tvars))

A sparse gradient (a tf.IndexedSlices, e.g. an embedding's) stays sparse: its values are
measured and scaled, its indices kept -- as TF does (so rows repeated in the indices count
once each, as rows of values, in the norm).
"""
import collections.abc

import numpy as np

from ..framework import errors
from ..framework.graph import colocate_with, name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from . import array_ops, basic_math_ops, comparison_ops, math_ops, reduction_ops
from .control_flow_ops import identity

__all__ = ["clip_by_value", "clip_by_norm", "global_norm", "clip_by_global_norm",
           "clip_by_average_norm"]


def _check_broadcast_into(t_shape, other_shape, what):
    """min/max may broadcast against t, but must not make the result larger than t."""
    if t_shape.ndims is None or other_shape.ndims is None:
        return
    if other_shape.ndims > t_shape.ndims:
        raise ValueError(f"{what} of shape {other_shape} has more dimensions than t "
                         f"{t_shape}: clipping must not change the shape of t")
    for a, b in zip(reversed(t_shape.as_list()), reversed(other_shape.as_list())):
        if a is not None and b is not None and b != 1 and a != b:
            raise ValueError(f"Incompatible shapes: {what} of shape {other_shape} does not "
                             f"broadcast to the shape of t {t_shape}")


def _sum_to_shape(g, shape):
    """Sums a broadcast gradient g back down to `shape` (the reverse of broadcasting)."""
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and g.shape[lead + i] != 1)
    return g.sum(axis=axes).reshape(shape)


class ClipByValue(OpDef):
    """y = min(max(t, clip_value_min), clip_value_max), entry by entry."""

    def shape(op):
        t, lo, hi = (x.get_shape() for x in op.inputs)
        _check_broadcast_into(t, lo, "clip_value_min")
        _check_broadcast_into(t, hi, "clip_value_max")
        return t

    def kernel(t, clip_value_min, clip_value_max, T=None):
        if np.shape(np.broadcast(t, clip_value_min, clip_value_max)) != t.shape:
            raise errors.InvalidArgumentError(
                None, None, f"clip_value_min {list(np.shape(clip_value_min))} and "
                f"clip_value_max {list(np.shape(clip_value_max))} must broadcast to the shape "
                f"of t {list(t.shape)} without enlarging it.")
        return np.maximum(np.minimum(t, clip_value_max), clip_value_min)

    def gradient(op, grad):
        return apply_op("ClipByValueGrad", [grad] + list(op.inputs),
                        {"T": grad.dtype.base_dtype}, name="ClipByValueGrad",
                        output_dtypes=[grad.dtype.base_dtype] * 3)


class ClipByValueGrad(OpDef):
    """Splits grad: where t was inside [min, max] it goes to t; where t was clipped it goes to
    the bound that replaced it (summed over the entries that bound covers)."""
    multi_output = True
    differentiable = False

    def shape(op):
        return [x.get_shape() for x in op.inputs[1:]]

    def kernel(grad, t, clip_value_min, clip_value_max, T=None):
        below, above = t < clip_value_min, t > clip_value_max
        zero = np.zeros((), dtype=grad.dtype)
        return (np.where(below | above, zero, grad),
                _sum_to_shape(np.where(below, grad, zero), np.shape(clip_value_min)),
                _sum_to_shape(np.where(above, grad, zero), np.shape(clip_value_max)))


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clamps every entry of t into [clip_value_min, clip_value_max]. Gradients pass to t only
    where it was not clipped."""
    with name_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as scope:
        t = convert_to_tensor(t, name="t")
        dtype = t.dtype.base_dtype
        lo = convert_to_tensor(clip_value_min, dtype=dtype, name="clip_value_min")
        hi = convert_to_tensor(clip_value_max, dtype=dtype, name="clip_value_max")
        return apply_op("ClipByValue", [t, lo, hi], {"T": dtype}, name=scope)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t * clip_norm / max(l2norm(t), clip_norm): rescales t so that its L2 norm (over `axes`,
    default all) is at most clip_norm; a t already short enough is unchanged."""
    with name_scope(name, "clip_by_norm", [t, clip_norm]) as scope:
        if isinstance(t, IndexedSlices):
            values = clip_by_norm(t.values, clip_norm, axes, name=scope)
            return IndexedSlices(values, t.indices, t.dense_shape)
        t = convert_to_tensor(t, name="t")
        l2sum = reduction_ops.reduce_sum(t * t, axes, keepdims=True)
        pred = l2sum > 0
        # Two `where`s so that the gradient is not NaN when t is all zeros (sqrt'(0) = inf).
        l2sum_safe = comparison_ops.where(pred, l2sum, array_ops.ones_like(l2sum))
        l2norm = comparison_ops.where(pred, basic_math_ops.sqrt(l2sum_safe), l2sum)
        clip_norm = convert_to_tensor(clip_norm, dtype=t.dtype.base_dtype, name="clip_norm")
        intermediate = t * clip_norm
        return identity(intermediate / basic_math_ops.maximum(l2norm, clip_norm),
                                  name=scope)


def _values_of(t):
    """A gradient's dense part: the tensor itself, or an IndexedSlices' values."""
    return t.values if isinstance(t, IndexedSlices) else t


def _as_tensor_list(t_list):
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError("t_list should be a sequence")
    return list(t_list)


def global_norm(t_list, name=None):
    """sqrt(sum of sum(t ** 2) over every t in t_list); None entries are ignored."""
    t_list = _as_tensor_list(t_list)
    from .nn_ops import l2_loss
    present = [_values_of(t) for t in t_list if t is not None]
    with name_scope(name, "global_norm", present) as scope:
        values = [convert_to_tensor(_values_of(t), name=f"t_{i}") for i, t in enumerate(t_list)
                  if t is not None]
        if not values:
            raise ValueError("global_norm needs at least one tensor that is not None")
        half_squared_norms = [l2_loss(v) for v in values]
        half_squared_norm = math_ops.add_n(half_squared_norms)
        two = convert_to_tensor(2.0, dtype=half_squared_norm.dtype.base_dtype)
        return basic_math_ops.sqrt(half_squared_norm * two, name="global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales every tensor of t_list by clip_norm / max(global_norm, clip_norm). Returns
    (list_clipped, global_norm); None entries stay None. If the norm is inf or NaN, every
    entry becomes NaN (a loud failure instead of a silent one)."""
    t_list = _as_tensor_list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    present = [_values_of(t) for t in t_list if t is not None]
    with name_scope(name, "clip_by_global_norm", present + [clip_norm]) as scope:
        dtype = use_norm.dtype.base_dtype
        clip_norm = convert_to_tensor(clip_norm, dtype=dtype, name="clip_norm")
        one = convert_to_tensor(1.0, dtype=dtype)
        scale_for_finite = clip_norm * basic_math_ops.minimum(1.0 / use_norm, one / clip_norm)
        scale = scale_for_finite + (use_norm - use_norm)   # NaN if use_norm is inf or NaN
        clipped = []
        for i, t in enumerate(t_list):
            if t is None:
                clipped.append(None)
                continue
            v = convert_to_tensor(_values_of(t), name=f"t_{i}")
            with colocate_with(v.op):
                c = identity(v * scale, name=f"{scope}_{i}")
            clipped.append(IndexedSlices(c, t.indices, t.dense_shape)
                           if isinstance(t, IndexedSlices) else c)
    return clipped, use_norm


def clip_by_average_norm(t, clip_norm, name=None):
    """Like clip_by_norm, but with the norm divided by the number of entries of t."""
    with name_scope(name, "clip_by_average_norm", [t, clip_norm]) as scope:
        t = convert_to_tensor(t, name="t")
        n_element = math_ops.cast(array_ops.size(t), t.dtype.base_dtype)
        l2norm_inv = basic_math_ops.rsqrt(reduction_ops.reduce_sum(t * t))
        clip_norm = convert_to_tensor(clip_norm, dtype=t.dtype.base_dtype, name="clip_norm")
        one = convert_to_tensor(1.0, dtype=t.dtype.base_dtype)
        return identity(
            t * clip_norm * basic_math_ops.minimum(l2norm_inv * n_element, one / clip_norm),
            name=scope)
