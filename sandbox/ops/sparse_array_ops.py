"""Sparse array ops -- mirrors the layout part of TensorFlow 1.x's python/ops/sparse_ops.py
(sparse_concat, sparse_split, sparse_transpose, sparse_reset_shape, sparse_to_indicator,
sparse_merge), array_ops.sparse_mask, and their kernels (core/kernels/sparse_concat_op.cc,
sparse_split_op.cc): the ops that join, cut, permute or re-index SparseTensors without
changing a value. Building and densifying is sparse_ops.py; the arithmetic is
sparse_math_ops.py and sparse_reduce_ops.py.

    tf.sparse.concat(axis, [sp1, sp2])          SparseConcat: one SparseTensor, row-major
    tf.sparse.split(sp_input=sp, num_split=2, axis=1)   SparseSplit: num_split SparseTensors
    tf.sparse.transpose(sp, perm)               a gather of the index columns, SparseReorder
    tf.sparse.reset_shape(sp, new_shape)        the same entries, a larger (or tight) shape
    tf.sparse.merge(sp_ids, sp_values, vocab)   ids become the last index column
    tf.sparse.to_indicator(sp_ids, vocab)       merge, then a dense bool SparseToDense
    tf.sparse.mask(indexed_slices, indices)     the IndexedSlices minus some rows (ListDiff)

SparseConcat has no gradient in TF (it is NotDifferentiable) nor SparseSplit (none is
registered): the same here. transpose, merge and mask are built from ops that have one.
"""
import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import control_dependencies, name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue, convert_sparse
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_value
from . import array_ops, check_ops, indexing_ops, math_ops, reduction_ops, slicing_ops, sort_ops
from .basic_math_ops import maximum, minimum
from .constant_op import constant
from .control_flow_ops import identity
from .sparse_ops import _invalid, sparse_reorder, sparse_tensor_to_dense

__all__ = ["sparse_concat", "sparse_split", "sparse_transpose", "sparse_reset_shape",
           "sparse_to_indicator", "sparse_merge", "sparse_mask"]   # (+ tf.sparse.eye,
# tf.sparse.expand_dims below: TF 1.15 has them in tf.sparse only)


def _dims_equal(a, b):
    """TF's shape-inference Merge of two dimensions (None: unknown)."""
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    return a if a is not None else b


def _convert_sparse_list(sp_inputs):
    """TF's _convert_to_sparse_tensors."""
    if not isinstance(sp_inputs, (list, tuple)):
        raise TypeError("Inputs must be a list or tuple.")
    return [convert_sparse(sp) for sp in sp_inputs]


# ======================================================================================
# SparseConcat: tf.sparse.concat
# ======================================================================================

class SparseConcat(OpDef):
    """N SparseTensors joined along concat_dim: each input's indices shifted by the sizes of
    the inputs before it, then all entries sorted row-major. Inputs: N indices, N values,
    N shapes; the shapes must agree but on concat_dim."""
    multi_output = True
    differentiable = False          # TF: ops.NotDifferentiable("SparseConcat")

    def shape(op):
        n = op.get_attr("N")
        indices, values, shapes = op.inputs[:n], op.inputs[n:2 * n], op.inputs[2 * n:]
        rows, rank = 0, None
        for ind, val, shp in zip(indices, values, shapes):
            ind = ind.get_shape().with_rank(2)
            val = val.get_shape().with_rank(1)
            shp = shp.get_shape().with_rank(1)
            count = _dims_equal(ind[0].value, val[0].value)
            rows = None if rows is None or count is None else rows + count
            rank = _dims_equal(rank, ind[1].value)
            rank = _dims_equal(rank, shp[0].value)
        return [TensorShape([rows, rank]), TensorShape([rows]), TensorShape([rank])]

    def kernel(*inputs, concat_dim=0, N=None, T=None):  # noqa: N803 -- TF's attr names
        n = len(inputs) // 3
        indices, values, shapes = inputs[:n], inputs[n:2 * n], inputs[2 * n:]
        first = np.reshape(shapes[0], -1).astype(np.int64)
        rank = len(first)
        axis = concat_dim + rank if concat_dim < 0 else concat_dim
        if not 0 <= axis < rank:
            raise _invalid(f"Concat dimension must be in range [{-rank}, {rank}), got "
                           f"{concat_dim}")
        for i in range(1, n):
            shape = np.reshape(shapes[i], -1)
            if len(shape) != rank:
                raise _invalid(f"Ranks of all input tensors must match: expected {rank} but "
                               f"got {len(shape)} at position {i}")
            for j in range(rank):
                if j != axis and shape[j] != first[j]:
                    raise _invalid(f"Input shapes must match: expected {first[j]} for "
                                   f"dimension {j} but got {shape[j]} at position {i}")
        parts, offset = [], 0
        for ind, shape in zip(indices, shapes):
            ind = np.array(ind, dtype=np.int64).reshape(-1, rank)
            ind[:, axis] += offset
            offset += int(np.reshape(shape, -1)[axis])
            parts.append(ind)
        out_indices = np.concatenate(parts)
        out_values = np.concatenate(values)
        order = np.lexsort(out_indices.T[::-1]) if len(out_indices) else \
            np.zeros(0, np.int64)
        out_shape = first.copy()
        out_shape[axis] = offset
        return out_indices[order], out_values[order], out_shape


def _deprecated_lookup(new_name, new_value, old_name, old_value):
    """TF's deprecation.deprecated_argument_lookup (its message names the old one first)."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
        return old_value
    return new_value


def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
    """The SparseTensors joined along `axis` (the dense tensors' tf.concat), in row-major
    order. With expand_nonconcat_dim the other dimensions may differ: each becomes the
    largest of the inputs'."""
    expand_nonconcat_dim = _deprecated_lookup("expand_nonconcat_dims", expand_nonconcat_dims,
                                              "expand_nonconcat_dim", expand_nonconcat_dim)
    if expand_nonconcat_dims is not None:
        expand_nonconcat_dim = expand_nonconcat_dims
    axis = _deprecated_lookup("axis", axis, "concat_dim", concat_dim)
    sp_inputs = _convert_sparse_list(sp_inputs)
    if len(sp_inputs) == 1:                      # as TF: the one input, as is
        return sp_inputs[0]
    kinds = [sp.dtype.base_dtype for sp in sp_inputs]
    if len(set(kinds)) > 1:
        raise TypeError(f"Tensors in list passed to 'values' of 'SparseConcat' Op have types "
                        f"[{', '.join(k.name for k in kinds)}] that don't all match.")
    inds = [sp.indices for sp in sp_inputs]
    vals = [sp.values for sp in sp_inputs]
    shapes = [sp.dense_shape for sp in sp_inputs]
    if expand_nonconcat_dim:
        max_shape = reduction_ops.reduce_max(
            slicing_ops.concat([array_ops.reshape(s, [1, -1]) for s in shapes], 0), 0)
        shapes = [slicing_ops.concat(
            [max_shape[:axis], s[-1:] if axis == -1 else s[axis:axis + 1]]
            + ([] if axis == -1 else [max_shape[axis + 1:]]), 0) for s in shapes]
    out_ind, out_val, out_shape = apply_op(
        "SparseConcat", inds + vals + shapes,
        {"concat_dim": int(axis), "N": len(sp_inputs), "T": kinds[0]},
        name=name or "SparseConcat", output_dtypes=[_dtypes.int64, kinds[0], _dtypes.int64])
    # TF's static shape: the first input's, the concat dimension summed (max'ed: expanding).
    input_shapes = [sp.get_shape() for sp in sp_inputs]
    if all(s.ndims is not None for s in input_shapes):
        if expand_nonconcat_dim:
            static = [None if any(s[d].value is None for s in input_shapes)
                      else max(s[d].value for s in input_shapes)
                      for d in range(input_shapes[0].ndims)]
        else:
            static = input_shapes[0].as_list()
        sizes = [s.dims[axis].value for s in input_shapes]      # IndexError, as TF's
        static[axis] = None if None in sizes else sum(sizes)
        static = TensorShape(static)
    else:
        static = unknown_shape()
    if all(s.is_fully_defined() for s in input_shapes):
        return SparseTensor(out_ind, out_val, constant(static.as_list(), dtype=_dtypes.int64))
    result = SparseTensor(out_ind, out_val, out_shape)
    if static.ndims is not None:      # else what the op's output shape tells (its rank)
        result._dense_shape_default = static
    return result


# ======================================================================================
# SparseSplit: tf.sparse.split
# ======================================================================================

class SparseSplit(OpDef):
    """num_split SparseTensors, cut along split_dim: the first dim % num_split parts are one
    longer. Each keeps its entries in the input's order, their index shifted to the part."""
    multi_output = True

    def shape(op):
        n = op.get_attr("num_split")
        rank = _dims_equal(op.inputs[1].get_shape().with_rank(2)[1].value,
                           op.inputs[3].get_shape().with_rank(1)[0].value)
        return [TensorShape([None, rank])] * n + [TensorShape([None])] * n + \
            [TensorShape([rank])] * n

    def kernel(split_dim, indices, values, shape, num_split=1, T=None):
        shape = np.reshape(shape, -1).astype(np.int64)
        rank = len(shape)
        axis = int(split_dim)
        if not -rank <= axis < rank:
            raise _invalid(f"Input axis should be in range [{-rank}, {rank}), got {axis}")
        axis %= rank
        if not 1 <= num_split <= shape[axis]:
            raise _invalid(f"Input num_split should be between 1 and the splitting dimension "
                           f"size ({shape[axis]}), got {num_split}")
        size, extra = divmod(int(shape[axis]), num_split)
        starts = [k * size + min(k, extra) for k in range(num_split + 1)]
        indices = np.asarray(indices, np.int64).reshape(-1, rank)
        out_ind, out_val, out_shape = [], [], []
        for k in range(num_split):
            inside = (indices[:, axis] >= starts[k]) & (indices[:, axis] < starts[k + 1])
            part = indices[inside].copy()
            part[:, axis] -= starts[k]
            out_ind.append(part)
            out_val.append(values[inside])
            part_shape = shape.copy()
            part_shape[axis] = starts[k + 1] - starts[k]
            out_shape.append(part_shape)
        return tuple(out_ind + out_val + out_shape)


class _KeywordRequired:
    """TF's KeywordRequired: the first default of sparse_split, so that positional arguments
    are refused (the argument order changed in TF 1)."""

    def __repr__(self):
        return "KeywordRequired()"


def sparse_split(keyword_required=_KeywordRequired(), sp_input=None, num_split=None, axis=None,
                 name=None, split_dim=None):
    """num_split SparseTensors cut from sp_input along axis (keyword arguments only):
    tf.sparse.split(sp_input=sp, num_split=2, axis=1)."""
    if not isinstance(keyword_required, _KeywordRequired):
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if axis is None:                              # as TF: checked before split_dim is read
        raise ValueError("axis is required")
    axis = _deprecated_lookup("axis", axis, "split_dim", split_dim)
    sp_input = convert_sparse(sp_input)
    num_split = int(num_split)
    with name_scope(name, "SparseSplit", [sp_input]) as scope:
        split_dim = convert_to_tensor(axis, dtype=_dtypes.int64, name="split_dim")
        outputs = apply_op(
            "SparseSplit", [split_dim, sp_input.indices, sp_input.values,
                            sp_input.dense_shape],
            {"num_split": num_split, "T": sp_input.dtype.base_dtype}, name=scope,
            output_dtypes=[_dtypes.int64] * num_split + [sp_input.dtype.base_dtype] * num_split
            + [_dtypes.int64] * num_split)
    if not isinstance(outputs, list):
        outputs = [outputs]
    return [SparseTensor(outputs[k], outputs[num_split + k], outputs[2 * num_split + k])
            for k in range(num_split)]


# ======================================================================================
# sparse_transpose, sparse_reset_shape: composites, as in TF
# ======================================================================================

def sparse_transpose(sp_input, perm=None, name=None):
    """The SparseTensor of tf.transpose(dense, perm) (default: the dimensions reversed): the
    index columns gathered by perm, then reordered row-major."""
    sp_input = convert_sparse(sp_input)
    with name_scope(name, "SparseTranspose", [sp_input]):
        if perm is None:
            if sp_input.get_shape().ndims is not None:
                rank = sp_input.get_shape().ndims
                perm = (rank - 1) - np.arange(0, rank, 1)
            else:
                rank = array_ops.size(sp_input.dense_shape)
                perm = (rank - 1) - array_ops.range(0, rank, 1)
        indices = sp_input.indices
        transposed_indices = array_ops.transpose(
            indexing_ops.gather(array_ops.transpose(indices), perm))
        perm_ = constant_value(convert_to_tensor(perm))
        if perm_ is not None and sp_input.get_shape().is_fully_defined():
            old_shape = sp_input.get_shape().as_list()
            transposed_dense_shape = list(old_shape)
            for i, p in enumerate(perm_):
                transposed_dense_shape[i] = old_shape[p]
        else:
            transposed_dense_shape = indexing_ops.gather(sp_input.dense_shape, perm)
        transposed = SparseTensor(transposed_indices, sp_input.values, transposed_dense_shape)
        return sparse_reorder(transposed)


def _with_dependencies(dependencies, tensor):
    """TF's control_flow_ops.with_dependencies: tensor, once the dependencies have run."""
    with name_scope(None, "control_dependency", [tensor]) as scope:
        with control_dependencies(dependencies):
            return identity(tensor, name=scope)


def sparse_reset_shape(sp_input, new_shape=None):
    """The same indices and values in a dense shape of new_shape (each dimension at least
    the old one), or, without new_shape, the tight bounding box of the indices."""
    sp_input = convert_sparse(sp_input)
    in_indices = identity(sp_input.indices)
    in_values = identity(sp_input.values)
    in_shape = identity(sp_input.dense_shape)
    if new_shape is None:
        # TF: reduce_max(in_indices, axis=0), which is int64's least value for no entry; the
        # sandbox's Max refuses an empty reduction, so a row of -1 joins the indices first
        # (the same bound for every input: 0 where there is no entry).
        floor = -array_ops.ones_like(array_ops.expand_dims(in_shape, 0))
        dim_low_bound = reduction_ops.reduce_max(slicing_ops.concat([in_indices, floor], 0),
                                                 axis=0)
        output_shape = maximum(constant(0, dtype=_dtypes.int64),
                               math_ops.add(dim_low_bound, array_ops.ones_like(in_shape)))
    else:
        output_shape = convert_to_tensor(new_shape)
        output_shape.get_shape().assert_has_rank(1)
        output_shape = math_ops.cast(output_shape, _dtypes.int64)
        if output_shape.get_shape().ndims is not None:
            output_shape.get_shape()[0].merge_with(in_shape.get_shape()[0])  # TF's message
        output_shape_const = constant_value(output_shape)
        if output_shape_const is not None and sp_input.get_shape().is_fully_defined():
            in_shape_const = np.array(sp_input.get_shape().as_list())
            if not np.all(in_shape_const <= output_shape_const):
                # TF's message, its two shapes named the wrong way round
                raise ValueError(
                    "Requested new_shape should have dimension sizes >= sp_input.shape."
                    "  Found new_shape (%s), sp_input.shape (%s)."
                    % (in_shape_const, output_shape_const))
            output_shape = output_shape_const
        else:
            output_shape = _with_dependencies(
                [check_ops.assert_equal(array_ops.shape(in_shape),
                                        array_ops.shape(output_shape))], output_shape)
            output_shape = _with_dependencies(
                [check_ops.assert_less_equal(in_shape, output_shape)], output_shape)
    return SparseTensor(in_indices, in_values, output_shape)


# ======================================================================================
# sparse_merge, sparse_to_indicator
# ======================================================================================

def _sparse_merge_impl(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """TF's sparse_merge_impl."""
    if isinstance(sp_ids, (SparseTensor, SparseTensorValue)):
        sp_ids = [sp_ids]
        if not isinstance(vocab_size, (Tensor, numbers.Integral)):
            raise TypeError("vocab_size has to be a Tensor or Python int. Found %s"
                            % type(vocab_size))
        vocab_size = [vocab_size]
    else:
        if not isinstance(sp_ids, (list, tuple)):
            raise TypeError("sp_ids has to be a SparseTensor or list thereof. Found %s"
                            % type(sp_ids))
        if not isinstance(vocab_size, (list, tuple)):
            raise TypeError("vocab_size has to be a list of Tensors or Python ints. Found %s"
                            % type(vocab_size))
        for dim in vocab_size:
            if not isinstance(dim, (Tensor, numbers.Integral)):
                raise TypeError("vocab_size has to be a list of Tensors or Python ints. "
                                "Found %s" % type(dim))
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    with name_scope(name, "SparseMerge"):
        sp_ids = [convert_sparse(ids) for ids in sp_ids]
        sp_values = convert_sparse(sp_values)
        ids = []
        for sp_ids_dim in sp_ids:
            ids_dim = sp_ids_dim.values
            if sp_ids_dim.dtype != _dtypes.int64:
                ids_dim = math_ops.cast(ids_dim, _dtypes.int64)
            ids.append(array_ops.expand_dims(ids_dim, axis=1))
        vocab_size = [math_ops.cast(x, _dtypes.int64) for x in vocab_size]
        new_indices = slicing_ops.concat([sp_ids[0].indices[:, :-1]] + ids, 1)
        new_shape = slicing_ops.concat([sp_ids[0].dense_shape[:-1], vocab_size], 0)
        result = SparseTensor(new_indices, sp_values.values, new_shape)
        if already_sorted:
            return result
        sorted_result = sparse_reorder(result)
        return SparseTensor(sorted_result.indices, sorted_result.values, new_shape)


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """A SparseTensor of [D0, ..., Dn, vocab_size] from ids and values of [D0, ..., Dn, K]:
    each id becomes the last index of its value (a list of sp_ids: one column each).
    (Deprecated in TF: "No similar op available at this time.")"""
    return _sparse_merge_impl(sp_ids, sp_values, vocab_size, name, already_sorted)


def sparse_to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor of [D0, ..., Dn, vocab_size] from ids of [D0, ..., Dn, K]: True at
    [d0, ..., dn, id] for each id, False elsewhere."""
    sp_input = convert_sparse(sp_input)
    with name_scope(name, "SparseToIndicator", [sp_input]) as scope:
        num_entries = array_ops.shape(sp_input.indices)[0]
        new_values = array_ops.fill(array_ops.expand_dims(num_entries, 0), True)
        sp_values = SparseTensor(sp_input.indices, new_values, sp_input.dense_shape)
        sp_new = _sparse_merge_impl(sp_input, sp_values, vocab_size, scope)
        return sparse_tensor_to_dense(sp_new, default_value=False, validate_indices=False,
                                      name=scope)


# ======================================================================================
# sparse_mask: on IndexedSlices
# ======================================================================================

def sparse_mask(a, mask_indices, name=None):
    """The slices of the IndexedSlices `a` whose index is not in mask_indices (a ListDiff of
    the indices, then a gather of the values)."""
    with name_scope(name, "sparse_mask") as scope:
        out_indices, to_gather = sort_ops.setdiff1d(a.indices, mask_indices)
        out_values = indexing_ops.gather(a.values, to_gather, name=scope)
        return IndexedSlices(out_values, out_indices, a.dense_shape)


# -- eye and expand_dims: TF 1.15's python/ops/sparse_ops.py, built from ordinary ops ----------

def _int64(value, name):
    value = convert_to_tensor(value, name=name)
    return value if value.dtype == _dtypes.int64 else math_ops.cast(value, _dtypes.int64)


def sparse_eye(num_rows, num_columns=None, dtype=_dtypes.float32, name=None):
    """tf.sparse.eye: ones on the main diagonal of a [num_rows, num_columns] SparseTensor."""
    with name_scope(name, "eye", [num_rows, num_columns]):
        num_rows = _int64(num_rows, "num_rows")
        num_columns = num_rows if num_columns is None else _int64(num_columns, "num_columns")
        diag_size = minimum(num_rows, num_columns)
        diag_range = array_ops.range(diag_size, dtype=_dtypes.int64)
        return SparseTensor(indices=array_ops.stack([diag_range, diag_range], axis=1),
                            values=array_ops.ones(diag_size, dtype=dtype),
                            dense_shape=array_ops.stack([num_rows, num_columns]))


def sparse_expand_dims(sp_input, axis=None, name=None):
    """tf.sparse.expand_dims: a dimension of size 1 inserted at `axis` (default -1, the last;
    negative axes count from the end of the result), the values unchanged."""
    sp_input = convert_sparse(sp_input)
    rank = sp_input.dense_shape.get_shape()[0]
    rank = array_ops.shape(sp_input.dense_shape)[0] if rank is None else rank
    axis = -1 if axis is None else axis
    with name_scope(name, "expand_dims", [sp_input]):
        if isinstance(axis, numbers.Integral):
            axis = convert_to_tensor(axis, name="axis", dtype=_dtypes.int32)
        elif not isinstance(axis, Tensor):
            raise TypeError(f"axis must be an int or tensor of type int32, got {axis!r}")
        from .comparison_ops import greater_equal, where
        axis = where(greater_equal(axis, 0), axis, axis + rank + 1)
        column_size = array_ops.shape(sp_input.indices)[0]
        new_index = array_ops.zeros(array_ops.stack([column_size, 1]), dtype=_dtypes.int64)
        indices_before = slicing_ops.slice(sp_input.indices, [0, 0], array_ops.stack([-1, axis]))
        indices_after = slicing_ops.slice(sp_input.indices, array_ops.stack([0, axis]), [-1, -1])
        indices = slicing_ops.concat([indices_before, new_index, indices_after], axis=1)
        shape_before = slicing_ops.slice(sp_input.dense_shape, [0], array_ops.reshape(axis, [1]))
        shape_after = slicing_ops.slice(sp_input.dense_shape, array_ops.reshape(axis, [1]), [-1])
        new_shape = convert_to_tensor([1], name="new_shape", dtype=_dtypes.int64)
        shape = slicing_ops.concat([shape_before, new_shape, shape_after], axis=0)
        return SparseTensor(indices=indices, values=sp_input.values, dense_shape=shape)
