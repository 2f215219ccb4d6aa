"""WAV audio -- mirrors TensorFlow's DecodeWav and EncodeWav ops (core/kernels/decode_wav_op.cc,
encode_wav_op.cc, core/lib/wav/wav_io.cc; python/ops/gen_audio_ops.py), reached as
tf.audio.decode_wav and tf.audio.encode_wav.

    contents = tf.read_file('speech.wav')
    audio, sample_rate = tf.audio.decode_wav(contents, desired_channels=1)
    # audio: float32 [samples, channels] in [-1, 1); sample_rate: int32 scalar
    wav = tf.audio.encode_wav(audio, sample_rate)          # the bytes of a WAV file again

Only 16-bit PCM is read and written (TF's wav_io): a sample s becomes s / 32768, and back
round(x * 32768) (halves away from zero), clamped to [-32768, 32767], so 1.0 is written as
32767 and a NaN as 0. The file encode_wav writes is TF's byte for byte: a 44-byte header (RIFF,
'fmt ' of 16 bytes, 'data') and the samples, little-endian, interleaved by channel.

decode_wav reads what TF's reader reads: JUNK, bext, iXML, qlty, mext, levl, link and axml
chunks before 'fmt ' are skipped, any chunk after it except 'data'. `desired_channels` takes
that many channels (more than the file has repeat its last one); `desired_samples` cuts the
audio or pads it with zeros; -1 keeps the file's. Neither op has a gradient (their inputs or
outputs are strings).

TF's summary of audio clips, tf.summary.audio, writes these same WAV bytes:
sandbox/ops/summary_audio_ops.py.
"""
import collections
import struct

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape

__all__ = []   # reached as tf.audio.* (sandbox/api/audio.py)

_UINT32_MAX = 2 ** 32 - 1
_INT32_MAX = 2 ** 31 - 1
_HEADER = struct.Struct("<4sI4s4sIHHIIHH4sI")      # RIFF chunk, 'fmt ' chunk, 'data' header
# The chunks TF's reader skips when they come before 'fmt ' (wav_io.cc).
_PADDING_CHUNKS = {b"JUNK", b"bext", b"iXML", b"qlty", b"mext", b"levl", b"link", b"axml"}


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


# -- the WAV format (TF's core/lib/wav/wav_io.cc) --------------------------------------------

def float_to_int16(values):
    """TF's FloatToInt16Sample: round(x * 32768) with halves away from zero (roundf), clamped
    to the int16 range; NaN becomes 0."""
    scaled = np.asarray(values, dtype=np.float32).astype(np.float64) * 32768.0
    with np.errstate(invalid="ignore"):
        rounded = np.trunc(scaled)
        rounded += np.sign(scaled) * (np.abs(scaled - rounded) >= 0.5)
        rounded = np.clip(np.nan_to_num(rounded, nan=0.0), -32768, 32767)
    return rounded.astype("<i2")


def encode_wav_bytes(samples, sample_rate, num_channels, num_frames):
    """TF's EncodeAudioAsS16LEWav: the bytes of a 16-bit PCM WAV file holding `samples` (float,
    num_frames * num_channels values interleaved by channel)."""
    samples = np.asarray(samples, dtype=np.float32).reshape(-1)
    if samples.size == 0 and num_frames > 0:
        raise _invalid("audio is null")
    if sample_rate == 0 or sample_rate > _UINT32_MAX:
        raise _invalid(f"sample_rate must be in (0, 2^32), got: {sample_rate}")
    if num_channels == 0 or num_channels > 0xFFFF:
        raise _invalid(f"num_channels must be in (0, 2^16), got: {num_channels}")
    data_size = num_frames * num_channels * 2
    if _HEADER.size + data_size > _UINT32_MAX:
        raise _invalid("Provided channels and frames cannot be encoded as a WAV.")
    header = _HEADER.pack(
        b"RIFF", _HEADER.size + data_size - 8, b"WAVE",
        b"fmt ", 16, 1, num_channels, sample_rate,
        (sample_rate * 2 * num_channels) & _UINT32_MAX,       # bytes per second (uint32)
        (2 * num_channels) & 0xFFFF, 16,                      # bytes per frame, bits per sample
        b"data", data_size)
    return header + float_to_int16(samples[:num_frames * num_channels]).tobytes()


class _Reader:
    """Reads a WAV file's fields from its bytes with TF's bounds checks and messages."""

    def __init__(self, data):
        self.data, self.offset = data, 0

    def advance(self, increment):
        """TF's IncrementOffset: the offset `increment` bytes on, which must not pass the end."""
        if self.offset > len(self.data):
            raise _invalid(f"Initial offset is outside data range: {self.offset}")
        end = self.offset + increment
        if end > len(self.data):
            raise _invalid("Data too short when trying to read string")
        return end

    def string(self, length):
        end = self.advance(length)
        text, self.offset = self.data[self.offset:end], end
        return text

    def value(self, fmt):
        return struct.unpack(fmt, self.string(struct.calcsize(fmt)))[0]

    def expect(self, text):
        found = self.string(len(text))
        if found != text:
            raise _invalid(f"Header mismatch: Expected {text.decode()} but found "
                           f"{found.decode('latin-1')}")


def decode_wav_bytes(data):
    """TF's DecodeLin16WaveAsFloatVector: (samples float32 [sample_count, channel_count],
    sample_rate) of the bytes of a 16-bit PCM WAV file."""
    r = _Reader(data)
    r.expect(b"RIFF")
    r.value("<I")                                  # the file's size: not checked, as in TF
    r.expect(b"WAVE")
    chunk = r.string(4)
    while chunk != b"fmt ":
        if chunk not in _PADDING_CHUNKS:
            raise _invalid(f"Unexpected field {chunk.decode('latin-1')}")
        r.offset = r.advance(r.value("<I"))
        chunk = r.string(4)
    format_size = r.value("<I")
    if format_size not in (16, 18):
        raise _invalid(f"Bad format chunk size for WAV: Expected 16 or 18, but got{format_size}")
    audio_format = r.value("<H")
    if audio_format != 1:
        raise _invalid(f"Bad audio format for WAV: Expected 1 (PCM), but got{audio_format}")
    channels = r.value("<H")
    if channels < 1:
        raise _invalid(f"Bad number of channels for WAV: Expected at least 1, but got {channels}")
    sample_rate = r.value("<I")
    bytes_per_second = r.value("<I")
    bytes_per_sample = r.value("<H")               # all channels of one point in time
    bits_per_sample = r.value("<H")                # one channel
    if bits_per_sample != 16:
        raise _invalid(f"Can only read 16-bit WAV files, but received {bits_per_sample}")
    expected = (bits_per_sample * channels + 7) // 8
    if bytes_per_sample != expected:
        raise _invalid(f"Bad bytes per sample in WAV header: Expected {expected} but got "
                       f"{bytes_per_sample}")
    if bytes_per_second != bytes_per_sample * sample_rate:
        raise _invalid(f"Bad bytes per second in WAV header: Expected "
                       f"{bytes_per_sample * sample_rate} but got {bytes_per_second} "
                       f"(sample_rate={sample_rate}, bytes_per_sample={bytes_per_sample})")
    if format_size == 18:
        r.offset += 2                              # an unused extension size
    samples = None
    while r.offset < len(data):
        chunk = r.string(4)
        size = r.value("<I")
        if size > _INT32_MAX:
            raise _invalid(f"WAV data chunk '{chunk.decode('latin-1')}' is too large: {size} "
                           f"bytes, but the limit is {_INT32_MAX}")
        if chunk != b"data":
            r.offset += size
            continue
        if samples is not None:
            raise _invalid("More than one data chunk found in WAV")
        count = size // bytes_per_sample
        end = r.advance(2 * count * channels)      # TF reads whole frames: not `size` bytes
        samples = np.frombuffer(data[r.offset:end], dtype="<i2").reshape(count, channels)
        r.offset = end
    if samples is None:
        raise _invalid("No data chunk found in WAV")
    return samples.astype(np.float32) / np.float32(32768), sample_rate


# -- kernels -------------------------------------------------------------------------------

def _decode_wav_shape(op):
    """[desired_samples, desired_channels], each unknown when -1 (TF's shape function)."""
    contents = op.inputs[0].get_shape()
    if contents.ndims not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {contents.ndims}")
    dims = {}
    for attr, what in (("desired_channels", "channels"), ("desired_samples", "samples")):
        n = op.get_attr(attr)
        if n != -1 and n < 0:
            raise ValueError(f"{what} must be non-negative, got {n}")
        dims[what] = None if n == -1 else n
    return [TensorShape([dims["samples"], dims["channels"]]), TensorShape([])]


class DecodeWav(OpDef):
    """WAV bytes -> (float32 [samples, channels], int32 sample rate)."""
    multi_output = True
    differentiable = False
    shape = _decode_wav_shape

    def kernel(contents, desired_channels=-1, desired_samples=-1):
        contents = np.asarray(contents, dtype=object)
        if contents.ndim != 0:
            raise _invalid(f"contents must be scalar, got shape {list(contents.shape)}")
        data = contents.item()
        data = data.encode() if isinstance(data, str) else bytes(data)
        if len(data) > _INT32_MAX:
            raise _invalid(f"WAV contents are too large for int: {len(data)}")
        samples, sample_rate = decode_wav_bytes(data)
        count, channels = samples.shape
        out_samples = count if desired_samples == -1 else desired_samples
        out_channels = channels if desired_channels == -1 else desired_channels
        audio = np.zeros((out_samples, out_channels), dtype=np.float32)
        # Channels past the file's repeat its last one; samples past its end stay 0.
        source = np.minimum(np.arange(out_channels), channels - 1)
        n = min(count, out_samples)
        audio[:n] = samples[:n][:, source]
        return audio, np.array(sample_rate, dtype=np.int32)


class EncodeWav(OpDef):
    """float32 [frames, channels] and an int32 sample rate -> WAV bytes."""
    differentiable = False

    def shape(op):
        audio, sample_rate = (t.get_shape() for t in op.inputs)
        for shape, rank in ((audio, 2), (sample_rate, 0)):
            if shape.ndims not in (None, rank):
                raise ValueError(f"Shape must be rank {rank} but is rank {shape.ndims}")
        return TensorShape([])

    def kernel(audio, sample_rate):
        if audio.ndim != 2:
            raise _invalid(f"audio must be 2-dimensional[{','.join(map(str, audio.shape))}]")
        sample_rate = np.asarray(sample_rate)
        if sample_rate.ndim != 0:
            raise _invalid(f"Input sample_rate should be a scalar tensor, got "
                           f"[{','.join(map(str, sample_rate.shape))}] instead.")
        if audio.size >= _INT32_MAX:
            raise _invalid("Cannot encode audio with >= max int32 elements")
        rate = int(sample_rate) % 2 ** 64          # TF passes the int32 on as a size_t
        frames, channels = audio.shape
        return np.array(encode_wav_bytes(audio, rate, channels, frames), dtype=object)


# -- building the ops ----------------------------------------------------------------------

def _input(value, arg, op_type, dtype):
    """`value` as a Tensor of `dtype`, failing as TF's op wrappers do."""
    if isinstance(value, Tensor):
        if value.dtype.base_dtype != dtype:
            raise TypeError(f"Input '{arg}' of '{op_type}' Op has type "
                            f"{value.dtype.base_dtype.name} that does not match expected type "
                            f"of {dtype.name}.")
        return value
    wrong = (float if dtype.is_integer else (int, float) if dtype == _dtypes.string else ())
    if isinstance(value, wrong) and not isinstance(value, bool):
        raise TypeError(f"Expected {dtype.name} passed to parameter '{arg}' of op '{op_type}', "
                        f"got {value!r} of type '{type(value).__name__}' instead. Error: "
                        f"Expected {dtype.name}, but got {value!r} of type "
                        f"'{type(value).__name__}'.")
    return convert_to_tensor(value, dtype=dtype, name=arg)


DecodeWavOutput = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """The audio of a 16-bit PCM WAV file (tf.audio.decode_wav): a namedtuple (audio,
    sample_rate) -- audio float32 [samples, channels] in [-1, 1), sample_rate an int32 scalar.
    desired_channels / desired_samples (-1: the file's) repeat the last channel or drop
    channels, pad with zeros or cut the samples."""
    with name_scope(name, "DecodeWav", [contents]) as scope:
        contents = _input(contents, "contents", "DecodeWav", _dtypes.string)
        audio, sample_rate = apply_op(
            "DecodeWav", [contents], {"desired_channels": int(desired_channels),
                                      "desired_samples": int(desired_samples)},
            name=scope, output_dtypes=[_dtypes.float32, _dtypes.int32])
    return DecodeWavOutput(audio, sample_rate)


def encode_wav(audio, sample_rate, name=None):
    """The bytes of a 16-bit PCM WAV file (a scalar string) holding `audio`, float32
    [frames, channels] in [-1, 1], at the int32 scalar `sample_rate` (tf.audio.encode_wav)."""
    with name_scope(name, "EncodeWav", [audio, sample_rate]) as scope:
        audio = _input(audio, "audio", "EncodeWav", _dtypes.float32)
        sample_rate = _input(sample_rate, "sample_rate", "EncodeWav", _dtypes.int32)
        return apply_op("EncodeWav", [audio, sample_rate], {}, name=scope,
                        output_dtypes=[_dtypes.string])
