"""The corpus: TF-1 programs in the style of the public tutorials, run under the sandbox and
under TensorFlow on the same data, program for program (issue 27).

Each program of bench/corpus/ (tf.layers MLP and CNN, a tf.data pipeline, an Estimator with
train_and_evaluate, between-graph replication async and sync on a cluster of processes, a
queue-fed CSV reader, an LSTM on a toy sequence task, a tf.keras Sequential MLP, a premade
DNNClassifier, an RNN unrolled by hand with tf.while_loop and tf.TensorArray, a bidirectional
LSTM over MNIST's rows, "multi-GPU" towers averaging their gradients, word2vec with NCE, the
CIFAR-10 tutorial's model and tf.image distortions in a tf.data map) is one file that
runs under either (`--sandbox` or `--tf`) and ends with a JSON line {"loss": ...,
"accuracy": ...}. This script runs each twice -- under this Python with `import sandbox as
tf`, and under a Python that has TensorFlow -- with the same steps, seed and data, and prints
one table: each side's loss and accuracy, their difference, and whether the sandbox's run
worked at all; a run that failed shows the first line of its error instead of numbers (the run
of the table goes on).

    python bench/bench_corpus.py [--data-dir DIR] [--quick] [--tf-python PY] [--tf115-python PY]
                                 [--only NAME ...] [--json FILE]

TensorFlow: --tf-python (or $TF_PYTHON) is a Python with TensorFlow 2.x (its
tensorflow.compat.v1; tf.layers there needs Keras 2: the tf_keras package, which the programs
switch on with TF_USE_LEGACY_KERAS=1 -- or, up to TF 2.15, its own keras 2.x, used when that
Python has no tf_keras) or 1.15. tf.estimator left TensorFlow in 2.16, so the Estimator programs
run under --tf-python when its TensorFlow still has tf.estimator (asked once), else under
--tf115-python (or $TF115_PYTHON) when given. Without any, the TensorFlow columns say so and
only the sandbox runs. MNIST: --data-dir, $MNIST_DIR or ../shared/data/mnist
(bench/common.py); without it the MNIST programs train on synthetic digits, both sides alike.

The budget: a few hundred steps a program (--quick: about a third), the whole table in
under ~10 minutes on 2 cores when both sides work.
"""
import argparse
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from bench.common import REPO, mnist_dir  # noqa: E402

CORPUS = REPO / "bench" / "corpus"

# (program, steps, --quick steps, needs tf.estimator, uses MNIST)
PROGRAMS = [
    ("mnist_mlp_layers", 300, 100, False, True),
    ("mnist_cnn_layers", 100, 30, False, True),
    ("mnist_tfdata", 300, 100, False, True),
    ("estimator_train_and_evaluate", 300, 100, True, True),
    ("between_graph_async", 300, 100, False, True),
    ("between_graph_sync", 300, 100, False, True),
    ("queue_input", 300, 100, False, False),
    ("lstm_toy", 300, 100, False, False),
    ("keras_mnist_mlp", 300, 100, False, True),
    ("premade_estimator", 300, 100, True, True),
    ("tensor_array_rnn", 300, 100, False, False),
    ("mnist_birnn", 100, 30, False, True),
    ("mnist_towers", 60, 20, False, True),
    ("word2vec_nce", 1500, 500, False, False),
    ("cifar_augment", 60, 20, False, False),
]

_ERROR_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning)\b.*")


def failure_reason(stderr, returncode):
    """The first line of the error a failed run ended with: the exception line of its last
    traceback (e.g. "AttributeError: module 'sandbox.layers' has no attribute 'dense'"), else
    its last line of stderr, else its exit code."""
    lines = [line.rstrip() for line in stderr.splitlines() if line.strip()]
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith("Traceback (most recent call last)"):
            after = [line for line in lines[i + 1:] if not line.startswith(" ")]
            errors = [line for line in after if _ERROR_LINE.match(line)]
            if errors:
                return errors[0]
            if after:
                return after[0]
    errors = [line for line in lines if _ERROR_LINE.match(line) and "Warning" not in line]
    if errors:
        return errors[-1]
    return lines[-1] if lines else "exit code %d" % returncode


_PROBE = """
import importlib.util, os
legacy = importlib.util.find_spec("tf_keras") is not None
os.environ.update(TF_USE_LEGACY_KERAS="1" if legacy else "0", TF_CPP_MIN_LOG_LEVEL="3")
try:
    import tensorflow.compat.v1 as tf
    tf.estimator.Estimator
    estimator = True
except Exception:
    estimator = False
print(int(legacy), int(estimator))
"""
_FACTS = {}


def python_facts(python):
    """What a TensorFlow Python has, asked once: {"tf_keras": bool, "estimator": bool} (both
    False when the probe fails)."""
    if python not in _FACTS:
        try:
            out = subprocess.run([python, "-c", _PROBE], capture_output=True, text=True,
                                 timeout=120, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
            legacy, estimator = out.stdout.split()[-2:]
            _FACTS[python] = {"tf_keras": legacy == "1", "estimator": estimator == "1"}
        except (OSError, ValueError, subprocess.TimeoutExpired):
            _FACTS[python] = {"tf_keras": False, "estimator": False}
    return _FACTS[python]


def run_program(python, name, framework, steps, data_dir, timeout):
    """One run: {"ok": bool, "loss", "accuracy", "seconds", "error", ...} -- never raises."""
    command = [python, str(CORPUS / (name + ".py")), "--" + framework, "--steps", str(steps)]
    if data_dir:
        command += ["--data_dir", data_dir]
    # TF_USE_LEGACY_KERAS=1 routes TF 2.x's tf.keras (and so tf.layers) to tf_keras; where the
    # TensorFlow Python has none, "0" keeps its own keras (2.x up to TF 2.15).
    legacy = framework != "tf" or python_facts(python)["tf_keras"]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_USE_LEGACY_KERAS="1" if legacy else "0",
               PYTHONUNBUFFERED="1")
    begin = time.perf_counter()
    try:       # its own process group: a cluster program's tasks are ended with it
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env, cwd=str(REPO), start_new_session=True)
    except OSError as e:
        return {"ok": False, "error": "cannot start %s: %s" % (python, e), "seconds": 0.0}
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"ok": False, "error": "timed out after %d s" % timeout, "seconds": timeout}
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)     # whatever the program left running
        except ProcessLookupError:
            pass
    seconds = time.perf_counter() - begin
    results = [line for line in stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not results:
        return {"ok": False, "seconds": seconds,
                "error": failure_reason(stderr, proc.returncode)}
    try:
        result = json.loads(results[-1])
    except ValueError:
        return {"ok": False, "seconds": seconds, "error": "bad result line: " + results[-1]}
    result.update(ok=True, seconds=seconds)
    return result


def _num(value, digits=3):
    return "-" if value is None else "%.*f" % (digits, value)


def rows_of(results):
    """The table's rows: one per program, its cells as strings."""
    rows = []
    for name, (sandbox, tf) in results.items():
        s_ok, t_ok = sandbox.get("ok"), tf is not None and tf.get("ok")
        diff_acc = sandbox["accuracy"] - tf["accuracy"] if s_ok and t_ok else None
        diff_loss = sandbox["loss"] - tf["loss"] if s_ok and t_ok else None
        if tf is None:
            tf_note = "no TensorFlow Python given"
        elif t_ok:
            tf_note = ""
        else:
            tf_note = "TF failed: " + tf["error"]
        rows.append({
            "program": name,
            "sandbox": "ok" if s_ok else "FAILED",
            "sb loss": _num(sandbox.get("loss")) if s_ok else "-",
            "sb acc": _num(sandbox.get("accuracy")) if s_ok else "-",
            "sb s": "%.0f" % sandbox["seconds"],
            "tf loss": _num(tf.get("loss")) if t_ok else "-",
            "tf acc": _num(tf.get("accuracy")) if t_ok else "-",
            "tf s": "%.0f" % tf["seconds"] if tf is not None else "-",
            "TF": str(tf.get("version") or "-") if t_ok else "-",
            "d acc": "%+.3f" % diff_acc if diff_acc is not None else "-",
            "d loss": "%+.3f" % diff_loss if diff_loss is not None else "-",
            "why / note": ("" if s_ok else sandbox["error"][:110])
            + ("; " if tf_note and not s_ok else "") + tf_note[:60],
        })
    return rows


def print_rows(title, rows):
    headers = list(rows[0]) if rows else []
    widths = [max(len(h), *(len(r[h]) for r in rows)) for h in headers]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    print("\n%s\n%s\n%s" % (title, line.rstrip(), "-" * len(line.rstrip())))
    for r in rows:
        print("  ".join(r[h].ljust(w) for h, w in zip(headers, widths)).rstrip())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None, help="MNIST's four IDX .gz files")
    parser.add_argument("--quick", action="store_true", help="about a third of the steps")
    parser.add_argument("--tf-python", default=os.environ.get("TF_PYTHON"),
                        help="a Python with TensorFlow (default $TF_PYTHON)")
    parser.add_argument("--tf115-python", default=os.environ.get("TF115_PYTHON"),
                        help="a Python with TensorFlow 1.15, for tf.estimator "
                             "(default $TF115_PYTHON)")
    parser.add_argument("--only", nargs="*", default=None, help="programs to run")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds a run may take (default 300, --quick 150)")
    parser.add_argument("--json", default=None, help="also write the results here")
    args = parser.parse_args(argv)
    data = mnist_dir(args.data_dir)
    timeout = args.timeout or (150 if args.quick else 300)
    results = {}
    begin = time.perf_counter()
    for name, steps, quick_steps, estimator, mnist in PROGRAMS:
        if args.only and name not in args.only:
            continue
        steps = quick_steps if args.quick else steps
        data_dir = data if mnist else None
        print("%s: sandbox ..." % name, end=" ", flush=True)
        sandbox = run_program(sys.executable, name, "sandbox", steps, data_dir, timeout)
        print("ok" if sandbox["ok"] else "failed", end=", ", flush=True)
        tf_python = args.tf_python
        if estimator and args.tf115_python and not (
                args.tf_python and python_facts(args.tf_python)["estimator"]):
            tf_python = args.tf115_python
        tf = None
        if tf_python:
            print("TensorFlow ...", end=" ", flush=True)
            tf = run_program(tf_python, name, "tf", steps, data_dir, timeout)
            print("ok" if tf["ok"] else "failed", end="", flush=True)
        print(flush=True)
        results[name] = (sandbox, tf)
    rows = rows_of(results)
    worked = sum(1 for s, _ in results.values() if s["ok"])
    print_rows("The corpus under the sandbox and TensorFlow (%s steps, %s; %s): sandbox ran %d "
               "of %d programs, in %.0f s" % (
                   "quick" if args.quick else "full",
                   "MNIST from " + data if data else "synthetic digits",
                   "TF from " + args.tf_python if args.tf_python else "no TensorFlow",
                   worked, len(results), time.perf_counter() - begin), rows)
    print("(loss: the last training batch's, but the Estimators': their evaluation loss on the "
          "test set; accuracy: on the test set; d = sandbox - TensorFlow)")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {name: {"sandbox": s, "tf": t} for name, (s, t) in results.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
