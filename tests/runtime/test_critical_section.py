"""tf.CriticalSection (ops/critical_section_ops.py): a read-modify-write that steps of several
threads (sessions, workers) run at once loses no update when it runs in a critical section;
a step waiting for the mutex honours its deadline; the mutex is let go when a step ends."""
import threading
import time

import numpy as np
import pytest

import sandbox as tf


def _slow_increment(v):
    """v <- v + 1, read and written apart (a Python op that sleeps between): two steps
    running it at once would both read the same value."""
    def slow(x):
        time.sleep(0.002)
        return np.float32(x + 1)
    new = tf.py_func(slow, [v.read_value() if hasattr(v, "read_value") else tf.identity(v)],
                     tf.float32)
    return v.assign(new)


def _run_in_threads(sess, fetch, threads=3, runs=8):
    errors = []

    def work():
        try:
            for _ in range(runs):
                sess.run(fetch)
        except Exception as e:                       # pylint: disable=broad-except
            errors.append(e)
    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(60)
    assert not errors, errors


def test_concurrent_steps_take_turns_in_a_critical_section():
    cs = tf.CriticalSection(name="counter")
    v = tf.Variable(0.0, name="v")
    counted = cs.execute(lambda: _slow_increment(v))
    assert counted.name.startswith("critical_section_execute/")
    assert [op.type for op in counted.graph.get_operations() if "Mutex" in op.type] == [
        "MutexV2", "MutexLock", "ConsumeMutexLock"]
    with tf.Session() as sess:
        sess.run(v.initializer)
        _run_in_threads(sess, counted)
        assert sess.run(v) == 3 * 8                   # no update lost
    with pytest.raises(ValueError, match="already running"):
        cs.execute(lambda: cs.execute(lambda: v + 1))


def test_a_step_waiting_for_the_mutex_honours_its_deadline():
    cs = tf.CriticalSection()
    v = tf.Variable(0.0)

    def hold(x):
        time.sleep(0.6)
        return x
    slow = cs.execute(lambda: tf.py_func(hold, [tf.identity(v)], tf.float32))
    quick = cs.execute(lambda: v + 1.0)
    with tf.Session() as sess:
        sess.run(v.initializer)
        holder = threading.Thread(target=sess.run, args=(slow,))
        holder.start()
        time.sleep(0.1)
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(quick, options=tf.RunOptions(timeout_in_ms=150))
        holder.join(10)
        assert sess.run(quick) == 1.0                 # let go when the slow step ended


def test_workers_on_a_cluster_take_turns_on_the_ps(local_cluster):
    cluster = local_cluster(ps=1, worker=1)
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:ps/task:0"):
            cs = tf.CriticalSection(name="on_ps")
            v = tf.Variable(0.0, name="shared")

        def increment_on_the_worker():
            with tf.device("/job:worker/task:0"):      # read on the ps, + 1 on the worker,
                new = tf.identity(v) + 1.0             # written on the ps: a round trip
            return v.assign(new)                       # apart
        counted = cs.execute(increment_on_the_worker)
        sessions = [tf.Session(cluster.target("worker", 0)) for _ in range(2)]
        try:
            sessions[0].run(v.initializer)
            threads = [threading.Thread(target=_run_in_threads, args=(s, counted, 1, 20))
                       for s in sessions]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert sessions[0].run(v) == 40
        finally:
            for s in sessions:
                s.close()
