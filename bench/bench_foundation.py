"""Benchmarks of the foundation (issue 2), one table, ratios measured in the same run:

  * seed network + AdamOptimizer(1e-3), batch 100, 2 epochs on full MNIST: test accuracy >= 0.80
  * ms per training step, local Session vs a hand-written NumPy forward/backward/update of the
    same network (same batches, interleaved rounds, medians): ratio <= 1.5 (stretch 1.2)
  * `import sandbox` in a fresh interpreter: <= 0.3 s (median of 7)
  * whole-script wall time vs TensorFlow (bar: no slower), with `--tf-python PY` (a Python
    that has TensorFlow): bench/seed_local_adam.py, the seed network trained with Adam for 2
    epochs, run under the sandbox and under TensorFlow in turns, each run timed from
    interpreter start to exit (medians)

Run: `make bench` or `.venv/bin/python bench/bench_foundation.py [--data-dir DIR]
[--tf-python PY]`.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
from bench.common import REPO, median, mnist_dir, print_table  # noqa: E402


def numpy_step(params, x, y_, lr):
    """The seed network's step written by hand: forward, backward, SGD update (float32)."""
    w1, b1, w2, b2 = params
    x, y_ = np.asarray(x, np.float32), np.asarray(y_, np.float32)   # as the placeholders do
    z2 = x @ w1 + b1
    a2 = 1.0 / (1.0 + np.exp(-z2))
    z3 = a2 @ w2 + b2
    e = np.exp(z3 - z3.max(axis=1, keepdims=True))
    y = e / e.sum(axis=1, keepdims=True)
    loss = np.mean(-np.sum(y_ * np.log(y), axis=1))
    dy = -(y_ / y) / x.shape[0]
    dz3 = y * (dy - np.sum(dy * y, axis=1, keepdims=True))
    dw2 = a2.T @ dz3
    db2 = dz3.sum(axis=0)
    dz2 = (dz3 @ w2.T) * a2 * (1.0 - a2)
    dw1 = x.T @ dz2
    db1 = dz2.sum(axis=0)
    params[0] = w1 - lr * dw1
    params[1] = b1 - lr * db1
    params[2] = w2 - lr * dw2
    params[3] = b2 - lr * db2
    return loss


def bench_step_time(mnist, rounds=7, steps=300):
    import sandbox as tf
    from sandbox.experiments import build_seed_model
    model = build_seed_model("sgd", 0.001)
    batches = [mnist.train.next_batch(100) for _ in range(steps)]
    rng = np.random.default_rng(1)
    params = [rng.standard_normal((784, 100)).astype(np.float32), np.zeros(100, np.float32),
              rng.standard_normal((100, 10)).astype(np.float32), np.zeros(10, np.float32)]
    sandbox_ms, numpy_ms = [], []
    with tf.Session(graph=model.graph) as sess:
        sess.run(model.init_op)
        fetch = [model.train_op, model.cross_entropy]
        for bx, by in batches[:20]:                       # warm-up: plans are built once
            sess.run(fetch, {model.x: bx, model.y_: by})
            numpy_step(params, bx, by, 0.001)
        for _ in range(rounds):
            t = time.perf_counter()
            for bx, by in batches:
                sess.run(fetch, {model.x: bx, model.y_: by})
            sandbox_ms.append(1000 * (time.perf_counter() - t) / steps)
            t = time.perf_counter()
            for bx, by in batches:
                numpy_step(params, bx, by, 0.001)
            numpy_ms.append(1000 * (time.perf_counter() - t) / steps)
    return median(sandbox_ms), median(numpy_ms)


def bench_whole_script(tf_python, mnist, turns=3, epochs=2):
    """bench/seed_local_adam.py under the sandbox and under TensorFlow (`tf_python`), in
    `turns` alternating runs. Returns, per framework, the medians of the whole run's wall time
    (interpreter start to exit, imports included) and of the time after the imports (data,
    graph, training, test), and the last run's test accuracy."""
    from bench.tf_seed_baseline import as_tensorflow
    script = REPO / "bench" / "seed_local_adam.py"
    runs = {"sandbox": [], "TensorFlow": []}
    with tempfile.TemporaryDirectory(prefix="sandbox-whole-script-") as folder:
        data = os.path.join(folder, "mnist.npz")
        np.savez(data, train_images=mnist.train.images, train_labels=mnist.train.labels,
                 test_images=mnist.test.images, test_labels=mnist.test.labels)
        tf_script = os.path.join(folder, "seed_local_adam_tf.py")
        with open(tf_script, "w") as f:
            f.write(as_tensorflow(script.read_text(), "bench/seed_local_adam.py"))
        env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="3")
        for _ in range(turns):
            for name, command in (("sandbox", [sys.executable, str(script)]),
                                  ("TensorFlow", [tf_python, tf_script])):
                start = time.perf_counter()
                done = subprocess.run([*command, data, str(epochs)], env=env, text=True,
                                      capture_output=True, timeout=1800)
                wall = time.perf_counter() - start
                found = re.search(r"Test-Accuracy: ([\d.]+)\s+Training Time: ([\d.]+)s",
                                  done.stdout)
                if done.returncode or found is None:
                    raise RuntimeError(f"bench/seed_local_adam.py under {name} failed "
                                       f"(exit {done.returncode}):\n"
                                       f"{(done.stdout + done.stderr)[-2000:]}")
                runs[name].append((wall, float(found.group(2)), float(found.group(1))))
    return {name: (median([r[0] for r in rs]), median([r[1] for r in rs]), rs[-1][2])
            for name, rs in runs.items()}


def whole_script_rows(tf_python, mnist):
    """The table's rows for the whole-script comparison (one row saying how to get it
    without `tf_python`)."""
    if not tf_python:
        return [dict(metric="whole script vs TensorFlow (s)", sandbox="-",
                     baseline="pass --tf-python PY (a Python with tensorflow)", ratio="-",
                     bar="<= 1.0", ok=None)]
    got = bench_whole_script(tf_python, mnist)
    (sb_wall, sb_after, sb_acc), (tf_wall, tf_after, tf_acc) = got["sandbox"], got["TensorFlow"]
    return [dict(metric="whole script vs TensorFlow (s): seed_local_adam.py",
                 sandbox=f"{sb_wall:.2f}", baseline=f"{tf_wall:.2f} (TF, this run)",
                 ratio=f"{sb_wall / tf_wall:.2f}", bar="<= 1.0", ok=sb_wall <= tf_wall),
            dict(metric="  of which after the imports (s)", sandbox=f"{sb_after:.2f}",
                 baseline=f"{tf_after:.2f} (TF)", ratio=f"{sb_after / tf_after:.2f}",
                 bar="-", ok=None),
            dict(metric="  its test accuracy", sandbox=f"{sb_acc:.4f}",
                 baseline=f"{tf_acc:.4f} (TF)", ratio="-", bar="-", ok=None)]


def bench_import(repeats=7):
    code = "import time; t = time.perf_counter(); import sandbox; print(time.perf_counter() - t)"
    times = [float(subprocess.check_output([sys.executable, "-c", code], text=True))
             for _ in range(repeats)]
    numpy_code = code.replace("sandbox", "numpy")
    numpy_times = [float(subprocess.check_output([sys.executable, "-c", numpy_code], text=True))
                   for _ in range(repeats)]
    return median(times), median(numpy_times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--tf-python", default=None,
                        help="a Python with tensorflow, for the whole-script comparison")
    args = parser.parse_args(argv)
    from sandbox.examples.tutorials.mnist import input_data
    from sandbox.experiments import train_locally

    data_dir = mnist_dir(args.data_dir)
    if data_dir is None:
        print("Full MNIST not found (pass --data-dir or set MNIST_DIR); the accuracy bar needs it.")
        return 1
    mnist = input_data.read_data_sets(data_dir, one_hot=True, seed=0)
    rows = []

    imp, imp_np = bench_import()
    rows.append(dict(metric="import sandbox (s)", sandbox=f"{imp:.3f}",
                     baseline=f"{imp_np:.3f} (import numpy)", ratio=f"{imp / imp_np:.2f}",
                     bar="<= 0.3 s", ok=imp <= 0.3))

    sb, npy = bench_step_time(mnist, rounds=3 if args.quick else 7)
    rows.append(dict(metric="seed step, batch 100 (ms)", sandbox=f"{sb:.3f}",
                     baseline=f"{npy:.3f} (hand NumPy)", ratio=f"{sb / npy:.2f}",
                     bar="ratio <= 1.5 (stretch 1.2)", ok=sb / npy <= 1.5))

    adam = train_locally(mnist, epochs=2, optimizer="adam", learning_rate=1e-3, progress=False)
    rows.append(dict(metric="Adam(1e-3) 2 epochs test acc", sandbox=f"{adam['test_accuracy']:.4f}",
                     baseline="0.845 (TF 2.21 compat.v1)", ratio="-", bar=">= 0.80",
                     ok=adam["test_accuracy"] >= 0.80))
    rows += whole_script_rows(args.tf_python, mnist)

    print_table("Foundation benchmarks (medians; this machine: "
                f"{os.cpu_count()} cores)", rows)
    return 0 if all(r["ok"] in (True, None) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
