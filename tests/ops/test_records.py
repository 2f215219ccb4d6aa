"""TFRecord files (tf.python_io / tf.io: TFRecordWriter, tf_record_iterator, TFRecordOptions),
the file datasets of tf.data (TFRecordDataset, TextLineDataset, FixedLengthRecordDataset), and
tf.train.Example with tf.io.parse_single_example / parse_example.
The files are TensorFlow's own: real TensorFlow 1.15 reads what the sandbox writes and the other
way round (in a subprocess, when /tmp/tf115 is there); the orders and errors are the ones
measured with TF 1.15.5."""
import gzip
import json
import os
import subprocess
import textwrap
import zlib

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.platform.example_proto import (BytesList, DecodeError, Example, Feature, Features,
                                            FloatList, Int64List)

TF_PYTHON = "/tmp/tf115/bin/python"
RECORDS = [b"hello", b"", b"x" * 1000, bytes(range(256))]


def write(path, records=RECORDS, options=None):
    with tf.python_io.TFRecordWriter(str(path), options=options) as writer:
        for r in records:
            writer.write(r)
    return str(path)


def elements(dataset, feed_dict=None, initializable=False):
    if initializable:
        it = dataset.make_initializable_iterator()
    else:
        it = dataset.make_one_shot_iterator()
    nxt, out = it.get_next(), []
    with tf.Session() as sess:
        if initializable:
            sess.run(it.initializer, feed_dict)
        while True:
            try:
                out.append(sess.run(nxt))
            except tf.errors.OutOfRangeError:
                return out


# -- the format --------------------------------------------------------------------------

def test_the_bytes_are_tfs(tmp_path):
    path = write(tmp_path / "a.rec", [b"hello"])
    # TF 1.15.5 writes these 21 bytes for the record b"hello": length, masked CRC32C of the
    # length, data, masked CRC32C of the data
    assert open(path, "rb").read().hex() == "0500000000000000eab2043e68656c6c6fbb1f1c19"
    assert list(tf.python_io.tf_record_iterator(path)) == [b"hello"]


@pytest.mark.parametrize("options", [None, "GZIP", "ZLIB",
                                     tf.python_io.TFRecordOptions(
                                         tf.python_io.TFRecordCompressionType.GZIP),
                                     tf.io.TFRecordOptions("ZLIB", compression_level=9)])
def test_round_trip(tmp_path, options):
    path = write(tmp_path / "a.rec", options=options)
    assert list(tf.io.tf_record_iterator(path, options)) == RECORDS
    kind = tf.python_io.TFRecordOptions.get_compression_type_string(options)
    raw = open(path, "rb").read()
    if kind == "GZIP":
        raw = gzip.decompress(raw)
    elif kind == "ZLIB":
        raw = zlib.decompress(raw)
    assert len(raw) == sum(len(r) + 16 for r in RECORDS)


def test_namespaces_are_tfs():
    assert tf.io.TFRecordWriter is tf.python_io.TFRecordWriter
    assert tf.io.tf_record_iterator is tf.python_io.tf_record_iterator
    assert sorted(tf.python_io.__all__) == ["TFRecordCompressionType", "TFRecordOptions",
                                            "TFRecordWriter", "tf_record_iterator"]
    C = tf.python_io.TFRecordCompressionType
    assert (C.NONE, C.ZLIB, C.GZIP) == (0, 1, 2)
    assert tf.python_io.TFRecordOptions.get_compression_type_string(None) == ""


def test_errors_name_the_file_and_what_to_do(tmp_path):
    path = write(tmp_path / "a.rec")
    data = open(path, "rb").read()
    bad = bytearray(data)
    bad[14] ^= 1
    (tmp_path / "bad.rec").write_bytes(bytes(bad))
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at 12"):  # TF's offset
        list(tf.python_io.tf_record_iterator(str(tmp_path / "bad.rec")))
    (tmp_path / "cut.rec").write_bytes(data[:30])
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 21"):
        list(tf.python_io.tf_record_iterator(str(tmp_path / "cut.rec")))
    with pytest.raises(tf.errors.NotFoundError, match="missing.rec; No such file"):
        list(tf.python_io.tf_record_iterator(str(tmp_path / "missing.rec")))
    with pytest.raises(tf.errors.DataLossError, match="compression_type"):
        list(tf.python_io.tf_record_iterator(path, "GZIP"))
    with pytest.raises(tf.errors.NotFoundError):
        tf.python_io.TFRecordWriter(str(tmp_path / "no" / "dir.rec"))
    writer = tf.python_io.TFRecordWriter(str(tmp_path / "b.rec"))
    with pytest.raises(TypeError, match="expected bytes"):
        writer.write("text")
    writer.close()
    with pytest.raises(tf.errors.FailedPreconditionError, match="closed"):
        writer.write(b"late")
    with pytest.raises(ValueError, match="Unsupported compression type"):
        tf.python_io.TFRecordOptions("BZIP2")


@pytest.mark.skipif(not os.path.exists(TF_PYTHON), reason="needs TensorFlow 1.15 in /tmp/tf115")
def test_real_tensorflow_reads_ours_and_we_read_its(tmp_path):
    for kind in ("", "GZIP", "ZLIB"):
        write(tmp_path / f"sandbox_{kind}.rec", options=kind)
    write(tmp_path / "sandbox_example.rec", [make_example(3).SerializeToString()])
    program = textwrap.dedent(f"""
        import json, sys, tensorflow as tf
        d = {str(tmp_path)!r}
        out = {{}}
        ex = tf.train.Example.FromString(next(tf.python_io.tf_record_iterator(
            d + "/sandbox_example.rec")))
        f = ex.features.feature
        out["example"] = [list(f["label"].int64_list.value), list(f["pixels"].float_list.value),
                          [v.hex() for v in f["name"].bytes_list.value]]
        ex = tf.train.Example(features=tf.train.Features(feature={{
            "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[-9])),
            "pixels": tf.train.Feature(float_list=tf.train.FloatList(value=[0.25, 1e30]))}}))
        with tf.python_io.TFRecordWriter(d + "/tf_example.rec") as w:
            w.write(ex.SerializeToString())
        for kind in ("", "GZIP", "ZLIB"):
            opts = tf.python_io.TFRecordOptions(kind or None)
            out[kind] = [r.hex() for r in tf.python_io.tf_record_iterator(
                d + "/sandbox_" + kind + ".rec", opts)]
            with tf.python_io.TFRecordWriter(d + "/tf_" + kind + ".rec", opts) as w:
                for i in range(3):
                    w.write(b"tf record %d" % i)
        sys.stdout.write(json.dumps(out))
    """)
    result = subprocess.run([TF_PYTHON, "-c", program], capture_output=True, text=True,
                            timeout=120, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert result.returncode == 0, result.stderr[-2000:]
    read_by_tf = json.loads(result.stdout.strip().splitlines()[-1])
    for kind in ("", "GZIP", "ZLIB"):
        assert [bytes.fromhex(r) for r in read_by_tf[kind]] == RECORDS
        ours = list(tf.python_io.tf_record_iterator(str(tmp_path / f"tf_{kind}.rec"), kind))
        assert ours == [b"tf record 0", b"tf record 1", b"tf record 2"]
    got = elements(tf.data.TFRecordDataset(str(tmp_path / "tf_GZIP.rec"), "GZIP"))
    assert got == [b"tf record 0", b"tf record 1", b"tf record 2"]
    assert read_by_tf["example"] == [[3], [0.0, 1.5, 3.0], [b"ex3".hex()]]
    theirs = Example.FromString(next(tf.python_io.tf_record_iterator(
        str(tmp_path / "tf_example.rec"))))
    assert list(theirs.features.feature["label"].int64_list.value) == [-9]
    np.testing.assert_array_equal(theirs.features.feature["pixels"].float_list.value,
                                  np.float32([0.25, 1e30]))


# -- tf.data ---------------------------------------------------------------------------------

def test_tfrecord_dataset_reads_files_in_order(tmp_path):
    a = write(tmp_path / "a.rec", [b"a0", b"a1"])
    b = write(tmp_path / "b.rec", [b"b0"], options="GZIP")
    ds = tf.data.TFRecordDataset([a, a])
    assert ds.output_types == tf.string and ds.output_shapes.as_list() == []
    assert elements(ds) == [b"a0", b"a1", b"a0", b"a1"]
    assert elements(tf.data.TFRecordDataset(b, compression_type="GZIP", buffer_size=1024)
                    .repeat(2)) == [b"b0", b"b0"]
    with pytest.raises(ValueError, match="Unsupported compression_type"):
        tf.data.TFRecordDataset(a, "BZ2")
    with pytest.raises(TypeError, match="tf.string"):
        tf.data.TFRecordDataset(tf.constant([1, 2]))


def test_num_parallel_reads_interleaves_as_tf_does(tmp_path):
    one = write(tmp_path / "one.rec", [b"1a", b"1b", b"1c"])
    two = write(tmp_path / "two.rec", [b"2a", b"2b", b"2c"])
    three = write(tmp_path / "three.rec", [b"3a", b"3b", b"3c"])
    got = elements(tf.data.TFRecordDataset([one, two, three], num_parallel_reads=2))
    # TF 1.15.5's order for three 3-record files with num_parallel_reads=2
    assert got == [b"1a", b"2a", b"1b", b"2b", b"1c", b"2c", b"3a", b"3b", b"3c"]


def test_filenames_from_a_placeholder_and_records_through_map_and_batch(tmp_path):
    rows = [np.arange(4, dtype=np.float32) * i for i in range(5)]
    path = write(tmp_path / "f.rec", [r.tobytes() for r in rows])
    names = tf.placeholder(tf.string, [None])
    ds = tf.data.TFRecordDataset(names).map(lambda s: tf.io.decode_raw(s, tf.float32))
    got = elements(ds.batch(2), {names: [path]}, initializable=True)
    np.testing.assert_array_equal(np.concatenate(got), np.stack(rows))
    assert [len(b) for b in got] == [2, 2, 1]


def test_missing_file_fails_the_step_with_not_found(tmp_path):
    nxt = tf.data.TFRecordDataset(str(tmp_path / "nope.rec")).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.NotFoundError, match="nope.rec; No such file"):
            sess.run(nxt)


def test_text_line_dataset(tmp_path):
    (tmp_path / "t.txt").write_bytes(b"l1\r\nl2\n\nl4")
    (tmp_path / "u.txt.gz").write_bytes(gzip.compress(b"first\nsecond\n"))
    (tmp_path / "empty.txt").write_bytes(b"")
    # TF 1.15.5: [b'l1', b'l2', b'', b'l4'] -- the '\r' of '\r\n' goes too
    assert elements(tf.data.TextLineDataset([str(tmp_path / "t.txt"),
                                             str(tmp_path / "empty.txt")])) == \
        [b"l1", b"l2", b"", b"l4"]
    assert elements(tf.data.TextLineDataset(str(tmp_path / "u.txt.gz"),
                                            compression_type="GZIP")) == [b"first", b"second"]


def test_fixed_length_record_dataset(tmp_path):
    (tmp_path / "f.bin").write_bytes(b"HHabcdefFFF")
    assert elements(tf.data.FixedLengthRecordDataset(str(tmp_path / "f.bin"), 3, 2, 3)) == \
        [b"abc", b"def"]
    (tmp_path / "z.bin").write_bytes(zlib.compress(b"0123456789"))
    assert elements(tf.data.FixedLengthRecordDataset(str(tmp_path / "z.bin"), 5,
                                                     compression_type="ZLIB")) == \
        [b"01234", b"56789"]
    nxt = tf.data.FixedLengthRecordDataset(str(tmp_path / "f.bin"), 2, 2, 2) \
        .make_one_shot_iterator().get_next()
    with tf.Session() as sess:     # TF 1.15.5's message
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="has body length 7 bytes, which is not an exact multiple"):
            sess.run(nxt)


def test_the_iterator_reads_the_files_on_its_worker(tmp_path):
    path = write(tmp_path / "w.rec", [b"r0", b"r1", b"r2"])
    with LocalCluster({"worker": 2}) as cluster:
        with tf.device("/job:worker/task:1"):
            nxt = tf.data.TFRecordDataset(path).make_one_shot_iterator().get_next()
            size = tf.size(tf.io.decode_raw(nxt, tf.uint8))
        with tf.Session(cluster.target("worker", 0)) as sess:
            got = [sess.run([nxt, size]) for _ in range(3)]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(nxt)
    assert got == [[b"r0", 2], [b"r1", 2], [b"r2", 2]]
    assert nxt.op.device == "/job:worker/task:1"


# -- tf.train.Example and parsing -----------------------------------------------------------

def make_example(i):
    return Example(features=Features(feature={
        "label": Feature(int64_list=Int64List(value=[i])),
        "pixels": Feature(float_list=FloatList(value=np.arange(3, dtype=np.float32) * i / 2)),
        "name": Feature(bytes_list=BytesList(value=[b"ex%d" % i]))}))


def tf_measured_example():
    return Example(features=Features(feature={
        "i": Feature(int64_list=Int64List(value=[1, -2, 300])),
        "f": Feature(float_list=FloatList(value=[0.5, -1.25])),
        "b": Feature(bytes_list=BytesList(value=[b"ab", b""])),
        "e": Feature()}))


# TF 1.15.5's SerializeToString(deterministic=True) of tf_measured_example()
TF_EXAMPLE_HEX = ("0a410a0d0a016212080a060a0261620a000a050a016512000a110a0166120c120a0a08"
                  "0000003f0000a0bf0a160a016912111a0f0a0d01feffffffffffffffff01ac02")


def test_example_bytes_are_tfs_and_read_back():
    ex = tf_measured_example()
    assert ex.SerializeToString().hex() == TF_EXAMPLE_HEX
    back = Example.FromString(bytes.fromhex(TF_EXAMPLE_HEX))
    assert back == ex
    assert list(back.features.feature["i"].int64_list.value) == [1, -2, 300]
    assert back.features.feature["i"].WhichOneof("kind") == "int64_list"
    assert back.features.feature["e"].WhichOneof("kind") is None
    built = Example()                             # protobuf's way: maps add on access
    built.features.feature["x"].float_list.value.append(0.1)
    built.features.feature["y"].int64_list.value.extend([1, 2])
    # TF 1.15.5's bytes for the same message
    assert built.SerializeToString().hex() == \
        "0a1c0a0d0a0178120812060a04cdcccc3d0a0b0a017912061a040a020102"
    assert built.features.feature["x"].float_list.value == [float(np.float32(0.1))]
    assert 'key: "x"' in str(built) and "value: 0.1\n" in str(built)
    with pytest.raises(DecodeError):
        Example.FromString(b"garbage")
    with pytest.raises(TypeError):
        Int64List(value=[1.5])
    with pytest.raises(TypeError):
        BytesList(value=[3])


def test_parse_single_example_matches_tf():
    s = bytes.fromhex(TF_EXAMPLE_HEX)
    F = tf.io.FixedLenFeature
    parsed = tf.io.parse_single_example(s, {
        "i": F([3], tf.int64), "f": F([2], tf.float32), "b": F([2], tf.string),
        "x": F([], tf.float32, default_value=7.0), "ii": F([], tf.int64, default_value=5)})
    # TF 1.15.5: one op, outputs in the order of the sorted keys
    assert {k: (v.name, v.get_shape().as_list()) for k, v in parsed.items()} == {
        "b": ("ParseSingleExample/ParseSingleExample:0", [2]),
        "f": ("ParseSingleExample/ParseSingleExample:1", [2]),
        "i": ("ParseSingleExample/ParseSingleExample:2", [3]),
        "ii": ("ParseSingleExample/ParseSingleExample:3", []),
        "x": ("ParseSingleExample/ParseSingleExample:4", [])}
    with tf.Session() as sess:
        got = sess.run(parsed)
        assert list(got["b"]) == [b"ab", b""] and got["f"].dtype == np.float32
        np.testing.assert_array_equal(got["f"], [0.5, -1.25])
        np.testing.assert_array_equal(got["i"], [1, -2, 300])
        assert got["ii"] == 5 and got["x"] == 7.0
        assert sess.run(tf.io.parse_single_example(s, {"e": F([], tf.float32, 1.0)}))["e"] == 1
        assert sess.run(tf.io.parse_single_example(s, {"i": F([3, 1], tf.int64)}))["i"] \
            .shape == (3, 1)
        # TF 1.15.5's messages
        for features, message in [({"i": F([2], tf.int64)}, "Key: i.  Can't parse serialized"),
                                  ({"zz": F([2], tf.int64)}, "Feature: zz \\(data type: int64\\)"
                                   " is required but could not be found"),
                                  ({"i": F([3], tf.float32)}, "Data types don't match. Data "
                                   "type: int64 but expected type: float"),
                                  ({"e": F([0], tf.float32)}, "Feature: e \\(data type: float\\) "
                                   "is required")]:
            with pytest.raises(tf.errors.InvalidArgumentError, match=message):
                sess.run(tf.io.parse_single_example(s, features))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse example"):
            sess.run(tf.io.parse_single_example(b"garbage", {"i": F([3], tf.int64)}))
    with pytest.raises(TypeError, match="int32 not in list of allowed values"):
        tf.io.parse_single_example(s, {"i": F([3], tf.int32)})
    with pytest.raises(ValueError, match="Missing shape for feature i"):
        tf.io.parse_single_example(s, {"i": F(None, tf.int64)})
    sparse = tf.io.parse_single_example(s, {"i": tf.io.VarLenFeature(tf.int64)})["i"]
    assert isinstance(sparse, tf.SparseTensor)            # a VarLenFeature: as long as it is
    with tf.Session() as sess:
        value, fixed = sess.run([sparse, tf.io.parse_single_example(s, {"i": F([3], tf.int64)})])
    assert value.indices.tolist() == [[0], [1], [2]] and value.dense_shape.tolist() == [3]
    assert value.values.tolist() == fixed["i"].tolist()


def test_parse_example_batches_and_defaults():
    F = tf.io.FixedLenFeature
    s = bytes.fromhex(TF_EXAMPLE_HEX)
    parsed = tf.io.parse_example([s, Example().SerializeToString()], {
        "i": F([3], tf.int64, default_value=[7, 8, 9]),
        "x": F([2], tf.float32, default_value=[1.0, 2.0])})
    assert parsed["i"].name == "ParseExample/ParseExample:0"
    assert parsed["x"].get_shape().as_list() == [2, 2]
    got = run_once(parsed)
    np.testing.assert_array_equal(got["i"], [[1, -2, 300], [7, 8, 9]])
    np.testing.assert_array_equal(got["x"], [[1, 2], [1, 2]])
    # TF's node: the keys are string inputs, the names of the examples name the bad one
    node = parsed["i"].op
    assert sorted(node.node_def["attr"]) == ["Ndense", "Nsparse", "Tdense", "dense_shapes",
                                             "sparse_types"]
    assert [t.op.type for t in node.inputs[:4]] == ["Const"] * 4    # examples, names, i, x
    missing = tf.io.parse_example([s, s], {"zz": F([1], tf.int64)}, example_names=["a", "b"])
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Name: a, Feature: zz "):
        run_once(missing)


def run_once(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def test_examples_through_a_tfrecord_dataset(tmp_path):
    path = write(tmp_path / "ex.rec", [make_example(i).SerializeToString() for i in range(5)])

    def parse(record):
        f = tf.io.parse_single_example(record, {
            "label": tf.io.FixedLenFeature([], tf.int64),
            "pixels": tf.io.FixedLenFeature([3], tf.float32),
            "name": tf.io.FixedLenFeature([], tf.string)})
        return f["pixels"], f["label"]

    batches = elements(tf.data.TFRecordDataset(path).map(parse).batch(2))
    assert [b[1].tolist() for b in batches] == [[0, 1], [2, 3], [4]]
    np.testing.assert_array_equal(np.concatenate([b[0] for b in batches]),
                                  np.arange(3)[None] * np.arange(5)[:, None] / 2)


# Bytes written by TensorFlow 1.15.5 (measured: TFRecordWriter with three records, and
# Example.SerializeToString(deterministic=True)), so that CI checks the format without TF.
TF115_RECORD_FILE = bytes.fromhex(
    "0b000000000000008615f5047466207265636f726420307b5c881b"
    "0b000000000000008615f5047466207265636f726420314c808521"
    "0b000000000000008615f5047466207265636f72642032ad9e6d3b")
TF115_EXAMPLE = bytes.fromhex(
    "0a310a170a056c6162656c120e1a0c0a0af7ffffffffffffffff010a160a06706978656c73120c120a0a08"
    "0000803ecaf24971")


def test_files_and_examples_are_byte_for_byte_tensorflows(tmp_path):
    path = str(tmp_path / "ours.rec")
    with tf.python_io.TFRecordWriter(path) as writer:
        for i in range(3):
            writer.write(b"tf record %d" % i)
    assert open(path, "rb").read() == TF115_RECORD_FILE
    (tmp_path / "tf.rec").write_bytes(TF115_RECORD_FILE)
    assert list(tf.python_io.tf_record_iterator(str(tmp_path / "tf.rec"))) == [
        b"tf record 0", b"tf record 1", b"tf record 2"]
    ex = tf.train.Example(features=tf.train.Features(feature={
        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[-9])),
        "pixels": tf.train.Feature(float_list=tf.train.FloatList(value=[0.25, 1e30]))}))
    assert ex.SerializeToString() == TF115_EXAMPLE
    back = tf.train.Example.FromString(TF115_EXAMPLE)
    assert list(back.features.feature["label"].int64_list.value) == [-9]
