"""`tf.audio` -- the names of TensorFlow 1.15's tf.audio namespace (TF's generated
api/_v1/audio/__init__.py): reading and writing 16-bit PCM WAV files, sandbox/ops/audio_ops.py.

    audio, sample_rate = tf.audio.decode_wav(tf.read_file('speech.wav'), desired_channels=1)
    wav = tf.audio.encode_wav(audio, sample_rate)        # float32 [samples, channels] -> bytes

The spectrograms and mel features that usually follow are tf.signal's (sandbox/api/signal.py).
Not here: tf.contrib.ffmpeg (compressed audio through an ffmpeg binary).
"""
from ..ops.audio_ops import decode_wav, encode_wav  # noqa: F401

__all__ = ["decode_wav", "encode_wav"]
