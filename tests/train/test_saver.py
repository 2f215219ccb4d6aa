"""tf.train.Saver, the checkpoint format and checkpoint management: round trips, names,
errors, max_to_keep, the state file, damaged and half-written checkpoints, a process killed
while saving, and sharded checkpoints written by the parameter servers themselves."""
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sandbox as tf
from sandbox.framework import tensor_bundle as fmt
from sandbox.train import checkpoint_management as cm
from sandbox.train import meta_graph
from sandbox.train.saver import Saver, SaverDef, _get_saver_or_default

REPO = pathlib.Path(__file__).resolve().parents[2]


def make_vars():
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="w")
    b = tf.Variable(np.array([1.5, -2.5]), name="layer/b")                  # float64
    n = tf.Variable(np.array([[1, 2], [3, 4]], dtype=np.int32), name="n")
    flag = tf.Variable(True, name="flag")
    s = tf.Variable(b"hello", name="s")
    step = tf.train.get_or_create_global_step()
    return {"w": w, "layer/b": b, "n": n, "flag": flag, "s": s, "global_step": step}


def values(sess, vs):
    return {k: sess.run(v) for k, v in vs.items()}


def clobber(sess, vs):
    """Overwrites every variable with something else."""
    sess.run([vs["w"].assign(tf.zeros([2, 3])), vs["layer/b"].assign([0.0, 0.0]),
              vs["n"].assign([[0, 0], [0, 0]]), vs["flag"].assign(False), vs["s"].assign(b"x"),
              vs["global_step"].assign(99)])


def assert_same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)
        assert np.asarray(a[k]).dtype == np.asarray(b[k]).dtype, k


# -- round trips, one process ---------------------------------------------------------------

@pytest.mark.parametrize("sharded", [False, True])
def test_round_trip_every_dtype(tmp_path, sharded):
    vs = make_vars()
    saver = Saver(sharded=sharded)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(vs["global_step"].assign(7))
        before = values(sess, vs)
        path = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=vs["global_step"])
        assert path == str(tmp_path / "model.ckpt-7")
        clobber(sess, vs)
        saver.restore(sess, path)
        assert_same(values(sess, vs), before)
    files = sorted(os.listdir(tmp_path))
    assert files == ["checkpoint", "model.ckpt-7.data-00000-of-00001", "model.ckpt-7.index",
                     "model.ckpt-7.meta"]            # no temporary file or dir left behind
    # A fresh session (fresh variables) restores without running any initializer.
    with tf.Session() as sess:
        saver.restore(sess, cm.latest_checkpoint(str(tmp_path)))
        assert_same(values(sess, vs), before)


@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(0, 4), max_size=3),
       dtype=st.sampled_from([np.float16, np.float32, np.float64, np.int8, np.int16, np.int32,
                              np.int64, np.uint8, np.uint16, np.bool_]),
       seed=st.integers(0, 2**31 - 1))
def test_format_round_trips_any_array(tmp_path_factory, shape, dtype, seed):
    rng = np.random.default_rng(seed)
    value = np.asarray(rng.standard_normal(shape) * 100).astype(dtype)
    prefix = str(tmp_path_factory.mktemp("fmt") / "x")
    fmt.write_checkpoint(prefix, ["a", "b"], [value, np.flip(value)], [tf.as_dtype(dtype)] * 2)
    with fmt.CheckpointReader(prefix) as reader:
        a, b = reader.get_tensor("a"), reader.get_tensor("b")
        assert reader.get_variable_to_shape_map() == {"a": list(shape), "b": list(shape)}
    np.testing.assert_array_equal(a, value)
    np.testing.assert_array_equal(b, np.flip(value))
    assert a.dtype == value.dtype and a.shape == value.shape


def test_global_step_suffix_and_padding(tmp_path):
    v = tf.Variable(1.0, name="v")
    step = tf.train.get_or_create_global_step()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step.assign(1000))
        assert Saver().save(sess, str(tmp_path / "m"), global_step=step) == str(tmp_path / "m-1000")
        assert Saver().save(sess, str(tmp_path / "m"), global_step=np.int64(5)) == \
            str(tmp_path / "m-5")
        assert Saver(pad_step_number=True).save(sess, str(tmp_path / "p"), global_step=3) == \
            str(tmp_path / "p-00000003")
        assert Saver().save(sess, str(tmp_path / "plain")) == str(tmp_path / "plain")
        assert Saver().save(sess, tmp_path / "pathlib", global_step=2) == \
            str(tmp_path / "pathlib-2")
        assert cm.checkpoint_exists(str(tmp_path / "m-1000"))
        assert not cm.checkpoint_exists(str(tmp_path / "m-1001"))
    del v


def test_var_list_dict_renames_and_list(tmp_path):
    a = tf.Variable([1.0, 2.0], name="a")
    b = tf.Variable([3.0], name="b")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = Saver({"renamed_a": a}).save(sess, str(tmp_path / "dict"))
        only_b = Saver([b]).save(sess, str(tmp_path / "list"))
    assert dict(cm.list_variables(path)) == {"renamed_a": [2]}
    assert dict(cm.list_variables(only_b)) == {"b": [1]}
    np.testing.assert_array_equal(cm.load_variable(path, "renamed_a"), [1.0, 2.0])
    tf.reset_default_graph()
    c = tf.Variable([0.0, 0.0], name="c")                   # another name in another graph
    with tf.Session() as sess:
        Saver({"renamed_a": c}).restore(sess, path)
        np.testing.assert_array_equal(sess.run(c), [1.0, 2.0])


def test_saver_ops_and_saver_def_match_tf_names():
    tf.Variable(1.0, name="v")
    saver = Saver()
    d = saver.as_saver_def()
    assert (d.filename_tensor_name, d.save_tensor_name, d.restore_op_name) == \
        ("save/Const:0", "save/control_dependency:0", "save/restore_all")
    assert d.max_to_keep == 5 and d.version == SaverDef.V2 and not d.sharded
    assert Saver(sharded=True).as_saver_def().restore_op_name == "save_1/restore_all"
    types = {op.type for op in tf.get_default_graph().get_operations()}
    assert {"SaveV2", "RestoreV2", "MergeV2Checkpoints", "ShardedFilename"} <= types


def test_constructor_errors(tmp_path):
    with pytest.raises(ValueError, match="No variables to save"):
        Saver()
    with tf.Session() as sess:
        assert Saver(allow_empty=True).save(sess, str(tmp_path / "x"), write_meta_graph=False) \
            is None
    assert os.listdir(tmp_path) == []
    v = tf.Variable(1.0, name="v")
    with pytest.raises(TypeError, match="not a Variable"):
        Saver([tf.constant(1.0)])
    with pytest.raises(TypeError, match="dict or a list"):
        Saver(v)
    tf.reset_default_graph()
    with tf.variable_scope("one"):
        x = tf.Variable(1.0, name="same")
    g2 = tf.Graph()
    with g2.as_default():
        with tf.variable_scope("one"):
            y = tf.Variable(2.0, name="same")
    with pytest.raises(ValueError, match="two variables have the same name: one/same"):
        Saver([x, y])
    with pytest.raises(ValueError, match="restored with two names"):
        Saver({"p": x, "q": x})
    with pytest.raises(ValueError, match="build cannot be deferred"):
        Saver([x], defer_build=True)
    deferred = Saver(defer_build=True)
    with pytest.raises(RuntimeError, match="build"):
        deferred.save(None, "x")


def test_save_errors(tmp_path):
    v = tf.Variable(1.0, name="v")
    saver = Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        with pytest.raises(ValueError, match="Parent directory of .* doesn't exist"):
            saver.save(sess, str(tmp_path / "no" / "such" / "dir" / "m"))
        with pytest.raises(ValueError, match="must not contain path components"):
            saver.save(sess, str(tmp_path / "m"), latest_filename="a/b")
        with pytest.raises(ValueError, match="collides"):
            saver.save(sess, str(tmp_path / "checkpoint"))
        with pytest.raises(TypeError, match="must be a Session"):
            saver.save("not a session", str(tmp_path / "m"))
        # One missing level is created, as TF's SaveV2 does.
        assert saver.save(sess, str(tmp_path / "new" / "m")) == str(tmp_path / "new" / "m")
    with tf.Session() as sess:                       # uninitialized variable
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value v"):
            saver.save(sess, str(tmp_path / "m2"))


def test_restore_errors_are_tfs(tmp_path):
    a = tf.Variable([1.0, 2.0], name="a")
    with tf.Session() as sess:
        sess.run(a.initializer)
        path = Saver().save(sess, str(tmp_path / "m"))
    with tf.Session() as sess:
        with pytest.raises(ValueError, match="not a valid checkpoint: .*nothing_here"):
            Saver().restore(sess, str(tmp_path / "nothing_here"))
        with pytest.raises(ValueError, match="Can't load save_path when it is None"):
            Saver().restore(sess, None)
    tf.reset_default_graph()
    tf.Variable([0.0, 0.0], name="a")
    tf.Variable(0.0, name="extra")
    with tf.Session() as sess, pytest.raises(tf.errors.NotFoundError) as info:
        Saver().restore(sess, path)
    assert "Key extra not found in checkpoint" in str(info.value)
    assert "Variable name or other graph key that is missing" in str(info.value)
    tf.reset_default_graph()
    tf.Variable([0.0, 0.0, 0.0], name="a")                 # wrong shape
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match="mismatch between the current graph"):
        Saver().restore(sess, path)
    tf.reset_default_graph()
    tf.Variable([0, 0], name="a")                          # wrong dtype
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match="expected dtype int32 does not equal "
                                                   "original dtype float32"):
        Saver().restore(sess, path)
    tf.reset_default_graph()
    c = tf.Variable([0.0, 0.0, 0.0, 0.0], name="a")        # reshape=True: 2 values into [2, 1]
    d = tf.Variable(np.zeros((2, 1), np.float32), name="a2")
    with tf.Session() as sess:
        Saver({"a": d}, reshape=True).restore(sess, path)
        np.testing.assert_array_equal(sess.run(d), [[1.0], [2.0]])
    del c


# -- max_to_keep and the state file ------------------------------------------------------------

def test_max_to_keep_and_state_file(tmp_path):
    v = tf.Variable(0, name="v")
    saver = Saver(max_to_keep=3)
    with tf.Session() as sess:
        sess.run(v.initializer)
        for step in range(1, 8):
            sess.run(v.assign(step))
            saver.save(sess, str(tmp_path / "model.ckpt"), global_step=step)
    kept = [str(tmp_path / f"model.ckpt-{s}") for s in (5, 6, 7)]
    assert saver.last_checkpoints == kept
    left = sorted(f for f in os.listdir(tmp_path) if f != "checkpoint")
    assert left == sorted(f"model.ckpt-{s}{ext}" for s in (5, 6, 7)
                          for ext in (".index", ".data-00000-of-00001", ".meta"))
    assert cm.latest_checkpoint(str(tmp_path)) == kept[-1]
    state = cm.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == kept[-1]
    assert state.all_model_checkpoint_paths == kept
    text = (tmp_path / "checkpoint").read_text()
    assert text.splitlines()[0] == f'model_checkpoint_path: "{kept[-1]}"'
    assert f'all_model_checkpoint_paths: "{kept[0]}"' in text
    assert cm.load_variable(str(tmp_path), "v") == 7           # a directory: its latest


def test_max_to_keep_none_keeps_all_and_recover(tmp_path):
    v = tf.Variable(0, name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        keep_all = Saver(max_to_keep=None)
        for step in range(4):
            keep_all.save(sess, str(tmp_path / "m"), global_step=step)
        assert keep_all.last_checkpoints == []
        assert all(cm.checkpoint_exists(str(tmp_path / f"m-{s}")) for s in range(4))
        # A new saver (a restarted program) takes over the old list, so it deletes them too.
        fresh = Saver(max_to_keep=2)
        fresh.recover_last_checkpoints([str(tmp_path / f"m-{s}") for s in (2, 3)])
        fresh.save(sess, str(tmp_path / "m"), global_step=4)
        assert not cm.checkpoint_exists(str(tmp_path / "m-2"))
        assert cm.checkpoint_exists(str(tmp_path / "m-3"))


def test_relative_paths_and_state_file_parsing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    v = tf.Variable(3.0, name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert Saver().save(sess, "train/model", global_step=1) == "train/model-1"
    assert 'model_checkpoint_path: "model-1"' in (tmp_path / "train" / "checkpoint").read_text()
    assert cm.latest_checkpoint("train") == os.path.join("train", "model-1")
    # The TF text format, escapes and all; a garbled state file is ignored (None), as in TF.
    (tmp_path / "train" / "checkpoint").write_text(
        'model_checkpoint_path: "a\\"b"\nall_model_checkpoint_paths: "a\\"b"\n'
        'all_model_checkpoint_timestamps: 1.5\n')
    state = cm.get_checkpoint_state("train")
    assert state.model_checkpoint_path == os.path.join("train", 'a"b')
    assert state.all_model_checkpoint_timestamps == [1.5]
    (tmp_path / "train" / "checkpoint").write_text("this is not a state file")
    assert cm.get_checkpoint_state("train") is None
    assert cm.latest_checkpoint(str(tmp_path / "empty")) is None


def test_meta_graph_is_data(tmp_path):
    v = tf.Variable(np.ones(3, np.float32), name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = Saver().save(sess, str(tmp_path / "m"))
    meta = meta_graph.read_meta_graph(path + ".meta")
    names = {nd["name"] for nd in meta["graph_def"]["node"]}
    assert {"v", "save/SaveV2", "save/restore_all"} <= names
    assert meta["saver_def"]["restore_op_name"] == "save/restore_all"
    assert meta["collection_def"]["variables"] == ["v:0"]
    assert b"pickle" not in (tmp_path / "m.meta").read_bytes()


def test_exported_names():
    """tf.train.* and tf.summary.* give these names (sandbox/train/__init__.py)."""
    from sandbox.summary.writer import FileWriter
    assert tf.train.Saver is Saver
    assert tf.train.latest_checkpoint is cm.latest_checkpoint
    assert tf.train.get_checkpoint_state is cm.get_checkpoint_state
    assert tf.train.checkpoint_exists is cm.checkpoint_exists
    assert tf.train.SummaryWriter is FileWriter and tf.summary.FileWriter is FileWriter


def test_get_saver_or_default():
    tf.Variable(1.0, name="v")
    saver = _get_saver_or_default()
    assert saver is _get_saver_or_default()
    assert saver.as_saver_def().sharded
    assert tf.get_collection(tf.GraphKeys.SAVERS) == [saver]


# -- damaged checkpoints ------------------------------------------------------------------------

@pytest.fixture
def two_checkpoints(tmp_path):
    """A directory with good checkpoints at steps 1 and 2 (v = 1.0 then 2.0)."""
    v = tf.Variable(np.zeros(1000, np.float32), name="v")
    saver = Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        for step in (1, 2):
            sess.run(v.assign(tf.fill([1000], float(step))))
            saver.save(sess, str(tmp_path / "m"), global_step=step)
    return tmp_path, v, saver


def _restored(saver, v, path):
    with tf.Session() as sess:
        saver.restore(sess, path)
        return sess.run(v)


def _damage(path, how):
    data = bytearray(path.read_bytes())
    if how == "flip":
        data[len(data) // 2] ^= 0xFF
    elif how == "magic":
        data[0:4] = b"JUNK"
    elif how == "truncate":
        del data[len(data) // 2:]
    elif how == "extend":
        data += b"\0" * 8
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("target, how, expected", [
    ("data", "flip", r"Data file .*m-2\.data-00000-of-00001 is corrupted: tensor 'v' fails "
                     r"its CRC check"),
    ("data", "truncate", r"m-2\.data-00000-of-00001 .*is truncated: it has \d+ bytes, the index "
                         r"expects 4024"),
    ("data", "extend", r"is too long"),
    ("data", "magic", r"m-2\.data-00000-of-00001 .*bad magic number"),
    ("data", "delete", r"Checkpoint .*m-2 is missing shard 0 of 1: no data file "
                       r".*m-2\.data-00000-of-00001"),
    ("index", "flip", r"Checkpoint index .*m-2\.index fails its CRC check"),
    ("index", "truncate", r"Checkpoint index .*m-2\.index is truncated"),
    ("index", "magic", r"Checkpoint index .*m-2\.index has a bad magic number"),
])
def test_damaged_checkpoint_is_refused_and_older_one_still_restores(two_checkpoints, target,
                                                                   how, expected):
    directory, v, saver = two_checkpoints
    name = "m-2.data-00000-of-00001" if target == "data" else "m-2.index"
    if how == "delete":
        (directory / name).unlink()
    else:
        _damage(directory / name, how)
    with pytest.raises(tf.errors.DataLossError, match=expected):
        _restored(saver, v, str(directory / "m-2"))
    np.testing.assert_array_equal(_restored(saver, v, str(directory / "m-1")), 1.0)


def test_data_file_from_another_save_is_recognized(two_checkpoints):
    """Two saves to the same prefix, the second interrupted between its data file and its
    index: the old index does not silently read the new data."""
    directory, v, saver = two_checkpoints
    old_data = (directory / "m-2.data-00000-of-00001").read_bytes()
    fmt.write_checkpoint(str(directory / "m-2"), ["v"], [np.full(1000, 5.0, np.float32)],
                         [tf.float32])
    index = (directory / "m-2.index").read_bytes()
    (directory / "m-2.data-00000-of-00001").write_bytes(old_data)   # new index, old data
    with pytest.raises(tf.errors.DataLossError, match="belongs to another save"):
        _restored(saver, v, str(directory / "m-2"))
    assert index                                   # (the index itself is intact)


def test_malformed_index_json_is_refused(two_checkpoints):
    import json
    import struct
    import zlib
    directory, v, saver = two_checkpoints
    for body in (b"[1, 2]", json.dumps({"format": "sandbox-checkpoint", "version": 1,
                                        "shards": [{"file": "../../etc/passwd",
                                                    "save_id": "0" * 32, "bytes": 10}],
                                        "tensors": {}}).encode()):
        (directory / "m-2.index").write_bytes(struct.pack("<8sQI", b"SBXCKIDX", len(body),
                                                          zlib.crc32(body)) + body)
        with pytest.raises(tf.errors.DataLossError, match="m-2.index is malformed"):
            _restored(saver, v, str(directory / "m-2"))


def test_crash_before_the_index_leaves_the_last_checkpoint_intact(two_checkpoints, monkeypatch):
    """A save that dies after writing its data file but before its index (simulated by making
    the index write fail) changes nothing the state file points to."""
    directory, v, saver = two_checkpoints
    state_before = (directory / "checkpoint").read_text()
    real = fmt.atomic_write

    def crash_on_index(path, chunks):
        if path.endswith(".index"):
            # what a kill leaves: a partly written temporary file next to the real ones
            (directory / ".m-3.index.tmp-dead").write_bytes(b"SBXCKIDX\x10")
            raise OSError("simulated crash")
        return real(path, chunks)

    monkeypatch.setattr(fmt, "atomic_write", crash_on_index)
    with tf.Session() as sess:
        sess.run(v.initializer)
        with pytest.raises(tf.errors.OpError, match="simulated crash"):
            saver.save(sess, str(directory / "m"), global_step=3)
    monkeypatch.undo()
    assert (directory / "m-3.data-00000-of-00001").exists()     # written ...
    assert not cm.checkpoint_exists(str(directory / "m-3"))     # ... but not a checkpoint
    assert (directory / "checkpoint").read_text() == state_before
    latest = cm.latest_checkpoint(str(directory))
    assert latest == str(directory / "m-2")
    np.testing.assert_array_equal(_restored(saver, v, latest), 2.0)
    # A half-written temporary data file does not disturb anything either.
    (directory / ".m-4.data-00000-of-00001.tmp-dead").write_bytes(b"SBXCKDAT" + b"\0" * 5)
    np.testing.assert_array_equal(_restored(saver, v, cm.latest_checkpoint(str(directory))),
                                  2.0)


_SAVE_LOOP = textwrap.dedent("""
    import sys
    sys.path.insert(0, {repo!r})
    import numpy as np
    import sandbox as tf
    from sandbox.train.saver import Saver
    from sandbox.train import checkpoint_management as cm
    directory = sys.argv[1]
    v = tf.Variable(tf.zeros([500000]), name="v")
    step = tf.Variable(0, name="step")
    saver = Saver(max_to_keep=3)
    with tf.Session() as sess:
        latest = cm.latest_checkpoint(directory)
        if latest:
            saver.restore(sess, latest)
            saver.recover_last_checkpoints(cm.get_checkpoint_state(directory)
                                           .all_model_checkpoint_paths)
        else:
            sess.run(tf.global_variables_initializer())
        bump = [v.assign_add(tf.ones([500000])), step.assign_add(1)]
        while True:
            sess.run(bump)
            saver.save(sess, directory + "/m", global_step=sess.run(step))
            print("saved", flush=True)
""")


def test_process_killed_while_saving_never_damages_the_latest_checkpoint(tmp_path):
    """kill -9 a program in the middle of its save loop, three times: the latest checkpoint
    always restores, and holds consistent values (v == step everywhere)."""
    script = tmp_path / "save_loop.py"
    script.write_text(_SAVE_LOOP.format(repo=str(REPO)))
    directory = tmp_path / "ckpt"
    directory.mkdir()
    rng = np.random.default_rng(0)
    for round_ in range(3):
        proc = subprocess.Popen([sys.executable, str(script), str(directory)],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            for _ in range(2 + round_):
                assert proc.stdout.readline() == b"saved\n"
            time.sleep(rng.uniform(0.0, 0.05))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
        latest = cm.latest_checkpoint(str(directory))
        step = int(latest.rsplit("-", 1)[1])
        assert step >= 2 + round_
        with fmt.CheckpointReader(latest) as reader:
            assert reader.get_tensor("step") == step
            np.testing.assert_array_equal(reader.get_tensor("v"), float(step))
        for path in cm.get_checkpoint_state(str(directory)).all_model_checkpoint_paths:
            with fmt.CheckpointReader(path) as reader:       # every listed one is intact
                reader.get_tensor("v")


# -- a cluster: the parameter servers write their own shards -------------------------------------

@pytest.fixture(scope="module")
def cluster():
    from sandbox.cluster import LocalCluster
    with LocalCluster({"ps": 2, "worker": 1}) as c:
        yield c


def _ps_model():
    with tf.device("/job:ps/task:0"):
        w0 = tf.Variable(np.arange(4, dtype=np.float32), name="w0")
        step = tf.train.get_or_create_global_step()
    with tf.device("/job:ps/task:1"):
        w1 = tf.Variable(np.full((3, 2), 7.0), name="w1")
    return w0, w1, step


# A step that hangs (a bug) fails the test instead of blocking the suite.
CONFIG = tf.ConfigProto(operation_timeout_in_ms=30000)


def test_sharded_save_is_written_by_each_ps(cluster, tmp_path):
    w0, w1, step = _ps_model()
    saver = Saver(sharded=True)
    with tf.Session(cluster.target("worker", 0), config=CONFIG) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step.assign(42))
        since = max([r.seq for r in cluster.trace("worker", 0)], default=0)
        path = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=step)
        received = [r for r in cluster.trace("worker", 0, since) if r.kind == "recv"]
    assert path == str(tmp_path / "model.ckpt-42")
    assert sorted(os.listdir(tmp_path)) == [
        "checkpoint", "model.ckpt-42.data-00000-of-00002", "model.ckpt-42.data-00001-of-00002",
        "model.ckpt-42.index", "model.ckpt-42.meta"]
    shards = fmt.read_index(path)["shards"]
    assert [s["task"] for s in shards] == ["/job:ps/replica:0/task:0", "/job:ps/replica:0/task:1"]
    assert [s["pid"] for s in shards] == [cluster.pid("ps", 0), cluster.pid("ps", 1)]
    assert os.getpid() not in [s["pid"] for s in shards]
    tensors = fmt.read_index(path)["tensors"]
    assert {n: e["shard"] for n, e in tensors.items()} == {"w0": 0, "global_step": 0, "w1": 1}
    # the values never went to the worker: each ps wrote its own
    assert not [r for r in received if r.tensor.split(":")[0] in ("w0", "w1", "global_step")]


def test_unsharded_save_gathers_values_on_the_saver_device(cluster, tmp_path):
    w0, w1, step = _ps_model()
    saver = Saver()      # SaveV2 has no device: the cluster's first task, ps 0, as in TF
    with tf.Session(cluster.target("worker", 0), config=CONFIG) as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
        (shard,) = fmt.read_index(path)["shards"]
        assert shard["pid"] == cluster.pid("ps", 0)
        assert shard["task"] == "/job:ps/replica:0/task:0"
        sess.run(w1.assign(tf.zeros([3, 2], tf.float64)))
        saver.restore(sess, path)          # RestoreV2 runs on each ps, reading the one file
        np.testing.assert_array_equal(sess.run(w1), np.full((3, 2), 7.0))
    ops = {op.name: op for op in tf.get_default_graph().get_operations()}
    restores = [op for op in ops.values() if op.type == "RestoreV2"]
    assert sorted(op.device for op in restores) == ["/job:ps/task:0", "/job:ps/task:1"]


def test_damaged_shard_in_cluster_names_the_file(cluster, tmp_path):
    w0, w1, step = _ps_model()
    saver = Saver(sharded=True)
    with tf.Session(cluster.target("worker", 0), config=CONFIG) as sess:
        sess.run(tf.global_variables_initializer())
        good = saver.save(sess, str(tmp_path / "m"), global_step=1)
        bad = saver.save(sess, str(tmp_path / "m"), global_step=2)
        _damage(pathlib.Path(bad + ".data-00001-of-00002"), "flip")
        with pytest.raises(tf.errors.DataLossError,
                           match=r"m-2\.data-00001-of-00002 is corrupted: tensor 'w1'"):
            saver.restore(sess, bad)
        saver.restore(sess, good)
        np.testing.assert_array_equal(sess.run(w1), np.full((3, 2), 7.0))


def test_ps_restarted_empty_gets_its_values_back_from_the_checkpoint(cluster, tmp_path):
    """(Runs last: it restarts a ps of the module's cluster.)"""
    w0, w1, step = _ps_model()
    saver = Saver(sharded=True)
    with tf.Session(cluster.target("worker", 0), config=CONFIG) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step.assign(42))
        saver.save(sess, str(tmp_path / "model.ckpt"), global_step=step)
    cluster.restart("ps", 1)          # the machine reboots: its variables are gone
    with tf.Session(cluster.target("worker", 0), config=CONFIG) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="w1"):
            sess.run(w1)
        saver.restore(sess, cm.latest_checkpoint(str(tmp_path)))
        np.testing.assert_array_equal(sess.run(w0), np.arange(4))
        np.testing.assert_array_equal(sess.run(w1), np.full((3, 2), 7.0))
        assert sess.run(step) == 42
