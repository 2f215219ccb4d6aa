"""Reductions and elementwise math on SparseTensors -- mirrors the rest of the math of
TensorFlow 1.x's python/ops/sparse_ops.py (sparse_softmax, sparse_reduce_max[_sparse],
sparse_reduce_sum_sparse, sparse_maximum, sparse_minimum), their kernels
(core/kernels/sparse_softmax_op.cc, sparse_reduce_op.cc, sparse_sparse_binary_op_shared.cc)
and gradients (python/ops/sparse_grad.py). sparse_math_ops.py has the sums that give a dense
tensor, the matmul and add; this file is beside it only to keep each file short.

    tf.sparse.softmax(sp)                       SparseSoftmax: softmax over the last axis of
                                                the entries there (missing ones take no part)
    tf.sparse.reduce_max(sp, axis)              SparseReduceMax -> dense (0 where no entry)
    tf.sparse.reduce_max_sparse(sp, axis)       SparseReduceMaxSparse -> a SparseTensor
    tf.sparse.reduce_sum_sparse(sp, axis)       SparseReduceSumSparse -> a SparseTensor
    tf.sparse.maximum(a, b) / minimum(a, b)     SparseSparseMaximum / Minimum: over the union
                                                of the entries, a missing one counting as 0

The reductions take only the entries that are there: reduce_max of a row holding -3 is -3,
not max(-3, 0). Their results come out in row-major order whatever the input's order.
sparse_softmax, maximum and minimum expect canonical (row-major) order, as TF's kernels do;
like TF's, they give no error for another order (softmax's values then come out sorted).

Only SparseSoftmax has a gradient in TF (and here): the reductions have none registered, and
SparseSparseMaximum / Minimum's raise NotImplementedError.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor, convert_sparse
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from . import array_ops, indexing_ops
from .constant_op import constant
from .sparse_array_ops import _deprecated_lookup
from .sparse_math_ops import SparseReduceSum, _merge_entries, _reduction_axes, sparse_reduce_sum
from .sparse_ops import _invalid

__all__ = ["sparse_softmax", "sparse_reduce_max", "sparse_reduce_max_sparse",
           "sparse_reduce_sum_sparse", "sparse_maximum", "sparse_minimum"]


def _row_major(indices):
    """The permutation that sorts the index rows row-major (stable)."""
    if not len(indices):
        return np.zeros(0, np.int64)
    return np.lexsort(np.asarray(indices).T[::-1])


# ======================================================================================
# SparseSoftmax
# ======================================================================================

class SparseSoftmax(OpDef):
    """For each innermost row [..., b, :], the softmax of the entries it holds. TF's kernel
    sorts the entries first and writes the values in that order: for canonical input, the
    entries' own order."""

    def shape(op):
        return op.inputs[1].get_shape()

    def kernel(sp_indices, sp_values, sp_shape, T=None):
        shape = np.reshape(sp_shape, -1)
        if len(shape) < 2:
            raise _invalid(f"Input should have rank >= 2, but received shape: "
                           f"{' '.join(str(int(d)) for d in shape)}")
        order = _row_major(sp_indices)
        indices, values = np.asarray(sp_indices)[order], sp_values[order]
        out = np.empty_like(values)
        if len(values):
            rows = indices[:, :-1]
            starts = np.flatnonzero(np.r_[True, np.any(rows[1:] != rows[:-1], axis=1)])
            for start, end in zip(starts, np.r_[starts[1:], len(values)]):
                e = np.exp(values[start:end] - values[start:end].max())
                out[start:end] = e / e.sum()
        return out

    def gradient(op, grad):
        """TF's _SparseSoftmaxGrad: grad_x = (grad - sum over the row of grad * y) * y, on the
        entries only (the row sums are a SparseReduceSum, read back with a GatherNd)."""
        indices, shape = op.inputs[0], op.inputs[2]
        out_vals = op.outputs[0]
        product = SparseTensor(indices, out_vals * grad, shape)
        sum_reduced = -sparse_reduce_sum(product, [-1], keepdims=True)   # dense [..., B, 1]
        rank = array_ops.size(shape)
        keep = 1 - indexing_ops.one_hot(rank - 1, rank, dtype=_dtypes.int64)   # [1, .., 1, 0]
        row_sums = indexing_ops.gather_nd(sum_reduced, indices * keep)
        return [None, (grad + row_sums) * out_vals, None]


def sparse_softmax(sp_input, name=None):
    """Softmax over the last dimension of a SparseTensor of rank >= 2, among the entries
    present only (a missing entry is not a 0 that takes part). Indices and shape are the
    input's."""
    sp_input = convert_sparse(sp_input)
    with name_scope(name, "SparseSoftmax", [sp_input]):
        out_vals = apply_op("SparseSoftmax",
                            [sp_input.indices, sp_input.values, sp_input.dense_shape],
                            {"T": sp_input.dtype.base_dtype}, name="SparseSoftmax",
                            output_dtypes=[sp_input.dtype.base_dtype])
        return SparseTensor(sp_input.indices, out_vals, sp_input.dense_shape)


# ======================================================================================
# SparseReduceMax, SparseReduceMaxSparse, SparseReduceSumSparse
# ======================================================================================

def _groups(indices, values, shape, reduction_axes, keep_dims):
    """(the reduced index of each group, in row-major order, the values of each group, the
    output's shape): the entries grouped by their coordinates outside reduction_axes."""
    shape = np.reshape(shape, -1).astype(np.int64)
    axes = _reduction_axes(reduction_axes, len(shape))
    where = np.asarray(indices, np.int64).reshape(-1, len(shape)).copy()
    where[:, axes] = 0
    kept = [i for i in range(len(shape)) if i not in axes]
    out_shape = np.array([1 if i in axes else d for i, d in enumerate(shape)] if keep_dims
                         else [shape[i] for i in kept], np.int64)
    columns = list(range(len(shape))) if keep_dims else kept
    where = where[:, columns]
    if not len(where):
        return np.zeros((0, len(columns)), np.int64), [], out_shape
    unique, inverse = np.unique(where, axis=0, return_inverse=True)
    inverse = np.reshape(inverse, -1)
    return unique, [values[inverse == g] for g in range(len(unique))], out_shape


class SparseReduceMax(OpDef):
    """The max over reduction_axes of the entries present, as a dense tensor: 0 where no entry
    falls (a missing entry is not a 0 that takes part elsewhere)."""
    shape = SparseReduceSum.shape

    def kernel(input_indices, input_values, input_shape, reduction_axes, keep_dims=False,
               T=None):
        where, groups, out_shape = _groups(input_indices, input_values, input_shape,
                                           reduction_axes, keep_dims)
        out = np.zeros(tuple(out_shape), dtype=input_values.dtype)
        for index, group in zip(where, groups):
            out[tuple(index)] = group.max()
        return out


class _SparseReduceSparse(OpDef):
    """The reduction over reduction_axes of the entries present, as a SparseTensor: one entry
    per group that holds one, in row-major order."""
    abstract = True
    multi_output = True
    reduce = None

    def shape(op):
        return [unknown_shape(), unknown_shape(), unknown_shape()]

    @classmethod
    def _kernel(cls, input_indices, input_values, input_shape, reduction_axes, keep_dims):
        where, groups, out_shape = _groups(input_indices, input_values, input_shape,
                                           reduction_axes, keep_dims)
        values = np.array([cls.reduce(g) for g in groups], dtype=input_values.dtype)
        return where.astype(np.int64), values, out_shape


class SparseReduceMaxSparse(_SparseReduceSparse):
    reduce = staticmethod(np.max)

    def kernel(input_indices, input_values, input_shape, reduction_axes, keep_dims=False,
               T=None):
        return SparseReduceMaxSparse._kernel(input_indices, input_values, input_shape,
                                             reduction_axes, keep_dims)


class SparseReduceSumSparse(_SparseReduceSparse):
    reduce = staticmethod(np.sum)

    def kernel(input_indices, input_values, input_shape, reduction_axes, keep_dims=False,
               T=None):
        return SparseReduceSumSparse._kernel(input_indices, input_values, input_shape,
                                             reduction_axes, keep_dims)


def _reduce_args(sp_input, axis, keepdims, reduction_axes, keep_dims):
    """TF's argument handling of the sparse reductions: (sp, keepdims, the axes tensor or
    None for TF's constant of every axis)."""
    keepdims = _deprecated_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    axis = _deprecated_lookup("axis", axis, "reduction_axes", reduction_axes)
    sp_input = convert_sparse(sp_input)
    if axis is None:              # TF's _ReductionDims for a SparseTensor: every axis
        rank = sp_input.dense_shape.get_shape()[0].value
        axis = constant(np.arange(rank, dtype=np.int32)) if rank is not None else \
            array_ops.range(0, array_ops.size(sp_input.dense_shape))
    return sp_input, bool(keepdims), axis


def _reduce(op_type, sp_input, axis, keepdims, outputs):
    with name_scope(None, op_type, [sp_input]) as scope:
        axis = convert_to_tensor(axis, dtype=_dtypes.int32, name="reduction_axes")
        return apply_op(op_type, [sp_input.indices, sp_input.values, sp_input.dense_shape,
                                  axis], {"keep_dims": keepdims, "T": sp_input.dtype.base_dtype},
                        name=scope, output_dtypes=outputs)


def sparse_reduce_max(sp_input, axis=None, keepdims=None, reduction_axes=None,
                      keep_dims=None):
    """The max over `axis` (all axes when None) of the entries present, as a dense tensor;
    0 where no entry falls."""
    sp_input, keepdims, axis = _reduce_args(sp_input, axis, keepdims, reduction_axes,
                                            keep_dims)
    return _reduce("SparseReduceMax", sp_input, axis, keepdims, [sp_input.dtype.base_dtype])


def _reduce_sparse(op_type, sp_input, axis, keepdims, reduction_axes, keep_dims):
    sp_input, keepdims, axis = _reduce_args(sp_input, axis, keepdims, reduction_axes,
                                            keep_dims)
    indices, values, shape = _reduce(op_type, sp_input, axis, keepdims,
                                     [_dtypes.int64, sp_input.dtype.base_dtype, _dtypes.int64])
    return SparseTensor(indices, values, shape)


def sparse_reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None,
                             keep_dims=None):
    """The max over `axis` of the entries present, as a SparseTensor (an entry for each
    position that had one)."""
    return _reduce_sparse("SparseReduceMaxSparse", sp_input, axis, keepdims, reduction_axes,
                          keep_dims)


def sparse_reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None,
                             keep_dims=None):
    """The sum over `axis` of the entries present, as a SparseTensor (an entry for each
    position that had one)."""
    return _reduce_sparse("SparseReduceSumSparse", sp_input, axis, keepdims, reduction_axes,
                          keep_dims)


# ======================================================================================
# SparseSparseMaximum / Minimum
# ======================================================================================

class _SparseSparseBinary(OpDef):
    """max / min of two SparseTensors of one shape, over the union of their entries (walked
    as TF's kernel walks them, a missing entry counting as 0)."""
    abstract = True
    multi_output = True
    combine = None

    def shape(op):
        return [TensorShape([None, None]), TensorShape([None])]

    @classmethod
    def _kernel(cls, a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        a_shape, b_shape = np.reshape(a_shape, -1), np.reshape(b_shape, -1)
        if len(a_shape) != len(b_shape):
            raise _invalid(f"Operands do not have the same ranks; got shapes: "
                           f"{' '.join(map(str, a_shape))} and {' '.join(map(str, b_shape))}")
        for i, (x, y) in enumerate(zip(a_shape, b_shape)):
            if x != y:
                raise _invalid(f"Operands' shapes do not match: got {x} and {y} for dimension "
                               f"{i}")
        for indices in (a_indices, b_indices):
            for k, row in enumerate(indices):
                if np.any(row < 0) or np.any(row >= a_shape):
                    raise _invalid(f"Sparse index tuple indices[{k}, :] = "
                                   f"[{', '.join(str(int(i)) for i in row)}] is out of bounds")
        zero = np.zeros((), np.result_type(a_values, b_values))
        out_indices, out_values = [], []
        for index, i, j in _merge_entries(a_indices, b_indices):
            out_indices.append(index)
            out_values.append(cls.combine(a_values[i] if i is not None else zero,
                                          b_values[j] if j is not None else zero))
        return (np.array(out_indices, np.int64).reshape(-1, len(a_shape)),
                np.array(out_values, dtype=a_values.dtype))

    @classmethod
    def _gradient(cls, op):
        raise NotImplementedError(f"Gradient for {op.type} is not implemented.")


class SparseSparseMaximum(_SparseSparseBinary):
    combine = staticmethod(np.maximum)

    def kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape, T=None):
        return SparseSparseMaximum._kernel(a_indices, a_values, a_shape, b_indices, b_values,
                                           b_shape)

    def gradient(op, *grads):
        return SparseSparseMaximum._gradient(op)


class SparseSparseMinimum(_SparseSparseBinary):
    combine = staticmethod(np.minimum)

    def kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape, T=None):
        return SparseSparseMinimum._kernel(a_indices, a_values, a_shape, b_indices, b_values,
                                           b_shape)

    def gradient(op, *grads):
        return SparseSparseMinimum._gradient(op)


def _sparse_sparse(op_type, sp_a, sp_b, name):
    sp_a, sp_b = convert_sparse(sp_a), convert_sparse(sp_b)
    with name_scope(name, op_type, [sp_a, sp_b]) as scope:
        if sp_a.dtype.base_dtype != sp_b.dtype.base_dtype:
            raise TypeError(f"Input 'b_values' of '{op_type}' Op has type "
                            f"{sp_b.dtype.base_dtype.name} that does not match type "
                            f"{sp_a.dtype.base_dtype.name} of argument 'a_values'.")
        out_indices, out_values = apply_op(
            op_type, [sp_a.indices, sp_a.values, sp_a.dense_shape, sp_b.indices, sp_b.values,
                      sp_b.dense_shape], {"T": sp_a.dtype.base_dtype}, name=scope,
            output_dtypes=[_dtypes.int64, sp_a.dtype.base_dtype])
    return SparseTensor(out_indices, out_values, sp_a.dense_shape)


def sparse_maximum(sp_a, sp_b, name=None):
    """The elementwise max of two SparseTensors of one shape (canonical order), over the union
    of their entries: a missing entry counts as 0."""
    return _sparse_sparse("SparseSparseMaximum", sp_a, sp_b, name)


def sparse_minimum(sp_a, sp_b, name=None):
    """The elementwise min of two SparseTensors of one shape (canonical order), over the union
    of their entries: a missing entry counts as 0."""
    return _sparse_sparse("SparseSparseMinimum", sp_a, sp_b, name)
