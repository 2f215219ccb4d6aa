"""Lesson 9 beyond what programs.toml checks: a ps killed mid-run costs exactly the steps after
the last checkpoint, and a whole job started again resumes from its checkpoint."""
import os
import re
import subprocess
import sys

import sandbox as tf
from sandbox.cluster.launcher import Launch

from conftest import MNIST_DIR, REPO

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
    assert lost == seen - start > 0
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
