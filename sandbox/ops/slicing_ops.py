"""Slicing and joining -- mirrors the ops of that section of TF's array guide, which TF keeps in
python/ops/array_ops.py: they cut a tensor into pieces, or glue pieces into one tensor.

    concat / split      join tensors along an axis / cut one into pieces along an axis
    slice / pad         cut one block out of a tensor / put a tensor inside a bigger one
    tile                join copies of a tensor

Each of a pair undoes the other, and so each one's gradient is the other: the gradient of concat
splits the incoming gradient, the gradient of pad slices it, and the gradient of slice pads it
(SliceGrad: zeros, with the gradient where the block was). The gradient of tile adds the copies
back up (TileGrad). stack and unstack, which join and cut along a NEW axis, are in
ops/array_ops.py (tensor lists are stacked automatically); picking elements by index --
`t[1:3, :, 0]`, gather, boolean_mask -- is in ops/indexing_ops.py.
"""
import builtins

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import Dimension, TensorShape, unknown_shape
from ..framework.tensor_util import (constant_int, constant_value, constant_value_as_shape,
                                     dim_value, flat_tensors, int_tensor, is_tensor_like,
                                     partial_vector, positive_axis, shape_text, to_int)
from .array_ops import shape, shape_n
from .control_flow_ops import identity

__all__ = ["concat", "split", "slice", "pad", "tile"]


# ======================================================================================
# Joining and cutting along an axis: concat, split
# ======================================================================================

class ConcatV2(OpDef):
    """Joins tensors along an existing axis (the last input)."""

    def shape(op):
        shapes = [t.get_shape() for t in op.inputs[:-1]]
        ndims = next((s.ndims for s in shapes if s.ndims is not None), None)
        if ndims is None:
            return unknown_shape()
        if ndims == 0:
            raise ValueError("Can't concatenate scalars (use tf.stack instead)")
        for s in shapes:
            if s.ndims is not None and s.ndims != ndims:
                raise ValueError(f"Shape must be rank {ndims} but is rank {s.ndims}")
        axis = constant_int(op.inputs[-1])
        if axis is None:
            return unknown_shape(ndims)
        if not -ndims <= axis < ndims:
            raise ValueError(f"Expected concatenating dimensions in the range [{-ndims}, "
                             f"{ndims}), but got {axis}")
        axis %= ndims
        out = [None] * ndims
        first = None
        for s in shapes:
            if s.ndims is None:
                continue
            dims = s.as_list()
            for i, d in enumerate(dims):
                if i == axis or d is None:
                    continue
                if out[i] is not None and out[i] != d:
                    raise ValueError(f"Dimension {i} in both shapes must be equal, but are "
                                     f"{out[i]} and {d}. Shapes are {shape_text(first)} and "
                                     f"{shape_text(s)}.")
                out[i] = d
            first = first or s
        along = [s[axis].value if s.ndims is not None else None for s in shapes]
        out[axis] = None if None in along else sum(along)
        return TensorShape(out)

    def kernel(*inputs, N=None, T=None, Tidx=None):
        values, axis = inputs[:-1], to_int(inputs[-1])
        try:
            return np.concatenate(values, axis=axis)
        except (ValueError, IndexError):
            shapes = " vs. ".join(f"shape[{i}] = {list(np.shape(v))}"
                                  for i, v in enumerate(values))
            raise InvalidArgumentError(None, None, f"ConcatOp : Dimensions of inputs should "
                                       f"match (axis {axis}): {shapes}") from None

    def gradient(op, grad):
        values, axis_t = op.inputs[:-1], op.inputs[-1]
        axis = constant_int(axis_t)
        ndims = values[0].get_shape().ndims
        sizes = None
        if axis is not None and ndims is not None:
            sizes = [t.get_shape()[axis].value for t in values]
        if sizes is not None and None not in sizes:
            parts = split(grad, sizes, axis=axis)          # one SplitV op
        else:                                              # shapes known only at run time
            shapes = shape_n(values)
            offsets = apply_op("ConcatOffset", [axis_t] + shapes, {"N": len(shapes)},
                               name="ConcatOffset", output_dtypes=[dtypes.int32] * len(shapes))
            parts = [slice(grad, o, s) for o, s in zip(offsets, shapes)]
        return list(parts) + [None]


class ConcatOffset(OpDef):
    """Where each concatenated input starts in the output (used by concat's gradient)."""
    differentiable = False
    multi_output = True

    def shape(op):
        return [t.get_shape() for t in op.inputs[1:]]

    def kernel(concat_dim, *shapes, N=None):
        axis = to_int(concat_dim) % len(shapes[0])
        offsets, position = [], 0
        for s in shapes:
            offset = np.zeros_like(s)
            offset[axis] = position
            position += s[axis]
            offsets.append(offset)
        return tuple(offsets)


def concat(values, axis, name="concat"):
    """Joins tensors along an existing axis: two [2, 3] tensors give [4, 3] on axis 0 and
    [2, 6] on axis 1. (The TF 0.x order `concat(axis, values)` is accepted too.)"""
    if isinstance(values, (int, np.integer)) and isinstance(axis, (list, tuple)):
        values, axis = axis, values              # TF 0.x: tf.concat(concat_dim, values)
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        axis_rank = axis.get_shape().ndims if isinstance(axis, Tensor) else np.ndim(axis)
        if axis_rank not in (None, 0):
            raise ValueError(f"axis must be a scalar, got {axis!r}")
        with name_scope(name, values=flat_tensors(values)) as scope:
            return identity(values[0], name=scope)
    tensors = [convert_to_tensor(v) for v in values]
    kinds = {t.dtype.base_dtype for t in tensors}
    if len(kinds) > 1:
        raise TypeError(f"Tensors in list passed to 'values' of 'ConcatV2' Op have types "
                        f"[{', '.join(t.dtype.base_dtype.name for t in tensors)}] that don't "
                        "all match.")
    ax = int_tensor(axis)
    return apply_op("ConcatV2", tensors + [ax], {"N": len(tensors),
                                                 "T": tensors[0].dtype.base_dtype,
                                                 "Tidx": ax.dtype.base_dtype},
                    name=name, output_dtypes=[tensors[0].dtype.base_dtype])


def _split_shapes(in_shape, axis, sizes):
    """Static shapes of split's outputs (`sizes` may hold None or one -1)."""
    if in_shape.ndims is None:
        return [unknown_shape() for _ in sizes]
    if axis is None:
        return [unknown_shape(in_shape.ndims) for _ in sizes]
    axis = positive_axis(axis, in_shape.ndims, "split_dim")
    dims = in_shape.as_list()
    out = []
    for s in sizes:
        d = list(dims)
        d[axis] = s
        out.append(d)
    return out


class Split(OpDef):
    """Cuts `value` into num_split equal pieces along split_dim (the first input)."""
    multi_output = True

    def shape(op):
        axis = constant_int(op.inputs[0])
        in_shape = op.inputs[1].get_shape()
        n = op.get_attr("num_split")
        piece = None
        if axis is not None and in_shape.ndims is not None:
            d = in_shape[positive_axis(axis, in_shape.ndims, "split_dim")].value
            if d is not None:
                if d % n:
                    raise ValueError(f"Dimension size must be evenly divisible by {n} but is "
                                     f"{d}")
                piece = d // n
        return _split_shapes(in_shape, axis, [piece] * n)

    def kernel(split_dim, value, num_split, T=None):
        axis = to_int(split_dim)
        if not -value.ndim <= axis < value.ndim:
            raise InvalidArgumentError(None, None, f"-input rank(-{value.ndim}) <= split_dim "
                                       f"< input rank ({value.ndim}), but got {axis}")
        n = value.shape[axis]
        if n % num_split:
            raise InvalidArgumentError(None, None, f"Number of ways to split should evenly "
                                       f"divide the split dimension, but got split_dim {axis} "
                                       f"(size = {n}) and num_split {num_split}")
        return tuple(np.split(value, num_split, axis))

    def gradient(op, *grads):
        return [None, concat(list(grads), op.inputs[0])]


class SplitV(OpDef):
    """Cuts `value` along split_dim into pieces of the given sizes (one may be -1)."""
    multi_output = True

    def shape(op):
        in_shape = op.inputs[0].get_shape()
        axis = constant_int(op.inputs[2])
        n = op.get_attr("num_split")
        sizes = partial_vector(op.inputs[1]) or [None] * n
        if axis is not None and in_shape.ndims is not None:
            d = in_shape[positive_axis(axis, in_shape.ndims, "split_dim")].value
            if sizes.count(-1) > 1:
                raise ValueError("Cannot infer split size for more than one dimension: "
                                 "size_splits has more than one -1")
            known = sum(s for s in sizes if s is not None and s != -1)
            if d is not None and None not in sizes:
                if -1 in sizes:
                    if known > d:
                        raise ValueError(f"Determined shape must either match input shape "
                                         f"along split_dim exactly if fully specified, or be "
                                         f"less than the size of the input along split_dim if "
                                         f"not fully specified.  Got: {known}")
                    sizes = [d - known if s == -1 else s for s in sizes]
                elif known != d:
                    raise ValueError(f"Determined shape must either match input shape along "
                                     f"split_dim exactly if fully specified, or be less than "
                                     f"the size of the input along split_dim if not fully "
                                     f"specified.  Got: {known}")
        sizes = [None if s == -1 else s for s in sizes]
        return _split_shapes(in_shape, axis, sizes)

    def kernel(value, size_splits, split_dim, num_split, T=None, Tlen=None):
        axis = to_int(split_dim)
        if not -value.ndim <= axis < value.ndim:
            raise InvalidArgumentError(None, None, f"-input rank(-{value.ndim}) <= split_dim "
                                       f"< input rank ({value.ndim}), but got {axis}")
        sizes = size_splits.tolist()
        n = value.shape[axis]
        known = sum(s for s in sizes if s != -1)
        if sizes.count(-1) > 1:
            raise InvalidArgumentError(None, None, "There can only be one -1 in size_splits.")
        if (-1 in sizes and known > n) or (-1 not in sizes and known != n) or \
                builtins.min(sizes, default=0) < -1:
            raise InvalidArgumentError(
                None, None, f"Determined shape must either match input shape along split_dim "
                "exactly if fully specified, or be less than the size of the input along "
                f"split_dim if not fully specified.  Got: {known} (size of split_dim: {n})")
        sizes = [n - known if s == -1 else s for s in sizes]
        return tuple(np.split(value, np.cumsum(sizes)[:-1], axis))

    def gradient(op, *grads):
        return [concat(list(grads), op.inputs[2]), None, None]


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Cuts `value` along `axis` into a list of tensors: `num_or_size_splits=3` gives three
    equal pieces, `[2, -1, 1]` pieces of sizes 2, whatever is left, and 1.
    (The TF 0.x order `split(split_dim, num_split, value)` is accepted too.)"""
    if isinstance(value, (int, np.integer)) and isinstance(num_or_size_splits, (int, np.integer)) \
            and not isinstance(axis, (int, np.integer)):
        value, axis = axis, value               # TF 0.x: tf.split(split_dim, num_split, value)
    x = convert_to_tensor(value)
    ax = int_tensor(axis)
    if isinstance(num_or_size_splits, (int, np.integer, Dimension)):
        n = int(dim_value(num_or_size_splits))
        if n < 1:
            raise ValueError(f"num_split must be >= 1, got {n}")
        out = apply_op("Split", [ax, x], {"num_split": n, "T": x.dtype.base_dtype},
                       name=name, output_dtypes=[x.dtype.base_dtype] * n)
    else:
        sizes = int_tensor(num_or_size_splits)
        if sizes.get_shape().ndims == 0:
            raise ValueError(f"Rank-0 tensors are not supported as the num_or_size_splits "
                             f"argument to split. Argument provided: {num_or_size_splits}")
        if num is None:
            num = sizes.get_shape()[0].value if sizes.get_shape().ndims else None
            if num is None:
                raise ValueError(f"Cannot infer num from shape {num_or_size_splits}")
        out = apply_op("SplitV", [x, sizes, ax], {"num_split": num, "T": x.dtype.base_dtype,
                                                  "Tlen": sizes.dtype.base_dtype},
                       name=name, output_dtypes=[x.dtype.base_dtype] * num)
    return out if isinstance(out, list) else [out]


# ======================================================================================
# Slicing and padding: slice cuts a block out, pad puts a tensor inside a bigger one
# ======================================================================================

class Slice(OpDef):
    """The block starting at `begin` with `size` elements per axis (-1: up to the end)."""

    def shape(op):
        in_shape = op.inputs[0].get_shape()
        begin = partial_vector(op.inputs[1])
        sizes = partial_vector(op.inputs[2])
        n = in_shape.ndims if in_shape.ndims is not None else (
            len(begin) if begin is not None else len(sizes) if sizes is not None else None)
        if n is None:
            return unknown_shape()
        begin = begin if begin is not None else [None] * n
        sizes = sizes if sizes is not None else [None] * n
        if len(begin) != n or len(sizes) != n:
            raise ValueError(f"Expected begin and size arguments to be 1-D tensors of size "
                             f"{n}, but got shapes [{len(begin)}] and [{len(sizes)}] instead.")
        dims = in_shape.as_list() if in_shape.ndims is not None else [None] * n
        out = []
        for i, (d, b, s) in enumerate(zip(dims, begin, sizes)):
            if d is not None and b is not None and not 0 <= b <= d:
                raise ValueError(f"Expected begin[{i}] in [0, {d}], but got {b}")
            if s is not None and s != -1:
                if d is not None and b is not None and not 0 <= s <= d - b:
                    raise ValueError(f"Expected size[{i}] in [0, {d - b}], but got {s}")
                out.append(s)
            else:
                out.append(d - b if s == -1 and d is not None and b is not None else None)
        return TensorShape(out)

    def kernel(input, begin, size, T=None, Index=None):  # noqa: A002 -- TF's name
        begin, size = begin.tolist(), size.tolist()
        if len(begin) != input.ndim or len(size) != input.ndim:
            raise InvalidArgumentError(None, None, f"Expected begin and size arguments to be "
                                       f"1-D tensors of size {input.ndim}, but got shapes "
                                       f"[{len(begin)}] and [{len(size)}] instead.")
        index = []
        for i, (d, b, s) in enumerate(zip(input.shape, begin, size)):
            s = d - b if s == -1 else s
            if not 0 <= b <= d:
                raise InvalidArgumentError(None, None, f"Expected begin[{i}] in [0, {d}], but "
                                           f"got {b}")
            if not 0 <= s <= d - b:
                raise InvalidArgumentError(None, None, f"Expected size[{i}] in [0, {d - b}], "
                                           f"but got {s}")
            index.append(builtins.slice(b, b + s))
        return input[tuple(index)]

    def gradient(op, grad):
        out = apply_op("SliceGrad", [shape(op.inputs[0]), op.inputs[1], grad],
                       {"T": grad.dtype.base_dtype}, name="SliceGrad",
                       output_dtypes=[grad.dtype.base_dtype])
        return [out, None, None]


class SliceGrad(OpDef):
    """Sandbox op: the gradient of Slice -- zeros shaped like the input, with the incoming
    gradient put where the slice came from (TF builds the same thing with a Pad)."""

    def shape(op):
        return constant_value_as_shape(op.inputs[0])

    def kernel(shape, begin, grad, T=None):
        out = np.zeros(tuple(shape.tolist()), dtype=grad.dtype)
        out[tuple(builtins.slice(b, b + n) for b, n in zip(begin.tolist(), grad.shape))] = grad
        return out


def slice(input_, begin, size, name=None):  # noqa: A001 -- TF's name
    """The block of `input_` starting at `begin` with `size` elements along each axis;
    size -1 means "up to the end": `tf.slice(x, [1, 0], [2, -1])` is `x[1:3, :]`."""
    x = convert_to_tensor(input_)
    b, s = int_tensor(begin), int_tensor(size)
    return apply_op("Slice", [x, b, s], {"T": x.dtype.base_dtype, "Index": b.dtype.base_dtype},
                    name=name or "Slice", output_dtypes=[x.dtype.base_dtype])


def _pad_shape(op):
    in_shape = op.inputs[0].get_shape()
    p = constant_value(op.inputs[1])
    p_shape = op.inputs[1].get_shape()
    n = in_shape.ndims if in_shape.ndims is not None else (
        p_shape[0].value if p_shape.ndims == 2 else None)
    if p is None:
        return unknown_shape(n)
    if p.ndim != 2 or p.shape[1] != 2 or (n is not None and p.shape[0] != n):
        raise ValueError(f"paddings must be a matrix with 2 columns and one row per input "
                         f"dimension ({n}), but has shape {list(p.shape)}")
    if np.any(p < 0):
        raise ValueError(f"Paddings must be non-negative, got {p.tolist()}")
    if in_shape.ndims is None:
        return unknown_shape(p.shape[0])
    return TensorShape([None if d is None else d + int(a) + int(b)
                        for d, (a, b) in zip(in_shape.as_list(), p)])


def _check_paddings(x, paddings):
    if paddings.shape != (x.ndim, 2):
        raise InvalidArgumentError(None, None, f"The first dimension of paddings must be the "
                                   f"rank of inputs {x.ndim}, and paddings has shape "
                                   f"{list(paddings.shape)}")
    if np.any(paddings < 0):
        raise InvalidArgumentError(None, None, f"Paddings must be non-negative: "
                                   f"{paddings.tolist()}")


def _constant_pad(x, paddings, value):
    _check_paddings(x, paddings)
    p = paddings.tolist()
    out = np.full([d + a + b for d, (a, b) in zip(x.shape, p)], value, dtype=x.dtype)
    out[tuple(builtins.slice(a, a + d) for d, (a, _) in zip(x.shape, p))] = x
    return out


def _pad_gradient(op, grad):
    """The gradient of padding is the middle part of the incoming gradient."""
    p = constant_value(op.inputs[1])
    begin = p[:, 0] if p is not None else op.inputs[1][:, 0]
    return slice(grad, begin, shape(op.inputs[0]))


class Pad(OpDef):
    """Adds paddings[i] = [before, after] zeros around each axis i."""
    shape = _pad_shape

    def kernel(input, paddings, T=None, Tpaddings=None):  # noqa: A002 -- TF's name
        return _constant_pad(input, paddings, 0)

    def gradient(op, grad):
        return [_pad_gradient(op, grad), None]


class PadV2(OpDef):
    """Adds paddings[i] = [before, after] copies of constant_values around each axis i."""
    shape = _pad_shape

    def kernel(input, paddings, constant_values, T=None, Tpaddings=None):  # noqa: A002
        return _constant_pad(input, paddings, constant_values)

    def gradient(op, grad):
        return [_pad_gradient(op, grad), None, None]


class MirrorPad(OpDef):
    """Pads with a mirror image of the edges (REFLECT leaves out the edge, SYMMETRIC keeps
    it): [1, 2, 3] padded [2, 2] -> REFLECT [3 2 1 2 3 2 1], SYMMETRIC [2 1 1 2 3 3 2]."""
    shape = _pad_shape

    def kernel(input, paddings, mode, T=None, Tpaddings=None):  # noqa: A002 -- TF's name
        _check_paddings(input, paddings)
        for d, (a, b) in zip(input.shape, paddings.tolist()):
            if mode == "REFLECT" and builtins.max(a, b) >= d:
                raise InvalidArgumentError(None, None, f"paddings must be less than the "
                                           f"dimension size: {a}, {b} not less than {d}")
            if mode == "SYMMETRIC" and builtins.max(a, b) > d:
                raise InvalidArgumentError(None, None, f"paddings must be no greater than the "
                                           f"dimension size: {a}, {b} greater than {d}")
        return np.pad(input, paddings, mode=mode.lower())

    def gradient(op, grad):
        out = apply_op("MirrorPadGrad", [grad, op.inputs[1]],
                       {"mode": op.get_attr("mode"), "T": grad.dtype.base_dtype},
                       name="MirrorPadGrad", output_dtypes=[grad.dtype.base_dtype])
        out.set_shape(op.inputs[0].get_shape())
        return [out, None]


class MirrorPadGrad(OpDef):
    """The gradient of MirrorPad: folds the mirrored borders back onto the parts they copy."""

    def shape(op):
        g = op.inputs[0].get_shape()
        p = constant_value(op.inputs[1])
        if g.ndims is None or p is None:
            return unknown_shape(g.ndims)
        return TensorShape([None if d is None else d - int(a) - int(b)
                            for d, (a, b) in zip(g.as_list(), p)])

    def kernel(input, paddings, mode, T=None, Tpaddings=None):  # noqa: A002 -- TF's name
        g = input
        shift = 1 if mode == "REFLECT" else 0
        for axis, (a, b) in enumerate(paddings.tolist()):
            g = np.moveaxis(g, axis, 0)
            n = g.shape[0] - a - b
            core = g[a:a + n].copy()
            if a:
                core[shift:shift + a] += g[:a][::-1]
            if b:
                core[n - shift - b:n - shift] += g[a + n:][::-1]
            g = np.moveaxis(core, 0, axis)
        return g


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """Pads `tensor`: paddings[i] = [before, after] for dimension i; mode CONSTANT (with
    constant_values), REFLECT or SYMMETRIC (case-insensitive)."""
    x = convert_to_tensor(tensor)
    p = int_tensor(paddings)
    mode = mode.upper()
    attrs = {"T": x.dtype.base_dtype, "Tpaddings": p.dtype.base_dtype}
    if mode == "CONSTANT":
        if not is_tensor_like(constant_values) and constant_values == 0:
            return apply_op("Pad", [x, p], attrs, name=name or "Pad",
                            output_dtypes=[x.dtype.base_dtype])
        c = convert_to_tensor(constant_values, dtype=x.dtype.base_dtype)
        return apply_op("PadV2", [x, p, c], attrs, name=name or "PadV2",
                        output_dtypes=[x.dtype.base_dtype])
    if mode in ("REFLECT", "SYMMETRIC"):
        return apply_op("MirrorPad", [x, p], dict(attrs, mode=mode), name=name or "MirrorPad",
                        output_dtypes=[x.dtype.base_dtype])
    raise ValueError(f"Unknown padding mode: {mode}")


# ======================================================================================
# Tiling
# ======================================================================================

class Tile(OpDef):
    """Repeats x multiples[i] times along each axis i."""

    def shape(op):
        in_shape = op.inputs[0].get_shape()
        m = partial_vector(op.inputs[1])
        if m is None:
            return unknown_shape(in_shape.ndims)
        if in_shape.ndims is None:
            return unknown_shape(len(m))
        if len(m) != in_shape.ndims:
            raise ValueError(f"Shape must be rank {in_shape.ndims} but is rank {len(m)}: "
                             f"multiples needs one entry per dimension of the input")
        return TensorShape([None if d is None or k is None else d * k
                            for d, k in zip(in_shape.as_list(), m)])

    def kernel(input, multiples, T=None, Tmultiples=None):  # noqa: A002
        if multiples.shape != (input.ndim,):
            raise InvalidArgumentError(None, None, f"Expected multiples argument to be a "
                                       f"vector of length {input.ndim} but got length "
                                       f"{multiples.size}")
        return np.tile(input, multiples)

    def gradient(op, grad):
        x, multiples = op.inputs
        out = apply_op("TileGrad", [grad, multiples, shape(x)], {"T": grad.dtype.base_dtype},
                       name="TileGrad", output_dtypes=[grad.dtype.base_dtype])
        return [out, None]


class TileGrad(OpDef):
    """Sandbox op: the gradient of Tile -- sums the multiples[i] copies along each axis i
    back into one, giving a tensor of the input's shape (its third input)."""

    def shape(op):
        return constant_value_as_shape(op.inputs[2])

    def kernel(grad, multiples, input_shape, T=None):
        if not grad.size:
            return np.zeros(tuple(input_shape.tolist()), dtype=grad.dtype)
        split = []
        for d, k in zip(input_shape.tolist(), multiples.tolist()):
            split += [k, d]          # axis i of grad, seen as k copies of d
        return grad.reshape(split).sum(axis=tuple(builtins.range(0, 2 * grad.ndim, 2)),
                                       dtype=grad.dtype)


def tile(input, multiples, name=None):  # noqa: A002 -- TF's name
    """Repeats `input`: a [2, 3] tensor with multiples [2, 1] becomes [4, 3]."""
    x = convert_to_tensor(input)
    m = int_tensor(multiples)
    return apply_op("Tile", [x, m], {"T": x.dtype.base_dtype,
                                     "Tmultiples": m.dtype.base_dtype},
                    name=name or "Tile", output_dtypes=[x.dtype.base_dtype])
