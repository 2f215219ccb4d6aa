"""Set operations along the last dimension -- mirrors TF 1.15's python/ops/sets_impl.py (and
the DenseToDenseSetOperation, DenseToSparseSetOperation, SparseToSparseSetOperation and
SetSize kernels of core/kernels/set_kernels.cc), gathered as `tf.sets`.

A tensor of rank n >= 2 is a batch of sets: the values along its last dimension are one set
(duplicates count once), indexed by the first n - 1 dimensions. A SparseTensor is the same, its
present entries being the members, so its sets can have different sizes:

    a = tf.constant([[1, 2, 2, 5], [4, 3, 1, 1]])
    b = tf.constant([[2, 1, 7, 7], [1, 1, 1, 1]])
    tf.sets.intersection(a, b)   # SparseTensor: [[1, 2], [1]] -- indices [[0,0],[0,1],[1,0]]

The result is always a SparseTensor of the inputs' rank: set i's members, sorted ascending,
at indices [i..., 0], [i..., 1] ...; its dense_shape is the batch shape and, last, the size of
the largest result set. The members may be int8, int16, int32, int64, uint8, uint16 or string.

Mixing: a dense `a` with a sparse `b` is fine; intersection and union swap a sparse `a` with a
dense `b`, and set_difference then computes `b - a` the other way round (aminusb flipped), as
TF does. Sparse inputs must have their indices in row-major order (tf.sparse.reorder).
No gradients: sets are not differentiable.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import shape_text
from .sparse_ops import _check_canonical

__all__ = ["set_size", "set_intersection", "set_union", "set_difference"]

_VALID_DTYPES = (_dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64, _dtypes.uint8,
                 _dtypes.uint16, _dtypes.string)

_COMBINE = {
    "intersection": lambda a, b: a & b,
    "union": lambda a, b: a | b,
    "a-b": lambda a, b: a - b,
    "b-a": lambda a, b: b - a,
}


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


# -- the sets held by a dense or a sparse input, by group index --------------------------------

def _dense_sets(values):
    """{group index (tuple): set} of a dense [..., N] array."""
    if values.ndim < 2:
        raise _invalid(f"Invalid rank {values.ndim}: a set input must be at least rank 2.")
    groups = np.ndindex(*values.shape[:-1])
    return {g: set(values[g].tolist()) for g in groups}, tuple(values.shape[:-1])


def _sparse_sets(indices, values, dense_shape):
    """{group index: set} of a SparseTensor's arrays (its entries in row-major order)."""
    dense_shape = tuple(int(d) for d in np.reshape(dense_shape, -1))
    if len(dense_shape) < 2:
        raise _invalid(f"Invalid rank {len(dense_shape)}: a set input must be at least rank 2.")
    _check_canonical(indices, np.array(dense_shape))    # sorted row-major, in bounds
    sets = {}
    for row, value in zip(indices.tolist(), values.tolist()):
        sets.setdefault(tuple(row[:-1]), set()).add(value)
    return sets, dense_shape[:-1]


def _as_sparse_result(sets, batch_shape, dtype):
    """(indices, values, dense_shape) of the SparseTensor holding `sets`, each sorted."""
    indices, values = [], []
    for group in np.ndindex(*batch_shape):
        for j, member in enumerate(sorted(sets.get(group, ()))):
            indices.append(group + (j,))
            values.append(member)
    largest = max((len(s) for s in sets.values()), default=0)
    rank = len(batch_shape) + 1
    return (np.array(indices, np.int64).reshape(-1, rank), np.array(values, dtype=dtype),
            np.array(batch_shape + (largest,), np.int64))


def _combine(set_operation, a_sets, a_batch, b_sets, b_batch, dtype):
    if a_batch != b_batch:
        raise _invalid(f"Shape mismatch: the sets of a are indexed by {shape_text(a_batch)}, "
                       f"those of b by {shape_text(b_batch)}; all but the last dimension must "
                       "agree.")
    combine = _COMBINE[set_operation]
    sets = {g: combine(a_sets.get(g, set()), b_sets.get(g, set()))
            for g in np.ndindex(*a_batch)}
    return _as_sparse_result(sets, a_batch, dtype)


# -- the ops -------------------------------------------------------------------------------------

class _SetOperation(OpDef):
    abstract = True
    multi_output = True
    differentiable = False

    def shape(op):
        first = op.inputs[0].get_shape()
        if op.type == "SparseToSparseSetOperation":       # set1's indices: [N, rank]
            rank = first.as_list()[1] if first.ndims == 2 else None
        else:                                             # a dense set1: its rank
            rank = first.ndims
            if rank is None and op.type == "DenseToDenseSetOperation":
                rank = op.inputs[1].get_shape().ndims
        return [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])]


def _check_dense_shapes(a, b):
    """TF's shape function: both rank >= 2, the same rank, the same batch dimensions."""
    sa, sb = a.get_shape(), b.get_shape()
    for s in (sa, sb):
        if s.ndims is not None and s.ndims < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {s.ndims} for set "
                             f"inputs of shapes {sa} and {sb}.")
    if sa.ndims is not None and sb.ndims is not None:
        if sa.ndims != sb.ndims:
            raise ValueError(f"Shape must be rank {sa.ndims} but is rank {sb.ndims}: the set "
                             f"inputs have shapes {sa} and {sb}.")
        for i, (x, y) in enumerate(zip(sa.as_list()[:-1], sb.as_list()[:-1])):
            if x is not None and y is not None and x != y:
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {x} and "
                                 f"{y}. Shapes are {sa} and {sb}.")


class DenseToDenseSetOperation(_SetOperation):
    """The sets of two dense tensors [..., N] and [..., M], combined group by group."""

    def kernel(set1, set2, set_operation="", validate_indices=True, T=None):
        a_sets, a_batch = _dense_sets(set1)
        b_sets, b_batch = _dense_sets(set2)
        return _combine(set_operation, a_sets, a_batch, b_sets, b_batch, set1.dtype)


class DenseToSparseSetOperation(_SetOperation):
    """The sets of a dense tensor and of a SparseTensor (its three arrays)."""

    def kernel(set1, set2_indices, set2_values, set2_shape, set_operation="",
               validate_indices=True, T=None):
        a_sets, a_batch = _dense_sets(set1)
        b_sets, b_batch = _sparse_sets(set2_indices, set2_values, set2_shape)
        return _combine(set_operation, a_sets, a_batch, b_sets, b_batch, set1.dtype)


class SparseToSparseSetOperation(_SetOperation):
    """The sets of two SparseTensors."""

    def kernel(set1_indices, set1_values, set1_shape, set2_indices, set2_values, set2_shape,
               set_operation="", validate_indices=True, T=None):
        a_sets, a_batch = _sparse_sets(set1_indices, set1_values, set1_shape)
        b_sets, b_batch = _sparse_sets(set2_indices, set2_values, set2_shape)
        return _combine(set_operation, a_sets, a_batch, b_sets, b_batch, set1_values.dtype)


class SetSize(OpDef):
    """The number of distinct members of each set of a SparseTensor: int32 [batch shape]."""
    differentiable = False

    def shape(op):
        return unknown_shape()

    def kernel(set_indices, set_values, set_shape, validate_indices=True, T=None):
        sets, batch = _sparse_sets(set_indices, set_values, set_shape)
        sizes = np.zeros(batch, np.int32)
        for group, members in sets.items():
            sizes[group] = len(members)
        return sizes


# -- the functions of tf.sets ----------------------------------------------------------------------

def _convert(x, what):
    if isinstance(x, SparseTensorValue):
        x = SparseTensor.from_value(x)
    if not isinstance(x, SparseTensor):
        x = convert_to_tensor(x, name=what)
    if x.dtype.base_dtype not in _VALID_DTYPES:
        names = ", ".join(d.name for d in _VALID_DTYPES)
        raise TypeError(f"'{what}' has invalid dtype `{x.dtype.base_dtype!r}` not in supported "
                        f"dtypes: {names}. Cast the set values first (tf.cast, or "
                        "tf.as_string for floats).")
    return x


def _convert_pair(a, b):
    """a and b converted, a sparse `a` swapped with a dense `b` (TF supports dense-sparse, not
    sparse-dense); `flipped` says whether they were."""
    a, b = _convert(a, "a"), _convert(b, "b")
    if a.dtype.base_dtype != b.dtype.base_dtype:
        raise TypeError(f"Types don't match, {a.dtype.base_dtype!r} vs {b.dtype.base_dtype!r}: "
                        "both set inputs must hold one dtype.")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        return b, a, True
    return a, b, False


def _set_operation(a, b, set_operation, validate_indices):
    attrs = {"set_operation": set_operation, "validate_indices": bool(validate_indices),
             "T": a.dtype.base_dtype}
    if isinstance(a, SparseTensor):
        inputs, op_type = [a.indices, a.values, a.dense_shape, b.indices, b.values,
                           b.dense_shape], "SparseToSparseSetOperation"
    elif isinstance(b, SparseTensor):
        inputs, op_type = [a, b.indices, b.values, b.dense_shape], "DenseToSparseSetOperation"
    else:
        _check_dense_shapes(a, b)
        inputs, op_type = [a, b], "DenseToDenseSetOperation"
    indices, values, shape = apply_op(op_type, inputs, attrs, name=op_type,
                                      output_dtypes=[_dtypes.int64, a.dtype.base_dtype,
                                                     _dtypes.int64])
    return SparseTensor(indices, values, shape)


def set_size(a, validate_indices=True):
    """The number of distinct members of each set of the SparseTensor `a` (the last dimension):
    an int32 tensor of a's batch shape (dense_shape[:-1])."""
    if isinstance(a, SparseTensorValue):
        a = SparseTensor.from_value(a)
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}. tf.sets.size counts the members of "
                        "a SparseTensor's sets; for a dense tensor use tf.sparse.from_dense.")
    a = _convert(a, "a")
    return apply_op("SetSize", [a.indices, a.values, a.dense_shape],
                    {"validate_indices": bool(validate_indices), "T": a.dtype.base_dtype},
                    name="SetSize", output_dtypes=[_dtypes.int32])


def set_intersection(a, b, validate_indices=True):
    """The members common to a's and b's sets, group by group: a SparseTensor."""
    a, b, _ = _convert_pair(a, b)
    return _set_operation(a, b, "intersection", validate_indices)


def set_union(a, b, validate_indices=True):
    """The members of a's or b's sets, group by group: a SparseTensor."""
    a, b, _ = _convert_pair(a, b)
    return _set_operation(a, b, "union", validate_indices)


def set_difference(a, b, aminusb=True, validate_indices=True):
    """a's members not in b (b's not in a with aminusb=False), group by group: a SparseTensor."""
    a, b, flipped = _convert_pair(a, b)
    if flipped:
        aminusb = not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)
