"""Seed 002 under real TensorFlow, on this machine, in this run -- a baseline for the training
benchmark (optional: TensorFlow is not a dependency of the sandbox).

The program is the seed itself, bench/seed_002_mnist.py (lesson 7 teaches from it), with its
one sandbox line `import sandbox as tf` turned back into `import tensorflow.compat.v1 as tf` (plus
`tf.disable_eager_execution()`). It runs as the seed runs: one ps process and N worker
processes on free ports of localhost, the ps killed when the workers are done. Each worker
prints "Test-Accuracy: 0.66"; the baseline is their mean.

`lesson_accuracies` runs the very same file under the sandbox too (its import left as it is):
the training benchmark puts both side by side, so that the comparison is program for program,
TensorFlow's Supervisor against the sandbox's (bench/bench_training.py).

    python bench/tf_seed_baseline.py --tf-python /path/to/venv-with-tensorflow/bin/python
    python bench/tf_seed_baseline.py --tf-python PY --sandbox     (also the sandbox's run)
"""
import argparse
import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import REPO, each_worker, free_port, mnist_dir  # noqa: E402

__all__ = ["tf_seed_accuracies", "lesson_accuracies", "as_tensorflow"]

_SANDBOX_IMPORT = "import sandbox as tf\n"
_TF_IMPORT = "import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\n"


def as_tensorflow(source, name):
    """The program `source` (file `name`) with its sandbox import turned into TensorFlow's."""
    if _SANDBOX_IMPORT not in source:
        raise RuntimeError(f"{name} no longer has the line {_SANDBOX_IMPORT.strip()!r} to swap "
                           "for TensorFlow's import")
    return source.replace(_SANDBOX_IMPORT, _TF_IMPORT, 1)


def tf_seed_accuracies(tf_python, data_dir, workers, epochs=20, timeout=None):
    """Test accuracy of each worker of seed 002 run with TensorFlow by `tf_python`."""
    return lesson_accuracies(tf_python, data_dir, workers, epochs, tensorflow=True,
                             timeout=timeout)


def lesson_accuracies(python, data_dir, workers, epochs=20, tensorflow=False, timeout=None):
    """Test accuracy of each worker (task 0 first) of bench/seed_002_mnist.py run by `python`
    as one ps and `workers` worker processes: the lesson as it is (the sandbox), or with
    TensorFlow's import in place of the sandbox's (`tensorflow=True`) -- the same program
    either way. The workers' accuracies differ when they trained for different spans of the
    run: under TensorFlow, a non-chief worker that finds the model not yet initialized sleeps
    30 s (SessionManager's recovery_wait_secs) while the chief trains alone."""
    source = (REPO / "bench" / "seed_002_mnist.py").read_text()
    framework = "TensorFlow" if tensorflow else "the sandbox"
    timeout = timeout or 300 + 30 * epochs * workers
    with tempfile.TemporaryDirectory(prefix="sandbox-seed-program-") as folder:
        program = Path(folder) / "seed_002.py"
        if tensorflow:
            source = as_tensorflow(source, "bench/seed_002_mnist.py")
        program.write_text(source)
        ports = [free_port() for _ in range(workers + 1)]
        common = [f"--ps_hosts=localhost:{ports[0]}",
                  "--worker_hosts=" + ",".join(f"localhost:{p}" for p in ports[1:]),
                  f"--data_dir={data_dir}", f"--training_epochs={epochs}"]
        # the lesson reads MNIST with the sandbox's input_data (NumPy only); the sandbox's
        # tasks started from the command line share the cluster's secret through the
        # environment (sandbox/runtime/cluster_secret.py)
        env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="3",
                   SANDBOX_CLUSTER_SECRET=secrets.token_hex(24))
        ps = subprocess.Popen([python, str(program), "--job_name=ps", "--task_index=0",
                               *common], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        procs = []
        try:
            for index in range(workers):
                procs.append(subprocess.Popen(
                    [python, str(program), "--job_name=worker", f"--task_index={index}",
                     *common, f"--logs_path={folder}/logs{index}"], env=env,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
            deadline = time.monotonic() + timeout
            try:
                outputs = [p.communicate(timeout=max(1.0, deadline - time.monotonic()))
                           for p in procs]
            except subprocess.TimeoutExpired:
                why = (" (TensorFlow's non-chief workers check every 30 s whether the model "
                       "is ready, then wait for EVERY worker to answer: in a short run the "
                       "chief may already have left, and they wait for ever.)"
                       if tensorflow else "")
                raise RuntimeError(f"{framework}'s seed 002 with {workers} workers did not "
                                   f"finish within {timeout} s; stopped it.{why}") from None
        finally:
            for p in [ps, *procs]:
                if p.poll() is None:
                    p.kill()
                p.wait()
    accuracies = []
    for index, (out, err) in enumerate(outputs):
        found = re.search(r"Test-Accuracy: ([\d.]+)", out)
        if found is None:
            raise RuntimeError(f"{framework}'s worker {index} printed no test accuracy; its "
                               f"last output:\n{(out + err)[-2000:]}")
        accuracies.append(float(found.group(1)))
    return accuracies


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf-python", required=True, help="a Python with tensorflow installed")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--workers", default="1,2,3")
    parser.add_argument("--sandbox", action="store_true",
                        help="also run the lesson under the sandbox (this Python)")
    args = parser.parse_args(argv)
    data_dir = mnist_dir(args.data_dir)
    if data_dir is None:
        print("Full MNIST not found (pass --data-dir or set MNIST_DIR).")
        return 1
    runs = [("TensorFlow", args.tf_python, True)] + \
        ([("Sandbox", sys.executable, False)] if args.sandbox else [])
    for n in (int(w) for w in args.workers.split(",")):
        for name, python, tensorflow in runs:
            accs = lesson_accuracies(python, data_dir, n, args.epochs, tensorflow=tensorflow)
            print(f"{name} seed 002 async x{n}, {args.epochs} epochs: mean test accuracy "
                  f"{each_worker(accs)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
