"""What the programs of the corpus share: the command line, the choice of TensorFlow or the
sandbox, MNIST (or synthetic data) as NumPy arrays, the result line, and the launcher of a
cluster of tasks in subprocesses.

The programs of bench/corpus/ are TF-1 programs in the style of the public tutorials, each
runnable under TensorFlow (`python prog.py --tf`, with a Python that has TensorFlow: TF 2.x's
`tensorflow.compat.v1` or TF 1.15) or under the sandbox (`python prog.py --sandbox`). Both
runs read the same data: MNIST from --data_dir's four IDX .gz files, read here with NumPy alone
into the very arrays of sandbox/datasets/mnist.py (input_data's, bit for bit) without importing
the sandbox, which TensorFlow 1.15's Python 3.7 could not; or, without --data_dir, synthetic
digits drawn with a fixed seed. Each program ends by printing one JSON line: {"loss": ...,
"accuracy": ...} and a few facts.

This module runs under Python 3.7 too (TF 1.15's), so it uses nothing newer.
"""
import argparse
import gzip
import json
import os
import socket
import subprocess
import sys
import time

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args(description, steps, extra=None):
    """The corpus's command line: --tf | --sandbox, --data_dir, --steps, --seed, and the task
    flags of a cluster program (--job_name ... set by run_cluster)."""
    parser = argparse.ArgumentParser(description=description)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--tf", dest="framework", action="store_const", const="tf",
                       help="run under TensorFlow (tensorflow.compat.v1)")
    which.add_argument("--sandbox", dest="framework", action="store_const", const="sandbox",
                       help="run under the sandbox (import sandbox as tf)")
    parser.add_argument("--data_dir", default=None,
                        help="folder of MNIST's four IDX .gz files (default: synthetic data)")
    parser.add_argument("--steps", type=int, default=steps, help="training steps")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--job_name", default="", help="(cluster programs) ps or worker")
    parser.add_argument("--task_index", type=int, default=0)
    parser.add_argument("--ps_hosts", default="")
    parser.add_argument("--worker_hosts", default="")
    if extra:
        extra(parser)
    return parser.parse_args()


def import_tf(framework):
    """`tensorflow.compat.v1` (graph mode) or the sandbox, as the module a TF-1 program calls
    `tf`."""
    if framework == "tf":
        os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")     # tf.layers needs tf_keras in TF 2
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        tf.logging.set_verbosity(tf.logging.ERROR)
        return tf
    if REPO not in sys.path:
        sys.path.insert(0, REPO)
    import sandbox as tf
    return tf


def _idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * ndim).reshape(shape)


def load_mnist(data_dir, seed=0):
    """(train_x [N, 784] float32 in [0, 1], train_y [N] int64, test_x, test_y): MNIST from
    data_dir's IDX files, or 12,000 synthetic 28x28 'digits' (10 fixed random prototypes plus
    noise, from `seed`) when data_dir is None."""
    if data_dir:
        parts = [_idx(os.path.join(data_dir, name)) for name in (
            "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
            "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")]
        def scale(images):                 # as input_data's DataSet does it, to the bit
            return np.multiply(images.reshape(-1, 784).astype(np.float32), 1.0 / 255.0)
        return (scale(parts[0]), parts[1].astype(np.int64),
                scale(parts[2]), parts[3].astype(np.int64))
    rng = np.random.RandomState(seed)
    prototypes = (rng.rand(10, 784) < 0.2).astype(np.float32)
    labels = rng.randint(0, 10, size=12000).astype(np.int64)
    images = np.clip(prototypes[labels] + rng.normal(0, 0.35, (12000, 784)), 0, 1)
    images = images.astype(np.float32)
    return images[:10000], labels[:10000], images[10000:], labels[10000:]


def counting_bits(seed, length):
    """The bit-counting task of the RNN programs: (train_x [5000, length, 1] float32 bits,
    train_y [5000] int64 their number of ones, test_x [1000, ...], test_y), from `seed`."""
    rng = np.random.RandomState(seed)
    bits = rng.randint(0, 2, size=(6000, length, 1)).astype(np.float32)
    counts = bits.sum(axis=(1, 2)).astype(np.int64)
    return bits[:5000], counts[:5000], bits[5000:], counts[5000:]


def batches(n, batch_size, seed):
    """An endless stream of index arrays: a fresh permutation of range(n) every epoch."""
    rng = np.random.RandomState(seed)
    while True:
        order = rng.permutation(n // batch_size * batch_size)
        for batch in order.reshape(-1, batch_size):
            yield batch


def report(args, loss, accuracy, begin, **more):
    """Print the program's result line (the last line of its stdout)."""
    line = {"loss": float(loss), "accuracy": float(accuracy), "steps": args.steps,
            "framework": args.framework, "seconds": round(time.time() - begin, 2)}
    module = sys.modules.get("tensorflow") or sys.modules.get("sandbox")
    line["version"] = getattr(module, "__version__", None)
    line.update(more)
    print(json.dumps(line))
    sys.stdout.flush()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_cluster(script, args, num_ps=1, num_workers=2, timeout=600):
    """Run `script` as a cluster: num_ps ps tasks and num_workers workers, each in its own
    subprocess of this Python with the same --tf/--sandbox, --data_dir, --steps and --seed,
    and --job_name/--task_index/--ps_hosts/--worker_hosts set. The ps tasks serve until the
    workers are done (then they are ended here); worker 0's last stdout line (its result) is
    printed as this process's own. Returns worker 0's exit code (1 on a timeout)."""
    ports = [free_port() for _ in range(num_ps + num_workers)]
    ps_hosts = ",".join("localhost:%d" % p for p in ports[:num_ps])
    worker_hosts = ",".join("localhost:%d" % p for p in ports[num_ps:])
    common = [sys.executable, script, "--" + args.framework, "--steps", str(args.steps),
              "--seed", str(args.seed), "--ps_hosts", ps_hosts, "--worker_hosts", worker_hosts]
    if args.data_dir:
        common += ["--data_dir", args.data_dir]
    procs = {}
    try:
        for job, count in (("ps", num_ps), ("worker", num_workers)):
            for i in range(count):
                procs[(job, i)] = subprocess.Popen(
                    common + ["--job_name", job, "--task_index", str(i)],
                    stdout=subprocess.PIPE if (job, i) == ("worker", 0) else subprocess.DEVNULL,
                    universal_newlines=True)
        deadline = time.time() + timeout
        chief = procs[("worker", 0)]
        try:
            out, _ = chief.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            sys.stderr.write("TimeoutError: worker 0 did not finish in %d s\n" % timeout)
            return 1
        for i in range(1, num_workers):            # the other workers: a little longer
            try:
                procs[("worker", i)].wait(timeout=max(5.0, min(20.0, deadline - time.time())))
            except subprocess.TimeoutExpired:
                sys.stderr.write("worker %d still running after worker 0 ended: ended it\n" % i)
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if chief.returncode == 0 and lines:
            print(lines[-1])
            sys.stdout.flush()
        return chief.returncode or (0 if lines else 1)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
