"""sandbox.experiments on real clusters: records stream while the run goes on (short runs;
bench/ has the full-length ones)."""
import time

import numpy as np
import pytest

from sandbox.datasets.mnist import DataSet, Datasets
from sandbox.experiments import Experiment, run_experiment
from sandbox.framework import dtypes


@pytest.fixture(scope="module")
def small_mnist():
    from conftest import MNIST_DIR
    from sandbox.examples.tutorials.mnist import input_data
    if (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        full = input_data.read_data_sets(str(MNIST_DIR), one_hot=True, seed=0)
        train = full.train
        test = full.test
        images, labels = train.images[:3000], train.labels[:3000]
        timages, tlabels = test.images[:1000], test.labels[:1000]
    else:
        rng = np.random.default_rng(0)
        images = rng.random((3000, 784), dtype=np.float32)
        labels = np.eye(10)[rng.integers(0, 10, 3000)]
        timages, tlabels = images[:1000], labels[:1000]

    def ds(i, l):
        return DataSet(i, l, dtype=dtypes.uint8, reshape=False, seed=0)
    return Datasets(train=ds(images, labels), validation=ds(timages, tlabels),
                    test=ds(timages, tlabels))


def test_async_records_stream_while_running(small_mnist):
    exp = Experiment(mode="async", workers=2, mnist=small_mnist, epochs=1, learning_rate=0.05,
                     steps_per_epoch=25, eval_every=10)
    assert exp.started is None
    seen = []
    exp.subscribe(seen.append)
    before = time.time()
    streamed = list(exp)
    # records count their time from exp.started, which lies in this run's wall-clock span
    assert before <= exp.started <= exp.started + max(r["time"] for r in streamed) <= time.time()
    assert len(streamed) == 50 and seen == streamed
    assert {r["worker"] for r in streamed} == {0, 1}
    assert max(r["global_step"] for r in streamed) == 50       # async: every step is an update
    assert all(r["loss"] > 0 for r in streamed)
    assert any(r["test_accuracy"] is not None for r in streamed if r["worker"] == 0)
    summary = exp.summary()
    assert summary["global_step"] == 50 and summary["mode"] == "async"
    assert 0.0 <= summary["test_accuracy"] <= 1.0
    assert exp.traffic["ps:0"] > 0 and exp.traffic["worker:1"] > 0
    assert exp._data_dir is None                              # the shared data is removed


def test_each_workers_loop_runs_in_its_own_process(small_mnist, monkeypatch):
    """As in seed 002, a worker's training loop runs next to its server, in the worker's
    process: the launcher opens no Session at all."""
    import os
    from sandbox.client import session as session_module
    opened = []
    real_init = session_module.Session.__init__

    def counting_init(self, *args, **kwargs):
        opened.append(os.getpid())
        real_init(self, *args, **kwargs)
    monkeypatch.setattr(session_module.Session, "__init__", counting_init)
    exp = Experiment(mode="async", workers=2, mnist=small_mnist, epochs=1, learning_rate=0.05,
                     steps_per_epoch=5, eval_every=100)
    exp.start()
    data_dir = exp._data_dir
    assert os.path.isdir(data_dir)
    exp.wait(timeout=120)
    assert opened == []                       # no Session in the launcher
    assert not os.path.exists(data_dir)       # the memory-mapped data is gone with the run


def test_sync_with_backup_worker_counts_rounds_and_stale_gradients(small_mnist):
    summary, records = run_experiment(mode="sync", workers=3, replicas_to_aggregate=2,
                                      mnist=small_mnist, epochs=1, steps_per_epoch=15,
                                      learning_rate=0.05, eval_every=100)
    assert summary["global_step"] == 15                      # one update per round
    assert summary["replicas_to_aggregate"] == 2
    assert summary["stale_dropped"] > 0                      # the backup's late gradients
    assert {r["worker"] for r in records} == {0, 1, 2}


def test_sync_chief_evaluates_at_the_step_that_ends_training(small_mnist):
    """One worker, one replica to aggregate: the worker's first step takes a token put in at
    the start, so its 13th step is the one that brings global_step to 12, where StopAtStepHook
    asks to stop. Evaluating right after that step still works (the demo's sync run once
    failed there with "Run called even after should_stop requested.")."""
    summary, records = run_experiment(mode="sync", workers=1, replicas_to_aggregate=1,
                                      mnist=small_mnist, epochs=1, steps_per_epoch=12,
                                      learning_rate=0.05, eval_every=13)
    assert summary["global_step"] == 12
    assert [(r["step"], r["global_step"]) for r in records][-1] == (13, 12)
    assert [r["step"] for r in records if r["test_accuracy"] is not None] == [13]
    assert 0.0 <= summary["test_accuracy"] <= 1.0


def test_experiment_argument_errors(small_mnist):
    with pytest.raises(ValueError, match="mode"):
        Experiment(mode="fast", mnist=small_mnist)
    with pytest.raises(ValueError, match="replicas_to_aggregate only applies"):
        Experiment(mode="async", replicas_to_aggregate=2, mnist=small_mnist)
    with pytest.raises(ValueError, match="between 1 and workers"):
        Experiment(mode="sync", workers=2, replicas_to_aggregate=3, mnist=small_mnist)


def test_stragglers_show_in_the_run(small_mnist):
    exp = Experiment(mode="async", workers=2, mnist=small_mnist, epochs=1, steps_per_epoch=10,
                     stragglers={1: 1.0}, learning_rate=0.05)
    exp.stragglers = {("worker", 1): {"step_delay": 0.05}}
    exp.wait()
    times = {w: max(r["time"] for r in exp.records if r["worker"] == w) for w in (0, 1)}
    assert times[1] > 0.5 and times[1] > times[0]


@pytest.mark.parametrize("mode", ["async", "sync"])
def test_stop_ends_a_running_experiment(small_mnist, mode):
    """stop() while the workers train: every loop leaves, the cluster closes, nothing hangs
    (in sync mode the first worker to leave closes the token queue for the others)."""
    exp = Experiment(mode=mode, workers=3, mnist=small_mnist, epochs=50, learning_rate=0.05,
                     steps_per_epoch=30, eval_every=10 ** 6)
    for record in exp:
        if record["step"] >= 5:
            exp.stop()
            break
    summary = exp.wait(timeout=60)
    assert summary["global_step"] < 50 * 30
    assert sorted(exp.final_accuracy) == [0, 1, 2]


def _wait_for(condition, timeout=60, what="the condition"):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_a_worker_killed_on_purpose_is_an_event_and_a_restarted_one_rejoins(small_mnist):
    exp = Experiment(mode="async", workers=2, mnist=small_mnist, epochs=1, learning_rate=0.05,
                     steps_per_epoch=400, eval_every=1000, linger=True)
    events = []
    exp.on_event(events.append)
    exp.start()
    try:
        _wait_for(lambda: any(r["worker"] == 1 for r in exp.records), what="worker 1's steps")
        exp.kill("worker", 1)
        assert not exp.cluster.is_alive("worker", 1)
        killed_at = max(r["step"] for r in exp.records if r["worker"] == 1)
        exp.restart("worker", 1)
        summary = exp.wait(120)                       # no error: the kill was on purpose
        worker1 = [r["step"] for r in exp.records if r["worker"] == 1]
        assert max(worker1) == 400                    # it finished its share after the restart
        assert min(s for s in worker1 if s > killed_at) <= killed_at + 5   # where it was
        assert max(r["step"] for r in exp.records if r["worker"] == 0) == 400
        assert [(e["kind"], e["task"]) for e in events] == [("kill", "worker:1"),
                                                           ("restart", "worker:1")]
        assert summary["worker_steps"] == len(exp.records)
        assert exp.cluster.is_alive("ps", 0)          # linger: the cluster is still up
    finally:
        exp.close()
    assert not exp.cluster.is_alive("ps", 0)


def test_recovering_loops_ride_out_a_ps_that_restarts_empty(small_mnist):
    exp = Experiment(mode="async", workers=2, mnist=small_mnist, epochs=1, learning_rate=0.05,
                     steps_per_epoch=300, eval_every=1000, recover=True, keep_records=True)
    exp.start()
    _wait_for(lambda: exp.summary().get("global_step", 0) > 60, what="60 global steps")
    exp.kill("ps", 0)
    exp.restart("ps", 0)
    summary = exp.wait(120)
    killed, restarted = (e["time"] for e in exp.events if e["kind"] in ("kill", "restart"))
    before = [r["global_step"] for r in exp.records if r["time"] < killed]
    after = [r["global_step"] for r in exp.records if r["time"] > restarted]
    # the ps lost its variables: the chief initialized them again, so the global step
    # started over from 0 -- and both loops still did all their steps
    assert max(before) > 60 and min(after) < 20
    for worker in (0, 1):
        assert max(r["step"] for r in exp.records if r["worker"] == worker) == 300
    assert 0.0 <= summary["test_accuracy"] <= 1.0


def test_without_recover_a_lost_ps_ends_the_run_with_a_named_error(small_mnist):
    exp = Experiment(mode="async", workers=1, mnist=small_mnist, epochs=1, learning_rate=0.05,
                     steps_per_epoch=5000, eval_every=10000)
    exp.start()
    _wait_for(lambda: exp.summary().get("global_step", 0) > 20, what="20 global steps")
    exp.kill("ps", 0)
    with pytest.raises(RuntimeError, match="worker 0 failed.*ps"):
        exp.wait(120)


def test_records_can_stream_without_being_kept(small_mnist):
    seen = []
    exp = Experiment(mode="async", workers=2, mnist=small_mnist, epochs=1, learning_rate=0.05,
                     steps_per_epoch=30, eval_every=100, keep_records=False)
    exp.subscribe(seen.append)
    summary = exp.wait(120)
    assert exp.records == [] and len(seen) == 60
    assert summary["worker_steps"] == 60 and summary["global_step"] == 60
    assert summary["final_loss"] == seen[-1]["loss"]
    assert summary["bytes_sent"] > 0
