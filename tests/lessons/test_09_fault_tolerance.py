"""Lesson 9 beyond what programs.toml checks: a ps killed mid-run costs exactly the steps after
the last checkpoint, and a whole job started again resumes from its checkpoint."""
import os
import re
import subprocess
import sys
import time

import sandbox as tf
from sandbox.cluster.launcher import Launch

from conftest import MNIST_DIR, MNIST_OFFLINE, REPO

LESSON = REPO / "lessons" / "09_fault_tolerance"


def _env():
    env = {"SANDBOX_QUICK": "1", "SANDBOX_MNIST_MIRRORS": "none"}
    if (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        env["SANDBOX_MNIST_DIR"] = str(MNIST_DIR)
    return env


def _ints(pattern, text):
    return [int(x) for x in re.findall(pattern, text)]


def test_a_killed_ps_costs_the_steps_after_the_last_checkpoint(tmp_path):
    logs = tmp_path / "logs"
    out = subprocess.run([sys.executable, str(LESSON / "restart_ps.py"),
                          f"--checkpoint_dir={logs}"], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                         env=dict(os.environ, **_env()))
    text = out.stdout
    assert out.returncode == 0, text[-3000:] + out.stderr[-2000:]
    report = re.search(r"before the kill the workers saw global step (\d+); the chief restored "
                       r"global step (\d+) and its new session started at global step (\d+): "
                       r"(-?\d+) steps lost", text)
    assert report, text[-3000:]
    seen, restored, start, lost = map(int, report.groups())
    # the checkpoint held what the chief restored: an earlier step than the workers had reached
    assert 100 <= restored < seen, text[-3000:]
    # the chief's new session starts at the restored step (worker 1 may sneak in a few steps
    # while the chief's CheckpointSaverHook saves, before the lesson's hook reads the step)
    assert restored <= start <= restored + 25, text[-3000:]
    assert lost == seen - restored > 0          # the updates after the checkpoint
    # every worker saw its session re-created; training went on to the last step
    assert _ints(r"worker 0: session 2 created at global step (\d+)", text) == [start]
    assert len(_ints(r"worker 1: session 2 created at global step (\d+)", text)) == 1
    latest = tf.train.latest_checkpoint(str(logs))
    assert int(tf.train.load_variable(latest, "global_step")) >= 600


def test_a_job_started_again_resumes_from_its_checkpoint(tmp_path):
    logs = tmp_path / "logs"

    def run(steps):
        with Launch(LESSON / "mts_train.py", {"ps": 1, "worker": 2}, env=_env(), cwd=tmp_path,
                    args=[f"--checkpoint_dir={logs}", f"--train_steps={steps}"]) as job:
            runs = job.wait(120)
        for task in [("worker", 0), ("worker", 1)]:
            assert runs[task].returncode == 0, runs[task].stderr[-2000:]
        return runs["worker", 0].stdout

    first = run(100)
    assert _ints(r"worker 0: session 1 created at global step (\d+)", first)[0] <= 25
    saved = int(tf.train.load_variable(tf.train.latest_checkpoint(str(logs)), "global_step"))
    assert saved >= 100
    second = run(200)
    (start,) = _ints(r"worker 0: session 1 created at global step (\d+)", second)
    assert saved <= start <= saved + 25, second     # from the checkpoint, not from 0
    assert int(tf.train.load_variable(tf.train.latest_checkpoint(str(logs)),
                                      "global_step")) >= 200


def test_the_dashboards_kill_and_restart_of_the_ps_start_training_over(monkeypatch, tmp_path):
    """What the notebook does with the Dashboard's buttons: its runs keep no checkpoint, so
    after Kill and Restart of ps:0 the chief initializes again and the global step starts over
    -- and the run goes on (recover=True), marked in the curves."""
    from sandbox.widgets import Dashboard
    monkeypatch.setenv("SANDBOX_MNIST_MIRRORS", "none")
    full = not MNIST_OFFLINE and (MNIST_DIR / "train-images-idx3-ubyte.gz").exists()
    if not full:                                  # the offline subset
        monkeypatch.delenv("SANDBOX_MNIST_DIR", raising=False)
    dash = Dashboard(data_dir=str(MNIST_DIR if full else tmp_path / "mnist"), quick=True,
                     interval=0.2)
    try:
        dash.run(workers=2, ps=1, mode="async", epochs=20)
        deadline = time.monotonic() + 60
        while dash.experiment is None and time.monotonic() < deadline:
            time.sleep(0.05)
        exp = dash.experiment
        assert exp is not None, dash.status.value
        records = []
        exp.subscribe(records.append)

        def wait(condition):
            while not condition() and not exp.finished and time.monotonic() < deadline:
                time.sleep(0.05)
            assert condition(), (dash.status.value, exp.events, exp.error)

        def choose(task):        # the picker's entry for it: "ps:0", or "ps:0 (dead)"...
            dash.task_picker.value = [o for o in dash.task_picker.options
                                      if o.split(" ")[0] == task][0]

        wait(lambda: max((r["global_step"] for r in records), default=0) >= 200)
        choose("ps:0")
        dash.kill_button.click()
        wait(lambda: [e["kind"] for e in exp.events] == ["kill"])
        wait(lambda: dash.task_picker.options[0] == "ps:0 (dead)")
        time.sleep(1.0)                             # down for a while: no step may happen
        choose("ps:0")
        dash.restart_button.click()
        wait(lambda: [e["kind"] for e in exp.events] == ["kill", "restart"])
        kill, restart = exp.events
        wait(lambda: {r["worker"] for r in records if r["time"] > restart["time"]} == {0, 1})
        time.sleep(0.3)
        before = max(r["global_step"] for r in records if r["time"] <= kill["time"])
        after = [r["global_step"] for r in records if r["time"] > restart["time"]]
        assert before >= 200
        # no step while the ps was down (a step that ended just before the kill may be stamped
        # a moment after it, on a busy machine)
        assert not [r for r in records if kill["time"] + 0.5 < r["time"] <= restart["time"]]
        assert min(after) <= 5, after[:20]          # started over: nothing restored
        assert exp.error is None
        (run,) = dash.curves.model.runs.values()
        assert [e["kind"] for e in run.events] == ["kill", "restart"]
        assert run.segment >= 1                     # the curve by step starts a new segment
    finally:
        dash.close()
