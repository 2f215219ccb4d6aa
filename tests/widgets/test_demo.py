"""`make demo` (python -m sandbox demo): its progress bar and the whole showcase, end to end on
full MNIST -- four real local clusters, a summary table, the views as pictures, the session
saved for replay."""
import io
import re
import subprocess
import sys
import time

from tqdm import tqdm

from sandbox.demo import _RunProgress
from conftest import REPO, child_processes, live_processes


def _bar():
    return tqdm(total=100, file=io.StringIO())


def test_async_progress_counts_worker_steps():
    bar = _bar()
    progress = _RunProgress(bar, "async", 2, run_steps=40)
    for step in range(1, 31):
        progress.record({"global_step": step})
    assert bar.n == 30
    progress.finish()
    assert bar.n == 40


def test_sync_progress_counts_rounds_and_never_passes_the_runs_share():
    """3 workers, 10 rounds: 30 steps of the bar. Two stale gradients were dropped, so the
    workers did 32 steps; the bar still stops at 30, and goes by rounds meanwhile."""
    bar = _bar()
    bar.update(50)                                   # the runs before this one
    progress = _RunProgress(bar, "sync", 3, run_steps=30)
    for round_ in range(1, 5):
        for _ in range(3):
            progress.record({"global_step": round_})
    assert bar.n == 50 + 12
    for _ in range(20):                              # 20 more worker steps, rounds 5..10
        progress.record({"global_step": 10})
    assert bar.n == 80
    progress.finish()
    assert bar.n == 80


def _processes_in_session(sid):
    return [pid for pid, fields in live_processes() if int(fields[3]) == sid]


def test_demo_runs_the_four_clusters_and_draws_them(mnist_dir, tmp_path):
    # The demo runs in a session of its own: its task processes are its children, not this
    # test's, and they stay in that session -- so "nothing left running" can be checked.
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "demo", "--data-dir",
                             str(mnist_dir), "--out", str(tmp_path)], cwd=str(REPO),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=600)
    finally:
        proc.kill()
        proc.wait()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {m.group(1): m.groups()[1:] for m in re.finditer(
        r"^(async x1|async x2|async x3|sync x3)\s+(\d+)\s+(\d+)\s", done.stdout, re.M)}
    assert set(rows) == {"async x1", "async x2", "async x3", "sync x3"}, done.stdout
    for workers, label in ((1, "async x1"), (2, "async x2"), (3, "async x3")):
        global_steps, worker_steps = map(int, rows[label])
        assert global_steps == worker_steps == workers * 550          # 55,000 / batch 100
    rounds, worker_steps = map(int, rows["sync x3"])
    assert rounds == 550 and worker_steps >= 3 * 550
    # the bar ends at its total: 550 steps x (1 + 2 + 3 + 3) workers, never past it
    final = done.stderr.replace("\r", "\n").strip().splitlines()[-1]
    assert "4950/4950" in final, final
    # the views as pictures, and the whole session for Dashboard.replay
    for picture in ("curves.png", "placement.png", "traffic.png", "lanes.png"):
        assert (tmp_path / picture).stat().st_size > 10000, picture
    from sandbox.widgets.recording import Recording
    saved = Recording.load(tmp_path / "runs.sandbox.json.gz")
    assert [saved.label(r) for r in saved.run_ids] == ["async x1", "async x2", "async x3",
                                                       "sync x3"]
    assert all(saved.traffic[r].totals_by_kind()["pull"] > 0 for r in saved.run_ids)
    assert saved.placement[3].to_dict()["counts"]["variables"] >= 5
    moved = {m.group(1): float(m.group(2)) for m in re.finditer(
        r"^(async x1|async x2|async x3|sync x3)\s.*\s(\d+)$", done.stdout, re.M)}
    assert moved["async x1"] > 100 and moved["async x3"] > moved["async x1"]   # MB moved
    assert not child_processes()
    deadline = time.monotonic() + 10
    while _processes_in_session(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _processes_in_session(proc.pid)
