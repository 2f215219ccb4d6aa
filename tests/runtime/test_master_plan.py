"""Unit tests of how the master plans a step -- TensorFlow's MasterSession
(core/distributed_runtime/master_session.cc) as the pure function
sandbox/runtime/master.plan_step (prune, place, partition, with no task called), and its parts:
the executor's prune (core/common_runtime/executor.cc / graph pruning: what the fetches need,
fed tensors cut the walk, a deterministic topological order) and relocate_noops (a piece of
grappler's DependencyOptimizer) -- on small graphs."""
import pytest

import sandbox as tf
from sandbox.runtime.dependency_optimizer import relocate_noops
from sandbox.runtime.executor import prune
from sandbox.runtime.master import plan_step

PS0 = "/job:ps/replica:0/task:0"
W0 = "/job:worker/replica:0/task:0"
W1 = "/job:worker/replica:0/task:1"
CPU, GPU = "/device:CPU:0", "/device:GPU:0"
DEVICES = [PS0 + CPU, W0 + CPU, W1 + CPU]
TO_PS = "_to_job_ps_replica_0_task_0_device_CPU_0"
TO_W0 = "_to_job_worker_replica_0_task_0_device_CPU_0"


def node(name, op, device="", inputs=(), **attr):
    """A NodeDef dict with exactly the keys of Operation.node_def."""
    return {"name": name, "op": op, "device": device, "input": list(inputs), "attr": attr}


def names(node_defs):
    return [nd["name"] for nd in node_defs]


def test_hand_written_node_defs_have_the_keys_of_real_ones():
    g = tf.Graph()
    with g.as_default():
        tf.no_op(name="n")
    assert [set(op.node_def) for op in g.get_operations()] == [set(node("n", "NoOp"))]


# -- prune -----------------------------------------------------------------------------------

def _chain():
    return [node("a", "Const"), node("b", "Identity", "", ["a"]), node("unused", "Const"),
            node("c", "Const"), node("d", "Add", "", ["b", "c:0"]),
            node("init", "NoOp", "", ["^a", "^c"])]


def test_prune_keeps_what_the_fetches_need_in_graph_order():
    order = prune(_chain(), fetches=["d:0"])
    assert names(order) == ["a", "b", "c", "d"]
    assert order[3] == _chain()[4]                     # the node defs themselves, unchanged


def test_prune_follows_control_inputs_of_targets():
    assert names(prune(_chain(), targets=["init"])) == ["a", "c", "init"]
    assert names(prune(_chain(), fetches=["b"], targets=["init"])) == ["a", "b", "c", "init"]


@pytest.mark.parametrize("feed", ["b:0", "b"])
def test_a_fed_tensor_cuts_the_walk(feed):
    assert names(prune(_chain(), feeds=[feed], fetches=["d:0"])) == ["c", "d"]


def test_fetching_a_fed_tensor_needs_nothing():
    assert prune(_chain(), feeds=["b:0"], fetches=["b:0"]) == []


def test_feeding_one_output_keeps_the_op_for_its_other_outputs():
    nodes = [node("v", "Const"), node("split", "Split", "", ["v"], num_split=2),
             node("use", "Identity", "", ["split:1"]), node("fed", "Identity", "", ["split:0"])]
    assert names(prune(nodes, feeds=["split:0"], fetches=["use:0", "fed:0"])) == [
        "v", "split", "use", "fed"]
    assert names(prune(nodes, feeds=["split:0"], fetches=["fed:0"])) == ["fed"]


def test_a_fed_tensor_does_not_cut_a_control_edge():
    nodes = [node("x", "Const"), node("y", "Identity", "", ["x", "^x"])]
    assert names(prune(nodes, feeds=["x:0"], fetches=["y:0"])) == ["x", "y"]


def test_the_feed_of_a_placeholder_takes_its_control_edges():
    # TF's subgraph.cc FeedInputs: "When feeding a Placeholder node, any outgoing control
    # edges will be replaced with a control edge from the replacement feed_node."
    nodes = [node("x", "Placeholder"), node("y", "Identity", "", ["x", "^x"])]
    order = prune(nodes, feeds=["x:0"], fetches=["y:0"])
    assert names(order) == ["y"] and order[0]["input"] == ["x"]
    assert nodes[1]["input"] == ["x", "^x"]                  # the graph's own node is kept
    assert names(prune(nodes, fetches=["y:0"])) == ["x", "y"]


def test_prune_orders_inputs_first_whatever_the_list_order():
    nodes = [node("d", "Add", "", ["b", "^c"]), node("b", "Identity", "", ["a"]),
             node("c", "Const"), node("a", "Const")]
    assert names(prune(nodes, fetches=["d:0"])) == ["a", "b", "c", "d"]
    # deterministic: the same answer every time, and fetch order does not matter
    assert names(prune(nodes, fetches=["b:0", "d:0"])) == ["a", "b", "c", "d"]
    assert names(prune(nodes, fetches=["c:0", "b:0"])) == ["a", "b", "c"]


def test_independent_nodes_keep_their_graph_order():
    nodes = [node(n, "Const") for n in ("z", "m", "a")]
    assert names(prune(nodes, fetches=["a:0", "z:0", "m:0"])) == ["z", "m", "a"]


@pytest.mark.parametrize("fetches, targets, missing", [(["nope:0"], [], "nope"),
                                                      ([], ["nope"], "nope"),
                                                      (["b:0"], [], "ghost")])
def test_prune_names_a_missing_node(fetches, targets, missing):
    nodes = [node("b", "Identity", "", ["ghost"])]
    with pytest.raises(tf.errors.NotFoundError) as info:
        prune(nodes, fetches=fetches, targets=targets)
    assert info.value.node_def == missing
    assert f"Node {missing!r} is needed" in info.value.message


def test_prune_reports_a_cycle_naming_a_node_on_it():
    nodes = [node("a", "Identity", "", ["b"]), node("b", "Identity", "", ["^a"]),
             node("c", "Identity", "", ["a"])]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        prune(nodes, fetches=["c:0"])
    assert info.value.node_def in ("a", "b")
    assert f"cycle through node {info.value.node_def!r}" in info.value.message


# -- relocate_noops --------------------------------------------------------------------------

def test_noop_moves_to_the_one_device_of_what_it_orders():
    nodes = [node("u1", "AssignAdd", PS0 + CPU), node("u2", "AssignAdd", PS0 + CPU),
             node("train", "NoOp", W0 + CPU, ["^u1", "^u2"])]
    assert relocate_noops(nodes) == ["train"]
    assert nodes[2]["device"] == PS0 + CPU                 # moved in place
    assert [nd["device"] for nd in nodes[:2]] == [PS0 + CPU] * 2


def test_noop_with_consumers_on_that_device_moves_too():
    nodes = [node("u", "AssignAdd", PS0 + CPU), node("group", "NoOp", W0 + CPU, ["^u"]),
             node("after", "Const", PS0 + CPU, ["^group"])]
    assert relocate_noops(nodes) == ["group"]
    assert nodes[1]["device"] == PS0 + CPU


@pytest.mark.parametrize("nodes", [
    # inputs on two devices
    [node("u", "Const", PS0 + CPU), node("v", "Const", W1 + CPU),
     node("n", "NoOp", W0 + CPU, ["^u", "^v"])],
    # a consumer elsewhere
    [node("u", "Const", PS0 + CPU), node("n", "NoOp", W0 + CPU, ["^u"]),
     node("after", "Const", W1 + CPU, ["^n"])],
    # no inputs: nothing to follow
    [node("n", "NoOp", W0 + CPU), node("after", "Const", PS0 + CPU, ["^n"])],
    # already there
    [node("u", "Const", PS0 + CPU), node("n", "NoOp", PS0 + CPU, ["^u"])],
    # not a NoOp
    [node("u", "Const", PS0 + CPU), node("n", "Identity", W0 + CPU, ["u"])],
])
def test_noop_stays_put(nodes):
    before = [nd["device"] for nd in nodes]
    assert relocate_noops(nodes) == []
    assert [nd["device"] for nd in nodes] == before


# -- plan_step -------------------------------------------------------------------------------

def _train_graph():
    g = tf.Graph()
    with g.as_default():
        with tf.device("/job:ps/task:0"):
            w = tf.Variable([[1.0], [2.0]], name="w")
        with tf.device("/job:worker/task:0"):
            x = tf.placeholder(tf.float32, [None, 2], name="x")
            loss = tf.reduce_sum(tf.matmul(x, w, name="y"), name="loss")
            tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
        tf.constant(3.0, name="unplaced")
    return [op.node_def for op in g.get_operations()]


def test_plan_of_a_training_step():
    nodes = _train_graph()
    before = [dict(nd) for nd in nodes]
    tasks, placement = plan_step(nodes, DEVICES, W0, ["x:0"], ["loss:0"], ["train"])
    assert nodes == before                                # the session's graph is untouched
    assert placement == [
        ("w", "VariableV2", PS0 + CPU), ("w/read", "Identity", PS0 + CPU),
        ("y", "MatMul", W0 + CPU), ("Const", "Const", W0 + CPU), ("loss", "Sum", W0 + CPU),
        ("gradients/grad_ys_0", "OnesLike", W0 + CPU),
        ("gradients/loss_grad/SumGrad", "SumGrad", W0 + CPU),
        ("gradients/y_grad/MatMul_1", "MatMul", W0 + CPU),
        ("train/learning_rate", "Const", W0 + CPU),
        ("train/update_w/ApplyGradientDescent", "ApplyGradientDescent", PS0 + CPU),
        ("train", "NoOp", PS0 + CPU)]                     # moved next to the update
    assert set(tasks) == {PS0, W0}                        # worker 1 has nothing to do
    assert tasks[PS0]["feeds"] == set() and tasks[W0]["feeds"] == {"x:0"}
    (ps,), (worker,) = tasks[PS0]["pieces"], tasks[W0]["pieces"]
    for piece, device in ((ps, PS0 + CPU), (worker, W0 + CPU)):
        assert set(piece) == {"device", "nodes", "feeds", "fetches", "targets", "client_task",
                              "isolate_session_state"}
        assert piece["device"] == device
        assert piece["client_task"] == W0 and piece["isolate_session_state"] is False
        assert all(nd["device"] == device for nd in piece["nodes"])
    assert ps["targets"] == [f"w/read/_send_0{TO_W0}/_Send", "train"]
    assert ps["feeds"] == [] and ps["fetches"] == []
    assert worker["targets"] == [f"train/learning_rate/_send_0{TO_PS}/_Send",
                                 f"gradients/y_grad/MatMul_1/_send_0{TO_PS}/_Send"]
    assert worker["feeds"] == ["x:0"] and worker["fetches"] == ["loss:0"]
    assert not any(nd["op"] == "_SendControl" for nd in ps["nodes"] + worker["nodes"])
    update = next(nd for nd in ps["nodes"] if nd["name"] == "train/update_w/ApplyGradientDescent")
    assert update["input"] == ["w", f"train/learning_rate/_send_0{TO_PS}/_Recv:0",
                               f"gradients/y_grad/MatMul_1/_send_0{TO_PS}/_Recv:0"]


def test_ops_that_ask_for_nothing_run_on_the_first_task_not_the_masters():
    # TF 1.15, measured: an op with no device lands on the cluster's first task (ps 0 here),
    # whichever task's master plans the step; the master's task still collects the fetches.
    nodes = _train_graph()
    tasks, placement = plan_step(nodes, DEVICES, W1, [], ["unplaced:0", "w/read:0"], [],
                                 isolate_session_state=True)
    assert placement == [("w", "VariableV2", PS0 + CPU), ("w/read", "Identity", PS0 + CPU),
                         ("unplaced", "Const", PS0 + CPU)]
    assert list(tasks) == [PS0]
    (piece,) = tasks[PS0]["pieces"]
    assert sorted(piece["fetches"]) == ["unplaced:0", "w/read:0"]
    assert piece["client_task"] == W1 and piece["isolate_session_state"] is True


def test_fetching_only_fed_tensors_calls_no_task():
    assert plan_step(_train_graph(), DEVICES, W0, ["x:0"], ["x:0"], []) == ({}, [])


def test_one_task_with_two_devices_gets_two_pieces_and_their_feeds():
    nodes = [node("a", "Identity", "/job:worker/task:0/device:CPU:0", ["x"]),
             node("b", "Add", "/job:worker/task:0/device:GPU:0", ["a", "y"])]
    tasks, placement = plan_step(nodes, DEVICES + [W0 + GPU], W1, ["x:0", "y:0"], ["b:0"], [])
    assert placement == [("a", "Identity", W0 + CPU), ("b", "Add", W0 + GPU)]
    assert list(tasks) == [W0]
    assert [(p["device"], p["feeds"]) for p in tasks[W0]["pieces"]] == [
        (W0 + CPU, ["x:0"]), (W0 + GPU, ["y:0"])]
    assert tasks[W0]["feeds"] == {"x:0", "y:0"}


def test_a_missing_device_fails_the_plan_unless_soft_placement():
    nodes = [node("c", "Const", "/job:worker/task:0/device:GPU:3"),
             node("d", "Identity", "", ["c"])]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        plan_step(nodes, DEVICES, W0, [], ["d:0"], [])
    assert info.value.node_def == "c" and "/job:worker/task:0/device:GPU:3" in info.value.message
    tasks, placement = plan_step(nodes, DEVICES, W0, [], ["d:0"], [], soft_placement=True)
    assert placement == [("c", "Const", W0 + CPU), ("d", "Identity", PS0 + CPU)]
    assert sorted(tasks) == [PS0, W0]


def test_soft_placement_does_not_move_an_op_to_another_task():
    # TF relaxes only the device type and index; a task that does not exist is an error.
    nodes = [node("c", "Const", "/job:worker/task:5"), node("d", "Identity", "", ["c"])]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not its job or task"):
        plan_step(nodes, DEVICES, W0, [], ["d:0"], [], soft_placement=True)


def test_plan_is_the_same_every_time():
    nodes = _train_graph()
    first = plan_step(nodes, DEVICES, W0, ["x:0"], ["loss:0"], ["train"])
    assert plan_step(nodes, DEVICES, W0, ["x:0"], ["loss:0"], ["train"]) == first
