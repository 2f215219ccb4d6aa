"""The discrete cosine transform -- mirrors TF 1.15's python/ops/signal/dct_ops.py
(tf.signal.dct / idct, also tf.spectral.dct / idct).

    tf.signal.dct(x, type=2, norm='ortho')     x float [..., n] -> [..., n] over the last axis
    tf.signal.idct(y, type=2, norm='ortho')    its inverse (an idct of type 2 is a dct of
                                               type 3, and back; type 1 is its own)

As in TF, each type is an rfft or irfft of length 2n (Makhoul's method) times constants:

    type 1: real(rfft([x, x[n-2:0:-1]]))          (no 'ortho' normalization)
    type 2: real(rfft(x, 2n)[:n] * 2 exp(-i pi k / 2n)); 'ortho' scales by sqrt(1/4n),
            sqrt(1/2n) for k > 0
    type 3: real(irfft(2 exp(i pi k / 2n) * w x, 2n))[:n], w = n (or the 'ortho' weights)

so gradients flow through the FFT ops. `n` crops or zero-pads the signal first; axis must be
-1. The last dimension must be known while the graph is built.
"""
import math

import numpy as np

from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor
from .complex_ops import complex as _complex
from .complex_ops import real
from .fft_ops import irfft, rfft
from .slicing_ops import concat, pad
from . import array_ops

__all__ = ["dct", "idct"]


def _validate_dct_arguments(input_tensor, dct_type, n, axis, norm):
    """TF's checks of the arguments, with its messages."""
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and (not isinstance(n, int) or n < 1):
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3):
        raise ValueError("Only Types I, II and III (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        last = input_tensor.get_shape().as_list()[-1] \
            if input_tensor.get_shape().ndims else None
        if last is not None and last < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _fit_length(x, n):
    """x cropped or zero-padded to n samples along its last axis."""
    seq_len = x.get_shape().as_list()[-1]
    if n <= seq_len:
        return x[..., 0:n]
    rank = x.get_shape().ndims
    return pad(x, [[0, 0]] * (rank - 1) + [[0, n - seq_len]])


def _ortho_weights(first, rest, length, dtype):
    """[first, rest, rest, ...] of `length`, a constant of dtype."""
    w = np.full(length, rest, dtype.as_numpy_dtype)
    w[0] = first
    return convert_to_tensor(w, dtype=dtype)


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 -- TF's names
    """The 1-D DCT of the given type over the last axis of a float32/float64 tensor."""
    with name_scope(name, "dct", [input]):
        x = convert_to_tensor(input, name="input")
        if not x.dtype.is_floating:
            raise TypeError(f"dct: input must be float32 or float64, got {x.dtype.name}.")
        _validate_dct_arguments(x, type, n, axis, norm)
        shape = x.get_shape()
        if shape.ndims is None or shape.ndims < 1 or shape.as_list()[-1] is None:
            raise ValueError(f"dct: the last dimension of input must be known while the graph "
                             f"is built, got shape {shape}: use set_shape.")
        dtype = x.dtype.base_dtype
        if n is not None:
            x = _fit_length(x, n)
        axis_dim = x.get_shape().as_list()[-1]
        k = np.arange(axis_dim, dtype=np.float64) * math.pi * 0.5 / axis_dim
        complex_dtype = (1j * np.zeros(1, dtype.as_numpy_dtype)).dtype

        if type == 1:
            return real(rfft(concat([x, x[..., -2:0:-1]], axis=-1)))
        if type == 2:
            scale = convert_to_tensor((2.0 * np.exp(-1j * k)).astype(complex_dtype))
            dct2 = real(rfft(x, fft_length=[2 * axis_dim])[..., :axis_dim] * scale)
            if norm == "ortho":
                n1 = 0.5 / math.sqrt(axis_dim)
                dct2 = dct2 * _ortho_weights(n1, n1 * math.sqrt(2.0), axis_dim, dtype)
            return dct2
        # type 3
        if norm == "ortho":
            n1 = math.sqrt(axis_dim)
            x = x * _ortho_weights(n1, n1 * math.sqrt(0.5), axis_dim, dtype)
        else:
            x = x * convert_to_tensor(float(axis_dim), dtype=dtype)
        scale = convert_to_tensor((2.0 * np.exp(1j * k)).astype(complex_dtype))
        spectrum = scale * _complex(x, array_ops.zeros_like(x))
        return real(irfft(spectrum, fft_length=[2 * axis_dim]))[..., :axis_dim]


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 -- TF's names
    """The inverse DCT: a dct of type 3 for type 2, of type 2 for type 3, of type 1 for type 1
    (unnormalized, idct(dct(x)) is x times 2n, or 2(n - 1) for type 1; with 'ortho' it is x)."""
    _validate_dct_arguments(convert_to_tensor(input), type, n, axis, norm)
    inverse_type = {1: 1, 2: 3, 3: 2}[type]
    return dct(input, type=inverse_type, n=n, axis=axis, norm=norm, name=name or "idct")
