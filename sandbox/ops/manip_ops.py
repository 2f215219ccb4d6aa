"""Moving entries around -- mirrors TensorFlow 1.x's python/ops/manip_ops.py (roll) and the
rest of python/ops/array_ops.py that published programs reach for: broadcast_to and the two
broadcast_*_shape helpers, meshgrid, reverse_sequence, identity_n, ensure_shape, where_v2,
repeat, unravel_index, parallel_stack and batch_gather, with the gradients of
python/ops/array_grad.py.

    tf.roll(x, shift, axis)          entries move `shift` places along `axis`, wrapping round
    tf.broadcast_to(x, shape)        x stretched to `shape` (NumPy broadcasting); its gradient
                                     sums back over the stretched dimensions
    tf.meshgrid(x, y)                coordinate grids: 'xy' (the default, as NumPy's) swaps the
                                     first two output dimensions, 'ij' does not
    tf.reverse_sequence(x, lengths, seq_axis, batch_axis)
                                     reverses the first lengths[b] entries of each row b
                                     (the backward half of a bidirectional RNN)
    tf.where_v2(c, x, y)             where with NumPy broadcasting of all three arguments
    tf.repeat(x, repeats, axis)      NumPy's repeat
    tf.ensure_shape(x, shape)        x, with its static shape refined to `shape`, checked when
                                     the graph runs
    tf.batch_gather(params, idx)     a gather in each batch entry (a gather_nd underneath)
"""
import builtins

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape
from ..framework.tensor_util import (constant_value, constant_value_as_shape, int_tensor,
                                     merge_shapes, shape_text)
from . import array_ops, comparison_ops, math_ops
from .math_ops import _broadcast_static_shape, _unbroadcast

__all__ = ["roll", "broadcast_to", "broadcast_static_shape", "broadcast_dynamic_shape",
           "meshgrid", "reverse_sequence", "identity_n", "ensure_shape", "where_v2", "repeat",
           "unravel_index", "parallel_stack", "batch_gather", "bitcast", "guarantee_const"]


# -- roll -----------------------------------------------------------------------------------

class Roll(OpDef):
    """np.roll: out[(i + shift) % n] = x[i] along each axis named."""
    shape = unchanged_shape

    def kernel(input, shift, axis, T=None, Tshift=None, Taxis=None):  # noqa: A002
        shift, axis = np.reshape(shift, -1), np.reshape(axis, -1)
        if shift.size != axis.size:
            raise errors.InvalidArgumentError(
                None, None, f"shift and axis must have the same size, got {shift.size} and "
                f"{axis.size}")
        for a in axis.tolist():
            if not -input.ndim <= a < input.ndim:
                raise errors.InvalidArgumentError(
                    None, None, f"axis {a} is out of range for a tensor of rank {input.ndim}")
        return np.roll(input, tuple(shift.tolist()), tuple(axis.tolist()))

    def gradient(op, grad):
        return [roll(grad, math_ops.negative(op.inputs[1]), op.inputs[2]), None, None]


def roll(input, shift, axis, name=None):  # noqa: A002 -- TF's name
    """Shifts the entries of `input` by `shift` places along `axis` (ints or lists of the
    same length), wrapping round."""
    with name_scope(name, "Roll", [input, shift, axis]) as scope:
        x = convert_to_tensor(input, name="input")
        shift = int_tensor(shift, name="shift")
        axis = int_tensor(axis, name="axis")
        return apply_op("Roll", [x, shift, axis], {"T": x.dtype.base_dtype,
                                                   "Tshift": shift.dtype.base_dtype,
                                                   "Taxis": axis.dtype.base_dtype}, name=scope)


# -- broadcasting ---------------------------------------------------------------------------

class BroadcastTo(OpDef):
    """input stretched to `shape` by NumPy's broadcasting rule."""

    def shape(op):
        target = constant_value_as_shape(op.inputs[1])
        x = op.inputs[0].get_shape()
        if target.ndims is not None and x.ndims is not None:
            if x.ndims > target.ndims:
                raise ValueError(f"Rank of input ({x.ndims}) must be no greater than rank of "
                                 f"output shape ({target.ndims}).")
            for a, b in zip(reversed(x.as_list()), reversed(target.as_list())):
                if a is not None and b is not None and a != 1 and a != b:
                    raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
        return target

    def kernel(input, shape, T=None, Tidx=None):  # noqa: A002 -- TF's name
        try:
            return np.broadcast_to(input, tuple(shape.tolist())).copy()
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"Incompatible shapes: {shape_text(input.shape)} vs. "
                f"{shape_text(shape.tolist())}") from None

    def gradient(op, grad):
        return [_unbroadcast(grad, op.inputs[0]), None]


def broadcast_to(input, shape, name=None):  # noqa: A002 -- TF's name
    """`input` stretched to `shape`: broadcast_to([1, 2, 3], [2, 3]) repeats the row."""
    with name_scope(name, "BroadcastTo", [input, shape]) as scope:
        x = convert_to_tensor(input, name="input")
        s = int_tensor(shape, name="shape")
        return apply_op("BroadcastTo", [x, s], {"T": x.dtype.base_dtype,
                                                "Tidx": s.dtype.base_dtype}, name=scope)


def broadcast_static_shape(shape_x, shape_y):
    """The TensorShape of broadcasting two TensorShapes (ValueError when they cannot)."""
    shape_x, shape_y = as_shape(shape_x), as_shape(shape_y)
    try:
        return _broadcast_static_shape(shape_x, shape_y)
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: {shape_x} and {shape_y}"
                         ) from None


class BroadcastArgs(OpDef):
    """The shape of broadcasting two shapes (1-D int tensors)."""

    def shape(op):
        a, b = (constant_value(t) for t in op.inputs)
        if a is not None and b is not None:
            try:
                return TensorShape([len(np.broadcast_shapes(tuple(a), tuple(b)))])
            except ValueError:           # as TF: the error comes when the graph runs
                return TensorShape([max(len(a), len(b))])
        sa, sb = (t.get_shape() for t in op.inputs)
        if sa.is_fully_defined() and sb.is_fully_defined():
            return TensorShape([max(sa.as_list()[0], sb.as_list()[0])])
        return TensorShape([None])

    def kernel(s0, s1, T=None):
        try:
            return np.array(np.broadcast_shapes(tuple(s0.tolist()), tuple(s1.tolist())),
                            dtype=s0.dtype)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"Incompatible shapes: {shape_text(s0.tolist())} vs. "
                f"{shape_text(s1.tolist())}") from None

    differentiable = False


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape (a 1-D int tensor) of broadcasting two shapes given as tensors."""
    x = int_tensor(shape_x, name="shape_x")
    y = int_tensor(shape_y, name="shape_y")
    return apply_op("BroadcastArgs", [x, y], {"T": x.dtype.base_dtype}, name="BroadcastArgs")


def meshgrid(*args, **kwargs):
    """N coordinate arrays from N 1-D arrays. indexing='xy' (default) gives outputs of shape
    [len(y), len(x), ...]; 'ij' gives [len(x), len(y), ...]."""
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        key = list(kwargs)[0]
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError("indexing parameter must be either 'xy' or 'ij'")
    with name_scope(name, "meshgrid", list(args)):
        ndim = len(args)
        xs = [array_ops.reshape(convert_to_tensor(x), [-1]) for x in args]
        shapes = [array_ops.size(x) for x in xs]
        if indexing == "xy" and ndim > 1:
            shapes[0], shapes[1] = shapes[1], shapes[0]
        target = array_ops.stack(shapes)
        out = []
        for i, x in enumerate(xs):
            pos = i
            if indexing == "xy" and ndim > 1 and i < 2:
                pos = 1 - i
            shape = [1] * ndim
            shape[pos] = -1
            out.append(broadcast_to(array_ops.reshape(x, shape), target))
        return out


# -- reverse_sequence -----------------------------------------------------------------------

class ReverseSequence(OpDef):
    """For each b along batch_dim, reverses the first seq_lengths[b] entries along seq_dim."""
    shape = unchanged_shape

    def kernel(input, seq_lengths, seq_dim=1, batch_dim=0, T=None, Tlen=None):  # noqa: A002
        if seq_lengths.shape != (input.shape[batch_dim],):
            raise errors.InvalidArgumentError(
                None, None, f"Length of seq_lengths != input.dims({batch_dim}), "
                f"({seq_lengths.size} vs. {input.shape[batch_dim]})")
        if seq_lengths.size and seq_lengths.max() > input.shape[seq_dim]:
            raise errors.InvalidArgumentError(
                None, None, f"seq_lengths[{int(np.argmax(seq_lengths))}] > "
                f"input.dims({seq_dim}): {int(seq_lengths.max())} > {input.shape[seq_dim]}")
        out = input.copy()
        for b, n in enumerate(seq_lengths.tolist()):
            index = [slice(None)] * input.ndim
            index[batch_dim] = b
            index[seq_dim] = slice(0, n)
            src = input[tuple(index)]
            axis = seq_dim - (1 if seq_dim > batch_dim else 0)
            out[tuple(index)] = np.flip(src, axis)
        return out

    def gradient(op, grad):
        return [reverse_sequence(grad, op.inputs[1], seq_axis=op.get_attr("seq_dim"),
                                 batch_axis=op.get_attr("batch_dim")), None]


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None,  # noqa
                     seq_dim=None, batch_dim=None):
    """Reverses variable-length slices: along batch_axis (default 0), row b has its first
    seq_lengths[b] entries along seq_axis reversed, the rest kept."""
    if seq_dim is not None:
        if seq_axis is not None:
            raise ValueError("Cannot specify both 'seq_axis' and 'seq_dim'")
        seq_axis = seq_dim
    if batch_dim is not None:
        if batch_axis is not None:
            raise ValueError("Cannot specify both 'batch_axis' and 'batch_dim'")
        batch_axis = batch_dim
    if seq_axis is None:
        raise TypeError("reverse_sequence() needs seq_axis")
    batch_axis = 0 if batch_axis is None else batch_axis
    with name_scope(name, "ReverseSequence", [input, seq_lengths]) as scope:
        x = convert_to_tensor(input, name="input")
        lengths = convert_to_tensor(seq_lengths, name="seq_lengths")
        rank = x.get_shape().ndims
        if rank is not None:
            seq_axis, batch_axis = int(seq_axis) % rank, int(batch_axis) % rank
            if seq_axis == batch_axis:
                raise ValueError(f"seq_dim and batch_dim must not be equal, both are "
                                 f"{seq_axis}")
        return apply_op("ReverseSequence", [x, lengths],
                        {"seq_dim": int(seq_axis), "batch_dim": int(batch_axis),
                         "T": x.dtype.base_dtype, "Tlen": lengths.dtype.base_dtype},
                        name=scope)


# -- identity_n, ensure_shape ---------------------------------------------------------------

class IdentityN(OpDef):
    """Each output is its input (one op for a list of tensors)."""
    multi_output = True

    def shape(op):
        return [t.get_shape() for t in op.inputs]

    def kernel(*inputs, T=None):
        return tuple(inputs)

    def gradient(op, *grads):
        return identity_n(list(grads))


def identity_n(input, name=None):  # noqa: A002 -- TF's name
    """A list of tensors, each passed through unchanged, by one op."""
    xs = [convert_to_tensor(x) for x in input]
    dtypes = [x.dtype.base_dtype for x in xs]
    out = apply_op("IdentityN", xs, {"T": dtypes}, name=name or "IdentityN",
                   output_dtypes=dtypes)
    return [out] if len(xs) == 1 else list(out)


class EnsureShape(OpDef):
    """input, unchanged, after checking that its shape is compatible with `shape`."""

    def shape(op):
        return merge_shapes(op.get_attr("shape"), op.inputs[0].get_shape()) \
            if op.get_attr("shape").ndims is not None else op.inputs[0].get_shape()

    def kernel(input, shape=None, T=None):  # noqa: A002 -- TF's name
        if not shape.is_compatible_with(TensorShape(input.shape)):
            raise errors.InvalidArgumentError(
                None, None, f"Shape of tensor {shape_text(input.shape)} is not compatible "
                f"with expected shape {shape_text(shape)}.")
        return input

    def gradient(op, grad):
        return [grad]


def ensure_shape(x, shape, name=None):
    """x with its static shape merged with `shape` (None entries: any size); fails when the
    graph runs if the actual shape disagrees."""
    with name_scope(name, "EnsureShape", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        shape = as_shape(shape) if not isinstance(shape, TensorShape) else shape
        return apply_op("EnsureShape", [x], {"shape": shape, "T": x.dtype.base_dtype},
                        name=scope)


# -- where_v2, repeat -----------------------------------------------------------------------

class SelectV2(OpDef):
    """where(condition, t, e) with NumPy broadcasting of all three."""

    def shape(op):
        c, t, e = (x.get_shape() for x in op.inputs)
        return _broadcast_static_shape(_broadcast_static_shape(c, t), e)

    def kernel(condition, t, e, T=None):
        try:
            return np.where(condition, t, e)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"Incompatible shapes: condition {shape_text(condition.shape)}, "
                f"x {shape_text(t.shape)}, y {shape_text(e.shape)}") from None

    def gradient(op, grad):
        c, t, e = op.inputs
        zeros = array_ops.zeros_like(grad)
        return [None, _unbroadcast(where_v2(c, grad, zeros), t),
                _unbroadcast(where_v2(c, zeros, grad), e)]


def where_v2(condition, x=None, y=None, name=None):
    """Picks from x where condition is true and from y elsewhere, broadcasting all three;
    with only condition, the coordinates of its true entries (as tf.where)."""
    if x is None and y is None:
        return comparison_ops.where(condition, name=name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    with name_scope(name, "SelectV2", [condition, x, y]) as scope:
        c = convert_to_tensor(condition, name="condition")
        if c.dtype.base_dtype != _dtypes.bool:
            raise TypeError(f"condition must be a bool tensor, got {c.dtype.name}")
        t, e = math_ops._convert_pair(x, y, "SelectV2")
        return apply_op("SelectV2", [c, t, e], {"T": t.dtype.base_dtype}, name=scope,
                        output_dtypes=[t.dtype.base_dtype])


class Repeat(OpDef):
    """np.repeat(input, repeats, axis). (A sandbox op: TF 1.15 builds repeat from tile,
    reshape and boolean_mask.)"""

    def shape(op):
        x = op.inputs[0].get_shape()
        axis = op.get_attr("axis")
        reps = constant_value(op.inputs[1])
        if x.ndims is None:
            return unknown_shape()
        dims = x.as_list()
        size = None
        if reps is not None:
            if np.ndim(reps) == 0 or np.size(reps) == 1:
                r = int(np.reshape(reps, -1)[0])
                n = dims[axis] if axis is not None else x.num_elements()
                size = None if n is None else n * r
            else:
                size = int(np.sum(reps))
        if axis is None:
            return TensorShape([size])
        dims[axis] = size
        return TensorShape(dims)

    def kernel(input, repeats, axis=None, T=None):  # noqa: A002 -- TF's name
        x = input.reshape(-1) if axis is None else input
        ax = 0 if axis is None else axis
        reps = np.reshape(repeats, -1)
        if reps.size not in (1, x.shape[ax]):
            raise errors.InvalidArgumentError(
                None, None, f"repeats must be a scalar or have as many entries as axis {ax} "
                f"has ({x.shape[ax]}), got {reps.size}")
        return np.repeat(x, reps if reps.size != 1 else int(reps[0]), axis=ax)

    def gradient(op, grad):
        return [apply_op("RepeatGrad", [grad, op.inputs[0], op.inputs[1]],
                         {"axis": op.get_attr("axis"), "T": grad.dtype.base_dtype},
                         name="RepeatGrad"), None]


class RepeatGrad(OpDef):
    """Sums each run of repeated entries of grad back into the entry it copied."""
    differentiable = False

    def shape(op):
        return op.inputs[1].get_shape()

    def kernel(grad, input, repeats, axis=None, T=None):  # noqa: A002 -- TF's name
        ax = 0 if axis is None else axis
        n = input.size if axis is None else input.shape[ax]
        reps = np.broadcast_to(np.reshape(repeats, -1), (n,))
        owner = np.repeat(np.arange(n), reps)
        moved = np.moveaxis(grad, ax, 0)
        out = np.zeros((n,) + moved.shape[1:], dtype=grad.dtype)
        np.add.at(out, owner, moved)
        out = np.moveaxis(out, 0, ax)
        return out.reshape(input.shape)


def repeat(input, repeats, axis=None, name=None):  # noqa: A002 -- TF's name
    """Repeats each entry (along `axis`; of the flattened input when axis is None)
    `repeats` times -- a scalar, or one count per entry."""
    with name_scope(name, "Repeat", [input, repeats]) as scope:
        x = convert_to_tensor(input, name="input")
        reps = convert_to_tensor(repeats, name="repeats")
        if axis is not None and x.get_shape().ndims is not None:
            axis = int(axis) % builtins.max(x.get_shape().ndims, 1)
        return apply_op("Repeat", [x, reps], {"axis": None if axis is None else int(axis),
                                              "T": x.dtype.base_dtype}, name=scope,
                        output_dtypes=[x.dtype.base_dtype])


class UnravelIndex(OpDef):
    """Flat indices into a tensor of shape `dims` as coordinates: [len(dims)] + shape."""
    differentiable = False

    def shape(op):
        dims = op.inputs[1].get_shape()
        n = dims.as_list()[0] if dims.ndims == 1 else None
        return TensorShape([n]).concatenate(op.inputs[0].get_shape())

    def kernel(indices, dims, Tidx=None):
        size = int(np.prod(dims))
        if indices.size and (indices.min() < 0 or indices.max() >= size):
            raise errors.InvalidArgumentError(
                None, None, f"index out of bounds: the indices must be in [0, {size}) for "
                f"dims {dims.tolist()}")
        return np.array(np.unravel_index(indices, tuple(dims.tolist())), dtype=indices.dtype)


def unravel_index(indices, dims, name=None):
    """unravel_index([5, 7], [3, 4]) = [[1, 1], [1, 3]]: row i holds coordinate i."""
    with name_scope(name, "UnravelIndex", [indices, dims]) as scope:
        i = convert_to_tensor(indices, name="indices")
        d = convert_to_tensor(dims, dtype=i.dtype.base_dtype, name="dims")
        return apply_op("UnravelIndex", [i, d], {"Tidx": i.dtype.base_dtype}, name=scope)


def parallel_stack(values, name="parallel_stack"):
    """tf.stack along a new first axis (TF's ParallelConcat copies the inputs in parallel
    and has no gradient; the sandbox's is tf.stack's op, gradient included)."""
    with name_scope(name, "parallel_stack", list(values)) as scope:
        return array_ops.stack(list(values), axis=0, name=scope)


def batch_gather(params, indices, name=None):
    """out[b..., k] = params[b..., indices[b..., k]]: a gather per batch entry, the leading
    rank(indices) - 1 dimensions being the batch. Built as a gather_nd of (batch coordinates,
    index), so its gradient is gather_nd's."""
    from .indexing_ops import gather_nd
    with name_scope(name, "BatchGather", [params, indices]):
        p = convert_to_tensor(params, name="params")
        i = convert_to_tensor(indices, name="indices")
        rank = i.get_shape().ndims
        if rank is None:
            raise ValueError("batch_gather needs indices of known rank")
        if rank == 0:
            raise ValueError("indices must be at least 1-D")
        shape = array_ops.shape(i)
        coords = []
        for d in builtins.range(rank - 1):
            reshaped = [1] * rank
            reshaped[d] = -1
            grid = array_ops.reshape(array_ops.range(shape[d], dtype=i.dtype.base_dtype),
                                     reshaped)
            coords.append(broadcast_to(grid, shape))
        coords.append(i)
        return gather_nd(p, array_ops.stack(coords, axis=-1))


# -- bitcast (core/kernels/bitcast_op.cc) ----------------------------------------------------

_BITCAST_TYPES = ("bfloat16, float16, float32, float64, int64, int32, uint8, uint16, uint32, "
                  "uint64, int8, int16, complex64, complex128, qint8, quint8, qint16, quint16, "
                  "qint32")


def _bitcast_shape(shape, in_type, out_type):
    """The shape of bitcasting `shape` (a TensorShape) from in_type to out_type (TF's
    Bitcast shape function: one more dimension when the items get smaller, one less when
    they get bigger); ValueError with TF's message (its DataType numbers) otherwise."""
    a, b = in_type.size, out_type.size
    if a == b:
        return shape
    if shape.ndims is None:
        return unknown_shape()
    if a > b:
        return shape.concatenate([a // b])
    ratio = b // a
    if shape.ndims == 0 or (shape[-1].value is not None and shape[-1].value != ratio):
        last = "?" if shape.ndims == 0 else shape[-1].value
        raise ValueError(f"Cannot bitcast from {in_type.as_datatype_enum} to "
                         f"{out_type.as_datatype_enum} due to shape. {last} does not match "
                         f"{ratio}")
    return TensorShape(shape.as_list()[:-1])


class Bitcast(OpDef):
    """The same bytes read as another dtype (little-endian, as TF on x86): [..., k] of a
    smaller type from a bigger one, the last dimension folded when the other way round."""
    differentiable = False                    # TF: ops.NotDifferentiable("Bitcast")

    def shape(op):
        return _bitcast_shape(op.inputs[0].get_shape(), op.inputs[0].dtype.base_dtype,
                              _dtypes.as_dtype(op.get_attr("type")))

    def kernel(input, T=None, type=None):  # noqa: A002 -- TF's names
        out = np.dtype(_dtypes.as_dtype(type).as_numpy_dtype)
        x = np.ascontiguousarray(input)
        if x.dtype.itemsize == out.itemsize:
            return x.view(out)
        if x.dtype.itemsize > out.itemsize:
            return x.reshape(x.shape + (1,)).view(out)
        return x.view(out).reshape(x.shape[:-1])


def bitcast(input, type, name=None):  # noqa: A002 -- TF's names
    """`input`'s bytes as `type` (tf.bitcast) -- no copy of meaning, unlike tf.cast: float32
    1.0 becomes int32 1065353216. No gradient."""
    with name_scope(name, "Bitcast", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        out = _dtypes.as_dtype(type).base_dtype
        for arg, dt in (("input", x.dtype.base_dtype), ("type", out)):
            if dt.name in ("string", "bool"):
                raise TypeError(f"Value passed to parameter '{arg}' has DataType {dt.name} "
                                f"not in list of allowed values: {_BITCAST_TYPES}")
        return apply_op("Bitcast", [x], {"T": x.dtype.base_dtype, "type": out}, name=scope,
                        output_dtypes=[out])


# -- guarantee_const (core/kernels/guarantee_const_op.cc) -----------------------------------

class GuaranteeConst(OpDef):
    """y = x, with the promise that x does not change (TF may then constant-fold it); no
    gradient registered, as in TF (tf.gradients through it raises LookupError)."""
    shape = unchanged_shape

    def kernel(input, T=None):  # noqa: A002 -- TF's name
        return input


def guarantee_const(input, name=None):  # noqa: A002 -- TF's name
    """`input` unchanged, marked as constant for the whole session (tf.guarantee_const)."""
    with name_scope(name, "GuaranteeConst", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        return apply_op("GuaranteeConst", [x], {"T": x.dtype.base_dtype}, name=scope)
