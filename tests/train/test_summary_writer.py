"""tf.summary.FileWriter: the event files it writes parse back record by record (length and
masked CRC32C checked, as TensorBoard's reader does) and hold the graph and the summaries."""
import os
import struct

import numpy as np
import pytest

import sandbox as tf
from sandbox.summary.writer import FileWriter, FileWriterCache, SummaryWriter, graph_def_proto

event_pb2 = pytest.importorskip("tensorboardX.proto.event_pb2")
from tensorboardX.crc32c import crc32c  # noqa: E402
from tensorboardX.proto import graph_pb2, summary_pb2  # noqa: E402


def _masked(data):
    x = crc32c(data) & 0xFFFFFFFF
    return (((x >> 15) | (x << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def read_events(path):
    """Every Event of an event file, checking each record's framing and CRCs."""
    data = open(path, "rb").read()
    events, at = [], 0
    while at < len(data):
        header = data[at:at + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", data[at + 8:at + 12])
        assert header_crc == _masked(header), "record length CRC"
        body = data[at + 12:at + 12 + length]
        (body_crc,) = struct.unpack("<I", data[at + 12 + length:at + 16 + length])
        assert len(body) == length and body_crc == _masked(body), "record data CRC"
        events.append(event_pb2.Event.FromString(body))
        at += 16 + length
    return events


def event_files(logdir):
    return sorted(os.path.join(logdir, f) for f in os.listdir(logdir) if "tfevents" in f)


def scalars(events):
    return [(e.step, v.tag, v.simple_value) for e in events if e.HasField("summary")
            for v in e.summary.value if v.HasField("simple_value")]


def test_summaries_and_graph_parse_back(tmp_path):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with tf.device("/job:localhost/task:0"):       # a device a local session has
        w = tf.Variable(tf.ones([3, 2]), name="w")
    y = tf.matmul(x, w, name="y")
    loss = tf.reduce_mean(y, name="mean")
    tf.summary.scalar("loss", loss)
    tf.summary.histogram("weights", w)
    merged = tf.summary.merge_all()
    writer = FileWriter(str(tmp_path), tf.get_default_graph())
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        sess.run(w.initializer)
        for step in range(5):
            writer.add_summary(sess.run(merged, {x: np.full((2, 3), step, np.float32)}), step)
    writer.close()
    (path,) = event_files(tmp_path)
    assert os.path.basename(path).startswith("events.out.tfevents.")
    events = read_events(path)
    assert events[0].file_version == "brain.Event:2"
    graph = graph_pb2.GraphDef.FromString(events[1].graph_def)
    nodes = {n.name: n for n in graph.node}
    assert nodes["y"].op == "MatMul" and list(nodes["y"].input) == ["x", "w/read"]
    assert nodes["w"].device == "/job:localhost/task:0"
    assert [d.size for d in nodes["x"].attr["shape"].shape.dim] == [-1, 3]
    assert [d.size for d in nodes["y"].attr["_output_shapes"].list.shape[0].dim] == [-1, 2]
    assert scalars(events) == [(s, "loss", 3.0 * s) for s in range(5)]
    histos = [e.summary.value[1].histo for e in events if e.HasField("summary")]
    assert [h.num for h in histos] == [6] * 5 and histos[0].sum == 6.0
    assert all(e.wall_time > 0 for e in events)


def test_add_summary_accepts_protos_and_refuses_garbage(tmp_path):
    with FileWriter(str(tmp_path), flush_secs=1000) as writer:
        writer.add_summary(summary_pb2.Summary(value=[
            summary_pb2.Summary.Value(tag="acc", simple_value=0.5)]), global_step=10)
        writer.add_summary(np.array(summary_pb2.Summary(value=[
            summary_pb2.Summary.Value(tag="acc", simple_value=0.75)]).SerializeToString(),
            dtype=object), 11)
        with pytest.raises(TypeError, match="Summary protocol buffer"):
            writer.add_summary(3.0, 1)
        with pytest.raises(ValueError, match="not a serialized Summary"):
            writer.add_summary(b"\xff\xff\xff", 1)
        writer.flush()                                # visible before close
        assert scalars(read_events(event_files(tmp_path)[0])) == [(10, "acc", 0.5),
                                                                 (11, "acc", 0.75)]


def test_many_events_through_a_small_queue(tmp_path):
    writer = FileWriter(str(tmp_path), max_queue=2, flush_secs=0.01)
    for step in range(300):
        writer.add_summary(summary_pb2.Summary(value=[
            summary_pb2.Summary.Value(tag="s", simple_value=step)]), step)
    writer.close()
    assert [s for s, _, _ in scalars(read_events(event_files(tmp_path)[0]))] == list(range(300))


def test_close_reopen_session_log_and_suffix(tmp_path, caplog):
    writer = FileWriter(str(tmp_path / "logs"), filename_suffix=".v2")
    assert writer.get_logdir() == str(tmp_path / "logs")
    writer.add_session_log(event_pb2.SessionLog(status=event_pb2.SessionLog.START), 0)
    writer.close()
    writer.add_summary(summary_pb2.Summary(), 1)      # closed: a no-op, with a warning
    assert "closed FileWriter" in caplog.text
    writer.reopen()                                    # a new file in the same logdir
    writer.add_summary(summary_pb2.Summary(value=[
        summary_pb2.Summary.Value(tag="t", simple_value=2.0)]), 2)
    writer.close()
    first, second = event_files(tmp_path / "logs")
    assert first.endswith(".v2") and second.endswith(".v2")
    logs = [e.session_log.status for e in read_events(first) if e.HasField("session_log")]
    assert logs == [event_pb2.SessionLog.START]
    assert scalars(read_events(first)) == []
    assert scalars(read_events(second)) == [(2, "t", 2.0)]


def test_files_of_one_logdir_sort_in_the_order_they_were_written(tmp_path):
    """TensorBoard reads a logdir's event files in sorted order: the 10th file of a process
    must sort after its 9th (the counter in the name has a fixed width)."""
    for step in range(12):
        writer = FileWriter(str(tmp_path))
        writer.add_summary(summary_pb2.Summary(value=[
            summary_pb2.Summary.Value(tag="t", simple_value=float(step))]), step)
        writer.close()
    steps = [s for f in event_files(tmp_path) for s, _, _ in scalars(read_events(f))]
    assert steps == list(range(12))


def test_graph_def_dict_and_errors(tmp_path):
    a = tf.constant([1.0, 2.0], name="a")
    tf.identity(a, name="b")
    with tf.Session() as sess:
        graph_def = sess.graph_def
    proto = graph_def_proto(graph_def)
    assert [(n.name, n.op, list(n.input)) for n in proto.node] == [("a", "Const", []),
                                                                  ("b", "Identity", ["a"])]
    assert proto.node[0].attr["value"].tensor.tensor_shape.dim[0].size == 2
    with SummaryWriter(str(tmp_path), graph_def=graph_def) as writer:      # TF 0.x style
        with pytest.raises(ValueError, match="only graph, or graph_def"):
            writer.add_graph(tf.get_default_graph(), graph_def=graph_def)
        with pytest.raises(TypeError, match="instance of `Graph`"):
            writer.add_graph("not a graph")
    events = read_events(event_files(tmp_path)[0])
    assert len(graph_pb2.GraphDef.FromString(events[1].graph_def).node) == 2


def test_file_writer_cache(tmp_path):
    a = FileWriterCache.get(str(tmp_path / "a"))
    assert FileWriterCache.get(str(tmp_path / "a")) is a
    assert FileWriterCache.get(str(tmp_path / "b")) is not a
    FileWriterCache.clear()
    assert FileWriterCache.get(str(tmp_path / "a")) is not a
    FileWriterCache.clear()
    assert len(event_files(tmp_path / "a")) == 2
