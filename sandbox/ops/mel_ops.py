"""Mel-frequency features -- mirrors TF 1.15's python/ops/signal/mel_ops.py
(linear_to_mel_weight_matrix) and mfcc_ops.py (mfccs_from_log_mel_spectrograms).

    spectrograms = tf.abs(tf.signal.stft(audio, 1024, 256))        # [..., frames, 513]
    weights = tf.signal.linear_to_mel_weight_matrix(80, 513, 16000, 80., 7600.)
    mel = tf.tensordot(spectrograms, weights, 1)                    # [..., frames, 80]
    mfccs = tf.signal.mfccs_from_log_mel_spectrograms(tf.log(mel + 1e-6))[..., :13]

The mel scale is HTK's: mel(f) = 1127 ln(1 + f / 700). Each of the num_mel_bins columns is a
triangle over the spectrogram's bins (the bin of 0 Hz gets no weight), its edges evenly
spaced in mels between lower_edge_hertz and upper_edge_hertz.
"""
import math

from ..framework import dtypes as _dtypes
from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor
from . import array_ops, basic_math_ops, math_ops
from .dct_ops import dct
from .signal_ops import frame
from .slicing_ops import pad, split

__all__ = ["linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms"]

_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(frequencies_hertz, name=None):
    """Hertz to mels: 1127 ln(1 + f / 700)."""
    with name_scope(name, "hertz_to_mel", [frequencies_hertz]):
        frequencies_hertz = convert_to_tensor(frequencies_hertz)
        return _MEL_HIGH_FREQUENCY_Q * basic_math_ops.log(
            1.0 + (frequencies_hertz / _MEL_BREAK_FREQUENCY_HERTZ))


def _validate_arguments(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz,
                        dtype):
    """TF's checks, with its messages."""
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f"
                         % (lower_edge_hertz, upper_edge_hertz))
    if sample_rate <= 0.0:
        raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency "
                         f"(sample_rate / 2). Got {upper_edge_hertz} for sample_rate: "
                         f"{sample_rate}")
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype}")


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=_dtypes.float32, name=None):
    """A [num_spectrogram_bins, num_mel_bins] matrix: a linear spectrogram's last axis times
    it gives a mel spectrogram."""
    dtype = _dtypes.as_dtype(dtype)
    with name_scope(name, "linear_to_mel_weight_matrix") as name:
        _validate_arguments(num_mel_bins, sample_rate, lower_edge_hertz, upper_edge_hertz,
                            dtype)
        sample_rate = convert_to_tensor(float(sample_rate), dtype, name="sample_rate")
        lower_edge_hertz = convert_to_tensor(float(lower_edge_hertz), dtype,
                                             name="lower_edge_hertz")
        upper_edge_hertz = convert_to_tensor(float(upper_edge_hertz), dtype,
                                             name="upper_edge_hertz")
        zero = convert_to_tensor(0.0, dtype)
        bands_to_zero = 1                        # the DC bin carries no mel energy
        nyquist_hertz = sample_rate / 2.0
        linear_frequencies = math_ops.lin_space(zero, nyquist_hertz,
                                                num_spectrogram_bins)[bands_to_zero:]
        spectrogram_bins_mel = array_ops.expand_dims(_hertz_to_mel(linear_frequencies), 1)
        # num_mel_bins triples (lower edge, center, upper edge), num_mel_bins + 2 points.
        band_edges_mel = frame(math_ops.lin_space(_hertz_to_mel(lower_edge_hertz),
                                                  _hertz_to_mel(upper_edge_hertz),
                                                  num_mel_bins + 2),
                               frame_length=3, frame_step=1)
        lower_edge_mel, center_mel, upper_edge_mel = (
            array_ops.reshape(t, [1, num_mel_bins]) for t in split(band_edges_mel, 3, axis=1))
        lower_slopes = (spectrogram_bins_mel - lower_edge_mel) / (center_mel - lower_edge_mel)
        upper_slopes = (upper_edge_mel - spectrogram_bins_mel) / (upper_edge_mel - center_mel)
        mel_weights_matrix = basic_math_ops.maximum(
            zero, basic_math_ops.minimum(lower_slopes, upper_slopes))
        return pad(mel_weights_matrix, [[bands_to_zero, 0], [0, 0]], name=name)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """The mel-frequency cepstral coefficients of [..., num_mel_bins] log-magnitude mel
    spectrograms: their orthonormal DCT-II (HTK's scaling), keep the first ~13."""
    with name_scope(name, "mfccs_from_log_mel_spectrograms", [log_mel_spectrograms]):
        log_mel_spectrograms = convert_to_tensor(log_mel_spectrograms)
        shape = log_mel_spectrograms.get_shape()
        num_mel_bins = shape.as_list()[-1] if shape.ndims else None
        if num_mel_bins == 0:
            raise ValueError(f"num_mel_bins must be positive. Got: {log_mel_spectrograms}")
        if num_mel_bins is None:
            raise ValueError("mfccs_from_log_mel_spectrograms: the last dimension (the mel "
                             "bins) must be known while the graph is built: use set_shape.")
        dct2 = dct(log_mel_spectrograms, type=2)
        return dct2 * (1.0 / math.sqrt(num_mel_bins * 2.0))
