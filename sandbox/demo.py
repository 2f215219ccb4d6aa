"""`make demo` / `python -m sandbox demo`: the sandbox's showcase.

Seed 002's MNIST job (sigmoid 784-100-10, GradientDescent, batch 100) trained on a real local
cluster -- one ps and N workers, each its own process -- four ways:

    async with 1, 2 and 3 workers      every worker updates the ps whenever it likes
    sync with 3 workers                SyncReplicasOptimizer averages 3 gradients per update

with a progress bar, a summary table, and pictures of what happened (loss against time and
against global step, test accuracy, what each run sent over the wire) saved as PNG files.
"""
import argparse
import os
import sys
import threading
import time

FULL_TRAIN = 55000     # full MNIST's training set after the 5,000-example validation split

RUNS = (("async", 1), ("async", 2), ("async", 3), ("sync", 3))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sandbox demo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default=os.environ.get("MNIST_DIR") or "data/mnist",
                        help="folder with the four MNIST .gz files (downloaded there if "
                             "missing; an offline subset is used when there is no network)")
    parser.add_argument("--epochs", type=int, default=1,
                        help="epochs per worker (seed 002 uses 20; see bench/ for that table)")
    parser.add_argument("--learning-rate", type=float, default=0.01)
    parser.add_argument("--out", default="demo_output", help="where the pictures go")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)

    import logging
    logging.getLogger("sandbox").setLevel(logging.WARNING)     # the table says what happened
    logging.getLogger("sandbox.train").setLevel(logging.WARNING)
    from .examples.tutorials.mnist import input_data
    from .experiments import Experiment

    mnist = input_data.read_data_sets(args.data_dir, one_hot=True)
    print(f"Seed 002's job on a local cluster: {args.epochs} epoch(s) per worker, learning "
          f"rate {args.learning_rate} (the seed uses 0.001 and 20 epochs; this shorter run "
          "uses a larger rate so that one epoch shows learning -- "
          "`--epochs 20 --learning-rate 0.001` reproduces the seed's table).")
    epochs = args.epochs
    if mnist.train.num_examples < FULL_TRAIN:
        scale = max(1, round(FULL_TRAIN / mnist.train.num_examples))
        epochs *= scale
        print(f"(the training set has {mnist.train.num_examples} examples, not {FULL_TRAIN}: "
              f"running {scale}x the epochs so that the number of steps matches full MNIST)")
    steps_per_epoch = mnist.train.num_examples // 100
    bar = None
    if not args.no_progress:
        from tqdm.auto import tqdm
        total = sum(w * epochs * steps_per_epoch for _, w in RUNS)
        bar = tqdm(total=total, unit="step", desc="training")

    results = []
    for mode, workers in RUNS:
        label = f"{mode} x{workers}"
        run_steps = workers * epochs * steps_per_epoch
        if bar is not None:
            bar.set_description(label)
        exp = Experiment(mode=mode, workers=workers, mnist=mnist, epochs=epochs,
                         learning_rate=args.learning_rate)
        progress = _RunProgress(bar, mode, workers, run_steps)
        if bar is not None:
            exp.subscribe(progress.record)
        start = time.time()
        summary = exp.wait()
        progress.finish()
        summary["wall"] = time.time() - start
        summary["trace"] = exp.traffic
        results.append((label, summary, exp.records))
    if bar is not None:
        bar.close()

    print()
    print(f"{'run':<10} {'global steps':>12} {'worker steps':>12} {'seconds':>8} "
          f"{'final loss':>10} {'test acc':>8} {'stale dropped':>13}")
    for label, s, _ in results:
        print(f"{label:<10} {s['global_step']:>12} {s['worker_steps']:>12} {s['seconds']:>8.1f} "
              f"{s['final_loss']:>10.3f} {s['test_accuracy']:>8.3f} {s['stale_dropped']:>13}")
    paths = draw(results, args.out)
    print("\nPictures of what happened:")
    for path in paths:
        print(f"  {path}")
    print("\nMore workers in async mode apply more updates per epoch of each worker (each one "
          "loops over the\nwhole training set), so accuracy grows with workers -- seed 002's "
          "table. Sync mode applies one\naveraged update per round of all workers.")
    return 0


class _RunProgress:
    """Moves the progress bar through one run's share of it (`run_steps` worker steps). An
    async run does that many worker steps; a sync run does as many rounds as one worker has
    batches, each worth `workers` steps, but its workers may do a few more steps than that
    (a stale gradient is dropped and its step done again): so sync counts rounds, and the bar
    never goes past the run's share. Records come on the experiment's thread and the end of
    the run on the caller's: a lock keeps the two from both adding the same last steps."""

    def __init__(self, bar, mode, workers, run_steps):
        self.bar, self.mode, self.workers, self.run_steps = bar, mode, workers, run_steps
        self.shown = self.worker_steps = self.global_step = 0
        self.lock = threading.Lock()

    def record(self, record):
        with self.lock:
            self.worker_steps += 1
            self.global_step = max(self.global_step, record["global_step"])
            done = self.worker_steps if self.mode == "async" else \
                self.workers * self.global_step
            self._show(min(done, self.run_steps))

    def finish(self):
        with self.lock:
            self._show(self.run_steps)

    def _show(self, done):
        if self.bar is not None and done > self.shown:
            self.bar.update(done - self.shown)
            self.shown = done


def draw(results, out_dir):
    """Loss against time and global step, accuracy per run, bytes sent per task."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(out_dir, exist_ok=True)
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    ax_time, ax_step, ax_acc, ax_bytes = axes.ravel()
    for label, summary, records in results:
        records = sorted(records, key=lambda r: r["time"])
        smooth = _smooth([r["loss"] for r in records])
        ax_time.plot([r["time"] for r in records], smooth, label=label)
        ax_step.plot([r["global_step"] for r in records], smooth, label=label)
    ax_time.set(title="loss against wall time", xlabel="seconds", ylabel="loss (smoothed)")
    ax_step.set(title="loss against global step", xlabel="global step (updates of the ps)")
    ax_time.legend()
    ax_step.legend()
    labels = [label for label, _, _ in results]
    ax_acc.bar(labels, [s["test_accuracy"] for _, s, _ in results], color="tab:green")
    ax_acc.set(title="test accuracy (mean of the workers)", ylim=(0, 1))
    for i, (label, summary, _) in enumerate(results):
        sent = summary.get("trace") or {}
        ax_bytes.bar([f"{label}\n{task}" for task in sent], [v / 1e6 for v in sent.values()])
    ax_bytes.set(title="MB of tensors sent, per task", ylabel="MB")
    ax_bytes.tick_params(axis="x", labelsize=6, rotation=90)
    fig.tight_layout()
    path = os.path.join(out_dir, "async_vs_sync.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return [path]


def _smooth(values, window=25):
    out, total = [], 0.0
    for i, v in enumerate(values):
        total += v
        if i >= window:
            total -= values[i - window]
        out.append(total / min(i + 1, window))
    return out


if __name__ == "__main__":
    sys.exit(main())
