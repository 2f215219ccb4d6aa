"""The views' models (sandbox/widgets/*_model.py) hold the right state for a known cluster and
run: real processes and sockets where the state comes from a cluster, exact figures where the
run is known (a 10x10 float32 variable is 400 bytes, five steps are five pulls)."""
import collections
import gzip
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.runtime.task_server import TraceRecord
from sandbox.widgets.cluster_watch import ClusterWatch, Observation, attach, short_name
from sandbox.widgets.curves_model import CurvesModel, SEED_TABLE, run_label
from sandbox.widgets.feed import LiveFeed
from sandbox.widgets.placement_model import PlacementModel, SENDRECV_GROUP, TOP_GROUP
from sandbox.widgets.recording import Recording
from sandbox.widgets.traffic_kinds import kind_of
from sandbox.widgets.traffic_model import TrafficModel
from conftest import REPO

PS, W0, W1 = "/job:ps/replica:0/task:0", "/job:worker/replica:0/task:0", \
    "/job:worker/replica:0/task:1"


# -- what kind of traffic a tensor is -----------------------------------------------------------
@pytest.mark.parametrize("record, expected", [
    (("send", PS, W0, "w1/read:0"), "pull"),
    (("send", PS, W0, "global_step/read:0"), "pull"),
    (("send", W0, PS, "gradients/MatMul_grad/MatMul_1:0"), "push"),
    (("send", W0, PS, "gradients_1/Add_grad/SumToShape:0"), "push"),
    (("send", PS, W0, "QueueDequeueV2:0"), "sync"),          # the sync token
    (("send", W0, PS, "sync_rep_local_step/read:0"), "sync"),
    (("send", PS, W0, "^w1/Assign"), "control"),
    (("RunGraph", W0, PS, ""), "control"),
    (("send", W0, PS, "random_normal:0"), "other"),           # an initial value
    (("send", W0, W1, "hidden/Sigmoid:0"), "other"),          # activations between workers
    (("straggle", W0, W0, "x3"), None),
    (("link_delay", W0, PS, "Tensors"), None),
])
def test_kind_of_reads_the_purpose_off_the_route_and_the_name(record, expected):
    assert kind_of(*record) == expected


# -- a known run on a real cluster ----------------------------------------------------------------
def _linear_model(ps_device="/job:ps/task:0", worker_device="/job:worker/task:0"):
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(ps_device):
            w = tf.Variable(tf.zeros([10, 10]), name="w")
        with tf.device(worker_device):
            x = tf.placeholder(tf.float32, [None, 10], name="x")
            with tf.name_scope("model"):
                y = tf.matmul(x, w)
            loss = tf.reduce_sum(y, name="loss")
            train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
            never = tf.reduce_max(w, name="never_run")
        init = tf.global_variables_initializer()
    return graph, x, train, init, never


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster({"ps": 1, "worker": 2}) as c:
        yield c


def test_traffic_model_counts_a_known_run_exactly(cluster):
    graph, x, train, init, _ = _linear_model()
    batch = np.ones((4, 10), np.float32)
    with tf.Session(cluster.target("worker", 0), graph=graph) as sess:
        sess.run(init)
        sess.run(train, {x: batch})                   # plans and registers the step once
        with ClusterWatch(cluster) as watch:
            model = TrafficModel(watch.tasks, window=1000.0)
            model.update(watch.observe())             # the baseline: everything so far
            for _ in range(5):
                sess.run(train, {x: batch})
            time.sleep(0.05)
            model.update(watch.observe())
    arrows = {(a["src"], a["dst"], a["kind"]): a for a in model.arrows()}
    dt = model._sample_times[1] - model._sample_times[0]
    pull = arrows[(PS, W0, "pull")]
    assert round(pull["bytes_per_s"] * dt) == 5 * 400         # w/read:0, 10x10 float32
    assert round(pull["messages_per_s"] * dt) == 5
    assert pull["top"][0][0] == "w/read:0"
    push = arrows[(W0, PS, "push")]
    assert round(push["bytes_per_s"] * dt) == 5 * 400         # its gradient
    assert round(push["messages_per_s"] * dt) == 5
    assert round(arrows[(W0, PS, "control")]["messages_per_s"] * dt) == 5    # RunGraph
    assert (PS, W1, "pull") not in arrows                      # worker 1 did nothing
    # the swim lanes: every pull of the five steps paired with its receipt, in order
    pulls = [m for m in model.messages if m.kind == "pull"]
    assert len(pulls) >= 5
    assert all(m.t_recv is not None and m.t_recv >= m.t_send for m in pulls)
    assert len({m.step for m in pulls[-5:]}) == 5
    lanes = model.lanes(end=model.end, length=model.end - model.start + 1)
    assert {m["dst"] for m in lanes["messages"] if m["kind"] == "pull"} == {"worker:0"}
    assert any(s["kind"] == "RunGraph" and s["task"] == "ps:0" for s in lanes["spans"])
    state = model.to_dict()
    assert [t["short"] for t in state["tasks"]] == ["ps:0", "worker:0", "worker:1"]
    assert state["totals"]["pull"] >= 5 * 400
    json.dumps(state)                                         # the front end gets JSON


def test_placement_from_a_session_and_from_the_cluster(cluster):
    graph, x, train, init, never = _linear_model()
    with tf.Session(cluster.target("worker", 0), graph=graph) as sess:
        sess.run(init)
        sess.run(train, {x: np.ones((2, 10), np.float32)})
        model = PlacementModel.from_session(graph, sess)
        with ClusterWatch(cluster) as watch:
            watch.observe()
            from_cluster = PlacementModel.from_cluster(
                [t.name for t in watch.tasks], watch.placement(), watch.resources(),
                watch.states())
    ops = {name: e for (task, name), e in model.ops.items()}
    assert ops["w"].device == f"{PS}/device:CPU:0" and ops["w"].kind == "variable"
    assert ops["w"].nbytes == 400 and ops["w"].shape == [10, 10]
    assert ops["model/MatMul"].device == f"{W0}/device:CPU:0"
    assert "never_run" in [n for n, _, _ in model.unplaced]   # no step has needed it yet
    state = model.to_dict()
    ps_box = state["tasks"][0]
    assert ps_box["short"] == "ps:0" and ps_box["variables"] == 1 and ps_box["bytes"] == 400
    worker_groups = {g["scope"] for g in state["tasks"][1]["devices"][0]["groups"]}
    assert {"model", "gradients"} <= worker_groups
    # read from the tasks: the pieces they were given, _Send/_Recv included, and the
    # variable's real array in the ps's resource manager
    cluster_ops = {(short_name(t), name): e for (t, name), e in from_cluster.ops.items()}
    assert cluster_ops[("ps:0", "w")].nbytes == 400
    assert cluster_ops[("ps:0", "w")].state == "initialized"
    assert ("worker:0", "model/MatMul") in cluster_ops
    assert any(e.kind == "send" for (t, _), e in cluster_ops.items() if t == "ps:0")
    groups = from_cluster.groups(PS, f"{PS}/device:CPU:0")
    assert groups[-1][0] == SENDRECV_GROUP


def test_a_killed_task_is_dead_in_every_model_and_a_restart_starts_its_counts_afresh():
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        graph, x, train, init, _ = _linear_model()
        feed = LiveFeed(c, interval=0.05)
        with tf.Session(c.target("worker", 0), graph=graph) as sess:
            sess.run(init)
            for _ in range(3):
                sess.run(train, {x: np.ones((1, 10), np.float32)})
        feed.poll()
        before = feed.traffic.totals_by_kind()["pull"]
        c.kill("ps", 0)
        feed.poll()
        assert feed.traffic.states[PS] == "dead"
        assert feed.placement.to_dict()["tasks"][0]["state"] == "dead"
        assert feed.traffic.to_dict()["tasks"][0]["color"] != feed.traffic.to_dict()[
            "tasks"][1]["color"]
        c.restart("ps", 0)
        with tf.Session(c.target("worker", 0), graph=graph) as sess:
            sess.run(init)
            sess.run(train, {x: np.ones((1, 10), np.float32)})
        feed.poll()
        feed.close()
    assert feed.traffic.states[PS] == "alive"
    after = feed.traffic.totals_by_kind()["pull"]
    assert after - before == 400          # the new process counts from zero: one more pull
    assert all(a["bytes_per_s"] >= 0 for a in feed.traffic.arrows())


def test_attach_to_tasks_started_from_terminals(tmp_path):
    """`python -m sandbox task` processes (as students start them), watched by a program
    that only knows their ClusterSpec and secret."""
    import socket
    ports = []
    for _ in range(2):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            ports.append(s.getsockname()[1])
    spec = {"ps": [f"localhost:{ports[0]}"], "worker": [f"localhost:{ports[1]}"]}
    secret_file = tmp_path / "secret"
    secret_file.write_text(os.urandom(16).hex())
    procs = [subprocess.Popen([sys.executable, "-m", "sandbox", "task", "--cluster",
                               json.dumps(spec), "--job_name", job, "--task_index", "0",
                               "--secret-file", str(secret_file)], cwd=str(REPO),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for job in ("ps", "worker")]
    try:
        for p in procs:
            assert "Started" in p.stdout.readline()
        cluster = attach(json.dumps(spec), secret=secret_file.read_text())
        with ClusterWatch(cluster) as watch:
            assert [o.state for o in watch.observe()] == ["alive", "alive"]
            # a student's program runs a step on that cluster
            from sandbox.runtime import cluster_secret
            for port in ports:
                cluster_secret.register(("127.0.0.1", port), cluster.secret)
            try:
                graph, x, train, init, _ = _linear_model()
                with tf.Session(f"grpc://localhost:{ports[1]}", graph=graph) as sess:
                    sess.run(init)
                    sess.run(train, {x: np.ones((1, 10), np.float32)})
                    placement = watch.placement()
            finally:
                for port in ports:
                    cluster_secret.unregister(("127.0.0.1", port))
            model = TrafficModel(watch.tasks)
            model.update(watch.observe())
            assert model.totals_by_kind()["pull"] >= 400
            assert any(row[0] == "model/MatMul" for row in placement[W0])
            procs[0].terminate()
            procs[0].wait(10)
            states = [o.state for o in watch.observe()]
            assert states == ["dead", "alive"]
    finally:
        for p in procs:
            p.terminate()
            p.wait(10)
            p.stdout.close()


def test_a_wrong_secret_or_cluster_text_is_explained():
    with pytest.raises(ValueError, match="JSON"):
        attach("{not json")


# -- synthetic feeds: bounds, pairing, history ----------------------------------------------------
def _obs(t, task, records=(), totals=None, restarted=False, gap=False, state="alive"):
    return Observation(t, task, state, list(records), totals, restarted, gap, None)


def _rec(seq, kind, src, dst, tensor, nbytes, step, start, end=None):
    return TraceRecord(seq, kind, src, dst, tensor, nbytes, step, start, start if end is None
                       else end)


def test_sends_and_receives_pair_across_observations_and_unpaired_sends_expire():
    model = TrafficModel([PS, W0], match_timeout=1.0)
    model.update([_obs(100.0, W0, [_rec(1, "recv", PS, W0, "w/read:0", 400, 7, 100.0002)])])
    model.update([_obs(100.1, PS, [_rec(1, "send", PS, W0, "w/read:0", 400, 7, 100.0,
                                        100.0001),
                                   _rec(2, "send", PS, W0, "b/read:0", 40, 8, 100.05)])])
    assert [(m.tensor, round(1e6 * (m.t_recv - m.t_send))) for m in model.messages] == \
        [("w/read:0", 200)]
    model.update([_obs(102.0, PS)])                # b/read's receipt never came
    late = model.messages[-1]
    assert late.tensor == "b/read:0" and late.t_recv is None
    assert model.lanes(end=2.0, length=2.1)["messages"][-1]["latency_ms"] is None


def test_traffic_history_stays_bounded_and_round_trips_through_a_recording(tmp_path):
    model = TrafficModel([PS, W0], max_messages=50, max_samples=40)
    sent = 0
    for i in range(500):
        t = 1000.0 + i * 0.2
        sent += 400
        totals = [["send", PS, W0, "w/read:0", sent, i + 1, i + 1]]
        records = [_rec(2 * i + 1, "send", PS, W0, "w/read:0", 400, i + 1, t - 0.01)]
        model.update([_obs(t, PS, records, totals),
                      _obs(t, W0, [_rec(i + 1, "recv", PS, W0, "w/read:0", 400, i + 1,
                                        t - 0.009)])])
    assert len(model._samples) <= 40 and len(model.messages) == 50
    assert model._sample_times[0] == 0.0               # the oldest is kept: the whole run
    (arrow,) = model.arrows()
    assert arrow["bytes_per_s"] == pytest.approx(2000.0)      # 400 bytes every 0.2 s
    assert arrow["bytes"] == 500 * 400
    rec = Recording()
    rec.curves.add_run("r", {"mode": "async", "workers": 1})
    rec.add_cluster("r", traffic=model)
    path = rec.save(tmp_path / "run.sandbox.json.gz")
    again = Recording.load(path).traffic["r"]
    assert again.to_dict(end=50.0, length=5.0) == model.to_dict(end=50.0, length=5.0)


def test_coverage_marks_what_the_watcher_could_not_read():
    model = TrafficModel([PS])
    model.update([_obs(10.0, PS, [_rec(1, "RunGraph", W0, PS, "", 10, 1, 9.9, 9.95)])])
    model.update([_obs(10.2, PS)])                                 # idle: still covered
    model.update([_obs(10.4, PS, [_rec(900, "RunGraph", W0, PS, "", 10, 2, 10.35, 10.39)],
                       gap=True)])                                 # 898 records skipped
    assert [[round(a, 2), round(b, 2)] for a, b in model.coverage[PS]] == \
        [[-0.1, 0.2], [0.35, 0.39]]


# -- curves --------------------------------------------------------------------------------------
def _records(n, worker=0, start_step=0, t0=0.0, dt=0.001, eval_every=100):
    return [{"worker": worker, "global_step": start_step + i + 1, "step": i + 1,
             "time": t0 + i * dt, "loss": 2.0 / (1 + i), "stale_dropped": None,
             "test_accuracy": 0.5 if (i + 1) % eval_every == 0 else None} for i in range(n)]


def test_curves_average_into_a_bounded_number_of_points():
    model = CurvesModel(max_points=100)
    model.add_run(1, {"mode": "async", "workers": 2})
    records = _records(20000, dt=0.001)
    model.add_records(1, records)
    run = model.to_dict()["runs"][0]
    assert 50 < len(run["loss"]) <= 100
    assert 25 < len(run["accuracy"]) <= 50           # 200 evaluations, merged in pairs
    assert run["records"] == 20000 and run["global_step"] == 20000
    # every point is the mean of the records it stands for: their weighted mean is the
    # records' mean loss
    buckets = model.runs[1].loss.buckets.values()
    total = sum(b[2] for b in buckets)
    assert total == pytest.approx(sum(r["loss"] for r in records))
    assert sum(b[3] for b in buckets) == 20000
    steps = [p[0] for p in run["loss"]]
    assert steps == sorted(steps)


def test_a_global_step_that_falls_back_starts_a_new_segment_and_events_are_kept():
    model = CurvesModel()
    model.add_run("a", {"mode": "async", "workers": 3})
    model.add_records("a", _records(500, dt=0.01))
    model.add_event("a", {"time": 5.0, "global_step": 500, "kind": "kill", "task": "ps:0",
                          "text": "ps:0 was killed"})
    model.add_records("a", _records(100, t0=6.0, dt=0.01))    # the ps came back empty
    run = model.to_dict()["runs"][0]
    assert {p[3] for p in run["loss"]} == {0, 1}
    assert run["events"][0]["kind"] == "kill"
    assert model.to_dict()["reference"] == SEED_TABLE


def test_workers_batches_that_interleave_are_not_a_restart():
    """Each worker's records come in order, in batches; a batch of worker 1's early steps may
    arrive after worker 0's later ones. That is not training starting over."""
    model = CurvesModel()
    model.add_run("a", {"mode": "async", "workers": 2})
    w0 = [dict(r, global_step=2 * i + 2) for i, r in enumerate(_records(60, worker=0))]
    w1 = [dict(r, global_step=2 * i + 1) for i, r in enumerate(_records(60, worker=1))]
    for batch in range(3):
        model.add_records("a", w0[20 * batch:20 * batch + 20])
        model.add_records("a", w1[20 * batch:20 * batch + 20])
    run = model.to_dict()["runs"][0]
    assert {p[3] for p in run["loss"]} == {0} and run["global_step"] == 120
    # then the ps restarts: both workers fall back, one after the other -- one new segment
    model.add_records("a", [dict(r, global_step=i + 1, time=10 + r["time"])
                            for i, r in enumerate(_records(10, worker=1))])
    model.add_records("a", [dict(r, global_step=i + 3, time=10.001 + r["time"])
                            for i, r in enumerate(_records(10, worker=0))])
    run = model.to_dict()["runs"][0]
    assert {p[3] for p in run["loss"]} == {0, 1} and run["global_step"] == 12


def test_runs_keep_their_colours_and_labels_say_their_configuration():
    model = CurvesModel()
    colors = [model.add_run(i, {"mode": "async", "workers": i + 1}).color for i in range(4)]
    assert len(set(colors)) == 4
    assert run_label({"mode": "sync", "workers": 3, "replicas_to_aggregate": 2}) == \
        "sync x3 (2 of 3)"
    assert run_label({"mode": "async", "workers": 2, "straggler_ms": 50,
                      "latency_ms": 5, "bandwidth_mbps": 100}) == \
        "async x2, straggler 50 ms, link 5 ms 100 Mbit/s"


def test_a_recording_round_trips_and_refuses_other_files(tmp_path):
    rec = Recording(title="lesson 7")
    rec.curves.add_run(0, {"mode": "async", "workers": 1})
    rec.curves.add_records(0, _records(300, eval_every=50))
    rec.curves.finish(0, "done", {"test_accuracy": 0.5})
    placement = PlacementModel([PS, W0])
    placement._put("w", "VariableV2", f"{PS}/device:CPU:0", "float32", [10, 10], 400, 1, "")
    rec.add_cluster(0, placement=placement)
    path = rec.save(tmp_path / "r.sandbox.json.gz")
    again = Recording.load(path)
    assert again.curves.to_dict() == rec.curves.to_dict()
    assert again.placement[0].to_dict() == placement.to_dict()
    assert again.find_run("async x1") == 0
    with pytest.raises(ValueError, match="No run 'sync x3'"):
        again.find_run("sync x3")
    (tmp_path / "bad.gz").write_bytes(gzip.compress(b'{"format": "other"}'))
    with pytest.raises(ValueError, match="not a sandbox recording"):
        Recording.load(tmp_path / "bad.gz")
    (tmp_path / "junk").write_text("hello")
    with pytest.raises(ValueError, match="not a sandbox recording"):
        Recording.load(tmp_path / "junk")


def test_placement_groups_by_outermost_scope():
    model = PlacementModel([W0])
    dev = f"{W0}/device:CPU:0"
    for name, op in [("w1", "VariableV2"), ("w1/read", "Identity"), ("Add", "Add"),
                     ("Mul", "Mul"), ("gradients/Add_grad/x", "Identity"),
                     ("w1/read/_send_0", "_Send")]:
        model._put(name, op, dev, None, None, None, 1, "")
    groups = collections.OrderedDict(model.groups(W0, dev))
    assert list(groups) == ["w1", "gradients", TOP_GROUP, SENDRECV_GROUP]
    assert [e.name for e in groups["w1"]] == ["w1", "w1/read"]
    assert [e.name for e in groups[TOP_GROUP]] == ["Add", "Mul"]
