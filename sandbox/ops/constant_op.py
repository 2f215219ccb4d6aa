"""Constants and placeholders -- mirrors TensorFlow's `tf.constant` (framework/constant_op.py)
and `tf.placeholder` (ops/array_ops.py).

A Const op carries its value inside the graph. A Placeholder carries nothing: it is the hole
a program fills at run time with `feed_dict`, checked against the dtype and shape it declares.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op
from ..framework.operation import Operation
from ..framework.tensor import _numpy_value_of
from ..framework.tensor_conversion_registry import register_tensor_conversion_function
from ..framework.tensor_shape import TensorShape, as_shape

__all__ = ["constant", "placeholder", "placeholder_with_default"]


class Const(OpDef):
    """Outputs the array stored in its `value` attr."""
    differentiable = False

    def shape(op):
        return TensorShape(op.get_attr("value").shape)

    def kernel(value, dtype):
        return value


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """A tensor whose value is fixed in the graph. With `shape`, a scalar is broadcast and a
    list of the right size is reshaped, as in TF-1."""
    array = np.array(_numpy_value_of(value, dtype), copy=True)   # the graph owns its copy
    if shape is not None:
        shape = as_shape(shape).as_list()
        wanted = int(np.prod(shape)) if shape else 1
        if verify_shape and list(array.shape) != shape:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, got {array.shape}.")
        if array.size == 1:
            array = np.full(shape, array.reshape(()), dtype=array.dtype)
        elif array.size == wanted:
            array = array.reshape(shape)
        elif array.size > wanted:
            raise TypeError(f"Too many elements provided. Needed at most {wanted}, but "
                            f"received {array.size}")
        else:
            flat = np.empty(wanted, dtype=array.dtype)
            flat[:array.size] = array.reshape(-1)
            flat[array.size:] = array.reshape(-1)[-1]
            array = flat.reshape(shape)
    tf_dtype = _dtypes.as_dtype(dtype) if dtype is not None else _dtypes.as_dtype(array.dtype)
    array.setflags(write=False)
    return apply_op("Const", [], {"value": array, "dtype": tf_dtype}, name=name,
                    output_dtypes=[tf_dtype])


def _constant_tensor_conversion_function(value, dtype=None, name=None, as_ref=False):
    """convert_to_tensor of a Python or NumPy value: a Const op (TF's, in constant_op.py)."""
    return constant(value, dtype=dtype, name=name or "Const")


# Last resort of convert_to_tensor: whatever no other function took becomes a constant.
register_tensor_conversion_function(object, _constant_tensor_conversion_function, 200)


def _operation_conversion_error(op, dtype=None, name=None, as_ref=False):
    """An Operation (e.g. a train_op) is not a tensor: TF 1.x's error when one is used as one."""
    raise TypeError(f"Can't convert Operation '{op.name}' to Tensor (target dtype="
                    f"{dtype!r}, name={name!r}, as_ref={as_ref!r})")


register_tensor_conversion_function(Operation, _operation_conversion_error)


class Placeholder(OpDef):
    """Must be fed: running it without a value is an error that names it."""
    differentiable = False
    uses_context = True

    def shape(op):
        return op.get_attr("shape")

    def kernel(ctx, step, dtype, shape):
        shape_text = "<unknown>" if shape.dims is None else \
            "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"
        raise errors.InvalidArgumentError(
            ctx.name, None,
            f"You must feed a value for placeholder tensor {ctx.name!r} with dtype "
            f"{dtype.name} and shape {shape_text}. Pass it in feed_dict: "
            f"sess.run(..., feed_dict={{{ctx.name}: value}}).")


def placeholder(dtype, shape=None, name=None):
    """A tensor that must be fed at run time: `x = tf.placeholder(tf.float32, [None, 784])`."""
    dtype = _dtypes.as_dtype(dtype)
    shape = TensorShape(shape) if shape is not None else TensorShape(None)
    return apply_op("Placeholder", [], {"dtype": dtype, "shape": shape},
                    name=name or "Placeholder", output_dtypes=[dtype])


class PlaceholderWithDefault(OpDef):
    """Outputs `input` unless fed."""

    def shape(op):
        return op.get_attr("shape")

    def kernel(x, dtype, shape):
        return x

    def gradient(op, grad):
        return [grad]


def placeholder_with_default(input, shape, name=None):  # noqa: A002 -- TF's name
    from ..framework.tensor import convert_to_tensor
    x = convert_to_tensor(input)
    return apply_op("PlaceholderWithDefault", [x],
                    {"dtype": x.dtype, "shape": TensorShape(shape)}, name=name)
