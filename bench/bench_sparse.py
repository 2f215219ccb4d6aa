"""Benchmark of sparse gradients (issue 27): what an IndexedSlices saves on the wire, one table.

A 100,000 x 64 float32 embedding (25.6 MB) lives on the ps of a real LocalCluster (1 ps + 1
worker, separate processes, real sockets); the worker trains it with GradientDescent on
batches of 100 ids, between-graph through replica_device_setter. Two paths, same graph:

    sparse   the gradient as tf.gradients gives it, an IndexedSlices: the worker sends the
             100 gradient rows and their ids; the ps applies them with one ScatterSub
    dense    the same gradient made dense on the worker (tf.convert_to_tensor, an
             UnsortedSegmentSum) before apply_gradients: the worker sends 100,000 rows,
             99,900 of them zeros, and the ps applies them with ApplyGradientDescent

Bytes per step are read from the ps's trace (its TraceRing, runtime/task_server.py): the
tensors it received from the worker during the timed steps (the RunGraph request itself, the
same on both paths, is not counted), divided by the steps. The two paths take turns, rounds
of steps each, so that both see the same machine; ms per step is the median of the rounds,
each ratio the median of the rounds' ratios dense / sparse.

Run: `.venv/bin/python bench/bench_sparse.py [--quick]`.
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.common import median, print_table  # noqa: E402

ROWS, DIM, BATCH = 100000, 64, 100
WORKER, PS = "/job:worker/replica:0/task:0", "/job:ps/replica:0/task:0"


def build(tf):
    """The graph: an embedding on the ps, a loss of 100 looked-up rows on the worker, and the
    two train ops (sparse and dense)."""
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=1)):
            emb = tf.get_variable("embedding", [ROWS, DIM],
                                  initializer=tf.random_uniform_initializer(-0.05, 0.05))
            ids = tf.placeholder(tf.int32, [BATCH], name="ids")
            rows = tf.nn.embedding_lookup(emb, ids)
            loss = tf.reduce_mean(tf.square(rows - 1.0))
            opt = tf.train.GradientDescentOptimizer(0.5)
            (grad, var), = opt.compute_gradients(loss, [emb])
            assert isinstance(grad, tf.IndexedSlices), grad
            sparse = opt.apply_gradients([(grad, var)], name="sparse_step")
            dense = opt.apply_gradients([(tf.convert_to_tensor(grad), var)],
                                        name="dense_step")
            init = tf.global_variables_initializer()
    return graph, ids, {"sparse": sparse, "dense": dense}, init


def received_from_worker(records):
    """Bytes of the tensors the ps received from the worker in `records`."""
    return sum(r.nbytes for r in records if r.kind == "recv" and r.src == WORKER
               and r.dst == PS)


def one_round(cluster, sess, train_op, ids, batches):
    """(ms per step, bytes per step worker -> ps) over `batches`."""
    since = max([r.seq for r in cluster.trace("ps", 0)], default=0)
    start = time.perf_counter()
    for batch in batches:
        sess.run(train_op, {ids: batch})
    ms = (time.perf_counter() - start) * 1000 / len(batches)
    records = cluster.trace("ps", 0, since)
    return ms, received_from_worker(records) / len(batches)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--data-dir", default=None, help="(not used: no data set needed)")
    args = parser.parse_args(argv)
    import numpy as np
    import sandbox as tf
    from sandbox.cluster import LocalCluster
    rounds, steps = (3, 10) if args.quick else (7, 40)
    rng = np.random.default_rng(0)
    batches = [rng.integers(0, ROWS, BATCH).astype(np.int32) for _ in range(steps)]
    graph, ids, train_ops, init = build(tf)
    ms = {"sparse": [], "dense": []}
    nbytes = {"sparse": [], "dense": []}
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.Session(cluster.target("worker", 0), graph=graph) as sess:
            sess.run(init)
            for path, op in train_ops.items():          # warm up: plans and caches
                one_round(cluster, sess, op, ids, batches[:2])
            for _ in range(rounds):
                for path, op in train_ops.items():
                    m, b = one_round(cluster, sess, op, ids, batches)
                    ms[path].append(m)
                    nbytes[path].append(b)
    byte_ratio = median([d / s for d, s in zip(nbytes["dense"], nbytes["sparse"])])
    ms_ratio = median([d / s for d, s in zip(ms["dense"], ms["sparse"])])
    rows = [dict(metric="bytes/step worker -> ps (embedding gradient)",
                 sandbox=f"{median(nbytes['sparse']):,.0f} B sparse",
                 baseline=f"{median(nbytes['dense']):,.0f} B dense", ratio=f"{byte_ratio:.1f}",
                 bar=">= 100 (dense / sparse)", ok=byte_ratio >= 100),
            dict(metric="  expected: 100 x 64 float32 rows + int32 ids",
                 sandbox=f"{BATCH * DIM * 4 + BATCH * 4:,} B expected",
                 baseline=f"{ROWS * DIM * 4:,} B expected", ratio="-", bar="-", ok=None),
            dict(metric="ms/step (GradientDescent, batch of 100 ids)",
                 sandbox=f"{median(ms['sparse']):.2f} ms sparse",
                 baseline=f"{median(ms['dense']):.2f} ms dense", ratio=f"{ms_ratio:.2f}",
                 bar="> 1 (sparse is faster)", ok=ms_ratio > 1)]
    print_table(f"Sparse gradients: a {ROWS:,} x {DIM} embedding on 1 ps + 1 worker "
                f"({rounds} rounds of {steps} steps in turns, medians)", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
