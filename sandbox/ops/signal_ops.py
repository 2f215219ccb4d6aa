"""Framing, windows and the short-time Fourier transform -- mirrors TF 1.15's
python/ops/signal/shape_ops.py (frame), reconstruction_ops.py (overlap_and_add),
window_ops.py (hann_window, hamming_window), spectral_ops.py (stft, inverse_stft,
inverse_stft_window_fn), and fftshift / ifftshift of fft_ops.py.

    frames = tf.signal.frame(audio, 400, 160)          # [..., samples] -> [..., F, 400]
    spec = tf.signal.stft(audio, 400, 160)             # [..., F, 257] complex64 (fft 512)
    back = tf.signal.inverse_stft(spec, 400, 160,
               window_fn=tf.signal.inverse_stft_window_fn(160))

Each is a composition of existing ops (gather, unsorted_segment_sum, rfft/irfft, cos), so
gradients flow through all of them. frame_length and frame_step must be known while the
graph is built (Python ints or constants); the signal's length may be unknown.
"""
import math

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import constant_value
from . import array_ops, basic_math_ops, math_ops, reduction_ops
from .fft_ops import irfft, rfft
from .indexing_ops import gather, unsorted_segment_sum
from .manip_ops import roll
from .slicing_ops import concat, pad, tile

__all__ = ["frame", "overlap_and_add", "hann_window", "hamming_window", "stft",
           "inverse_stft", "inverse_stft_window_fn", "fftshift", "ifftshift"]


def _static_int(value, arg, fn):
    """A Python int from an int or a constant tensor; a ValueError naming `arg` otherwise."""
    static = constant_value(value) if hasattr(value, "graph") else value
    if static is None or np.ndim(static) != 0:
        raise ValueError(f"{fn}: {arg} must be a scalar known while the graph is built (a "
                         f"Python int or a constant), got {value}.")
    return int(static)


def _dim(tensor, axis):
    """tensor's size along axis: a Python int when static, else a scalar int32 tensor."""
    static = tensor.get_shape().as_list()[axis] if tensor.get_shape().ndims is not None \
        else None
    return static if static is not None else array_ops.shape(tensor)[axis]


# ===================================================================================
# frame and overlap_and_add (shape_ops.py, reconstruction_ops.py)
# ===================================================================================

def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Cuts `axis` of signal into frames of frame_length, frame_step apart: the axis of N
    samples becomes two, [num_frames, frame_length]. num_frames is 1 + (N - frame_length) //
    frame_step (at least 0), or ceil(N / frame_step) with pad_end (the end padded with
    pad_value)."""
    with name_scope(name, "frame", [signal, frame_length, frame_step, pad_value]):
        signal = convert_to_tensor(signal, name="signal")
        frame_length = _static_int(frame_length, "frame_length", "frame")
        frame_step = _static_int(frame_step, "frame_step", "frame")
        rank = signal.get_shape().ndims
        if rank is None or rank < 1:
            raise ValueError(f"frame: signal must have a known rank of at least 1, got "
                             f"shape {signal.get_shape()}.")
        axis = axis + rank if axis < 0 else axis
        length = _dim(signal, axis)
        if pad_end:
            num_frames = -(-length // frame_step) if isinstance(length, int) else \
                math_ops.floordiv(length + frame_step - 1, frame_step)
            pad_samples = basic_math_ops.maximum(
                0, frame_length + frame_step * (num_frames - 1) - length)
            paddings = [[0, 0]] * axis + [[0, pad_samples]] + [[0, 0]] * (rank - axis - 1)
            if isinstance(pad_samples, int):
                paddings = np.asarray(paddings, np.int32)
            else:
                paddings = array_ops.stack([array_ops.stack(p) for p in paddings])
            signal = pad(signal, paddings, constant_values=pad_value)
        elif isinstance(length, int):
            num_frames = max(0, 1 + (length - frame_length) // frame_step)
        else:
            num_frames = basic_math_ops.maximum(
                0, 1 + math_ops.floordiv(length - frame_length, frame_step))
        starts = array_ops.range(num_frames) * frame_step
        indices = (array_ops.expand_dims(starts, 1)
                   + array_ops.expand_dims(array_ops.range(frame_length), 0))
        # Gathered from a reshaped view, as TF gathers from its "subframes": the gradient
        # reaches the signal as a dense tensor, not gather's IndexedSlices.
        view = array_ops.reshape(signal, array_ops.shape(signal))
        view.set_shape(signal.get_shape())
        return gather(view, indices, axis=axis)


def overlap_and_add(signal, frame_step, name=None):
    """The inverse of frame (up to the windows): [..., frames, frame_length] ->
    [..., (frames - 1) * frame_step + frame_length], each frame added in at its start."""
    with name_scope(name, "overlap_and_add", [signal, frame_step]):
        signal = convert_to_tensor(signal, name="signal")
        rank = signal.get_shape().ndims
        if rank is None or rank < 2:
            raise ValueError(f"overlap_and_add: signal must have a known rank of at least 2 "
                             f"([..., frames, frame_length]), got shape {signal.get_shape()}.")
        frame_step = _static_int(frame_step, "frame_step", "overlap_and_add")
        frames, frame_length = _dim(signal, -2), _dim(signal, -1)
        if isinstance(frame_length, int) and frame_step > frame_length:
            raise ValueError(f"overlap_and_add: frame_step ({frame_step}) must be less than "
                             f"or equal to frame_length ({frame_length}).")
        output_length = (frames - 1) * frame_step + frame_length
        # [frames, frame_length, batch]: each row goes to sample f * frame_step + j.
        outer = array_ops.shape(signal)[:-2]
        data = array_ops.transpose(signal, [rank - 2, rank - 1] + list(range(rank - 2)))
        data = array_ops.reshape(data, concat([[-1], reduction_ops.reduce_prod(
            outer, keepdims=True)], 0))
        ids = (array_ops.expand_dims(array_ops.range(frames) * frame_step, 1)
               + array_ops.expand_dims(array_ops.range(frame_length), 0))
        summed = unsorted_segment_sum(data, array_ops.reshape(ids, [-1]), output_length)
        summed = array_ops.reshape(summed, concat([[output_length], outer], 0))
        result = array_ops.transpose(summed, list(range(1, rank - 1)) + [0])
        static = signal.get_shape().as_list()[:-2] + [
            output_length if isinstance(output_length, int) else None]
        result.set_shape(static)
        return result


# ===================================================================================
# Windows (window_ops.py)
# ===================================================================================

def _raised_cosine_window(name, default_name, window_length, periodic, dtype, a, b):
    """a - b * cos(2 pi n / N), n = 0 .. window_length - 1; N = window_length for a periodic
    window of even length, else window_length - 1 (TF's rule)."""
    dtype = _dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"{default_name}: dtype must be a floating point type, got "
                         f"{dtype.name}.")
    with name_scope(name, default_name, [window_length, periodic]):
        window_length = convert_to_tensor(window_length, dtype=_dtypes.int32,
                                          name="window_length")
        window_length.get_shape().assert_has_rank(0)
        static_length = constant_value(window_length)
        if static_length is not None and int(static_length) == 1:
            return array_ops.ones([1], dtype=dtype)
        periodic = math_ops.cast(convert_to_tensor(periodic, dtype=_dtypes.bool,
                                                   name="periodic"), _dtypes.int32)
        even = 1 - math_ops.floormod(window_length, 2)
        n = math_ops.cast(window_length + periodic * even - 1, dtype=dtype)
        count = math_ops.cast(array_ops.range(window_length), dtype)
        cos_arg = convert_to_tensor(2 * math.pi, dtype=dtype) * count / n
        window = a - b * basic_math_ops.cos(cos_arg)
        if static_length is not None:
            window.set_shape([int(static_length)])
        return window


def hann_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
    """The Hann window 0.5 - 0.5 cos(2 pi n / N) (periodic: for spectral analysis)."""
    return _raised_cosine_window(name, "hann_window", window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
    """The Hamming window 0.54 - 0.46 cos(2 pi n / N)."""
    return _raised_cosine_window(name, "hamming_window", window_length, periodic, dtype,
                                 0.54, 0.46)


# ===================================================================================
# The short-time Fourier transform (spectral_ops.py)
# ===================================================================================

def _enclosing_power_of_two(value):
    """The smallest power of two >= value (the default fft_length)."""
    return int(2 ** math.ceil(math.log(value, 2.0)))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """[..., samples] real -> [..., frames, fft_length // 2 + 1] complex: the rfft of each
    windowed frame (fft_length defaults to the power of two enclosing frame_length)."""
    with name_scope(name, "stft", [signals, frame_length, frame_step]):
        signals = convert_to_tensor(signals, name="signals")
        if signals.get_shape().ndims is not None and signals.get_shape().ndims < 1:
            raise ValueError(f"stft: signals must have rank at least 1, got shape "
                             f"{signals.get_shape()}.")
        frame_length = _static_int(frame_length, "frame_length", "stft")
        frame_step = _static_int(frame_step, "frame_step", "stft")
        fft_length = _enclosing_power_of_two(frame_length) if fft_length is None else \
            _static_int(fft_length, "fft_length", "stft")
        framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed = framed * window_fn(frame_length, dtype=framed.dtype)
        return rfft(framed, [fft_length])


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window_fn for inverse_stft that undoes forward_window_fn's windowing: the forward
    window divided by the sum of the squared windows that overlap each sample."""
    def inverse_stft_window_fn_inner(frame_length, dtype):
        with name_scope(name, "inverse_stft_window_fn", [forward_window_fn]):
            step = _static_int(frame_step, "frame_step", "inverse_stft_window_fn")
            length = _static_int(frame_length, "frame_length", "inverse_stft_window_fn")
            forward_window = forward_window_fn(length, dtype=dtype)
            denom = basic_math_ops.square(forward_window)
            overlaps = -(-length // step)
            denom = pad(denom, [(0, overlaps * step - length)])
            denom = array_ops.reshape(denom, [overlaps, step])
            denom = reduction_ops.reduce_sum(denom, 0, keepdims=True)
            denom = tile(denom, [overlaps, 1])
            denom = array_ops.reshape(denom, [overlaps * step])
            return forward_window / denom[:length]
    return inverse_stft_window_fn_inner


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """[..., frames, fft_length // 2 + 1] complex -> [..., samples] real: irfft of each frame,
    cut to frame_length, windowed by window_fn, overlapped and added. With
    window_fn=inverse_stft_window_fn(frame_step) it inverts stft."""
    with name_scope(name, "inverse_stft", [stfts]):
        stfts = convert_to_tensor(stfts, name="stfts")
        if stfts.get_shape().ndims is not None and stfts.get_shape().ndims < 2:
            raise ValueError(f"inverse_stft: stfts must have rank at least 2, got shape "
                             f"{stfts.get_shape()}.")
        frame_length = _static_int(frame_length, "frame_length", "inverse_stft")
        frame_step = _static_int(frame_step, "frame_step", "inverse_stft")
        fft_length = _enclosing_power_of_two(frame_length) if fft_length is None else \
            _static_int(fft_length, "fft_length", "inverse_stft")
        real_frames = irfft(stfts, [fft_length])
        real_frames = real_frames[..., :frame_length]
        if frame_length > fft_length:            # zero-pad each frame up to frame_length
            rank = real_frames.get_shape().ndims
            real_frames = pad(real_frames, [[0, 0]] * (rank - 1)
                              + [[0, frame_length - fft_length]])
        if window_fn is not None:
            real_frames = real_frames * window_fn(frame_length,
                                                  dtype=stfts.dtype.real_dtype)
        return overlap_and_add(real_frames, frame_step)


# ===================================================================================
# fftshift, ifftshift (fft_ops.py): the zero frequency moved to the middle, and back
# ===================================================================================

def _shift(x, axes, name, default_name, inverse):
    with name_scope(name, default_name, [x]):
        x = convert_to_tensor(x, name="input")
        rank = x.get_shape().ndims
        if axes is None:
            if rank is None:
                raise ValueError(f"{default_name}: the rank of x must be known when axes is "
                                 "None.")
            axes = list(range(rank))
        axes = [axes] if isinstance(axes, int) else list(axes)
        shifts = []
        for axis in axes:
            n = _dim(x, axis)
            half = -(n // 2) if inverse else n // 2
            if not isinstance(n, int):
                half = math_ops.floordiv(n, 2) * (-1 if inverse else 1)
            shifts.append(half)
        if all(isinstance(v, int) for v in shifts):
            return roll(x, shifts, axes)
        return roll(x, array_ops.stack(shifts), axes)


def fftshift(x, axes=None, name=None):
    """Moves the zero-frequency term to the middle of `axes` (all by default): rolls each
    by n // 2, as numpy.fft.fftshift."""
    return _shift(x, axes, name, "fftshift", inverse=False)


def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift: rolls each axis by -(n // 2)."""
    return _shift(x, axes, name, "ifftshift", inverse=True)
