"""Checks of lesson 6's exercises (a few seconds each; exercise 2 on a real 1 ps + 1 worker
cluster).

    pytest lessons/06_between_graph_replication               # your files
    pytest lessons/06_between_graph_replication --solutions   # the reference solutions
"""
import importlib.util
import re

import numpy as np

import sandbox as tf

WORKER, PS = "/job:worker/replica:0/task:0", "/job:ps/replica:0/task:0"


def _load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_exercise_1_balance_the_ps_tasks(exercise, run_program):
    path = exercise("exercise_1_balance.py")
    run = run_program(path, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    held = [int(n.replace(",", "")) for n in re.findall(r"ps \d holds ([\d,]+) bytes",
                                                         run.stdout)]
    assert len(held) == 2, run.stdout
    assert sum(held) == 25918048, ("the model changed: its parameters must still take "
                                   f"25,918,048 bytes, not {sum(held):,}")
    assert max(held) <= 1.5 * min(held), (f"the ps tasks hold {held[0]:,} and {held[1]:,} "
                                          "bytes: the largest must hold at most 1.5 times the "
                                          "smallest")
    # The lookup still finds row i of the whole embedding for id i ('mod' or 'div' shards).
    module = _load(path)
    with tf.Graph().as_default():
        ids = tf.placeholder(tf.int32, [None])
        rows = module.build_model(ids)
        shards = [v for v in tf.global_variables() if v.op.name.startswith("embedding")]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got, parts = sess.run([rows, shards], {ids: [0, 1, 2, 3, 99999]})
    k = len(parts)
    by_mod = [parts[i % k][i // k] for i in (0, 1, 2, 3, 99999)]
    by_div = np.concatenate(parts)[[0, 1, 2, 3, 99999]]
    assert np.allclose(got, by_mod) or np.allclose(got, by_div), \
        "embedding_lookup no longer returns the row of each id"


def test_exercise_2_only_the_rows_used_cross_the_wire(exercise, local_cluster):
    module = _load(exercise("exercise_2_sparse.py"))
    cluster = local_cluster(ps=1, worker=1)
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(tf.train.replica_device_setter(cluster=cluster.cluster_spec)):
            ids = tf.placeholder(tf.int32, [module.BATCH], name="ids")
            loss, embedding = module.build_model(ids)
            assert isinstance(tf.gradients(loss, [embedding])[0], tf.IndexedSlices), \
                "the embedding's gradient is still dense: look the ids up instead"
            train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
            init = tf.global_variables_initializer()
    rng = np.random.RandomState(0)
    batches = [rng.randint(0, module.ROWS, module.BATCH) for _ in range(4)]
    with tf.Session(cluster.target("worker", 0), graph=graph) as sess:
        sess.run(init)
        first = sess.run(loss, {ids: batches[0]})
        sess.run(train_op, {ids: batches[0]})                   # plans the step once
        since = max([r.seq for r in cluster.trace("ps", 0)], default=0)
        for batch in batches[1:]:
            sess.run(train_op, {ids: batch})
        records = cluster.trace("ps", 0, since)
        assert sess.run(loss, {ids: batches[0]}) < first, "the loss did not go down"
    pushed = sum(r.nbytes for r in records
                 if r.kind == "recv" and r.src == WORKER and r.dst == PS) / 3
    assert pushed < 100000, (f"the ps received {pushed:,.0f} bytes per step from the worker: "
                             "the whole gradient crossed the wire")
