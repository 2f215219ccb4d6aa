"""import_meta_graph (train/meta_graph.py): a graph saved as data comes back as ops, variables,
collections and a working Saver, without the Python program that built it."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.train.saver import export_meta_graph, import_meta_graph

X = np.arange(6.0, dtype=np.float32).reshape(2, 3)


def _build_and_train(tmp_path, device="/cpu:0"):
    """A small model trained three steps with Adam and saved; returns (checkpoint prefix, its
    logits on X, the weights after one more step)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    with tf.device(device):
        w = tf.get_variable("w", [3, 2], initializer=tf.random_normal_initializer(seed=1))
    b = tf.Variable(tf.zeros([2]), name="b")
    logits = tf.add(tf.matmul(x, w), b, name="logits")
    loss = tf.reduce_mean(tf.square(logits - 1.0), name="loss")
    gs = tf.train.get_or_create_global_step()
    train = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=gs)
    tf.add_to_collection("my_logits", logits)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train, {x: np.ones((4, 3))})
        path = saver.save(sess, str(tmp_path / "model"), global_step=gs)
        ref_logits = sess.run(logits, {x: X})
        sess.run(train, {x: np.ones((4, 3))})
        ref_w = sess.run(w)
    return path, ref_logits, ref_w


def test_saved_model_restores_through_the_imported_graph(tmp_path):
    path, ref_logits, ref_w = _build_and_train(tmp_path)
    n_ops = len(tf.get_default_graph().get_operations())
    with tf.Graph().as_default() as g:
        saver = import_meta_graph(path + ".meta")
        assert isinstance(saver, tf.train.Saver)
        assert len(g.get_operations()) == n_ops
        assert [v.name for v in tf.trainable_variables()] == ["w:0", "b:0"]
        assert "w/Adam:0" in [v.name for v in tf.global_variables()]
        assert all(isinstance(v, tf.Variable) for v in tf.global_variables())
        assert tf.get_collection("my_logits") == [g.get_tensor_by_name("logits:0")]
        assert g.get_tensor_by_name("logits:0").get_shape().as_list() == [None, 2]
        assert tf.train.get_global_step().name == "global_step:0"
        train = tf.get_collection(tf.GraphKeys.TRAIN_OP)[0]
        with tf.Session() as sess:
            saver.restore(sess, path)
            np.testing.assert_array_equal(sess.run("logits:0", {"x:0": X}), ref_logits)
            assert sess.run(tf.train.get_global_step()) == 3
            sess.run(train, {"x:0": np.ones((4, 3))})       # training goes on as it would have
            np.testing.assert_array_equal(sess.run("w:0"), ref_w)
            assert sess.run(tf.train.get_global_step()) == 4


def test_imported_variables_initialize_and_new_ops_can_be_added(tmp_path):
    path, _, _ = _build_and_train(tmp_path)
    with tf.Graph().as_default():
        import_meta_graph(path + ".meta")
        w = tf.trainable_variables()[0]
        doubled = w * 2.0                                   # a new op on an imported Variable
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(tf.report_uninitialized_variables()).size == 0
            np.testing.assert_allclose(sess.run(doubled), 2.0 * sess.run(w))


def test_clear_devices_and_import_scope(tmp_path):
    path, ref_logits, _ = _build_and_train(tmp_path)
    with tf.Graph().as_default() as g:
        import_meta_graph(path + ".meta")
        assert g.get_operation_by_name("w").device == "/device:CPU:0"
    with tf.Graph().as_default() as g:
        import_meta_graph(path + ".meta", clear_devices=True)
        assert g.get_operation_by_name("w").device == ""
    with tf.Graph().as_default() as g:
        saver = import_meta_graph(path + ".meta", import_scope="imported")
        assert g.get_operation_by_name("imported/w").type == "VariableV2"
        assert g.get_operation_by_name("imported/w/read").colocation_groups() == \
            [b"loc:@imported/w"]
        assert saver.saver_def.restore_op_name == "imported/save/restore_all"
        with tf.Session() as sess:
            saver.restore(sess, path)
            np.testing.assert_array_equal(sess.run("imported/logits:0", {"imported/x:0": X}),
                                          ref_logits)


def test_input_map_puts_a_new_input_in_front_of_a_saved_model(tmp_path):
    path, ref_logits, _ = _build_and_train(tmp_path)
    with tf.Graph().as_default() as g:
        fed = tf.constant(X, name="new_input") * 1.0
        saver = import_meta_graph(path + ".meta", input_map={"x": fed})
        assert g.get_operation_by_name("MatMul").inputs[0] is fed
        with tf.Session() as sess:
            saver.restore(sess, path)
            np.testing.assert_array_equal(sess.run("logits:0"), ref_logits)   # nothing fed
    with pytest.raises(TypeError, match="unexpected arguments \\['max_to_keep'\\]"):
        import_meta_graph(path + ".meta", max_to_keep=3)


def test_clashing_names_missing_files_and_graphs_without_variables(tmp_path):
    path, _, _ = _build_and_train(tmp_path)
    with pytest.raises(ValueError, match="already has an op named 'x'.*import_scope"):
        import_meta_graph(path + ".meta")                   # into the graph that has them
    with pytest.raises(OSError, match="does not exist"):
        import_meta_graph(str(tmp_path / "nothing.meta"))
    with tf.Graph().as_default():
        tf.add(tf.constant(1.0, name="one"), 2.0, name="three")
        meta = export_meta_graph()
    with tf.Graph().as_default() as g:
        assert import_meta_graph(meta) is None              # no saver, no variables
        with tf.Session() as sess:
            assert sess.run("three:0") == 3.0
        assert g.get_operation_by_name("three").control_inputs == []


def test_control_dependencies_come_back():
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        inc = tf.assign_add(v, 1.0, name="inc")
        with tf.control_dependencies([inc]):
            after = tf.identity(v.read_value(), name="after")
        meta = export_meta_graph()
    with tf.Graph().as_default() as g:
        import_meta_graph(meta)
        assert [op.name for op in g.get_operation_by_name("after").control_inputs] == []
        assert [op.name for op in g.get_operation_by_name("read").control_inputs] == ["inc"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(after.name) == 2.0


def test_imported_graph_keeps_its_devices_on_a_cluster(capfd):
    """A graph built for a cluster (variables on the ps) and exported as data runs there once
    imported: the devices of its node_defs are kept."""
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=1)):
            w = tf.Variable([1.0, 2.0], name="w")
            y = tf.multiply(w, 3.0, name="y")
        assert (w.device, y.device) == ("/job:ps/task:0", "/job:worker")
        meta = export_meta_graph()
    with LocalCluster({"ps": 1, "worker": 1}) as cluster, tf.Graph().as_default():
        import_meta_graph(meta)
        config = tf.ConfigProto(log_device_placement=True)
        with tf.Session(cluster.target("worker", 0), config=config) as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run("y:0").tolist() == [3.0, 6.0]
    err = capfd.readouterr().err
    assert "w: (VariableV2): /job:ps/replica:0/task:0/device:CPU:0" in err
    assert "y: (Mul): /job:worker/replica:0/task:0/device:CPU:0" in err
