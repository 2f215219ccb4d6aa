"""The seed job's training step under real TensorFlow's gRPC runtime, on this machine, in this
run -- the baseline of the step benchmark (optional: TensorFlow is not a dependency).

The job and its layout are bench_cluster.bench_step's: 1 ps + 1 worker, between-graph, async
GradientDescent, batch 100; the ps is its own process (a tf.train.Server that joins), this
process holds the worker's server and the client, as each worker of seed 002 does. Prints
one line of JSON: {"ms_per_step": median over the rounds}.

    python bench/tf_step_baseline.py --tf-python /path/to/venv-with-tensorflow/bin/python
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

__all__ = ["tf_step_ms"]

_QUIET = dict(TF_CPP_MIN_LOG_LEVEL="3")


def tf_step_ms(tf_python, data_dir, rounds=3, steps=300, timeout=900):
    """Milliseconds per step of the seed job under TensorFlow run by `tf_python`."""
    from bench.common import REPO
    done = subprocess.run([tf_python, str(Path(__file__).resolve()), "--worker",
                           "--data-dir", str(data_dir), "--rounds", str(rounds),
                           "--steps", str(steps)], cwd=str(REPO), capture_output=True,
                          text=True, timeout=timeout,
                          env=dict(os.environ, PYTHONPATH=str(REPO), **_QUIET))
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)["ms_per_step"]
    raise RuntimeError(f"TensorFlow's step benchmark printed no result (exit "
                       f"{done.returncode}); its last output:\n{(done.stdout + done.stderr)[-2000:]}")


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


def _run_worker(data_dir, rounds, steps):
    from bench.bench_cluster import seed_job_rounds
    from bench.common import free_port, median
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
        times = seed_job_rounds(tf, server.target, batches, rounds)
        print(json.dumps({"ms_per_step": median(times), "rounds": times}), flush=True)
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
        return _run_worker(args.data_dir, args.rounds, args.steps)
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
