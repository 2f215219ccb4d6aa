"""`tf.signal` -- the names of TensorFlow 1.x's tf.signal namespace (TF's generated
api/_v1/signal/__init__.py; the code is python/ops/signal/), gathered from the sandbox's
ops modules:

    stfts = tf.signal.stft(audio, frame_length=400, frame_step=160)   # complex64
    mel = tf.tensordot(tf.abs(stfts), tf.signal.linear_to_mel_weight_matrix(
        40, 257, 16000, 20., 8000.), 1)
    mfccs = tf.signal.mfccs_from_log_mel_spectrograms(tf.log(mel + 1e-6))[..., :13]

The transforms are sandbox/ops/fft_ops.py's (tf.signal.fft is tf.fft); frame,
overlap_and_add, the windows, stft and fftshift are signal_ops.py's; the mel matrix and
mfccs mel_ops.py's; dct and idct (types 1-3) dct_ops.py's.
"""
from ..ops.fft_ops import (  # noqa: F401
    fft, fft2d, fft3d, ifft, ifft2d, ifft3d, irfft, irfft2d, irfft3d, rfft, rfft2d, rfft3d,
)
from ..ops.signal_ops import (  # noqa: F401
    fftshift, frame, hamming_window, hann_window, ifftshift, inverse_stft,
    inverse_stft_window_fn, overlap_and_add, stft,
)
from ..ops.mel_ops import linear_to_mel_weight_matrix, mfccs_from_log_mel_spectrograms  # noqa: F401
from ..ops.dct_ops import dct, idct  # noqa: F401

__all__ = ["dct", "fft", "fft2d", "fft3d", "fftshift", "frame", "hamming_window",
           "hann_window", "idct", "ifft", "ifft2d", "ifft3d", "ifftshift", "inverse_stft",
           "inverse_stft_window_fn", "irfft", "irfft2d", "irfft3d",
           "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms",
           "overlap_and_add", "rfft", "rfft2d", "rfft3d", "stft"]
