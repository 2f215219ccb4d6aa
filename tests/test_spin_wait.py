"""Spinning before sleeping (runtime/spin_wait.py): a waiter asks a non-blocking check until it
is true, its budget is spent, or no core is spare any more -- then it sleeps."""
import os

import pytest

from sandbox.runtime import compute_threads, spin_wait


@pytest.fixture(autouse=True)
def no_servers(monkeypatch):
    """Each test starts as if this process ran no server (compute_threads.hold/release)."""
    monkeypatch.setattr(compute_threads, "_holders", {})
    monkeypatch.setattr(compute_threads, "crowded", False)
    monkeypatch.setattr(spin_wait, "_steps", 0)
    monkeypatch.setattr(spin_wait, "_overlapped", -1e9)
    monkeypatch.setattr(spin_wait, "_spinning", False)


@pytest.fixture
def loadavg(tmp_path, monkeypatch):
    """Points spin_wait at a file of our own in /proc/loadavg's format."""
    path = tmp_path / "loadavg"

    def write(runnable, total=80):
        path.write_text(f"0.50 0.40 0.30 {runnable}/{total} 12345\n")
        fd = os.open(path, os.O_RDONLY)
        monkeypatch.setattr(spin_wait, "_LOADAVG", fd)
        opened.append(fd)
    opened = []
    yield write
    for fd in opened:
        os.close(fd)


def test_a_core_is_spare_while_the_runnable_threads_fit_on_the_cores(loadavg, monkeypatch):
    monkeypatch.setattr(spin_wait, "_CORES", 2)
    loadavg(1)
    assert spin_wait.spare_core() is True
    loadavg(2)
    assert spin_wait.spare_core() is True          # this thread and one other: 2 cores
    loadavg(3)
    assert spin_wait.spare_core() is False


def test_without_loadavg_nobody_spins(monkeypatch):
    monkeypatch.setattr(spin_wait, "_LOADAVG", None)
    calls = []
    assert not spin_wait.spin(lambda: calls.append(1), budget=1.0)
    assert spin_wait.spare_core() is False and calls == []


def test_spin_returns_what_the_check_found_as_soon_as_it_finds_it(monkeypatch):
    monkeypatch.setattr(spin_wait, "spare_core", lambda: True)
    calls = []

    def ready():
        calls.append(1)
        return [(7, 1)] if len(calls) == 3 else []
    assert spin_wait.spin(ready, budget=60.0) == [(7, 1)]
    assert len(calls) == 3


def test_spin_gives_up_when_its_budget_is_spent(monkeypatch):
    monkeypatch.setattr(spin_wait, "spare_core", lambda: True)
    calls = []
    assert not spin_wait.spin(lambda: calls.append(1), budget=0.005)
    assert len(calls) >= 1


def test_a_zero_budget_never_calls_the_check():
    calls = []
    assert spin_wait.spin(lambda: calls.append(1), budget=0) is None
    assert calls == []


def test_spin_stops_when_the_cores_get_busy(monkeypatch):
    """A budget of a minute, but the machine fills up: the waiter goes to sleep at once."""
    answers = iter([True] + [False] * 1000)
    monkeypatch.setattr(spin_wait, "spare_core", lambda: next(answers))
    calls = []
    assert not spin_wait.spin(lambda: calls.append(1), budget=60.0)
    assert calls
    assert next(answers) is False                  # asked again after it started, then stopped


def test_no_spin_on_a_busy_machine(monkeypatch):
    monkeypatch.setattr(spin_wait, "spare_core", lambda: False)
    calls = []
    assert spin_wait.spin(lambda: calls.append(1), budget=60.0) is None
    assert calls == []


def test_no_spin_while_a_server_of_a_cluster_bigger_than_the_cores_runs(monkeypatch):
    """1 ps + 3 workers on 2 cores: a spinning task would take the core of one with work."""
    monkeypatch.setattr(compute_threads, "cores", lambda: 2)
    monkeypatch.setattr(spin_wait, "spare_core", lambda: True)
    small, big, calls = object(), object(), []
    compute_threads.hold(small, None, 2)               # 1 ps + 1 worker: spins
    assert spin_wait.spin(lambda: calls.append(1) or [(3, 1)], budget=1.0) == [(3, 1)]
    compute_threads.hold(big, None, 4)
    assert spin_wait.spin(lambda: calls.append(1), budget=1.0) is None
    assert len(calls) == 1                             # not even asked
    compute_threads.release(big)
    assert spin_wait.spin(lambda: [(3, 1)], budget=1.0) == [(3, 1)]


def test_a_server_says_how_many_tasks_of_its_cluster_share_this_machine(monkeypatch):
    import sandbox as tf
    from bench.common import free_port
    monkeypatch.setattr(compute_threads, "cores", lambda: 2)
    spec = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                 "worker": [f"127.0.0.1:{free_port()}",
                                            f"localhost:{free_port()}"]})
    server = tf.train.Server(spec, job_name="ps", task_index=0)
    try:
        assert compute_threads.crowded                 # 3 local tasks, 2 cores
    finally:
        server.stop()
    assert not compute_threads.crowded and compute_threads._holders == {}


def test_no_spin_in_a_process_that_ran_two_steps_at_once(monkeypatch):
    """Sync training with one worker: the worker's step and the chief's queue runner's overlap
    in one process. A spinner there would keep the GIL from the other step's thread."""
    monkeypatch.setattr(spin_wait, "spare_core", lambda: True)
    calls = []
    spin_wait.step_started()                           # this thread's step: spins
    assert spin_wait.spin(lambda: calls.append(1) or [(3, 1)], budget=1.0, own_steps=1)
    spin_wait.step_started()                           # a second one at the same time
    assert spin_wait.spin(lambda: calls.append(1), budget=1.0, own_steps=1) is None
    spin_wait.step_ended()
    spin_wait.step_ended()
    assert spin_wait.spin(lambda: calls.append(1), budget=1.0) is None   # still too recent
    assert len(calls) == 1
    monkeypatch.setattr(spin_wait, "_overlapped",
                        spin_wait._overlapped - spin_wait.STEPS_OVERLAP_SECONDS)
    assert spin_wait.spin(lambda: [(3, 1)], budget=1.0) == [(3, 1)]      # a second later


def test_a_spinner_stops_as_soon_as_another_step_starts(monkeypatch):
    monkeypatch.setattr(spin_wait, "spare_core", lambda: True)
    calls = []

    def ready():
        calls.append(1)
        if len(calls) == 3:
            spin_wait.step_started()                   # another thread begins a step
        return []
    assert not spin_wait.spin(ready, budget=60.0)
    assert len(calls) == 3
    spin_wait.step_ended()


def test_one_spinner_at_a_time(monkeypatch):
    monkeypatch.setattr(spin_wait, "spare_core", lambda: True)
    inner = []

    def ready():                        # while this thread spins, another one tries
        inner.append(spin_wait.spin(lambda: [(9, 1)], budget=60.0))
        return [(3, 1)]
    assert spin_wait.spin(ready, budget=60.0) == [(3, 1)]
    assert inner == [None]
    assert spin_wait.spin(lambda: [(9, 1)], budget=1.0) == [(9, 1)]      # free again
