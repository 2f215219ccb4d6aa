"""The seed job's training step under real TensorFlow's gRPC runtime, on this machine, in this
run -- the baseline of the step benchmark (optional: TensorFlow is not a dependency).

The job (bench/seed_job.py) and its layout are bench_cluster.bench_step's: 1 ps + 1 worker, between-graph, async
GradientDescent, batch 100; the ps is its own process (a tf.train.Server that joins), another
process holds the worker's server and the client, as each worker of seed 002 does.

`TFSeedJob` keeps that TensorFlow worker running and times one round of steps whenever it is
asked, so that the step benchmark can run TensorFlow's rounds between its own: each pair of
rounds sees the same machine (its speed drifts by 2-4x over minutes here).

    python bench/tf_step_baseline.py --tf-python /path/to/venv-with-tensorflow/bin/python
"""
import argparse
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

__all__ = ["TFSeedJob", "tf_step_ms"]

_QUIET = dict(TF_CPP_MIN_LOG_LEVEL="3")


class TFSeedJob:
    """TensorFlow's seed job, built, initialized and warmed up in a process run by `tf_python`
    (with its ps in another); `round()` times one round of `steps` steps there and returns the
    milliseconds per step. Use it with `with`: leaving stops both processes."""

    def __init__(self, tf_python, data_dir, steps=300, timeout=900):
        from bench.common import REPO
        self.timeout = timeout
        self.log = tempfile.TemporaryFile("w+")          # TensorFlow's own logs (stderr)
        self.proc = subprocess.Popen(
            [tf_python, str(Path(__file__).resolve()), "--worker", "--data-dir", str(data_dir),
             "--steps", str(steps)], cwd=str(REPO), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.log, text=True,
            env=dict(os.environ, PYTHONPATH=str(REPO), **_QUIET))
        # its stdout, line by line (None at the end), read by a thread: a pipe's reader may
        # hold several lines in its buffer, where select() would not see them
        self._lines = queue.Queue()
        threading.Thread(target=self._read_lines, daemon=True).start()
        self._answer("ready")

    def _read_lines(self):
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def round(self):
        self.proc.stdin.write("round\n")
        self.proc.stdin.flush()
        return self._answer("ms_per_step")

    def _answer(self, key):
        """The value of `key` in the next JSON line TensorFlow's worker prints (other lines
        are skipped), or an error that says what went wrong."""
        deadline = time.monotonic() + self.timeout
        waited = False
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                waited = True
                break
            if line is None:
                break
            if line.startswith("{"):
                return json.loads(line)[key]
        self.close()
        self.log.seek(0)
        raise RuntimeError(f"TensorFlow's step benchmark "
                           f"{'gave no answer in %d s' % self.timeout if waited else 'stopped'} "
                           f"(exit {self.proc.returncode}) instead of answering '{key}'; its "
                           f"last output:\n{self.log.read()[-2000:]}")

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()          # the worker leaves at the end of its input
                self.proc.wait(30)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        self.log.close()


def tf_step_ms(tf_python, data_dir, rounds=3, steps=300):
    """Milliseconds per step of the seed job under TensorFlow run by `tf_python`: the median of
    `rounds` rounds."""
    from bench.common import median
    with TFSeedJob(tf_python, data_dir, steps) as job:
        return median([job.round() for _ in range(rounds)])


def _tf():
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
    return tf


def _run_ps(spec):
    """TF's ps joins for ever: it leaves when the process that started it is gone."""
    import threading
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)
    threading.Thread(target=watch_parent, daemon=True).start()
    tf = _tf()
    server = tf.train.Server(tf.train.ClusterSpec(spec), job_name="ps", task_index=0)
    server.join()


def _run_worker(data_dir, steps):
    """TFSeedJob's other end: says ready, then times a round for each 'round' line on stdin."""
    from bench.common import free_port
    from bench.seed_job import seed_job
    from sandbox.examples.tutorials.mnist import input_data   # NumPy only
    tf = _tf()
    mnist = input_data.read_data_sets(str(data_dir), one_hot=True, seed=0)
    batches = [mnist.train.next_batch(100) for _ in range(steps)]
    spec = {"ps": [f"localhost:{free_port()}"], "worker": [f"localhost:{free_port()}"]}
    ps = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--ps",
                           json.dumps(spec)], env=dict(os.environ, **_QUIET),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        server = tf.train.Server(tf.train.ClusterSpec(spec), job_name="worker", task_index=0)
        with seed_job(tf, server.target, batches) as one_round:
            print(json.dumps({"ready": True}), flush=True)
            for line in sys.stdin:
                if line.strip() == "round":
                    print(json.dumps({"ms_per_step": one_round()}), flush=True)
    finally:
        ps.kill()
        ps.wait()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf-python", help="a Python with tensorflow installed")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--ps", metavar="SPEC", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.ps:
        return _run_ps(json.loads(args.ps))
    if args.worker:
        return _run_worker(args.data_dir, args.steps)
    from bench.common import mnist_dir
    data_dir = mnist_dir(args.data_dir)
    if data_dir is None or not args.tf_python:
        print("Needs --tf-python and full MNIST (--data-dir or MNIST_DIR).")
        return 1
    print(f"TensorFlow seed job step, 1 ps + 1 worker: "
          f"{tf_step_ms(args.tf_python, data_dir, args.rounds, args.steps):.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
