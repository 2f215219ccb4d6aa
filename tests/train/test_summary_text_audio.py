"""tf.summary.text, tf.summary.tensor_summary, tf.summary.audio, get_summary_description and the
protocol buffers tf.summary re-exports. Every byte string marked "TF" is what TensorFlow 2.15.1
(tf.compat.v1, graph mode) produced for the same program: the sandbox's Summary protos must
be TF's byte for byte, so TensorBoard reads them as it reads TF's."""
import io
import os
import wave

import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from sandbox.framework.node_def import NodeDef

CLIPS = np.array([[[0.5, -0.5], [1.0, -1.0], [0.25, 2.0]],
                  [[0.1, 0.2], [0.3, 0.4], [0.0, 0.00001]]], np.float32)


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


# -- text and tensor summaries -------------------------------------------------------------------

def test_text_summary_is_tfs():
    greet = tf.summary.text("greet", tf.constant(["hello", "wörld"]))
    scalar = tf.summary.text("scalar text", tf.constant("hi"))
    assert (greet.op.type, greet.op.name, scalar.op.name) == \
        ("TensorSummaryV2", "greet", "scalar_text")
    assert [t.name for t in greet.op.inputs] == \
        ["greet/tag:0", "Const:0", "greet/serialized_summary_metadata:0"]
    assert greet.dtype == tf.string and greet.get_shape().as_list() == []
    assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [greet, scalar]
    got_greet, got_scalar = run([greet, scalar])
    assert got_greet == (b"\n*\n\x05greetB\x17\x08\x07\x12\x04\x12\x02\x08\x02B\x05helloB\x06"
                         b"w\xc3\xb6rldJ\x08\n\x06\n\x04text")                      # TF
    assert got_scalar == (b"\n!\n\x0bscalar_textB\x08\x08\x07\x12\x00B\x02hiJ\x08\n\x06\n\x04"
                          b"text")                                                   # TF
    value = tf.Summary.FromString(got_greet).value[0]
    assert value.tag == "greet" and value.metadata.plugin_data.plugin_name == "text"
    assert value.tensor.dtype == 7                                          # DT_STRING
    assert [d.size for d in value.tensor.tensor_shape.dim] == [2]
    assert list(value.tensor.string_val) == [b"hello", "wörld".encode()]


def test_text_summary_takes_only_string_tensors():
    with pytest.raises(ValueError, match="Expected tensor Const:0 to have dtype string, got "
                                         "<dtype: 'int32'>"):              # TF's message
        tf.summary.text("t", tf.constant(1))
    with pytest.raises(AttributeError, match="'str' object has no attribute 'dtype'"):
        tf.summary.text("t", "hello")                                       # as in TF


def test_tensor_summary_is_tfs():
    cases = {                     # TF's bytes: numbers in tensor_content, metadata always there
        "ts": (lambda: tf.summary.tensor_summary(
            "ts", tf.constant([[1.5, 2], [3, 4]]), summary_description="desc",
            display_name="disp"),
            b'\n2\n\x02tsB\x1e\x08\x01\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02"\x10\x00\x00'
            b'\xc0?\x00\x00\x00@\x00\x00@@\x00\x00\x80@J\x0c\x12\x04disp\x1a\x04desc'),
        "ti": (lambda: tf.summary.tensor_summary("ti", tf.constant(7, tf.int64)),
               b'\n\x16\n\x02tiB\x0e\x08\t\x12\x00"\x08\x07\x00\x00\x00\x00\x00\x00\x00J\x00'),
        "tb": (lambda: tf.summary.tensor_summary("tb", tf.constant([True, False])),
               b'\n\x14\n\x02tbB\x0c\x08\n\x12\x04\x12\x02\x08\x02"\x02\x01\x00J\x00'),
        "te": (lambda: tf.summary.tensor_summary("te", tf.zeros([0, 3])),
               b'\n\x12\n\x02teB\n\x08\x01\x12\x06\x12\x00\x12\x02\x08\x03J\x00'),
        "tc": (lambda: tf.summary.tensor_summary("tc", tf.constant([1 + 2j, 3j], tf.complex64)),
               b'\n"\n\x02tcB\x1a\x08\x08\x12\x04\x12\x02\x08\x02"\x10\x00\x00\x80?\x00\x00\x00@'
               b'\x00\x00\x00\x00\x00\x00@@J\x00'),
        "tstr": (lambda: tf.summary.tensor_summary(
            "tstr", tf.constant(["x"]), summary_metadata=tf.SummaryMetadata(display_name="a"),
            summary_description="b", family="fam"),
            b'\n#\n\x0cfam/fam/tstrB\x0b\x08\x07\x12\x04\x12\x02\x08\x01B\x01xJ\x06\x12\x01a\x1a'
            b'\x01b'),
    }
    ops = {key: make() for key, (make, _) in cases.items()}
    got = run(ops)
    for key, (_, expected) in cases.items():
        assert got[key] == expected, key
    assert ops["tstr"].op.name == "fam/tstr"
    listed = tf.summary.tensor_summary("listed", [1, 2], collections=[])
    assert listed.op.inputs[1].name == "listed/tensor:0"
    assert listed not in tf.get_collection(tf.GraphKeys.SUMMARIES)


def test_tensor_summary_of_a_fed_tensor():
    x = tf.placeholder(tf.float64, [None])
    s = tf.summary.tensor_summary("x", x)
    with tf.Session() as sess:
        value = tf.Summary.FromString(sess.run(s, {x: [0.5, -1.0]})).value[0]
    assert value.tensor.dtype == 2                                          # DT_DOUBLE
    assert np.frombuffer(value.tensor.tensor_content, "<f8").tolist() == [0.5, -1.0]


def test_get_summary_description():
    ts = tf.summary.tensor_summary("ts", tf.constant(1.0))
    with pytest.raises(ValueError, match="Can't get_summary_description on TensorSummaryV2"):
        tf.summary.get_summary_description(ts.op.node_def)                 # as TF
    # TF's older TensorSummary op keeps a JSON description (a NodeDef TF 2.15.1 wrote)
    from tensorboardX.proto import attr_value_pb2, node_def_pb2
    node = node_def_pb2.NodeDef(name="TensorSummary", op="TensorSummary")
    node.attr["description"].CopyFrom(attr_value_pb2.AttrValue(s=b'{"typeHint": "scalar"}'))
    description = tf.summary.get_summary_description(node)
    assert isinstance(description, tf.summary.SummaryDescription)
    assert description.type_hint == "scalar"
    node = NodeDef(name="s", op="TensorSummary", attr={"description": '{"type_hint": "image"}'})
    assert tf.summary.get_summary_description(node).type_hint == "image"


# -- audio summaries ----------------------------------------------------------------------------

def test_audio_summary_is_tfs():
    snd = tf.summary.audio("snd", CLIPS, 16000.7)
    mono = tf.summary.audio("mono", CLIPS[:, :, 0], 8000, max_outputs=1)
    one = tf.summary.audio("one", CLIPS, 22050.5, max_outputs=1)
    with tf.name_scope("fam"):
        fam = tf.summary.audio("x", CLIPS, 44100, family="fff")
    assert (snd.op.type, snd.op.get_attr("max_outputs"), fam.op.name) == \
        ("AudioSummaryV2", 3, "fam/fff/x")
    assert [t.name for t in snd.op.inputs] == ["snd/tag:0", "snd/tensor:0", "snd/sample_rate:0"]
    got = run({"snd": snd, "mono": mono, "one": one, "fam": fam})
    header = b"\x10\x00\x00\x00\x01\x00\x02\x00"
    assert got["snd"] == (                                                            # TF
        b'\n]\n\x0bsnd/audio/02N\r\xcd\x02zF\x10\x02\x18\x03"8RIFF0\x00\x00\x00WAVEfmt '
        + header + b'\x81>\x00\x00\x04\xfa\x00\x00\x04\x00\x10\x00data\x0c\x00\x00\x00\x00@'
        b'\x00\xc0\xff\x7f\x00\x80\x00 \xff\x7f*\taudio/wav\n]\n\x0bsnd/audio/12N\r\xcd\x02zF'
        b'\x10\x02\x18\x03"8RIFF0\x00\x00\x00WAVEfmt ' + header + b'\x81>\x00\x00\x04\xfa\x00'
        b'\x00\x04\x00\x10\x00data\x0c\x00\x00\x00\xcd\x0c\x9a\x19f&33\x00\x00\x00\x00*\t'
        b'audio/wav')
    assert got["mono"] == (                                                           # TF
        b'\nV\n\nmono/audio2H\r\x00\x00\xfaE\x10\x01\x18\x03"2RIFF*\x00\x00\x00WAVEfmt \x10'
        b'\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00\x80>\x00\x00\x02\x00\x10\x00data\x06\x00'
        b'\x00\x00\x00@\xff\x7f\x00 *\taudio/wav')
    assert got["one"] == (                      # TF: 22050.5 Hz is 22050 in the WAV header
        b'\n[\n\tone/audio2N\r\x00E\xacF\x10\x02\x18\x03"8RIFF0\x00\x00\x00WAVEfmt ' + header
        + b'"V\x00\x00\x88X\x01\x00\x04\x00\x10\x00data\x0c\x00\x00\x00\x00@\x00\xc0\xff\x7f'
        b'\x00\x80\x00 \xff\x7f*\taudio/wav')
    values = tf.Summary.FromString(got["fam"]).value
    assert [v.tag for v in values] == ["fff/fam/fff/x/audio/0", "fff/fam/fff/x/audio/1"]
    clip = values[1].audio
    assert (clip.sample_rate, clip.num_channels, clip.length_frames, clip.content_type) == \
        (44100, 2, 3, "audio/wav")
    with wave.open(io.BytesIO(clip.encoded_audio_string)) as w:     # a WAV Python can read
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (44100, 2, 2)
        frames = np.frombuffer(w.readframes(3), "<i2").reshape(3, 2)
    assert frames.tolist() == [[3277, 6554], [9830, 13107], [0, 0]]


def test_audio_summary_edge_cases():
    slow = tf.summary.audio("slow", np.zeros([3, 2], np.float32), 0.3)
    empty = tf.summary.audio("empty", np.zeros([0, 2], np.float32), 8000)
    got = run([slow, empty])
    values = tf.Summary.FromString(got[0]).value
    assert [v.tag for v in values] == ["slow/audio/0", "slow/audio/1", "slow/audio/2"]
    assert values[0].audio.sample_rate == np.float32(0.3)
    assert values[0].audio.encoded_audio_string[24:28] == b"\x01\x00\x00\x00"   # TF: 1 Hz
    assert got[1] == b""                                                          # TF


def test_audio_summary_errors():
    with pytest.raises(ValueError, match="Attr 'max_outputs' of 'AudioSummaryV2' Op passed 0 "
                                         "less than minimum 1."):
        tf.summary.audio("a", CLIPS, 8000, max_outputs=0)
    unknown = tf.placeholder_with_default(np.zeros([3], np.float32), None)
    for summary, message in [                                          # TF's messages
            (tf.summary.audio("a", unknown, 8000), r"Tensor must be 3-D or 2-D, got: \[3\]"),
            (tf.summary.audio("a", CLIPS, 0), "sample_rate must be > 0"),
            (tf.summary.audio("a", CLIPS, [8000, 3]),
             "sample_rate must be rank-0 or contain a single value"),
            (tf.summary.audio("a", np.zeros([2, 2, 0], np.float32), 8000), "audio is null")]:
        with pytest.raises(errors.InvalidArgumentError, match=message):
            run(summary)


# -- with the rest of the summary machinery ------------------------------------------------------

def test_event_file_with_text_and_audio_reads_back(tmp_path):
    note = tf.placeholder(tf.string, [])
    tf.summary.text("note", note)
    tf.summary.audio("clip", CLIPS, 8000, max_outputs=1)
    tf.summary.scalar("loss", tf.constant(0.5))
    merged = tf.summary.merge_all()
    writer = tf.summary.FileWriter(str(tmp_path))
    with tf.Session() as sess:
        for step, text in enumerate(["first", "second"]):
            writer.add_summary(sess.run(merged, {note: text}), step)
    writer.close()
    (path,) = [os.path.join(tmp_path, f) for f in os.listdir(tmp_path)]
    events = [e for e in tf.train.summary_iterator(path) if e.HasField("summary")]
    assert [e.step for e in events] == [0, 1]
    values = [{v.tag: v for v in e.summary.value} for e in events]
    assert sorted(values[0]) == ["clip/audio", "loss", "note"]
    assert [list(v["note"].tensor.string_val) for v in values] == [[b"first"], [b"second"]]
    # The plugin metadata goes with a tag's first value only, as TF's FileWriter writes it.
    assert values[0]["note"].metadata.plugin_data.plugin_name == "text"
    assert not values[1]["note"].HasField("metadata")
    assert values[1]["clip/audio"].audio.encoded_audio_string.startswith(b"RIFF")


def test_summary_protos_are_the_sandboxs():
    assert tf.summary.Summary is tf.Summary and tf.summary.Event is tf.Event
    assert tf.summary.SessionLog is tf.SessionLog
    tagged = tf.summary.TaggedRunMetadata(tag="step_1", run_metadata=b"ab")
    assert tagged.SerializeToString() == b"\n\x06step_1\x12\x02ab"
    event = tf.summary.Event(step=3, tagged_run_metadata=tagged)
    assert tf.summary.Event.FromString(event.SerializeToString()).tagged_run_metadata.tag == \
        "step_1"
    assert tf.summary.SummaryDescription(type_hint="audio").type_hint == "audio"
    # TF 1.15 has these two in tf.summary only
    assert not hasattr(tf, "TaggedRunMetadata") and not hasattr(tf, "SummaryDescription")
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        tf.summary.Nope  # noqa: B018
