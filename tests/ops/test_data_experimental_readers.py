"""tf.data.experimental's readers and writer (sandbox/data/csv_dataset.py, batched_features.py,
experimental_writers.py): CsvDataset, make_csv_dataset, TFRecordWriter,
make_batched_features_dataset and parse_example_dataset. The expected values and messages were
printed by TensorFlow 2.15.1's tf.compat.v1 for the same programs and files."""
import gzip

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster

E = tf.data.experimental


def values(ds, limit=200):
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    with tf.Session() as sess:
        for _ in range(limit):
            try:
                out.append(_plain(sess.run(nxt)))
            except tf.errors.OutOfRangeError:
                return out
    raise AssertionError("the iterator did not end")


def _plain(x):
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(_plain(v) for v in x)
    return x.tolist() if hasattr(x, "tolist") else x


def first_error(ds):
    """The values before the first error, and the error."""
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    with tf.Session() as sess:
        for _ in range(200):
            try:
                out.append(_plain(sess.run(nxt)))
            except tf.errors.OutOfRangeError:
                raise AssertionError(f"no error after {out}") from None
            except tf.errors.OpError as e:
                return out, e


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


A_CSV = b'x,y,name\n1,2.5,"a,b"\n3,,c\n\n5,7.0,"q""x"\r\n6,8,"multi\nline"\n'


def test_csv_dataset_records_quotes_defaults_and_selected_columns(tmp_path):
    a = write(tmp_path, "a.csv", A_CSV)
    ds = E.CsvDataset(a, [tf.int32, tf.constant([-1.0]), tf.string], header=True)
    assert ds.output_types == (tf.int32, tf.float32, tf.string)
    assert [s.as_list() for s in ds.output_shapes] == [[], [], []]
    good = [(1, 2.5, b"a,b"), (3, -1.0, b"c"), (5, 7.0, b'q"x'), (6, 8.0, b"multi\nline")]
    assert values(ds.apply(E.ignore_errors())) == good           # the empty line is an error
    out, err = first_error(ds)
    assert out == good[:2] and isinstance(err, tf.errors.InvalidArgumentError)
    assert "Field 0 is required but missing in record!" in err.message
    selected = E.CsvDataset(a, [tf.constant([0.0]), tf.string], header=True, select_cols=[1, 2])
    assert values(selected.apply(E.ignore_errors())) == \
        [(2.5, b"a,b"), (0.0, b"c"), (7.0, b'q"x'), (8.0, b"multi\nline")]
    one = E.CsvDataset(a, [tf.string], header=True, select_cols=[2])
    assert values(one.apply(E.ignore_errors()))[0] == (b"a,b",)   # a 1-tuple, as in TF
    d = write(tmp_path, "d.csv", b'1;"x;y"\n2;\n')
    assert values(E.CsvDataset(d, [tf.int64, tf.constant(["dflt"])], field_delim=";")) == \
        [(1, b"x;y"), (2, b"dflt")]
    assert values(E.CsvDataset(d, [tf.int64, tf.constant(["dflt"])], field_delim=";",
                               na_value="x;y")) == [(1, b"dflt"), (2, b"dflt")]
    c = write(tmp_path, "c.csv", b"1,x\n2,y")                     # no final newline
    assert values(E.CsvDataset([c, c], [tf.int64, tf.string])) == \
        [(1, b"x"), (2, b"y"), (1, b"x"), (2, b"y")]
    cr = write(tmp_path, "cr.csv", b"1,2\r3,4\r\n5,6,\n")
    assert values(E.CsvDataset(cr, [tf.int32, tf.int32, tf.constant([9])]).apply(
        E.ignore_errors())) == [(5, 6, 9)]
    gz = tmp_path / "h.csv.gz"
    gz.write_bytes(gzip.compress(b"k,v\n1,2\n3,4\n"))
    assert values(E.CsvDataset(str(gz), [tf.int32, tf.int32], header=True,
                               compression_type="GZIP")) == [(1, 2), (3, 4)]


def test_csv_numbers_as_tfs_parsers_read_them(tmp_path):
    texts = ["inf", "-inf", "+inf", "nan", "-nan", "NaN", "INF", "Infinity", "infinity", ".5",
             "5.", "1e400", "1e39", "-1e-50", "0x10", "-0x1A", "1_0", " 2 ", "+2", "1e5",
             "1E+5", "  -3.5e-2  ", "1.5f", "\t7", "- 1", "00012", "-0", "0x", "1e", "e5", ".",
             "+.5e-1"]
    path = write(tmp_path, "v.csv", ("\n".join(texts) + "\n").encode())

    def read(dtype):
        return [v[0] for v in values(E.CsvDataset(path, [dtype], use_quote_delim=False)
                                     .apply(E.ignore_errors()))]

    f32 = read(tf.float32)
    assert np.array_equal(f32, np.array(
        [np.inf, -np.inf, np.inf, np.nan, np.nan, np.nan, np.inf, 0.5, 5.0, np.inf, np.inf,
         -0.0, 16.0, -26.0, 2.0, 2.0, 1e5, 1e5, -0.035, 7.0, 12.0, -0.0, 0.05],
        np.float32), equal_nan=True)
    assert read(tf.float64)[10:12] == [1e39, -1e-50]
    assert read(tf.int32) == read(tf.int64) == [2, 7, 12, 0]      # no "+", no exponent
    big = write(tmp_path, "m.csv", b"3000000000,1\n")
    _, err = first_error(E.CsvDataset(big, [tf.int32, tf.int32]))
    assert "Field 0 in record is not a valid int32: 3000000000" in err.message


def test_csv_errors_and_going_on_after_them(tmp_path):
    b = write(tmp_path, "b.csv", b"1,x\n2,y\n3\n4,w,extra\nz,5\n")
    assert values(E.CsvDataset(b, [tf.int64, tf.string]).apply(E.ignore_errors())) == \
        [(1, b"x"), (2, b"y")]
    out, err = first_error(E.CsvDataset(b, [tf.int64, tf.string]))
    assert out == [(1, b"x"), (2, b"y")]
    assert "Expect 2 fields but have 1 in record" in err.message
    messages = {
        b'1,"ab"c\n2,"d"\n': "Quote inside a string has to be escaped by another quote",
        b'1,"abc\n': "Reached end of file without closing quoted field in record",
        b'1,a"b\n': "Unquoted fields cannot have quotes inside",
        b"1,\n": "Field 1 is required but missing in record!",
        b"1,2,3\n": "Expect 2 fields but have more in record",
        b"1,2.5x\n": "Field 1 in record is not a valid double: 2.5x"}
    for data, message in messages.items():
        path = write(tmp_path, "e.csv", data)
        _, err = first_error(E.CsvDataset(path, [tf.int32, tf.float64]))
        assert isinstance(err, tf.errors.InvalidArgumentError) and message in err.message
    # a bad quote swallows the rest of the file, as TF's reader does
    f = write(tmp_path, "f.csv", b'1,"ab"c\n2,"d"\n')
    assert values(E.CsvDataset(f, [tf.int32, tf.string]).apply(E.ignore_errors())) == []
    # records around failures, then a plain batch (the failure spoils the batch it is in)
    n = write(tmp_path, "n.csv", b"1\nx\n2\n3\ny\n4\n5\n")
    assert values(E.CsvDataset(n, [tf.int32]).batch(2).apply(E.ignore_errors())) == \
        [([2, 3],), ([4, 5],)]
    empty = write(tmp_path, "empty.csv", b"")
    assert values(E.CsvDataset(empty, [tf.int32])) == []
    _, err = first_error(E.CsvDataset(empty, [tf.int32], header=True))
    assert "Can't read header of file" in err.message
    for kwargs, message in (({"select_cols": [1, 0]}, "strictly increasing indices"),
                            ({"select_cols": [1, 2, 3]}, "should match output size"),
                            ({"field_delim": "ab"}, "field_delim should be only 1 char")):
        _, err = first_error(E.CsvDataset(b, [tf.string, tf.string], **kwargs))
        assert message in err.message
    _, err = first_error(E.CsvDataset(str(tmp_path / "nothere.csv"), [tf.int32]))
    assert isinstance(err, tf.errors.NotFoundError)
    with pytest.raises(ValueError, match="Shape of a default must be a length-0 or length-1"):
        E.CsvDataset(b, [tf.constant([1, 2])])
    with pytest.raises(TypeError, match="tf.float32, tf.float64, tf.int32, tf.int64"):
        E.CsvDataset(b, [tf.bool])


def _csv_files(tmp_path):
    write(tmp_path, "p1.csv", b"id,score,name,big\n1,0.5,ann,3000000000\n2,,bob,1\n3,1.25,,2\n")
    write(tmp_path, "p2.csv", b"id,score,name,big\n4,2,cy,5\n5,3.5,dee,6\n")
    return str(tmp_path / "p*.csv")


def test_make_csv_dataset_infers_names_and_types(tmp_path):
    pattern = _csv_files(tmp_path)
    ds = E.make_csv_dataset(pattern, batch_size=2, shuffle=False, num_epochs=1)
    assert ds.output_types == {"big": tf.int64, "id": tf.int32, "name": tf.string,
                               "score": tf.float32}
    assert values(ds) == [
        {"id": [1, 2], "score": [0.5, 0.0], "name": [b"ann", b"bob"], "big": [3000000000, 1]},
        {"id": [3, 4], "score": [1.25, 2.0], "name": [b"", b"cy"], "big": [2, 5]},
        {"id": [5], "score": [3.5], "name": [b"dee"], "big": [6]}]
    labelled = E.make_csv_dataset(pattern, batch_size=3, shuffle=False, num_epochs=2,
                                  label_name="score", select_columns=["name", "score", "id"],
                                  num_parallel_reads=2)
    assert repr(labelled.output_types) == \
        "(OrderedDict([('id', tf.int32), ('name', tf.string)]), tf.float32)"
    assert values(labelled) == [
        ({"id": [1, 4, 2], "name": [b"ann", b"cy", b"bob"]}, [0.5, 2.0, 0.0]),
        ({"id": [5, 3, 1], "name": [b"dee", b"", b"ann"]}, [3.5, 1.25, 0.5]),
        ({"id": [4, 2, 5], "name": [b"cy", b"bob", b"dee"]}, [2.0, 0.0, 3.5]),
        ({"id": [3], "name": [b""]}, [1.25])]
    given = E.make_csv_dataset([str(tmp_path / "p1.csv")], batch_size=2, shuffle=False,
                               column_defaults=[tf.int64, [9.0], ["?"], tf.int64], num_epochs=1)
    assert values(given)[1] == {"id": [3], "score": [1.25], "name": [b"?"], "big": [2]}
    forever = E.make_csv_dataset(pattern, batch_size=2, shuffle=False)
    assert forever.output_shapes["id"].as_list() == [2]          # drop_remainder: static
    assert [b["id"] for b in values(forever.take(4))] == [[1, 2], [3, 4], [5, 1], [2, 3]]
    shuffled = E.make_csv_dataset(pattern, batch_size=5, shuffle_seed=1, num_epochs=1)
    assert sorted(values(shuffled)[0]["id"]) == [1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match="`label_name` provided must be one of the columns"):
        E.make_csv_dataset(pattern, 2, label_name="nope")
    with pytest.raises(ValueError, match="No files match `file_pattern`"):
        E.make_csv_dataset(str(tmp_path / "none*.csv"), 2)
    with pytest.raises(ValueError, match="Expected `column_names` or `header` arguments"):
        E.make_csv_dataset(pattern, 2, header=False)


def _example(i):
    return tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i * 2.0])),
        "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))})).SerializeToString()


FEATURES = {"x": tf.FixedLenFeature([2], tf.float32), "y": tf.FixedLenFeature([], tf.int64)}


def test_tfrecord_writer_and_batched_features(tmp_path):
    r1, r2 = str(tmp_path / "r1.tfrecord"), str(tmp_path / "r2.tfrecord")
    write1 = E.TFRecordWriter(r1).write(tf.data.Dataset.from_tensor_slices(
        [_example(i) for i in range(3)]))
    write2 = E.TFRecordWriter(r2, "GZIP").write(tf.data.Dataset.from_tensor_slices(
        [_example(i) for i in range(3, 5)]))
    assert write1.type == "DatasetToTFRecord"
    with tf.Session() as sess:
        sess.run([write1, write2])
    data = (tmp_path / "r1.tfrecord").read_bytes()
    assert len(data) == 147 and data.hex().startswith(                  # TF's bytes
        "2100000000000000017becf60a1f0a110a0178120c120a0a0800000000000000000a0a0a01791205")
    assert len(values(tf.data.TFRecordDataset(r2, "GZIP"))) == 2
    with pytest.raises(TypeError, match="produces scalar `tf.string` elements"):
        E.TFRecordWriter(r1).write(tf.data.Dataset.range(3))
    (tmp_path / "r2.tfrecord").write_bytes(gzip.decompress((tmp_path / "r2.tfrecord")
                                                           .read_bytes()))
    pattern = str(tmp_path / "r*.tfrecord")
    ds = E.make_batched_features_dataset(pattern, 2, FEATURES, label_key="y", shuffle=False,
                                         num_epochs=1)
    assert ds.output_types == ({"x": tf.float32}, tf.int64)
    assert ds.output_shapes[0]["x"].as_list() == [None, 2]
    assert values(ds) == [({"x": [[0.0, 0.0], [1.0, 2.0]]}, [0, 1]),
                          ({"x": [[2.0, 4.0], [3.0, 6.0]]}, [2, 3]), ({"x": [[4.0, 8.0]]}, [4])]
    two = E.make_batched_features_dataset(pattern, 2, FEATURES, shuffle=False, num_epochs=1,
                                          reader_num_threads=2)
    assert values(two) == [{"x": [[0.0, 0.0], [3.0, 6.0]], "y": [0, 3]},
                           {"x": [[1.0, 2.0], [4.0, 8.0]], "y": [1, 4]},
                           {"x": [[2.0, 4.0]], "y": [2]}]
    forever = E.make_batched_features_dataset(pattern, 2, FEATURES, shuffle=False)
    assert forever.output_shapes["x"].as_list() == [2, 2]
    parsed = tf.data.TFRecordDataset(r1).batch(2).apply(E.parse_example_dataset(FEATURES))
    assert values(parsed) == [{"x": [[0.0, 0.0], [1.0, 2.0]], "y": [0, 1]},
                              {"x": [[2.0, 4.0]], "y": [2]}]
    with pytest.raises(NotImplementedError, match="VarLenFeature"):
        E.parse_example_dataset({"v": tf.VarLenFeature(tf.int64)})
    with pytest.raises(TypeError, match="dataset of vectors of strings"):
        tf.data.TFRecordDataset(r1).apply(E.parse_example_dataset(FEATURES)).batch(2)


def test_csv_dataset_reads_on_a_worker(tmp_path):
    path = write(tmp_path, "w.csv", b"a,b\n1,x\n2,\n")
    with LocalCluster({"worker": 1}) as cluster:
        with tf.device("/job:worker/task:0"):
            ds = E.CsvDataset(path, [tf.int64, tf.constant(["-"])], header=True)
            nxt = tf.data.make_one_shot_iterator(ds).get_next()
        with tf.Session(cluster.target("worker", 0)) as sess:
            assert [tuple(v.tolist() if hasattr(v, "tolist") else v
                          for v in sess.run(nxt)) for _ in range(2)] == [(1, b"x"), (2, b"-")]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(nxt)
