"""Audio summaries -- mirrors TensorFlow's AudioSummaryV2 op (core/kernels/summary_audio_op.cc)
and tf.summary.audio (python/summary/summary.py).

An audio summary records up to `max_outputs` clips of a batch, float32 [batch, frames,
channels] (or [batch, frames], one channel) with values in [-1, 1], as WAV files TensorBoard
can play:

    tf.summary.audio('generated', waveforms, sample_rate=16000, max_outputs=2)

Each clip is one Summary.Audio value tagged 'generated/audio/0', 'generated/audio/1' ...
('generated/audio' when max_outputs is 1), holding the sample rate, the channels, the frames
and the clip as 16-bit PCM WAV bytes -- written by tf.audio.encode_wav's encoder
(sandbox/ops/audio_ops.py), so they are TF's byte for byte. The WAV header takes the sample
rate rounded to a whole number (at least 1); the Summary keeps it as given.
"""
import numpy as np

from ..framework import dtypes
from ..framework import errors
from ..framework.graph import GraphKeys
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.tensor import convert_to_tensor
from .audio_ops import _input, encode_wav_bytes
from .summary_ops import _serialized, _summary_pb2, _text, collect, summary_scope

__all__ = []   # reached as tf.summary.audio (sandbox/summary/__init__.py)


class AudioSummaryV2(OpDef):
    """Summary with up to max_outputs clips of a float32 batch [b, frames(, channels)]."""
    shape = scalar_shape
    differentiable = False

    def kernel(tag, tensor, sample_rate, max_outputs=3):
        tag = np.asarray(tag, dtype=object)
        if tag.ndim != 0:
            raise errors.InvalidArgumentError(None, None, "Tag must be a scalar")
        if tensor.ndim not in (2, 3):
            raise errors.InvalidArgumentError(
                None, None, f"Tensor must be 3-D or 2-D, got: "
                f"[{','.join(map(str, tensor.shape))}]")
        sample_rate = np.asarray(sample_rate, dtype=np.float32)
        if sample_rate.ndim != 0:
            raise errors.InvalidArgumentError(
                None, None, "sample_rate must be rank-0 or contain a single value")
        if not sample_rate > 0:
            raise errors.InvalidArgumentError(None, None, "sample_rate must be > 0")
        base_tag = _text(tag.item())
        frames = tensor.shape[1]
        channels = 1 if tensor.ndim == 2 else tensor.shape[2]
        wav_rate = max(1, int(np.rint(sample_rate)))     # TF's lrintf, and 0 made 1
        pb = _summary_pb2()
        values = []
        for i in range(min(max_outputs, tensor.shape[0])):
            clip = encode_wav_bytes(tensor[i], wav_rate, channels, frames)
            values.append(pb.Summary.Value(
                tag=f"{base_tag}/audio/{i}" if max_outputs > 1 else f"{base_tag}/audio",
                audio=pb.Summary.Audio(sample_rate=float(sample_rate), num_channels=channels,
                                       length_frames=frames, encoded_audio_string=clip,
                                       content_type="audio/wav")))
        return _serialized(pb.Summary(value=values))


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """A summary op recording up to `max_outputs` clips of `tensor`, float32 [batch, frames,
    channels] or [batch, frames], values in [-1, 1], played at `sample_rate` Hz, as WAV files
    (tf.summary.audio). Tags 'name/audio/0', 'name/audio/1' ... ('name/audio' when max_outputs
    is 1). Added to `collections` (default [GraphKeys.SUMMARIES])."""
    if int(max_outputs) < 1:
        raise ValueError(f"Attr 'max_outputs' of 'AudioSummaryV2' Op passed {max_outputs} less "
                         "than minimum 1.")
    with summary_scope(name, family=family, values=[tensor]) as (tag, scope):
        sample_rate = convert_to_tensor(sample_rate, dtype=dtypes.float32, name="sample_rate")
        tag = _input(tag, "tag", "AudioSummaryV2", dtypes.string)
        tensor = _input(tensor, "tensor", "AudioSummaryV2", dtypes.float32)
        val = apply_op("AudioSummaryV2", [tag, tensor, sample_rate],
                       {"max_outputs": int(max_outputs)}, name=scope,
                       output_dtypes=[dtypes.string])
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val
