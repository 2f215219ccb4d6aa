"""Benchmarks of the live views and the dashboard (issue 25), one table:

  * Run to the first step: from pressing the dashboard's Run (Dashboard.run) until the first
    worker step's record reaches its curves, for 1 ps + 3 workers (bar: <= 1 s) and 2 ps + 16
    workers (bar: <= 3 s), seed 002's job on full MNIST, the dashboard prepared (data read,
    fork server started: what it does while the class reads its controls); baseline, in the
    same run: the same with task processes spawned as fresh interpreters
    (SANDBOX_START_METHOD=spawn, the way before the fork server)

  * update rate: with 4 tasks training (1 ps + 3 workers, async, seed 002's job on full MNIST),
    the dashboard's feed reads the cluster and the three views redraw their states (each
    state serialized to JSON, as the widgets send it to the browser): updates per second
    achieved at the dashboard's pace (bar: >= 5/s), and what one update costs (so how fast
    it could go)
  * overhead: the same training run with the dashboard open and without it, in alternating
    turns of the same benchmark run, medians (bar: at most 10% slower)
  * memory: a long run (10 minutes; --quick: 1) with the dashboard open: the resident memory
    of the dashboard's process and of the task processes, from the end of the first minute to
    the end (bar: flat, i.e. growth <= 5% + 10 MB), and the views' models at their bounds

Run: `make bench`, or `.venv/bin/python bench/bench_widgets.py [--quick] [--data-dir DIR]`.
"""
import argparse
import json
import os
import sys
import threading
import time

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
from bench.common import median, mnist_dir, print_table  # noqa: E402


from sandbox.widgets.feed import INTERVAL  # noqa: E402


class Dashboardless:
    """The dashboard's reading and drawing without a browser: one LiveFeed, the three views
    sharing it, and every new state serialized to JSON as the widgets' comm would send it."""

    def __init__(self, exp, interval=INTERVAL):
        from sandbox.widgets import CurvesView, LiveFeed, PlacementView, TrafficView
        self.feed = LiveFeed(exp.cluster, interval=interval)
        self.views = [TrafficView(self.feed), PlacementView(self.feed),
                      CurvesView(interval=interval)]
        self.views[2].add(exp, start=False)
        self.sent_bytes = 0
        self.updates = {type(v).__name__: 0 for v in self.views}   # states drawn afresh
        self.times = {type(v).__name__: [] for v in self.views}    # ... when
        self.sent = {type(v).__name__: 0 for v in self.views}      # ... that changed: sent
        self.update_seconds = []
        for view in self.views:
            view.observe(self._sent, names="state")
            view.refresh = self._counted(view, view.refresh)
        self.feed.add_listener(self._timed)
        self._polled = None
        self.feed.start()

    def _counted(self, view, refresh):
        name = type(view).__name__

        def counted():
            refresh()
            self.updates[name] += 1
            self.times[name].append(time.monotonic())
        return counted

    def _sent(self, change):
        self.sent_bytes += len(json.dumps(change["new"]))
        self.sent[type(change["owner"]).__name__] += 1

    def _timed(self, feed):
        now = time.perf_counter()
        if self._polled is not None:
            self.update_seconds.append(now - self._polled)
        self._polled = now

    def close(self):
        for view in self.views:
            view.close()
        self.feed.close()


def _experiment(mnist, epochs, **kwargs):
    from sandbox.experiments import Experiment
    return Experiment(mode="async", workers=3, mnist=mnist, epochs=epochs, learning_rate=0.01,
                      linger=True, keep_records=False, eval_examples=2000,
                      eval_every=max(10, epochs * 550 // 15), **kwargs)


def update_rate(mnist, seconds):
    """Updates per second the views got while 4 tasks trained, and one update's cost."""
    exp = _experiment(mnist, epochs=50)
    exp.start()
    board = Dashboardless(exp)
    time.sleep(1.0)                                  # past the start
    sent_before = dict(board.sent)
    t0 = time.monotonic()
    polls0 = board.feed.updates
    time.sleep(seconds)
    elapsed = time.monotonic() - t0
    rates = {k: _rate([t for t in board.times[k] if t0 <= t <= t0 + elapsed])
             for k in board.times}
    sent = {k: (board.sent[k] - sent_before[k]) / elapsed for k in board.sent}
    polls = (board.feed.updates - polls0) / elapsed
    timing = _cost_of_one_update(board)
    steps = exp.summary().get("global_step", 0)
    exp.stop()
    board.close()
    exp.close()
    return rates, sent, polls, timing, steps, board.sent_bytes / max(1, board.feed.updates)


def run_to_first_step(mnist, ps, workers, turns, start_method):
    """Seconds from Dashboard.run() to the first record on its curves, per turn."""
    from sandbox.widgets import Dashboard
    saved = os.environ.get("SANDBOX_START_METHOD")
    os.environ["SANDBOX_START_METHOD"] = start_method
    dash = Dashboard(mnist=mnist)
    seconds = []
    try:
        dash._prepared.wait()
        for _ in range(turns):
            t0 = time.perf_counter()
            dash.run(ps=ps, workers=workers, epochs=20)
            while True:
                runs = list(dash.curves.model.runs.values())
                if runs and dash.experiment is not None and runs[-1].records:
                    break
                if dash.status.value.count("could not start"):
                    raise RuntimeError(dash.status.value)
                time.sleep(0.002)
            seconds.append(time.perf_counter() - t0)
            dash.experiment.stop()
            dash.experiment.wait(120)
            dash._end_previous_run()
    finally:
        dash.close()
        if saved is None:
            os.environ.pop("SANDBOX_START_METHOD", None)
        else:
            os.environ["SANDBOX_START_METHOD"] = saved
    return seconds


def _rate(times):
    """Events per second, from the first to the last of `times`."""
    return (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 else 0.0


def _cost_of_one_update(board):
    """Times what one update does, on the running cluster: a look at every task, the models'
    update, the three states drawn and serialized."""
    feed, (traffic, placement, curves) = board.feed, board.views
    costs = []
    for _ in range(10):
        t0 = time.perf_counter()
        observations = feed.watch.observe()
        with feed.lock:
            feed.traffic.update(observations)
        for view in (traffic, placement, curves):
            view.refresh()
            json.dumps(view.state)
        costs.append(time.perf_counter() - t0)
    return median(costs)


def overhead(mnist, epochs, turns):
    """Seconds of the same run without and with the dashboard, alternating."""
    plain, watched = [], []
    for turn in range(turns):
        for with_board in ((False, True) if turn % 2 == 0 else (True, False)):
            exp = _experiment(mnist, epochs)
            exp.start()
            board = Dashboardless(exp) if with_board else None
            summary = exp.wait()
            if board is not None:
                board.close()
            exp.close()
            (watched if with_board else plain).append(summary["seconds"])
    return plain, watched


def _rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return 0.0
    return 0.0


def memory(mnist, seconds, sample_every=10.0):
    """RSS of this process and of the tasks over a long run with the dashboard open."""
    exp = _experiment(mnist, epochs=10 ** 4)
    exp.start()
    board = Dashboardless(exp)
    samples = []                                     # (t, own MB, tasks MB)
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        time.sleep(min(sample_every, max(0.0, seconds - (time.monotonic() - t0))))
        tasks = sum(_rss_mb(pid) for pid in exp.cluster.pids.values())
        samples.append((time.monotonic() - t0, _rss_mb(os.getpid()), tasks))
    traffic = board.feed.traffic
    sizes = {"messages": (len(traffic.messages), traffic.messages.maxlen),
             "samples": (len(traffic._samples), traffic.max_samples),
             "loss points": (len(board.views[2].model.runs[0].loss),
                             board.views[2].model.max_points)}
    steps = exp.summary().get("global_step", 0)
    exp.stop()
    board.close()
    exp.close()
    return samples, sizes, steps


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    import logging
    logging.getLogger("sandbox").setLevel(logging.WARNING)
    from sandbox.examples.tutorials.mnist import input_data
    data = mnist_dir(args.data_dir)
    if data is None:
        print("full MNIST not found: give --data-dir (or set MNIST_DIR)")
        return 1
    mnist = input_data.read_data_sets(data, one_hot=True)
    rows = []

    turns = 2 if args.quick else 4
    for ps, workers, bar in ((1, 3, 1.0), (2, 16, 3.0)):
        fork = run_to_first_step(mnist, ps, workers, turns, "forkserver")
        spawn = run_to_first_step(mnist, ps, workers, max(1, turns // 2), "spawn")
        rows.append(dict(metric=f"Run to the first step, {ps} ps + {workers} workers",
                         sandbox=f"{median(fork):.2f} s", baseline=f"{median(spawn):.2f} s "
                         "spawned", ratio=f"{median(fork) / median(spawn):.2f} (turns: "
                         f"{', '.join(f'{x:.2f}' for x in fork)})", bar=f"<= {bar:g} s",
                         ok=median(fork) <= bar))

    rates, sent, polls, cost, steps, per_update = update_rate(mnist,
                                                            10.0 if args.quick else 30.0)
    slowest = min(rates.values())
    rows.append(dict(metric="live views' updates/s, 4 tasks training (the slowest view)",
                     sandbox=f"{slowest:.2f}/s", baseline="-",
                     ratio=", ".join(f"{k} {v:.2f}" for k, v in rates.items()),
                     bar=">= 5/s", ok=slowest >= 5.0))
    rows.append(dict(metric="  of which changed, so sent to the browser",
                     sandbox=", ".join(f"{k} {v:.2f}/s" for k, v in sent.items()),
                     baseline="-", ratio="(a placement that did not change is not resent)",
                     bar="(informative)", ok=None))
    rows.append(dict(metric="  one update: read every task, redraw 3 views, to JSON",
                     sandbox=f"{1000 * cost:.1f} ms", baseline="-",
                     ratio=f"could run {1 / cost:.0f}/s; feed looked {polls:.1f}/s; "
                           f"{per_update / 1000:.0f} KB sent per look", bar="(informative)",
                     ok=None))

    epochs, turns = (1, 2) if args.quick else (2, 4)
    plain, watched = overhead(mnist, epochs, turns)
    ratio = median(watched) / median(plain)
    rows.append(dict(metric=f"async x3, {epochs} epoch(s): seconds with the dashboard open",
                     sandbox=f"{median(watched):.2f} s", baseline=f"{median(plain):.2f} s "
                     "without", ratio=f"{ratio:.3f} (turns: "
                     f"{', '.join(f'{w:.1f}/{p:.1f}' for w, p in zip(watched, plain))})",
                     bar="<= 1.10", ok=ratio <= 1.10))

    seconds = 60.0 if args.quick else 600.0
    samples, sizes, steps = memory(mnist, seconds)
    first = next((s for s in samples if s[0] >= min(60.0, seconds / 2)), samples[0])
    last = samples[-1]
    for what, i in (("dashboard's process", 1), ("task processes (4)", 2)):
        growth = last[i] - first[i]
        rows.append(dict(metric=f"memory over {seconds / 60:.0f} min, {what}",
                         sandbox=f"{last[i]:.0f} MB at the end", baseline=f"{first[i]:.0f} MB "
                         f"at {first[0]:.0f} s", ratio=f"{growth:+.1f} MB",
                         bar="<= 5% + 10 MB", ok=growth <= 0.05 * first[i] + 10))
    rows.append(dict(metric="  the views' models at the end (held / bound)", sandbox=", ".join(
        f"{k} {n}/{b}" for k, (n, b) in sizes.items()), baseline="-",
        ratio=f"{steps} global steps", bar="held <= bound",
        ok=all(n <= b for n, b in sizes.values())))
    print_table("Live views and dashboard (1 ps + 3 workers, seed 002's job)", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
