"""Complex numbers -- mirrors the complex-number functions of TensorFlow 1.x's
python/ops/math_ops.py (complex, real, imag, conj, angle, and abs of a complex tensor, the
ComplexAbs op) and their gradients in python/ops/math_grad.py.

    z = tf.complex(re, im)     float32 parts -> complex64, float64 parts -> complex128
    tf.real(z), tf.imag(z)     the parts again (float32 for complex64 ...)
    tf.conj(z)                 re - i * im
    tf.angle(z)                atan2(im, re), in (-pi, pi]

On a real tensor TF's functions are cheap: tf.real(x) is x itself, tf.imag(x) zeros, tf.conj(x)
x, tf.angle(x) pi where x < 0 and 0 elsewhere -- no complex op is built.

Gradients follow TF's convention for a real loss L of a complex z = x + iy: the gradient that
reaches z is dL/dx + i dL/dy. So the gradient of real(z) is complex(g, 0), of imag(z)
complex(0, g), of conj(z) conj(g), of complex(x, y) the pair (real(g), imag(g)), and of
|z| g * z / |z| (0 at z = 0). The complex arithmetic (+ - * /) is in ops/math_ops.py, whose
gradients of x * y and x / y take conj(y), as TF's do.

tf.abs of a complex tensor builds ComplexAbs (ops/basic_math_ops.py), and tf.gradients passes
gradients into complex tensors, as TF's backprop_util.IsTrainable does.

matmul, exp, log, pow, reduce_sum, reduce_mean and reduce_prod take complex numbers too, with
TF's conjugate gradients; == and != compare them. Not yet as in TF: square, sqrt and the other
unary functions take real numbers only (their dtype lists in ops/basic_math_ops.py).
"""
import math

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import shape_text
from . import array_ops, comparison_ops, math_extra_ops, math_ops
from .math_ops import _broadcast_shape, _check_dtype, _unbroadcast

__all__ = ["complex", "real", "imag", "conj", "angle"]

_REAL_PARTS = (_dtypes.float32, _dtypes.float64)
_COMPLEX = (_dtypes.complex64, _dtypes.complex128)
_COMPLEX_OF = {_dtypes.float32: _dtypes.complex64, _dtypes.float64: _dtypes.complex128}


def _make_complex(re, im, Tout):  # noqa: N803 -- TF's attr name
    try:
        re, im = np.broadcast_arrays(re, im)
    except ValueError:
        raise errors.InvalidArgumentError(None, None, f"Incompatible shapes: "
                                          f"{shape_text(np.shape(re))} vs. "
                                          f"{shape_text(np.shape(im))}") from None
    out = np.empty(re.shape, dtype=Tout.as_numpy_dtype)
    out.real, out.imag = re, im          # (not re + 1j * im: inf * 1j would make a NaN)
    return out


class Complex(OpDef):
    """z = real + i * imag (broadcasting)."""
    shape = _broadcast_shape

    def kernel(real, imag, T=None, Tout=None):  # noqa: N803
        return _make_complex(real, imag, Tout)

    def gradient(op, grad):
        x, y = op.inputs
        return [_unbroadcast(real(grad), x, y), _unbroadcast(imag(grad), y, x)]


class _ComplexToReal(OpDef):
    abstract = True
    shape = unchanged_shape


class Real(_ComplexToReal):
    """The real part of a complex tensor."""
    def kernel(input, T=None, Tout=None):  # noqa: A002, N803 -- TF's names
        return np.real(input).astype(Tout.as_numpy_dtype)

    def gradient(op, grad):
        return [complex(grad, array_ops.zeros_like(grad))]


class Imag(_ComplexToReal):
    """The imaginary part of a complex tensor."""
    def kernel(input, T=None, Tout=None):  # noqa: A002, N803
        return np.imag(input).astype(Tout.as_numpy_dtype)

    def gradient(op, grad):
        return [complex(array_ops.zeros_like(grad), grad)]


class Angle(_ComplexToReal):
    """The argument of a complex number, atan2(imag, real)."""
    def kernel(input, T=None, Tout=None):  # noqa: A002, N803
        return np.angle(input).astype(Tout.as_numpy_dtype)

    def gradient(op, grad):
        # TF's _AngleGrad: -complex(grad, 0) * (1 / complex(imag(z), real(z))) -- in this
        # order, so that z = 0 gives TF's NaN.
        z = op.inputs[0]
        dtype = z.dtype.base_dtype
        inv = math_ops.realdiv(np.asarray(1, dtype.as_numpy_dtype), complex(imag(z), real(z)))
        return [math_ops.multiply(math_ops.negative(complex(grad, array_ops.zeros_like(grad))),
                                  inv)]


class ComplexAbs(_ComplexToReal):
    """|z| = sqrt(re ** 2 + im ** 2), a real tensor (what tf.abs builds for a complex one)."""
    def kernel(x, T=None, Tout=None):  # noqa: N803
        return np.abs(x).astype(Tout.as_numpy_dtype)

    def gradient(op, grad):
        # TF's _ComplexAbsGrad: div_no_nan(complex(grad, 0) * z, complex(|z|, 0)), computed
        # part by part (grad is real): 0 where z = 0.
        z, r = op.inputs[0], op.outputs[0]
        return [complex(math_extra_ops.divide_no_nan(math_ops.multiply(grad, real(z)), r),
                        math_extra_ops.divide_no_nan(math_ops.multiply(grad, imag(z)), r))]


class Conj(OpDef):
    """The complex conjugate, re - i * im."""
    shape = unchanged_shape

    def kernel(input, T=None):  # noqa: A002
        return np.conj(input)

    def gradient(op, grad):
        return [conj(grad)]


def complex(real, imag, name=None):  # noqa: A001 -- TF's name
    """real + i * imag: two float32 tensors make a complex64 one, two float64 a complex128."""
    with name_scope(name, "Complex", [real, imag]) as scope:
        re = convert_to_tensor(real, name="real")
        im = convert_to_tensor(imag, name="imag")
        dr, di = re.dtype.base_dtype, im.dtype.base_dtype
        if dr != di or dr not in _REAL_PARTS:
            raise TypeError(f"The `real` and `imag` components have incorrect types: "
                            f"{dr.name} {di.name}. They must be consistent, and one of "
                            "[tf.float32, tf.float64]")
        out = _COMPLEX_OF[dr]
        return apply_op("Complex", [re, im], {"T": dr, "Tout": out}, name=scope,
                        output_dtypes=[out])


def _to_real(op_type, x, scope):
    dtype = x.dtype.base_dtype
    return apply_op(op_type, [x], {"T": dtype, "Tout": dtype.real_dtype}, name=scope,
                    output_dtypes=[dtype.real_dtype])


def real(input, name=None):  # noqa: A002 -- TF's name
    """The real part of a complex tensor (float32 for complex64); a real tensor itself."""
    with name_scope(name, "Real", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        if x.dtype.base_dtype.is_complex:
            return _to_real("Real", x, scope)
        return x


def imag(input, name=None):  # noqa: A002
    """The imaginary part of a complex tensor; zeros for a real tensor."""
    with name_scope(name, "Imag", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        if x.dtype.base_dtype.is_complex:
            return _to_real("Imag", x, scope)
        return array_ops.zeros_like(x, name=scope)


def angle(input, name=None):  # noqa: A002
    """The argument atan2(imag, real) of a complex tensor; pi where a real tensor is < 0,
    0 elsewhere."""
    with name_scope(name, "Angle", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        if x.dtype.base_dtype.is_complex:
            return _to_real("Angle", x, scope)
        return comparison_ops.where(comparison_ops.less(x, 0),
                                    math_ops.multiply(array_ops.ones_like(x), math.pi),
                                    array_ops.zeros_like(x), name=scope)


def conj(x, name=None):
    """The complex conjugate re - i * im; a real tensor is returned as it is."""
    with name_scope(name, "Conj", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        dtype = x.dtype.base_dtype
        if dtype.is_complex:
            return apply_op("Conj", [x], {"T": dtype}, name=scope)
        if dtype.is_floating or dtype.is_integer:
            return x
        raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")


def complex_abs(x, name=None):
    """|x| of a complex tensor, as a real one (TF's ComplexAbs op; tf.abs of a complex
    tensor builds it in TF)."""
    with name_scope(name, "ComplexAbs", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        _check_dtype("ComplexAbs", x, _COMPLEX)
        return _to_real("ComplexAbs", x, scope)
