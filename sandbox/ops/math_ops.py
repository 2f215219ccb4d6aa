"""Math ops -- mirrors TensorFlow's math_ops (python/ops/math_ops.py, ops/math_grad.py).

Every function here adds one node (or a few) to the graph; nothing is computed until a Session
runs it. Elementwise binary ops (`add`, `multiply`, `maximum` ...) follow NumPy *broadcasting*:
shapes are lined up from the right and a dimension of size 1 stretches to match the other, so
`[batch, 10] + [10]` adds a bias to every row. The gradient of a broadcast input therefore has
to be *summed back* over the dimensions it was stretched along (the `SumToShape` helper op).

Reductions (`reduce_sum`, `reduce_mean` ...) collapse the `axis` dimensions (all of them by
default); `keepdims=True` keeps each as size 1. The Python operators on tensors (`x + y`,
`x * 2`, `a @ b`, `x < 0`, `-x`) are wired to these functions at the bottom of this file, as TF
does. The right-hand Python value takes the dtype of the tensor (`x + 1` is float32 for a
float32 `x`), but two tensors of different dtypes never mix silently: use `tf.cast`.
"""
import math

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph, name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape

__all__ = [
    # arithmetic
    "add", "subtract", "sub", "multiply", "mul", "divide", "truediv", "div", "realdiv",
    "floordiv", "floor_div", "floormod", "mod", "truncatediv", "truncatemod", "pow",
    "maximum", "minimum", "squared_difference", "scalar_mul", "add_n", "accumulate_n",
    "matmul",
    # unary
    "negative", "neg", "square", "sqrt", "rsqrt", "exp", "expm1", "log", "log1p", "abs",
    "sign", "reciprocal", "inv", "floor", "ceil", "round", "rint", "sin", "cos", "tanh",
    "sigmoid", "erf", "is_nan", "is_inf", "is_finite",
    # reductions
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all",
    "reduce_any", "reduce_logsumexp", "count_nonzero", "argmax", "argmin", "cumsum",
    # comparison and logic
    "equal", "not_equal", "less", "greater", "less_equal", "greater_equal", "logical_and",
    "logical_or", "logical_not", "logical_xor", "where",
    # dtypes
    "cast", "to_float", "to_double", "to_int32", "to_int64", "saturate_cast",
    "lin_space", "linspace",
]

_FLOATS = (_dtypes.float16, _dtypes.float32, _dtypes.float64)
_INTS = (_dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64, _dtypes.uint8,
         _dtypes.uint16)
_NUMBERS = _FLOATS + _INTS
_BOOL = (_dtypes.bool,)


# ===================================================================================
# Helpers shared by the ops
# ===================================================================================

def _is_tensor_like(value):
    """A Tensor, or something that stands for one (a tf.Variable)."""
    return isinstance(value, Tensor) or hasattr(value, "_as_graph_element")


def _check_dtype(op_type, tensor, allowed, arg="x"):
    dtype = tensor.dtype.base_dtype
    if dtype not in allowed:
        names = ", ".join(d.name for d in allowed)
        raise TypeError(f"Value passed to parameter '{arg}' has DataType {dtype.name} not in "
                        f"list of allowed values: {names} (op {op_type}, tensor "
                        f"{tensor.name!r}). Use tf.cast to convert it.")


def _mismatch(op_type, x, y):
    dx, dy = x.dtype.base_dtype.name, y.dtype.base_dtype.name
    return TypeError(f"Input 'y' of '{op_type}' Op has type {dy} that does not match type "
                     f"{dx} of argument 'x': {x.name!r} is {dx} but {y.name!r} is {dy}. "
                     f"Convert one of them first, e.g. tf.cast(y, tf.{dx}).")


def _convert_pair(x, y, op_type):
    """x and y as Tensors of one dtype. A Python or NumPy value takes the dtype of the tensor
    beside it (`x + 1`); two tensors of different dtypes are an error, as in TF."""
    if _is_tensor_like(x) or not _is_tensor_like(y):
        x = convert_to_tensor(x, name="x")
        if not _is_tensor_like(y):
            return x, convert_to_tensor(y, dtype=x.dtype.base_dtype, name="y")
        y = convert_to_tensor(y, name="y")
    else:
        y = convert_to_tensor(y, name="y")
        x = convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
    if x.dtype.base_dtype != y.dtype.base_dtype:
        raise _mismatch(op_type, x, y)
    return x, y


def _binary(op_type, x, y, name, allowed=_NUMBERS, out_dtype=None, attrs=None):
    """Adds a two-input elementwise op (named `name`, default `op_type`)."""
    with name_scope(name, op_type, [x, y]) as scope:
        x, y = _convert_pair(x, y, op_type)
        _check_dtype(op_type, x, allowed)
        dtype = x.dtype.base_dtype
        return apply_op(op_type, [x, y], {"T": dtype, **(attrs or {})}, name=scope,
                        output_dtypes=[out_dtype or dtype])


def _unary(op_type, x, name, allowed=_FLOATS, out_dtype=None):
    """Adds a one-input elementwise op (named `name`, default `op_type`)."""
    with name_scope(name, op_type, [x]) as scope:
        x = convert_to_tensor(x, name="x")
        _check_dtype(op_type, x, allowed)
        dtype = x.dtype.base_dtype
        return apply_op(op_type, [x], {"T": dtype}, name=scope,
                        output_dtypes=[out_dtype or dtype])


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _broadcast_static_shape(a, b):
    """The static shape of broadcasting shapes a and b (None for unknown dimensions)."""
    if a.dims is None or b.dims is None:
        return TensorShape(None)
    a, b = a.as_list(), b.as_list()
    n = max(len(a), len(b))
    a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    out = []
    for da, db in zip(a, b):
        if da == 1:
            out.append(db)
        elif db == 1 or db is None:
            out.append(da)
        elif da is None or da == db:
            out.append(db)
        else:
            raise ValueError(f"Dimensions must be equal, but are {da} and {db}")
    return TensorShape(out)


def _broadcast_shape(op):
    return _broadcast_static_shape(op.inputs[0].get_shape(), op.inputs[1].get_shape())


def _broadcasting(fn):
    """Kernel for an elementwise binary op: fn(x, y), with TF's error for bad shapes."""
    def kernel(x, y, T=None):
        try:
            return fn(x, y)
        except ValueError:
            if np.shape(x) != np.shape(y):
                raise errors.InvalidArgumentError(
                    None, None, f"Incompatible shapes: {_shape_text(np.shape(x))} vs. "
                    f"{_shape_text(np.shape(y))}") from None
            raise
    return kernel


def _sum_to(grad, shape):
    """Sums a NumPy array over the dimensions along which `shape` was broadcast to grad's."""
    if grad.shape == shape:
        return grad
    lead = grad.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and grad.shape[lead + i] != 1)
    return np.add.reduce(grad, axis=axes, dtype=grad.dtype).reshape(shape)


class SumToShape(OpDef):
    """Sums grad over the dimensions along which x was broadcast, giving it x's shape.
    (A sandbox helper op: TF builds BroadcastGradientArgs + Sum + Reshape for this.)"""

    def shape(op):
        return op.inputs[1].get_shape()

    def kernel(grad, x, T=None):
        return _sum_to(np.asarray(grad), np.shape(x))

    def gradient(op, grad):
        from .array_ops import zeros_like
        return [add(grad, zeros_like(op.inputs[0])), None]   # broadcast back


def _may_stretch(xs, os):
    """Could broadcasting shape xs against shape os make it bigger? False only when the
    static shapes prove it cannot (e.g. x [?, 10] against a bias of shape [10])."""
    if xs.ndims is None or os.ndims is None or os.ndims > xs.ndims:
        return True
    x_dims = xs.as_list()[xs.ndims - os.ndims:]       # the dims of x that meet a dim of o
    for dx, do in zip(x_dims, os.as_list()):
        if do != 1 and (dx is None or dx == 1):
            return True                               # o's size may stretch x's 1 here
    return False


def _unbroadcast(grad, x, other=None):
    """The gradient `grad` reduced to the shape of input `x`, which was broadcast against
    `other`. No op at all when the static shapes prove that x was not stretched."""
    xs = x.get_shape()
    if xs.is_fully_defined() and grad.get_shape() == xs:
        return grad
    if other is not None and not _may_stretch(xs, other.get_shape()):
        return grad
    return apply_op("SumToShape", [grad, x], {"T": grad.dtype.base_dtype}, name="SumToShape")


# ===================================================================================
# Elementwise binary arithmetic
# ===================================================================================

class _BinaryOp(OpDef):
    abstract = True
    shape = _broadcast_shape


class Add(_BinaryOp):
    """z = x + y (broadcasting)."""
    kernel = _broadcasting(np.add)

    def gradient(op, grad):
        x, y = op.inputs
        return [_unbroadcast(grad, x, y), _unbroadcast(grad, y, x)]


class Sub(_BinaryOp):
    """z = x - y (broadcasting)."""
    kernel = _broadcasting(np.subtract)

    def gradient(op, grad):
        x, y = op.inputs
        return [_unbroadcast(grad, x, y), negative(_unbroadcast(grad, y, x))]


class Mul(_BinaryOp):
    """z = x * y (broadcasting)."""
    kernel = _broadcasting(np.multiply)

    def gradient(op, grad):
        x, y = op.inputs
        return [_unbroadcast(multiply(grad, y), x, y), _unbroadcast(multiply(x, grad), y, x)]


def _real_div(x, y):
    if x.dtype.kind in "iu":          # TF's RealDiv on integers rounds toward zero
        _check_nonzero(y)
        q = np.floor_divide(x, y)
        return q + ((q < 0) & (q * y != x))
    return np.true_divide(x, y)


def _check_nonzero(y):
    if not np.all(y):
        raise errors.InvalidArgumentError(None, None, "Integer division by zero")


class RealDiv(_BinaryOp):
    """z = x / y (broadcasting; integers round toward zero)."""
    kernel = _broadcasting(_real_div)

    def gradient(op, grad):
        x, y = op.inputs
        return [_unbroadcast(realdiv(grad, y), x, y),
                _unbroadcast(multiply(grad, realdiv(realdiv(negative(x), y), y)), y, x)]


def _floor_div(x, y):
    if x.dtype.kind in "iu":
        _check_nonzero(y)
    return np.floor_divide(x, y)


class FloorDiv(_BinaryOp):
    """z = floor(x / y) (broadcasting)."""
    kernel = _broadcasting(_floor_div)

    def gradient(op, grad):
        return [None, None]


def _floor_mod(x, y):
    if x.dtype.kind in "iu":
        _check_nonzero(y)
    return np.mod(x, y)


class FloorMod(_BinaryOp):
    """z = x - floor(x / y) * y: the remainder has the sign of y, as Python's %."""
    kernel = _broadcasting(_floor_mod)

    def gradient(op, grad):
        x, y = op.inputs
        return [_unbroadcast(grad, x, y),
                _unbroadcast(multiply(grad, negative(floor_div(x, y))), y, x)]


def _truncate_div(x, y):
    if x.dtype.kind in "iu":
        return _real_div(x, y)
    return np.trunc(x / y)


class TruncateDiv(_BinaryOp):
    """z = x / y rounded toward zero (C-style integer division)."""
    kernel = _broadcasting(_truncate_div)

    def gradient(op, grad):
        return [None, None]


def _truncate_mod(x, y):
    if x.dtype.kind in "iu":
        _check_nonzero(y)
    return np.fmod(x, y)


class TruncateMod(_BinaryOp):
    """z = x - trunc(x / y) * y: the remainder has the sign of x, as C's %."""
    kernel = _broadcasting(_truncate_mod)

    def gradient(op, grad):
        return [None, None]


class Pow(_BinaryOp):
    """z = x ** y (broadcasting)."""
    kernel = _broadcasting(np.power)

    def gradient(op, grad):
        from .array_ops import ones_like, zeros_like
        x, y = op.inputs
        z = op.outputs[0]
        gx = multiply(grad, multiply(y, pow(x, subtract(y, 1))))
        # log(x) only where x > 0: avoids a false NaN/inf at x = 0, as TF does.
        mask = greater(x, 0)
        log_x = where(mask, log(where(mask, x, ones_like(x))), zeros_like(x))
        gy = multiply(grad, multiply(z, log_x))
        return [_unbroadcast(gx, x, y), _unbroadcast(gy, y, x)]


def _min_max_gradient(op, grad, mask_fn):
    from .array_ops import zeros_like
    x, y = op.inputs
    mask = mask_fn(x, y)                       # where x is the one that was chosen
    zeros = zeros_like(grad)
    return [_unbroadcast(where(mask, grad, zeros), x, y),
            _unbroadcast(where(mask, zeros, grad), y, x)]


class Maximum(_BinaryOp):
    """z = max(x, y) elementwise (broadcasting)."""
    kernel = _broadcasting(np.maximum)

    def gradient(op, grad):
        return _min_max_gradient(op, grad, greater_equal)


class Minimum(_BinaryOp):
    """z = min(x, y) elementwise (broadcasting)."""
    kernel = _broadcasting(np.minimum)

    def gradient(op, grad):
        return _min_max_gradient(op, grad, less_equal)


def _squared_difference(x, y):
    d = np.subtract(x, y)
    return d * d


class SquaredDifference(_BinaryOp):
    """z = (x - y) ** 2 (broadcasting)."""
    kernel = _broadcasting(_squared_difference)

    def gradient(op, grad):
        x, y = op.inputs
        x_grad = multiply(multiply(grad, 2), subtract(x, y))
        return [_unbroadcast(x_grad, x, y), negative(_unbroadcast(x_grad, y, x))]


def add(x, y, name=None):
    """x + y elementwise, with broadcasting."""
    return _binary("Add", x, y, name, allowed=_NUMBERS + (_dtypes.string,))


def subtract(x, y, name=None):
    """x - y elementwise, with broadcasting."""
    return _binary("Sub", x, y, name)


def multiply(x, y, name=None):
    """x * y elementwise, with broadcasting."""
    return _binary("Mul", x, y, name)


def realdiv(x, y, name=None):
    """x / y elementwise for real numbers (no integer-to-float conversion)."""
    return _binary("RealDiv", x, y, name)


def floor_div(x, y, name=None):
    """floor(x / y) elementwise (the FloorDiv op)."""
    return _binary("FloorDiv", x, y, name)


def floordiv(x, y, name=None):
    """floor(x / y) elementwise: Python's `//` (op name 'floordiv')."""
    with name_scope(name, "floordiv", [x, y]) as scope:
        return floor_div(x, y, name=scope)


def floormod(x, y, name=None):
    """The remainder of floor division (sign of y), Python's `%`."""
    return _binary("FloorMod", x, y, name)


def truncatediv(x, y, name=None):
    """x / y rounded toward zero."""
    return _binary("TruncateDiv", x, y, name)


def truncatemod(x, y, name=None):
    """The remainder of truncated division (sign of x), C's `%`."""
    return _binary("TruncateMod", x, y, name)


_TRUEDIV_TABLE = {_dtypes.uint8: _dtypes.float32, _dtypes.int8: _dtypes.float32,
                  _dtypes.uint16: _dtypes.float32, _dtypes.int16: _dtypes.float32,
                  _dtypes.int32: _dtypes.float64, _dtypes.int64: _dtypes.float64}


def truediv(x, y, name=None):
    """x / y as Python 3 divides: integers are first cast to float (int32 -> float64)."""
    with name_scope(name, "truediv", [x, y]) as scope:
        x, y = _convert_pair(x, y, "RealDiv")
        dtype = x.dtype.base_dtype
        if dtype in _TRUEDIV_TABLE:
            x, y = cast(x, _TRUEDIV_TABLE[dtype]), cast(y, _TRUEDIV_TABLE[dtype])
        elif dtype not in _FLOATS:
            raise TypeError(f"Invalid dtype {dtype!r} in __truediv__ ({x.name!r}).")
        return realdiv(x, y, name=scope)


def divide(x, y, name=None):
    """x / y (true division): the same as truediv."""
    return truediv(x, y, name=name)


def div(x, y, name=None):
    """x / y as Python 2 divides (deprecated): floor division for integers, true division
    for floats."""
    with name_scope(name, "div", [x, y]) as scope:
        x, y = _convert_pair(x, y, "Div")
        if x.dtype.base_dtype.is_floating:
            return realdiv(x, y, name=scope)
        return floor_div(x, y, name=scope)


def pow(x, y, name=None):  # noqa: A001 -- TF's name
    """x ** y elementwise, with broadcasting."""
    return _binary("Pow", x, y, name)


def maximum(x, y, name=None):
    """max(x, y) elementwise, with broadcasting."""
    return _binary("Maximum", x, y, name)


def minimum(x, y, name=None):
    """min(x, y) elementwise, with broadcasting."""
    return _binary("Minimum", x, y, name)


def squared_difference(x, y, name=None):
    """(x - y) ** 2 elementwise, with broadcasting."""
    return _binary("SquaredDifference", x, y, name)


def scalar_mul(scalar, x, name=None):
    """scalar * x, where scalar is a 0-D value."""
    x = convert_to_tensor(x, name="x")
    scalar = convert_to_tensor(scalar, dtype=x.dtype.base_dtype, name="scalar")
    if scalar.get_shape().ndims not in (None, 0):
        raise ValueError(f"Only scalar multiply works, got shape {scalar.get_shape()}")
    return multiply(scalar, x, name=name)


sub, mul, mod = subtract, multiply, floormod


# ===================================================================================
# Sums of many tensors
# ===================================================================================

class AddN(OpDef):
    """Sum of N tensors of the same shape."""
    shape = unchanged_shape

    def kernel(*inputs, N=None, T=None):
        total = inputs[0] + inputs[1]
        for x in inputs[2:]:
            total = total + x
        return total

    def gradient(op, grad):
        return [grad] * len(op.inputs)


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype."""
    inputs = [convert_to_tensor(x) for x in inputs]
    if not inputs:
        raise ValueError("inputs must be a non-empty list of tensors")
    if len(inputs) == 1:
        from .control_flow_ops import identity
        return identity(inputs[0], name=name)
    return apply_op("AddN", inputs, {"N": len(inputs), "T": inputs[0].dtype.base_dtype},
                    name=name or "AddN")


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The elementwise sum of a list of tensors (here the same as add_n)."""
    return add_n(inputs, name=name or "AccumulateN")


# ===================================================================================
# Matrix multiplication
# ===================================================================================

def _matrix_dims(shape, transposed, rank=2):
    """(rows, cols) of a matrix operand after the optional transpose; checks its rank
    (exactly 2 for MatMul, at least 2 when `rank` is not 2)."""
    if shape.ndims is None:
        return None, None
    if rank == 2 and shape.ndims != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {shape.ndims}")
    if shape.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {shape.ndims}")
    rows, cols = shape.as_list()[-2:]
    return (cols, rows) if transposed else (rows, cols)


class MatMul(OpDef):
    """product = a @ b for 2-D matrices, each optionally transposed first."""

    def shape(op):
        a_rows, a_inner = _matrix_dims(op.inputs[0].get_shape(), op.get_attr("transpose_a"))
        b_inner, b_cols = _matrix_dims(op.inputs[1].get_shape(), op.get_attr("transpose_b"))
        if a_inner is not None and b_inner is not None and a_inner != b_inner:
            raise ValueError(f"Dimensions must be equal, but are {a_inner} and {b_inner}")
        return TensorShape([a_rows, b_cols])

    def kernel(a, b, transpose_a=False, transpose_b=False, T=None):
        if a.ndim != 2 or b.ndim != 2:
            bad = 0 if a.ndim != 2 else 1
            raise errors.InvalidArgumentError(
                None, None, f"In[{bad}] is not a matrix. Instead it has shape "
                f"{_shape_text((a, b)[bad].shape)}")
        if transpose_a:
            a = a.T
        if transpose_b:
            b = b.T
        if a.shape[1] != b.shape[0]:
            raise errors.InvalidArgumentError(
                None, None, f"Matrix size-incompatible: In[0]: {_shape_text(a.shape)}, "
                f"In[1]: {_shape_text(b.shape)}")
        return np.matmul(a, b)      # (np.dot would zero the result's memory first)

    def gradient(op, grad):
        a, b = op.inputs
        t_a, t_b = op.get_attr("transpose_a"), op.get_attr("transpose_b")
        if not t_a and not t_b:
            return [matmul(grad, b, transpose_b=True), matmul(a, grad, transpose_a=True)]
        if not t_a and t_b:
            return [matmul(grad, b), matmul(grad, a, transpose_a=True)]
        if t_a and not t_b:
            return [matmul(b, grad, transpose_b=True), matmul(a, grad)]
        return [matmul(b, grad, transpose_a=True, transpose_b=True),
                matmul(grad, a, transpose_a=True, transpose_b=True)]


class BatchMatMulV2(OpDef):
    """output[..., :, :] = x[..., :, :] @ y[..., :, :]; the batch dimensions broadcast."""

    def shape(op):
        xs, ys = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        x_rows, x_inner = _matrix_dims(xs, op.get_attr("adj_x"), rank=3)
        y_inner, y_cols = _matrix_dims(ys, op.get_attr("adj_y"), rank=3)
        if x_inner is not None and y_inner is not None and x_inner != y_inner:
            raise ValueError(f"Dimensions must be equal, but are {x_inner} and {y_inner}")
        if xs.ndims is None or ys.ndims is None:
            return TensorShape(None)
        batch = _broadcast_static_shape(xs[:-2], ys[:-2])
        return batch.concatenate([x_rows, y_cols])

    def kernel(x, y, adj_x=False, adj_y=False, T=None):
        if adj_x:
            x = np.swapaxes(x, -1, -2)
        if adj_y:
            y = np.swapaxes(y, -1, -2)
        try:
            return np.matmul(x, y)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"Matrix size-incompatible: In[0]: {_shape_text(x.shape)}, "
                f"In[1]: {_shape_text(y.shape)}") from None

    def gradient(op, grad):
        x, y = op.inputs
        adj_x, adj_y = op.get_attr("adj_x"), op.get_attr("adj_y")
        if not adj_x and not adj_y:
            gx, gy = matmul(grad, y, adjoint_b=True), matmul(x, grad, adjoint_a=True)
        elif not adj_x:
            gx, gy = matmul(grad, y), matmul(grad, x, adjoint_a=True)
        elif not adj_y:
            gx, gy = matmul(y, grad, adjoint_b=True), matmul(x, grad)
        else:
            gx = matmul(y, grad, adjoint_a=True, adjoint_b=True)
            gy = matmul(grad, x, adjoint_a=True, adjoint_b=True)
        return [_unbroadcast(gx, x), _unbroadcast(gy, y)]


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, name=None):
    """a @ b. 2-D inputs give a MatMul op; inputs of rank 3 or more multiply the innermost
    two dimensions and broadcast the rest (BatchMatMulV2). The sparsity hints are accepted
    and ignored (the result is the same)."""
    with name_scope(name, "MatMul", [a, b]) as scope:
        if transpose_a and adjoint_a:
            raise ValueError("Only one of transpose_a and adjoint_a can be True.")
        if transpose_b and adjoint_b:
            raise ValueError("Only one of transpose_b and adjoint_b can be True.")
        a, b = _convert_pair(a, b, "MatMul")
        _check_dtype("MatMul", a, _NUMBERS, arg="a")
        dtype = a.dtype.base_dtype
        ra, rb = a.get_shape().ndims, b.get_shape().ndims
        t_a, t_b = transpose_a or adjoint_a, transpose_b or adjoint_b
        if ra is None or ra > 2 or rb is None or rb > 2:
            return apply_op("BatchMatMulV2", [a, b], {"adj_x": t_a, "adj_y": t_b, "T": dtype},
                            name=scope)
        return apply_op("MatMul", [a, b], {"transpose_a": t_a, "transpose_b": t_b,
                                           "T": dtype}, name=scope)


# ===================================================================================
# Elementwise unary functions
# ===================================================================================

class _UnaryOp(OpDef):
    abstract = True
    shape = unchanged_shape


class Neg(_UnaryOp):
    """y = -x"""
    def kernel(x, T=None):
        return np.negative(x)

    def gradient(op, grad):
        return [negative(grad)]


class Square(_UnaryOp):
    """y = x * x"""
    def kernel(x, T=None):
        return np.square(x)

    def gradient(op, grad):
        return [multiply(grad, multiply(op.inputs[0], 2))]


class Sqrt(_UnaryOp):
    """y = sqrt(x)"""
    def kernel(x, T=None):
        return np.sqrt(x)

    def gradient(op, grad):
        return [_fused("SqrtGrad", op.outputs[0], grad)]


class Rsqrt(_UnaryOp):
    """y = 1 / sqrt(x)"""
    def kernel(x, T=None):
        return 1 / np.sqrt(x)

    def gradient(op, grad):
        return [_fused("RsqrtGrad", op.outputs[0], grad)]


class Exp(_UnaryOp):
    """y = e ** x"""
    def kernel(x, T=None):
        return np.exp(x)

    def gradient(op, grad):
        return [multiply(grad, op.outputs[0])]


class Expm1(_UnaryOp):
    """y = e ** x - 1, accurate for small x"""
    def kernel(x, T=None):
        return np.expm1(x)

    def gradient(op, grad):
        return [multiply(grad, exp(op.inputs[0]))]


class Log(_UnaryOp):
    """y = ln(x) (natural logarithm)"""
    def kernel(x, T=None):
        return np.log(x)

    def gradient(op, grad):
        return [realdiv(grad, op.inputs[0])]


class Log1p(_UnaryOp):
    """y = ln(1 + x), accurate for small x"""
    def kernel(x, T=None):
        return np.log1p(x)

    def gradient(op, grad):
        return [realdiv(grad, add(op.inputs[0], 1))]


class Abs(_UnaryOp):
    """y = |x|"""
    def kernel(x, T=None):
        return np.abs(x)

    def gradient(op, grad):
        return [multiply(grad, sign(op.inputs[0]))]


class Sign(_UnaryOp):
    """y = -1, 0 or 1 as x is negative, zero or positive"""
    def kernel(x, T=None):
        return np.sign(x)

    def gradient(op, grad):
        from .array_ops import zeros_like
        return [zeros_like(op.inputs[0])]


def _reciprocal(x):
    if x.dtype.kind in "iu":
        return _real_div(np.ones_like(x), x)
    return np.reciprocal(x)


class Reciprocal(_UnaryOp):
    """y = 1 / x"""
    def kernel(x, T=None):
        return _reciprocal(np.asarray(x))

    def gradient(op, grad):
        return [_fused("ReciprocalGrad", op.outputs[0], grad)]


class Floor(_UnaryOp):
    """y = the largest integer <= x"""
    def kernel(x, T=None):
        return np.floor(x)

    def gradient(op, grad):
        return [None]


class Ceil(_UnaryOp):
    """y = the smallest integer >= x"""
    def kernel(x, T=None):
        return np.ceil(x)

    def gradient(op, grad):
        return [None]


class Round(_UnaryOp):
    """y = x rounded to the nearest integer, halves to even (banker's rounding)"""
    def kernel(x, T=None):
        return np.round(x)

    def gradient(op, grad):
        return [None]


class Rint(_UnaryOp):
    """y = x rounded to the nearest integer, halves to even"""
    def kernel(x, T=None):
        return np.rint(x)

    def gradient(op, grad):
        return [None]


class Sin(_UnaryOp):
    """y = sin(x)"""
    def kernel(x, T=None):
        return np.sin(x)

    def gradient(op, grad):
        return [multiply(grad, cos(op.inputs[0]))]


class Cos(_UnaryOp):
    """y = cos(x)"""
    def kernel(x, T=None):
        return np.cos(x)

    def gradient(op, grad):
        return [negative(multiply(grad, sin(op.inputs[0])))]


class Tanh(_UnaryOp):
    """y = tanh(x) = (e^x - e^-x) / (e^x + e^-x)"""
    def kernel(x, T=None):
        return np.tanh(x)

    def gradient(op, grad):
        return [tanh_grad(op.outputs[0], grad)]


class Sigmoid(_UnaryOp):
    """y = 1 / (1 + exp(-x))"""
    def kernel(x, T=None):
        return 1 / (1 + np.exp(-x))

    def gradient(op, grad):
        return [sigmoid_grad(op.outputs[0], grad)]


def _np_erf(x):
    """erf on arrays: SciPy's when installed (imported only now: it is slow to import)."""
    try:
        from scipy.special import erf
    except ImportError:                 # pragma: no cover - depends on the environment
        erf = np.vectorize(math.erf, otypes=[np.float64])
    return erf(x)


class Erf(_UnaryOp):
    """y = erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-t^2) dt"""
    def kernel(x, T=None):
        return np.asarray(_np_erf(x), dtype=x.dtype)

    def gradient(op, grad):
        x = op.inputs[0]
        return [multiply(grad, multiply(exp(negative(square(x))), 2 / math.sqrt(math.pi)))]


class _PredicateOp(OpDef):
    abstract = True
    shape = unchanged_shape
    differentiable = False


class IsNan(_PredicateOp):
    """y = whether x is NaN"""
    def kernel(x, T=None):
        return np.isnan(x)


class IsInf(_PredicateOp):
    """y = whether x is +inf or -inf"""
    def kernel(x, T=None):
        return np.isinf(x)


class IsFinite(_PredicateOp):
    """y = whether x is neither NaN nor infinite"""
    def kernel(x, T=None):
        return np.isfinite(x)


# -- fused gradient ops: inputs (y, dy) where y is the forward op's output -------------

class _GradOp(OpDef):
    abstract = True
    shape = unchanged_shape


class SigmoidGrad(_GradOp):
    """dx = dy * y * (1 - y), where y = sigmoid(x)"""
    def kernel(y, dy, T=None):
        return dy * y * (1 - y)

    def gradient(op, grad):
        y, dy = op.inputs
        return [multiply(grad, multiply(dy, subtract(1, multiply(y, 2)))),
                sigmoid_grad(y, grad)]


class TanhGrad(_GradOp):
    """dx = dy * (1 - y * y), where y = tanh(x)"""
    def kernel(y, dy, T=None):
        return dy * (1 - y * y)

    def gradient(op, grad):
        y, dy = op.inputs
        return [multiply(grad, multiply(dy, multiply(y, -2))), tanh_grad(y, grad)]


class SqrtGrad(_GradOp):
    """dx = dy * 0.5 / y, where y = sqrt(x)"""
    def kernel(y, dy, T=None):
        return dy * 0.5 / y

    def gradient(op, grad):
        y, dy = op.inputs
        ga = negative(multiply(grad, realdiv(op.outputs[0], y)))
        return [ga, _fused("SqrtGrad", y, grad)]


class RsqrtGrad(_GradOp):
    """dx = dy * -0.5 * y ** 3, where y = 1 / sqrt(x)"""
    def kernel(y, dy, T=None):
        return dy * -0.5 * (y * y * y)

    def gradient(op, grad):
        y, dy = op.inputs
        ga = multiply(grad, multiply(dy, multiply(square(y), -1.5)))
        return [ga, _fused("RsqrtGrad", y, grad)]


class ReciprocalGrad(_GradOp):
    """dx = -dy * y * y, where y = 1 / x"""
    def kernel(y, dy, T=None):
        return -dy * (y * y)

    def gradient(op, grad):
        y, dy = op.inputs
        ga = multiply(grad, multiply(dy, multiply(y, -2)))
        return [ga, _fused("ReciprocalGrad", y, grad)]


def _fused(op_type, y, dy, name=None):
    y, dy = convert_to_tensor(y), convert_to_tensor(dy)
    if y.dtype.base_dtype != dy.dtype.base_dtype:
        raise _mismatch(op_type, y, dy)
    return apply_op(op_type, [y, dy], {"T": y.dtype.base_dtype}, name=name or op_type)


def sigmoid_grad(y, dy, name=None):
    """dy * y * (1 - y): the gradient of sigmoid given its output y (an internal op)."""
    return _fused("SigmoidGrad", y, dy, name)


def tanh_grad(y, dy, name=None):
    """dy * (1 - y^2): the gradient of tanh given its output y (an internal op)."""
    return _fused("TanhGrad", y, dy, name)


def negative(x, name=None):
    """-x elementwise."""
    return _unary("Neg", x, name, allowed=_NUMBERS)


def square(x, name=None):
    """x * x elementwise."""
    return _unary("Square", x, name, allowed=_NUMBERS)


def sqrt(x, name=None):
    """Square root elementwise."""
    return _unary("Sqrt", x, name)


def rsqrt(x, name=None):
    """1 / sqrt(x) elementwise."""
    return _unary("Rsqrt", x, name)


def exp(x, name=None):
    """e ** x elementwise."""
    return _unary("Exp", x, name)


def expm1(x, name=None):
    """e ** x - 1 elementwise."""
    return _unary("Expm1", x, name)


def log(x, name=None):
    """Natural logarithm elementwise (log(0) = -inf)."""
    return _unary("Log", x, name)


def log1p(x, name=None):
    """log(1 + x) elementwise."""
    return _unary("Log1p", x, name)


def abs(x, name=None):  # noqa: A001 -- TF's name
    """|x| elementwise."""
    return _unary("Abs", x, name, allowed=_NUMBERS)


def sign(x, name=None):
    """-1, 0 or 1 elementwise."""
    return _unary("Sign", x, name, allowed=_NUMBERS)


def reciprocal(x, name=None):
    """1 / x elementwise."""
    return _unary("Reciprocal", x, name, allowed=_NUMBERS)


def floor(x, name=None):
    """Largest integer not greater than x, elementwise."""
    return _unary("Floor", x, name)


def ceil(x, name=None):
    """Smallest integer not less than x, elementwise."""
    return _unary("Ceil", x, name)


def round(x, name=None):  # noqa: A001 -- TF's name
    """x rounded half to even, elementwise (integers pass through)."""
    x = convert_to_tensor(x)
    if x.dtype.base_dtype.is_integer:
        return x
    return _unary("Round", x, name)


def rint(x, name=None):
    """x rounded half to even, elementwise."""
    return _unary("Rint", x, name)


def sin(x, name=None):
    """Sine elementwise."""
    return _unary("Sin", x, name)


def cos(x, name=None):
    """Cosine elementwise."""
    return _unary("Cos", x, name)


def tanh(x, name=None):
    """Hyperbolic tangent elementwise (also tf.nn.tanh)."""
    return _unary("Tanh", x, name)


def sigmoid(x, name=None):
    """1 / (1 + exp(-x)) elementwise (also tf.nn.sigmoid)."""
    return _unary("Sigmoid", x, name)


def erf(x, name=None):
    """The Gauss error function elementwise."""
    return _unary("Erf", x, name)


def is_nan(x, name=None):
    """Whether each element is NaN."""
    return _unary("IsNan", x, name, out_dtype=_dtypes.bool)


def is_inf(x, name=None):
    """Whether each element is +/- infinity."""
    return _unary("IsInf", x, name, out_dtype=_dtypes.bool)


def is_finite(x, name=None):
    """Whether each element is a finite number."""
    return _unary("IsFinite", x, name, out_dtype=_dtypes.bool)


neg, inv = negative, reciprocal


# ===================================================================================
# Reductions
# ===================================================================================

def _constant_value(tensor):
    """The value of `tensor` if the graph fixes it (a Const), else None."""
    if tensor.op.type == "Const":
        return tensor.op.get_attr("value")
    return None


def _reduced_shape(op):
    """Static shape of a reduction: input 1 holds the axes, attr keep_dims."""
    x = op.inputs[0].get_shape()
    keep = op.get_attr("keep_dims")
    axes = _constant_value(op.inputs[1])
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


class Max(_Reduction):
    """Maximum of the elements along the given axes."""
    def kernel(x, reduction_indices, keep_dims=False, T=None, Tidx=None):
        return np.maximum.reduce(x, axis=_axes(reduction_indices), keepdims=keep_dims)

    def gradient(op, grad):
        x, axes = op.inputs
        return [_reduction_grad("MinMaxGrad", grad, x, axes, op, op.outputs[0]), None]


class Min(_Reduction):
    """Minimum of the elements along the given axes."""
    def kernel(x, reduction_indices, keep_dims=False, T=None, Tidx=None):
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
    g = input_tensor.graph if _is_tensor_like(input_tensor) else get_default_graph()
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
    return _reduce("Sum", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_mean(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                keep_dims=None):
    """Mean over `axis` (all axes when None). The mean of integers is an integer."""
    return _reduce("Mean", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


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
    """Product over `axis` (all axes when None)."""
    return _reduce("Prod", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


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
    axis = _constant_value(op.inputs[1])
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


# ===================================================================================
# Comparisons, logic and selection
# ===================================================================================

def _comparing(fn):
    """Kernel for a broadcasting comparison: always a bool array (also for strings)."""
    compare = _broadcasting(fn)

    def kernel(x, y, T=None):
        result = compare(x, y)
        return result if result.dtype == np.bool_ else np.asarray(result, dtype=np.bool_)
    return kernel


class _CompareOp(_BinaryOp):
    abstract = True
    differentiable = False


class Equal(_CompareOp):
    """z = (x == y) elementwise, a bool tensor."""
    kernel = _comparing(np.equal)


class NotEqual(_CompareOp):
    """z = (x != y) elementwise, a bool tensor."""
    kernel = _comparing(np.not_equal)


class Less(_CompareOp):
    """z = (x < y) elementwise, a bool tensor."""
    kernel = _comparing(np.less)


class LessEqual(_CompareOp):
    """z = (x <= y) elementwise, a bool tensor."""
    kernel = _comparing(np.less_equal)


class Greater(_CompareOp):
    """z = (x > y) elementwise, a bool tensor."""
    kernel = _comparing(np.greater)


class GreaterEqual(_CompareOp):
    """z = (x >= y) elementwise, a bool tensor."""
    kernel = _comparing(np.greater_equal)


class LogicalAnd(_CompareOp):
    """z = x AND y elementwise (bool)."""
    kernel = _broadcasting(np.logical_and)


class LogicalOr(_CompareOp):
    """z = x OR y elementwise (bool)."""
    kernel = _broadcasting(np.logical_or)


class LogicalNot(OpDef):
    """y = NOT x elementwise (bool)."""
    shape = unchanged_shape
    differentiable = False

    def kernel(x):
        return np.logical_not(x)


_ALL_TYPES = _NUMBERS + (_dtypes.bool, _dtypes.string)


def equal(x, y, name=None):
    """x == y elementwise (bool result, broadcasting)."""
    return _binary("Equal", x, y, name, allowed=_ALL_TYPES, out_dtype=_dtypes.bool)


def not_equal(x, y, name=None):
    """x != y elementwise (bool result, broadcasting)."""
    return _binary("NotEqual", x, y, name, allowed=_ALL_TYPES, out_dtype=_dtypes.bool)


def less(x, y, name=None):
    """x < y elementwise (bool result, broadcasting)."""
    return _binary("Less", x, y, name, out_dtype=_dtypes.bool)


def less_equal(x, y, name=None):
    """x <= y elementwise (bool result, broadcasting)."""
    return _binary("LessEqual", x, y, name, out_dtype=_dtypes.bool)


def greater(x, y, name=None):
    """x > y elementwise (bool result, broadcasting)."""
    return _binary("Greater", x, y, name, out_dtype=_dtypes.bool)


def greater_equal(x, y, name=None):
    """x >= y elementwise (bool result, broadcasting)."""
    return _binary("GreaterEqual", x, y, name, out_dtype=_dtypes.bool)


def _logical(op_type, x, y, name):
    with name_scope(name, op_type, [x, y]) as scope:
        x, y = _convert_pair(x, y, op_type)
        _check_dtype(op_type, x, _BOOL)
        return apply_op(op_type, [x, y], {}, name=scope)


def logical_and(x, y, name=None):
    """x AND y elementwise for bool tensors."""
    return _logical("LogicalAnd", x, y, name)


def logical_or(x, y, name=None):
    """x OR y elementwise for bool tensors."""
    return _logical("LogicalOr", x, y, name)


def logical_not(x, name=None):
    """NOT x elementwise for a bool tensor."""
    with name_scope(name, "LogicalNot", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        _check_dtype("LogicalNot", x, _BOOL)
        return apply_op("LogicalNot", [x], {}, name=scope)


def logical_xor(x, y, name="LogicalXor"):
    """x XOR y elementwise for bool tensors: (x OR y) AND NOT (x AND y)."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def _merge_shapes(a, b):
    """TF's shape Merge: same rank and compatible dimensions, with TF's error text."""
    if a.ndims is None:
        return b
    if b.ndims is None:
        return a
    if a.ndims != b.ndims:
        raise ValueError(f"Shapes must be equal rank, but are {a.ndims} and {b.ndims}")
    for i, (da, db) in enumerate(zip(a.as_list(), b.as_list())):
        if da is not None and db is not None and da != db:
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {da} and "
                             f"{db}")
    return a.merge_with(b)


class Select(OpDef):
    """out = x where condition is true, else y. condition has x's shape, or is a scalar, or
    a vector that picks whole rows (entries of x's first dimension)."""

    def shape(op):
        cond, x, y = (t.get_shape() for t in op.inputs)
        data = _merge_shapes(x, y)
        if cond.ndims is None or data.ndims is None or cond.ndims == 0:
            return data
        if cond.ndims != 1 or data.ndims == 0:
            return _merge_shapes(data, cond)
        _merge_shapes(cond, TensorShape([data[0]]))
        return data

    def kernel(condition, x, y, T=None):
        if np.shape(x) != np.shape(y):
            raise errors.InvalidArgumentError(
                None, None, f"'then' and 'else' must have the same size. but received: "
                f"{_shape_text(np.shape(x))} vs. {_shape_text(np.shape(y))}")
        if condition.ndim == 1 and np.ndim(x) > 1 and len(condition) == np.shape(x)[0]:
            condition = condition.reshape((-1,) + (1,) * (np.ndim(x) - 1))
        elif condition.ndim != 0 and condition.shape != np.shape(x):
            raise errors.InvalidArgumentError(
                None, None, f"'condition' must be a scalar, a vector of the first dimension "
                f"of 'then', or have the shape of 'then'; got {_shape_text(condition.shape)} "
                f"and {_shape_text(np.shape(x))}")
        return np.where(condition, x, y)

    def gradient(op, grad):
        from .array_ops import zeros_like
        cond = op.inputs[0]
        zeros = zeros_like(grad)
        return [None, where(cond, grad, zeros), where(cond, zeros, grad)]


class Where(OpDef):
    """The coordinates of the true (non-zero) elements: int64 of shape [count, rank]."""
    differentiable = False

    def shape(op):
        rank = op.inputs[0].get_shape().ndims
        return TensorShape([None, rank])

    def kernel(condition, T=None):
        return np.argwhere(condition).astype(np.int64, copy=False)


def where(condition, x=None, y=None, name=None):
    """With only `condition`: the int64 coordinates [N, rank] of its true elements.
    With x and y: elements of x where condition is true, else of y (TF-1 rules: condition
    has x's shape, or is a vector over x's first dimension)."""
    if x is None and y is None:
        with name_scope(name, "Where", [condition]) as scope:
            condition = convert_to_tensor(condition, preferred_dtype=_dtypes.bool,
                                          name="condition")
            return apply_op("Where", [condition], {"T": condition.dtype.base_dtype},
                            name=scope, output_dtypes=[_dtypes.int64])
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    with name_scope(name, "Select", [condition, x, y]) as scope:
        condition = convert_to_tensor(condition, dtype=_dtypes.bool, name="condition")
        x, y = _convert_pair(x, y, "Select")
        return apply_op("Select", [condition, x, y], {"T": x.dtype.base_dtype}, name=scope,
                        output_dtypes=[x.dtype.base_dtype])


# ===================================================================================
# Type conversion
# ===================================================================================

class Cast(OpDef):
    """y = x converted to DstT (floats to integers round toward zero)."""
    shape = unchanged_shape

    def kernel(x, SrcT=None, DstT=None, Truncate=False):  # noqa: N803 -- TF's attr names
        return np.asarray(x, dtype=DstT.as_numpy_dtype)

    def gradient(op, grad):
        src = op.inputs[0].dtype.base_dtype
        if src.is_floating and grad.dtype.base_dtype.is_floating:
            return [cast(grad, src)]
        return [None]


def cast(x, dtype, name=None):
    """x converted to `dtype` (returns x itself when it already has that dtype)."""
    base_type = _dtypes.as_dtype(dtype).base_dtype
    if isinstance(x, Tensor) and x.dtype == base_type:
        return x
    with name_scope(name, "Cast", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        src = x.dtype.base_dtype
        if src == base_type:
            return x
        if _dtypes.string in (src, base_type):
            raise TypeError(f"Cannot cast {x.name!r} from {src.name} to {base_type.name}: "
                            "casting to or from strings is not supported.")
        return apply_op("Cast", [x], {"SrcT": src, "DstT": base_type, "Truncate": False},
                        name=scope, output_dtypes=[base_type])


def to_float(x, name="ToFloat"):
    """cast(x, tf.float32) (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.float32, name=name)


def to_double(x, name="ToDouble"):
    """cast(x, tf.float64) (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.float64, name=name)


def to_int32(x, name="ToInt32"):
    """cast(x, tf.int32) (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
    """cast(x, tf.int64) (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.int64, name=name)


def saturate_cast(value, dtype, name=None):
    """cast(value, dtype), first clipping value to the range dtype can hold."""
    with name_scope(name, "saturate_cast", [value]) as scope:
        value = convert_to_tensor(value, name="value")
        dtype = _dtypes.as_dtype(dtype).base_dtype
        src = value.dtype.base_dtype
        if src.min < dtype.min:
            value = maximum(value, np.asarray(dtype.min).astype(src.as_numpy_dtype))
        if src.max > dtype.max:
            value = minimum(value, np.asarray(dtype.max).astype(src.as_numpy_dtype))
        return cast(value, dtype, name=scope)


# ===================================================================================
# Sequences
# ===================================================================================

class LinSpace(OpDef):
    """num evenly spaced values from start to stop (both included)."""
    differentiable = False

    def shape(op):
        num = _constant_value(op.inputs[2])
        return TensorShape([None if num is None else int(num)])

    def kernel(start, stop, num, T=None, Tidx=None):
        return np.linspace(start, stop, int(num), dtype=start.dtype)


def lin_space(start, stop, num, name=None):
    """num evenly spaced values from start to stop (both included)."""
    with name_scope(name, "LinSpace", [start, stop]) as scope:
        start, stop = _convert_pair(start, stop, "LinSpace")
        _check_dtype("LinSpace", start, _FLOATS, arg="start")
        num = convert_to_tensor(num, name="num")
        return apply_op("LinSpace", [start, stop, num], {"T": start.dtype.base_dtype,
                                                         "Tidx": num.dtype.base_dtype},
                        name=scope)


linspace = lin_space


# ===================================================================================
# Python operators on Tensors: x + y, x * 2, a @ b, -x, x < y ... (as TF math_ops does)
# ===================================================================================

def _override_binary_operator(func, op_name):
    """Installs Tensor.__<op_name>__ and Tensor.__r<op_name>__ calling func(x, y, name)."""

    def binary_op_wrapper(x, y):
        with name_scope(None, op_name, [x, y]) as name:
            if not _is_tensor_like(y):
                try:
                    y = convert_to_tensor(y, dtype=x.dtype.base_dtype, name="y")
                except TypeError:
                    # Maybe y knows how to combine itself with a tensor (y.__radd__ ...).
                    if hasattr(type(y), f"__r{op_name}__"):
                        return NotImplemented
                    raise
            return func(x, y, name=name)

    def r_binary_op_wrapper(y, x):
        with name_scope(None, op_name, [x, y]) as name:
            x = convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
            return func(x, y, name=name)

    Tensor._override_operator(f"__{op_name}__", binary_op_wrapper)
    Tensor._override_operator(f"__r{op_name}__", r_binary_op_wrapper)


def _and(x, y, name=None):
    return logical_and(x, y, name=name)


def _or(x, y, name=None):
    return logical_or(x, y, name=name)


def _xor(x, y, name=None):
    return logical_xor(x, y, name=name)


_override_binary_operator(add, "add")
_override_binary_operator(subtract, "sub")
_override_binary_operator(multiply, "mul")
_override_binary_operator(div, "div")
_override_binary_operator(truediv, "truediv")
_override_binary_operator(floordiv, "floordiv")
_override_binary_operator(floormod, "mod")
_override_binary_operator(pow, "pow")
_override_binary_operator(matmul, "matmul")
_override_binary_operator(_and, "and")
_override_binary_operator(_or, "or")
_override_binary_operator(_xor, "xor")
Tensor._override_operator("__neg__", negative)
Tensor._override_operator("__abs__", abs)
Tensor._override_operator("__invert__", logical_not)
Tensor._override_operator("__lt__", less)
Tensor._override_operator("__le__", less_equal)
Tensor._override_operator("__gt__", greater)
Tensor._override_operator("__ge__", greater_equal)
