"""tf.decode_csv (sandbox/ops/parsing_csv_ops.py): values, dtypes, shapes and error messages as
measured with TF 1.15.5 (/tmp/tf115/bin/python, the same calls), and the queue-input pipeline
of bench/corpus/queue_input.py (string_input_producer, TextLineReader, decode_csv, batch)."""
import numpy as np
import pytest

import sandbox as tf


def _run(fetch):
    with tf.Session() as sess:
        return sess.run(fetch)


def test_values_dtypes_defaults_and_quotes():
    out = tf.decode_csv(["1,2.5,x,4", '5,,"a,b",7'],
                        [[0], [1.0], ["d"], tf.constant([0], tf.int64)])
    assert [t.dtype for t in out] == [tf.int32, tf.float32, tf.string, tf.int64]
    assert [t.shape.as_list() for t in out] == [[2]] * 4
    a, b, c, d = _run(out)
    np.testing.assert_array_equal(a, [1, 5])
    assert a.dtype == np.int32 and b.dtype == np.float32 and d.dtype == np.int64
    np.testing.assert_array_equal(b, [2.5, 1.0])               # the empty field: its default
    assert list(c) == [b"x", b"a,b"]
    np.testing.assert_array_equal(d, [4, 7])
    # TF 1.15: "" in quotes is one quote; without use_quote_delim the quotes are kept
    assert list(_run(tf.decode_csv(['"a""b",2'], [[""], [0]]))[0]) == [b'a"b']
    assert list(_run(tf.decode_csv(['"a""b",2'], [[""], [0]], use_quote_delim=False))[0]) \
        == [b'"a""b"']


def test_shapes_scalar_and_matrix_records_and_options():
    x, y = tf.decode_csv("3,4", [[0.0], [0.0]])
    assert x.shape.as_list() == [] and _run([x, y]) == [3.0, 4.0]
    m = tf.decode_csv([["1,2"], ["3,4"]], [[0.0], [0.0]])
    assert m[0].shape.as_list() == [2, 1]
    np.testing.assert_array_equal(_run(m)[1], [[2.0], [4.0]])
    first, third = _run(tf.decode_csv(["1,2,3,4"], [[0], [0]], select_cols=[0, 2]))
    assert (first[0], third[0]) == (1, 3)
    na = _run(tf.decode_csv(["NA,2"], [[1.5], [0.0]], na_value="NA"))
    assert na[0][0] == 1.5
    semi = _run(tf.decode_csv([" 1 ;2"], [[0], [0]], field_delim=";"))
    assert (semi[0][0], semi[1][0]) == (1, 2)                  # TF tolerates the spaces
    f64, big = _run(tf.decode_csv(["1e3,99999999999"], [tf.constant([0.0], tf.float64),
                                                        tf.constant([0], tf.int64)]))
    assert f64.dtype == np.float64 and f64[0] == 1000.0 and big[0] == 99999999999
    nan, inf = _run(tf.decode_csv(["nan,inf"], [[0.0], [0.0]]))
    assert np.isnan(nan[0]) and np.isinf(inf[0])


@pytest.mark.parametrize("records, defaults, kw, message", [
    (["1,"], [[0], np.array([], np.int32)], {}, "Field 1 is required but missing in record 0!"),
    (["1,2,3"], [[0], [0]], {}, "Expect 2 fields but have 3 in record 0"),
    (["1"], [[0], [0]], {}, "Expect 2 fields but have 1 in record 0"),
    ([""], [[0]], {}, "Expect 1 fields but have 0 in record 0"),
    (["1,2"], [[0], [0]], {"select_cols": [0, 2]}, "Expect 3 fields but have 2 in record 0"),
    (['"a"b,2'], [[""], [0]], {}, "Quote inside a string has to be escaped by another quote"),
    (['a"b,2'], [[""], [0]], {}, "Unquoted fields cannot have quotes/CRLFs inside"),
    (["1\r"], [[0]], {}, "Unquoted fields cannot have quotes/CRLFs inside"),
    (["x,1"], [[0.0], [0]], {}, "Field 0 in record 0 is not a valid float: x"),
    (["x,1"], [np.array([0.0]), [0]], {}, "is not a valid double: x"),
    (["1.5,2"], [[0], [0]], {}, "Field 0 in record 0 is not a valid int32: 1.5"),
    (["1,99999999999"], [[0], [0]], {}, "Field 1 in record 0 is not a valid int32: 99999999999"),
    (["1,x"], [[0], np.array([0], np.int64)], {}, "Field 1 in record 0 is not a valid int64"),
    (["1,2"], [[0.0], [0.0]], {"field_delim": ";;"}, "field_delim should be only 1 char"),
])
def test_run_time_errors_as_tf(records, defaults, kw, message):
    out = tf.decode_csv(records, defaults, **kw)
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        _run(out)
    assert message in e.value.message


def test_graph_time_errors_as_tf():
    with pytest.raises(ValueError, match="select_cols is not strictly increasing"):
        tf.decode_csv(["1,2,3"], [[0], [0]], select_cols=[2, 0])
    with pytest.raises(ValueError, match="Length of select_cols and record_defaults"):
        tf.decode_csv(["1,2"], [[0], [0], [0]], select_cols=[0, 1])
    with pytest.raises(ValueError, match="length-0 or length-1 vector"):
        tf.decode_csv(["1,2"], [[0, 1], [0]])
    with pytest.raises(TypeError, match="DataType bool not in list of allowed values"):
        tf.decode_csv(["1,2"], [[True], [0]])


def test_csv_file_through_reader_and_batch_ends_after_its_epochs(tmp_path):
    path = tmp_path / "points.csv"
    rows = np.arange(12, dtype=np.float32).reshape(6, 2)
    path.write_text("x,label\n" + "".join("%g,%d\n" % (v, i % 2) for i, (v, _) in
                                          enumerate(rows)))
    q = tf.train.string_input_producer([str(path)], shuffle=False, num_epochs=2)
    _, line = tf.TextLineReader(skip_header_lines=1).read(q)
    x, label = tf.decode_csv(line, record_defaults=[[0.0], [0]])
    xb, lb = tf.train.batch([x, label], batch_size=4, allow_smaller_final_batch=True)
    batches = []
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        try:
            while True:
                batches.append(sess.run([xb, lb]))
        except tf.errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
    xs = np.concatenate([b[0] for b in batches])
    np.testing.assert_array_equal(xs, np.tile(rows[:, 0], 2))   # two epochs, in file order
    np.testing.assert_array_equal(np.concatenate([b[1] for b in batches]), [0, 1] * 6)
    assert [len(b[0]) for b in batches] == [4, 4, 4]


def test_tf_io_names_decode_csv_too():
    assert tf.io.decode_csv is tf.decode_csv
