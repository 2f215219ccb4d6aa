"""Reductions -- reduce_sum, reduce_mean, reduce_max ..., argmax and argmin, cumsum: the part of
TensorFlow's math_ops (python/ops/math_ops.py, gradients in ops/math_grad.py) that the TF
guide calls "Reduction" and "Scan" (TF's kernels: core/kernels/reduction_ops*.cc,
argmax_op.cc, scan_ops.cc).

A reduction collapses the `axis` dimensions (all of them by default); `keepdims=True` keeps
each as size 1. Its gradient spreads the incoming gradient back over the collapsed dimensions:
the gradient of a sum repeats it, of a mean divides it by the count, of a max gives it to the
largest element (shared between ties). Each of these is one fused op here (SumGrad, MeanGrad,
MinMaxGrad, ProdGrad), where TF builds it from Reshape, Tile and arithmetic ops.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph, name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import const_op_value, is_tensor_like
from .basic_math_ops import exp, is_finite, log
from .comparison_ops import not_equal, where
from .math_ops import _ARITH, _BOOL, _NUMBERS, _check_dtype, add, cast, subtract

__all__ = ["arg_max", "arg_min", "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all",
           "reduce_any", "reduce_logsumexp", "count_nonzero", "argmax", "argmin", "cumsum"]


def _reduced_shape(op):
    """Static shape of a reduction: input 1 holds the axes, attr keep_dims."""
    x = op.inputs[0].get_shape()
    keep = op.get_attr("keep_dims")
    axes = const_op_value(op.inputs[1])
    if x.ndims is None:
        return TensorShape(None)
    if axes is None:
        return TensorShape([None] * x.ndims) if keep else TensorShape(None)
    rank = x.ndims
    axes = [int(a) for a in np.reshape(axes, -1)]
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"Invalid reduction dimension {a} for input with {rank} "
                             "dimensions")
    axes = {a % rank for a in axes}
    dims = x.as_list()
    if keep:
        return TensorShape([1 if i in axes else d for i, d in enumerate(dims)])
    return TensorShape([d for i, d in enumerate(dims) if i not in axes])


def _axes(reduction_indices):
    """The axis argument for NumPy: an int or a tuple of ints."""
    if reduction_indices.ndim == 0:
        return int(reduction_indices)
    return tuple(reduction_indices.tolist())


def _normalized_axes(reduction_indices, ndim):
    """The reduced axes as sorted non-negative ints."""
    return tuple(sorted({a % ndim for a in reduction_indices.ravel().tolist()})) if ndim else ()


def _kept_shape(shape, reduction_indices):
    """The reduction's output shape with each reduced axis kept as size 1 (keepdims)."""
    axes = _normalized_axes(reduction_indices, len(shape))
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def _kept(value, x, reduction_indices, keep_dims):
    """A reduction's output reshaped as with keepdims=True, so it broadcasts against x."""
    if keep_dims:
        return value
    return np.asarray(value).reshape(_kept_shape(x.shape, reduction_indices))


def _count(x, result):
    """How many elements of x went into each element of a reduction's result."""
    return x.size // max(np.size(result), 1)


# The kernels call ufunc.reduce (np.add.reduce is np.sum without its Python wrapper) --
# the same arithmetic, a little faster on the small arrays of a training step.

class _Reduction(OpDef):
    abstract = True
    shape = _reduced_shape


class Sum(_Reduction):
    """Sum of the elements along the given axes."""
    def kernel(x, reduction_indices, keep_dims=False, T=None, Tidx=None):
        return np.add.reduce(x, axis=_axes(reduction_indices), dtype=x.dtype,
                             keepdims=keep_dims)

    def gradient(op, grad):
        x, axes = op.inputs
        return [_reduction_grad("SumGrad", grad, x, axes, op), None]


class Mean(_Reduction):
    """Mean of the elements along the given axes (integers: the sum divided by the count,
    rounded toward zero)."""
    def kernel(x, reduction_indices, keep_dims=False, T=None, Tidx=None):
        axes = _axes(reduction_indices)
        if x.dtype == np.float16:       # float16 sums are too coarse: add up in float32
            return np.mean(x, axis=axes, keepdims=keep_dims, dtype=np.float32).astype(x.dtype)
        total = np.add.reduce(x, axis=axes, dtype=x.dtype, keepdims=keep_dims)
        count = _count(x, total)
        if x.dtype.kind in "iu":
            return (np.sign(total) * (np.abs(total) // max(count, 1))).astype(x.dtype)
        return total / count

    def gradient(op, grad):
        x, axes = op.inputs
        return [_reduction_grad("MeanGrad", grad, x, axes, op), None]


def _lowest(dtype, sign):
    """What TF's max (sign -1) or min (sign +1) of no elements is: the lowest or highest value
    of the dtype (-inf, inf for floats)."""
    if dtype.kind == "f":
        return sign * np.inf
    if dtype.kind == "b":
        return sign > 0
    info = np.iinfo(dtype)
    return info.min if sign < 0 else info.max


class Max(_Reduction):
    """Maximum of the elements along the given axes (of none: the dtype's lowest, as TF)."""
    def kernel(x, reduction_indices, keep_dims=False, T=None, Tidx=None):
        if x.size == 0:
            return np.maximum.reduce(x, axis=_axes(reduction_indices), keepdims=keep_dims,
                                     initial=_lowest(x.dtype, -1))
        return np.maximum.reduce(x, axis=_axes(reduction_indices), keepdims=keep_dims)

    def gradient(op, grad):
        x, axes = op.inputs
        return [_reduction_grad("MinMaxGrad", grad, x, axes, op, op.outputs[0]), None]


class Min(_Reduction):
    """Minimum of the elements along the given axes (of none: the dtype's highest, as TF)."""
    def kernel(x, reduction_indices, keep_dims=False, T=None, Tidx=None):
        if x.size == 0:
            return np.minimum.reduce(x, axis=_axes(reduction_indices), keepdims=keep_dims,
                                     initial=_lowest(x.dtype, +1))
        return np.minimum.reduce(x, axis=_axes(reduction_indices), keepdims=keep_dims)

    def gradient(op, grad):
        x, axes = op.inputs
        return [_reduction_grad("MinMaxGrad", grad, x, axes, op, op.outputs[0]), None]


class Prod(_Reduction):
    """Product of the elements along the given axes."""
    def kernel(x, reduction_indices, keep_dims=False, T=None, Tidx=None):
        return np.multiply.reduce(x, axis=_axes(reduction_indices), dtype=x.dtype,
                                  keepdims=keep_dims)

    def gradient(op, grad):
        x, axes = op.inputs
        return [_reduction_grad("ProdGrad", grad, x, axes, op), None]


class All(_Reduction):
    """Logical AND of the elements along the given axes."""
    differentiable = False

    def kernel(x, reduction_indices, keep_dims=False, T=None, Tidx=None):
        return np.logical_and.reduce(x, axis=_axes(reduction_indices), keepdims=keep_dims)


class Any(_Reduction):
    """Logical OR of the elements along the given axes."""
    differentiable = False

    def kernel(x, reduction_indices, keep_dims=False, T=None, Tidx=None):
        return np.logical_or.reduce(x, axis=_axes(reduction_indices), keepdims=keep_dims)


# -- fused reduction gradients: inputs (grad, x, reduction_indices[, y]) ----------------
# Each writes a fresh array shaped like x: the output gradient spread back over the
# reduced axes (TF builds the same from Reshape + Tile + arithmetic ops).

class _ReductionGradOp(OpDef):
    abstract = True

    def shape(op):
        return op.inputs[1].get_shape()


class SumGrad(_ReductionGradOp):
    """dx = dy repeated over the summed axes (a sandbox op)."""
    def kernel(grad, x, reduction_indices, keep_dims=False, T=None):
        out = np.empty(x.shape, dtype=x.dtype)
        np.copyto(out, _kept(grad, x, reduction_indices, keep_dims))
        return out

    def gradient(op, grad):
        _, x, axes = op.inputs
        return [reduce_sum(grad, axes, keepdims=op.get_attr("keep_dims")), None, None]


class MeanGrad(_ReductionGradOp):
    """dx = dy / count repeated over the averaged axes (a sandbox op)."""
    def kernel(grad, x, reduction_indices, keep_dims=False, T=None):
        out = np.empty(x.shape, dtype=x.dtype)
        return np.divide(_kept(grad, x, reduction_indices, keep_dims), _count(x, grad),
                         out=out)

    def gradient(op, grad):
        _, x, axes = op.inputs
        return [reduce_mean(grad, axes, keepdims=op.get_attr("keep_dims")), None, None]


class MinMaxGrad(_ReductionGradOp):
    """dx = dy where x equals the max (or min) y, shared equally between ties (a sandbox op)."""
    def kernel(grad, x, reduction_indices, y, keep_dims=False, T=None):
        chosen = (x == _kept(y, x, reduction_indices, keep_dims)).astype(x.dtype)
        ties = np.add.reduce(chosen, axis=_axes(reduction_indices), keepdims=True)
        return chosen * (_kept(grad, x, reduction_indices, keep_dims) / ties)


class ProdGrad(_ReductionGradOp):
    """dx = dy * (product of the other elements), exact even when x has zeros (a sandbox
    op; TF builds it from cumulative products, as here)."""
    def kernel(grad, x, reduction_indices, keep_dims=False, T=None):
        axes = _normalized_axes(reduction_indices, x.ndim)
        perm = list(axes) + [i for i in range(x.ndim) if i not in axes]
        moved = np.transpose(x, perm)                 # reduced axes first ...
        flat = moved.reshape(int(np.prod([x.shape[a] for a in axes])), -1)   # ... as rows
        ones = np.ones((1, flat.shape[1]), dtype=x.dtype)
        before = np.cumprod(np.concatenate([ones, flat[:-1]]), axis=0)       # rows above
        after = np.cumprod(np.concatenate([ones, flat[:0:-1]]), axis=0)[::-1]  # rows below
        others = (before * after).reshape(moved.shape).transpose(np.argsort(perm))
        if np.iscomplexobj(others):           # TF: the gradient is in the conjugate direction
            others = np.conj(others)
        return _kept(grad, x, reduction_indices, keep_dims) * others


def _reduction_grad(op_type, grad, x, axes, op, y=None):
    inputs = [grad, x, axes] + ([y] if y is not None else [])
    return apply_op(op_type, inputs, {"keep_dims": op.get_attr("keep_dims"),
                                      "T": x.dtype.base_dtype}, name=op_type)


def _deprecated_lookup(new_name, new_value, old_name, old_value):
    if new_value is not None and old_value is not None:
        raise ValueError(f"Cannot specify both '{new_name}' and '{old_name}'")
    return new_value if new_value is not None else old_value


def _all_axes(x):
    """An int32 tensor listing every axis of x (TF's _ReductionDims)."""
    rank = x.get_shape().ndims
    if rank is not None:
        return convert_to_tensor(np.arange(rank, dtype=np.int32), name="Const")
    from . import array_ops                  # rank unknown: compute it when the graph runs
    return array_ops.range(0, array_ops.rank(x))


def _reduce(op_type, input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
            allowed=_NUMBERS):
    axis = _deprecated_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = bool(keepdims) if keepdims is not None else False
    g = input_tensor.graph if is_tensor_like(input_tensor) else get_default_graph()
    with g.as_default():
        x = convert_to_tensor(input_tensor, name="input_tensor")
        _check_dtype(op_type, x, allowed, arg="input")
        axes = _all_axes(x) if axis is None else axis
        with g.name_scope(name or op_type) as scope:
            axes = convert_to_tensor(axes, name="reduction_indices",
                                     preferred_dtype=_dtypes.int32)
            if axes.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
                raise TypeError(f"The reduction axis must be int32 or int64, got "
                                f"{axes.dtype.base_dtype.name} ({axes.name!r}).")
            out = apply_op(op_type, [x, axes], {"keep_dims": keepdims,
                                                "T": x.dtype.base_dtype,
                                                "Tidx": axes.dtype.base_dtype}, name=scope)
    if axis is None and not keepdims:
        out.set_shape([])
    return out


def reduce_sum(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    """Sum over `axis` (all axes when None); `keepdims` keeps each reduced axis as size 1."""
    return _reduce("Sum", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   allowed=_ARITH)


def reduce_mean(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                keep_dims=None):
    """Mean over `axis` (all axes when None). The mean of integers is an integer."""
    return _reduce("Mean", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   allowed=_ARITH)


def reduce_max(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    """Maximum over `axis` (all axes when None)."""
    return _reduce("Max", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_min(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    """Minimum over `axis` (all axes when None)."""
    return _reduce("Min", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_prod(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                keep_dims=None):
    """Product over `axis` (all axes when None); complex numbers too."""
    return _reduce("Prod", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   allowed=_ARITH)


def reduce_all(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    """Logical AND over `axis` of a bool tensor."""
    return _reduce("All", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   allowed=_BOOL)


def reduce_any(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
               keep_dims=None):
    """Logical OR over `axis` of a bool tensor."""
    return _reduce("Any", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   allowed=_BOOL)


def reduce_logsumexp(input_tensor, axis=None, keepdims=None, name=None,
                     reduction_indices=None, keep_dims=None):
    """log(sum(exp(x))) over `axis`, computed stably by subtracting the maximum first."""
    axis = _deprecated_lookup("axis", axis, "reduction_indices", reduction_indices)
    keepdims = bool(_deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims))
    from .array_ops import zeros_like
    from .control_flow_ops import stop_gradient
    with name_scope(name, "ReduceLogSumExp", [input_tensor]) as scope:
        x = convert_to_tensor(input_tensor, name="input_tensor")
        raw_max = reduce_max(x, axis, keepdims=True)
        x_max = stop_gradient(where(is_finite(raw_max), raw_max, zeros_like(raw_max)))
        result = log(reduce_sum(exp(subtract(x, x_max)), axis, keepdims=keepdims))
        if not keepdims:                 # drop the kept size-1 axes of x_max (no gradient)
            x_max = reduce_sum(x_max, axis)
        return add(result, x_max, name=scope)


def count_nonzero(input_tensor, axis=None, keepdims=None, dtype=_dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None):
    """The number of non-zero elements over `axis`."""
    with name_scope(name, "count_nonzero", [input_tensor]):
        x = convert_to_tensor(input_tensor, name="input_tensor")
        zero = np.zeros((), dtype=x.dtype.base_dtype.as_numpy_dtype)
        flags = cast(not_equal(x, zero), _dtypes.int64)
        return cast(reduce_sum(flags, axis, keepdims, reduction_indices=reduction_indices,
                               keep_dims=keep_dims), dtype)


# -- arg max / arg min ----------------------------------------------------------------

def _arg_shape(op):
    x = op.inputs[0].get_shape()
    axis = const_op_value(op.inputs[1])
    if x.ndims is None:
        return TensorShape(None)
    if axis is None:
        return TensorShape([None] * (x.ndims - 1))
    axis = int(axis)
    if not -x.ndims <= axis < x.ndims:
        raise ValueError(f"Expected dimension in the range [{-x.ndims}, {x.ndims}), but got "
                         f"{axis}")
    dims = x.as_list()
    del dims[axis % x.ndims]
    return TensorShape(dims)


class ArgMax(OpDef):
    """The index of the largest element along one axis (the first one on ties)."""
    shape = _arg_shape
    differentiable = False

    def kernel(x, dimension, T=None, Tidx=None, output_type=None):
        return np.argmax(x, axis=int(dimension)).astype(output_type.as_numpy_dtype,
                                                        copy=False)


class ArgMin(OpDef):
    """The index of the smallest element along one axis (the first one on ties)."""
    shape = _arg_shape
    differentiable = False

    def kernel(x, dimension, T=None, Tidx=None, output_type=None):
        return np.argmin(x, axis=int(dimension)).astype(output_type.as_numpy_dtype,
                                                        copy=False)


def _arg_reduce(op_type, input, axis, name, dimension, output_type):  # noqa: A002
    if dimension is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dimension'")
        axis = dimension
    elif axis is None:
        axis = 0                               # TF 1.x default
    output_type = _dtypes.as_dtype(output_type).base_dtype
    if output_type not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"output_type must be int32 or int64, got {output_type.name}")
    with name_scope(name, op_type, [input]) as scope:
        x = convert_to_tensor(input, name="input")
        _check_dtype(op_type, x, _NUMBERS, arg="input")
        axis = convert_to_tensor(axis, name="dimension", preferred_dtype=_dtypes.int32)
        if axis.get_shape().ndims not in (None, 0):
            raise ValueError(f"{op_type}: the axis must be a scalar, got shape "
                             f"{axis.get_shape()}")
        return apply_op(op_type, [x, axis], {"T": x.dtype.base_dtype,
                                             "Tidx": axis.dtype.base_dtype,
                                             "output_type": output_type},
                        name=scope, output_dtypes=[output_type])


def argmax(input, axis=None, name=None, dimension=None,  # noqa: A002 -- TF's name
           output_type=_dtypes.int64):
    """The index of the largest value along `axis` (default 0)."""
    return _arg_reduce("ArgMax", input, axis, name, dimension, output_type)


def argmin(input, axis=None, name=None, dimension=None,  # noqa: A002 -- TF's name
           output_type=_dtypes.int64):
    """The index of the smallest value along `axis` (default 0)."""
    return _arg_reduce("ArgMin", input, axis, name, dimension, output_type)


def arg_max(input, dimension, output_type=_dtypes.int64, name=None):  # noqa: A002
    """TF 0.x's name of argmax (`tf.arg_max(x, 1)`), as TF 1.15 keeps it."""
    return argmax(input, axis=dimension, name=name, output_type=output_type)


def arg_min(input, dimension, output_type=_dtypes.int64, name=None):  # noqa: A002
    """TF 0.x's name of argmin."""
    return argmin(input, axis=dimension, name=name, output_type=output_type)


# -- cumulative sum --------------------------------------------------------------------

class Cumsum(OpDef):
    """Running sum along an axis; `exclusive` starts at 0, `reverse` runs from the end."""
    shape = unchanged_shape

    def kernel(x, axis, exclusive=False, reverse=False, T=None, Tidx=None):
        axis = int(axis)
        if reverse:
            x = np.flip(x, axis)
        out = np.cumsum(x, axis=axis, dtype=x.dtype)
        if exclusive:                           # shift by one: out[i] = sum of x[:i]
            out = np.roll(out, 1, axis=axis)
            index = [slice(None)] * out.ndim
            index[axis] = 0
            out[tuple(index)] = 0
        return np.flip(out, axis) if reverse else out

    def gradient(op, grad):
        return [cumsum(grad, op.inputs[1], exclusive=op.get_attr("exclusive"),
                       reverse=not op.get_attr("reverse")), None]


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """The cumulative sum of x along `axis`."""
    with name_scope(name, "Cumsum", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        _check_dtype("Cumsum", x, _NUMBERS)
        axis = convert_to_tensor(axis, name="axis", preferred_dtype=_dtypes.int32)
        return apply_op("Cumsum", [x, axis], {"exclusive": bool(exclusive),
                                              "reverse": bool(reverse),
                                              "T": x.dtype.base_dtype,
                                              "Tidx": axis.dtype.base_dtype}, name=scope)
