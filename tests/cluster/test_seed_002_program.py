"""Seed 002's program, unchanged but for its import, as separate processes: one ps and two
workers started from the command line like in the seed's README."""
import os
import pathlib
import re
import signal
import subprocess
import sys

import pytest

from bench.common import free_port

REPO = pathlib.Path(__file__).resolve().parents[2]
SECRET = "feedfacecafebeef" * 3


def test_seed_002_runs_as_one_ps_and_two_worker_processes(tmp_path):
    from conftest import MNIST_DIR
    if not (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        pytest.skip("full MNIST not available")
    ps_hosts = f"localhost:{free_port()}"
    worker_hosts = f"localhost:{free_port()},localhost:{free_port()}"
    env = dict(os.environ, PYTHONPATH=str(REPO), SANDBOX_CLUSTER_SECRET=SECRET)
    common = [sys.executable, str(REPO / "bench" / "seed_002_mnist.py"),
              f"--ps_hosts={ps_hosts}", f"--worker_hosts={worker_hosts}",
              f"--data_dir={MNIST_DIR}", "--training_epochs=1", "--learning_rate=0.01",
              f"--logs_path={tmp_path}"]
    ps = subprocess.Popen(common + ["--job_name=ps", "--task_index=0"], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = [subprocess.Popen(common + ["--job_name=worker", f"--task_index={i}"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
               for i in range(2)]
    try:
        outputs = [w.communicate(timeout=240)[0] for w in workers]
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
        ps.send_signal(signal.SIGTERM)
        ps.wait(10)
    for w, out in zip(workers, outputs):
        assert w.returncode == 0, out[-2000:]
        assert "done" in out
        accuracy = float(re.search(r"Test-Accuracy: ([0-9.]+)", out).group(1))
        assert 0.0 < accuracy <= 1.0
    # global_step counted the updates of both workers (550 steps each, async)
    steps = [int(m) for out in outputs for m in re.findall(r"Step: (\d+),", out)]
    assert max(steps) > 550
    assert any(p.name.startswith("events.out.tfevents") for p in tmp_path.iterdir())
