"""Array ops -- mirrors TensorFlow's array_ops (python/ops/array_ops.py).

Array ops move numbers around without doing arithmetic on them. They change a tensor's shape
(reshape, expand_dims, squeeze) or the order of its axes (transpose, reverse), stack tensors
into one (stack, unstack), or make new tensors (zeros, ones, fill, range). Those that cut
tensors apart, glue them together or pick parts of them have files of their own:

    ops/array_ops.py      filled tensors, shape queries, reshaping, stacking, reversing
    ops/slicing_ops.py    slicing and joining: concat, split, slice, pad, tile
    ops/indexing_ops.py   `t[1:3, :, 0]` (strided_slice), gather, gather_nd, scatter_nd,
                          boolean_mask, one_hot, unique

Their gradients only move numbers back: the gradient of a reshape is a reshape back, the
gradient of a slice puts the incoming gradient into a tensor of zeros shaped like the input.

Much of the work here is *static shape inference*: while the graph is built, each op works out
what it can about its output shape, so `tf.reshape(x, [-1, 28, 28, 1])` on a (?, 784) input has
the static shape (?, 28, 28, 1). Shape-like arguments (reshape's `shape`, tile's `multiples`,
...) are tensors; when the graph already fixes their value -- a constant, or tf.shape of a tensor
whose shape is known -- the shape functions read it with framework/tensor_util.py, as TF's
read it with tensor_util.constant_value.
"""
import builtins

import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import Tensor, _contains_tensor, _numpy_value_of, convert_to_tensor
from ..framework.tensor_conversion_registry import register_tensor_conversion_function
from ..framework.tensor_shape import Dimension, TensorShape, unknown_shape
from ..framework.tensor_util import (constant_int, constant_value, constant_value_as_shape,
                                     dim_value, flat_tensors, int_tensor, is_tensor_like,
                                     merge_shapes, partial_vector, positive_axis, shape_text,
                                     to_int)
from .constant_op import constant

__all__ = ["zeros_like", "ones_like", "zeros", "ones", "fill", "range", "shape", "shape_n",
           "size", "rank", "reshape", "transpose", "matrix_transpose", "invert_permutation",
           "expand_dims", "squeeze", "stack", "unstack", "pack", "unpack", "reverse",
           "reverse_v2", "sequence_mask"]


# ======================================================================================
# Shapes and Dimensions as tensors, and lists that hold tensors ("auto-packing")
# ======================================================================================

def _tensor_shape_to_tensor(s, dtype=None, name=None, as_ref=False):
    if not s.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape {s} to a Tensor.")
    return constant(s.as_list(), dtype=dtype or dtypes.int32, name=name or "Const")


def _dimension_to_tensor(d, dtype=None, name=None, as_ref=False):
    return constant(dim_value(d), dtype=dtype or dtypes.int32, name=name or "Const")


register_tensor_conversion_function(TensorShape, _tensor_shape_to_tensor, 100)
register_tensor_conversion_function(Dimension, _dimension_to_tensor, 100)


def _first_tensor(values):
    """The first tensor (or Variable) of a nested list, depth first; None if it holds none."""
    for v in values:
        if is_tensor_like(v):
            return v
        if isinstance(v, (list, tuple)):
            found = _first_tensor(v)
            if found is not None:
                return found
    return None


def _first_dtype(values):
    first = _first_tensor(values)
    return None if first is None else first.dtype.base_dtype


def _autopacking_conversion_function(v, dtype=None, name=None, as_ref=False):
    """convert_to_tensor of a list or tuple: packed when it holds a tensor (at any depth),
    else NotImplemented (a constant then, ops/constant_op.py). A `dtype` other than the
    tensors' own is refused before any op is made (TF's _autopacking_conversion_function)."""
    if not _contains_tensor(v):
        return NotImplemented
    first = _first_tensor(v)
    if dtype is not None and first is not None and \
            first.dtype.base_dtype != dtypes.as_dtype(dtype):
        raise TypeError(f"Cannot convert a list containing a tensor of dtype "
                        f"{first.dtype.base_dtype.name} to {dtypes.as_dtype(dtype).name} "
                        f"(Tensor is: {convert_to_tensor(first)!r})")
    return _autopacking_helper(v, dtype, name or "packed")


register_tensor_conversion_function((list, tuple), _autopacking_conversion_function, 99)


def _autopacking_helper(list_or_tuple, dtype, name):
    """convert_to_tensor of a (nested) list that holds Tensors: TF's "auto-packing".

    Each list level that contains a tensor becomes one Pack op, Python numbers in it become
    constants of the tensors' dtype. So `tf.reshape(x, [-1, n])` works when n is a Tensor.
    """
    dtype = _first_dtype(list_or_tuple) if dtype is None else dtypes.as_dtype(dtype)
    with name_scope(name, values=flat_tensors(list_or_tuple)) as scope:
        must_pack = False
        converted = []
        for i, elem in enumerate(list_or_tuple):
            if is_tensor_like(elem):
                elem = convert_to_tensor(elem)
                if dtype is not None and elem.dtype.base_dtype != dtype:
                    raise TypeError(f"Cannot convert a list containing a tensor of dtype "
                                    f"{elem.dtype.name} to {dtype.name} (Tensor is: {elem!r})")
                must_pack = True
            elif isinstance(elem, (list, tuple)):
                elem = _autopacking_helper(elem, dtype, str(i))
                must_pack = must_pack or isinstance(elem, Tensor)
            converted.append(dim_value(elem))
        if not must_pack:
            return converted
        tensors = [e if isinstance(e, Tensor) else constant(e, dtype=dtype, name=str(i))
                   for i, e in enumerate(converted)]
        return apply_op("Pack", tensors, {"N": len(tensors), "T": dtype, "axis": 0},
                        name=scope)


# ======================================================================================
# Filled tensors: zeros_like, ones_like, zeros, ones, fill, range
# ======================================================================================

class ZerosLike(OpDef):
    """Zeros with the shape and dtype of x."""
    shape = unchanged_shape
    differentiable = False

    def kernel(x, T=None):
        return np.zeros_like(x)


class OnesLike(OpDef):
    """Ones with the shape and dtype of x."""
    shape = unchanged_shape
    differentiable = False

    def kernel(x, T=None):
        return np.ones_like(x)


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    x = convert_to_tensor(tensor)
    out = apply_op("ZerosLike", [x], {"T": x.dtype.base_dtype}, name=name or "zeros_like",
                   output_dtypes=[x.dtype.base_dtype])
    if dtype is not None and dtype != x.dtype.base_dtype:
        from .math_ops import cast
        return cast(out, dtype)
    return out


def ones_like(tensor, dtype=None, name=None, optimize=True):
    x = convert_to_tensor(tensor)
    out = apply_op("OnesLike", [x], {"T": x.dtype.base_dtype}, name=name or "ones_like",
                   output_dtypes=[x.dtype.base_dtype])
    if dtype is not None and dtype != x.dtype.base_dtype:
        from .math_ops import cast
        return cast(out, dtype)
    return out


class Fill(OpDef):
    """A tensor of shape `dims` with every element equal to the scalar `value`."""

    def shape(op):
        return constant_value_as_shape(op.inputs[0])

    def kernel(dims, value, T=None, index_type=None):
        if np.any(dims < 0):
            raise InvalidArgumentError(None, None, f"dims must be non-negative, got "
                                       f"{dims.tolist()}")
        return np.full(tuple(dims.tolist()), value, dtype=value.dtype)

    def gradient(op, grad):
        from .reduction_ops import reduce_sum
        return [None, reduce_sum(grad)]


def fill(dims, value, name=None):
    """`tf.fill([2, 3], 9)`: a [2, 3] tensor of nines."""
    dims = int_tensor(dims)
    value = convert_to_tensor(value)
    if value.get_shape().ndims not in (None, 0):
        raise ValueError(f"value must be a scalar, but has shape {value.get_shape()}")
    return apply_op("Fill", [dims, value], {"T": value.dtype.base_dtype,
                                            "index_type": dims.dtype.base_dtype},
                    name=name or "Fill", output_dtypes=[value.dtype.base_dtype])


def _filled(shape, dtype, scalar, name, default_name):
    """zeros/ones: a Const when small (< 1000 elements), else a Fill op (as TF does, so that
    big initial values do not make the graph big)."""
    dtype = dtypes.as_dtype(dtype).base_dtype
    value = bool(scalar) if dtype == dtypes.bool else "" if dtype == dtypes.string else scalar
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    with name_scope(name, default_name, [shape] if isinstance(shape, Tensor) else None) as scope:
        if not isinstance(shape, Tensor) and not (isinstance(shape, (list, tuple)) and
                                                  _contains_tensor(shape)):
            dims = [dim_value(d) for d in np.reshape(np.asarray(shape, dtype=object), -1)]
            if not all(isinstance(d, (int, np.integer)) for d in dims):
                raise TypeError(f"Expected a list of ints for the shape, got {shape!r}.")
            if int(np.prod(dims, dtype=np.int64)) < 1000:
                return constant(value, dtype=dtype, shape=dims, name=scope)
            shape = constant(dims, dtype=dtypes.int32, name="shape_as_tensor")
        shape = int_tensor(shape)
        if shape.get_shape().ndims == 0:
            shape = reshape(shape, [-1])
        return fill(shape, constant(value, dtype=dtype), name=scope)


def zeros(shape, dtype=dtypes.float32, name=None):
    """A tensor of zeros: `tf.zeros([784, 10])`."""
    return _filled(shape, dtype, 0, name, "zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    """A tensor of ones: `tf.ones([3])`."""
    return _filled(shape, dtype, 1, name, "ones")


class Range(OpDef):
    """start, start + delta, ... up to (not including) limit."""
    differentiable = False

    def shape(op):
        values = [constant_value(t) for t in op.inputs]
        if any(v is None for v in values):
            return TensorShape([None])
        start, limit, delta = (v.item() for v in values)
        if delta == 0:
            raise ValueError("Requires delta != 0")
        return TensorShape([builtins.max(0, int(np.ceil((limit - start) / delta)))])

    def kernel(start, limit, delta, Tidx=None):
        if delta == 0:
            raise InvalidArgumentError(None, None, f"Requires delta != 0: {delta}")
        if delta > 0 and start > limit:
            raise InvalidArgumentError(None, None, f"Requires start <= limit when delta > 0: "
                                       f"{start}/{limit}")
        if delta < 0 and start < limit:
            raise InvalidArgumentError(None, None, f"Requires start >= limit when delta < 0: "
                                       f"{start}/{limit}")
        return np.arange(start, limit, delta, dtype=Tidx.as_numpy_dtype)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 -- TF's name
    """Like Python's range, as a 1-D tensor: `tf.range(5)` -> [0 1 2 3 4] (int32).
    Without `dtype` the widest argument type wins: ints -> int32, floats -> float32."""
    if limit is None:
        start, limit = 0, start
    args = [start, limit, delta]
    with name_scope(name, "Range", [a for a in args if is_tensor_like(a)]) as scope:
        if dtype is None:
            order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
            found = [convert_to_tensor(a).dtype.base_dtype if is_tensor_like(a) else
                     dtypes.as_dtype(_numpy_value_of(a).dtype) for a in args]
            for d in found:
                if d not in order:
                    raise TypeError(f"tf.range arguments must be int32, int64, float32 or "
                                    f"float64, got {d.name}")
            dtype = builtins.max(found, key=order.index)
        dtype = dtypes.as_dtype(dtype)
        tensors = []
        for a, arg_name in zip(args, ("start", "limit", "delta")):
            if is_tensor_like(a):
                a = convert_to_tensor(a)
                if a.dtype.base_dtype != dtype:
                    from .math_ops import cast
                    a = cast(a, dtype)
            else:
                a = constant(a, dtype=dtype, name=arg_name)
            tensors.append(a)
        return apply_op("Range", tensors, {"Tidx": dtype}, name=scope, output_dtypes=[dtype])


# ======================================================================================
# Shape queries: shape, shape_n, size, rank
# ======================================================================================

class Shape(OpDef):
    """The shape of x as a 1-D int tensor."""
    differentiable = False

    def shape(op):
        return TensorShape([op.inputs[0].get_shape().ndims])

    def kernel(x, T=None, out_type=None):
        return np.array(np.shape(x), dtype=out_type.as_numpy_dtype)


class ShapeN(OpDef):
    """The shapes of N tensors, one 1-D int tensor each."""
    differentiable = False
    multi_output = True

    def shape(op):
        return [TensorShape([t.get_shape().ndims]) for t in op.inputs]

    def kernel(*inputs, N=None, T=None, out_type=None):
        return tuple(np.array(np.shape(x), dtype=out_type.as_numpy_dtype) for x in inputs)


class Size(OpDef):
    """The number of elements of x."""
    differentiable = False

    def shape(op):
        return TensorShape([])

    def kernel(x, T=None, out_type=None):
        return np.array(np.size(x), dtype=out_type.as_numpy_dtype)


class Rank(OpDef):
    """The number of dimensions of x."""
    differentiable = False

    def shape(op):
        return TensorShape([])

    def kernel(x, T=None):
        return np.array(np.ndim(x), dtype=np.int32)


def shape(input, name=None, out_type=dtypes.int32):  # noqa: A002 -- TF's name
    """The shape of `input` as a 1-D tensor, known when the graph runs. When the static shape
    is already fully known, TF (and the sandbox) returns a constant."""
    x = convert_to_tensor(input)
    out_type = dtypes.as_dtype(out_type)
    s = x.get_shape()
    if s.is_fully_defined():
        return constant(s.as_list(), dtype=out_type, name=name)
    return apply_op("Shape", [x], {"T": x.dtype.base_dtype, "out_type": out_type},
                    name=name or "Shape", output_dtypes=[out_type])


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002 -- TF's name
    """The shapes of a list of tensors (one ShapeN op)."""
    xs = [convert_to_tensor(x) for x in input]
    out_type = dtypes.as_dtype(out_type)
    out = apply_op("ShapeN", xs, {"N": len(xs), "T": xs[0].dtype.base_dtype,
                                  "out_type": out_type},
                   name=name or "ShapeN", output_dtypes=[out_type] * len(xs))
    return out if isinstance(out, list) else [out]


def size(input, name=None, out_type=dtypes.int32):  # noqa: A002 -- TF's name
    """The number of elements of `input` (a constant when the static shape says it)."""
    x = convert_to_tensor(input)
    out_type = dtypes.as_dtype(out_type)
    s = x.get_shape()
    if s.is_fully_defined():
        return constant(s.num_elements(), dtype=out_type, name=name)
    if s.ndims is not None and 0 in s.as_list():
        return constant(0, dtype=out_type, name=name)
    return apply_op("Size", [x], {"T": x.dtype.base_dtype, "out_type": out_type},
                    name=name or "Size", output_dtypes=[out_type])


def rank(input, name=None):  # noqa: A002 -- TF's name
    """The number of dimensions of `input` (a constant when the static rank is known)."""
    x = convert_to_tensor(input)
    if x.get_shape().ndims is not None:
        return constant(x.get_shape().ndims, dtype=dtypes.int32, name=name)
    return apply_op("Rank", [x], {"T": x.dtype.base_dtype}, name=name or "Rank",
                    output_dtypes=[dtypes.int32])


# ======================================================================================
# Reshaping: reshape, transpose, reverse, expand_dims, squeeze
# ======================================================================================

def _product(dims):
    n = 1
    for d in dims:
        n *= d
    return n


class Reshape(OpDef):
    """The elements of x, in the same order, with a new shape (one entry may be -1)."""

    def shape(op):
        out = partial_vector(op.inputs[1])
        if out is None:
            return unknown_shape()
        for i, d in enumerate(out):
            if d is not None and d < -1:
                raise ValueError(f"Size {i} must be non-negative, not {d}")
        out = [None if d is None or d == -1 else d for d in out]
        in_shape = op.inputs[0].get_shape()
        if in_shape.ndims is None:
            return TensorShape(out)
        ins = in_shape.as_list()
        out_unknown = [i for i, d in enumerate(out) if d is None]
        in_unknown = [i for i, d in enumerate(ins) if d is None]
        if len(out_unknown) > 1 or len(in_unknown) > 1:
            return TensorShape(out)
        known_out = _product(d for d in out if d is not None)
        known_in = _product(d for d in ins if d is not None)
        if not in_unknown and not out_unknown:
            if known_in != known_out:
                raise ValueError(f"Cannot reshape a tensor with {known_in} elements to shape "
                                 f"{shape_text(out)} ({known_out} elements)")
        elif not in_unknown and known_out > 0:           # infer the -1 from the input size
            if known_in % known_out:
                raise ValueError(f"Dimension size must be evenly divisible by {known_out} but "
                                 f"is {known_in}")
            out[out_unknown[0]] = known_in // known_out
        elif not out_unknown and known_in != 0 and known_out % known_in:
            raise ValueError(f"Dimension size must be evenly divisible by {known_in} but is "
                             f"{known_out}")
        return TensorShape(out)

    def kernel(tensor, shape, T=None, Tshape=None):
        try:
            return tensor.reshape(shape)
        except ValueError:
            dims = shape.tolist()
            unknown = [i for i, d in enumerate(dims) if d == -1]
            bad = [(i, d) for i, d in enumerate(dims) if d < -1]
            known = _product(d for d in dims if d != -1)
            if bad:
                msg = f"Size {bad[0][0]} must be non-negative, not {bad[0][1]}"
            elif len(unknown) > 1:
                msg = f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}"
            elif unknown:
                msg = (f"Input to reshape is a tensor with {tensor.size} values, but the "
                       f"requested shape requires a multiple of {known}")
            else:
                msg = (f"Input to reshape is a tensor with {tensor.size} values, but the "
                       f"requested shape has {known}")
            raise InvalidArgumentError(None, None, msg) from None

    def gradient(op, grad):
        return [reshape(grad, shape(op.inputs[0])), None]


def reshape(tensor, shape, name=None):  # noqa: F811 -- TF's argument name
    """The same elements with a new shape; one dimension may be -1 ("whatever is left"):
    `tf.reshape(x, [-1, 28, 28, 1])`."""
    x = convert_to_tensor(tensor)
    s = int_tensor(shape)
    return apply_op("Reshape", [x, s], {"T": x.dtype.base_dtype, "Tshape": s.dtype.base_dtype},
                    name=name or "Reshape", output_dtypes=[x.dtype.base_dtype])


class InvertPermutation(OpDef):
    """y[x[i]] = i: the permutation that undoes x."""
    differentiable = False
    shape = unchanged_shape

    def kernel(x, T=None):
        if sorted(x.tolist()) != list(builtins.range(x.size)):
            raise InvalidArgumentError(None, None, f"{x.tolist()} is not a permutation of "
                                       f"0..{x.size - 1}")
        return np.argsort(x).astype(x.dtype)


def invert_permutation(x, name=None):
    x = convert_to_tensor(x)
    return apply_op("InvertPermutation", [x], {"T": x.dtype.base_dtype},
                    name=name or "InvertPermutation")


class Transpose(OpDef):
    """Permutes the axes: output axis i is input axis perm[i]."""

    def shape(op):
        in_shape = op.inputs[0].get_shape()
        perm = partial_vector(op.inputs[1])
        if perm is None:
            return unknown_shape(in_shape.ndims)
        if in_shape.ndims is None:
            return unknown_shape(len(perm))
        if len(perm) != in_shape.ndims:
            raise ValueError(f"Dimension must be {in_shape.ndims} but is {len(perm)}")
        dims = in_shape.as_list()
        for p in perm:
            if p is not None and not -len(dims) <= p < len(dims):
                raise ValueError(f"perm dim {p} is out of range of input rank {len(dims)}")
        return TensorShape([None if p is None else dims[p] for p in perm])

    def kernel(x, perm, T=None, Tperm=None):
        try:
            return np.transpose(x, perm)
        except ValueError:
            raise InvalidArgumentError(None, None, f"transpose expects perm to be a "
                                       f"permutation of 0..{x.ndim - 1}, got {perm.tolist()}"
                                       ) from None

    def gradient(op, grad):
        perm = constant_value(op.inputs[1])
        if perm is not None:
            inverse = np.argsort(perm).astype(np.int32)
        else:
            inverse = invert_permutation(op.inputs[1])
        return [transpose(grad, inverse, conjugate=op.type == "ConjugateTranspose"), None]


class ConjugateTranspose(Transpose):
    """transpose(conjugate=True) of a complex tensor: the axes permuted, the values
    conjugated (a matrix's adjoint)."""

    def kernel(x, perm, T=None, Tperm=None):
        return np.conj(Transpose.kernel(x, perm))


def transpose(a, perm=None, name="transpose", conjugate=False):
    """Permutes the axes of `a`; without `perm`, reverses them (a matrix transpose for 2-D).
    conjugate=True also conjugates a complex tensor (ConjugateTranspose, as TF)."""
    with name_scope(name, "transpose", [a] if is_tensor_like(a) else None) as scope:
        x = convert_to_tensor(a, name="a")
        if perm is None:
            if x.get_shape().ndims is not None:
                perm = np.arange(x.get_shape().ndims - 1, -1, -1, dtype=np.int32)
            else:            # rank known only when running: reverse(range(rank(a)))
                perm = reverse_v2(range(rank(x)), [0])
        perm = int_tensor(perm)
        op_type = "ConjugateTranspose" if conjugate and x.dtype.is_complex else "Transpose"
        return apply_op(op_type, [x, perm], {"T": x.dtype.base_dtype,
                                             "Tperm": perm.dtype.base_dtype},
                        name=scope, output_dtypes=[x.dtype.base_dtype])


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Transposes the last two dimensions of `a` (a batch of matrices)."""
    with name_scope(name, "matrix_transpose", [a] if is_tensor_like(a) else None) as scope:
        x = convert_to_tensor(a, name="a")
        ndims = x.get_shape().ndims
        if ndims is None:
            raise ValueError("matrix_transpose needs a tensor of known rank")
        if ndims < 2:
            raise ValueError(f"Argument 'a' should be a (batch) matrix, with rank >= 2.  "
                             f"Found: {x.get_shape()}")
        perm = list(builtins.range(ndims - 2)) + [ndims - 1, ndims - 2]
        return transpose(x, perm, name=scope, conjugate=conjugate)


class ReverseV2(OpDef):
    """Reverses the order of elements along the given axes."""
    shape = unchanged_shape

    def kernel(tensor, axis, T=None, Tidx=None):
        return np.flip(tensor, axis=tuple(axis.tolist()))

    def gradient(op, grad):
        return [reverse_v2(grad, op.inputs[1]), None]


def reverse_v2(tensor, axis, name=None):
    """Reverses `tensor` along the axes listed in `axis`: `tf.reverse(x, [0])`."""
    x = convert_to_tensor(tensor)
    ax = int_tensor(axis)
    return apply_op("ReverseV2", [x, ax], {"T": x.dtype.base_dtype,
                                           "Tidx": ax.dtype.base_dtype},
                    name=name or "ReverseV2", output_dtypes=[x.dtype.base_dtype])


reverse = reverse_v2


class ExpandDims(OpDef):
    """Inserts a dimension of size 1 at position `dim`."""

    def shape(op):
        in_shape = op.inputs[0].get_shape()
        axis = constant_int(op.inputs[1])
        if in_shape.ndims is None:
            return unknown_shape()
        if axis is None:
            return unknown_shape(in_shape.ndims + 1)
        n = in_shape.ndims
        if not -n - 1 <= axis <= n:
            raise ValueError(f"Tried to expand dim index {axis} for tensor with {n} dimensions.")
        axis = axis % (n + 1)
        dims = in_shape.as_list()
        return TensorShape(dims[:axis] + [1] + dims[axis:])

    def kernel(x, dim, T=None, Tdim=None):
        axis = to_int(dim)
        if not -x.ndim - 1 <= axis <= x.ndim:
            raise InvalidArgumentError(None, None, f"Tried to expand dim index {axis} for "
                                       f"tensor with {x.ndim} dimensions.")
        return np.expand_dims(x, axis)

    def gradient(op, grad):
        return [reshape(grad, shape(op.inputs[0])), None]


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002 -- TF's name
    """Adds a dimension of size 1: a [3] tensor with axis=0 becomes [1, 3]; axis=-1 gives
    [3, 1]. (`dim` is the old name of `axis`.)"""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    x = convert_to_tensor(input)
    ax = int_tensor(axis)
    return apply_op("ExpandDims", [x, ax], {"T": x.dtype.base_dtype,
                                            "Tdim": ax.dtype.base_dtype},
                    name=name or "ExpandDims", output_dtypes=[x.dtype.base_dtype])


class Squeeze(OpDef):
    """Removes dimensions of size 1 (all of them, or those listed in squeeze_dims)."""

    def shape(op):
        in_shape = op.inputs[0].get_shape()
        axes = op.get_attr("squeeze_dims")
        if in_shape.ndims is None:
            return unknown_shape()
        dims = in_shape.as_list()
        n = len(dims)
        for a in axes:
            if not -n <= a < n:
                raise ValueError(f"Tried to squeeze dim index {a} for tensor with {n} "
                                 "dimensions.")
        axes = {a % n for a in axes}
        out = []
        for i, d in enumerate(dims):
            if axes:
                if i in axes:
                    if d is not None and d != 1:
                        raise ValueError(f"Can not squeeze dim[{i}], expected a dimension of "
                                         f"1, got {d}")
                    continue
            elif d is None:
                return unknown_shape()      # it may or may not be 1
            elif d == 1:
                continue
            out.append(d)
        return TensorShape(out)

    def kernel(x, T=None, squeeze_dims=()):
        if not squeeze_dims:
            return np.squeeze(x)
        for a in squeeze_dims:
            if not -x.ndim <= a < x.ndim:
                raise InvalidArgumentError(None, None, f"Tried to squeeze dim index {a} for "
                                           f"tensor with {x.ndim} dimensions.")
            if x.shape[a] != 1:
                raise InvalidArgumentError(None, None, f"Can not squeeze dim[{a % x.ndim}], "
                                           f"expected a dimension of 1, got {x.shape[a]}")
        return np.squeeze(x, axis=tuple(squeeze_dims))

    def gradient(op, grad):
        return [reshape(grad, shape(op.inputs[0]))]


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002 -- TF's name
    """Removes dimensions of size 1: [1, 3, 1] -> [3]; with axis=[0], [1, 3, 1] -> [3, 1]."""
    if squeeze_dims is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'squeeze_dims'")
        axis = squeeze_dims
    if axis is None:
        axis = []
    elif np.ndim(axis) == 0:
        axis = [axis]
    x = convert_to_tensor(input)
    return apply_op("Squeeze", [x], {"T": x.dtype.base_dtype,
                                     "squeeze_dims": [int(a) for a in axis]},
                    name=name or "Squeeze", output_dtypes=[x.dtype.base_dtype])


# ======================================================================================
# Stacking: stack, unstack (a list that holds tensors becomes one Pack op)
# ======================================================================================

def _merge_shapes(shapes):
    """The shape all `shapes` agree on (ValueError with TF's text when they do not)."""
    merged = shapes[0]
    for s in shapes[1:]:
        try:
            merged = merge_shapes(merged, s)
        except ValueError as e:
            raise ValueError(f"{e}\n\tFrom merging shape 0 with other shapes.") from None
    return merged


class Pack(OpDef):
    """Stacks N tensors of the same shape along a new axis."""

    def shape(op):
        merged = _merge_shapes([t.get_shape() for t in op.inputs])
        if merged.ndims is None:
            return unknown_shape()
        dims = merged.as_list()
        axis = positive_axis(op.get_attr("axis"), len(dims) + 1)
        return TensorShape(dims[:axis] + [len(op.inputs)] + dims[axis:])

    def kernel(*values, N=None, T=None, axis=0):
        try:
            return np.stack(values, axis=axis)
        except ValueError:
            bad = next(i for i, v in enumerate(values) if np.shape(v) != np.shape(values[0]))
            raise InvalidArgumentError(None, None, f"Shapes of all inputs must match: "
                                       f"values[0].shape = {list(np.shape(values[0]))} != "
                                       f"values[{bad}].shape = {list(np.shape(values[bad]))}"
                                       ) from None

    def gradient(op, grad):
        return unstack(grad, num=len(op.inputs), axis=op.get_attr("axis"))


class Unpack(OpDef):
    """Cuts a tensor along `axis` into `num` tensors with that axis removed."""
    multi_output = True

    def shape(op):
        in_shape = op.inputs[0].get_shape()
        num = op.get_attr("num")
        if in_shape.ndims is None:
            return [unknown_shape() for _ in builtins.range(num)]
        dims = in_shape.as_list()
        axis = positive_axis(op.get_attr("axis"), len(dims))
        if dims[axis] is not None and dims[axis] != num:
            raise ValueError(f"Dimension must be {num} but is {dims[axis]}")
        return [dims[:axis] + dims[axis + 1:] for _ in builtins.range(num)]

    def kernel(value, num, axis=0, T=None):
        if value.shape[axis] != num:
            raise InvalidArgumentError(None, None, f"Input shape axis {axis} must equal {num}, "
                                       f"got shape {list(value.shape)}")
        return tuple(value) if axis == 0 else tuple(np.moveaxis(value, axis, 0))

    def gradient(op, *grads):
        return [stack(list(grads), axis=op.get_attr("axis"))]


def stack(values, axis=0, name="stack"):
    """Stacks same-shaped tensors along a new axis: three [2] tensors give [3, 2] (axis=0)
    or [2, 3] (axis=1). A list of plain numbers just becomes a constant."""
    if axis == 0:       # a constant for plain numbers, else one Pack op ("auto-packing")
        return convert_to_tensor(values, name=name)
    tensors = [convert_to_tensor(v) for v in values]
    ndims = tensors[0].get_shape().ndims
    if ndims is not None and not -ndims - 1 <= axis <= ndims:
        raise ValueError(f"axis = {axis} not in [{-ndims - 1}, {ndims + 1})")
    return apply_op("Pack", tensors, {"N": len(tensors), "T": tensors[0].dtype.base_dtype,
                                      "axis": int(axis)},
                    name=name, output_dtypes=[tensors[0].dtype.base_dtype])


def unstack(value, num=None, axis=0, name="unstack"):
    """Cuts `value` along `axis` into a list of tensors with that axis removed."""
    x = convert_to_tensor(value)
    ndims = x.get_shape().ndims
    if ndims is not None:
        if not -ndims <= axis < ndims:
            raise ValueError(f"axis = {axis} not in [{-ndims}, {ndims})")
        if num is None:
            num = x.get_shape()[axis].value
    if num is None:
        raise ValueError(f"Cannot infer num from shape {x.get_shape()}")
    out = apply_op("Unpack", [x], {"num": int(num), "T": x.dtype.base_dtype, "axis": int(axis)},
                   name=name, output_dtypes=[x.dtype.base_dtype] * int(num))
    if num == 0:
        return []
    return out if isinstance(out, list) else [out]


def pack(values, axis=0, name="pack"):
    """TF 0.x name of tf.stack."""
    return stack(values, axis=axis, name=name)


def unpack(value, num=None, axis=0, name="unpack"):
    """TF 0.x name of tf.unstack."""
    return unstack(value, num=num, axis=axis, name=name)


# ======================================================================================
# Small extras: sequence_mask (check_numerics is in check_ops.py, with TF's numerics)
# ======================================================================================

def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[i, j] = j < lengths[i]: `tf.sequence_mask([1, 3], 4)` ->
    [[T F F F], [T T T F]]."""
    from . import comparison_ops, math_ops, reduction_ops
    with name_scope(name, "SequenceMask", flat_tensors([lengths, maxlen])):
        lengths = convert_to_tensor(lengths)
        if maxlen is None:
            maxlen = reduction_ops.reduce_max(lengths)
        maxlen = convert_to_tensor(maxlen)
        row = range(0, maxlen, 1, dtype=maxlen.dtype.base_dtype)
        matrix = math_ops.cast(expand_dims(lengths, -1), maxlen.dtype.base_dtype)
        result = comparison_ops.less(row, matrix)
        dtype = dtypes.as_dtype(dtype)
        return result if dtype == dtypes.bool else math_ops.cast(result, dtype)
