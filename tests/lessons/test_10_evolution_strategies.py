"""Lesson 10 (evolution strategies): in mode `queue` only seeds and rewards cross the wire, every
copy of theta stays equal to the ps's, and a worker that runs ahead cannot take the pairs meant
for another (each worker has its own queue) -- measured on a live cluster, with the chief made
slow on purpose."""
import importlib.util
import sys
import threading
import time

import numpy as np

import sandbox as tf

from conftest import REPO

PROGRAM = REPO / "lessons" / "10_evolution_strategies" / "es_mnist.py"


def _es():
    """The program as a module (its build_graph and seeds_for), imported once; the tf.app.flags
    it defines are kept out of the process's FLAGS, which other tests' programs define too."""
    if "es_mnist_under_test" in sys.modules:
        return sys.modules["es_mnist_under_test"]
    from sandbox import flags
    saved = dict(flags.FLAGS._flags)
    flags.FLAGS._flags.clear()
    try:
        spec = importlib.util.spec_from_file_location("es_mnist_under_test", PROGRAM)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        flags.FLAGS._flags.clear()
        flags.FLAGS._flags.update(saved)
    sys.modules["es_mnist_under_test"] = module
    return module


def _run(cluster, es, mode, iterations, chief_pause=0.0):
    n, workers = 4, 2
    built = []
    for task in range(workers):
        graph = tf.Graph()
        with graph.as_default():
            g = es.build_graph(cluster.cluster_spec, task, mode, n, 0.1, 2.0)
            g["init"], g["local_init"] = (tf.global_variables_initializer(),
                                          tf.local_variables_initializer())
        g["sess"] = tf.Session(cluster.target("worker", task), graph=graph)
        built.append(g)
    built[0]["sess"].run(built[0]["init"])
    for g in built:
        g["sess"].run(g["local_init"])
    rng = np.random.RandomState(0)
    x = rng.rand(20, 784).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 20)]
    since = max(r.seq for r in cluster.trace("ps", 0))
    errors = []

    def loop(task):
        g, sess = built[task], built[task]["sess"]
        try:
            for it in range(iterations):
                feed = {g["x"]: x, g["y_"]: y, g["seeds"]: es.seeds_for(task, it, n)}
                if mode == "assign_add":
                    sess.run(g["step_op"], feed)
                    continue
                sess.run(g["send_pairs"], feed)
                if task == 0:
                    sess.run(g["broadcast"])
                    time.sleep(chief_pause)         # worker 1 is back for more meanwhile
                sess.run(g["catch_up"])
        except Exception as e:                      # pragma: no cover (reported below)
            errors.append(e)

    threads = [threading.Thread(target=loop, args=(t,), daemon=True) for t in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "the workers are stuck waiting on a queue"
    assert not errors, errors
    records = cluster.trace("ps", 0, since)
    moved = {}
    for r in records:
        if r.kind == "recv" and "worker" in r.src:
            moved["pushed", r.src[-1]] = moved.get(("pushed", r.src[-1]), 0) + r.nbytes
        if r.kind == "send" and "worker" in r.dst:
            moved["pulled", r.dst[-1]] = moved.get(("pulled", r.dst[-1]), 0) + r.nbytes
    copies = [g["sess"].run(g["local_theta"]) for g in built]
    theta = built[0]["sess"].run(built[0]["theta"])
    for g in built:
        g["sess"].close()
    return {k: v / iterations for k, v in moved.items()}, copies, theta


def test_queue_mode_moves_only_pairs_and_keeps_every_copy_equal(local_cluster):
    es = _es()
    cluster = local_cluster(ps=1, worker=2)
    moved, copies, theta = _run(cluster, es, "queue", iterations=8, chief_pause=0.05)
    # n = 4 pairs of (int32, float32) pushed; all M = 8 pairs pulled back.
    assert moved == {("pushed", "0"): 32, ("pushed", "1"): 32,
                     ("pulled", "0"): 64, ("pulled", "1"): 64}, moved
    assert np.abs(theta).max() > 0, "theta never moved"
    for copy in copies:
        assert np.array_equal(copy, theta)


def test_assign_add_mode_moves_the_parameter_vector_each_way(local_cluster):
    es = _es()
    cluster = local_cluster(ps=1, worker=2)
    moved, _, theta = _run(cluster, es, "assign_add", iterations=4)
    vector = es.DIM * 4
    for worker in "01":
        assert moved["pulled", worker] == vector
        assert vector <= moved["pushed", worker] <= vector + 8       # + global_step's 1
    assert np.abs(theta).max() > 0
