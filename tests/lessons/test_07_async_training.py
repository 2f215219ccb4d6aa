"""Lesson 7 (asynchronous training, seed 002's table): the lesson's program is still the
tutorial's program, and what the lesson teaches about it holds on a live cluster -- global_step
counts every worker's updates (workers x epochs x batches), each one once."""
import difflib
import os

from conftest import REPO

LESSON = REPO / "lessons" / "07_async_training"


def _code(path):
    """The program's lines from `def main` on, stripped, without comments and blank lines."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("def main"))
    code = [line.split("  #")[0].strip() for line in lines[start:]]
    return [line for line in code if line and not line.startswith("#")]


def test_the_lesson_program_is_the_seed_with_its_marked_changes_only():
    seed = _code(REPO / "bench" / "seed_002_mnist.py")
    lesson = _code(LESSON / "seed_002_mnist.py")
    removed = [line[2:] for line in difflib.ndiff(seed, lesson) if line.startswith("- ")]
    # The seed's lines the lesson changed: the Supervisor (recovery_wait_secs), the session's
    # device_filters, and the fetch of step_reached.
    assert removed == [
        "init_op=init_op)",
        "with sv.prepare_or_wait_for_session(server.target) as sess:",
        "_, cost, summary, step = sess.run(",
        "[train_op, cross_entropy, summary_op, global_step],",
    ], removed
    source = (LESSON / "seed_002_mnist.py").read_text()
    assert 'os.environ.get("SANDBOX_QUICK") == "1"' in source


def test_global_step_counts_every_workers_updates(monkeypatch):
    monkeypatch.setenv("SANDBOX_MNIST_MIRRORS", "none")
    from sandbox.datasets.mnist import DataSet, Datasets
    from sandbox.examples.tutorials.mnist import input_data
    from sandbox.experiments import Experiment, SharedData
    from sandbox.framework import dtypes
    from conftest import MNIST_DIR

    full = input_data.read_data_sets(str(MNIST_DIR) if MNIST_DIR.exists()
                                     else os.path.join(str(REPO), "data", "mnist"), one_hot=True)

    def first(ds, n):
        return DataSet(ds.images[:n], ds.labels[:n], dtype=dtypes.uint8, reshape=False, seed=0)

    mnist = Datasets(train=first(full.train, 3000), validation=full.validation,
                     test=first(full.test, 500))
    shared = SharedData(mnist)
    try:
        for workers in (1, 2):
            exp = Experiment(mode="async", workers=workers, epochs=2, mnist=mnist,
                             shared_data=shared, eval_every=10 ** 6)
            summary = exp.wait(120)
            assert summary["global_step"] == workers * 2 * 30       # workers x epochs x batches
            steps = sorted(r["global_step"] for r in exp.records)
            assert steps == list(range(1, workers * 60 + 1))       # each update counted once
            for index in range(workers):                           # 60 updates per worker
                assert sum(r["worker"] == index for r in exp.records) == 60
    finally:
        shared.close()
