"""Variable ops -- mirrors TensorFlow's VariableV2, Assign, AssignAdd, AssignSub and
IsVariableInitialized (ops/state_ops.py, core/kernels/variable_ops.cc).

The VariableV2 op does not hold a value: running it looks up the variable's storage (a
VariableCell) by name in the resource manager of the task it runs on, and outputs a *reference*
to it (dtype float32_ref). Ops that take the reference (Assign, the optimizers' Apply ops)
change the stored value; every other op receives the current value.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op, scalar_shape, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.resource_mgr import VariableCell

__all__ = ["variable_op_v2", "assign", "assign_add", "assign_sub", "is_variable_initialized"]


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
