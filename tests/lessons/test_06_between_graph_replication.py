"""Lesson 6 (between-graph replication): what the lesson says about replica_device_setter's two
strategies and about sparse gradients holds -- the table of bytes per ps in its README, and the
bytes one step moves between a worker and the ps tasks, measured in their traces."""
import re

import numpy as np

import sandbox as tf

from conftest import REPO

LESSON = REPO / "lessons" / "06_between_graph_replication"


def _placement(strategy, shards=1):
    """{variable: ps task} and the bytes per ps of placement.py's model."""
    graph = tf.Graph()
    with graph.as_default(), tf.device(tf.train.replica_device_setter(
            ps_tasks=2, worker_device="/job:worker/task:0", ps_strategy=strategy)):
        if shards == 1:
            tf.get_variable("embedding", [100000, 64])
        else:
            for i in range(shards):
                tf.get_variable("embedding_%d" % i, [100000 // shards, 64])
        tf.train.get_or_create_global_step()
        tf.get_variable("W1", [784, 100])
        tf.get_variable("W2", [100, 10])
        tf.get_variable("b1", [100])
        tf.get_variable("b2", [10])
        variables = tf.global_variables()
    where = {v.op.name: int(re.search(r"task:(\d)", v.device).group(1)) for v in variables}
    held = [0, 0]
    for v in variables:
        held[where[v.op.name]] += v.shape.num_elements() * v.dtype.size
    return where, held


def test_round_robin_follows_the_order_and_greedy_the_bytes_as_the_readme_says():
    readme = (LESSON / "README.md").read_text()
    greedy = lambda: tf.train.GreedyLoadBalancingStrategy(2, tf.train.byte_size_load_fn)  # noqa
    where, held = _placement(None)
    assert where == {"embedding": 0, "global_step": 1, "W1": 0, "W2": 1, "b1": 0, "b2": 1}
    assert held == [25914000, 4048]
    where, held = _placement(greedy())
    assert where["embedding"] == 0 and all(where[v] == 1 for v in ("W1", "W2", "b1", "b2"))
    assert held == [25600000, 318048]
    _, held = _placement(greedy(), shards=2)
    assert held == [12804448, 13113600]
    for total in ("25,914,000", "4,048", "25,600,000", "318,048", "12,804,448", "13,113,600"):
        assert total in readme, f"the README's table has no {total}"


def test_each_step_pulls_and_pushes_the_bytes_of_the_variables_each_ps_holds(local_cluster):
    """Seed 002's network, greedy on 2 ps: per step, each ps sends its trainable variables'
    bytes to the worker and receives as many (the gradients) -- within a few bytes."""
    cluster = local_cluster(ps=2, worker=1)
    graph = tf.Graph()
    with graph.as_default(), tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:0", cluster=cluster.cluster_spec,
            ps_strategy=tf.train.GreedyLoadBalancingStrategy(2, tf.train.byte_size_load_fn))):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 784])
        y_ = tf.placeholder(tf.float32, [None, 10])
        W1 = tf.Variable(tf.random_normal([784, 100], seed=1), name="W1")
        W2 = tf.Variable(tf.random_normal([100, 10], seed=2), name="W2")
        b1 = tf.Variable(tf.zeros([100]), name="b1")
        b2 = tf.Variable(tf.zeros([10]), name="b2")
        logits = tf.matmul(tf.nn.sigmoid(tf.matmul(x, W1) + b1), W2) + b2
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=logits))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
        init = tf.global_variables_initializer()
    assert W1.device.endswith("task:1") and W2.device.endswith("task:0")
    rng = np.random.RandomState(0)
    feed = {x: rng.rand(100, 784), y_: np.eye(10)[rng.randint(0, 10, 100)]}
    steps = 5
    with tf.Session(cluster.target("worker", 0), graph=graph) as sess:
        sess.run(init)
        sess.run(train_op, feed)
        since = [max(r.seq for r in cluster.trace("ps", i)) for i in (0, 1)]
        for _ in range(steps):
            sess.run(train_op, feed)
    for ps, held in ((0, 4440), (1, 313600)):
        records = cluster.trace("ps", ps, since[ps])
        sent = sum(r.nbytes for r in records if r.kind == "send" and "worker" in r.dst) / steps
        received = sum(r.nbytes for r in records if r.kind == "recv" and "worker" in r.src) / steps
        assert held <= sent <= held + 64, (ps, sent)
        assert held <= received <= held + 64, (ps, received)
