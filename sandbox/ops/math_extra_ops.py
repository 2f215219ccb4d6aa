"""The rest of tf.math that tutorials meet -- mirrors parts of TensorFlow 1.x's
python/ops/math_ops.py (trigonometry, cumprod, cumulative_logsumexp, polyval, nextafter,
the *_no_nan divisions, xlogy,
reduce_variance, reduce_std, reduce_euclidean_norm, unsorted_segment_sum, segment_sum),
python/ops/check_ops.py (is_non_decreasing, is_strictly_increasing), python/ops/nn_impl
(log_sigmoid) and python/ops/confusion_matrix.py, with the gradients of ops/math_grad.py.

These are reached as tf.math.* (sandbox/api/math.py). The elementwise functions are ops with a
NumPy kernel and a gradient, like those of basic_math_ops.py; the others are built from
existing ops, so their gradients come for free:

    divide_no_nan(x, y)  = where(y == 0, 0, x / y)       (0 instead of inf or NaN)
    reduce_variance(x)   = reduce_mean(squared_difference(x, reduce_mean(x)))
    confusion_matrix(labels, predictions)[i, j] = how many examples of class i were
                                                   predicted as class j
"""
import math

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from . import array_ops, basic_math_ops, comparison_ops, math_ops, nn_ops
from . import reduction_ops, slicing_ops
from .indexing_ops import unsorted_segment_sum
from .math_ops import _BinaryOp, _binary, _broadcasting, _UnaryOp, _unary, _unbroadcast

__all__ = []   # no tf.* names: these are reached as tf.math.* (sandbox/api/math.py)

_mul, _add, _sub, _div = math_ops.multiply, math_ops.add, math_ops.subtract, math_ops.realdiv
_sqr, _sqrt = basic_math_ops.square, basic_math_ops.sqrt


# -- trigonometry and friends ------------------------------------------------------------

class Tan(_UnaryOp):
    """y = tan(x); dy/dx = 1 + tan(x)^2 = 1 / cos(x)^2"""
    def kernel(x, T=None):
        return np.tan(x)

    def gradient(op, grad):
        return [_div(grad, _sqr(basic_math_ops.cos(op.inputs[0])))]


class Sinh(_UnaryOp):
    """y = sinh(x); dy/dx = cosh(x)"""
    def kernel(x, T=None):
        return np.sinh(x)

    def gradient(op, grad):
        return [_mul(grad, cosh(op.inputs[0]))]


class Cosh(_UnaryOp):
    """y = cosh(x); dy/dx = sinh(x)"""
    def kernel(x, T=None):
        return np.cosh(x)

    def gradient(op, grad):
        return [_mul(grad, sinh(op.inputs[0]))]


class Asin(_UnaryOp):
    """y = asin(x); dy/dx = 1 / sqrt(1 - x^2)"""
    def kernel(x, T=None):
        return np.arcsin(x)

    def gradient(op, grad):
        return [_mul(grad, basic_math_ops.rsqrt(_sub(1.0, _sqr(op.inputs[0]))))]


class Acos(_UnaryOp):
    """y = acos(x); dy/dx = -1 / sqrt(1 - x^2)"""
    def kernel(x, T=None):
        return np.arccos(x)

    def gradient(op, grad):
        return [math_ops.negative(
            _mul(grad, basic_math_ops.rsqrt(_sub(1.0, _sqr(op.inputs[0])))))]


class Atan(_UnaryOp):
    """y = atan(x); dy/dx = 1 / (1 + x^2)"""
    def kernel(x, T=None):
        return np.arctan(x)

    def gradient(op, grad):
        return [_div(grad, _add(1.0, _sqr(op.inputs[0])))]


class Asinh(_UnaryOp):
    """y = asinh(x); dy/dx = 1 / cosh(y)"""
    def kernel(x, T=None):
        return np.arcsinh(x)

    def gradient(op, grad):
        return [_div(grad, cosh(op.outputs[0]))]


class Acosh(_UnaryOp):
    """y = acosh(x); dy/dx = 1 / sinh(y)"""
    def kernel(x, T=None):
        return np.arccosh(x)

    def gradient(op, grad):
        return [_div(grad, sinh(op.outputs[0]))]


class Atanh(_UnaryOp):
    """y = atanh(x); dy/dx = 1 / (1 - x^2)"""
    def kernel(x, T=None):
        return np.arctanh(x)

    def gradient(op, grad):
        return [_div(grad, _sub(1.0, _sqr(op.inputs[0])))]


class Atan2(_BinaryOp):
    """z = atan2(y, x), the angle of the point (x, y); dz/dy = x / (x^2 + y^2),
    dz/dx = -y / (x^2 + y^2)."""
    kernel = _broadcasting(np.arctan2)

    def gradient(op, grad):
        y, x = op.inputs
        g = _div(grad, _add(_sqr(x), _sqr(y)))
        return [_unbroadcast(_mul(g, x), y, x), _unbroadcast(math_ops.negative(_mul(g, y)), x, y)]


def _np_erfc(x):
    try:
        from scipy.special import erfc as f
    except ImportError:                 # pragma: no cover - depends on the environment
        f = np.vectorize(math.erfc, otypes=[np.float64])
    return f(x)


class Erfc(_UnaryOp):
    """y = erfc(x) = 1 - erf(x); dy/dx = -2/sqrt(pi) * exp(-x^2)"""
    def kernel(x, T=None):
        return np.asarray(_np_erfc(x), dtype=x.dtype)

    def gradient(op, grad):
        x = op.inputs[0]
        factor = basic_math_ops.exp(math_ops.negative(_sqr(x)))
        return [_mul(grad, _mul(factor, -2 / math.sqrt(math.pi)))]


def tan(x, name=None):
    return _unary("Tan", x, name)


def sinh(x, name=None):
    return _unary("Sinh", x, name)


def cosh(x, name=None):
    return _unary("Cosh", x, name)


def asin(x, name=None):
    return _unary("Asin", x, name)


def acos(x, name=None):
    return _unary("Acos", x, name)


def atan(x, name=None):
    return _unary("Atan", x, name)


def asinh(x, name=None):
    return _unary("Asinh", x, name)


def acosh(x, name=None):
    return _unary("Acosh", x, name)


def atanh(x, name=None):
    return _unary("Atanh", x, name)


def atan2(y, x, name=None):
    """The angle of the point (x, y) from the x axis, in (-pi, pi]. Note the order: y first."""
    return _binary("Atan2", y, x, name, allowed=math_ops._FLOATS)


def erfc(x, name=None):
    return _unary("Erfc", x, name)


def log_sigmoid(x, name=None):
    """log(sigmoid(x)) = -softplus(-x), computed without overflow."""
    with name_scope(name, "LogSigmoid", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return math_ops.negative(nn_ops.softplus(math_ops.negative(x)), name=scope)


# -- cumprod, cumulative_logsumexp ------------------------------------------------------------

def _scan(accumulate, start, x, axis, exclusive, reverse):
    """A running `accumulate` (a ufunc's .accumulate) along `axis`; `exclusive` shifts it by
    one, starting with `start` (1 for a product, -inf for a log-sum-exp); `reverse` runs it
    from the end."""
    axis = int(axis)
    if not -x.ndim <= axis < max(x.ndim, 1):
        raise errors.InvalidArgumentError(None, None, f"axis {axis} is out of range for a "
                                          f"tensor of rank {x.ndim}")
    if reverse:
        x = np.flip(x, axis)
    out = accumulate(x, axis=axis, dtype=x.dtype)
    if exclusive:
        out = np.concatenate([np.full_like(np.take(out, [0], axis), start),
                              np.delete(out, -1, axis)], axis)
    return np.flip(out, axis) if reverse else out

class Cumprod(OpDef):
    """The cumulative product along `axis` (exclusive: starts with 1; reverse: from the end)."""

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(x, axis, exclusive=False, reverse=False, T=None, Tidx=None):
        return _scan(np.multiply.accumulate, 1, x, axis, exclusive, reverse)

    def gradient(op, grad):
        # TF's rule (math_grad.py): cumsum(prod * grad, reversed) / x (not defined where x == 0)
        x, axis = op.inputs
        exclusive, reverse = op.get_attr("exclusive"), op.get_attr("reverse")
        out = reduction_ops.cumsum(_mul(op.outputs[0], grad), axis, exclusive=exclusive,
                                   reverse=not reverse)
        return [_div(out, x), None]


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """The cumulative product of x along `axis`: [a, b, c] -> [a, a * b, a * b * c]."""
    with name_scope(name, "Cumprod", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        axis = convert_to_tensor(axis, name="axis", preferred_dtype=_dtypes.int32)
        return apply_op("Cumprod", [x, axis], {"exclusive": bool(exclusive),
                                               "reverse": bool(reverse),
                                               "T": x.dtype.base_dtype,
                                               "Tidx": axis.dtype.base_dtype}, name=scope)


class CumulativeLogsumexp(OpDef):
    """log(cumsum(exp(x))) along `axis`, computed stably (np.logaddexp step by step);
    exclusive starts at log(0) = -inf."""

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(x, axis, exclusive=False, reverse=False, T=None, Tidx=None):
        return _scan(np.logaddexp.accumulate, -np.inf, x, axis, exclusive, reverse)

    def gradient(op, grad):
        # TF's rule (math_grad.py): d out_j / d x_i = exp(x_i - out_j) for the j that sum
        # x_i, so dx = exp(x + cumulative_logsumexp(log(grad) - out, the other way)). The
        # incoming gradient is split into its positive and negative parts to take logs.
        x, axis = op.inputs
        out = op.outputs[0]
        exclusive, reverse = op.get_attr("exclusive"), op.get_attr("reverse")
        lowest = np.asarray(grad.dtype.base_dtype.min, grad.dtype.base_dtype.as_numpy_dtype)

        def part(mask, magnitude):
            safe = comparison_ops.where(mask, magnitude, array_ops.ones_like(magnitude))
            log_part = comparison_ops.where(mask, basic_math_ops.log(safe),
                                            _add(array_ops.zeros_like(grad), lowest))
            summed = cumulative_logsumexp(_sub(log_part, out), axis, exclusive=exclusive,
                                          reverse=not reverse)
            return basic_math_ops.exp(_add(summed, x))

        zero = array_ops.zeros_like(grad)
        positive = part(comparison_ops.greater(grad, zero), grad)
        negative = part(comparison_ops.less(grad, zero), math_ops.negative(grad))
        return [_sub(positive, negative), None]


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis` without overflow: [a, b] -> [a, log(e^a + e^b)]."""
    with name_scope(name, "CumulativeLogsumexp", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        math_ops._check_dtype("CumulativeLogsumexp", x, math_ops._FLOATS)
        axis = convert_to_tensor(axis, name="axis", preferred_dtype=_dtypes.int32)
        return apply_op("CumulativeLogsumexp", [x, axis],
                        {"exclusive": bool(exclusive), "reverse": bool(reverse),
                         "T": x.dtype.base_dtype, "Tidx": axis.dtype.base_dtype}, name=scope)


# -- polyval, nextafter ---------------------------------------------------------------------

def polyval(coeffs, x, name=None):
    """The polynomial coeffs[0] * x^(n-1) + ... + coeffs[n-1] at x, by Horner's rule
    (p = coeffs[0]; p = c + p * x for the others), as TF builds it from Mul and Add ops.
    `coeffs` must be a Python list (of tensors or numbers); an empty list gives zeros."""
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type found {type(coeffs)}.")
    with name_scope(name, "polyval", coeffs + [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if not coeffs:
            return array_ops.zeros_like(x, name=scope)
        coeffs = [convert_to_tensor(c, name=f"coeff_{i}") for i, c in enumerate(coeffs)]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x                  # (the operators name the ops 'mul', 'add' as TF)
        return p


class NextAfter(_BinaryOp):
    """z = the next float after x1 in the direction of x2 (np.nextafter); no gradient."""
    differentiable = False
    kernel = _broadcasting(np.nextafter)


def nextafter(x1, x2, name=None):
    """The next representable float32/float64 value after x1 towards x2, elementwise."""
    return _binary("NextAfter", x1, x2, name, allowed=(_dtypes.float32, _dtypes.float64))


# -- safe divisions ------------------------------------------------------------------------

def _like(cond, like):
    """Bool cond broadcast to the shape of tensor `like`."""
    if cond.get_shape().is_fully_defined() and cond.get_shape() == like.get_shape():
        return cond
    spread = _add(array_ops.zeros_like(like), math_ops.cast(cond, like.dtype.base_dtype))
    return comparison_ops.greater(spread, array_ops.zeros_like(spread))


def _zero_where(cond_on_x, op, x, y, name, default_name):
    """op(x, y), but 0 wherever x (cond_on_x) or y is 0; the zero divisor or log argument
    is replaced by 1 first, so no inf or NaN reaches the value or the gradient."""
    with name_scope(name, default_name, [x, y]) as scope:
        x, y = math_ops._convert_pair(x, y, default_name)
        if cond_on_x and not (x.get_shape().is_fully_defined()
                              and x.get_shape() == y.get_shape()):
            x, y = _add(x, array_ops.zeros_like(y)), _add(y, array_ops.zeros_like(x))
        zero = comparison_ops.equal(x if cond_on_x else y,
                                    array_ops.zeros_like(x if cond_on_x else y))
        if op is _mul and not cond_on_x:
            safe_y = y
        else:
            safe_y = comparison_ops.where(_like(zero, y), array_ops.ones_like(y), y)
        result = op(x, safe_y)
        return comparison_ops.where(_like(zero, result), array_ops.zeros_like(result), result,
                                    name=scope)


_SAFE_TYPES = math_ops._FLOATS + math_ops._COMPLEX


def _div_no_nan(x, y):
    zero = y == 0
    return np.where(zero, 0, x / np.where(zero, 1, y))


class DivNoNan(_BinaryOp):
    """z = x / y, and 0 wherever y is 0 (TF's DivNoNan: no inf, no NaN)."""
    kernel = _broadcasting(_div_no_nan)

    def gradient(op, grad):                   # TF's _DivNoNanGrad
        x, y = op.inputs
        cx, cy = math_ops._conj(x), math_ops._conj(y)
        return [_unbroadcast(divide_no_nan(grad, cy), x, y),
                _unbroadcast(_mul(grad, divide_no_nan(divide_no_nan(math_ops.negative(cx), cy),
                                                      cy)), y, x)]


class MulNoNan(_BinaryOp):
    """z = x * y, and 0 wherever y is 0, even where x is inf or NaN (TF's MulNoNan)."""
    kernel = _broadcasting(lambda x, y: np.where(y == 0, 0, x * y))

    def gradient(op, grad):                   # TF's _MulNoNanGrad
        x, y = op.inputs
        return [_unbroadcast(multiply_no_nan(grad, y), x, y),
                _unbroadcast(multiply_no_nan(x, grad), y, x)]


def divide_no_nan(x, y, name=None):
    """x / y, but 0 wherever y is 0 (no inf, no NaN; the gradient is 0 there too). Integers
    are first cast as true division casts them (int32 -> float64), as TF's wrapper does."""
    with name_scope(name, "div_no_nan", [x, y]) as scope:
        x, y = math_ops._convert_pair(x, y, "DivNoNan")
        dtype = x.dtype.base_dtype
        if dtype in math_ops._TRUEDIV_TABLE:
            x = math_ops.cast(x, math_ops._TRUEDIV_TABLE[dtype])
            y = math_ops.cast(y, math_ops._TRUEDIV_TABLE[dtype])
        return _binary("DivNoNan", x, y, scope, allowed=_SAFE_TYPES)


def reciprocal_no_nan(x, name=None):
    """1 / x, but 0 wherever x is 0."""
    with name_scope(name, "reciprocal_no_nan", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return divide_no_nan(array_ops.ones_like(x), x, name=scope)


def multiply_no_nan(x, y, name=None):
    """x * y, but 0 wherever y is 0 (even where x is inf or NaN)."""
    return _binary("MulNoNan", x, y, name or "multiply_no_nan", allowed=_SAFE_TYPES)


def xlogy(x, y, name=None):
    """x * log(y), but 0 wherever x is 0 (even where y is 0)."""
    return _zero_where(True, lambda a, b: _mul(a, basic_math_ops.log(b)), x, y, name, "xlogy")


def xdivy(x, y, name=None):
    """x / y, but 0 wherever x is 0 (even where y is 0)."""
    return _zero_where(True, _div, x, y, name, "xdivy")


# -- reductions built from others -----------------------------------------------------------

def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):  # noqa: A002
    """The variance of the entries along `axis` (all when None): mean((x - mean(x))^2)."""
    with name_scope(name, "reduce_variance", [input_tensor]) as scope:
        x = convert_to_tensor(input_tensor, name="input_tensor")
        means = reduction_ops.reduce_mean(x, axis, keepdims=True)
        squared = basic_math_ops.squared_difference(x, means)
        return reduction_ops.reduce_mean(squared, axis, keepdims=keepdims, name=scope)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):  # noqa: A002
    """The standard deviation along `axis`: sqrt(reduce_variance)."""
    with name_scope(name, "reduce_std", [input_tensor]) as scope:
        return _sqrt(reduce_variance(input_tensor, axis, keepdims), name=scope)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):  # noqa: A002
    """sqrt(sum(x^2)) along `axis` (all when None)."""
    with name_scope(name, "reduce_euclidean_norm", [input_tensor]) as scope:
        x = convert_to_tensor(input_tensor, name="input_tensor")
        return _sqrt(reduction_ops.reduce_sum(_sqr(x), axis, keepdims), name=scope)


def _pairwise_all(x, compare, name, default_name):
    """reduce_all(compare(x[1:], x[:-1])) over x flattened (True for fewer than 2 entries)."""
    with name_scope(name, default_name, [x]) as scope:
        flat = array_ops.reshape(convert_to_tensor(x, name="x"), [-1])
        size = array_ops.size(flat)
        rest = slicing_ops.slice(flat, [1], array_ops.stack([size - 1]))
        head = slicing_ops.slice(flat, [0], array_ops.stack([size - 1]))
        return reduction_ops.reduce_all(compare(rest, head), name=scope)


def is_non_decreasing(x, name=None):
    """True when every entry of x (flattened) is >= the one before it."""
    return _pairwise_all(x, comparison_ops.greater_equal, name, "is_non_decreasing")


def is_strictly_increasing(x, name=None):
    """True when every entry of x (flattened) is > the one before it."""
    return _pairwise_all(x, comparison_ops.greater, name, "is_strictly_increasing")


# -- segments and the confusion matrix -----------------------------------------------------

def segment_sum(data, segment_ids, name=None):
    """Like unsorted_segment_sum for sorted ids: the result has ids[-1] + 1 rows."""
    with name_scope(name, "SegmentSum", [data, segment_ids]) as scope:
        ids = convert_to_tensor(segment_ids, name="segment_ids")
        n = _add(reduction_ops.reduce_max(ids), 1)
        return unsorted_segment_sum(data, ids, math_ops.cast(n, _dtypes.int32), name=scope)


def confusion_matrix(labels, predictions, num_classes=None, weights=None,
                     dtype=_dtypes.int32, name=None):
    """The [num_classes, num_classes] matrix whose entry [i, j] counts (or sums the weights of)
    the examples of label i predicted as j. num_classes defaults to
    max(max(labels), max(predictions)) + 1."""
    with name_scope(name, "confusion_matrix", [predictions, labels, num_classes, weights]):
        labels = math_ops.cast(convert_to_tensor(labels, name="labels"), _dtypes.int64)
        predictions = math_ops.cast(convert_to_tensor(predictions, name="predictions"),
                                    _dtypes.int64)
        if num_classes is None:
            num_classes = _add(basic_math_ops.maximum(reduction_ops.reduce_max(labels),
                                                      reduction_ops.reduce_max(predictions)), 1)
        else:
            num_classes = math_ops.cast(convert_to_tensor(num_classes), _dtypes.int64)
        values = array_ops.ones_like(predictions, dtype=dtype) if weights is None else \
            math_ops.cast(convert_to_tensor(weights, name="weights"), dtype)
        cell = _add(_mul(labels, num_classes), predictions)
        n = math_ops.cast(_mul(num_classes, num_classes), _dtypes.int32)
        flat = unsorted_segment_sum(values, cell, n)
        size = math_ops.cast(num_classes, _dtypes.int32)
        return array_ops.reshape(flat, array_ops.stack([size, size]))
