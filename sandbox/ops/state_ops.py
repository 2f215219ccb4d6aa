"""Variable ops -- mirrors TensorFlow's VariableV2, Assign, AssignAdd, AssignSub and
IsVariableInitialized (ops/state_ops.py, core/kernels/variable_ops.cc).

The VariableV2 op does not hold a value: running it looks up the variable's storage (a
VariableCell) by name in the resource manager of the task it runs on, and outputs a *reference*
to it (dtype float32_ref). Ops that take the reference (Assign, the optimizers' Apply ops)
change the stored value; every other op receives the current value.

The Scatter ops change only some rows of a variable: `tf.scatter_add(v, [1, 3], rows)` adds
rows[0] to v[1] and rows[1] to v[3] (a repeated index adds twice; ScatterUpdate keeps the
last). They run where the variable lives, so only the rows and their indices travel to it --
how the optimizers apply sparse gradients (IndexedSlices). ScatterNd* name single elements
or slices by index vectors instead of rows. Like Assign, they store a new array (the old one
may still be in flight to another task) and output the new value.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op, scalar_shape, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.resource_mgr import VariableCell

__all__ = ["variable_op_v2", "assign", "assign_add", "assign_sub", "is_variable_initialized",
           "scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
           "scatter_max", "scatter_min", "scatter_nd_update", "scatter_nd_add",
           "scatter_nd_sub", "batch_scatter_update"]


class VariableV2(OpDef):
    """Outputs a reference to the variable's storage on this task."""
    uses_context = True
    stateful = True
    ref_outputs = (0,)

    def shape(op):
        return op.get_attr("shape")

    def kernel(ctx, step, shape, dtype, container, shared_name):
        name = shared_name or ctx.name
        return ctx.resources.lookup_or_create(
            container, name, lambda: VariableCell(name, dtype, shape, ctx.resources.owner))


def variable_op_v2(shape, dtype, name="Variable", container="", shared_name=""):
    dtype = _dtypes.as_dtype(dtype).base_dtype
    return apply_op("VariableV2", [], {"shape": TensorShape(shape), "dtype": dtype,
                                       "container": container, "shared_name": shared_name},
                    name=name, output_dtypes=[dtype._as_ref])


def _store(cell, value, node, validate_shape):
    value = np.asarray(value, dtype=cell.dtype.as_numpy_dtype)
    declared = cell.shape
    if validate_shape and declared.dims is not None and not declared.is_compatible_with(
            value.shape):
        raise errors.InvalidArgumentError(
            node, None, f"Assign requires shapes of both tensors to match. lhs shape= "
            f"{declared.as_list()} rhs shape= {list(value.shape)} (variable {cell.name}).")
    cell.value = value


class Assign(OpDef):
    """ref = value; outputs the new value. The value is copied into the variable."""
    ref_inputs = (0,)
    stateful = True

    def shape(op):
        return op.inputs[1].get_shape() if not op.get_attr("validate_shape") else \
            op.inputs[0].get_shape().merge_with(op.inputs[1].get_shape())

    def kernel(cell, value, validate_shape=True, use_locking=True, T=None):
        _store(cell, np.array(value, dtype=cell.dtype.as_numpy_dtype), cell.name, validate_shape)
        return cell.value

    def gradient(op, grad):
        return [None, None]


class AssignAdd(OpDef):
    """ref += value; outputs the new value."""
    ref_inputs = (0,)
    stateful = True
    shape = unchanged_shape

    def kernel(cell, value, use_locking=False, T=None):
        with cell.lock:
            _store(cell, cell.read(cell.name) + value, cell.name, True)
        return cell.value

    def gradient(op, grad):
        return [None, None]


class AssignSub(OpDef):
    """ref -= value; outputs the new value."""
    ref_inputs = (0,)
    stateful = True
    shape = unchanged_shape

    def kernel(cell, value, use_locking=False, T=None):
        with cell.lock:
            _store(cell, cell.read(cell.name) - value, cell.name, True)
        return cell.value

    def gradient(op, grad):
        return [None, None]


class IsVariableInitialized(OpDef):
    """True once the variable holds a value."""
    ref_inputs = (0,)
    stateful = True
    differentiable = False
    shape = scalar_shape

    def kernel(cell, dtype=None):
        return np.asarray(cell.initialized)


def _ref_of(ref):
    if hasattr(ref, "_ref"):
        return ref._ref()
    ref = convert_to_tensor(ref)
    if not ref.dtype.is_ref:
        raise TypeError(f"{ref.name!r} is not a variable reference (dtype {ref.dtype.name}): "
                        "only a tf.Variable can be assigned to.")
    return ref


def _assign_like(op_type, ref, value, name, attrs):
    ref = _ref_of(ref)
    with ref.graph.as_default():
        value = convert_to_tensor(value, dtype=ref.dtype.base_dtype)
        return apply_op(op_type, [ref, value], {"T": ref.dtype.base_dtype, **attrs},
                        name=name or op_type, output_dtypes=[ref.dtype.base_dtype])


def assign(ref, value, validate_shape=True, use_locking=True, name=None):
    return _assign_like("Assign", ref, value, name,
                        {"validate_shape": validate_shape, "use_locking": use_locking})


def assign_add(ref, value, use_locking=False, name=None):
    return _assign_like("AssignAdd", ref, value, name, {"use_locking": use_locking})


def assign_sub(ref, value, use_locking=False, name=None):
    return _assign_like("AssignSub", ref, value, name, {"use_locking": use_locking})


def is_variable_initialized(variable, name=None):
    ref = _ref_of(variable)
    return apply_op("IsVariableInitialized", [ref], {"dtype": ref.dtype.base_dtype},
                    name=name or "IsVariableInitialized", output_dtypes=[_dtypes.bool])


# -- scatter: changing some rows of a variable -----------------------------------------

def _scatter_shape(op):
    """updates.shape must be indices.shape + ref.shape[1:]; the output is ref's shape."""
    ref, indices, updates = (t.get_shape() for t in op.inputs)
    if ref.ndims is not None and indices.ndims is not None and updates.ndims is not None:
        if ref.ndims == 0:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        expected = indices.concatenate(ref[1:])
        if not updates.is_compatible_with(expected):
            raise ValueError(f"Shapes must be equal: updates {_text(updates)} is not "
                             f"indices.shape + ref.shape[1:] = {_text(expected)}")
    return ref


def _text(shape):
    return "?" if shape.dims is None else str(["?" if d is None else d
                                               for d in shape.as_list()])


def _check_rows(cell, indices, updates, node):
    value = cell.read(node)
    n = value.shape[0]
    if indices.size and (indices.min() < 0 or indices.max() >= n):
        where = np.argwhere((indices < 0) | (indices >= n))[0]
        raise errors.InvalidArgumentError(
            node, None, f"indices[{','.join(map(str, where))}] = {indices[tuple(where)]} is "
            f"not in [0, {n}) (variable {cell.name})")
    if updates.shape != indices.shape + value.shape[1:]:
        raise errors.InvalidArgumentError(
            node, None, f"updates must have shape indices.shape + ref.shape[1:], got "
            f"updates {list(updates.shape)}, indices {list(indices.shape)}, ref "
            f"{list(value.shape)} (variable {cell.name})")
    return value


def _scatter_kernel(combine):
    """A Scatter kernel: a copy of the variable with combine(copy, indices, updates) done."""
    def kernel(cell, indices, updates, use_locking=False, T=None, Tindices=None):
        updates = np.asarray(updates, dtype=cell.dtype.as_numpy_dtype)
        with cell.lock:
            new = _check_rows(cell, indices, updates, cell.name).copy()
            combine(new, indices, updates)
            cell.value = new
        return new
    return kernel


def _put(new, i, u):
    new[i] = u


class _Scatter(OpDef):
    abstract = True
    ref_inputs = (0,)
    stateful = True
    shape = _scatter_shape

    def gradient(op, grad):
        return [None, None, None]


class ScatterUpdate(_Scatter):
    """ref[indices[i]] = updates[i] (of repeated indices, the last one wins)."""
    kernel = _scatter_kernel(_put)


class ScatterAdd(_Scatter):
    """ref[indices[i]] += updates[i] (repeated indices add up)."""
    kernel = _scatter_kernel(np.add.at)


class ScatterSub(_Scatter):
    """ref[indices[i]] -= updates[i] (repeated indices add up)."""
    kernel = _scatter_kernel(np.subtract.at)


class ScatterMul(_Scatter):
    """ref[indices[i]] *= updates[i]."""
    kernel = _scatter_kernel(np.multiply.at)


class ScatterDiv(_Scatter):
    """ref[indices[i]] /= updates[i]."""
    kernel = _scatter_kernel(np.divide.at)


class ScatterMax(_Scatter):
    """ref[indices[i]] = max(ref[indices[i]], updates[i])."""
    kernel = _scatter_kernel(np.maximum.at)


class ScatterMin(_Scatter):
    """ref[indices[i]] = min(ref[indices[i]], updates[i])."""
    kernel = _scatter_kernel(np.minimum.at)


def _scatter_nd_shape(op):
    ref, indices, updates = (t.get_shape() for t in op.inputs)
    if ref.ndims is not None and indices.ndims is not None and updates.ndims is not None \
            and indices[-1].value is not None:
        depth = indices[-1].value
        if depth > ref.ndims:
            raise ValueError(f"indices.shape[-1] must be <= ref.rank, but saw indices shape "
                             f"{_text(indices)} and ref shape {_text(ref)}")
        expected = indices[:-1].concatenate(ref[depth:])
        if not updates.is_compatible_with(expected):
            raise ValueError(f"updates {_text(updates)} must have shape indices.shape[:-1] + "
                             f"ref.shape[indices.shape[-1]:] = {_text(expected)}")
    return ref


def _scatter_nd_kernel(combine):
    def kernel(cell, indices, updates, use_locking=False, T=None, Tindices=None):
        updates = np.asarray(updates, dtype=cell.dtype.as_numpy_dtype)
        with cell.lock:
            value = cell.read(cell.name)
            for k in range(indices.shape[-1]):
                column = indices[..., k]
                if column.size and (column.min() < 0 or column.max() >= value.shape[k]):
                    raise errors.InvalidArgumentError(
                        cell.name, None, f"indices[..., {k}] has a value outside [0, "
                        f"{value.shape[k]}) (variable {cell.name})")
            new = value.copy()
            combine(new, tuple(np.moveaxis(indices, -1, 0)), updates)
            cell.value = new
        return new
    return kernel


class ScatterNdUpdate(_Scatter):
    """ref[indices[i]] = updates[i], each index a vector naming an element or a slice."""
    shape = _scatter_nd_shape
    kernel = _scatter_nd_kernel(_put)


class ScatterNdAdd(_Scatter):
    """ref[indices[i]] += updates[i], each index a vector naming an element or a slice."""
    shape = _scatter_nd_shape
    kernel = _scatter_nd_kernel(np.add.at)


class ScatterNdSub(_Scatter):
    """ref[indices[i]] -= updates[i], each index a vector naming an element or a slice."""
    shape = _scatter_nd_shape
    kernel = _scatter_nd_kernel(np.subtract.at)


def _scatter(op_type, ref, indices, updates, use_locking, name):
    ref = _ref_of(ref)
    with ref.graph.as_default():
        indices = convert_to_tensor(indices)
        if indices.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
            raise TypeError(f"{op_type}: indices must be int32 or int64, got "
                            f"{indices.dtype.name}")
        updates = convert_to_tensor(updates, dtype=ref.dtype.base_dtype)
        return apply_op(op_type, [ref, indices, updates],
                        {"T": ref.dtype.base_dtype, "Tindices": indices.dtype.base_dtype,
                         "use_locking": use_locking}, name=name or op_type,
                        output_dtypes=[ref.dtype.base_dtype])


def scatter_update(ref, indices, updates, use_locking=True, name=None):
    return _scatter("ScatterUpdate", ref, indices, updates, use_locking, name)


def scatter_add(ref, indices, updates, use_locking=False, name=None):
    return _scatter("ScatterAdd", ref, indices, updates, use_locking, name)


def scatter_sub(ref, indices, updates, use_locking=False, name=None):
    return _scatter("ScatterSub", ref, indices, updates, use_locking, name)


def scatter_mul(ref, indices, updates, use_locking=False, name=None):
    return _scatter("ScatterMul", ref, indices, updates, use_locking, name)


def scatter_div(ref, indices, updates, use_locking=False, name=None):
    return _scatter("ScatterDiv", ref, indices, updates, use_locking, name)


def scatter_max(ref, indices, updates, use_locking=False, name=None):
    return _scatter("ScatterMax", ref, indices, updates, use_locking, name)


def scatter_min(ref, indices, updates, use_locking=False, name=None):
    return _scatter("ScatterMin", ref, indices, updates, use_locking, name)


def scatter_nd_update(ref, indices, updates, use_locking=True, name=None):
    return _scatter("ScatterNdUpdate", ref, indices, updates, use_locking, name)


def scatter_nd_add(ref, indices, updates, use_locking=False, name=None):
    return _scatter("ScatterNdAdd", ref, indices, updates, use_locking, name)


def scatter_nd_sub(ref, indices, updates, use_locking=False, name=None):
    return _scatter("ScatterNdSub", ref, indices, updates, use_locking, name)


def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
    """ref[i, ..., indices[i, ..., j]] = updates[i, ..., j]: scatter_update within each batch
    entry (the leading dims of indices are batch dims of ref). Built as TF 1.15's
    state_ops.batch_scatter_update: the batch positions are stacked next to `indices` and one
    ScatterNdUpdate writes them all."""
    from ..framework.graph import name_scope
    from . import array_ops, math_ops, slicing_ops
    with name_scope(name):
        indices = convert_to_tensor(indices, name="indices")
        indices_shape = array_ops.shape(indices)
        indices_dimensions = indices.get_shape().ndims
        if indices_dimensions is None:
            raise ValueError("batch_scatter_update: the rank of indices must be known "
                             "statically.")
        nd_indices = array_ops.expand_dims(indices, axis=-1)
        nd_indices_list = []
        # Batch dim i gets the index range(dim_i), broadcast to indices' shape: a [..., 1]
        # column per batch dim, concatenated before indices' own column.
        for dimension in range(indices_dimensions - 1):
            dimension_size = indices_shape[dimension]
            shape_to_broadcast = [1] * (indices_dimensions + 1)
            shape_to_broadcast[dimension] = -1
            dimension_size_expanded = math_ops.cast(array_ops.reshape(
                array_ops.range(dimension_size), shape_to_broadcast), indices.dtype.base_dtype)
            nd_indices_list.append(dimension_size_expanded *
                                   array_ops.ones_like(nd_indices, dtype=indices.dtype))
        nd_indices_list.append(nd_indices)
        final_indices = slicing_ops.concat(nd_indices_list, axis=-1)
        return scatter_nd_update(ref, final_indices, updates, use_locking=use_locking)
