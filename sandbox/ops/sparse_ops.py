"""Sparse ops -- mirrors TensorFlow 1.x's python/ops/sparse_ops.py, its kernels
(core/kernels/sparse_*.cc) and its gradients (python/ops/sparse_grad.py): the ops that build a
SparseTensor, change its layout or make it dense. The arithmetic on SparseTensors (reduce_sum,
the matmul, add, the segment sums) is next door, in sparse_math_ops.py.

A tf.SparseTensor (framework/sparse_tensor.py) is three tensors: indices [N, rank], values [N]
and dense_shape [rank]. Each op here takes those three tensors as ordinary inputs, so it is
placed, partitioned and traced like any other op, and only its N entries cross the wire:

    tf.sparse_placeholder(dtype, shape)         three placeholders, fed with one value
    tf.sparse.to_dense(sp, default_value)       SparseToDense   -> a dense tensor
    tf.sparse_to_dense(indices, shape, values)  SparseToDense, from loose tensors
    tf.sparse.reorder(sp)                       SparseReorder   -> entries in row-major order
    tf.sparse.retain(sp, mask)                  two gathers: the entries whose mask is True
    tf.sparse.slice(sp, start, size)            SparseSlice
    tf.sparse.from_dense(t)                     where(t != 0), gather_nd
    tf.sparse.fill_empty_rows(sp, value)        SparseFillEmptyRows: an entry in every row
    tf.sparse.reshape(sp, shape)                SparseReshape: the indices of another shape

The ops that care about order (to_dense with validate_indices, add) expect "canonical" order:
indices sorted row-major, no index twice. A SparseTensor built by hand may not be in it; the
errors say so and point to tf.sparse.reorder, as TF's do. Gradients flow to the `values`: a
SparseTensor's indices and shape are integers.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor, convert_sparse
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_value_as_shape, shape_text
from . import array_ops, comparison_ops, indexing_ops, math_ops, reduction_ops
from .constant_op import constant, placeholder, placeholder_with_default
from .control_flow_ops import identity

__all__ = ["sparse_placeholder", "sparse_tensor_to_dense", "sparse_to_dense", "sparse_reorder",
           "sparse_retain", "sparse_slice", "sparse_fill_empty_rows", "sparse_reshape"]


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _index_text(row):
    return "[" + ",".join(str(int(i)) for i in np.reshape(row, -1)) + "]"


def _check_in_bounds(indices, shape):
    """TF's SparseTensor::IndicesValid, the bounds part: every index inside the dense shape."""
    for i, row in enumerate(indices):
        if np.any(row < 0) or np.any(row >= shape):
            raise _invalid(f"indices[{i}] = {_index_text(row)} is out of bounds: need 0 <= "
                           f"index < {_index_text(shape)}")


def _check_canonical(indices, shape):
    """TF's SparseTensor::IndicesValid: in bounds, sorted row-major, no index twice."""
    for i, row in enumerate(indices):
        if np.any(row < 0) or np.any(row >= shape):
            raise _invalid(f"indices[{i}] = {_index_text(row)} is out of bounds: need 0 <= "
                           f"index < {_index_text(shape)}")
        if i == 0:
            continue
        previous = tuple(indices[i - 1])
        if tuple(row) < previous:
            raise _invalid(f"indices[{i}] = {_index_text(row)} is out of order. Many sparse ops "
                           "require sorted indices.\n    Use `tf.sparse.reorder` to create a "
                           "correctly ordered copy.\n\n")
        if tuple(row) == previous:
            raise _invalid(f"indices[{i}] = {_index_text(row)} is repeated")


# ======================================================================================
# sparse_placeholder
# ======================================================================================

def sparse_placeholder(dtype, shape=None, name=None):
    """A SparseTensor that must be fed: three placeholders, `name/values` ([None]),
    `name/indices` ([None, rank]) and `name/shape` (the dense shape). Feed it one value:
    `sess.run(y, {sp: tf.SparseTensorValue(indices, values, dense_shape)})`, or a tuple.

    With `shape` given, the dense shape is a PlaceholderWithDefault of that shape (-1 for a
    None dimension), as TF 2's sparse_placeholder builds it: it may still be fed."""
    dtype = _dtypes.as_dtype(dtype)
    shape_name = None if name is None else name + "/shape"
    if shape is None:
        rank = None
        dense_shape = placeholder(_dtypes.int64, shape=[None], name=shape_name)
        known = unknown_shape()
    else:
        if isinstance(shape, Tensor):
            rank = shape.get_shape()[0].value
            known = constant_value_as_shape(shape)
        else:
            if isinstance(shape, TensorShape):
                shape = shape.as_list()
            rank = len(shape)
            known = TensorShape([None if d is None or d == -1 else d for d in shape])
            shape = constant([-1 if d is None else int(d) for d in known.as_list()],
                             dtype=_dtypes.int64,
                             name="Const" if name is None else name + "/shape_default")
        dense_shape = placeholder_with_default(shape, shape.get_shape(), name=shape_name)
    values = placeholder(dtype, shape=[None], name=None if name is None else name + "/values")
    indices = placeholder(_dtypes.int64, shape=[None, rank],
                          name=None if name is None else name + "/indices")
    result = SparseTensor(indices, values, dense_shape)
    result._dense_shape_default = known      # a PlaceholderWithDefault hides its value
    return result


# ======================================================================================
# SparseToDense: tf.sparse.to_dense, tf.sparse_to_dense
# ======================================================================================

class SparseToDense(OpDef):
    """dense[indices[i]] = values[i] (or the one scalar value), default_value elsewhere.
    sparse_indices is a scalar, a vector (a 1-D output) or a matrix [N, rank]."""

    def shape(op):
        return constant_value_as_shape(op.inputs[1])

    def kernel(sparse_indices, output_shape, sparse_values, default_value,
               validate_indices=True, T=None, Tindices=None):
        if sparse_indices.ndim > 2:
            raise _invalid(f"sparse_indices should be a scalar, vector, or matrix, got shape "
                           f"{shape_text(sparse_indices.shape)}")
        n = sparse_indices.shape[0] if sparse_indices.ndim > 0 else 1
        rank = sparse_indices.shape[1] if sparse_indices.ndim > 1 else 1
        indices = np.reshape(sparse_indices, (n, rank)).astype(np.int64)
        shape = np.reshape(output_shape, -1).astype(np.int64)
        if output_shape.ndim > 1 or shape.size != rank:
            raise _invalid(f"output_shape has incorrect number of elements: {shape.size} "
                           f"should be: {rank}")
        if sparse_values.ndim > 1 or (sparse_values.ndim == 1 and sparse_values.size != n):
            raise _invalid(f"sparse_values has incorrect shape "
                           f"{shape_text(sparse_values.shape)}, should be [] or [{n}]")
        if np.ndim(default_value) != 0:
            raise _invalid("default_value should be a scalar.")
        if validate_indices:
            _check_canonical(indices, shape)
        elif np.any(indices < 0) or np.any(indices >= shape):
            raise _invalid(f"Indices are not valid (out of bounds).  Shape: {_index_text(shape)}")
        out = np.full(tuple(shape), default_value, dtype=sparse_values.dtype)
        out[tuple(indices.T)] = sparse_values
        return out

    def gradient(op, grad):
        """TF's _SparseToDenseGrad: each value gets the gradient at its index; the default
        value gets the rest."""
        indices = op.inputs[0]
        values_grad = indexing_ops.gather_nd(grad, indices)
        default_grad = reduction_ops.reduce_sum(grad) - reduction_ops.reduce_sum(values_grad)
        return [None, None, values_grad, default_grad]


def _to_dense(indices, shape, values, default_value, validate_indices, name):
    return apply_op("SparseToDense", [indices, shape, values, default_value],
                    {"validate_indices": bool(validate_indices), "T": values.dtype.base_dtype,
                     "Tindices": indices.dtype.base_dtype}, name=name or "SparseToDense",
                    output_dtypes=[values.dtype.base_dtype])


def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor a SparseTensor stands for; default_value (0 unless given) where it
    has no entry. validate_indices checks that the indices are in canonical order."""
    sp_input = convert_sparse(sp_input)
    if default_value is None:
        default_value = array_ops.zeros([], dtype=sp_input.dtype)
    default_value = convert_to_tensor(default_value, dtype=sp_input.dtype)
    return _to_dense(sp_input.indices, sp_input.dense_shape, sp_input.values, default_value,
                     validate_indices, name)


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0,
                    validate_indices=True, name=None):
    """A dense tensor of output_shape with sparse_values at sparse_indices (a scalar, vector
    or [N, rank] matrix) and default_value elsewhere. (Deprecated in TF: build a
    tf.SparseTensor and use tf.sparse.to_dense.)"""
    sparse_indices = convert_to_tensor(sparse_indices, name="sparse_indices")
    if not sparse_indices.dtype.base_dtype.is_integer:
        raise TypeError(f"sparse_to_dense: sparse_indices must be int32 or int64, got "
                        f"{sparse_indices.dtype.name}.")
    output_shape = convert_to_tensor(output_shape, dtype=sparse_indices.dtype.base_dtype,
                                     name="output_shape")
    sparse_values = convert_to_tensor(sparse_values, name="sparse_values")
    default_value = convert_to_tensor(default_value, dtype=sparse_values.dtype.base_dtype,
                                      name="default_value")
    return _to_dense(sparse_indices, output_shape, sparse_values, default_value,
                     validate_indices, name)


# ======================================================================================
# SparseReorder
# ======================================================================================

class SparseReorder(OpDef):
    """The entries sorted in row-major order (a stable sort: equal indices keep their order)."""
    multi_output = True

    def shape(op):
        return [op.inputs[0].get_shape(), op.inputs[1].get_shape()]

    def kernel(input_indices, input_values, input_shape, T=None):
        _check_in_bounds(input_indices, input_shape)
        order = np.lexsort(input_indices.T[::-1]) if input_indices.size else \
            np.arange(len(input_values))
        return input_indices[order], input_values[order]

    def gradient(op, grad_indices, grad_values):
        """TF's _SparseReorderGrad: reorder the positions 0..N-1 the same way, invert that
        permutation, and gather the values' gradient back into the input's order."""
        indices, _, dense_shape = op.inputs
        positions = array_ops.range(array_ops.shape(indices)[0], dtype=_dtypes.int64)
        _, permutation = apply_op("SparseReorder", [indices, positions, dense_shape],
                                  {"T": _dtypes.int64}, name="SparseReorder",
                                  output_dtypes=[_dtypes.int64, _dtypes.int64])
        inverse = array_ops.invert_permutation(permutation)
        return [None, indexing_ops.gather(grad_values, inverse), None]


def sparse_reorder(sp_input, name=None):
    """The same SparseTensor with its entries in canonical (row-major) order."""
    sp_input = convert_sparse(sp_input)
    indices, values = apply_op(
        "SparseReorder", [sp_input.indices, sp_input.values, sp_input.dense_shape],
        {"T": sp_input.dtype.base_dtype}, name=name or "SparseReorder",
        output_dtypes=[_dtypes.int64, sp_input.dtype.base_dtype])
    known = sp_input.get_shape()
    if known.is_fully_defined():
        return SparseTensor(indices, values, known.as_list())
    result = SparseTensor(indices, values, identity(sp_input.dense_shape))
    result._dense_shape_default = known
    return result


# ======================================================================================
# sparse_retain, SparseSlice, from_dense
# ======================================================================================

def sparse_retain(sp_input, to_retain):
    """The entries whose to_retain (a bool vector, one per entry) is True: two gathers."""
    sp_input = convert_sparse(sp_input)
    to_retain = convert_to_tensor(to_retain)
    to_retain.get_shape().assert_has_rank(1)
    sp_input.values.get_shape()[0].merge_with(to_retain.get_shape()[0])
    where_true = array_ops.reshape(comparison_ops.where(to_retain), [-1])
    new_indices = indexing_ops.gather(sp_input.indices, where_true)
    new_values = indexing_ops.gather(sp_input.values, where_true)
    return SparseTensor(new_indices, new_values, identity(sp_input.dense_shape))


class SparseSlice(OpDef):
    """The entries inside [start, start + size), shifted by -start; the output's dense shape
    is size cut at the input's edge."""
    multi_output = True

    def shape(op):
        rank = op.inputs[0].get_shape()[1].value
        return [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])]

    def kernel(indices, values, shape, start, size, T=None):
        start, size = start.astype(np.int64), size.astype(np.int64)
        end = np.minimum(start + size, shape)
        inside = np.all((indices >= start) & (indices < end), axis=1) if len(indices) else \
            np.zeros(0, bool)
        out_shape = np.maximum(end - start, 0).astype(np.int64)
        return (indices[inside] - start).astype(np.int64), values[inside], out_shape

    def gradient(op, grad_indices, grad_values, grad_shape):
        indices, _, _, start, _ = op.inputs
        values_grad = apply_op("SparseSliceGrad", [grad_values, indices, start, op.outputs[0]],
                               {"T": grad_values.dtype.base_dtype}, name="SparseSliceGrad",
                               output_dtypes=[grad_values.dtype.base_dtype])
        return [None, values_grad, None, None, None]


class SparseSliceGrad(OpDef):
    """Each input entry gets the gradient of its output entry (0 when it was sliced off)."""
    differentiable = False

    def shape(op):
        return TensorShape([op.inputs[1].get_shape()[0]])

    def kernel(backprop_val_grad, input_indices, input_start, output_indices, T=None):
        where = {tuple(row): k for k, row in enumerate(output_indices)}
        out = np.zeros(len(input_indices), dtype=backprop_val_grad.dtype)
        for k, row in enumerate(input_indices - input_start):
            if tuple(row) in where:
                out[k] = backprop_val_grad[where[tuple(row)]]
        return out


def sparse_slice(sp_input, start, size, name=None):
    """The part of a SparseTensor inside the box [start, start + size), as a SparseTensor
    whose indices start at 0."""
    sp_input = convert_sparse(sp_input)
    start = convert_to_tensor(start, dtype=_dtypes.int64)
    size = convert_to_tensor(size, dtype=_dtypes.int64)
    with name_scope(name, "SparseSlice", [sp_input]) as scope:
        indices, values, shape = apply_op(
            "SparseSlice", [sp_input.indices, sp_input.values, sp_input.dense_shape, start,
                            size], {"T": sp_input.dtype.base_dtype}, name=scope,
            output_dtypes=[_dtypes.int64, sp_input.dtype.base_dtype, _dtypes.int64])
    return SparseTensor(indices, values, shape)


def from_dense(tensor, name=None):
    """The non-zero entries of a dense tensor, as a SparseTensor (tf.sparse.from_dense)."""
    with name_scope(name, "dense_to_sparse"):
        tensor = convert_to_tensor(tensor)
        indices = comparison_ops.where(
            comparison_ops.not_equal(tensor, array_ops.zeros_like(tensor)))
        values = indexing_ops.gather_nd(tensor, indices)
        shape = array_ops.shape(tensor, out_type=_dtypes.int64)
        return SparseTensor(indices, values, shape)


# ======================================================================================
# SparseFillEmptyRows, SparseReshape: what safe_embedding_lookup_sparse needs
# ======================================================================================

class SparseFillEmptyRows(OpDef):
    """Every row without an entry gets one, default_value at [row, 0, ...]. Outputs: the new
    indices and values (sorted by row; a row keeps its entries' order), which rows were empty,
    and where each input entry went (reverse_index_map, for the gradient)."""
    multi_output = True

    def shape(op):
        rank = op.inputs[0].get_shape()[1].value
        return [TensorShape([None, rank]), TensorShape([None]), TensorShape([None]),
                TensorShape([op.inputs[0].get_shape()[0].value])]

    def kernel(indices, values, dense_shape, default_value, T=None):
        if np.ndim(default_value) != 0:
            raise _invalid("default_value must be a scalar")
        rows = int(dense_shape[0])
        if len(indices) and (indices[:, 0].min() < 0 or indices[:, 0].max() >= rows):
            bad = int(np.flatnonzero((indices[:, 0] < 0) | (indices[:, 0] >= rows))[0])
            raise _invalid(f"indices({bad}, 0) is invalid: {indices[bad, 0]} >= {rows}")
        order = np.argsort(indices[:, 0], kind="stable") if len(indices) else \
            np.zeros(0, np.int64)
        empty = np.bincount(indices[:, 0].astype(np.int64), minlength=rows) == 0 \
            if len(indices) else np.ones(rows, bool)
        filler = np.zeros((int(empty.sum()), indices.shape[1]), np.int64)
        filler[:, 0] = np.flatnonzero(empty)
        all_indices = np.concatenate([indices[order].astype(np.int64), filler])
        all_values = np.concatenate([values[order],
                                     np.full(len(filler), default_value, values.dtype)])
        by_row = np.argsort(all_indices[:, 0], kind="stable")    # the fillers into place
        out_indices, out_values = all_indices[by_row], all_values[by_row]
        position = np.empty(len(by_row), np.int64)
        position[by_row] = np.arange(len(by_row))
        reverse_index_map = np.empty(len(indices), np.int64)
        reverse_index_map[order] = position[:len(indices)]
        return out_indices, out_values, empty, reverse_index_map

    def gradient(op, grad_indices, grad_values, grad_empty, grad_map):
        """TF's _SparseFillEmptyRowsGrad: each value gets its output entry's gradient, the
        default value the rest."""
        d_values, d_default = apply_op(
            "SparseFillEmptyRowsGrad", [op.outputs[3], grad_values],
            {"T": grad_values.dtype.base_dtype}, name="SparseFillEmptyRowsGrad",
            output_dtypes=[grad_values.dtype.base_dtype] * 2)
        return [None, d_values, None, d_default]


class SparseFillEmptyRowsGrad(OpDef):
    """d_values = grad_values[reverse_index_map]; d_default_value = the sum of the rest."""
    multi_output = True
    differentiable = False

    def shape(op):
        return [op.inputs[0].get_shape(), TensorShape([])]

    def kernel(reverse_index_map, grad_values, T=None):
        d_values = grad_values[reverse_index_map]
        return d_values, np.asarray(grad_values.sum() - d_values.sum(), grad_values.dtype)


def sparse_fill_empty_rows(sp_input, default_value, name=None):
    """(sp with an entry default_value at [row, 0] in each row that had none, the bool vector
    of the rows that were empty) -- tf.sparse.fill_empty_rows."""
    sp_input = convert_sparse(sp_input)
    with name_scope(name, "SparseFillEmptyRows", [sp_input]):
        default_value = convert_to_tensor(default_value, dtype=sp_input.values.dtype)
        indices, values, empty, _ = apply_op(
            "SparseFillEmptyRows", [sp_input.indices, sp_input.values, sp_input.dense_shape,
                                    default_value], {"T": sp_input.dtype.base_dtype},
            name="SparseFillEmptyRows",
            output_dtypes=[_dtypes.int64, sp_input.dtype.base_dtype, _dtypes.bool,
                           _dtypes.int64])
        return SparseTensor(indices, values, sp_input.dense_shape), empty


class SparseReshape(OpDef):
    """The same entries in a dense tensor of new_shape (one -1 is inferred): each index is
    turned into its row-major position in the old shape, and back into an index in the new."""
    multi_output = True
    differentiable = False

    def shape(op):
        rank = op.inputs[2].get_shape()[0].value
        return [TensorShape([op.inputs[0].get_shape()[0].value, rank]), TensorShape([rank])]

    def kernel(input_indices, input_shape, new_shape):
        input_shape = input_shape.astype(np.int64)
        new_shape = new_shape.astype(np.int64).copy()
        unknown = np.flatnonzero(new_shape == -1)
        if len(unknown) > 1:
            raise _invalid(f"only one output dimension may be -1, not both {unknown[0]} and "
                           f"{unknown[1]}")
        dense_size = int(np.prod(input_shape))
        known_size = int(np.prod(new_shape[new_shape != -1]))
        if len(unknown):
            if known_size == 0 or dense_size % known_size:
                raise _invalid(f"Input to reshape is a tensor with {dense_size} dense values, "
                               f"but the requested shape requires a multiple of {known_size}")
            new_shape[unknown[0]] = dense_size // known_size
        elif known_size != dense_size:
            raise _invalid(f"Input to reshape is a tensor with {dense_size} dense values, but "
                           f"the requested shape has {known_size}")
        if not len(input_indices):
            return np.zeros((0, len(new_shape)), np.int64), new_shape
        flat = np.ravel_multi_index(tuple(input_indices.T.astype(np.int64)), input_shape)
        return np.stack(np.unravel_index(flat, new_shape), axis=1).astype(np.int64), new_shape


def sparse_reshape(sp_input, shape, name=None):
    """The same entries, as a SparseTensor of another dense shape with as many elements (one
    dimension may be -1) -- tf.sparse.reshape."""
    sp_input = convert_sparse(sp_input)
    shape = math_ops.cast(shape, _dtypes.int64)
    with name_scope(name, "SparseReshape", [sp_input]) as scope:
        indices, new_shape = apply_op("SparseReshape",
                                      [sp_input.indices, sp_input.dense_shape, shape],
                                      name=scope, output_dtypes=[_dtypes.int64, _dtypes.int64])
        wanted = constant_value_as_shape(shape)
        if wanted.ndims is not None and sp_input.get_shape().is_fully_defined():
            dims = wanted.as_list()
            size = int(np.prod(sp_input.get_shape().as_list()))
            if dims.count(None) == 1 and 0 not in dims:
                known = int(np.prod([d for d in dims if d is not None]))
                dims[dims.index(None)] = size // known
            if None not in dims:
                if int(np.prod(dims)) != size:
                    raise ValueError(f"Cannot reshape a tensor with {size} elements to shape "
                                     f"{wanted.as_list()} ({int(np.prod(dims))} elements).")
                new_shape = constant(dims, dtype=_dtypes.int64)
        return SparseTensor(indices, identity(sp_input.values), new_shape)
