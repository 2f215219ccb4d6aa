"""Dataset.flat_map and Dataset.interleave (data/dataset_ops.py, ops/dataset_pipeline.py): the
function returns a dataset per element, traced once; the expected orders are what TensorFlow
2.15's tf.compat.v1 gives for the same programs (checked by hand against it)."""
import pytest

import sandbox as tf

D = tf.data.Dataset


def _run(ds):
    nxt = ds.make_one_shot_iterator().get_next()
    out = []
    with tf.Session() as sess:
        while True:
            try:
                out.append(sess.run(nxt))
            except tf.errors.OutOfRangeError:
                return out


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def test_flat_map_chains_the_datasets_in_order():
    ds = D.range(1, 4).flat_map(lambda x: D.from_tensors(x).repeat(x))
    assert [int(x) for x in _run(ds)] == [1, 2, 2, 3, 3, 3]


def test_interleave_takes_blocks_in_turn_as_tf_does():
    ds = D.range(1, 6).interleave(lambda x: D.from_tensors(x).repeat(6), cycle_length=2,
                                  block_length=4)
    assert [int(x) for x in _run(ds)] == [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4,
                                          4, 4, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5]
    ds = D.range(1, 6).interleave(lambda x: D.from_tensors(x).repeat(x), cycle_length=3,
                                  block_length=2)
    assert [int(x) for x in _run(ds)] == [1, 2, 2, 3, 3, 4, 4, 3, 4, 4, 5, 5, 5, 5, 5]


def test_interleave_autotune_cycles_over_the_cores(monkeypatch):
    import os
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})   # TF: MaxParallelism
    ds = D.range(1, 5).interleave(lambda x: D.range(x * 10, x * 10 + x),
                                  cycle_length=tf.data.experimental.AUTOTUNE)
    assert [int(x) for x in _run(ds)] == [10, 20, 21, 30, 31, 40, 32, 41, 42, 43]


def test_tuples_captures_and_nested_transformations():
    ds = D.from_tensor_slices(([1, 2], [10, 20])).flat_map(
        lambda a, b: D.from_tensor_slices((tf.fill([3], a), tf.range(b, b + 3))))
    assert [(int(a), int(b)) for a, b in _run(ds)] == [(1, 10), (1, 11), (1, 12), (2, 20),
                                                       (2, 21), (2, 22)]
    w = tf.constant(100, tf.int64)
    ds = D.range(2).flat_map(lambda x: D.range(x + w, x + w + 2).map(lambda y: y * 2))
    assert [int(x) for x in _run(ds)] == [200, 202, 202, 204]
    ds = D.range(3).flat_map(lambda x: D.range(x).batch(2))
    assert ds.output_shapes.as_list() == [None] and ds.output_types == tf.int64
    assert [x.tolist() for x in _run(ds)] == [[0], [0, 1]]


def test_interleave_reads_tfrecord_files_in_turn(tmp_path):
    files = []
    for name in ("a", "b"):
        path = str(tmp_path / f"{name}.tfrecords")
        with tf.python_io.TFRecordWriter(path) as writer:
            for i in range(3):
                writer.write(f"{name}{i}".encode())
        files.append(path)
    ds = D.from_tensor_slices(files).interleave(tf.data.TFRecordDataset, cycle_length=2)
    assert _run(ds) == [b"a0", b"b0", b"a1", b"b1", b"a2", b"b2"]


def test_a_function_that_returns_no_dataset_says_so():
    # (TF 2.15 fails here with "AttributeError: 'Tensor' object has no attribute '_name'")
    with pytest.raises(TypeError, match="flat_map must return a `Dataset` object"):
        D.range(3).flat_map(lambda x: x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="block_length > 0"):
        _run(D.range(3).interleave(lambda x: D.from_tensors(x), cycle_length=1,
                                   block_length=0))
