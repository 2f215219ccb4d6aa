"""Fast Fourier transforms -- mirrors TensorFlow 1.x's python/ops/signal/fft_ops.py (the ops
of core/ops/spectral_ops.cc, tf.fft ... tf.ifft3d and tf.spectral.rfft ...) and its
gradients (the gradients in that same file, registered for FFT, IFFT, RFFT ...).

Each transform works on the inner-most dimensions of its input, a batch of signals:

    tf.fft(x)      x complex [..., n]            -> [..., n]        over the last axis
    tf.fft2d(x)    x complex [..., m, n]         -> [..., m, n]     over the last two
    tf.fft3d(x)    x complex [..., l, m, n]      -> [..., l, m, n]  over the last three
    tf.ifft / ifft2d / ifft3d: the inverses (scaled by 1 / n, as NumPy's)

    tf.spectral.rfft(x, fft_length)    x real [..., n] -> complex [..., n // 2 + 1]: the
        non-negative frequencies of a real signal (the others are their conjugates);
        x is cropped or zero-padded to fft_length first. rfft2d, rfft3d likewise.
    tf.spectral.irfft(y, fft_length)   the inverse, a real signal of fft_length
        (default 2 * (n - 1)); the imaginary parts of the zero (and, for an even length,
        the highest) frequency are ignored.

The dtypes are TF's: complex64 in, complex64 out (complex128 -> complex128); rfft takes
float32 (float64 as TF 2 does) and gives complex64 (complex128). NumPy computes complex64
transforms itself; the kernels cast back to the input's type in any case.

The gradients, as TF's for a real loss: the gradient of fft is ifft(grad) * n, of ifft
fft(grad) / n; rfft's is the real part of n * ifft(grad padded to n frequencies), irfft's
rfft(grad) / n with the frequencies that stand for two (all but the zero and the highest)
counted twice. Here the last two are helper ops (RFFTGrad, IRFFTGrad) with NumPy kernels,
where TF builds them out of irfft/rfft and masks.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import const_op_value, shape_text
from . import array_ops, math_ops, reduction_ops
from .math_ops import _check_dtype

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d"]

_COMPLEX = (_dtypes.complex64, _dtypes.complex128)
_REAL = (_dtypes.float32, _dtypes.float64)
_COMPLEX_OF = {_dtypes.float32: _dtypes.complex64, _dtypes.float64: _dtypes.complex128}


def _rank_error(rank, got):
    return ValueError(f"Shape must be at least rank {rank} but is rank {got}")


def _at_least(shape, rank):
    if shape.ndims is not None and shape.ndims < rank:
        raise _rank_error(rank, shape.ndims)
    return shape


def _with_rank_at_least(shape, rank):
    """TF's TensorShape.with_rank_at_least, as the Python wrappers of rfft ... call it."""
    if shape.ndims is not None and shape.ndims < rank:
        raise ValueError(f"Shape {shape} must have rank at least {rank}")


def _check_rank(x, rank):
    if x.ndim < rank:
        raise errors.InvalidArgumentError(
            None, None, f"Input must have rank of at least {rank} but got: "
                        f"{shape_text(x.shape)}")


def _axes(rank):
    return tuple(range(-rank, 0))


# ===================================================================================
# Complex to complex: FFT, IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D
# ===================================================================================

def _fft_size_for_grad(grad, rank):
    """The number of points of each transform (the product of the inner `rank` dims), as a
    Python number when the static shape has it, else a tensor (TF's _fft_size_for_grad)."""
    dims = grad.get_shape()
    if dims.ndims is not None and all(d is not None for d in dims.as_list()[-rank:]):
        return int(np.prod(dims.as_list()[-rank:]))
    return reduction_ops.reduce_prod(array_ops.shape(grad)[-rank:])


def _size_as(size, dtype, reciprocal=False):
    """`size` (or 1 / size) as a scalar of dtype `dtype`."""
    if isinstance(size, int):
        return np.asarray(1.0 / size if reciprocal else size, dtype=dtype.as_numpy_dtype)
    size = math_ops.cast(size, dtype.real_dtype)
    if reciprocal:
        size = math_ops.realdiv(np.asarray(1.0, dtype.real_dtype.as_numpy_dtype), size)
    return math_ops.cast(size, dtype)


class _FFTBase(OpDef):
    """Complex to complex transforms over the inner-most `rank` dimensions."""
    abstract = True
    rank = 1
    inverse = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        rank, inverse = cls.rank, cls.inverse
        np_fn = np.fft.ifftn if inverse else np.fft.fftn

        def shape(op):
            return _at_least(op.inputs[0].get_shape(), rank)

        def kernel(input, Tcomplex=None):  # noqa: A002, N803 -- TF's names
            _check_rank(input, rank)
            if input.size == 0:
                return np.zeros(input.shape, input.dtype)
            return np_fn(input, axes=_axes(rank)).astype(input.dtype, copy=False)

        def gradient(op, grad):
            size = _fft_size_for_grad(grad, rank)
            if inverse:      # TF: fft(grad) * (1 / size)
                return [math_ops.multiply(_FFT_FN[rank][0](grad),
                                          _size_as(size, grad.dtype.base_dtype, True))]
            return [math_ops.multiply(_FFT_FN[rank][1](grad),          # ifft(grad) * size
                                      _size_as(size, grad.dtype.base_dtype))]

        cls.shape, cls.kernel, cls.gradient = shape, kernel, gradient


class FFT(_FFTBase):
    """The discrete Fourier transform of the inner-most dimension."""
    rank, inverse = 1, False


class IFFT(_FFTBase):
    """The inverse discrete Fourier transform of the inner-most dimension."""
    rank, inverse = 1, True


class FFT2D(_FFTBase):
    """The 2-D discrete Fourier transform of the inner-most 2 dimensions."""
    rank, inverse = 2, False


class IFFT2D(_FFTBase):
    """The inverse 2-D discrete Fourier transform of the inner-most 2 dimensions."""
    rank, inverse = 2, True


class FFT3D(_FFTBase):
    """The 3-D discrete Fourier transform of the inner-most 3 dimensions."""
    rank, inverse = 3, False


class IFFT3D(_FFTBase):
    """The inverse 3-D discrete Fourier transform of the inner-most 3 dimensions."""
    rank, inverse = 3, True


def _c2c(op_type, rank, input, name):  # noqa: A002
    with name_scope(name, op_type, [input]) as scope:
        x = convert_to_tensor(input, name="input")
        _check_dtype(op_type, x, _COMPLEX, arg="input")
        _at_least(x.get_shape(), rank)
        dtype = x.dtype.base_dtype
        return apply_op(op_type, [x], {"Tcomplex": dtype}, name=scope)


def fft(input, name=None):  # noqa: A002 -- TF's name
    """The fast Fourier transform over the inner-most dimension of a complex tensor."""
    return _c2c("FFT", 1, input, name)


def ifft(input, name=None):  # noqa: A002
    """The inverse fast Fourier transform over the inner-most dimension."""
    return _c2c("IFFT", 1, input, name)


def fft2d(input, name=None):  # noqa: A002
    """The 2-D fast Fourier transform over the inner-most 2 dimensions."""
    return _c2c("FFT2D", 2, input, name)


def ifft2d(input, name=None):  # noqa: A002
    """The inverse 2-D fast Fourier transform over the inner-most 2 dimensions."""
    return _c2c("IFFT2D", 2, input, name)


def fft3d(input, name=None):  # noqa: A002
    """The 3-D fast Fourier transform over the inner-most 3 dimensions."""
    return _c2c("FFT3D", 3, input, name)


def ifft3d(input, name=None):  # noqa: A002
    """The inverse 3-D fast Fourier transform over the inner-most 3 dimensions."""
    return _c2c("IFFT3D", 3, input, name)


_FFT_FN = {1: (fft, ifft), 2: (fft2d, ifft2d), 3: (fft3d, ifft3d)}


# ===================================================================================
# Real to complex and back: RFFT, IRFFT (2D, 3D) -- tf.spectral.* in TF 1.x
# ===================================================================================

def _lengths(fft_length, rank):
    n = [int(v) for v in np.asarray(fft_length).reshape(-1)]
    if len(n) != rank:
        raise errors.InvalidArgumentError(
            None, None, f"fft_length must be a vector of length {rank}, got "
                        f"{shape_text(np.shape(fft_length))}")
    return n


def _fit(a, shape, rank):
    """a cropped or zero-padded along its inner `rank` dims to `shape`'s."""
    out = np.zeros(a.shape[:a.ndim - rank] + tuple(shape[-rank:]), a.dtype)
    idx = tuple(slice(0, min(s, t)) for s, t in zip(a.shape[-rank:], shape[-rank:]))
    out[(Ellipsis,) + idx] = a[(Ellipsis,) + idx]
    return out


def _real_shape_fn(rank, inverse):
    def shape(op):
        s = _at_least(op.inputs[0].get_shape(), rank)
        if s.ndims is None:
            return unknown_shape()
        n = const_op_value(op.inputs[1])
        dims = s.as_list()
        if n is None:
            return TensorShape(dims[:-rank] + [None] * rank)
        n = [int(v) for v in np.asarray(n).reshape(-1)]
        if not inverse:
            n[-1] = n[-1] // 2 + 1
        return TensorShape(dims[:-rank] + n)
    return shape


class _RFFTBase(OpDef):
    """Real to complex (RFFT*) or complex to real (IRFFT*) over the inner `rank` dims."""
    abstract = True
    rank = 1
    inverse = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        rank, inverse = cls.rank, cls.inverse

        def kernel(input, fft_length, Treal=None, Tcomplex=None):  # noqa: A002, N803
            _check_rank(input, rank)
            n = _lengths(fft_length, rank)
            if inverse:
                out = np.fft.irfftn(input, s=n, axes=_axes(rank)) if all(n) else \
                    np.zeros(input.shape[:-rank] + tuple(n))
                return out.astype(Treal.as_numpy_dtype, copy=False)
            out = np.fft.rfftn(input, s=n, axes=_axes(rank)) if all(n) else \
                np.zeros(input.shape[:-rank] + tuple(n[:-1]) + (n[-1] // 2 + 1,))
            return out.astype(Tcomplex.as_numpy_dtype, copy=False)

        def gradient(op, grad):
            x, n = op.inputs
            grad_type = "IRFFTGrad" if inverse else "RFFTGrad"
            return [apply_op(grad_type, [grad, x, n], {"rank": rank},
                             output_dtypes=[x.dtype.base_dtype], name=grad_type), None]

        cls.shape, cls.kernel, cls.gradient = _real_shape_fn(rank, inverse), kernel, gradient


class RFFT(_RFFTBase):
    """The DFT of a real signal over the inner-most dimension: frequencies 0 .. n // 2."""
    rank, inverse = 1, False


class IRFFT(_RFFTBase):
    """The inverse of RFFT: a real signal of fft_length."""
    rank, inverse = 1, True


class RFFT2D(_RFFTBase):
    """RFFT over the inner-most 2 dimensions."""
    rank, inverse = 2, False


class IRFFT2D(_RFFTBase):
    """IRFFT over the inner-most 2 dimensions."""
    rank, inverse = 2, True


class RFFT3D(_RFFTBase):
    """RFFT over the inner-most 3 dimensions."""
    rank, inverse = 3, False


class IRFFT3D(_RFFTBase):
    """IRFFT over the inner-most 3 dimensions."""
    rank, inverse = 3, True


def _same_shape(op):
    return op.inputs[1].get_shape()


class RFFTGrad(OpDef):
    """The gradient of RFFT* for its real input x (a sandbox helper op): the real part of
    n * ifft(grad padded to n frequencies), cropped or padded back to x's shape."""
    differentiable = False
    shape = _same_shape

    def kernel(grad, x, fft_length, rank=1):
        n = _lengths(fft_length, rank)
        if not all(n) or grad.size == 0:
            return np.zeros(x.shape, x.dtype)
        padded = _fit(grad, grad.shape[:-1] + (n[-1],), 1)
        full = np.fft.ifftn(padded, axes=_axes(rank)) * float(np.prod(n))
        return _fit(np.real(full), x.shape, rank).astype(x.dtype, copy=False)


class IRFFTGrad(OpDef):
    """The gradient of IRFFT* for its complex input y (a sandbox helper op): rfft(grad) / n,
    doubled at the frequencies that stand for two, cropped or padded back to y's shape."""
    differentiable = False
    shape = _same_shape

    def kernel(grad, y, fft_length, rank=1):
        n = _lengths(fft_length, rank)
        if not all(n) or grad.size == 0:
            return np.zeros(y.shape, y.dtype)
        g = np.fft.rfftn(grad, axes=_axes(rank)) / float(np.prod(n))
        mask = np.full(n[-1] // 2 + 1, 2.0)
        mask[0] = 1.0
        if n[-1] % 2 == 0:
            mask[-1] = 1.0
        return _fit(g * mask, y.shape, rank).astype(y.dtype, copy=False)


def _default_lengths(x, rank, inverse):
    """fft_length when none is given: the inner dims of x (the last one 2 * (m - 1) for an
    inverse), from the static shape when it has them."""
    dims = x.get_shape()
    if dims.ndims is not None and all(d is not None for d in dims.as_list()[-rank:]):
        n = dims.as_list()[-rank:]
        if inverse:
            n[-1] = 2 * (n[-1] - 1)
        return np.asarray(n, np.int32)
    from .slicing_ops import concat
    n = array_ops.shape(x)[-rank:]
    if inverse:
        n = concat([n[:-1], math_ops.multiply(math_ops.subtract(n[-1:], 1), 2)], 0)
    return n


def _r2c(op_type, default_name, rank, input_tensor, fft_length, name):
    with name_scope(name, default_name, [input_tensor, fft_length]) as scope:
        x = convert_to_tensor(input_tensor, name="input_tensor")
        if x.dtype.base_dtype not in _REAL:
            raise ValueError(f"{op_type} requires tf.float32 or tf.float64 inputs, got: {x}")
        _with_rank_at_least(x.get_shape(), rank)
        if fft_length is None:
            fft_length = _default_lengths(x, rank, inverse=False)
        n = convert_to_tensor(fft_length, dtype=_dtypes.int32, name="fft_length")
        real_t = x.dtype.base_dtype
        out = _COMPLEX_OF[real_t]
        return apply_op(op_type, [x, n], {"Treal": real_t, "Tcomplex": out}, name=scope,
                        output_dtypes=[out])


def _c2r(op_type, default_name, rank, input_tensor, fft_length, name):
    with name_scope(name, default_name, [input_tensor, fft_length]) as scope:
        x = convert_to_tensor(input_tensor, name="input_tensor")
        if x.dtype.base_dtype not in _COMPLEX:
            raise ValueError(f"{op_type} requires tf.complex64 or tf.complex128 inputs, "
                             f"got: {x}")
        _with_rank_at_least(x.get_shape(), rank)
        if fft_length is None:
            fft_length = _default_lengths(x, rank, inverse=True)
        n = convert_to_tensor(fft_length, dtype=_dtypes.int32, name="fft_length")
        complex_t = x.dtype.base_dtype
        out = complex_t.real_dtype
        return apply_op(op_type, [x, n], {"Treal": out, "Tcomplex": complex_t}, name=scope,
                        output_dtypes=[out])


def rfft(input_tensor, fft_length=None, name=None):
    """The DFT of a real signal over its inner-most dimension (tf.spectral.rfft)."""
    return _r2c("RFFT", "rfft", 1, input_tensor, fft_length, name)


def irfft(input_tensor, fft_length=None, name=None):
    """The inverse of rfft: a real signal of fft_length (tf.spectral.irfft)."""
    return _c2r("IRFFT", "irfft", 1, input_tensor, fft_length, name)


def rfft2d(input_tensor, fft_length=None, name=None):
    """rfft over the inner-most 2 dimensions (tf.spectral.rfft2d)."""
    return _r2c("RFFT2D", "rfft2d", 2, input_tensor, fft_length, name)


def irfft2d(input_tensor, fft_length=None, name=None):
    """irfft over the inner-most 2 dimensions (tf.spectral.irfft2d)."""
    return _c2r("IRFFT2D", "irfft2d", 2, input_tensor, fft_length, name)


def rfft3d(input_tensor, fft_length=None, name=None):
    """rfft over the inner-most 3 dimensions (tf.spectral.rfft3d)."""
    return _r2c("RFFT3D", "rfft3d", 3, input_tensor, fft_length, name)


def irfft3d(input_tensor, fft_length=None, name=None):
    """irfft over the inner-most 3 dimensions (tf.spectral.irfft3d)."""
    return _c2r("IRFFT3D", "irfft3d", 3, input_tensor, fft_length, name)
