"""`tf.spectral` -- the names of TensorFlow 1.x's tf.spectral namespace (TF's generated
api/_v1/spectral/__init__.py; the ops are python/ops/signal/fft_ops.py's), gathered from
sandbox/ops/fft_ops.py:

    spectrum = tf.spectral.rfft(signal)            # float32 [..., n] -> complex64 [..., n//2+1]
    back = tf.spectral.irfft(spectrum, [n])

The complex transforms are the same functions as the top-level names (tf.spectral.fft is
tf.fft). dct and idct are sandbox/ops/dct_ops.py's, the same as tf.signal.dct / idct.
"""
from ..ops.fft_ops import (  # noqa: F401
    fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d,
)
from ..ops.dct_ops import dct, idct  # noqa: F401

__all__ = ["dct", "fft", "fft2d", "fft3d", "idct", "ifft", "ifft2d", "ifft3d", "irfft",
           "irfft2d", "irfft3d", "rfft", "rfft2d", "rfft3d"]
