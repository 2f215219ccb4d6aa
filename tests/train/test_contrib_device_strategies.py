"""tf.contrib.training's ps strategies for tf.train.replica_device_setter: RandomStrategy,
GreedyLoadBalancingStrategy and byte_size_load_fn -- the devices of a 3-ps model as TF gives
them, and (on real processes) that the variables live where the strategy put them."""
import hashlib

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.contrib.training import (GreedyLoadBalancingStrategy, RandomStrategy,
                                      byte_size_load_fn)

CLUSTER = {"ps": ["ps0:2222", "ps1:2222", "ps2:2222"],
           "worker": ["worker0:2222", "worker1:2222"]}


def _build(strategy, late_variables=False, cluster=CLUSTER):
    """A model with variables of many sizes and dtypes (get_variable and tf.Variable), and
    Adam's slots; returns {variable op name: ps task}."""
    g = tf.Graph()
    with g.as_default(), tf.device(tf.train.replica_device_setter(
            cluster=cluster, worker_device="/job:worker/task:1", ps_strategy=strategy)):
        gs = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 784])
        with tf.variable_scope("hidden"):
            w1 = tf.get_variable("weights", [784, 128],
                                 initializer=tf.truncated_normal_initializer(stddev=0.1))
            b1 = tf.get_variable("biases", [128], initializer=tf.zeros_initializer())
        with tf.variable_scope("softmax"):
            w2 = tf.Variable(tf.zeros([128, 10]), name="weights")
            b2 = tf.Variable(tf.zeros([10]), name="biases")
        emb = tf.Variable(tf.zeros([1000, 64], dtype=tf.float64), name="embedding")
        scale = tf.Variable(1.0, name="scale")
        tf.Variable(0, dtype=tf.int64, name="counter")
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
        logits = (tf.matmul(h, w2) + b2) * scale
        loss = tf.reduce_mean(logits) + tf.cast(tf.reduce_sum(emb), tf.float32)
        tf.train.AdamOptimizer(0.1).minimize(loss, global_step=gs)
        if late_variables:
            tf.Variable(tf.zeros([50]), name="late")
            tf.get_variable("late2", [3, 3], dtype=tf.float64)
    return {op.name: int(op.device.rsplit(":", 1)[1]) for op in g.get_operations()
            if op.type == "VariableV2"}


def _slots(placement):
    """Adam's slots and beta powers go with their variables, whatever the strategy."""
    slots = {}
    for name, task in placement.items():
        slots[name + "/Adam"] = slots[name + "/Adam_1"] = task
    del slots["global_step/Adam"], slots["global_step/Adam_1"]
    del slots["counter/Adam"], slots["counter/Adam_1"]
    slots["beta1_power"] = slots["beta2_power"] = placement["embedding"]   # first by name
    return {**placement, **slots}


# The same program under TensorFlow 2.15.1 (tf.compat.v1, v2 behavior disabled: VariableV2
# ops), with TF 1.15's contrib/training/python/training/device_setter.py classes ported as
# they are (TF 2 has no contrib): these are the ps tasks it gave.
TF_PLACEMENT = {
    # global_step (8 bytes) -> 0; hidden/weights (401,408) -> 1 (0 has 8); hidden/biases
    # (512) -> 2; softmax/weights (5,120) -> 0 ... each to the least loaded task so far
    "greedy": _slots({"global_step": 0, "hidden/weights": 1, "hidden/biases": 2,
                      "softmax/weights": 0, "softmax/biases": 2, "embedding": 2, "scale": 0,
                      "counter": 0}),
    "random, seed 0": _slots({"global_step": 2, "hidden/weights": 0, "hidden/biases": 2,
                              "softmax/weights": 1, "softmax/biases": 0, "embedding": 0,
                              "scale": 1, "counter": 0}),
    "random, seed 7": _slots({"global_step": 1, "hidden/weights": 1, "hidden/biases": 2,
                              "softmax/weights": 0, "softmax/biases": 0, "embedding": 1,
                              "scale": 2, "counter": 0}),
    "round robin": _slots({"global_step": 0, "hidden/weights": 1, "hidden/biases": 2,
                           "softmax/weights": 0, "softmax/biases": 1, "embedding": 2,
                           "scale": 0, "counter": 1}),
}
STRATEGIES = {
    "greedy": lambda: GreedyLoadBalancingStrategy(3, byte_size_load_fn),
    "random, seed 0": lambda: RandomStrategy(3),
    "random, seed 7": lambda: RandomStrategy(3, seed=7),
    "round robin": lambda: None,
}


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_a_three_ps_model_lands_where_tf_puts_it(strategy):
    assert _build(STRATEGIES[strategy]()) == TF_PLACEMENT[strategy]


def test_variables_made_after_the_optimizer_land_where_tf_puts_them():
    """TF consults ps_strategy for the variables made under colocate_with too (Adam's slots
    and beta powers: TF's init_scope restores the device functions of the as_default block
    for variable creation), so the round-robin counter and the greedy loads move on before
    'late' is placed; colocation then puts each slot beside its variable."""
    # TF 2.15.1, as above: late and late2 on tasks 1 and 1 (greedy), 1 and 2 (round robin)
    greedy = _build(GreedyLoadBalancingStrategy(3, byte_size_load_fn), late_variables=True)
    round_robin = _build(None, late_variables=True)
    assert (greedy["late"], greedy["late2"], round_robin["late"], round_robin["late2"]) == \
        (1, 1, 1, 2)


def test_random_strategy_is_an_md5_fingerprint_of_name_and_seed():
    """Not random at all: each worker builds its own graph, and all of them must choose the
    same ps for a variable. TF uses MD5 (Python's hash() changes between processes)."""
    g = tf.Graph()
    with g.as_default():
        ops = [tf.Variable(0.0, name=name).op for name in ("a", "layer/weights", "b_3")]
    for seed in (0, 1, 12345):
        strategy = RandomStrategy(7, seed=seed)
        for op in ops:
            digest = hashlib.md5(f"{op.name}_{seed}".encode()).hexdigest()
            assert strategy(op) == int(digest, 16) % 7
            assert strategy(op.node_def) == strategy(op)        # the device function's NodeDef
    # the same names in another graph (another worker) get the same tasks
    g2 = tf.Graph()
    with g2.as_default():
        again = [tf.Variable(1.0, name=name).op for name in ("a", "layer/weights", "b_3")]
    assert [RandomStrategy(7)(op) for op in again] == [RandomStrategy(7)(op) for op in ops]


def test_greedy_ties_go_to_the_lowest_task_and_loads_add_up():
    g = tf.Graph()
    with g.as_default():
        sizes = [4, 4, 4, 12, 1, 1]                    # float32 elements
        ops = [tf.Variable(tf.zeros([n]), name=f"v{i}").op for i, n in enumerate(sizes)]
    strategy = GreedyLoadBalancingStrategy(3, byte_size_load_fn)
    # loads (bytes) 0,0,0 -> 16,0,0 -> 16,16,0 -> 16,16,16 -> 64,16,16 -> 64,20,16 -> ...
    assert [int(strategy(op)) for op in ops] == [0, 1, 2, 0, 1, 2]
    np.testing.assert_array_equal(strategy._ps_loads, [64, 20, 20])


def test_the_names_are_in_tf_contrib_training():
    assert tf.contrib.training.RandomStrategy is RandomStrategy
    assert tf.contrib.training.GreedyLoadBalancingStrategy is GreedyLoadBalancingStrategy
    assert tf.contrib.training.byte_size_load_fn is byte_size_load_fn


def test_on_a_cluster_each_variable_lives_on_the_ps_the_strategy_chose():
    """Three ps processes: a greedy placement, then a probe per ps that looks for each
    variable's storage there."""
    with LocalCluster({"ps": 3, "worker": 1}) as cluster:
        g = tf.Graph()
        strategy = GreedyLoadBalancingStrategy(3, byte_size_load_fn)
        with g.as_default(), tf.device(tf.train.replica_device_setter(
                cluster=cluster.cluster_spec, worker_device="/job:worker/task:0",
                ps_strategy=strategy)):
            big = tf.Variable(tf.fill([100], 1.0), name="big")           # ps 0
            small = tf.Variable(tf.fill([3], 2.0), name="small")         # ps 1
            medium = tf.Variable(tf.fill([10], 3.0), name="medium")      # ps 2
            tiny = tf.Variable(tf.fill([1], 4.0), name="tiny")           # ps 1 (12 bytes)
            init = tf.global_variables_initializer()
        expected = {"big": 0, "small": 1, "medium": 2, "tiny": 1}
        assert {v.op.name: int(v.device[-1]) for v in (big, small, medium, tiny)} == expected
        with tf.Session(cluster.target("worker", 0), graph=g) as sess:
            sess.run(init)
        sizes, values = {"big": 100, "small": 3, "medium": 10, "tiny": 1}, \
            {"big": 1.0, "small": 2.0, "medium": 3.0, "tiny": 4.0}
        for name, task in expected.items():
            for probe_task in (task, (task + 1) % 3):
                probe = tf.Graph()
                with probe.as_default(), tf.device(f"/job:ps/task:{probe_task}"):
                    v = tf.Variable(tf.zeros([sizes[name]]), name=name)
                with tf.Session(cluster.target("worker", 0), graph=probe) as sess:
                    if probe_task == task:
                        np.testing.assert_array_equal(sess.run(v), values[name])
                    else:
                        with pytest.raises(tf.errors.FailedPreconditionError):
                            sess.run(v)
