"""The live views and the dashboard, driven from Python as a notebook's kernel drives them (no
browser: tests/widgets/test_dashboard_browser.py is the one in a real browser). Real clusters, real
runs; what the views' states say is checked against what was done to the cluster."""
import time

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.datasets.mnist import DataSet, Datasets
from sandbox.experiments import Experiment
from sandbox.framework import dtypes
from sandbox.widgets import CurvesView, Dashboard, PlacementView, Recording, TrafficView
from conftest import child_processes


def _wait_for(condition, timeout=60, what="the condition"):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


def _synthetic_mnist(examples):
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 10, examples)
    images = (np.eye(10)[labels] @ rng.random((10, 784))).astype(np.float32)
    images += 0.1 * rng.random(images.shape, dtype=np.float32)

    def ds(i, l):
        return DataSet(i, np.eye(10, dtype=np.float32)[l], dtype=dtypes.uint8, reshape=False,
                       seed=0)
    return Datasets(train=ds(images, labels), validation=ds(images[:500], labels[:500]),
                    test=ds(images[:500], labels[:500]))


@pytest.fixture(scope="module")
def small_mnist():
    return _synthetic_mnist(2000)


@pytest.fixture(scope="module")
def long_mnist():
    """Enough steps (200 an epoch) that a run is still training when a test kills a task in
    it, however slow the machine is at that moment: the test stops it itself."""
    return _synthetic_mnist(20000)


def _task(state, short):
    return next(t for t in state["tasks"] if t["short"] == short)


def test_traffic_view_follows_a_cluster_and_pauses_and_scrubs():
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        with tf.device("/job:ps/task:0"):
            w = tf.Variable(tf.zeros([100, 100]), name="w")
        with tf.device("/job:worker/task:0"):
            y = tf.reduce_sum(w * 2.0)
        view = TrafficView(c, interval=0.05)
        try:
            with tf.Session(c.target("worker", 0)) as sess:
                sess.run(w.initializer)
                for _ in range(20):
                    sess.run(y)
                _wait_for(lambda: view.state["totals"]["pull"] >= 20 * 40000,
                          what="the 20 pulls of w (40,000 bytes each) to show")
            assert any(a["kind"] == "pull" for a in view.state["arrows"])
            assert [t["short"] for t in view.state["tasks"]] == ["ps:0", "worker:0"]
            assert view.state["live"] is True
            view.paused = True
            frozen = view.view_end
            assert frozen is not None and view.state["live"] is False
            time.sleep(0.2)
            assert view.state["lanes"]["end"] == pytest.approx(frozen)     # it stays put
            view.view_end = frozen - 0.05                                  # scrub back
            assert view.state["lanes"]["end"] == pytest.approx(frozen - 0.05)
            view.paused = False
            assert view.view_end is None and view.state["live"] is True
        finally:
            view.close()
        assert view._feed is None


def test_placement_view_of_a_session_redraws_when_new_ops_are_placed():
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        graph = tf.Graph()
        with graph.as_default():
            with tf.device("/job:ps/task:0"):
                w = tf.Variable(tf.ones([3]), name="w")
            with tf.device("/job:worker/task:0"):
                doubled = tf.multiply(w, 2.0, name="doubled")
                tripled = tf.multiply(w, 3.0, name="tripled")
        with tf.Session(c.target("worker", 0), graph=graph) as sess:
            sess.run(w.initializer)
            sess.run(doubled)
            view = PlacementView(graph, sess, interval=0.05)
            try:
                names = lambda: {op["name"] for t in view.state["tasks"]           # noqa
                                 for d in t["devices"] for g in d["groups"] for op in g["ops"]}
                assert "doubled" in names() and "tripled" not in names()
                assert "tripled" in {u["name"] for u in view.state["unplaced"]}
                sess.run(tripled)
                _wait_for(lambda: "tripled" in names(), what="the new op to be drawn")
                ps = _task(view.state, "ps:0")
                assert ps["variables"] == 1 and ps["bytes"] == 12
            finally:
                view.close()


def test_curves_view_overlays_runs_live_and_labels_them(small_mnist):
    exps = [Experiment(mode=mode, workers=2, mnist=small_mnist, epochs=1, learning_rate=0.1,
                       steps_per_epoch=40, eval_every=10) for mode in ("async", "sync")]
    view = CurvesView(exps[0], interval=0.05)
    try:
        view.add(exps[1])
        for exp in exps:
            exp.wait(120)
        _wait_for(lambda: all(r["state"] == "done" for r in view.state["runs"]),
                  what="both runs to be marked done")
        runs = view.state["runs"]
        assert [r["label"] for r in runs] == ["async x2", "sync x2"]
        assert runs[0]["color"] != runs[1]["color"]
        assert all(len(r["loss"]) > 0 and len(r["accuracy"]) > 0 for r in runs)
        assert runs[0]["summary"]["global_step"] == 80 and runs[1]["global_step"] == 40
        assert view.state["reference"]["rows"][2]["accuracy"] == 0.65
    finally:
        view.close()


def test_dashboard_runs_kills_restarts_saves_and_replays(long_mnist, tmp_path):
    dash = Dashboard(mnist=long_mnist, interval=0.1)
    try:
        dash.controls["epochs"].value = 20
        dash.run(workers=2, mode="async")
        _wait_for(lambda: dash.feed is not None and dash.curves.state["runs"] and
                  dash.curves.state["runs"][0]["records"] > 50, what="the run to train")
        assert [t["short"] for t in dash.traffic.state["tasks"]] == ["ps:0", "worker:0",
                                                                   "worker:1"]
        dash.task_picker.value = "worker:1"
        dash.kill_button.click()
        _wait_for(lambda: _task(dash.traffic.state, "worker:1")["state"] == "dead" and
                  _task(dash.placement.state, "worker:1")["state"] == "dead",
                  what="worker:1 to show dead in the traffic and placement views")
        _wait_for(lambda: "worker:1 (dead)" in dash.task_picker.options,
                  what="the task picker to say worker:1 is dead")
        _wait_for(lambda: dash.curves.state["runs"][0]["events"], what="the kill event")
        assert dash.curves.state["runs"][0]["events"][0]["kind"] == "kill"
        assert "down: worker:1" in dash.status.value or "killed" in dash.status.value
        dash.task_picker.value = "worker:1 (dead)"
        dash.restart_button.click()
        _wait_for(lambda: _task(dash.traffic.state, "worker:1")["state"] == "alive",
                  what="worker:1 to come back")
        dash.stop_button.click()
        _wait_for(lambda: dash.experiment.finished, what="the run to stop")
        _wait_for(lambda: dash.curves.state["runs"][0]["state"] == "stopped",
                  what="the run to be marked stopped")
        path = dash.save(str(tmp_path / "session.sandbox.json.gz"))
    finally:
        dash.stop()              # a notebook's last cell: the page keeps what it showed
    assert dash.comm is not None and "Stopped" in dash.status.value
    assert dash.curves.state["runs"][0]["state"] == "stopped" and dash.curves.comm is not None
    dash.close()
    assert dash.comm is None and dash.curves.comm is None
    replay = Dashboard.replay(path)
    try:
        assert replay.curves.state["runs"][0]["label"] == "async x2"
        assert [e["kind"] for e in replay.curves.state["runs"][0]["events"]][:2] == \
            ["kill", "restart"]
        assert replay.traffic.paused and replay.traffic.state["arrows"]
        assert replay.traffic.state["lanes"]["messages"]        # it opens mid-run, busy
        assert replay.placement.state["counts"]["variables"] >= 5
    finally:
        replay.close()
    assert isinstance(Recording.load(path), Recording)


def test_dashboard_refuses_a_setting_it_does_not_have(small_mnist):
    dash = Dashboard(mnist=small_mnist)
    try:
        with pytest.raises(ValueError, match="no setting 'gpus'"):
            dash.run(gpus=2)
    finally:
        dash.close()


def test_dashboard_attached_to_a_cluster_it_did_not_start():
    with LocalCluster({"ps": 1, "worker": 2}) as c:
        dash = Dashboard.attach(c.cluster_spec, c.secret)
        try:
            _wait_for(lambda: len(dash.traffic.state.get("tasks", [])) == 3,
                      what="the three tasks")
            c.kill("worker", 1)
            _wait_for(lambda: _task(dash.traffic.state, "worker:1")["state"] == "dead",
                      what="the killed task to show dead")
            assert "did not start" in dash.status.value
        finally:
            dash.close()


def test_placement_view_of_a_cluster_follows_a_new_graph_over_more_ps_tasks():
    """First every variable on ps:0 (tf.device); then a new graph whose
    replica_device_setter spreads them round-robin over both ps tasks: the view follows."""
    def names_on(state, short):
        return {op["name"] for d in _task(state, short)["devices"] for g in d["groups"]
                for op in g["ops"] if op["kind"] == "variable"}

    with LocalCluster({"ps": 2, "worker": 1}) as c:
        view = PlacementView(c, interval=0.05)
        try:
            first = tf.Graph()
            with first.as_default(), tf.device("/job:ps/task:0"):
                a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
                with tf.device("/job:worker/task:0"):
                    total = a + b
            with tf.Session(c.target("worker", 0), graph=first) as sess:
                sess.run([a.initializer, b.initializer])
                sess.run(total)
                _wait_for(lambda: names_on(view.state, "ps:0") >= {"a", "b"},
                          what="a and b on ps:0")
                assert not names_on(view.state, "ps:1")
            second = tf.Graph()
            with second.as_default(), tf.device(tf.train.replica_device_setter(
                    ps_tasks=2, worker_device="/job:worker/task:0")):
                c1, c2 = tf.Variable(1.0, name="c1"), tf.Variable(2.0, name="c2")
                total = c1 + c2
            with tf.Session(c.target("worker", 0), graph=second) as sess:
                sess.run([c1.initializer, c2.initializer])
                sess.run(total)
                _wait_for(lambda: "c2" in names_on(view.state, "ps:1"),
                          what="c2 on ps:1 (round-robin)")
            assert "c1" in names_on(view.state, "ps:0")
        finally:
            view.close()


def test_dashboard_settings_reach_the_cluster_and_label_the_run(small_mnist):
    """A sync run with a backup worker, a straggler and a slow network: the label says so,
    the tasks' knobs are set, and the traffic view shows the delays the sandbox added."""
    dash = Dashboard(mnist=small_mnist, interval=0.1)
    try:
        dash.run(mode="sync", workers=3, replicas_to_aggregate=2, straggler_ms=20,
                 latency_ms=1.0, bandwidth=100, epochs=5)
        _wait_for(lambda: dash.feed is not None and dash.curves.state["runs"] and
                  dash.curves.state["runs"][0]["records"] > 20, what="the run to train")
        assert dash.curves.state["runs"][0]["label"] == \
            "sync x3 (2 of 3), straggler 20 ms, link 1 ms 100 Mbit/s"
        cluster = dash.experiment.cluster
        assert cluster.knobs("worker", 2)["step_delay"] == pytest.approx(0.02)
        assert cluster.knobs("ps", 0)["links"]["*"] == pytest.approx([0.001, 100e6 / 8])
        kinds = lambda: {s.kind for s in dash.feed.traffic.spans}           # noqa: E731
        _wait_for(lambda: {"straggle", "link_delay"} <= kinds(),
                  what="straggler and slow-link spans in the traffic")
        assert dash.experiment.replicas_to_aggregate == 2
    finally:
        dash.close()


def test_views_say_what_they_show_when_given_something_else():
    with pytest.raises(TypeError, match="TrafficView shows a cluster.*got int 42"):
        TrafficView(42)
    with pytest.raises(TypeError, match=r"PlacementView shows \(graph, session\).*got str"):
        PlacementView("nonsense")
    with pytest.raises(TypeError, match="CurvesView draws the runs of .*Experiment.*got int"):
        CurvesView(3)


def test_a_paused_traffic_view_shown_a_new_cluster_follows_it_live():
    with LocalCluster({"worker": 1}) as first, LocalCluster({"ps": 1, "worker": 1}) as second:
        view = TrafficView(first, interval=0.05)
        try:
            view.paused = True
            assert view.view_end is not None
            view.show(second, interval=0.05)
            assert view.paused is False and view.view_end is None
            _wait_for(lambda: [t["short"] for t in view.state["tasks"]] == ["ps:0", "worker:0"]
                      and view.state["live"], what="the new cluster, live")
        finally:
            view.close()


def test_stopped_views_stay_on_the_page_as_they_last_were(small_mnist):
    """A notebook's last cell stops its views, then its cluster: after a Run All the views must
    still show what they read (stop), where close() takes them off the page."""
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        graph = tf.Graph()
        with graph.as_default():
            with tf.device("/job:ps/task:0"):
                w = tf.Variable(tf.zeros([100, 100]), name="w")
            with tf.device("/job:worker/task:0"):
                y = tf.reduce_sum(w * 2.0)
        traffic = TrafficView(c, interval=0.05)
        with tf.Session(c.target("worker", 0), graph=graph) as sess:
            sess.run(w.initializer)
            placement = PlacementView(graph, sess, interval=0.05)
            for _ in range(5):
                sess.run(y)
            _wait_for(lambda: traffic.state["totals"]["pull"] >= 5 * 40000,
                      what="the 5 pulls of w to show")
            traffic.stop()
            placement.stop()
            shown = traffic.state["totals"]["pull"]
            for _ in range(5):
                sess.run(y)
            time.sleep(0.3)                              # six of its intervals
            assert traffic.state["totals"]["pull"] == shown          # no longer reading
            assert traffic._feed is None and placement._ticker is None
            assert traffic.state["stopped"] is True           # it says so on the page
    assert traffic.comm is not None and placement.comm is not None   # still on the page
    assert {t["short"] for t in placement.state["tasks"]} == {"ps:0", "worker:0"}
    exp = Experiment(mode="async", workers=1, mnist=small_mnist, epochs=1, learning_rate=0.1,
                     steps_per_epoch=20, eval_every=10)
    curves = CurvesView(exp, interval=10)               # it would not look again for 10 s
    exp.wait(120)
    curves.stop()                                       # ...but stop() draws the end first
    assert curves.state["runs"][0]["state"] == "done" and curves.comm is not None
    for view in (traffic, placement, curves):
        view.close()
        assert view.comm is None
    exp.close()
