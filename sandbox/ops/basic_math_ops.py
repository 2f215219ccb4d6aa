"""Basic math functions -- y = f(x) elementwise (exp, log, sqrt, sigmoid, tanh, erf ...) and
maximum, minimum and squared_difference: the part of TensorFlow's math_ops
(python/ops/math_ops.py, gradients in ops/math_grad.py) that the TF guide calls "Basic Math
Functions". Their kernels are NumPy's ufuncs (erf's is SciPy's, when it is installed).

The gradient of y = f(x) is grad * f'(x). Where f' is best written with y itself, TF has a
*fused* gradient op that takes (y, grad), and so does the sandbox: SigmoidGrad computes
grad * y * (1 - y) in one op, not three. Negation and rounding are with the arithmetic in
ops/math_ops.py, whose helpers build the ops here.
"""
import math

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import Tensor, convert_to_tensor
from .comparison_ops import greater_equal, less_equal, where
from .math_ops import (_COMPLEX, _FLOATS, _NUMBERS, _BinaryOp, _UnaryOp, _binary, _broadcasting,
                       _conj, _mismatch, _real_div, _unary, _unbroadcast, add, multiply,
                       negative, realdiv, subtract)

__all__ = ["maximum", "minimum", "squared_difference", "square", "sqrt", "rsqrt", "exp",
           "expm1", "log", "log1p", "abs", "sign", "reciprocal", "inv", "sin", "cos", "tanh",
           "sigmoid", "erf", "is_nan", "is_inf", "is_finite"]


# ===================================================================================
# maximum, minimum, squared_difference
# ===================================================================================

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


def maximum(x, y, name=None):
    """max(x, y) elementwise, with broadcasting."""
    return _binary("Maximum", x, y, name)


def minimum(x, y, name=None):
    """min(x, y) elementwise, with broadcasting."""
    return _binary("Minimum", x, y, name)


def squared_difference(x, y, name=None):
    """(x - y) ** 2 elementwise, with broadcasting."""
    return _binary("SquaredDifference", x, y, name)


# ===================================================================================
# Functions of x
# ===================================================================================

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
        return [multiply(grad, _conj(op.outputs[0]))]      # complex: grad * conj(y), as TF


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
        return [realdiv(grad, _conj(op.inputs[0]))]        # complex: grad / conj(x), as TF


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
    """e ** x elementwise (complex too: e^(a + ib) = e^a (cos b + i sin b))."""
    return _unary("Exp", x, name, allowed=_FLOATS + _COMPLEX)


def expm1(x, name=None):
    """e ** x - 1 elementwise."""
    return _unary("Expm1", x, name)


def log(x, name=None):
    """Natural logarithm elementwise (log(0) = -inf; complex: the principal branch)."""
    return _unary("Log", x, name, allowed=_FLOATS + _COMPLEX)


def log1p(x, name=None):
    """log(1 + x) elementwise."""
    return _unary("Log1p", x, name)


def abs(x, name=None):  # noqa: A001 -- TF's name
    """|x| elementwise; of a complex tensor, its real magnitude (TF's ComplexAbs, defined in
    ops/complex_ops.py and built here by its name, so that this module does not import that
    one)."""
    x = convert_to_tensor(x, name="x")
    dtype = x.dtype.base_dtype
    if dtype.is_complex:
        with name_scope(name, "Abs", [x]) as scope:
            return apply_op("ComplexAbs", [x], {"T": dtype, "Tout": dtype.real_dtype},
                            name=scope, output_dtypes=[dtype.real_dtype])
    return _unary("Abs", x, name, allowed=_NUMBERS)


def sign(x, name=None):
    """-1, 0 or 1 elementwise."""
    return _unary("Sign", x, name, allowed=_NUMBERS)


def reciprocal(x, name=None):
    """1 / x elementwise."""
    return _unary("Reciprocal", x, name, allowed=_NUMBERS)


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


inv = reciprocal

Tensor._override_operator("__abs__", abs)
