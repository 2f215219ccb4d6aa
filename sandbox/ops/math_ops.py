"""Math ops: arithmetic -- mirrors TensorFlow's math_ops (python/ops/math_ops.py, and the
gradients of ops/math_grad.py), the part the TF guide calls "Arithmetic Operators".

Every function here adds one node (or a few) to the graph; nothing is computed until a Session
runs it. Elementwise binary ops (`add`, `multiply`, `pow` ...) follow NumPy *broadcasting*:
shapes are lined up from the right and a dimension of size 1 stretches to match the other, so
`[batch, 10] + [10]` adds a bias to every row. The gradient of a broadcast input therefore has
to be *summed back* over the dimensions it was stretched along (the `SumToShape` helper op).

The Python operators on tensors (`x + y`, `x * 2`, `x ** 2`, `-x` ...) are wired to these
functions at the bottom of this file, as TF does (the others beside their ops: `a @ b` in
matmul_ops.py, `x < y` in comparison_ops.py, `abs(x)` in basic_math_ops.py). The right-hand
Python value takes the dtype of the tensor (`x + 1` is float32 for a float32 `x`), but two
tensors of different dtypes never mix silently: use `tf.cast`.

TF's math_ops.py is one long file; the sandbox's math is five, which build their ops with the
helpers at the top of this one:

    ops/math_ops.py         arithmetic (+ - * / // % **), negation and rounding, add_n, cast
    ops/basic_math_ops.py   functions of x: exp, log, sqrt, sigmoid, tanh ...; maximum, minimum
    ops/comparison_ops.py   equal, x < y, logical_and ..., where
    ops/reduction_ops.py    reduce_sum, reduce_mean ..., argmax, cumsum
    ops/matmul_ops.py       matmul, a @ b
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import const_op_value, is_tensor_like, shape_text

__all__ = [
    # arithmetic
    "add", "subtract", "sub", "multiply", "mul", "divide", "truediv", "div", "realdiv",
    "floordiv", "floor_div", "floormod", "mod", "truncatediv", "truncatemod", "pow",
    "scalar_mul", "add_n", "accumulate_n",
    # negation and rounding
    "negative", "neg", "floor", "ceil", "round", "rint",
    # dtypes
    "cast", "to_float", "to_double", "to_int32", "to_int64", "to_bfloat16", "to_complex64",
    "to_complex128",
    "saturate_cast",
    "lin_space", "linspace",
]

_FLOATS = (_dtypes.float16, _dtypes.float32, _dtypes.float64)
_INTS = (_dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64, _dtypes.uint8,
         _dtypes.uint16)
_NUMBERS = _FLOATS + _INTS
_BOOL = (_dtypes.bool,)
# Complex numbers (ops/complex_ops.py) take part in + - * /, pow, negation, exp, log, matmul,
# reduce_sum, reduce_mean and reduce_prod; the other ops of the sandbox keep to _NUMBERS.
_COMPLEX = (_dtypes.complex64, _dtypes.complex128)
_ARITH = _NUMBERS + _COMPLEX


# ===================================================================================
# Helpers shared by the ops
# ===================================================================================

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
    if is_tensor_like(x) or not is_tensor_like(y):
        x = convert_to_tensor(x, name="x")
        if not is_tensor_like(y):
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


def _conj(t):
    """conj(t) for a complex tensor, t itself otherwise: TF's gradients of a complex x * y
    (x / y) are grad * conj(y) ... The Conj op is defined in ops/complex_ops.py; it
    is built here by its name, so that this module does not import that one."""
    dtype = t.dtype.base_dtype
    if not dtype.is_complex:
        return t
    return apply_op("Conj", [t], {"T": dtype}, name="Conj")


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
                    None, None, f"Incompatible shapes: {shape_text(np.shape(x))} vs. "
                    f"{shape_text(np.shape(y))}") from None
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


class AddV2(Add):
    """Add under its TF 2 name: tf.add builds AddV2 in TensorFlow 2, so a graph TF 2.15 froze
    or exported holds it; the sandbox's own graphs use Add (TF 1.15's)."""


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
        cx, cy = _conj(x), _conj(y)
        return [_unbroadcast(multiply(grad, cy), x, y), _unbroadcast(multiply(cx, grad), y, x)]


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
        cx, cy = _conj(x), _conj(y)
        return [_unbroadcast(realdiv(grad, cy), x, y),
                _unbroadcast(multiply(grad, realdiv(realdiv(negative(cx), cy), cy)), y, x)]


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
        from .basic_math_ops import log           # (these modules import this one)
        from .comparison_ops import greater, where
        from .basic_math_ops import abs as magnitude
        x, y = op.inputs
        x, y, z = _conj(x), _conj(y), _conj(op.outputs[0])    # complex: TF's conjugates
        gx = multiply(grad, multiply(y, pow(x, subtract(y, 1))))
        # log(x) only where x > 0 (complex: x != 0): avoids a false NaN/inf at x = 0, as TF.
        mask = greater(magnitude(x), 0) if x.dtype.base_dtype.is_complex else greater(x, 0)
        log_x = where(mask, log(where(mask, x, ones_like(x))), zeros_like(x))
        gy = multiply(grad, multiply(z, log_x))
        return [_unbroadcast(gx, op.inputs[0], y), _unbroadcast(gy, op.inputs[1], x)]


def add(x, y, name=None):
    """x + y elementwise, with broadcasting."""
    return _binary("Add", x, y, name, allowed=_ARITH + (_dtypes.string,))


def subtract(x, y, name=None):
    """x - y elementwise, with broadcasting."""
    return _binary("Sub", x, y, name, allowed=_ARITH)


def multiply(x, y, name=None):
    """x * y elementwise, with broadcasting."""
    return _binary("Mul", x, y, name, allowed=_ARITH)


def realdiv(x, y, name=None):
    """x / y elementwise for real numbers (no integer-to-float conversion)."""
    return _binary("RealDiv", x, y, name, allowed=_ARITH)


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
        elif dtype not in _FLOATS + _COMPLEX:
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
        if x.dtype.base_dtype.is_floating or x.dtype.base_dtype.is_complex:
            return realdiv(x, y, name=scope)
        return floor_div(x, y, name=scope)


def pow(x, y, name=None):  # noqa: A001 -- TF's name
    """x ** y elementwise, with broadcasting (complex too: the principal branch)."""
    return _binary("Pow", x, y, name, allowed=_ARITH)


def scalar_mul(scalar, x, name=None):
    """scalar * x, where scalar is a 0-D value."""
    x = convert_to_tensor(x, name="x")
    scalar = convert_to_tensor(scalar, dtype=x.dtype.base_dtype, name="scalar")
    if scalar.get_shape().ndims not in (None, 0):
        raise ValueError(f"Only scalar multiply works, got shape {scalar.get_shape()}")
    return multiply(scalar, x, name=name)


sub, mul, mod = subtract, multiply, floormod


# ===================================================================================
# Negation and rounding: -x, floor, ceil, round, rint
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


def negative(x, name=None):
    """-x elementwise."""
    return _unary("Neg", x, name, allowed=_ARITH)


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


neg = negative


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
# Type conversion
# ===================================================================================

class Cast(OpDef):
    """y = x converted to DstT (floats to integers round toward zero)."""
    shape = unchanged_shape

    def kernel(x, SrcT=None, DstT=None, Truncate=False):  # noqa: N803 -- TF's attr names
        if np.iscomplexobj(x) and not DstT.is_complex:
            x = np.real(x)                   # TF keeps the real part, without NumPy's warning
        return np.asarray(x, dtype=DstT.as_numpy_dtype)

    def gradient(op, grad):
        src = op.inputs[0].dtype.base_dtype
        dst = grad.dtype.base_dtype
        if (src.is_floating or src.is_complex) and (dst.is_floating or dst.is_complex):
            return [cast(grad, src)]        # complex -> real takes the real part (TF's cast)
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


def to_bfloat16(x, name="ToBFloat16"):
    """cast(x, tf.bfloat16) (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.bfloat16, name=name)


def to_complex64(x, name="ToComplex64"):
    """cast(x, tf.complex64) (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.complex64, name=name)


def to_complex128(x, name="ToComplex128"):
    """cast(x, tf.complex128) (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.complex128, name=name)


def saturate_cast(value, dtype, name=None):
    """cast(value, dtype), first clipping value to the range dtype can hold."""
    with name_scope(name, "saturate_cast", [value]) as scope:
        from .basic_math_ops import maximum, minimum   # (that module imports this one)
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
        num = const_op_value(op.inputs[2])
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
# Python operators on Tensors: x + y, x * 2, x ** 2, -x ... (as TF math_ops does)
# ===================================================================================

def _override_binary_operator(func, op_name):
    """Installs Tensor.__<op_name>__ and Tensor.__r<op_name>__ calling func(x, y, name)."""

    def binary_op_wrapper(x, y):
        with name_scope(None, op_name, [x, y]) as name:
            if not is_tensor_like(y):
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


_override_binary_operator(add, "add")
_override_binary_operator(subtract, "sub")
_override_binary_operator(multiply, "mul")
_override_binary_operator(div, "div")
_override_binary_operator(truediv, "truediv")
_override_binary_operator(floordiv, "floordiv")
_override_binary_operator(floormod, "mod")
_override_binary_operator(pow, "pow")
Tensor._override_operator("__neg__", negative)
