"""Benchmarks of the step's route (issue 26), one table: what each speed trick of the fast path
(runtime/step_channels.py) buys, and what the plain route costs, on seed 002's job.

The job and its layout are bench_cluster.bench_step's: 1 ps + 1 worker as separate processes,
between-graph, async GradientDescent, batch 100; the worker's process holds its server and
the client, as each worker of seed 002 does. Every configuration below runs in processes of
its own, started with its environment (the switches are read when a task starts), kept
running, and asked for one round of steps at a time: the rounds take turns, so that each
configuration sees the same machine (its speed drifts by 2-4x over minutes here), and each
ratio is the median of one round's ratios to the default route's round of the same turn.

    configuration                 what is switched off
    default (the fast path)       nothing: step channels and batching
    without batching              SANDBOX_FAST_BATCHING=0: the channels alone
    plain route                   SANDBOX_FAST_PATHS=0: everything (channels too)

(Two more tricks were measured here and removed for buying less than 10%: see the docstring of
runtime/step_channels.py.)

With --tf-python PY (a Python with tensorflow), TensorFlow's gRPC runtime on the same job is a
turn too (bench/tf_step_baseline.py): the default route must stay <= 0.5x of it.
A trick that buys less than 10% has no place in the runtime (the issue's rule).

Run: `.venv/bin/python bench/bench_route.py [--data-dir DIR] [--quick] [--tf-python PY]`.
"""
import argparse
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import REPO, median, mnist_dir, print_table  # noqa: E402

CONFIGS = (("default route (the fast path)", {}),
           ("  without batching", {"SANDBOX_FAST_BATCHING": "0"}),
           ("plain route", {"SANDBOX_FAST_PATHS": "0"}))


class SandboxSeedJob:
    """The seed job on the sandbox in a worker process of its own (with its ps in another),
    started with `env` added to this one's; round() times one round of steps there."""

    def __init__(self, env, data_dir, steps):
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", "--data-dir",
             str(data_dir), "--steps", str(steps)], cwd=str(REPO), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env=dict(os.environ, PYTHONPATH=str(REPO), **env))
        self._lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._answer("ready")

    def _read(self):
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _answer(self, key):
        while True:
            line = self._lines.get(timeout=600)
            if line is None:
                raise RuntimeError(f"the sandbox's worker process exited "
                                   f"({self.proc.poll()}) before saying {key!r}")
            message = json.loads(line) if line.startswith("{") else {}
            if key in message:
                return message[key]

    def round(self):
        self.proc.stdin.write("round\n")
        self.proc.stdin.flush()
        return self._answer("ms_per_step")

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def worker(data_dir, steps):
    """The other end of SandboxSeedJob: ready, then a round for each 'round' on stdin."""
    import logging
    logging.getLogger("sandbox").setLevel(logging.WARNING)
    import sandbox as tf
    from bench.bench_cluster import _ps_process
    from bench.seed_job import seed_job
    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(data_dir, one_hot=True)
    batches = [mnist.train.next_batch(100) for _ in range(steps)]
    with _ps_process() as spec:
        server = tf.train.Server(spec, job_name="worker", task_index=0)
        try:
            with seed_job(tf, server.target, batches) as one_round:
                print(json.dumps({"ready": True}), flush=True)
                for line in sys.stdin:
                    if line.strip() == "round":
                        print(json.dumps({"ms_per_step": one_round()}), flush=True)
        finally:
            server.stop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--tf-python", default=None)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args(argv)
    data = mnist_dir(args.data_dir)
    if args.worker:
        return worker(args.data_dir, args.steps)
    if data is None:
        print("full MNIST not found: give --data-dir (or set MNIST_DIR)")
        return 1
    rounds = 3 if args.quick else 9
    jobs = [(label, SandboxSeedJob(env, data, args.steps)) for label, env in CONFIGS]
    tf_job = None
    if args.tf_python:
        from bench.tf_step_baseline import TFSeedJob
        tf_job = TFSeedJob(args.tf_python, data, args.steps)
    ms = {label: [] for label, _ in jobs}
    tf_ms = []
    try:
        for _ in range(rounds):
            for label, job in jobs:
                ms[label].append(job.round())
            if tf_job is not None:
                tf_ms.append(tf_job.round())
    finally:
        for _, job in jobs:
            job.close()
        if tf_job is not None:
            tf_job.__exit__(None, None, None)
    default = ms[CONFIGS[0][0]]
    rows = []
    for label, _ in CONFIGS:
        ratios = [m / d for m, d in zip(ms[label], default)]
        rows.append(dict(metric=label, sandbox=f"{median(ms[label]):.3f} ms",
                         baseline=f"{median(default):.3f} ms default",
                         ratio=f"{median(ratios):.3f}",
                         bar=">= 1.10 (it buys 10%)" if label != CONFIGS[0][0] else "-",
                         ok=median(ratios) >= 1.10 if label != CONFIGS[0][0] else None))
    plain, alone = ms["plain route"], ms["  without batching"]
    rows.append(dict(metric="  the channels alone vs the plain route",
                     sandbox=f"{median(alone):.3f} ms", baseline=f"{median(plain):.3f} ms plain",
                     ratio=f"{median([p / a for p, a in zip(plain, alone)]):.3f}",
                     bar=">= 1.10 (they buy 10%)",
                     ok=median([p / a for p, a in zip(plain, alone)]) >= 1.10))
    if tf_ms:
        for label in (CONFIGS[0][0], "plain route"):
            to_tf = median([m / t for m, t in zip(ms[label], tf_ms)])
            rows.append(dict(metric=f"{label.strip()} vs TensorFlow's gRPC runtime",
                             sandbox=f"{median(ms[label]):.3f} ms",
                             baseline=f"{median(tf_ms):.3f} ms TF", ratio=f"{to_tf:.3f}",
                             bar="<= 0.5" if label == CONFIGS[0][0] else "(informative)",
                             ok=to_tf <= 0.5 if label == CONFIGS[0][0] else None))
    print_table(f"The step's route: seed 002's job, 1 ps + 1 worker ({rounds} rounds of "
                f"{args.steps} steps in turns, medians)", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
