"""sandbox.testing -- a pytest plugin for checking exercises on real clusters.

Installing the sandbox (`pip install` it) registers this module with pytest (the `pytest11`
entry point in pyproject.toml), so a teacher's check file anywhere is an ordinary pytest
file that asks for these fixtures by name -- no conftest, no imports from the repository:

    def test_the_worker_updates_the_variable_on_the_ps(local_cluster):
        cluster = local_cluster(ps=1, worker=2)       # three processes, stopped after the test
        ...                                           # tf.Session(cluster.target("worker", 0))

    def test_the_program_trains(run_tasks):
        runs = run_tasks("student.py", ps=1, worker=2, args=["--steps=50"])
        assert runs["worker", 0].returncode == 0
        assert "accuracy" in runs["worker", 0].stdout

`local_cluster(**jobs)` starts a sandbox.cluster.LocalCluster of that shape. `run_tasks` runs a
TF-1 program the way the tutorials run theirs -- the same script once per task, with
`--job_name`, `--task_index`, `--ps_hosts` and `--worker_hosts` -- waits for the workers, then
stops the ps tasks (which `server.join()` forever, as in TensorFlow) and returns every task's
exit code and output. Whatever a fixture started is gone when the test ends, failed or not.
"""
import collections
import os
import signal
import socket
import subprocess
import sys

import pytest

__all__ = ["TaskRun", "free_port", "local_cluster", "run_tasks"]

TaskRun = collections.namedtuple("TaskRun", "returncode stdout stderr")


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def local_cluster():
    """A factory: `local_cluster(ps=1, worker=2)` (or a dict of jobs) returns a started
    LocalCluster; every cluster it started is stopped when the test ends."""
    from .cluster import LocalCluster
    started = []

    def start(jobs=None, **counts):
        cluster = LocalCluster(jobs if jobs is not None else counts)
        started.append(cluster)
        return cluster

    yield start
    for cluster in reversed(started):
        cluster.close()


@pytest.fixture
def run_tasks():
    """`run_tasks(program, ps=1, worker=2, args=(), timeout=120, env=None)` -> {(job, index):
    TaskRun}: the program run once per task on free local ports."""
    running = []

    def run(program, ps=1, worker=2, args=(), timeout=120.0, env=None):
        hosts = {job: ",".join(f"localhost:{free_port()}" for _ in range(n))
                 for job, n in (("ps", ps), ("worker", worker))}
        command = [sys.executable, str(program), f"--ps_hosts={hosts['ps']}",
                   f"--worker_hosts={hosts['worker']}", *args]
        tasks = {}
        for job, n in (("ps", ps), ("worker", worker)):
            for index in range(n):
                process = subprocess.Popen(
                    command + [f"--job_name={job}", f"--task_index={index}"],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                    env=dict(os.environ, **(env or {})), start_new_session=True)
                running.append(process)
                tasks[job, index] = process
        runs = {}
        try:
            for (job, index), process in tasks.items():
                if job == "worker":
                    out, err = process.communicate(timeout=timeout)
                    runs[job, index] = TaskRun(process.returncode, out, err)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{program}: the workers did not finish within {timeout} s "
                                 "(a worker waiting for a task that never started? a session "
                                 "waits for every task of its cluster)") from None
        finally:
            for (job, index), process in tasks.items():
                if job == "ps":
                    _stop(process)
                    out, err = process.communicate()
                    runs[job, index] = TaskRun(process.returncode, out, err)
        return runs

    yield run
    for process in running:
        _stop(process)


def _stop(process):
    """Ends a task and everything it started (its own process group)."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
