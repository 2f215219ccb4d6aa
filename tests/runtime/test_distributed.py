"""The cluster runtime on real processes and real sockets (127.0.0.1): servers, remote
sessions, placement across tasks, shared variables, failures, tracing."""
import json
import threading
import time

import numpy as np
import pytest

import sandbox as tf
from bench.common import free_port
from sandbox.client.timeline import Timeline
from sandbox.cluster import LocalCluster
from sandbox.runtime.remote_session import read_trace


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster({"ps": 1, "worker": 2}, num_gpus=2) as c:
        yield c


# -- one process -----------------------------------------------------------------------

def test_hello_local_server():
    """Seeds 001/003: create_local_server, then a Session on its target."""
    server = tf.train.Server.create_local_server()
    try:
        assert server.target.startswith("grpc://localhost:")
        hello = tf.constant("Hello, distributed TensorFlow!")
        with tf.Session(server.target) as sess:
            assert sess.run(hello) == b"Hello, distributed TensorFlow!"
        plain = server.target[len("grpc://"):]
        with tf.Session(plain) as sess:                  # the plain address works too
            assert sess.run(tf.constant(3) * 2) == 6
    finally:
        server.stop()


def test_three_servers_in_one_process_share_the_ps_variable():
    """Seed 000: ps and two workers in one script; a worker updates a variable on the ps and
    the ps's own session reads the new value."""
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                    "worker": [f"localhost:{free_port()}",
                                               f"localhost:{free_port()}"]})
    ps = tf.train.Server(cluster, job_name="ps", task_index=0)
    w0 = tf.train.Server(cluster, job_name="worker", task_index=0)
    w1 = tf.train.Server(cluster, job_name="worker", task_index=1)
    try:
        with tf.device("/job:ps/task:0"):
            a = tf.Variable(0.0, name="a")
        with tf.device("/job:worker/task:0"):
            inc = a.assign_add(1.0)
        with tf.Session(w0.target) as s0:
            s0.run(a.initializer)
            for _ in range(5):
                s0.run(inc)
        with tf.Session(ps.target) as sp:
            assert sp.run(a) == 5.0
        with tf.Session(w1.target) as s1:
            assert s1.run(a) == 5.0
    finally:
        for s in (ps, w0, w1):
            s.stop()


def test_server_api_like_tf():
    port = free_port()
    spec = tf.train.ClusterSpec({"ps": [f"localhost:{port}"], "worker": ["localhost:1",
                                                                         "localhost:2"]})
    with pytest.raises(ValueError, match="explicit `job_name`"):
        tf.train.Server(spec, start=False)
    with pytest.raises(ValueError, match="explicit `task_index`"):
        tf.train.Server(spec, job_name="worker", start=False)
    with pytest.raises(tf.errors.InternalError, match='Job "chief" was not defined'):
        tf.train.Server(spec, job_name="chief", task_index=0, start=False)     # TF's type
    single = tf.train.Server({"local": [f"localhost:{port}"]}, start=False)
    try:
        assert single.server_def.job_name == "local" and single.server_def.task_index == 0
        assert single.target == f"grpc://localhost:{port}"
        with pytest.raises(tf.errors.UnknownError, match=f"/job:other.*localhost:{port}.*in use"):
            tf.train.Server({"other": [f"localhost:{port}"]})
    finally:
        single.stop()


def test_unreachable_ps_logs_the_waiting_line_then_fails(monkeypatch, capfd):
    """TF's line (master.cc) first, then which tasks have not answered, where, why that may
    be, and the device_filters that would leave them out -- which then work."""
    monkeypatch.setattr(tf.errors, "WAIT_LOG_EVERY", 0.3)
    ps_port = free_port()
    spec = tf.train.ClusterSpec({"ps": [f"localhost:{ps_port}"],
                                 "worker": [f"localhost:{free_port()}"]})
    worker = tf.train.Server(spec, job_name="worker", task_index=0)
    try:
        c = tf.constant(1.0)
        config = tf.ConfigProto(operation_timeout_in_ms=1500)
        with pytest.raises(tf.errors.DeadlineExceededError, match="/job:ps/replica:0/task:0") \
                as e:
            with tf.Session(worker.target, config=config) as sess:
                sess.run(c)
        advice = ("Such a task has not started yet, or it has exited (or its address in the "
                  "ClusterSpec is wrong); a session waits until every task it may use answers. "
                  "Start it -- or, if this session does not need it, limit the session to the "
                  "tasks it uses: tf.ConfigProto(device_filters=['/job:worker/task:0']).")
        assert str(e.value) == (f"CreateSession gave up after 1500 ms waiting for "
                                f"/job:ps/replica:0/task:0: /job:ps/replica:0/task:0 at "
                                f"localhost:{ps_port}. {advice}")
        err = capfd.readouterr().err
        assert ("[/job:worker/replica:0/task:0] CreateSession still waiting for response from "
                "worker: /job:ps/replica:0/task:0\n") in err
        assert (f"  1 of the 2 tasks of this session have not answered: "
                f"/job:ps/replica:0/task:0 at localhost:{ps_port}. {advice}") in err
        # device_filters: a session that only needs this worker does not wait for the ps
        config = tf.ConfigProto(device_filters=["/job:worker/task:0"])
        with tf.Session(worker.target, config=config) as sess:
            assert sess.run(c) == 1.0
    finally:
        worker.stop()


def test_wrong_secret_is_refused_and_server_keeps_serving():
    server = tf.train.Server.create_local_server()
    try:
        from sandbox.runtime.peers import Peers
        from sandbox.runtime.remote_session import parse_target
        intruder = Peers({"master": parse_target(server.target)}, b"not the secret" * 3)
        with pytest.raises(tf.errors.UnauthenticatedError, match="refused"):
            intruder.call("master", "Ping")
        intruder.close()
        with tf.Session(server.target) as sess:
            assert sess.run(tf.constant(7)) == 7
    finally:
        server.stop()


# -- separate processes ----------------------------------------------------------------

def test_local_cluster_processes(cluster):
    spec = cluster.cluster_spec
    assert spec.jobs == ["ps", "worker"] and spec.num_tasks("worker") == 2
    pids = set(cluster.pids.values())
    assert len(pids) == 3 and all(p > 0 for p in pids)
    assert cluster.targets["worker"][1] == cluster.target("worker", 1)


def test_between_graph_replication_shares_one_variable(cluster):
    """Two clients build the same graph; each runs through its own worker process; the
    variable lives once, on the ps process."""
    def build():
        g = tf.Graph()
        with g.as_default():
            with tf.device("/job:ps/task:0"):
                counter = tf.Variable(0.0, name="shared_counter")
            with tf.device("/job:worker/task:0"):
                bump = counter.assign_add(1.0)
        return g, counter, bump

    g0, c0, bump0 = build()
    g1, c1, bump1 = build()
    s0 = tf.Session(cluster.target("worker", 0), graph=g0)
    s1 = tf.Session(cluster.target("worker", 1), graph=g1)
    try:
        s0.run(c0.initializer)
        s0.run(bump0)
        s1.run(bump1)
        s1.run(bump1)
        assert s0.run(c0) == 3.0 and s1.run(c1) == 3.0
        with tf.Session(cluster.target("ps", 0), graph=g0) as sp:
            assert sp.run(c0) == 3.0
    finally:
        s0.close()
        s1.close()


def test_placement_across_tasks_and_tensors_travel_between_them(cluster, capfd):
    with tf.device("/job:ps/task:0"):
        w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="w_travel")
    with tf.device("/job:worker/task:1"):
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        y = tf.matmul(x, w, name="y")
    config = tf.ConfigProto(log_device_placement=True)
    with tf.Session(cluster.target("worker", 0), config=config) as sess:
        sess.run(w.initializer)
        out = sess.run(y, {x: [[1.0, 1.0]]})
    assert out.tolist() == [[3.0, 5.0, 7.0]]
    err = capfd.readouterr().err
    assert "y: (MatMul): /job:worker/replica:0/task:1/device:CPU:0" in err
    assert "w_travel: (VariableV2): /job:ps/replica:0/task:0/device:CPU:0" in err
    records = cluster.trace("worker", 1)
    assert any(r.kind == "recv" and r.tensor == "w_travel/read:0" and
               r.src == "/job:ps/replica:0/task:0" and r.nbytes == 24 for r in records)


def test_uninitialized_variable_names_variable_and_task(cluster):
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="never_initialized")
    with tf.Session(cluster.target("worker", 0)) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError,
                           match="never_initialized on /job:ps/replica:0/task:0"):
            sess.run(v + 1.0)
        report = sess.run(tf.report_uninitialized_variables([v]))
        assert report.tolist() == [b"never_initialized"]
        assert not sess.run(tf.is_variable_initialized(v))


def test_in_graph_replication_over_two_simulated_gpus(cluster, capfd):
    """Seed 004: one client builds a tower per GPU of a worker and averages the results."""
    with tf.device("/job:ps/task:0"):
        w = tf.Variable([[2.0]], name="tower_w")
    towers = []
    for i in range(2):
        with tf.device(f"/job:worker/task:0/gpu:{i}"):
            x = tf.constant([[float(i + 1)]], name=f"x_{i}")
            towers.append(tf.matmul(x, w, name=f"tower_{i}"))
    with tf.device("/job:worker/task:0/cpu:0"):
        mean = tf.add_n(towers) / 2.0
    config = tf.ConfigProto(log_device_placement=True)
    with tf.Session(cluster.target("worker", 0), config=config) as sess:
        sess.run(w.initializer)
        assert sess.run(mean).tolist() == [[3.0]]
    err = capfd.readouterr().err
    assert "tower_0: (MatMul): /job:worker/replica:0/task:0/device:GPU:0" in err
    assert "tower_1: (MatMul): /job:worker/replica:0/task:0/device:GPU:1" in err


def test_missing_device_error_and_soft_placement(cluster):
    with tf.device("/job:worker/task:0/gpu:7"):
        c = tf.constant(1.0, name="on_gpu7")
    with tf.Session(cluster.target("worker", 0)) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="on_gpu7.*available devices"):
            sess.run(c)
    config = tf.ConfigProto(allow_soft_placement=True)
    with tf.Session(cluster.target("worker", 0), config=config) as sess:
        assert sess.run(c) == 1.0


def test_queue_on_the_ps_blocks_on_its_task(cluster):
    with tf.device("/job:ps/task:0"):
        q = tf.FIFOQueue(5, tf.int32, shapes=[[]], shared_name="ps_queue", name="ps_queue")
    with tf.device("/job:worker/task:0"):
        item = q.dequeue()
    with tf.device("/job:worker/task:1"):
        put = q.enqueue(42)
    got = []
    with tf.Session(cluster.target("worker", 0)) as s0, \
            tf.Session(cluster.target("worker", 1)) as s1:
        t = threading.Thread(target=lambda: got.append(s0.run(item)))
        t.start()
        time.sleep(0.5)
        assert not got                          # still waiting on the ps
        s1.run(put)
        t.join(10)
        assert got == [42]
        size = s1.run(q.size())
        assert size == 0


def test_timeout_close_cancels_and_concurrent_sessions(cluster):
    with tf.device("/job:ps/task:0"):
        q = tf.FIFOQueue(1, tf.float32, shapes=[[]], name="never_filled")
    with tf.device("/job:worker/task:0"):
        item = q.dequeue()
    def another_session_works():
        with tf.Session(cluster.target("worker", 0)) as other:
            assert other.run(tf.constant(1.0) + 1.0) == 2.0
    _times_out_then_close_cancels(tf.Session(cluster.target("worker", 0)), item,
                                  meanwhile=another_session_works)


def _times_out_then_close_cancels(sess, blocking_fetch, meanwhile=None):
    """A step blocked on `blocking_fetch` honours RunOptions' timeout; run again in a thread,
    it is cancelled by sess.close() (after `meanwhile()`, if given, ran)."""
    with pytest.raises(tf.errors.DeadlineExceededError):
        sess.run(blocking_fetch, options=tf.RunOptions(timeout_in_ms=300))
    caught = []

    def blocked():
        try:
            sess.run(blocking_fetch)
        except tf.errors.OpError as e:
            caught.append(e)
    t = threading.Thread(target=blocked)
    t.start()
    time.sleep(0.5)
    if meanwhile is not None:
        meanwhile()
    sess.close()
    t.join(10)
    assert not t.is_alive()
    assert caught and isinstance(caught[0], tf.errors.CancelledError)


def test_large_tensors_feed_fetch_and_constant(cluster):
    big = np.ones(50_000_000, dtype=np.float32)            # 200 MB
    big[123] = 7.0
    with tf.device("/job:ps/task:0"):
        p = tf.placeholder(tf.float32, [None], name="big_in")
        total = tf.reduce_sum(p)
    with tf.device("/job:worker/task:1"):
        echoed = tf.identity(p, name="big_out")
    with tf.Session(cluster.target("worker", 0)) as sess:
        s, back = sess.run([total, echoed], {p: big})
    assert s == pytest.approx(50_000_006.0, rel=1e-6)
    assert back.shape == big.shape and back[123] == 7.0
    g = tf.Graph()
    with g.as_default():
        with tf.device("/job:ps/task:0"):
            const = tf.constant(big, name="big_const")
            first = const[123]
        with tf.Session(cluster.target("worker", 0), graph=g) as sess:
            assert sess.run(first) == 7.0


def test_full_trace_timeline_has_sends_and_receives(cluster):
    with tf.device("/job:ps/task:0"):
        a = tf.constant([1.0, 2.0], name="a_trace")
    with tf.device("/job:worker/task:0"):
        b = tf.reduce_sum(a * 2.0, name="b_trace")
    md = tf.RunMetadata()
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(b, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                 run_metadata=md)
    devices = {d.device for d in md.step_stats.dev_stats}
    assert "/job:ps/replica:0/task:0/device:CPU:0" in devices
    trace = json.loads(Timeline(md.step_stats).generate_chrome_trace_format())
    names = {e.get("name") for e in trace["traceEvents"]}
    assert "_Send" in names and "_Recv" in names
    assert any(e["ph"] == "s" for e in trace["traceEvents"])    # a flow arrow between tasks


def test_killed_task_fails_the_step_with_a_named_error():
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        with tf.device("/job:ps/task:0"):
            q = tf.FIFOQueue(1, tf.float32, shapes=[[]], name="q_kill")
        with tf.device("/job:worker/task:0"):
            item = q.dequeue() + 1.0
        sess = tf.Session(c.target("worker", 0))
        caught = []

        def run():
            try:
                sess.run(item)
            except tf.errors.OpError as e:
                caught.append(e)
        t = threading.Thread(target=run)
        t.start()
        time.sleep(0.8)
        c.kill("ps", 0)
        t.join(15)
        assert not t.is_alive()
        assert caught and isinstance(caught[0], (tf.errors.UnavailableError,
                                                 tf.errors.AbortedError))
        assert "/job:ps/replica:0/task:0" in str(caught[0])
        sess.close()


# -- step channels (runtime/step_channels.py) and the in-process master ----------------

def test_big_tensors_both_ways_in_one_step(cluster):
    """The ps and the worker each send the other 64 MB in the same step (far more than the
    sockets buffer), on the channel of the step's RunGraph call."""
    n = 16 * 2**20
    with tf.device("/job:ps/task:0"):
        from_ps = tf.fill([n], 2.0, name="cross_from_ps")
    with tf.device("/job:worker/task:0"):
        from_worker = tf.fill([n], 3.0, name="cross_from_worker")
        on_worker = tf.reduce_sum(from_ps * 1.0, name="cross_on_worker")
    with tf.device("/job:ps/task:0"):
        on_ps = tf.reduce_sum(from_worker * 1.0, name="cross_on_ps")
    with tf.Session(cluster.target("worker", 0)) as sess:
        for _ in range(2):
            a, b = sess.run([on_worker, on_ps], options=tf.RunOptions(timeout_in_ms=60000))
            assert a == pytest.approx(2.0 * n) and b == pytest.approx(3.0 * n)


def test_a_session_in_the_servers_own_process_calls_its_master_directly():
    """As TF's LocalMaster: no socket between a client and the master of its own process,
    but the request is still in the task's trace; a stopped server says so."""
    server = tf.train.Server.create_local_server()
    try:
        with tf.Graph().as_default():
            total = tf.reduce_sum(tf.constant([1.0, 2.0, 3.0]))
            sess = tf.Session(server.target)
            assert sess.run(total) == 6.0
            records = read_trace(server.target)
            assert any(r.kind == "RunStep" and r.src == "client" for r in records)
            server.stop()
            with pytest.raises(tf.errors.UnavailableError, match="has been stopped"):
                sess.run(total)
            sess.close()
    finally:
        server.stop()


def test_in_process_master_times_out_and_close_cancels_a_blocked_step():
    """Seed 002's layout: this process holds the worker's server and the client; the queue
    lives on the ps. A step blocked on it honours RunOptions' timeout, and close() cancels it."""
    spec = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                 "worker": [f"localhost:{free_port()}"]})
    ps = tf.train.Server(spec, job_name="ps", task_index=0)
    worker = tf.train.Server(spec, job_name="worker", task_index=0)
    try:
        with tf.Graph().as_default():
            with tf.device("/job:ps/task:0"):
                q = tf.FIFOQueue(1, tf.float32, shapes=[[]], name="in_process_q")
            with tf.device("/job:worker/task:0"):
                item = q.dequeue() + 1.0
            _times_out_then_close_cancels(tf.Session(worker.target), item)
            with tf.Session(worker.target) as again:           # the cluster is fine
                again.run(q.enqueue(41.0))
                assert again.run(item) == 42.0
    finally:
        worker.stop()
        ps.stop()
