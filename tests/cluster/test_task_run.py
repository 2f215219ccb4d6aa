"""LocalCluster.run_in_task: a function runs inside a task's own process, next to its server,
as seed 002's training loops do -- real processes, the result and errors come back."""
import os
import time

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.cluster.task_run import TaskRunError


# The functions below run in the task processes: module level, so that they can be imported.

def where_am_i(server, report, should_stop, greeting):
    report(f"{greeting} from {server.task}")
    return {"pid": os.getpid(), "task": server.task}


def assign_on_the_ps(server, report, should_stop, value):
    """A client in the worker's process: its Session talks to the master of that process."""
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:ps/task:0"):
            v = tf.Variable(0.0, name="shared")
        assign = v.assign(value)
    with tf.Session(server.target, graph=graph) as sess:
        sess.run(v.initializer)
        return float(sess.run(assign))


def fails(server, report, should_stop):
    raise ValueError("the step size must be positive")


def loops_until_cancelled(server, report, should_stop):
    report("started")
    turns = 0
    while not should_stop():
        turns += 1
        time.sleep(0.01)
    return turns


def test_a_function_runs_in_the_task_process_and_reports():
    messages = []
    with LocalCluster({"ps": 1, "worker": 2}) as cluster:
        runs = [cluster.run_in_task("worker", i, where_am_i, "hello", on_message=messages.append)
                for i in range(2)]
        results = [run.result(timeout=30) for run in runs]
        assert [r["pid"] for r in results] == [cluster.pid("worker", 0), cluster.pid("worker", 1)]
        assert results[1]["task"] == "/job:worker/replica:0/task:1"
        assert sorted(messages) == ["hello from /job:worker/replica:0/task:0",
                                    "hello from /job:worker/replica:0/task:1"]
        assert all(run.done() for run in runs)


def test_a_session_in_the_task_changes_what_the_launcher_reads():
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        run = cluster.run_in_task("worker", 0, assign_on_the_ps, 7.5)
        assert run.result(timeout=30) == 7.5
        graph = tf.Graph()
        with graph.as_default():
            with tf.device("/job:ps/task:0"):
                v = tf.Variable(0.0, name="shared")
        with tf.Session(cluster.target("worker", 0), graph=graph) as sess:
            assert sess.run(v) == np.float32(7.5)     # the variable lives on the ps


def test_errors_come_back_with_their_type_message_and_task():
    with LocalCluster({"worker": 1}) as cluster:
        run = cluster.run_in_task("worker", 0, fails)
        with pytest.raises(TaskRunError) as info:
            run.result(timeout=30)
        text = str(info.value)
        assert "ValueError: the step size must be positive" in text
        assert "/job:worker/replica:0/task:0" in text and "Traceback" in text


def test_cancel_makes_should_stop_true():
    started = []
    with LocalCluster({"worker": 1}) as cluster:
        run = cluster.run_in_task("worker", 0, loops_until_cancelled, on_message=started.append)
        deadline = time.monotonic() + 30
        while not started and time.monotonic() < deadline:
            time.sleep(0.01)
        assert started == ["started"]
        with pytest.raises(TimeoutError):
            run.result(timeout=0.1)                   # still running
        run.cancel()
        assert run.result(timeout=30) > 0


def test_a_run_fails_when_its_task_dies_and_a_dead_task_refuses_runs():
    with LocalCluster({"worker": 1}) as cluster:
        run = cluster.run_in_task("worker", 0, loops_until_cancelled)
        time.sleep(0.2)
        cluster.kill("worker", 0)
        with pytest.raises(TaskRunError, match=r"/job:worker/replica:0/task:0 exited"):
            run.result(timeout=30)
        with pytest.raises(RuntimeError, match="is not running"):
            cluster.run_in_task("worker", 0, where_am_i, "hi")
        cluster.restart("worker", 0)
        assert cluster.run_in_task("worker", 0, where_am_i, "hi").result(timeout=30)["pid"] == \
            cluster.pid("worker", 0)
