"""Partitioned variables in checkpoints (TF's slices): the shards of a partitioned variable are
saved as slices of one tensor named after the full variable, read back whole by the reader, and
restored into the same shards, another partitioning or one whole variable -- in one process and
on a cluster whose parameter servers each write their own shards."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import tensor_bundle as fmt
from sandbox.ops import io_ops
from sandbox.train.saver import Saver

FULL = np.arange(20, dtype=np.float32).reshape(5, 4)


def shards(rows, name="emb", full=FULL, devices=None):
    """Variables `name/part_i` holding consecutive row blocks of `full`, each with its
    SaveSliceInfo -- what a partitioner makes (built by hand here)."""
    out, start = [], 0
    for i, n in enumerate(rows):
        with tf.device(devices[i] if devices else None):
            v = tf.Variable(full[start:start + n], name=f"{name}/part_{i}")
        v._set_save_slice_info(tf.Variable.SaveSliceInfo(
            name, list(full.shape), [start, 0], [n] + list(full.shape[1:])))
        out.append(v)
        start += n
    return out


class FakePartitioned:
    """Duck-types TF's PartitionedVariable: iterable over its shards, _get_variable_list()."""

    def __init__(self, variables):
        self._variables = variables

    def _get_variable_list(self):
        return list(self._variables)

    def __iter__(self):
        return iter(self._variables)


def save_two_shards(tmp_path, sharded=False):
    parts = shards([3, 2])
    saver = Saver(sharded=sharded)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "model.ckpt"))
    tf.reset_default_graph()
    return path, parts


def restored(var_list, path):
    saver = Saver(var_list)
    with tf.Session() as sess:
        saver.restore(sess, path)
        return [sess.run(v) for v in var_list]


# -- saving: one tensor of the full shape -----------------------------------------------------

@pytest.mark.parametrize("sharded", [False, True])
def test_shards_are_saved_as_slices_of_one_tensor(tmp_path, sharded):
    path, _ = save_two_shards(tmp_path, sharded)
    reader = tf.train.NewCheckpointReader(path)
    assert reader.get_variable_to_shape_map() == {"emb": [5, 4]}
    np.testing.assert_array_equal(reader.get_tensor("emb"), FULL)
    entry = fmt.read_index(path)["tensors"]["emb"]
    assert [(s["start"], s["shape"]) for s in entry["slices"]] == [([0, 0], [3, 4]),
                                                                   ([3, 0], [2, 4])]
    assert tf.train.list_variables(path) == [("emb", [5, 4])]
    np.testing.assert_array_equal(tf.train.load_variable(path, "emb"), FULL)


def test_restore_into_the_same_shards(tmp_path):
    path, _ = save_two_shards(tmp_path)
    parts = shards([3, 2], full=np.zeros((5, 4), np.float32))
    a, b = restored(parts, path)
    np.testing.assert_array_equal(a, FULL[:3])
    np.testing.assert_array_equal(b, FULL[3:])


def test_restore_into_another_number_of_shards(tmp_path):
    path, _ = save_two_shards(tmp_path)
    parts = shards([2, 2, 1], full=np.zeros((5, 4), np.float32))
    values = restored(parts, path)
    np.testing.assert_array_equal(np.concatenate(values), FULL)


def test_restore_into_one_whole_variable_and_back(tmp_path):
    path, _ = save_two_shards(tmp_path)
    whole = tf.Variable(np.zeros((5, 4), np.float32), name="emb")
    (value,) = restored([whole], path)
    np.testing.assert_array_equal(value, FULL)
    # and a whole variable restores into shards
    tf.reset_default_graph()
    whole = tf.Variable(FULL, name="emb")
    with tf.Session() as sess:
        sess.run(whole.initializer)
        path = Saver().save(sess, str(tmp_path / "whole.ckpt"))
    tf.reset_default_graph()
    parts = shards([4, 1], full=np.zeros((5, 4), np.float32))
    np.testing.assert_array_equal(np.concatenate(restored(parts, path)), FULL)


def test_partitioned_variable_in_a_list_or_a_dict(tmp_path):
    pv = FakePartitioned(shards([3, 2]))
    other = tf.Variable(1.0, name="other")
    saver = Saver([pv, other])
    renamed = Saver({"table": pv})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        p1 = saver.save(sess, str(tmp_path / "a"))
        p2 = renamed.save(sess, str(tmp_path / "b"))
    assert tf.train.list_variables(p1) == [("emb", [5, 4]), ("other", [])]
    np.testing.assert_array_equal(tf.train.load_variable(p2, "table"), FULL)


def test_get_variable_with_a_partitioner_restores_into_another_partitioning(tmp_path):
    if not hasattr(tf, "fixed_size_partitioner"):
        pytest.skip("tf.fixed_size_partitioner is not there yet")
    init = np.arange(40, dtype=np.float32).reshape(10, 4)
    emb = tf.get_variable("emb", initializer=tf.constant(init),
                          partitioner=tf.fixed_size_partitioner(3))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "m"))
    assert tf.train.list_variables(path) == [("emb", [10, 4])]
    tf.reset_default_graph()
    emb = tf.get_variable("emb", shape=[10, 4], partitioner=tf.fixed_size_partitioner(2))
    with tf.Session() as sess:
        tf.train.Saver({"emb": emb}).restore(sess, path)
        np.testing.assert_array_equal(np.concatenate(sess.run(list(emb))), init)


def test_string_slices_round_trip(tmp_path):
    words = np.array([[b"a", b"bb"], [b"ccc", b""], [b"e", b"ff"]], dtype=object)
    prefix = str(tmp_path / "s")
    fmt.write_checkpoint(prefix, ["w", "w"], [words[:1], words[1:]], [tf.string] * 2,
                         shape_and_slices=["3 2 0,1:-", "3 2 1,2:-"])
    reader = fmt.CheckpointReader(prefix)
    assert reader.get_tensor("w").tolist() == words.tolist()
    assert reader.lookup_slice("w", "3 2 -:1,1").tolist() == [[b"bb"], [b""], [b"ff"]]


def test_merge_joins_the_slices_of_one_tensor_from_two_shards(tmp_path):
    (tmp_path / "tmp").mkdir()
    a, b = str(tmp_path / "tmp" / "part-0"), str(tmp_path / "tmp" / "part-1")
    fmt.write_checkpoint(a, ["emb"], [FULL[:3]], [tf.float32], shape_and_slices=["5 4 0,3:-"])
    fmt.write_checkpoint(b, ["emb"], [FULL[3:]], [tf.float32], shape_and_slices=["5 4 3,2:-"])
    fmt.merge_checkpoints([a, b], str(tmp_path / "m"))
    entry = fmt.read_index(str(tmp_path / "m"))["tensors"]["emb"]
    assert [s["shard"] for s in entry["slices"]] == [0, 1]
    reader = fmt.CheckpointReader(str(tmp_path / "m"))
    np.testing.assert_array_equal(reader.get_tensor("emb"), FULL)
    np.testing.assert_array_equal(reader.lookup_slice("emb", "5 4 2,2:1,2"), FULL[2:4, 1:3])


# -- errors ----------------------------------------------------------------------------------

def test_mixing_slices_and_non_slices_is_refused():
    parts = shards([3, 2])
    whole = tf.Variable(FULL, name="emb")
    for var_list in ([whole] + parts, parts + [whole]):
        with pytest.raises(ValueError, match="Mixing slices and non-slices with the same name: "
                                             "emb"):
            Saver(var_list)
    with pytest.raises(ValueError, match="Slices must all be slices"):
        Saver({"emb": parts + [whole]})
    with pytest.raises(ValueError, match="Slices must all be from the same tensor"):
        Saver({"emb": parts + shards([1], name="other", full=FULL[:1])})


@pytest.mark.parametrize("spec, match", [
    ("5", "at least two elements"),
    ("5 x 0,3:-", "not a number"),
    ("5 4 0,3", "mismatching ranks"),
    ("5 4 0,3:1", "pair of numbers"),
    ("5 4 0,0:-", "positive length"),
    ("5 4 4,3:-", "goes past"),
])
def test_bad_specs_are_refused_naming_the_tensor(spec, match):
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"tensor_name = emb;.*{match}"):
        fmt.parse_shape_and_slice(spec, "emb")


def test_spec_format_is_tfs():
    assert fmt.parse_shape_and_slice("", "x") is None
    assert fmt.parse_shape_and_slice("10 4 5,5:-", "x") == ([10, 4], [5, 0], [5, 4])
    assert tf.Variable.SaveSliceInfo("e", [10, 4], [5, 0], [5, 4]).spec == "10 4 5,5:0,4"


def test_restoring_with_another_full_shape_names_both_shapes(tmp_path):
    path, _ = save_two_shards(tmp_path)
    parts = shards([3, 3], full=np.zeros((6, 4), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"tensor_name = emb; shape in shape_and_slice spec \[6, 4\] does "
                             r"not match the shape stored in checkpoint: \[5, 4\]"):
        restored(parts, path)
    tf.reset_default_graph()
    (out,) = io_ops.restore_v2(path, ["emb"], ["5 4 7,1:-"], [tf.float32])
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="goes past"):
        sess.run(out)


def test_slices_that_do_not_cover_the_tensor_are_named(tmp_path):
    parts = shards([3, 2])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = Saver(parts[:1]).save(sess, str(tmp_path / "half"))
    reader = fmt.CheckpointReader(path)
    np.testing.assert_array_equal(reader.lookup_slice("emb", "5 4 1,2:-"), FULL[1:3])
    with pytest.raises(tf.errors.NotFoundError, match="slices of tensor 'emb'.*do not cover"):
        reader.get_tensor("emb")


def test_save_errors_slice_shape_and_overlap(tmp_path):
    with pytest.raises(tf.errors.InvalidArgumentError, match="Slice '5 4 0,2:-' of tensor 'emb' "
                                                             "has shape"):
        fmt.write_checkpoint(str(tmp_path / "a"), ["emb"], [FULL[:3]], [tf.float32],
                             shape_and_slices=["5 4 0,2:-"])
    with pytest.raises(tf.errors.InvalidArgumentError, match="slices of tensor 'emb' overlap"):
        fmt.write_checkpoint(str(tmp_path / "b"), ["emb", "emb"], [FULL[:3], FULL[2:]],
                             [tf.float32] * 2, shape_and_slices=["5 4 0,3:-", "5 4 2,3:-"])
    with pytest.raises(tf.errors.InvalidArgumentError, match="both whole and as slices"):
        fmt.write_checkpoint(str(tmp_path / "c"), ["emb", "emb"], [FULL, FULL[2:]],
                             [tf.float32] * 2, shape_and_slices=["", "5 4 2,3:-"])


def test_a_damaged_slice_names_the_tensor_and_the_slice(tmp_path):
    path, _ = save_two_shards(tmp_path)
    data = tmp_path / "model.ckpt.data-00000-of-00001"
    raw = bytearray(data.read_bytes())
    raw[-1] ^= 0xFF                                  # the last byte: in slice 3,2:0,4
    data.write_bytes(bytes(raw))
    reader = fmt.CheckpointReader(path)
    np.testing.assert_array_equal(reader.lookup_slice("emb", "5 4 0,3:-"), FULL[:3])
    with pytest.raises(tf.errors.DataLossError, match=r"tensor 'emb' \(slice 3,2:0,4\) fails"):
        reader.get_tensor("emb")


# -- a cluster: each ps writes the slices it holds -------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    from sandbox.cluster import LocalCluster
    with LocalCluster({"ps": 2, "worker": 1}) as c:
        yield c


CONFIG = tf.ConfigProto(operation_timeout_in_ms=30000)


def test_sharded_save_of_slices_on_two_ps(cluster, tmp_path):
    parts = shards([3, 2], devices=["/job:ps/task:0", "/job:ps/task:1"])
    saver = Saver(sharded=True)
    with tf.Session(cluster.target("worker", 0), config=CONFIG) as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "model.ckpt"))
        sess.run([parts[0].assign(tf.zeros([3, 4])), parts[1].assign(tf.zeros([2, 4]))])
        saver.restore(sess, path)
        np.testing.assert_array_equal(np.concatenate(sess.run(parts)), FULL)
    index = fmt.read_index(path)
    assert [s["pid"] for s in index["shards"]] == [cluster.pid("ps", 0), cluster.pid("ps", 1)]
    assert [s["shard"] for s in index["tensors"]["emb"]["slices"]] == [0, 1]
    np.testing.assert_array_equal(tf.train.load_variable(path, "emb"), FULL)
    restores = [op for op in tf.get_default_graph().get_operations() if op.type == "RestoreV2"]
    assert sorted(op.device for op in restores) == ["/job:ps/task:0", "/job:ps/task:1"]

    # into three shards, spread the other way round
    tf.reset_default_graph()
    parts = shards([1, 2, 2], full=np.zeros((5, 4), np.float32),
                   devices=["/job:ps/task:1", "/job:ps/task:0", "/job:ps/task:1"])
    saver = Saver(sharded=True)
    with tf.Session(cluster.target("worker", 0), config=CONFIG) as sess:
        saver.restore(sess, path)
        np.testing.assert_array_equal(np.concatenate(sess.run(parts)), FULL)
