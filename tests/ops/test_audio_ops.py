"""Tests for sandbox/ops/audio_ops.py: tf.audio.encode_wav and tf.audio.decode_wav. Every byte
string, value and message marked "TF" was taken from TensorFlow 2.15.1 (tf.compat.v1, graph
mode) running the same program."""
import io
import wave

import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors

# A clip of 8 frames x 2 channels: halves of a step (rounded away from zero), values past
# +-1, NaN and infinities.
CLIP = np.array([[0.5 / 32768, -1.5 / 32768], [2.5 / 32768, -0.49999 / 32768], [1.0, -1.0],
                 [1.5, -2.0], [np.nan, np.inf], [-np.inf, 0.3], [1e-5, -1e-5],
                 [0.99999, -0.99999]], np.float32)
# TF: tf.audio.encode_wav(CLIP, 22050)
CLIP_WAV = (b'RIFFD\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00"V\x00\x00\x88X\x01\x00'
            b'\x04\x00\x10\x00data \x00\x00\x00\x01\x00\xfe\xff\x03\x00\x00\x00\xff\x7f\x00\x80'
            b'\xff\x7f\x00\x80\x00\x00\xff\x7f\x00\x80f&\x00\x00\x00\x00\xff\x7f\x00\x80')
# TF: tf.audio.decode_wav(CLIP_WAV).audio
CLIP_DECODED = [[3.0517578125e-05, -6.103515625e-05], [9.1552734375e-05, 0.0],
                [0.999969482421875, -1.0], [0.999969482421875, -1.0],
                [0.0, 0.999969482421875], [-1.0, 0.29998779296875], [0.0, 0.0],
                [0.999969482421875, -1.0]]


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def fails(fetches, message):
    with pytest.raises(errors.InvalidArgumentError, match=message):
        run(fetches)


def test_encode_wav_writes_tfs_bytes():
    wav = tf.audio.encode_wav(CLIP, 22050)
    assert wav.op.type == "EncodeWav" and wav.op.name == "EncodeWav"
    assert wav.dtype == tf.string and wav.get_shape().as_list() == []
    assert run(wav) == CLIP_WAV
    ramp = np.linspace(-1.2, 1.2, 21, dtype=np.float32).reshape(7, 3)
    # TF: tf.audio.encode_wav(ramp, 11025), 3 channels
    assert run(tf.audio.encode_wav(ramp, 11025)) == (
        b'RIFFN\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x03\x00\x11+\x00\x00f\x02\x01\x00'
        b'\x06\x00\x10\x00data*\x00\x00\x00\x00\x80\x00\x80\x1f\x85{\x94\xd7\xa33\xb3\x8f\xc2'
        b'\xec\xd1H\xe1\xa4\xf0\x00\x00\\\x0f\xb8\x1e\x14.q=\xcdL)\\\x85k\xe1z\xff\x7f\xff\x7f')
    # TF: no frames is a valid file with an empty data chunk
    assert run(tf.audio.encode_wav(np.zeros([0, 2], np.float32), 8000)) == (
        b'RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00@\x1f\x00\x00\x00}\x00\x00'
        b'\x04\x00\x10\x00data\x00\x00\x00\x00')


def test_encode_wav_is_what_pythons_wave_module_writes():
    samples = np.array([[0, 1, -1], [32767, -32768, 1234]], np.int16)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(3)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(samples.astype("<i2").tobytes())
    audio = samples.astype(np.float32) / 32768
    assert run(tf.audio.encode_wav(audio, tf.constant(16000))) == buffer.getvalue()


def test_decode_wav_gives_tfs_floats():
    decoded = tf.audio.decode_wav(CLIP_WAV)
    assert decoded.audio is decoded[0] and decoded.sample_rate is decoded[1]
    assert decoded.audio.get_shape().as_list() == [None, None]
    assert decoded.sample_rate.get_shape().as_list() == []
    audio, rate = run(decoded)
    assert audio.dtype == np.float32 and audio.tolist() == CLIP_DECODED
    assert rate.dtype == np.int32 and rate == 22050
    # decoding what encode_wav wrote gives the 16-bit values back
    again = run(tf.audio.decode_wav(tf.audio.encode_wav(audio, rate)).audio)
    np.testing.assert_array_equal(again, audio)


def test_decode_wav_desired_channels_and_samples():
    d = tf.audio.decode_wav(CLIP_WAV, desired_channels=1)
    assert d.audio.get_shape().as_list() == [None, 1]
    assert run(d.audio).tolist() == [[row[0]] for row in CLIP_DECODED]
    # TF: channels past the file's repeat its last one
    d = tf.audio.decode_wav(CLIP_WAV, desired_channels=4, desired_samples=9)
    assert d.audio.get_shape().as_list() == [9, 4]
    assert run(d.audio).tolist() == [row + [row[1]] * 2 for row in CLIP_DECODED] + [[0.0] * 4]
    d = tf.audio.decode_wav(CLIP_WAV, desired_samples=3)
    assert d.audio.get_shape().as_list() == [3, None]
    assert run(d.audio).tolist() == CLIP_DECODED[:3]
    assert run(tf.audio.decode_wav(CLIP_WAV, 0, 0).audio).shape == (0, 0)
    assert run(tf.audio.decode_wav(CLIP_WAV, 1, 0).audio).shape == (0, 1)
    with pytest.raises(ValueError, match="channels must be non-negative, got -2"):
        tf.audio.decode_wav(CLIP_WAV, desired_channels=-2)
    with pytest.raises(ValueError, match="samples must be non-negative, got -3"):
        tf.audio.decode_wav(CLIP_WAV, desired_samples=-3)


def test_decode_wav_reads_a_file_and_skips_chunks_as_tf(tmp_path):
    wav = run(tf.audio.encode_wav([[0.1, 0.2], [0.3, 0.4]], 8000))
    fmt, data = wav[12:36], wav[36:]
    junk = b"JUNK\x03\x00\x00\x00abc"
    listing = b"LIST\x04\x00\x00\x00abcd"
    path = tmp_path / "a.wav"
    path.write_bytes(b"RIFF\0\0\0\0WAVE" + junk + fmt + listing + data)
    audio, rate = run(tf.audio.decode_wav(tf.read_file(str(path))))
    # TF: [[0.1000061, 0.2000122], [0.2999878, 0.3999939]], 8000
    np.testing.assert_array_equal(audio, np.array([[3277, 6554], [9830, 13107]]) / 32768)
    assert rate == 8000
    fmt18 = b"fmt \x12\x00\x00\x00" + fmt[8:] + b"\0\0"         # 18-byte format chunk
    np.testing.assert_array_equal(run(tf.audio.decode_wav(b"RIFF\0\0\0\0WAVE" + fmt18 + data)
                                      ).audio, audio)
    fails(tf.audio.decode_wav(b"RIFF\0\0\0\0WAVE" + listing + fmt + data),
          "Unexpected field LIST")


@pytest.mark.parametrize("edit, message", [   # TF's messages
    (lambda w: b"", "Data too short when trying to read string"),
    (lambda w: b"RIFX" + w[4:], "Header mismatch: Expected RIFF but found RIFX"),
    (lambda w: w[:30], "Data too short when trying to read string"),
    (lambda w: w[:50], "Data too short when trying to read string"),
    (lambda w: w.replace(b"data", b"dat2"), "No data chunk found in WAV"),
    (lambda w: w + w[36:], "More than one data chunk found in WAV"),
    (lambda w: w[:34] + b"\x08\x00" + w[36:], "Can only read 16-bit WAV files, but received 8"),
    (lambda w: w[:20] + b"\x03\x00" + w[22:],
     r"Bad audio format for WAV: Expected 1 \(PCM\), but got3"),
    (lambda w: w[:22] + b"\x00\x00" + w[24:],
     "Bad number of channels for WAV: Expected at least 1, but got 0"),
    (lambda w: w[:32] + b"\x03\x00" + w[34:],
     "Bad bytes per sample in WAV header: Expected 4 but got 3"),
    (lambda w: w[:28] + b"\x03\x00\x00\x00" + w[32:],
     r"Bad bytes per second in WAV header: Expected 88200 but got 3 \(sample_rate=22050, "
     r"bytes_per_sample=4\)"),
    (lambda w: w[:16] + b"\x11\x00\x00\x00" + w[20:],
     "Bad format chunk size for WAV: Expected 16 or 18, but got17"),
    (lambda w: w + b"xxxx\xff\xff\xff\xff",
     "WAV data chunk 'xxxx' is too large: 4294967295 bytes, but the limit is 2147483647"),
])
def test_decode_wav_errors(edit, message):
    fails(tf.audio.decode_wav(edit(CLIP_WAV)), message)


def test_decode_wav_ignores_chunks_after_the_data():
    audio = run(tf.audio.decode_wav(CLIP_WAV + b"xxxx\x02\x00\x00\x00yy").audio)
    assert audio.tolist() == CLIP_DECODED


def test_encode_wav_errors():
    # TF's messages, when the graph is built ...
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        tf.audio.encode_wav([1.0, 2.0], 3)
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.audio.encode_wav([[1.0, 2.0]], [3])
    with pytest.raises(TypeError, match="Expected int32 passed to parameter 'sample_rate' of "
                                        "op 'EncodeWav', got 3.0 of type 'float' instead"):
        tf.audio.encode_wav([[1.0, 2.0]], 3.0)
    with pytest.raises(TypeError, match="Input 'audio' of 'EncodeWav' Op has type float64"):
        tf.audio.encode_wav(tf.constant([[1.0]], tf.float64), 3)
    with pytest.raises(TypeError, match="Expected string passed to parameter 'contents'"):
        tf.audio.decode_wav(3)
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.audio.decode_wav([CLIP_WAV])
    # ... and when it runs
    unknown = tf.placeholder_with_default(np.zeros([2], np.float32), None)
    fails(tf.audio.encode_wav(unknown, 3), r"audio must be 2-dimensional\[2\]")
    fails(tf.audio.encode_wav(np.zeros([3, 0], np.float32), 8000), "audio is null")
    fails(tf.audio.encode_wav(np.zeros([0, 0], np.float32), 8000),
          r"num_channels must be in \(0, 2\^16\), got: 0")
    fails(tf.audio.encode_wav(np.zeros([3, 1], np.float32), 0),
          r"sample_rate must be in \(0, 2\^32\), got: 0")
    fails(tf.audio.encode_wav(np.zeros([3, 1], np.float32), -5),
          r"sample_rate must be in \(0, 2\^32\), got: 18446744073709551611")


def test_op_names_and_no_gradient():
    x = tf.placeholder(tf.float32, [None, 2])
    wav = tf.audio.encode_wav(x, 8000, name="enc")
    decoded = tf.audio.decode_wav(wav, name="dec")
    assert (wav.op.name, decoded.audio.op.name, decoded.audio.op.type) == \
        ("enc", "dec", "DecodeWav")
    assert [t.name for t in decoded.audio.op.inputs] == ["enc:0"]
    assert tf.gradients(decoded.audio, x) == [None]
