"""Benchmarks of starting a cluster (the dashboard's Run button), one table, both routes in the
same run:

  * LocalCluster up and answering, 1 ps + 3 workers and 2 ps + 16 workers: tasks forked from
    the fork server (sandbox/cluster/fork_server.py; warm: started before the turns, as the
    dashboard does when it is created) against tasks spawned as fresh interpreters (the old
    route, start_method="spawn"). The routes take turns, cluster for cluster; a ratio is the
    median of the turns' ratios (this machine's speed drifts from minute to minute)
  * to the first step: from starting seed 002's job, `Experiment(mode="async")` with 1 ps + 3
    workers (bar: <= 1 s) and 2 ps + 16 workers (bar: <= 3 s), on small synthetic MNIST-like
    data, until its first record (a worker's first training step) arrives -- with the fork
    server, and, for scale, by the spawn route ($SANDBOX_START_METHOD=spawn) in the same
    turns; two informative rows split the fork server's time into the start (the data's .npy
    files written, the cluster up) and what follows it (the workers build their graphs, the
    chief initializes the variables, the first step runs, its record travels back)
  * the fork server's own start (warm_up(), paid once per interpreter) and a first cluster
    with no server started yet

Run: `make bench` or `.venv/bin/python bench/bench_startup.py [--quick]`.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
from bench.common import cpu_ticks, median, print_table, steal_row, stolen_share  # noqa: E402

SIZES = ((1, 3), (2, 16))                      # (ps, workers)
FIRST_STEP_BARS = {(1, 3): 1.0, (2, 16): 3.0}  # seconds, the dashboard's
ROUTES = ("forkserver", "spawn")


def small_mnist(train=1000, test=500, seed=0):
    """Synthetic MNIST-like data sets (784 pixels in [0, 1), one-hot labels): the start of a
    run does not depend on what the pictures show."""
    from sandbox.datasets.mnist import DataSet, Datasets
    from sandbox.framework import dtypes
    rng = np.random.default_rng(seed)

    def data_set(n):
        images = rng.random((n, 784), dtype=np.float32)
        labels = np.eye(10, dtype=np.float32)[rng.integers(0, 10, n)]
        return DataSet(images, labels, dtype=dtypes.uint8, reshape=False, seed=seed)
    return Datasets(train=data_set(train), validation=data_set(test), test=data_set(test))


def cluster_up(ps, workers, route):
    """Seconds until LocalCluster({'ps': ps, 'worker': workers}) is up (every task answers)."""
    from sandbox.cluster import LocalCluster
    start = time.perf_counter()
    cluster = LocalCluster({"ps": ps, "worker": workers}, start_method=route)
    seconds = time.perf_counter() - start
    cluster.close()
    return seconds


def to_first_step(ps, workers, route, mnist):
    """(seconds to the first record, seconds of them until the cluster was up) of an async
    Experiment started by `route`; the run is then taken to its end (5 steps a worker)."""
    from sandbox.experiments import Experiment
    saved = os.environ.get("SANDBOX_START_METHOD")
    os.environ["SANDBOX_START_METHOD"] = route     # Experiment's LocalCluster reads it
    try:
        exp = Experiment(mode="async", workers=workers, ps=ps, mnist=mnist, epochs=1,
                         steps_per_epoch=5, eval_every=10 ** 9)
        start = time.time()
        next(iter(exp))
        first = time.time() - start
        exp.wait(timeout=600)
    finally:
        if saved is None:
            os.environ.pop("SANDBOX_START_METHOD", None)
        else:
            os.environ["SANDBOX_START_METHOD"] = saved
    return first, exp.started - start


def cold_start(ps=1, workers=3):
    """(warm_up() seconds, seconds to a first cluster with no fork server running)."""
    from sandbox.cluster import fork_server
    fork_server.shutdown()
    start = time.perf_counter()
    fork_server.warm_up()
    warm = time.perf_counter() - start
    fork_server.shutdown()
    return warm, cluster_up(ps, workers, "forkserver")


def turns(rounds, mnist):
    """Every measurement, the two routes one after the other, `rounds` times."""
    from sandbox.cluster import fork_server
    fork_server.warm_up()
    up = {(size, route): [] for size in SIZES for route in ROUTES}
    first = {(size, route): [] for size in SIZES for route in ROUTES}
    cluster_part, stolen = {size: [] for size in SIZES}, []
    for turn in range(rounds):
        before = cpu_ticks()
        for size in SIZES:
            for route in ROUTES if turn % 2 == 0 else ROUTES[::-1]:
                up[size, route].append(cluster_up(*size, route))
        for size in SIZES:
            for route in ROUTES if turn % 2 == 0 else ROUTES[::-1]:
                seconds, until_up = to_first_step(*size, route, mnist)
                first[size, route].append(seconds)
                if route == "forkserver":
                    cluster_part[size].append(until_up)
        stolen.append(stolen_share(before, cpu_ticks()))
    return up, first, cluster_part, stolen


def paired_ratio(a, b):
    """Median of the turns' ratios a[i] / b[i]."""
    return median([x / y for x, y in zip(a, b)])


def rows_of(up, first, cluster_part, stolen, warm, cold):
    rows = []
    for ps, workers in SIZES:
        fork, spawn = up[(ps, workers), "forkserver"], up[(ps, workers), "spawn"]
        rows.append(dict(metric=f"LocalCluster ps:{ps} worker:{workers} up (s)",
                         sandbox=f"{median(fork):.3f} (fork server)",
                         baseline=f"{median(spawn):.3f} (spawn)",
                         ratio=f"{paired_ratio(fork, spawn):.2f}", bar="< 1", ok=None
                         if len(fork) < 2 else paired_ratio(fork, spawn) < 1))
    for ps, workers in SIZES:
        size = (ps, workers)
        fork, spawn = first[size, "forkserver"], first[size, "spawn"]
        bar = FIRST_STEP_BARS[size]
        rows.append(dict(metric=f"to the first step, async {ps} ps + {workers} workers (s)",
                         sandbox=f"{median(fork):.3f} (fork server)",
                         baseline=f"{median(spawn):.3f} (spawn)",
                         ratio=f"{paired_ratio(fork, spawn):.2f}", bar=f"<= {bar:.0f} s",
                         ok=median(fork) <= bar))
        part = median(cluster_part[size])
        rows.append(dict(metric="  where it goes: data files, cluster up (s)",
                         sandbox=f"{part:.3f}", baseline="-",
                         ratio=f"{part / median(fork):.0%} of it", bar="-", ok=None))
        rest = median([f - c for f, c in zip(fork, cluster_part[size])])
        rows.append(dict(metric="  where it goes: graphs, init, first step, record (s)",
                         sandbox=f"{rest:.3f}", baseline="-", ratio="in the Experiment",
                         bar="-", ok=None))
    rows.append(dict(metric="fork server warm_up(), once per interpreter (s)",
                     sandbox=f"{warm:.3f}", baseline="-", ratio="-", bar="-", ok=None))
    rows.append(dict(metric="first LocalCluster ps:1 worker:3, no server yet (s)",
                     sandbox=f"{cold:.3f}",
                     baseline=f"{median(up[(1, 3), 'spawn']):.3f} (spawn)",
                     ratio=f"{cold / median(up[(1, 3), 'spawn']):.2f}", bar="-", ok=None))
    rows.append(steal_row(stolen, "the turns"))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None, help="not used: the data are synthetic")
    parser.add_argument("--quick", action="store_true", help="3 turns instead of 7")
    args = parser.parse_args(argv)
    mnist = small_mnist()
    warm, cold = cold_start()
    up, first, cluster_part, stolen = turns(3 if args.quick else 7, mnist)
    rows = rows_of(up, first, cluster_part, stolen, warm, cold)
    print_table(f"Cluster start benchmarks (medians; {os.cpu_count()} cores)", rows)
    return 0 if all(r["ok"] in (True, None) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
