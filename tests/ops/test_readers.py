"""Readers (sandbox/ops/reader_ops.py): keys, values, ends and counts as measured with TF 1.15.5
(/tmp/tf115/bin/python, the same small programs), and a reader living on a worker task."""
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


def _files(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"h\nl1\nl2\n\nl4")        # no newline at the end
    (tmp_path / "b.txt").write_bytes(b"x1\r\n")
    return str(tmp_path / "a.txt"), str(tmp_path / "b.txt")


def _drain(sess, fetch, limit=100):
    out = []
    for _ in range(limit):
        try:
            out.append(sess.run(fetch))
        except tf.errors.OutOfRangeError as e:
            return out, e
    raise AssertionError("the reader did not end")


def _run_queue(sess):
    sess.run(tf.local_variables_initializer())
    return tf.train.start_queue_runners(sess)


def test_text_line_reader_keys_skip_header_and_end_of_epochs(tmp_path):
    a, b = _files(tmp_path)
    q = tf.train.string_input_producer([a, b], shuffle=False, num_epochs=1)
    reader = tf.TextLineReader(skip_header_lines=1)
    key, value = reader.read(q)
    assert key.dtype == tf.string and key.shape.as_list() == [] and value.shape.as_list() == []
    with tf.Session() as sess:
        _run_queue(sess)
        got, err = _drain(sess, [key, value])
        produced, completed = sess.run([reader.num_records_produced(),
                                        reader.num_work_units_completed()])
    # TF 1.15: lines counted from 1 with the header; an empty line is a record; the last
    # line without a newline too; "\r\n" ends a line
    assert got == [[a.encode() + b":2", b"l1"], [a.encode() + b":3", b"l2"],
                   [a.encode() + b":4", b""], [a.encode() + b":5", b"l4"]]
    assert len(got) == 4                        # b.txt's only line is its skipped header
    assert "closed and has insufficient elements" in err.message
    assert (produced, completed) == (4, 2)


def test_read_up_to_stops_at_the_end_of_each_file(tmp_path):
    a, b = _files(tmp_path)
    q = tf.train.string_input_producer([a, b], shuffle=False, num_epochs=1)
    keys, values = tf.TextLineReader().read_up_to(q, 4)
    assert keys.shape.as_list() == [None]
    with tf.Session() as sess:
        _run_queue(sess)
        got, _ = _drain(sess, values)
    # measured in TF 1.15: [h l1 l2 ''], [l4], [x1] -- never a batch across two files
    assert [list(v) for v in got] == [[b"h", b"l1", b"l2", b""], [b"l4"], [b"x1"]]


def test_fixed_length_reader_header_footer_and_hop(tmp_path):
    f = tmp_path / "f.bin"
    f.write_bytes(b"0123456789ABCDEFGHIJKL")
    g = tmp_path / "g.bin"
    g.write_bytes(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    q = tf.train.string_input_producer([str(f)], shuffle=False, num_epochs=1)
    k, v = tf.FixedLengthRecordReader(record_bytes=5, header_bytes=2,
                                      footer_bytes=1).read_up_to(q, 3)
    q2 = tf.train.string_input_producer([str(g)], shuffle=False, num_epochs=1)
    k2, v2 = tf.FixedLengthRecordReader(record_bytes=5, hop_bytes=3).read_up_to(q2, 4)
    with tf.Session() as sess:
        _run_queue(sess)
        got, _ = _drain(sess, [k, v])
        got2, _ = _drain(sess, v2)
    # TF 1.15: the short last record (HIJK) is dropped; keys are record indices
    assert [list(x) for x in got[0]] == [[str(f).encode() + b":%d" % i for i in range(3)],
                                         [b"23456", b"789AB", b"CDEFG"]]
    assert len(got) == 1
    assert [list(x) for x in got2] == [[b"01234", b"34567", b"6789A", b"9ABCD"],
                                       [b"CDEFG", b"FGHIJ", b"IJKLM", b"LMNOP"],
                                       [b"OPQRS", b"RSTUV", b"UVWXY"]]


def test_whole_file_reader(tmp_path):
    a, b = _files(tmp_path)
    q = tf.train.string_input_producer([a, b], shuffle=False)
    key, value = tf.WholeFileReader().read(q)
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        got = [sess.run([key, value]) for _ in range(3)]
        coord.request_stop()
        coord.join(threads)
    assert got == [[a.encode(), b"h\nl1\nl2\n\nl4"], [b.encode(), b"x1\r\n"],
                   [a.encode(), b"h\nl1\nl2\n\nl4"]]       # no num_epochs: round and round


def test_tfrecord_reader_gzip_offsets_reset_and_serialize_state(tmp_path):
    path = str(tmp_path / "r.tfr")
    gzip = tf.python_io.TFRecordOptions(tf.python_io.TFRecordCompressionType.GZIP)
    with tf.python_io.TFRecordWriter(path, gzip) as w:
        for i in range(3):
            w.write(b"rec%d" % i)
    q = tf.train.string_input_producer([path], shuffle=False, num_epochs=1)
    reader = tf.TFRecordReader(options=gzip)
    key, value = reader.read(q)
    with tf.Session() as sess:
        _run_queue(sess)
        first = [sess.run([key, value]) for _ in range(2)]
        assert sess.run(reader.num_records_produced()) == 2
        sess.run(reader.reset())
        assert sess.run(reader.num_records_produced()) == 0
        with pytest.raises(tf.errors.UnimplementedError, match="SerializeState"):
            sess.run(reader.serialize_state())      # as in TF 1.15
    # TF 1.15: the key is the record's offset in the uncompressed stream (16 + 4 bytes each)
    assert first == [[path.encode() + b":0", b"rec0"], [path.encode() + b":20", b"rec1"]]


def test_identity_reader_and_missing_file(tmp_path):
    q = tf.FIFOQueue(10, tf.string)
    key, value = tf.IdentityReader().read(q)
    missing = tf.FIFOQueue(10, tf.string)
    _, text = tf.TextLineReader().read(missing)
    with tf.Session() as sess:
        sess.run(q.enqueue_many([["w1", "w2"]]))
        assert [sess.run([key, value]) for _ in range(2)] == [[b"w1", b"w1"], [b"w2", b"w2"]]
        sess.run(missing.enqueue(str(tmp_path / "nope.txt")))
        with pytest.raises(tf.errors.NotFoundError, match="nope.txt"):
            sess.run(text)


def test_reader_and_filename_queue_live_on_the_worker(tmp_path):
    a, _ = _files(tmp_path)
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device("/job:worker/task:0"):
            q = tf.train.string_input_producer([a], shuffle=False, num_epochs=1)
            reader = tf.TextLineReader()
            key, value = reader.read(q)
        md = tf.RunMetadata()
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(tf.local_variables_initializer())
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord=coord)
            first = sess.run(value, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                             run_metadata=md)
            coord.request_stop()
            coord.join(threads)
        # the reader's position is the worker's state: a second session goes on from there
        with tf.Session(cluster.target("worker", 0)) as sess:
            rest, err = _drain(sess, value)
            count = sess.run(reader.num_records_produced())
    assert first == b"h"
    assert rest == [b"l1", b"l2", b"", b"l4"]
    assert "input_producer" in err.message and count == 5
    stats = {d.device: [n.node_name for n in d.node_stats] for d in md.step_stats.dev_stats}
    where = [dev for dev, names in stats.items() if "ReaderReadV2" in names]
    assert where and all("/job:worker/" in dev for dev in where)
