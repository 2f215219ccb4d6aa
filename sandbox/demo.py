"""`make demo` / `python -m sandbox demo`: the sandbox's showcase.

Seed 002's MNIST job (sigmoid 784-100-10, GradientDescent, batch 100) trained on a real local
cluster -- one ps and N workers, each its own process -- four ways:

    async with 1, 2 and 3 workers      every worker updates the ps whenever it likes
    sync with 3 workers                SyncReplicasOptimizer averages 3 gradients per update

with a progress bar and a summary table (accuracy, steps, time, bytes moved), and the same
views the Jupyter dashboard shows, drawn as PNG pictures into demo_output/ -- every figure
measured by the running clusters (sandbox/widgets: curves, placement, traffic and swim
lanes), one colour per run in every picture -- plus the whole session saved as one file
(runs.sandbox.json.gz) that `Dashboard.replay` opens again without a cluster.
"""
import argparse
import os
import sys
import threading
import time

FULL_TRAIN = 55000     # full MNIST's training set after the 5,000-example validation split

RUNS = (("async", 1), ("async", 2), ("async", 3), ("sync", 3))
RECORDING = "runs.sandbox.json.gz"


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

    from .widgets.feed import LiveFeed
    from .widgets.recording import Recording
    recording = Recording(title="seed 002: async and sync on a local cluster")
    results = []
    for run_id, (mode, workers) in enumerate(RUNS):
        label = f"{mode} x{workers}"
        run_steps = workers * epochs * steps_per_epoch
        if bar is not None:
            bar.set_description(label)
        exp = Experiment(mode=mode, workers=workers, mnist=mnist, epochs=epochs,
                         learning_rate=args.learning_rate, linger=True, keep_records=False,
                         eval_every=max(10, epochs * steps_per_epoch // 15),
                         eval_examples=2000)
        recording.curves.add_run(run_id, exp.config(), label=label)
        exp.subscribe(_Curves(recording.curves, run_id).record)
        progress = _RunProgress(bar, mode, workers, run_steps)
        if bar is not None:
            exp.subscribe(progress.record)
        start = time.time()
        exp.start()
        # the traffic and the placement, as the cluster's tasks measure them
        feed = LiveFeed(exp.cluster, interval=0.25).start()
        try:
            summary = exp.wait()
        finally:
            feed.stop()
            feed.poll()
            feed.read_placement()
            feed.close()
            exp.close()
        progress.finish()
        summary["wall"] = time.time() - start
        recording.curves.finish(run_id, "done", summary)
        recording.add_cluster(run_id, feed.traffic, feed.placement)
        results.append((label, summary))
    if bar is not None:
        bar.close()

    print()
    print(f"{'run':<10} {'global steps':>12} {'worker steps':>12} {'seconds':>8} "
          f"{'final loss':>10} {'test acc':>8} {'stale dropped':>13} {'MB moved':>9}")
    for label, s in results:
        moved = (s.get("bytes_sent") or 0) / 1e6
        print(f"{label:<10} {s['global_step']:>12} {s['worker_steps']:>12} {s['seconds']:>8.1f} "
              f"{s['final_loss']:>10.3f} {s['test_accuracy']:>8.3f} {s['stale_dropped']:>13} "
              f"{moved:>9.0f}")
    paths = draw(recording, args.out)
    paths.append(recording.save(os.path.join(args.out, RECORDING)))
    print("\nPictures of what happened (and the session, for Dashboard.replay):")
    for path in paths:
        print(f"  {path}")
    print("\nMore workers in async mode apply more updates per epoch of each worker (each one "
          "loops over the\nwhole training set), so accuracy grows with workers -- seed 002's "
          "table. Sync mode applies one\naveraged update per round of all workers.")
    return 0


class _Curves:
    """Hands a run's records to the curves model (records come on the experiment's
    thread)."""

    def __init__(self, curves, run_id):
        self.curves, self.run_id = curves, run_id
        self.lock = threading.Lock()

    def record(self, record):
        with self.lock:
            self.curves.add_records(self.run_id, (record,))


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


def draw(recording, out_dir):
    """The views as PNG pictures: curves (by step and by time), the placement of the last
    run's cluster, and the traffic of each run -- arrows averaged over the whole run, and
    swim lanes of a few steps in the middle of it."""
    import matplotlib
    matplotlib.use("Agg")
    from .widgets import pictures
    os.makedirs(out_dir, exist_ok=True)
    runs = [r for r in recording.run_ids if r in recording.traffic]
    labels = {r: recording.label(r) for r in runs}
    arrows = {labels[r]: _whole_run(recording.traffic[r]) for r in runs}
    lanes = {labels[r]: recording.traffic[r].to_dict(
        end=recording.traffic[r].moment_to_show(), live=False) for r in runs}
    colors = {labels[r]: recording.curves.runs[r].color for r in runs}
    last = runs[-1]
    placement = recording.placement[last].to_dict()
    placement["note"] = f"{labels[last]}: " + placement.get("note", "")
    figures = {
        "curves.png": pictures.draw_curves_both(recording.curves.to_dict()),
        "placement.png": pictures.draw_placement(placement),
        "traffic.png": pictures.small_multiples(arrows, pictures.draw_traffic, colors=colors),
        "lanes.png": pictures.small_multiples(lanes, pictures.draw_lanes, colors=colors),
    }
    return [pictures.save(fig, os.path.join(out_dir, name)) for name, fig in figures.items()]


def _whole_run(traffic):
    """The traffic state at the end of a run, its rates averaged over the whole run."""
    return traffic.to_dict(live=False, window=max(traffic.end - traffic.start, 1e-3))


if __name__ == "__main__":
    sys.exit(main())
