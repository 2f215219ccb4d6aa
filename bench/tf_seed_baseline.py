"""Seed 002 under real TensorFlow, on this machine, in this run -- a baseline for the training
benchmark (optional: TensorFlow is not a dependency of the sandbox).

The program is the lesson itself, lessons/seed_002_mnist.py, with its one sandbox line
`import sandbox as tf` turned back into `import tensorflow.compat.v1 as tf` (plus
`tf.disable_eager_execution()`). It runs as the seed runs: one ps process and N worker
processes on free ports of localhost, the ps killed when the workers are done. Each worker
prints "Test-Accuracy: 0.66"; the baseline is their mean.

    python bench/tf_seed_baseline.py --tf-python /path/to/venv-with-tensorflow/bin/python
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import REPO, free_port, mnist_dir  # noqa: E402

__all__ = ["tf_seed_accuracy"]

_SANDBOX_IMPORT = "import sandbox as tf\n"
_TF_IMPORT = "import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\n"


def tf_seed_accuracy(tf_python, data_dir, workers, epochs=20, timeout=3600):
    """Mean test accuracy of the workers of seed 002 run with TensorFlow by `tf_python`."""
    source = (REPO / "lessons" / "seed_002_mnist.py").read_text()
    if _SANDBOX_IMPORT not in source:
        raise RuntimeError("lessons/seed_002_mnist.py no longer has the line "
                           f"{_SANDBOX_IMPORT.strip()!r} to swap for TensorFlow's import")
    with tempfile.TemporaryDirectory(prefix="sandbox-tf-seed-") as folder:
        program = Path(folder) / "seed_002_tensorflow.py"
        program.write_text(source.replace(_SANDBOX_IMPORT, _TF_IMPORT, 1))
        ports = [free_port() for _ in range(workers + 1)]
        common = [f"--ps_hosts=localhost:{ports[0]}",
                  "--worker_hosts=" + ",".join(f"localhost:{p}" for p in ports[1:]),
                  f"--data_dir={data_dir}", f"--training_epochs={epochs}"]
        # the lesson reads MNIST with the sandbox's input_data (NumPy only)
        env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="3")
        ps = subprocess.Popen([tf_python, str(program), "--job_name=ps", "--task_index=0",
                               *common], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        procs = []
        try:
            for index in range(workers):
                procs.append(subprocess.Popen(
                    [tf_python, str(program), "--job_name=worker", f"--task_index={index}",
                     *common, f"--logs_path={folder}/logs{index}"], env=env,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
            outputs = [p.communicate(timeout=timeout) for p in procs]
        finally:
            for p in [ps, *procs]:
                if p.poll() is None:
                    p.kill()
                p.wait()
    accuracies = []
    for index, (out, err) in enumerate(outputs):
        found = re.search(r"Test-Accuracy: ([\d.]+)", out)
        if found is None:
            raise RuntimeError(f"TensorFlow's worker {index} printed no test accuracy; its "
                               f"last output:\n{(out + err)[-2000:]}")
        accuracies.append(float(found.group(1)))
    return sum(accuracies) / len(accuracies)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf-python", required=True, help="a Python with tensorflow installed")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--workers", default="1,2,3")
    args = parser.parse_args(argv)
    data_dir = mnist_dir(args.data_dir)
    if data_dir is None:
        print("Full MNIST not found (pass --data-dir or set MNIST_DIR).")
        return 1
    for n in (int(w) for w in args.workers.split(",")):
        print(f"TensorFlow seed 002 async x{n}, {args.epochs} epochs: mean test accuracy "
              f"{tf_seed_accuracy(args.tf_python, data_dir, n, args.epochs):.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
