"""The benchmarks' helpers that need no cluster: the CPU stolen by the hypervisor, how the
CPU time of a window went, and the rows that report it."""
import os
import pathlib
import time

import pytest

from bench.bench_training import cpu_rows
from bench.common import (CpuSampler, cpu_ticks, cpu_use, each_worker, steal_row,
                          stolen_share)


def test_stolen_share_is_steal_over_all_ticks_spent():
    before = [100, 0, 50, 800, 0, 0, 0, 50, 0, 0]
    after = [200, 0, 100, 1500, 0, 0, 0, 150, 0, 0]
    assert stolen_share(before, after) == pytest.approx(100 / 950)


def test_stolen_share_unknown_without_counters_or_time():
    assert stolen_share(None, [1] * 8) is None
    assert stolen_share([1, 2, 3], [4, 5, 6]) is None          # no steal column
    assert stolen_share([5] * 8, [5] * 8) is None               # no time went by


@pytest.mark.skipif(not os.path.exists("/proc/stat"), reason="Linux only")
def test_cpu_ticks_reads_the_machine_counters():
    ticks = cpu_ticks()
    assert len(ticks) >= 8 and all(isinstance(t, int) and t >= 0 for t in ticks)
    share = stolen_share(ticks, [t + 1 for t in ticks])
    assert share == pytest.approx(1 / 8)          # steal, of the 8 columns time is spent in


def test_steal_row_shows_the_median_and_each_turn():
    row = steal_row([0.10, None, 0.30, 0.02], "the turns")
    assert row["sandbox"] == "median 10%"
    assert row["ratio"] == "turns: 10%, 30%, 2%"
    assert row["ok"] is None                                    # informative, no bar
    assert steal_row([None], "the turns")["sandbox"] == "unknown"


def test_cpu_use_splits_the_ticks_into_busy_idle_and_stolen():
    #        user nice sys idle iowait irq softirq steal guest guest_nice
    before = [100, 0, 50, 800, 10, 0, 0, 50, 0, 0]
    after = [250, 0, 100, 1100, 30, 0, 0, 150, 99, 0]      # guest is inside user: not added
    use = cpu_use(before, after)
    assert use["busy"] == pytest.approx(200 / 620)
    assert use["idle"] == pytest.approx(320 / 620)
    assert use["stolen"] == pytest.approx(100 / 620)
    assert cpu_use(None, after) is None and cpu_use(before, before) is None


@pytest.mark.skipif(not os.path.exists("/proc/stat"), reason="Linux only")
def test_cpu_sampler_reads_a_window_known_afterwards():
    with CpuSampler(period=0.01) as sampler:
        t0 = time.time()
        end = t0 + 0.3
        while time.time() < end:                     # keep a core busy in the window
            pass
        t1 = time.time()
        time.sleep(0.05)
    use = sampler.use(t0, t1)
    assert use is not None
    assert use["busy"] + use["idle"] + use["stolen"] == pytest.approx(1)
    assert use["busy"] > 0
    assert sampler.use(t1 + 10, t1 + 20) is None      # no samples there
    assert not sampler._thread.is_alive()            # the with block stopped it


def test_cpu_rows_report_idle_and_cpu_per_three_gradients():
    use = {"async": [(5.0, {"busy": 0.90, "idle": 0.05, "stolen": 0.05}),
                     (6.0, {"busy": 0.80, "idle": 0.10, "stolen": 0.10}),
                     (7.0, None)],
           "sync": [(8.0, {"busy": 0.75, "idle": 0.20, "stolen": 0.05})]}
    idle_row, busy_row = cpu_rows(use, cores=2)
    assert idle_row["sandbox"] == "20% (sync)" and idle_row["baseline"] == "8% (async)"
    # async: median of 5*2*0.9 = 9.0 and 6*2*0.8 = 9.6; sync: 8*2*0.75 = 12.0
    assert busy_row["sandbox"] == "12.00 (a sync round)"
    assert busy_row["baseline"] == "9.30 (3 async steps)"
    assert busy_row["ratio"] == f"{12.0 / 9.3:.2f}"
    assert idle_row["ok"] is None and busy_row["ok"] is None
    assert cpu_rows({"async": [(5.0, None)], "sync": use["sync"]}, cores=2) == []


def test_run_all_gives_tensorflow_only_to_the_benchmarks_with_a_tensorflow_baseline():
    from bench.run_all import WITH_TF_BASELINE, commands
    runs = {pathlib.Path(c[1]).name: c[2:] for c in
            commands(["--data-dir", "/mnist", "--quick", "--tf-python", "/tf/python"])}
    assert {"bench_foundation.py", "bench_cluster.py", "bench_training.py"} <= set(runs)
    for name, args in runs.items():
        assert args[:3] == ["--data-dir", "/mnist", "--quick"], name
        assert ("--tf-python" in args) == (name in WITH_TF_BASELINE), name
    assert all(c[2:] == [] for c in commands([]))         # nothing given, nothing passed


def test_each_worker_gives_the_mean_then_every_workers_accuracy():
    assert each_worker([0.55, 0.67, 0.67]) == "0.630 (0.55, 0.67, 0.67)"
    assert each_worker([0.456]) == "0.456"                 # one worker: nothing to split


def test_whole_script_baseline_runs_under_the_sandbox_and_swaps_to_tensorflow(tmp_path):
    import subprocess
    import sys

    import numpy as np

    from bench.common import REPO
    from bench.tf_seed_baseline import as_tensorflow
    script = REPO / "bench" / "seed_local_adam.py"
    tf_source = as_tensorflow(script.read_text(), "bench/seed_local_adam.py")
    assert "\nimport sandbox as tf\n" not in tf_source
    assert "\nimport tensorflow.compat.v1 as tf\n" in tf_source
    with pytest.raises(RuntimeError, match="no longer has the line"):
        as_tensorflow("import numpy\n", "x.py")
    rng = np.random.default_rng(0)                       # 300 examples: a quick, real run
    labels = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 300)]
    data = tmp_path / "small.npz"
    np.savez(data, train_images=rng.random((200, 784), np.float32), train_labels=labels[:200],
             test_images=rng.random((100, 784), np.float32), test_labels=labels[200:])
    done = subprocess.run([sys.executable, str(script), str(data), "1"], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert done.returncode == 0, done.stderr
    accuracy = float(done.stdout.split("Test-Accuracy: ")[1].split()[0])
    assert 0.0 <= accuracy <= 1.0 and "Epoch: 1, cost:" in done.stdout
