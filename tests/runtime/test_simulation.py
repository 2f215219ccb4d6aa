"""Simulation knobs (stragglers, slow links) and task restarts, on real processes."""
import time

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        yield c


def _timed(sess, fetch, n=5):
    sess.run(fetch)
    start = time.perf_counter()
    for _ in range(n):
        sess.run(fetch)
    return (time.perf_counter() - start) / n


def test_slow_link_costs_what_the_bandwidth_says(cluster):
    with tf.device("/job:ps/task:0"):
        w = tf.Variable(np.zeros(78400, np.float32), name="w_link")     # 313.6 KB
    with tf.device("/job:worker/task:0"):
        y = tf.reduce_sum(w)
    # What the link costs is read from the trace (the delay the ps applied to the message),
    # and a step's time only bounded from below: a noisy machine makes any step slower, never
    # faster than its link allows.
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(w.initializer)
        cluster.set_link(("ps", 0), ("worker", 0), latency_ms=2.0, bandwidth_mbps=100)
        try:
            slow = _timed(sess, y)
        finally:
            cluster.set_link(("ps", 0), ("worker", 0), latency_ms=0.0, bandwidth_mbps=None)
    expected = 0.002 + 313600 * 8 / 100e6            # 27 ms on a 100 Mbit/s link
    assert slow >= 0.9 * expected
    delays = [r for r in cluster.trace("ps", 0) if r.kind == "link_delay"]
    assert delays and delays[-1].dst == "/job:worker/replica:0/task:0"
    assert all(d.end - d.start >= 0.9 * expected for d in delays)


def test_straggler_slows_its_steps_and_shows_in_the_trace(cluster):
    with tf.device("/job:worker/task:0"):
        y = tf.constant(1.0) + 1.0
    with tf.Session(cluster.target("worker", 0)) as sess:
        cluster.set_straggler("worker", 0, step_delay=0.05)
        try:
            slow = _timed(sess, y)
            assert cluster.knobs("worker", 0)["step_delay"] == 0.05
        finally:
            cluster.set_straggler("worker", 0, step_delay=0.0)
        straggled = sum(r.kind == "straggle" for r in cluster.trace("worker", 0))
        _timed(sess, y)                      # steps without the delay add no straggle record
        assert sum(r.kind == "straggle" for r in cluster.trace("worker", 0)) == straggled
    assert slow >= 0.05 and straggled > 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="slowdown must be >= 1.0"):
        cluster.set_straggler("worker", 0, slowdown=0.5)


def test_stragglers_and_network_at_start():
    with LocalCluster({"ps": 1, "worker": 1}, stragglers={("worker", 0): {"slowdown": 3.0}},
                      network={"latency_ms": 1.0, "bandwidth_mbps": 1000}) as c:
        assert c.knobs("worker", 0)["slowdown"] == 3.0
        assert c.knobs("ps", 0)["links"]["*"][0] == pytest.approx(0.001)


def test_kill_and_restart_a_ps(cluster):
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(5.0, name="v_restart")
    with tf.device("/job:worker/task:0"):
        y = v * 2.0
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(v.initializer)
        assert sess.run(y) == 10.0
        old_pid = cluster.pid("ps", 0)
        cluster.kill("ps", 0)
        assert not cluster.is_alive("ps", 0)
        with pytest.raises((tf.errors.UnavailableError, tf.errors.AbortedError),
                           match="/job:ps/replica:0/task:0"):
            sess.run(y)
    cluster.restart("ps", 0)
    assert cluster.is_alive("ps", 0) and cluster.pid("ps", 0) != old_pid
    with tf.Session(cluster.target("worker", 0)) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="v_restart"):
            sess.run(y)                   # a restarted ps has lost its variables
        sess.run(v.initializer)
        assert sess.run(y) == 10.0


@pytest.mark.parametrize("job", ["worker", "ps"])
def test_pause_and_resume_a_task(cluster, job):
    """A paused master (worker 0) or a paused ps: the step fails at its deadline with an
    error that says so; after resume the session goes on, no late reply mistaken for a new
    one."""
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(5.0, name=f"v_paused_{job}")
    with tf.device("/job:worker/task:0"):
        doubled = v * 2.0
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(v.initializer)
        assert sess.run(doubled) == 10.0
        cluster.pause(job, 0)
        try:
            start = time.monotonic()
            with pytest.raises(tf.errors.DeadlineExceededError, match="paused"):
                sess.run(doubled, options=tf.RunOptions(timeout_in_ms=300))
            assert time.monotonic() - start < 10
        finally:
            cluster.resume(job, 0)
        for _ in range(3):
            assert sess.run(doubled) == 10.0
