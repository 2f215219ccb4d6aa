"""Benchmarks of training on the cluster (issue 4), one table:

  * seed 002's table on full MNIST (20 epochs, sigmoid 784-100-10, GradientDescent 0.001,
    batch 100, async): mean test accuracy of the workers with 1, 2 and 3 workers, against
    TensorFlow 2.21 compat.v1's figures for the same program on this machine class (0.456,
    0.598, 0.59; bar: within 0.05) -- seed 002's README reports 0.42, 0.58, 0.65; with
    `--tf-python PY` (a Python that has tensorflow) also against the same program run under
    TensorFlow on this machine in this run, and the lesson file itself under the sandbox
  * sync with 3 workers, replicas_to_aggregate=3, StopAtStepHook: every worker exits,
    global_step == rounds, and a sync round's time vs an async step's (bar: <= 1.5x)
  * a ps killed (between two checkpoints) and restarted under MonitoredTrainingSession:
    training resumes from the last checkpoint, steps lost <= one checkpoint interval

Run: `make bench`, or `.venv/bin/python bench/bench_training.py [--epochs N] [--quick]`.
"""
import argparse
import os
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
from bench.common import (CpuSampler, cpu_ticks, each_worker, median, mnist_dir,  # noqa: E402
                          print_table, steal_row, stolen_share)

TF_TABLE = {1: 0.456, 2: 0.598, 3: 0.59}
SEED_TABLE = {1: 0.42, 2: 0.58, 3: 0.65}


def seed_table(mnist, epochs, tf_python=None, data_dir=None):
    """The sandbox's seed 002 table; with `tf_python` (a Python that has TensorFlow) also the
    same program under TensorFlow on this machine, in this run (bench/tf_seed_baseline.py).
    Each worker's accuracy is shown too: TensorFlow's chief often ends below the others,
    because its non-chief workers sleep 30 s before their second readiness check while the
    chief trains alone (the sandbox's check every half second: sandbox/train/session_manager.py);
    in the sandbox the workers start together and end alike."""
    from sandbox.experiments import Experiment
    rows = []
    for workers in (1, 2, 3):
        exp = Experiment(mode="async", workers=workers, mnist=mnist, epochs=epochs,
                         learning_rate=0.001, eval_every=10 ** 9)
        start = time.time()
        summary = exp.wait()
        seconds = time.time() - start
        acc = summary["test_accuracy"]
        accs = [exp.final_accuracy[i] for i in sorted(exp.final_accuracy)]
        rows.append(dict(metric=f"seed 002 async x{workers}, {epochs} epochs: test acc",
                         sandbox=each_worker(accs),
                         baseline=f"{TF_TABLE[workers]:.3f} TF (seed: {SEED_TABLE[workers]})",
                         ratio=f"{acc - TF_TABLE[workers]:+.3f}", bar="|diff| <= 0.05",
                         ok=abs(acc - TF_TABLE[workers]) <= 0.05 if epochs == 20 else None,
                         seconds=seconds))
        if tf_python:
            rows += _program_rows(acc, tf_python, data_dir, workers, epochs)
    return rows


def _program_rows(acc, tf_python, data_dir, workers, epochs):
    """The same program under TensorFlow on this machine, now, against the sandbox's figure
    `acc`; then program for program: the lesson file itself (Supervisor and all) under the
    sandbox. TensorFlow's own run may fail (its gRPC runtime sometimes aborts a step with "The
    same RunGraph request was received twice" on this loaded machine): it is tried twice,
    then its row says what happened."""
    from bench.tf_seed_baseline import lesson_accuracies, tf_seed_accuracies
    failure = None
    for _ in range(2):
        try:
            tf_accs = tf_seed_accuracies(tf_python, data_dir, workers, epochs)
            tf_acc = statistics.mean(tf_accs)
            break
        except RuntimeError as e:
            lines = [line for line in str(e).splitlines() if line.strip()]
            failure = " ... ".join(dict.fromkeys([lines[0], lines[-1][:120]]))
    else:
        return [dict(metric="  the same program under TensorFlow, this machine, now",
                     sandbox=f"{acc:.3f}", baseline=f"TF failed twice: {failure}", ratio="-",
                     bar="|diff| <= 0.05", ok=None)]
    lesson_accs = lesson_accuracies(sys.executable, data_dir, workers, epochs)
    lesson_acc = statistics.mean(lesson_accs)
    tf_figure = f"{each_worker(tf_accs)} TF (this run)"
    return [dict(metric="  the same program under TensorFlow, this machine, now",
                 sandbox=f"{acc:.3f}", baseline=tf_figure,
                 ratio=f"{acc - tf_acc:+.3f}", bar="|diff| <= 0.05",
                 ok=abs(acc - tf_acc) <= 0.05),
            dict(metric="  bench/seed_002_mnist.py itself, sandbox vs TF",
                 sandbox=each_worker(lesson_accs), baseline=tf_figure,
                 ratio=f"{lesson_acc - tf_acc:+.3f}", bar="|diff| <= 0.05",
                 ok=abs(lesson_acc - tf_acc) <= 0.05)]


def steady(exp, per_global_step, sampler):
    """Milliseconds per global step and the machine's cpu_use() (None if unknown; `sampler`,
    a CpuSampler, watched the run) in the steady part of Experiment `exp`: from the record
    where global_step first reaches 10 % of its final value to the last record (start-up --
    building graphs, creating sessions, initializing -- is not a step's time)."""
    records = sorted(exp.records, key=lambda r: r["time"])
    final = max(r["global_step"] for r in records)
    first = next(r for r in records if r["global_step"] >= 0.1 * final)
    last = records[-1]
    ms = 1000 * per_global_step * (last["time"] - first["time"]) / \
        (last["global_step"] - first["global_step"])
    return ms, sampler.use(exp.started + first["time"], exp.started + last["time"])


def sync_round(mnist, epochs=1, rounds=9):
    """Sync x3 (replicas_to_aggregate=3) against async x3, `epochs` each, run in turns
    `rounds` times so that both see the same machine; the ratio of each turn, median.
    An async worker step is 3 global steps of the cluster (3 workers); a sync round is one.
    Many short turns rather than a few long ones: this machine's speed changes from one
    minute to the next (an async step measured 5.9-11.0 ms in five 2-epoch turns), and the
    closer together the two runs of a turn, the more alike the machine they see.

    Two informative rows say where a round's extra time goes, from the machine's CPU
    counters during each run's steady part: the share of CPU time left idle (in sync, cores
    wait at the barrier: for the last gradient, the update, the tokens) and the CPU time
    spent per 3 gradients (a round against 3 async steps: the accumulators, the queue runner's
    step and the tokens cost CPU too, and so does waking up after every wait)."""
    from sandbox.experiments import Experiment
    ratios, first, stolen, use = [], None, [], {"async": [], "sync": []}
    cores = os.cpu_count()
    with CpuSampler() as sampler:
        for _ in range(rounds):
            before = cpu_ticks()
            exp = Experiment(mode="async", workers=3, mnist=mnist, epochs=epochs,
                             learning_rate=0.001, eval_every=10 ** 9)
            exp.wait(timeout=3600)
            async_ms, async_use = steady(exp, per_global_step=3, sampler=sampler)
            use["async"].append((async_ms, async_use))
            exp = Experiment(mode="sync", workers=3, replicas_to_aggregate=3, mnist=mnist,
                             epochs=epochs, learning_rate=0.001, eval_every=10 ** 9)
            start = time.time()
            summary = exp.wait(timeout=3600)
            left = time.time() - start
            round_ms, sync_use = steady(exp, per_global_step=1, sampler=sampler)
            use["sync"].append((round_ms, sync_use))
            ratios.append((round_ms / async_ms, round_ms, async_ms))
            stolen.append(stolen_share(before, cpu_ticks()))
            first = first or (summary["global_step"], left)
    ratio, round_ms, async_ms = sorted(ratios)[len(ratios) // 2]
    rounds_done, left = first
    expected = epochs * (mnist.train.num_examples // 100)
    return [dict(metric="sync x3 (3 of 3): all workers exit, global_step == rounds",
                 sandbox=f"{rounds_done} rounds, exited in {left:.0f}s",
                 baseline=f"{expected} rounds", ratio="-", bar="equal",
                 ok=rounds_done == expected),
            dict(metric=f"sync round vs async step, 3 workers (ms; median of {rounds} turns)",
                 sandbox=f"{round_ms:.2f}", baseline=f"{async_ms:.2f} (async, per worker step)",
                 ratio=f"{ratio:.2f} (turns: {', '.join(f'{r:.2f}' for r, _, _ in ratios)})",
                 bar="<= 1.5", ok=ratio <= 1.5),
            *cpu_rows(use, cores),
            steal_row(stolen, "the sync/async turns")]


def cpu_rows(use, cores):
    """The two informative rows of sync_round: idle share, and CPU ms per 3 gradients
    (medians over the turns; `use`: mode -> [(ms per 3 gradients, cpu_use or None)])."""
    known = {mode: [(ms, u) for ms, u in runs if u is not None] for mode, runs in use.items()}
    if not known["async"] or not known["sync"]:
        return []
    idle = {mode: median([u["idle"] for _, u in runs]) for mode, runs in known.items()}
    busy = {mode: median([ms * cores * u["busy"] for ms, u in runs])
            for mode, runs in known.items()}
    return [dict(metric="where it goes: CPU left idle in the steady part",
                 sandbox=f"{100 * idle['sync']:.0f}% (sync)",
                 baseline=f"{100 * idle['async']:.0f}% (async)",
                 ratio="cores waiting at the barrier", bar="-", ok=None),
            dict(metric="where it goes: CPU busy per 3 gradients (ms)",
                 sandbox=f"{busy['sync']:.2f} (a sync round)",
                 baseline=f"{busy['async']:.2f} (3 async steps)",
                 ratio=f"{busy['sync'] / busy['async']:.2f}", bar="-", ok=None)]


def ps_recovery(mnist, steps=600, kill_at=350, save_steps=100):
    """Chief trains with checkpoints every `save_steps`; the ps is killed at `kill_at` (between
    two checkpoints) and
    restarted; training resumes from the last checkpoint."""
    import sandbox as tf
    from sandbox.cluster import LocalCluster
    with tempfile.TemporaryDirectory(prefix="sandbox-recovery-") as logdir, \
            LocalCluster({"ps": 1, "worker": 1}) as cluster:
        graph = tf.Graph()
        with graph.as_default():
            with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:0",
                                                          cluster=cluster.cluster_spec)):
                gs = tf.train.get_or_create_global_step()
                x = tf.placeholder(tf.float32, [None, 784])
                y_ = tf.placeholder(tf.float32, [None, 10])
                w = tf.Variable(tf.zeros([784, 10]))
                b = tf.Variable(tf.zeros([10]))
                logits = tf.matmul(x, w) + b
                loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(
                    labels=y_, logits=logits))
                train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=gs)
                acc = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1),
                                                      tf.argmax(y_, 1)), tf.float32))
            killed = threading.Event()
            seen = []
            hooks = [tf.train.StopAtStepHook(last_step=steps)]
            with tf.train.MonitoredTrainingSession(
                    master=cluster.target("worker", 0), is_chief=True, checkpoint_dir=logdir,
                    save_checkpoint_steps=save_steps, save_summaries_steps=None,
                    log_step_count_steps=None, hooks=hooks) as sess:
                while not sess.should_stop():
                    bx, by = mnist.train.next_batch(100)
                    _, step = sess.run([train, gs], {x: bx, y_: by})
                    seen.append(int(step))
                    if step >= kill_at and not killed.is_set():
                        killed.set()
                        cluster.kill("ps", 0)
                        cluster.restart("ps", 0)
            # the step counter right before the kill, and where training went on after it
            kill_index = next(i for i, s in enumerate(seen) if s >= kill_at)
            at_kill = seen[kill_index]
            resumed_from = seen[kill_index + 1] - 1 if kill_index + 1 < len(seen) else None
            with tf.Session(cluster.target("worker", 0), graph=graph) as plain:
                tf.train.Saver().restore(plain, tf.train.latest_checkpoint(logdir))
                final_acc = plain.run(acc, {x: mnist.test.images, y_: mnist.test.labels})
    lost = None if resumed_from is None else at_kill - resumed_from
    return [dict(metric=f"ps killed at step {at_kill}, restarted: steps lost",
                 sandbox=f"{lost} (resumed from step {resumed_from})",
                 baseline=f"checkpoint every {save_steps}", ratio="-",
                 bar=f"<= {save_steps}", ok=lost is not None and 0 <= lost <= save_steps),
            dict(metric="  final test accuracy after recovery (softmax regression)",
                 sandbox=f"{final_acc:.3f}", baseline="~0.90 uninterrupted", ratio="-",
                 bar=">= 0.85", ok=final_acc >= 0.85)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="2 epochs instead of 20")
    parser.add_argument("--only", default="table,recovery", help="table, recovery or both")
    parser.add_argument("--tf-python", default=None,
                        help="a Python with tensorflow installed: also run seed 002 under "
                             "TensorFlow here, as a same-run baseline (slow: ~10 min)")
    args = parser.parse_args(argv)
    import logging
    logging.getLogger("sandbox").setLevel(logging.WARNING)
    logging.getLogger("sandbox.train").setLevel(logging.WARNING)
    from sandbox.examples.tutorials.mnist import input_data
    data_dir = mnist_dir(args.data_dir)
    if data_dir is None:
        print("Full MNIST not found (pass --data-dir or set MNIST_DIR).")
        return 1
    mnist = input_data.read_data_sets(data_dir, one_hot=True, seed=0)
    epochs = 2 if args.quick else args.epochs
    rows = []
    if "table" in args.only:
        rows += seed_table(mnist, epochs, args.tf_python, data_dir)
        rows += sync_round(mnist)
    if "recovery" in args.only:
        rows += ps_recovery(mnist)
    print_table(f"Training benchmarks ({os.cpu_count()} cores)", rows)
    return 0 if all(r["ok"] in (True, None) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
