"""Arithmetic on SparseTensors -- mirrors the math of TensorFlow 1.x's python/ops/sparse_ops.py
(sparse_reduce_sum, sparse_tensor_dense_matmul, sparse_add) and math_ops.py (the
sparse_segment_* reductions), their kernels (core/kernels/sparse_*.cc,
segment_reduction_ops.cc) and gradients (python/ops/sparse_grad.py, math_grad.py). The ops that
build a SparseTensor or make it dense are in sparse_ops.py.

    tf.sparse.reduce_sum(sp, axis)              SparseReduceSum -> a dense tensor
    tf.sparse.sparse_dense_matmul(sp, b)        SparseTensorDenseMatMul -> a dense matrix
    tf.sparse.add(sp, dense) / (sp, sp)         SparseTensorDenseAdd / SparseAdd
    tf.sparse_segment_sum / mean / sqrt_n       SparseSegment*: rows gathered, then summed

None of them makes the SparseTensor dense: the work grows with its N entries, not with its
dense shape -- which is why a bag-of-words layer of a 100,000-word vocabulary is a sparse
matmul (or tf.nn.embedding_lookup_sparse, built on the segment sums).

The matmul's gradient for b is another sparse matmul (A^T g); for the values it is, entry by
entry, the dot product of a row of g and a row of b -- only at the N entries.

softmax, reduce_max, the sparse-output reductions, maximum and minimum are in
sparse_reduce_ops.py; concat, split, transpose and the other layout ops in sparse_array_ops.py.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue, convert_sparse
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_value, constant_value_as_shape, shape_text
from . import array_ops, comparison_ops, indexing_ops, math_ops, reduction_ops
from .constant_op import constant
from .sparse_ops import _check_in_bounds, _index_text, _invalid

__all__ = ["sparse_reduce_sum", "sparse_tensor_dense_matmul", "sparse_add",
           "sparse_segment_sum", "sparse_segment_mean", "sparse_segment_sqrt_n"]


# ======================================================================================
# SparseReduceSum
# ======================================================================================

def _reduction_axes(axes, rank):
    axes = np.reshape(axes, -1).astype(np.int64)
    for a in axes:
        if not -rank <= a < rank:
            raise _invalid(f"Invalid reduction dimension {a}, for input with {rank} "
                           "dimensions.")
    return sorted(set(int(a) % rank for a in axes))


class SparseReduceSum(OpDef):
    """The sum over `reduction_axes` of the dense tensor (missing entries count as 0): a
    dense result, of rank - len(axes) dimensions (or rank, with keep_dims)."""

    def shape(op):
        dense_shape = constant_value(op.inputs[2])
        axes = constant_value(op.inputs[3])
        if dense_shape is None or axes is None:
            return unknown_shape()
        shape = [int(d) for d in dense_shape]
        axes = np.reshape(axes, -1)
        if any(not -len(shape) <= a < len(shape) for a in axes):
            return unknown_shape()              # as TF: the kernel says so when it runs
        reduced = {int(a) % len(shape) for a in axes}
        if op.get_attr("keep_dims"):
            return TensorShape([1 if i in reduced else d for i, d in enumerate(shape)])
        return TensorShape([d for i, d in enumerate(shape) if i not in reduced])

    def kernel(input_indices, input_values, input_shape, reduction_axes, keep_dims=False,
               T=None):
        shape = np.reshape(input_shape, -1).astype(np.int64)
        axes = _reduction_axes(reduction_axes, len(shape))
        kept_shape = [1 if i in axes else int(d) for i, d in enumerate(shape)]
        where = input_indices.astype(np.int64).copy()
        where[:, axes] = 0                      # every entry lands on its reduced position
        out = np.zeros(kept_shape, dtype=input_values.dtype)
        np.add.at(out, tuple(where.T), input_values)
        if keep_dims:
            return out
        return out.reshape([d for i, d in enumerate(kept_shape) if i not in axes])

    def gradient(op, grad):
        """TF's _SparseReduceSumGrad: each value's gradient is the output gradient at its
        reduced position -- grad reshaped with the reduced axes kept as 1, read with the
        entry's index whose reduced coordinates are set to 0 (a GatherNd)."""
        indices, _, dense_shape, axes = op.inputs
        rank = array_ops.size(dense_shape)
        axes = math_ops.floormod(math_ops.cast(axes, _dtypes.int32), rank)
        is_reduced = reduction_ops.reduce_sum(
            indexing_ops.one_hot(array_ops.reshape(axes, [-1]), rank, dtype=_dtypes.int64), 0)
        kept = math_ops.cast(comparison_ops.equal(is_reduced, 0), _dtypes.int64)  # 1: kept
        kept_shape = dense_shape * kept + (1 - kept)          # the reduced axes become 1
        grad = array_ops.reshape(grad, kept_shape)
        return [None, indexing_ops.gather_nd(grad, indices * kept), None, None]


def _deprecated_pick(new_name, new_value, old_name, old_value):
    if new_value is not None and old_value is not None:
        raise ValueError(f"Cannot specify both '{new_name}' and '{old_name}'")
    return new_value if new_value is not None else old_value


def sparse_reduce_sum(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None,
                      name=None):
    """The sum of a SparseTensor's dense tensor over `axis` (all axes when None), as a dense
    tensor: tf.sparse.reduce_sum(sp, 1) sums each row."""
    keepdims = bool(_deprecated_pick("keepdims", keepdims, "keep_dims", keep_dims))
    axis = _deprecated_pick("axis", axis, "reduction_axes", reduction_axes)
    if not isinstance(sp_input, SparseTensor):
        sp_input = convert_sparse(sp_input)
    if axis is None:              # TF's _ReductionDims for a SparseTensor: every axis
        rank = sp_input.dense_shape.get_shape()[0].value
        axis = constant(np.arange(rank, dtype=np.int32)) if rank is not None else \
            array_ops.range(0, array_ops.size(sp_input.dense_shape))
    axis = convert_to_tensor(axis, dtype=_dtypes.int32)
    return apply_op("SparseReduceSum",
                    [sp_input.indices, sp_input.values, sp_input.dense_shape, axis],
                    {"keep_dims": keepdims, "T": sp_input.dtype.base_dtype},
                    name=name or "SparseReduceSum", output_dtypes=[sp_input.dtype.base_dtype])


# ======================================================================================
# SparseTensorDenseMatMul
# ======================================================================================

class SparseTensorDenseMatMul(OpDef):
    """A (sparse, [m, k]) times B (dense, [k, n]): out[row] += value * B[column] for each
    entry. adjoint_a / adjoint_b transpose A or B first."""

    def shape(op):
        a_shape_vec = op.inputs[2].get_shape().with_rank(1)
        if a_shape_vec[0].value is not None and a_shape_vec[0].value != 2:
            raise ValueError(f"Shape must be rank 2 but is rank {a_shape_vec[0].value}")
        a = constant_value_as_shape(op.inputs[2])
        a = a if a.ndims is not None else unknown_shape(2)
        b = op.inputs[3].get_shape().with_rank(2)
        if op.get_attr("adjoint_a"):
            a = TensorShape([a[1], a[0]])
        if op.get_attr("adjoint_b"):
            b = TensorShape([b[1], b[0]])
        if not a[1].is_compatible_with(b[0]):
            raise ValueError(f"Dimensions must be equal, but are {a[1]} and {b[0]}")
        return TensorShape([a[0], b[1]])

    def kernel(a_indices, a_values, a_shape, b, adjoint_a=False, adjoint_b=False, T=None,
               Tindices=None):
        if adjoint_b:
            b = np.conj(b.T)
        rows_index = 1 if adjoint_a else 0      # which column of a_indices is out's row
        out_rows, inner = (int(a_shape[1]), int(a_shape[0])) if adjoint_a else \
            (int(a_shape[0]), int(a_shape[1]))
        if inner != b.shape[0]:
            raise _invalid(f"Cannot multiply A and B because inner dimension does not match: "
                           f"{inner} vs. {b.shape[0]}.  Did you forget a transpose?  "
                           f"Dimensions of A: [{int(a_shape[0])}, {int(a_shape[1])}).  "
                           f"Dimensions of B: {shape_text(np.shape(b))}")
        m = a_indices[:, rows_index].astype(np.int64)
        k = a_indices[:, 1 - rows_index].astype(np.int64)
        for i in range(len(m)):
            if not 0 <= k[i] < inner:
                raise _invalid(f"k ({k[i]}) from index[{i},{1 - rows_index}] out of bounds "
                               f"(>={inner})")
            if not 0 <= m[i] < out_rows:
                raise _invalid(f"m ({m[i]}) from index[{i},{rows_index}] out of bounds "
                               f"(>={out_rows})")
        values = np.conj(a_values) if adjoint_a else a_values
        out = np.zeros((out_rows, b.shape[1]), dtype=np.result_type(a_values, b))
        np.add.at(out, m, values[:, None] * b[k])
        return out

    def gradient(op, grad):
        """TF's _SparseTensorDenseMatMulGrad. For b: A^T grad (one more sparse matmul). For
        A's values: entry (r, c) gets sum(grad[r, :] * B[c, :]) -- rows gathered and dotted,
        only at the N entries."""
        a_indices, a_values, a_shape, b = op.inputs
        adj_a, adj_b = op.get_attr("adjoint_a"), op.get_attr("adjoint_b")
        b_grad = _sparse_matmul(a_indices, a_values, a_shape, grad, adjoint_a=not adj_a)
        if adj_b:
            b_grad = array_ops.matrix_transpose(b_grad)
        rows, cols = a_indices[:, 0], a_indices[:, 1]
        parts_a = indexing_ops.gather(grad, cols if adj_a else rows)
        parts_b = indexing_ops.gather(array_ops.transpose(b) if adj_b else b,
                                      rows if adj_a else cols)
        values_grad = reduction_ops.reduce_sum(parts_a * parts_b, axis=1)
        return [None, values_grad, None, b_grad]


def _sparse_matmul(a_indices, a_values, a_shape, b, adjoint_a=False, adjoint_b=False,
                   name="SparseTensorDenseMatMul"):
    if a_values.dtype.base_dtype != b.dtype.base_dtype:
        raise TypeError(f"Input 'b' of 'SparseTensorDenseMatMul' Op has type "
                        f"{b.dtype.base_dtype.name} that does not match type "
                        f"{a_values.dtype.base_dtype.name} of argument 'a_values'.")
    return apply_op("SparseTensorDenseMatMul", [a_indices, a_values, a_shape, b],
                    {"T": b.dtype.base_dtype, "Tindices": a_indices.dtype.base_dtype,
                     "adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}, name=name,
                    output_dtypes=[b.dtype.base_dtype])


def sparse_tensor_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """sp_a (a rank-2 SparseTensor) times the dense matrix b, without making sp_a dense:
    the work and the memory grow with its number of entries."""
    sp_a = convert_sparse(sp_a)
    with name_scope(name, "SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, b]):
        b = convert_to_tensor(b, name="b")
        return _sparse_matmul(sp_a.indices, sp_a.values, sp_a.dense_shape, b, adjoint_a,
                              adjoint_b)


# ======================================================================================
# SparseTensorDenseAdd and SparseAdd: tf.sparse.add
# ======================================================================================

class SparseTensorDenseAdd(OpDef):
    """b with each sparse entry added at its index: a dense result of b's shape."""

    def shape(op):
        return op.inputs[3].get_shape()

    def kernel(a_indices, a_values, a_shape, b, T=None, Tindices=None):
        a_shape = np.reshape(a_shape, -1)
        if len(a_shape) != b.ndim:
            raise _invalid(f"Dimension mismatch: sparse rank {len(a_shape)} vs dense rank "
                           f"{b.ndim}")
        for i, (s, d) in enumerate(zip(a_shape, b.shape)):
            if s != d:
                raise _invalid(f"Dimension {i} does not equal (no broadcasting is supported): "
                               f"sparse side {s} vs dense side {d}")
        _check_in_bounds(a_indices, a_shape)
        out = np.array(b, copy=True)
        np.add.at(out, tuple(a_indices.T.astype(np.int64)), a_values)
        return out

    def gradient(op, grad):
        return [None, indexing_ops.gather_nd(grad, op.inputs[0]), None, grad]


def _merge_entries(a_indices, b_indices):
    """The row-major merge of two canonical index lists, as TF's SparseAdd walks them:
    [(index, from a or None, from b or None)]."""
    i = j = 0
    merged = []
    while i < len(a_indices) and j < len(b_indices):
        a, b = tuple(a_indices[i]), tuple(b_indices[j])
        if a < b:
            merged.append((a, i, None))
            i += 1
        elif b < a:
            merged.append((b, None, j))
            j += 1
        else:
            merged.append((a, i, j))
            i += 1
            j += 1
    merged += [(tuple(a_indices[k]), k, None) for k in range(i, len(a_indices))]
    merged += [(tuple(b_indices[k]), None, k) for k in range(j, len(b_indices))]
    return merged


class SparseAdd(OpDef):
    """The sum of two SparseTensors in canonical order. A sum of two entries at the same
    index is kept only when its magnitude is >= thresh (entries of one side always are)."""
    multi_output = True

    def shape(op):
        return [TensorShape([None, op.inputs[0].get_shape()[1].value]), TensorShape([None]),
                op.inputs[2].get_shape()]

    def kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh, T=None,
               Treal=None):
        if len(a_shape) != len(b_shape):
            raise _invalid(f"Operands do not have the same ranks; got shapes: "
                           f"{_index_text(a_shape)} and {_index_text(b_shape)}")
        for i, (x, y) in enumerate(zip(a_shape, b_shape)):
            if x != y:
                raise _invalid(f"Operands' shapes do not match: got {x} and {y} for dimension "
                               f"{i}")
        rank = len(a_shape)
        indices, values = [], []
        for index, i, j in _merge_entries(a_indices, b_indices):
            if i is not None and j is not None:
                total = a_values[i] + b_values[j]
                if abs(total) < thresh:
                    continue
            else:
                total = a_values[i] if i is not None else b_values[j]
            indices.append(index)
            values.append(total)
        dtype = np.result_type(a_values, b_values)
        return (np.array(indices, dtype=np.int64).reshape(-1, rank),
                np.array(values, dtype=dtype), np.array(a_shape, dtype=np.int64))

    def gradient(op, grad_indices, grad_values, grad_shape):
        a_indices, _, _, b_indices = op.inputs[:4]
        a_grad, b_grad = apply_op("SparseAddGrad", [grad_values, a_indices, b_indices,
                                                    op.outputs[0]],
                                  {"T": grad_values.dtype.base_dtype}, name="SparseAddGrad",
                                  output_dtypes=[grad_values.dtype.base_dtype] * 2)
        return [None, a_grad, None, None, b_grad, None, None]


class SparseAddGrad(OpDef):
    """Each entry of a and of b gets the gradient of the output entry at its index (0 when
    that sum fell under the threshold)."""
    multi_output = True
    differentiable = False

    def shape(op):
        return [TensorShape([op.inputs[1].get_shape()[0]]),
                TensorShape([op.inputs[2].get_shape()[0]])]

    def kernel(backprop_val_grad, a_indices, b_indices, sum_indices, T=None):
        where = {tuple(row): k for k, row in enumerate(sum_indices)}
        grads = []
        for indices in (a_indices, b_indices):
            g = np.zeros(len(indices), dtype=backprop_val_grad.dtype)
            for k, row in enumerate(indices):
                if tuple(row) in where:
                    g[k] = backprop_val_grad[where[tuple(row)]]
            grads.append(g)
        return tuple(grads)


def sparse_add(a, b, threshold=None, thresh=None):
    """a + b where at least one is a SparseTensor: with a dense tensor, the dense sum
    (SparseTensorDenseAdd); with another SparseTensor, a SparseTensor (SparseAdd), dropping
    the summed entries whose magnitude is under `threshold`."""
    threshold = _deprecated_pick("threshold", threshold, "thresh", thresh) or 0
    sparse = [isinstance(x, (SparseTensor, SparseTensorValue)) for x in (a, b)]
    if not any(sparse):
        raise TypeError("At least one input should be SparseTensor; do you mean to use "
                        "tf.add()?")
    if all(sparse):
        a, b = convert_sparse(a), convert_sparse(b)
        threshold = convert_to_tensor(threshold, dtype=a.values.dtype.base_dtype,
                                      name="threshold")
        static = a.get_shape()
        static.assert_is_compatible_with(b.get_shape())
        static = static.merge_with(b.get_shape())
        indices, values, shape = apply_op(
            "SparseAdd", [a.indices, a.values, a.dense_shape, b.indices, b.values,
                          b.dense_shape, threshold],
            {"T": a.dtype.base_dtype, "Treal": threshold.dtype.base_dtype}, name="SparseAdd",
            output_dtypes=[_dtypes.int64, a.dtype.base_dtype, _dtypes.int64])
        if static.is_fully_defined():
            shape = static.as_list()
        return SparseTensor(indices, values, shape)
    if not sparse[0]:
        a, b = b, a
    a = convert_sparse(a)
    b = convert_to_tensor(b, dtype=a.dtype.base_dtype)
    return apply_op("SparseTensorDenseAdd", [a.indices, a.values, a.dense_shape, b],
                    {"T": a.dtype.base_dtype, "Tindices": a.indices.dtype.base_dtype},
                    name="SparseTensorDenseAdd", output_dtypes=[a.dtype.base_dtype])


# ======================================================================================
# SparseSegmentSum / Mean / SqrtN: tf.sparse_segment_*, what embedding_lookup_sparse uses
# ======================================================================================

def _segments(data, indices, segment_ids):
    """(rows picked, segment ids, number of segments), checked as TF's kernels check them."""
    indices = indices.astype(np.int64)
    segment_ids = segment_ids.astype(np.int64)
    if indices.shape != segment_ids.shape:
        raise _invalid(f"segment_ids and indices should have same size: "
                       f"{shape_text(segment_ids.shape)} vs {shape_text(indices.shape)}")
    if np.any(np.diff(segment_ids) < 0) or (segment_ids.size and segment_ids[0] < 0):
        raise _invalid("segment ids are not increasing")
    bad = np.flatnonzero((indices < 0) | (indices >= len(data)))
    if bad.size:
        raise _invalid(f"Bad: indices[{bad[0]}] == {indices[bad[0]]} out of range "
                       f"[0, {len(data)})")
    n = int(segment_ids[-1]) + 1 if segment_ids.size else 0
    return indices, segment_ids, n


def _segment_scale(kind, segment_ids, n, dtype):
    """What each segment's sum is multiplied by: 1, 1/count or 1/sqrt(count)."""
    counts = np.bincount(segment_ids, minlength=n).astype(dtype)
    if kind == "sum":
        return np.ones(n, dtype)
    with np.errstate(divide="ignore"):
        scale = 1 / counts if kind == "mean" else 1 / np.sqrt(counts)
    return np.where(counts > 0, scale, 0).astype(dtype)


class _SparseSegmentReduction(OpDef):
    """out[s] = (sum of data[indices[i]] over the i with segment_ids[i] == s) * scale[s]."""
    abstract = True
    kind = None

    def shape(op):
        data = op.inputs[0].get_shape()
        if data.ndims is None:
            return unknown_shape()
        return TensorShape([None]).concatenate(data[1:])

    @classmethod
    def _kernel(cls, data, indices, segment_ids):
        indices, segment_ids, n = _segments(data, indices, segment_ids)
        out = np.zeros((n,) + data.shape[1:], dtype=data.dtype)
        np.add.at(out, segment_ids, data[indices])
        scale = _segment_scale(cls.kind, segment_ids, n, data.dtype)
        return out * scale.reshape((-1,) + (1,) * (data.ndim - 1))

    @classmethod
    def _gradient(cls, op, grad):
        data, indices, segment_ids = op.inputs
        rows = array_ops.shape(data)[0]
        out = apply_op(f"SparseSegment{cls.name_part}Grad", [grad, indices, segment_ids, rows],
                       {"T": grad.dtype.base_dtype}, name=f"SparseSegment{cls.name_part}Grad",
                       output_dtypes=[grad.dtype.base_dtype])
        return [out, None, None]


class SparseSegmentSum(_SparseSegmentReduction):
    kind, name_part = "sum", "Sum"

    def kernel(data, indices, segment_ids, T=None, Tidx=None, Tsegmentids=None):
        return SparseSegmentSum._kernel(data, indices, segment_ids)

    def gradient(op, grad):
        return SparseSegmentSum._gradient(op, grad)


class SparseSegmentMean(_SparseSegmentReduction):
    kind, name_part = "mean", "Mean"

    def kernel(data, indices, segment_ids, T=None, Tidx=None, Tsegmentids=None):
        return SparseSegmentMean._kernel(data, indices, segment_ids)

    def gradient(op, grad):
        return SparseSegmentMean._gradient(op, grad)


class SparseSegmentSqrtN(_SparseSegmentReduction):
    kind, name_part = "sqrtn", "SqrtN"

    def kernel(data, indices, segment_ids, T=None, Tidx=None, Tsegmentids=None):
        return SparseSegmentSqrtN._kernel(data, indices, segment_ids)

    def gradient(op, grad):
        return SparseSegmentSqrtN._gradient(op, grad)


class _SparseSegmentGrad(OpDef):
    """The gradient for data: each picked row gets its segment's gradient times the
    segment's scale, added up where a row was picked more than once ([output_dim0, ...])."""
    abstract = True
    differentiable = False
    kind = None

    def shape(op):
        grad = op.inputs[0].get_shape()
        rows = constant_value(op.inputs[3])
        if grad.ndims is None:
            return unknown_shape()
        return TensorShape([None if rows is None else int(rows)]).concatenate(grad[1:])

    @classmethod
    def _kernel(cls, grad, indices, segment_ids, output_dim0):
        segment_ids = segment_ids.astype(np.int64)
        n = len(grad)
        scale = _segment_scale(cls.kind, segment_ids, n, grad.dtype)
        out = np.zeros((int(output_dim0),) + grad.shape[1:], dtype=grad.dtype)
        picked = grad[segment_ids] * scale[segment_ids].reshape((-1,) + (1,) * (grad.ndim - 1))
        np.add.at(out, indices.astype(np.int64), picked)
        return out


class SparseSegmentSumGrad(_SparseSegmentGrad):
    kind = "sum"

    def kernel(grad, indices, segment_ids, output_dim0, T=None):
        return SparseSegmentSumGrad._kernel(grad, indices, segment_ids, output_dim0)


class SparseSegmentMeanGrad(_SparseSegmentGrad):
    kind = "mean"

    def kernel(grad, indices, segment_ids, output_dim0, T=None):
        return SparseSegmentMeanGrad._kernel(grad, indices, segment_ids, output_dim0)


class SparseSegmentSqrtNGrad(_SparseSegmentGrad):
    kind = "sqrtn"

    def kernel(grad, indices, segment_ids, output_dim0, T=None):
        return SparseSegmentSqrtNGrad._kernel(grad, indices, segment_ids, output_dim0)


def _sparse_segment(op_type, data, indices, segment_ids, name, num_segments):
    if num_segments is not None:
        raise NotImplementedError(f"{op_type}: the sandbox has no num_segments argument; the "
                                  "result has segment_ids[-1] + 1 rows.")
    data = convert_to_tensor(data, name="data")
    indices = convert_to_tensor(indices, name="indices")
    segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
    return apply_op(op_type, [data, indices, segment_ids],
                    {"T": data.dtype.base_dtype, "Tidx": indices.dtype.base_dtype,
                     "Tsegmentids": segment_ids.dtype.base_dtype}, name=name or op_type,
                    output_dtypes=[data.dtype.base_dtype])


def sparse_segment_sum(data, indices, segment_ids, name=None, num_segments=None):
    """out[s] = sum of data[indices[i]] over the i in segment s (segment_ids sorted)."""
    return _sparse_segment("SparseSegmentSum", data, indices, segment_ids, name, num_segments)


def sparse_segment_mean(data, indices, segment_ids, name=None, num_segments=None):
    """out[s] = mean of data[indices[i]] over the i in segment s (segment_ids sorted)."""
    return _sparse_segment("SparseSegmentMean", data, indices, segment_ids, name, num_segments)


def sparse_segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None):
    """out[s] = sum of data[indices[i]] over the i in segment s, / sqrt(its size)."""
    return _sparse_segment("SparseSegmentSqrtN", data, indices, segment_ids, name,
                           num_segments)
