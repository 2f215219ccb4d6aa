"""tf.train.init_from_checkpoint, checkpoints_iterator, write_graph (and tf.io.write_graph) and
basic_train_loop (sandbox/train/checkpoint_utils.py, graph_io.py, basic_loops.py), against
real Saver checkpoints -- in one process, and on a 1 ps + 1 worker cluster of tf.train.Servers.
The expected names, values and messages were compared with TF 2.15's tf.compat.v1."""
import os

import numpy as np
import pytest

import sandbox as tf
from bench.common import free_port

A = np.arange(6, dtype=np.float32).reshape(3, 2)
EMB = np.arange(20, dtype=np.float32).reshape(5, 4)


def save_old_model(tmp_path, step=1):
    """A checkpoint of old/a [3, 2], old/b [], old/emb [5, 4] (one whole tensor) and plain
    (a tf.Variable); returns its prefix. Leaves a fresh default graph."""
    with tf.variable_scope("old"):
        tf.get_variable("a", initializer=A)
        tf.get_variable("b", initializer=np.float32(7.0))
        tf.get_variable("emb", initializer=EMB)
    tf.Variable(3.0, name="plain")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=step)
    tf.reset_default_graph()
    return path


def initialized(fetches):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches)


# -- init_from_checkpoint: the forms of the assignment map ------------------------------------

def test_scope_to_scope_from_a_directory(tmp_path):
    save_old_model(tmp_path)
    with tf.variable_scope("new"):
        a = tf.get_variable("a", [3, 2], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", [], initializer=tf.zeros_initializer())
        emb = tf.get_variable("emb", [5, 4], initializer=tf.zeros_initializer())
    untouched = tf.get_variable("untouched", [], initializer=tf.ones_initializer())
    tf.train.init_from_checkpoint(str(tmp_path), {"old/": "new/"})
    got_a, got_b, got_emb, got_u = initialized([a, b, emb, untouched])
    np.testing.assert_array_equal(got_a, A)
    assert got_b == 7.0 and got_u == 1.0
    np.testing.assert_array_equal(got_emb, EMB)


def test_the_initializer_is_an_assign_from_a_restore_as_in_tf(tmp_path):
    """TF 2.15 names them checkpoint_initializer (RestoreV2) and Assign, and sets
    _initial_value to the restored tensor; global_variables_initializer picks them up."""
    path = save_old_model(tmp_path)
    a = tf.get_variable("a", [3, 2])
    tf.train.init_from_checkpoint(path, {"old/a": "a"})
    assert a.initializer.type == "Assign" and a.initializer.name == "Assign"
    restore = a.initial_value.op
    assert restore.type == "RestoreV2" and restore.name == "checkpoint_initializer"
    assert a.initial_value.get_shape().as_list() == [3, 2]
    assert a.initializer.inputs[1] is a.initial_value
    np.testing.assert_array_equal(initialized(a), A)
    with tf.Session() as sess:                        # initialized_value() runs it too
        np.testing.assert_array_equal(sess.run(a.initialized_value()), A)


def test_one_variable_by_name_by_object_and_a_list_of_pairs(tmp_path):
    path = save_old_model(tmp_path)
    x = tf.get_variable("x", [3, 2])
    y = tf.get_variable("y", [3, 2])
    plain = tf.Variable(0.0, name="mine")             # a tf.Variable: passed as the object
    tf.train.init_from_checkpoint(path, [("old/a", "x"), ("old/a", y), ("plain", plain)])
    got_x, got_y, got_plain = initialized([x, y, plain])
    np.testing.assert_array_equal(got_x, A)
    np.testing.assert_array_equal(got_y, A)
    assert got_plain == 3.0


def test_the_root_on_either_side(tmp_path):
    path = save_old_model(tmp_path)
    with tf.variable_scope("new"):
        plain = tf.get_variable("plain", [], initializer=tf.zeros_initializer())
    tf.train.init_from_checkpoint(path, {"/": "new/"})        # checkpoint root -> new/
    assert initialized(plain) == 3.0

    tf.reset_default_graph()
    a = tf.get_variable("a", [3, 2])                  # the graph's root <- old/
    tf.train.init_from_checkpoint(path, {"old/": "/"})
    np.testing.assert_array_equal(initialized(a), A)


# -- partitioned variables ------------------------------------------------------------------------

@pytest.mark.parametrize("form", ["name", "scope", "object", "list"])
def test_whole_tensor_into_two_shards(tmp_path, form):
    """old/emb was saved whole; each of the 2 shards of new/emb reads its slice of it."""
    path = save_old_model(tmp_path)
    with tf.variable_scope("new"):
        emb = tf.get_variable("emb", [5, 4], initializer=tf.zeros_initializer(),
                              partitioner=tf.fixed_size_partitioner(2))
    value = {"name": "new/emb", "scope": None, "object": emb, "list": list(emb)}[form]
    assignment_map = {"old/": "new/"} if form == "scope" else {"old/emb": value}
    tf.train.init_from_checkpoint(path, assignment_map)
    restores = [v.initial_value.op for v in emb]
    assert [op.type for op in restores] == ["RestoreV2", "RestoreV2"]
    part_0, part_1 = initialized(list(emb))
    np.testing.assert_array_equal(part_0, EMB[:3])
    np.testing.assert_array_equal(part_1, EMB[3:])


def test_shards_saved_then_read_into_one_whole_variable(tmp_path):
    with tf.variable_scope("old"):
        emb = tf.get_variable("emb", [5, 4], partitioner=tf.fixed_size_partitioner(3))
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(emb.assign(EMB))
        path = saver.save(sess, str(tmp_path / "model.ckpt"))
    tf.reset_default_graph()
    whole = tf.get_variable("whole", [5, 4])
    tf.train.init_from_checkpoint(path, {"old/emb": whole})
    np.testing.assert_array_equal(initialized(whole), EMB)


# -- the errors --------------------------------------------------------------------------------

def test_a_tensor_not_in_the_checkpoint_names_the_variable_and_the_tensors(tmp_path):
    path = save_old_model(tmp_path)
    tf.get_variable("x", [3, 2])
    with pytest.raises(ValueError, match=r"^Tensor old/missing is not found in .* checkpoint "
                                         r"\(wanted for variable x:0\)") as e:
        tf.train.init_from_checkpoint(path, {"old/missing": "x"})
    assert "old/a, old/b, old/emb, plain" in str(e.value)
    assert "tf.train.list_variables" in str(e.value)
    with pytest.raises(ValueError, match=r"^Tensor other/x is not found .* variable x, by "
                                         r"'other/': '/'"):
        tf.train.init_from_checkpoint(path, {"other/": "/"})


def test_a_shape_mismatch_names_both_shapes(tmp_path):
    path = save_old_model(tmp_path)
    y = tf.get_variable("y", [4, 2])
    with pytest.raises(ValueError, match=r"^Shape of variable y:0 \(\(4, 2\)\) doesn't match "
                                         r"with shape of tensor old/a \(\[3, 2\]\) from "
                                         r"checkpoint reader\. Initialize y:0"):
        tf.train.init_from_checkpoint(path, {"old/a": y})
    assert y.initializer.name == "y/Assign"           # nothing was changed


def test_a_partitioned_variable_of_another_full_shape_is_refused_at_once(tmp_path):
    """TF 2.15 accepts it and fails when the initializer runs (InvalidArgumentError from
    RestoreV2); the sandbox says so when the map is given."""
    path = save_old_model(tmp_path)
    emb = tf.get_variable("emb", [6, 4], partitioner=tf.fixed_size_partitioner(2))
    with pytest.raises(ValueError, match=r"^Shape of partitioned variable emb \(\(6, 4\)\) .* "
                                         r"tensor old/emb \(\[5, 4\]\) .* shard emb/part_0:0"):
        tf.train.init_from_checkpoint(path, {"old/emb": emb})


def test_a_name_no_get_variable_made_says_to_pass_the_variable(tmp_path):
    path = save_old_model(tmp_path)
    tf.Variable(0.0, name="plain")
    with pytest.raises(ValueError, match=r"^Assignment map with scope only name .* Should be "
                                         r"'scope/': 'other_scope/'\. \(No variable named "
                                         r"'plain' was made by tf.get_variable"):
        tf.train.init_from_checkpoint(path, {"plain": "plain"})
    with pytest.raises(TypeError, match=r"assignment_map\['plain'\] is 3"):
        tf.train.init_from_checkpoint(path, {"plain": 3})


def test_no_checkpoint(tmp_path):
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file or checkpoints in "
                                         "given directory"):
        tf.train.init_from_checkpoint(str(tmp_path), {"a": "a"})
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
        tf.train.init_from_checkpoint(str(tmp_path / "nope"), {"a": "a"})


def test_a_dtype_mismatch_fails_when_the_initializer_runs_as_in_tf(tmp_path):
    path = save_old_model(tmp_path)
    a = tf.get_variable("a", [3, 2], dtype=tf.float64)
    tf.train.init_from_checkpoint(path, {"old/a": a})
    with pytest.raises(tf.errors.InvalidArgumentError, match="tensor_name = old/a; expected "
                                                             "dtype float64 does not equal "
                                                             "original dtype float32"):
        initialized(a)


# -- on a cluster: each ps reads its own variables -----------------------------------------

def test_on_a_ps_and_a_worker(tmp_path):
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                    "worker": [f"localhost:{free_port()}"]})
    ps = tf.train.Server(cluster, job_name="ps", task_index=0)
    worker = tf.train.Server(cluster, job_name="worker", task_index=0)
    config = tf.ConfigProto(operation_timeout_in_ms=30000)
    try:
        with tf.device("/job:ps/task:0"), tf.variable_scope("old"):
            tf.get_variable("a", initializer=A)
            tf.get_variable("emb", initializer=EMB)
        saver = tf.train.Saver()
        with tf.Session(worker.target, config=config) as sess:
            sess.run(tf.global_variables_initializer())
            path = saver.save(sess, str(tmp_path / "model.ckpt"))
        tf.reset_default_graph()

        with tf.device("/job:ps/task:0"), tf.variable_scope("new"):
            a = tf.get_variable("a", [3, 2], initializer=tf.zeros_initializer())
            emb = tf.get_variable("emb", [5, 4], initializer=tf.zeros_initializer(),
                                  partitioner=tf.fixed_size_partitioner(2))
        tf.train.init_from_checkpoint(path, {"old/": "new/"})
        restores = [op for op in tf.get_default_graph().get_operations()
                    if op.type == "RestoreV2"]
        assert len(restores) == 3
        assert {op.device for op in restores} == {"/job:ps/task:0"}
        with tf.Session(worker.target, config=config) as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(a), A)
            np.testing.assert_array_equal(np.concatenate(sess.run(list(emb))), EMB)
    finally:
        worker.stop()
        ps.stop()


# -- checkpoints_iterator ------------------------------------------------------------------

def test_checkpoints_iterator_yields_each_new_checkpoint_then_times_out(tmp_path):
    first = save_old_model(tmp_path, step=1)
    it = tf.train.checkpoints_iterator(str(tmp_path), timeout=1.5)
    assert next(it) == first
    second = save_old_model(tmp_path, step=2)        # written while the caller works
    assert next(it) == second
    with pytest.raises(StopIteration):                # nothing new for `timeout` seconds
        next(it)


def test_checkpoints_iterator_asks_timeout_fn_whether_to_stop(tmp_path):
    calls = []

    def timeout_fn():
        calls.append(1)
        return len(calls) == 2
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0.5,
                                              timeout_fn=timeout_fn)) == []
    assert len(calls) == 2


# -- write_graph ------------------------------------------------------------------------------

def small_graph():
    a = tf.constant(np.array([[1., 2.], [3., 4.]], np.float32), name="a")
    tf.matmul(a, a, name="c")
    tf.constant(["x", "yz"], name="s")
    return tf.get_default_graph()


def parsed(path, as_text):
    from google.protobuf import text_format
    from tensorboardX.proto import graph_pb2
    graph_def = graph_pb2.GraphDef()
    if as_text:
        text_format.Parse(open(path).read(), graph_def)
    else:
        graph_def.ParseFromString(open(path, "rb").read())
    return graph_def


def test_write_graph_text_and_binary(tmp_path):
    graph = small_graph()
    logdir = tmp_path / "a" / "b"                     # created
    path = tf.train.write_graph(graph, str(logdir), "g.pbtxt")
    assert path == os.path.join(str(logdir), "g.pbtxt")
    assert open(path).read().startswith('node {\n  name: "a"\n  op: "Const"\n')
    binary = tf.io.write_graph(tf.Session().graph_def, logdir, "g.pb", as_text=False)
    for graph_def in (parsed(path, True), parsed(binary, False)):
        nodes = {n.name: n for n in graph_def.node}
        assert [n.name for n in graph_def.node] == ["a", "c", "s"]
        assert list(nodes["c"].input) == ["a", "a"]
        assert "_output_shapes" not in nodes["c"].attr        # as TF's as_graph_def()
        value = nodes["a"].attr["value"].tensor
        np.testing.assert_array_equal(np.frombuffer(value.tensor_content, "<f4"),
                                      [1, 2, 3, 4])
        assert list(nodes["s"].attr["value"].tensor.string_val) == [b"x", b"yz"]
    assert parsed(path, True) == parsed(binary, False)


def test_write_graph_is_one_function_and_refuses_other_objects(tmp_path):
    assert tf.io.write_graph is tf.train.write_graph
    with pytest.raises(TypeError, match="write_graph writes a tf.Graph or a graph_def"):
        tf.train.write_graph([1, 2], str(tmp_path), "g.pbtxt")


# -- basic_train_loop -------------------------------------------------------------------------

def test_basic_train_loop_runs_until_the_supervisor_stops(tmp_path):
    tf.train.get_or_create_global_step()
    sv = tf.train.Supervisor(logdir=None)
    state = {"steps": 0}

    def train_step(sess, state, by=1):
        assert sess.run(tf.train.get_global_step()) == 0
        state["steps"] += by
        if state["steps"] >= 6:
            sv.request_stop()
    tf.train.basic_train_loop(sv, train_step, args=(state,), kwargs={"by": 2})
    assert state["steps"] == 6


def test_basic_train_loop_starts_again_after_an_aborted_error(tmp_path):
    """TF's basic_loops_test.testBasicTrainLoopWithAborted."""
    sv = tf.train.Supervisor(logdir=None)
    state = {"steps": 0, "sessions": set()}

    def train_step(sess):
        state["steps"] += 1
        state["sessions"].add(id(sess))
        if state["steps"] == 2:
            raise tf.errors.AbortedError(None, None, "a ps restarted")
        if state["steps"] == 4:
            sv.request_stop()
    tf.train.basic_train_loop(sv, train_step)
    assert state["steps"] == 4 and len(state["sessions"]) == 2
