"""tf.train.replica_device_setter, GreedyLoadBalancingStrategy, byte_size_load_fn: where the ops
of a replicated model go, and (on real processes) that the variables really live on the ps."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.experiments.seed_mnist import build_seed_model
from sandbox.train.device_setter import (STANDARD_PS_OPS, GreedyLoadBalancingStrategy,
                                         byte_size_load_fn, replica_device_setter)

CLUSTER = {"ps": ["ps0:2222", "ps1:2222"],
           "worker": ["worker0:2222", "worker1:2222", "worker2:2222"]}


def _variable_of(op, graph):
    """The VariableV2 op that `op` is colocated with, or None."""
    for group in op.colocation_groups():
        name = group.decode()[len("loc:@"):]
        try:
            target = graph.get_operation_by_name(name)
        except KeyError:
            continue
        if target.type == "VariableV2":
            return target
    return None


def test_seed_graph_variables_round_robin_and_everything_else_on_the_worker():
    g = tf.Graph()
    setter = replica_device_setter(cluster=CLUSTER, worker_device="/job:worker/task:1")
    with g.as_default(), tf.device(setter):
        model = build_seed_model(graph=g)
    variables = [op for op in g.get_operations() if op.type == "VariableV2"]
    # creation order: global_step, w1, w2, b1, b2 -> ps0, ps1, ps0, ps1, ps0
    assert [v.name for v in variables] == ["global_step", "weights/Variable",
                                           "weights/Variable_1", "biases/Variable",
                                           "biases/Variable_1"]
    assert [v.device for v in variables] == ["/job:ps/task:0", "/job:ps/task:1",
                                             "/job:ps/task:0", "/job:ps/task:1",
                                             "/job:ps/task:0"]
    assert model.global_step.device == "/job:ps/task:0"
    on_worker = 0
    for op in g.get_operations():
        if op.type == "VariableV2":
            continue
        var = _variable_of(op, g)
        if op.device.startswith("/job:ps"):
            # only a variable's own ops (Assign, read, the optimizer's update) go to the ps,
            # and they go to that variable's task
            assert var is not None and op.device == var.device, op.name
        elif op.device == "":
            # get_variable's initializer is built with tf.device(None), colocated by attr
            assert "Initializer" in op.name and var is not None, op.name
        else:
            assert op.device == "/job:worker/task:1", (op.name, op.device)
            on_worker += 1
    assert on_worker > 30                           # forward, loss, gradients, accuracy
    assert g.get_operation_by_name("softmax/MatMul").device == "/job:worker/task:1"
    assert g.get_operation_by_name("weights/Variable/read").device == "/job:ps/task:1"
    update = [op for op in g.get_operations() if op.type == "ApplyGradientDescent"]
    assert sorted(op.device for op in update) == ["/job:ps/task:0", "/job:ps/task:0",
                                                  "/job:ps/task:1", "/job:ps/task:1"]


def test_slot_variables_follow_their_primary_but_advance_the_round_robin():
    """As TensorFlow 2.15.1 (graph mode) places them: each slot goes beside its variable, yet
    the device function saw it (TF's init_scope restores it under colocate_with), so the
    round robin moved on by two -- c lands on ps 1, not ps 2. The same in an explicit graph."""
    for explicit in (False, True):
        graph = tf.Graph() if explicit else tf.get_default_graph()
        with graph.as_default(), tf.device(replica_device_setter(ps_tasks=3)):
            a = tf.Variable(tf.zeros([2]), name="a")        # ps 0
            b = tf.Variable(tf.zeros([2]), name="b")        # ps 1
            loss = tf.reduce_sum(a * b)
            tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss)
            c = tf.Variable(1.0, name="c")                  # ps 1: the slots counted (2, 0)
        assert graph.get_operation_by_name("a/Momentum").device == "/job:ps/task:0"
        assert graph.get_operation_by_name("b/Momentum").device == "/job:ps/task:1"
        assert c.device == "/job:ps/task:1"


def test_standard_ps_ops_as_tf_and_queues_stay_on_the_worker():
    assert "VariableV2" in STANDARD_PS_OPS and "VarHandleOp" in STANDARD_PS_OPS
    assert "MutableHashTableV2" in STANDARD_PS_OPS
    assert "FIFOQueueV2" not in STANDARD_PS_OPS and "RandomShuffleQueueV2" not in STANDARD_PS_OPS
    with tf.device(replica_device_setter(ps_tasks=2)):
        q = tf.FIFOQueue(3, tf.float32, name="q")
        v = tf.Variable(1.0, name="v")
    assert q.queue_ref.op.device == "/job:worker"
    assert v.device == "/job:ps/task:0"
    tf.reset_default_graph()
    with tf.device(replica_device_setter(ps_tasks=2, ps_ops=["VariableV2", "FIFOQueueV2"])):
        v = tf.Variable(1.0, name="v")
        q = tf.FIFOQueue(3, tf.float32, name="q")
    assert v.device == "/job:ps/task:0" and q.queue_ref.op.device == "/job:ps/task:1"


def test_merge_with_inner_scopes():
    setter = replica_device_setter(ps_tasks=2, worker_device="/job:worker/task:0")
    with tf.device(setter):
        with tf.device("/gpu:0"):
            x = tf.constant(1.0, name="x")
            v0 = tf.Variable(1.0, name="v0")           # ps task from the strategy, GPU kept
        with tf.device("/cpu:0"):
            y = tf.identity(x, name="y")
        with tf.device("/job:ps/task:1"):
            v1 = tf.Variable(1.0, name="v1")           # inner task wins (strategy still asked)
        with tf.device("/job:worker/task:2"):
            v2 = tf.Variable(1.0, name="v2")           # another job: no ps task chosen
        with tf.device("/task:3"):
            z = tf.identity(x, name="z")
        v3 = tf.Variable(1.0, name="v3")
    assert x.op.device == "/job:worker/task:0/device:GPU:0"
    assert v0.device == "/job:ps/task:0/device:GPU:0"
    assert y.op.device == "/job:worker/task:0/device:CPU:0"
    assert v1.device == "/job:ps/task:1"
    assert v2.device == "/job:worker/task:2"
    assert z.op.device == "/job:worker/task:3"
    assert v3.device == "/job:ps/task:0"               # v0, v1 took tasks 0 and 1
    # the setter nested inside an outer scope: the setter's fields win over the outer ones
    tf.reset_default_graph()
    with tf.device("/job:other/task:7/cpu:0"), tf.device(setter):
        w = tf.constant(1.0, name="w")
    assert w.op.device == "/job:worker/task:0/device:CPU:0"


def test_merge_devices_false_leaves_placed_ops_alone(caplog):
    with caplog.at_level("WARNING"):
        setter = replica_device_setter(ps_tasks=2, worker_device="/job:worker/task:0",
                                       merge_devices=False)
    assert "merge_devices=true" in caplog.text
    with tf.device(setter):
        with tf.device("/cpu:0"):
            x = tf.constant(1.0, name="x")
            v = tf.Variable(1.0, name="v")
        y = tf.identity(x, name="y")
        w = tf.Variable(1.0, name="w")
    assert x.op.device == "/device:CPU:0"              # had a device: unchanged
    assert v.device == "/device:CPU:0"
    assert y.op.device == "/job:worker/task:0"
    assert w.device == "/job:ps/task:0"                # v never asked the strategy


def test_device_function_accepts_node_defs():
    fn = replica_device_setter(ps_tasks=2)
    assert fn({"op": "VariableV2", "device": "", "name": "v"}) == "/job:ps/task:0"
    assert fn({"op": "MatMul", "device": "/gpu:1", "name": "m"}) == "/job:worker/device:GPU:1"


def test_none_when_there_is_no_ps():
    assert replica_device_setter() is None
    assert replica_device_setter(ps_tasks=0, worker_device="/job:worker/task:0") is None
    assert replica_device_setter(cluster={"worker": ["w0:2222"]}) is None
    assert replica_device_setter(cluster=tf.train.ClusterSpec({"worker": ["w0:2222"]})) is None
    # the cluster decides: ps_tasks is ignored when a cluster is given
    assert replica_device_setter(ps_tasks=5, cluster={"worker": ["w0:2222"]}) is None
    fn = replica_device_setter(ps_tasks=0, cluster=tf.train.ClusterSpec(CLUSTER))
    with tf.device(fn):
        vs = [tf.Variable(float(i)) for i in range(3)]
    assert [v.device for v in vs] == ["/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:0"]
    # another name for the ps job
    fn = replica_device_setter(cluster={"param": ["p:1"], "worker": ["w:1"]},
                               ps_device="/job:param")
    assert fn is not None
    assert replica_device_setter(cluster={"ps": ["p:1"]}, ps_device="/job:param") is None


def test_ps_strategy_must_be_callable_and_a_custom_one_is_used():
    with pytest.raises(TypeError, match="ps_strategy must be callable"):
        replica_device_setter(ps_tasks=2, ps_strategy=3)
    seen = []

    def last_task(op):
        seen.append(op.name)
        return 4
    with tf.device(replica_device_setter(ps_tasks=5, ps_strategy=last_task)):
        v = tf.Variable(1.0, name="v")
    assert v.device == "/job:ps/task:4" and seen == ["v"]


@settings(max_examples=25, deadline=None)
@given(num_ps=st.integers(1, 5), num_vars=st.integers(0, 12))
def test_round_robin_property(num_ps, num_vars):
    g = tf.Graph()
    with g.as_default(), tf.device(replica_device_setter(ps_tasks=num_ps)):
        vs = [tf.Variable(tf.zeros([2]), name=f"v{i}") for i in range(num_vars)]
        total = tf.add_n([tf.identity(v) for v in vs]) if vs else tf.constant(0.0)
    assert [v.device for v in vs] == [f"/job:ps/task:{i % num_ps}" for i in range(num_vars)]
    assert total.op.device == "/job:worker"


def test_greedy_strategy_balances_bytes():
    strategy = GreedyLoadBalancingStrategy(2, byte_size_load_fn)
    with tf.device(replica_device_setter(ps_tasks=2, ps_strategy=strategy)):
        big = tf.Variable(tf.zeros([100, 10]), name="big")          # 4000 B -> ps0
        small1 = tf.Variable(tf.zeros([10]), name="small1")         # 40 B   -> ps1
        small2 = tf.Variable(tf.zeros([10], tf.float64), name="s2")  # 80 B  -> ps1 (40 < 4000)
        mid = tf.Variable(tf.zeros([500], tf.int32), name="mid")    # 2000 B -> ps1 (120 < 4000)
        step = tf.Variable(0, name="step")                          # 4 B    -> ps1 (2120 < 4000)
        last = tf.Variable(tf.zeros([600]), name="last")            # 2400 B -> ps1 (2124 < 4000)
        after = tf.Variable(tf.zeros([1]), name="after")            # ps0 (4000 < 4524)
    assert [v.device[-1] for v in (big, small1, small2, mid, step, last, after)] == \
        ["0", "1", "1", "1", "1", "1", "0"]
    assert strategy._ps_loads.tolist() == [4004.0, 4524.0]
    # round robin would have given 0 1 0 1 0 1 0: 4000+80+4+4 on ps0 vs 40+2000+2400 on ps1


def test_byte_size_load_fn():
    v = tf.Variable(tf.zeros([3, 4], tf.float64), name="v")
    assert byte_size_load_fn(v.op) == 96
    assert byte_size_load_fn(tf.Variable(7, name="scalar").op) == 4
    assert byte_size_load_fn(tf.constant(np.zeros((2, 5), np.int64)).op) == 80
    # an op seen by a device function has no output shape yet: the "shape" attr is used
    seen = []
    strategy = GreedyLoadBalancingStrategy(1, lambda op: seen.append(byte_size_load_fn(op)) or 0)
    with tf.device(replica_device_setter(ps_tasks=1, ps_strategy=strategy)):
        tf.Variable(tf.zeros([5, 5]), name="w")
    assert seen == [100]
    unknown = tf.Variable(tf.placeholder_with_default(tf.zeros([2]), shape=[None]),
                          validate_shape=False, name="unknown")
    with pytest.raises(ValueError, match="is not fully defined"):
        byte_size_load_fn(unknown.op)
    a, b = tf.split(tf.zeros([4]), 2)
    with pytest.raises(ValueError, match="must have a single output"):
        byte_size_load_fn(a.op)


# -- on real processes ---------------------------------------------------------------------

def test_variables_really_live_on_the_two_ps_processes():
    with LocalCluster({"ps": 2, "worker": 1}) as cluster:
        g = tf.Graph()
        setter = replica_device_setter(cluster=cluster.cluster_spec,
                                       worker_device="/job:worker/task:0")
        with g.as_default(), tf.device(setter):
            w = tf.Variable(tf.zeros([3]), name="w")          # ps 0
            b = tf.Variable(tf.zeros([3]), name="b")          # ps 1
            x = tf.placeholder(tf.float32, [3], name="x")
            train = tf.group(w.assign_add(x), b.assign_sub(2.0 * x), name="train")
            init = tf.global_variables_initializer()
        assert (w.device, b.device) == ("/job:ps/task:0", "/job:ps/task:1")
        with tf.Session(cluster.target("worker", 0), graph=g) as sess:
            sess.run(init)
            for i in range(3):
                sess.run(train, {x: [1.0, 2.0, float(i)]})
        # A session on ps 1 sees what the worker wrote (the graph says where b is).
        with tf.Session(cluster.target("ps", 1), graph=g) as sess:
            np.testing.assert_allclose(sess.run(b), [-6.0, -12.0, -6.0])
            np.testing.assert_allclose(sess.run(w), [3.0, 6.0, 3.0])
        # The storage is on those processes: a graph that looks for "b" on ps 1 finds the
        # value; looking for it on ps 0 finds nothing there.
        for task, expect in ((1, [-6.0, -12.0, -6.0]), (0, None)):
            probe = tf.Graph()
            with probe.as_default(), tf.device(f"/job:ps/task:{task}"):
                b_probe = tf.Variable(tf.zeros([3]), name="b")
            with tf.Session(cluster.target("worker", 0), graph=probe) as sess:
                if expect is None:
                    with pytest.raises(tf.errors.FailedPreconditionError,
                                       match="b on /job:ps/replica:0/task:0"):
                        sess.run(b_probe)
                else:
                    np.testing.assert_allclose(sess.run(b_probe), expect)
