"""tf.train.warm_start / VocabInfo (and Estimator(warm_start_from=...)), tf.train.ProfilerHook
with client/timeline.py, and tf.io.match_filenames_once (sandbox/train/warm_starting_util.py,
profiler_hook.py, input.py). The expected values, names and messages are TF 2.15.1's
tf.compat.v1."""
import json
import os

import numpy as np
import pytest

import sandbox as tf
from sandbox.client.timeline import Timeline


def _save_old_model(tmp_path):
    """emb [4, 2] = 0..7, out [3, 4] = 0..11, w = [5, 6], loc = [9] (not trainable), and
    the two vocabularies: old a b c d, new c x a d."""
    (tmp_path / "old_vocab").write_text("a\nb\nc\nd\n")
    (tmp_path / "new_vocab").write_text("c\nx\na\nd\n")
    with tf.Graph().as_default():
        tf.get_variable("emb", initializer=np.arange(8.0, dtype=np.float32).reshape(4, 2))
        tf.get_variable("out", initializer=np.arange(12.0, dtype=np.float32).reshape(3, 4))
        tf.get_variable("w", initializer=[5.0, 6.0])
        tf.get_variable("loc", initializer=[9.0], trainable=False)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, str(tmp_path / "model"))


def test_warm_start_remaps_vocabularies_renames_and_skips_non_trainables(tmp_path):
    _save_old_model(tmp_path)
    d = str(tmp_path)
    emb = tf.get_variable("emb", [5, 2], initializer=tf.constant_initializer(7.0),
                          partitioner=tf.fixed_size_partitioner(2))
    out = tf.get_variable("out", [3, 4], initializer=tf.constant_initializer(7.0))
    w2 = tf.get_variable("w2", [2], initializer=tf.ones_initializer())
    loc = tf.get_variable("loc", [1], initializer=tf.ones_initializer(), trainable=False)
    tf.train.warm_start(d, vars_to_warm_start=".*", var_name_to_vocab_info={
        # rows: new words c x a d, from the first 3 old words (a b c), then 1 OOV bucket
        "emb": tf.train.VocabInfo(d + "/new_vocab", 4, 1, d + "/old_vocab", old_vocab_size=3),
        # columns: c x a + 1 OOV bucket; the new ones take the backup initializer
        "out": tf.train.VocabInfo(d + "/new_vocab", 3, 1, d + "/old_vocab",
                                  backup_initializer=tf.ones_initializer(), axis=1)},
        var_name_to_prev_var_name={"w2": "w"})
    assert [v.name for v in emb] == ["emb/part_0:0", "emb/part_1:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got_emb, got_out, got_w2, got_loc = sess.run([tf.concat(list(emb), 0), out, w2, loc])
    # TF 2.15.1's values
    np.testing.assert_array_equal(got_emb, [[4, 5], [0, 0], [0, 1], [0, 0], [0, 0]])
    np.testing.assert_array_equal(got_out, [[2, 1, 0, 1], [6, 1, 4, 1], [10, 1, 8, 1]])
    np.testing.assert_array_equal(got_w2, [5, 6])
    np.testing.assert_array_equal(got_loc, [1])          # only TRAINABLE_VARIABLES by default

    # a list of scopes reaches GLOBAL_VARIABLES too
    tf.train.warm_start(d, vars_to_warm_start=["loc"])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(loc), [9])

    with pytest.raises(ValueError, match="were not used: {'nope'}"):
        tf.train.warm_start(d, vars_to_warm_start=["loc"], var_name_to_prev_var_name={"nope": "w"})
    with pytest.raises(ValueError, match="must be a `list` or `str`"):
        tf.train.warm_start(d, vars_to_warm_start=5)
    with pytest.raises(ValueError, match="Provided axis: 2"):
        tf.train.VocabInfo("a", 1, 0, "b", axis=2)
    assert repr(tf.train.VocabInfo("a", 1, 0, "b")) == (
        "VocabInfo(new_vocab='a', new_vocab_size=1, num_oov_buckets=0, old_vocab='b', "
        "old_vocab_size=-1, backup_initializer=None, axis=0)")


def test_estimator_warm_start_from(tmp_path):
    _save_old_model(tmp_path)
    assert repr(tf.estimator.WarmStartSettings("x")) == (
        "WarmStartSettings(ckpt_to_initialize_from='x', vars_to_warm_start='.*', "
        "var_name_to_vocab_info={}, var_name_to_prev_var_name={})")

    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [2], initializer=tf.zeros_initializer())
        loss = tf.reduce_sum(w * features)
        train_op = tf.train.GradientDescentOptimizer(0.0).minimize(
            loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path / "new"),
                                 warm_start_from=tf.estimator.WarmStartSettings(
                                     str(tmp_path), vars_to_warm_start="w"))
    est.train(lambda: (tf.constant([1.0, 1.0]), None), steps=1)
    np.testing.assert_array_equal(est.get_variable_value("w"), [5, 6])
    with pytest.raises(ValueError, match="must be a string or a WarmStartSettings"):
        tf.estimator.Estimator(model_fn, warm_start_from=3)


def test_profiler_hook_writes_chrome_traces(tmp_path):
    gs = tf.train.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [2], name="x")
    w = tf.Variable([1.0, 2.0], name="w")
    loss = tf.reduce_sum(tf.square(w * x), name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    hook = tf.train.ProfilerHook(save_steps=2, output_dir=str(tmp_path))
    with tf.train.MonitoredSession(hooks=[hook]) as sess:
        for _ in range(5):
            sess.run(train, {x: [1.0, 1.0]})    # the MonitoredSession makes the RunMetadata
    # TF 2.15.1 writes the same two files (the first step only reads the global step)
    assert sorted(os.listdir(tmp_path)) == ["timeline-2.json", "timeline-4.json"]
    trace = json.loads((tmp_path / "timeline-2.json").read_text())
    events = trace["traceEvents"]
    device = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert [e["args"]["name"] for e in events if e["ph"] == "M"] == \
        ["Allocators", device + " Compute", device + " Tensors"]
    ops = {e["args"]["name"]: e for e in events if e["ph"] == "X"}
    assert ops["loss"]["name"] == "Sum" and ops["loss"]["cat"] == "Op"
    assert ops["loss"]["pid"] == 1 and ops["loss"]["args"]["input0"] == "Square"
    assert ops["GradientDescent/update_w/ApplyGradientDescent"]["name"] == "ApplyGradientDescent"
    assert {"mul", "Square", "gradients/mul_grad/Mul", "global_step/add"} <= set(ops)
    flows = [e for e in events if e["ph"] in ("s", "t")]
    assert all(e["cat"] == "DataFlow" for e in flows)
    # each arrow: a start at the producer and an end at the consumer, sharing an id (arrows
    # join ops on different lanes, which depends on how their times overlap: maybe none)
    assert sorted((e["id"], e["ph"]) for e in flows) == \
        [(i, ph) for i in range(len(flows) // 2) for ph in "st"]
    with pytest.raises(ValueError, match="Either every_secs or every_steps"):
        tf.train.ProfilerHook()


def test_timeline_has_an_event_per_op_run_and_flows_across_devices():
    with tf.device("/cpu:0"):
        a = tf.placeholder(tf.float32, name="a")
        b = tf.multiply(a, 2.0, name="b")
    with tf.device("/cpu:1"):
        c = tf.reduce_sum(b, name="c")
    md = tf.RunMetadata()
    config = tf.ConfigProto(device_count={"CPU": 2})
    with tf.Session(config=config) as sess:
        sess.run(c, {a: [1.0, 2.0]}, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                 run_metadata=md)
    runs = [(d.device, n.node_name) for d in md.step_stats.dev_stats for n in d.node_stats]
    timeline = Timeline(md.step_stats, graph=tf.get_default_graph())
    events = json.loads(timeline.generate_chrome_trace_format())["traceEvents"]
    ops = [e for e in events if e["ph"] == "X"]
    assert len(ops) == len(runs)
    pids = {e["args"]["name"].rsplit(" ", 1)[0]: e["pid"] for e in events
            if e["ph"] == "M" and e["args"]["name"].endswith(" Compute")}
    assert sorted((next(d for d, p in pids.items() if p == e["pid"]), e["args"]["name"])
                  for e in ops) == sorted(runs)
    by_name = {e["args"]["name"]: e for e in ops}
    assert by_name["b"]["name"] == "Mul" and by_name["b"]["args"]["input0"] == "a"
    assert by_name["c"]["pid"] != by_name["b"]["pid"]
    starts = [e for e in events if e["ph"] == "s"]
    assert any(e["name"] == "b" and e["pid"] == by_name["b"]["pid"] for e in starts)
    no_flows = json.loads(timeline.generate_chrome_trace_format(show_dataflow=False))
    assert not [e for e in no_flows["traceEvents"] if e["ph"] in ("s", "t")]


def test_match_filenames_once(tmp_path):
    for name in ("b.txt", "a.txt", "c.csv"):
        (tmp_path / name).write_text("x")
    m = tf.io.match_filenames_once(str(tmp_path / "*.txt"))
    m2 = tf.train.match_filenames_once(str(tmp_path / "*.csv"), name="csvs")
    # TF 2.15.1: names, a local (not global) variable, initialized by MatchingFiles
    assert (m.name, m2.name) == ("matching_filenames:0", "csvs:0")
    assert [v.name for v in tf.local_variables()] == ["matching_filenames:0", "csvs:0"]
    assert tf.global_variables() == []
    assert m.initial_value.op.type == "MatchingFiles"
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        got, got2 = sess.run([m, m2])
    assert list(got) == [str(tmp_path / "a.txt").encode(), str(tmp_path / "b.txt").encode()]
    assert list(got2) == [str(tmp_path / "c.csv").encode()]
