"""Unit tests of graph partitioning -- TensorFlow's Partition (core/graph/graph_partition.cc), as
the pure function sandbox/runtime/partition.partition: one piece per device, a _Send/_Recv pair
on every edge between devices (control edges too), one pair per tensor and destination, and
the feeds, fetches and targets of each piece -- on small placed graphs."""
import collections

import pytest

import sandbox as tf
from sandbox.runtime.executor import parse_input, prune
from sandbox.runtime.partition import Piece, partition
from sandbox.runtime.placer import place

PS = "/job:ps/replica:0/task:0/device:CPU:0"
W0 = "/job:worker/replica:0/task:0/device:CPU:0"
W1 = "/job:worker/replica:0/task:1/device:CPU:0"
TO_PS = "_to_job_ps_replica_0_task_0_device_CPU_0"
TO_W0 = "_to_job_worker_replica_0_task_0_device_CPU_0"
TO_W1 = "_to_job_worker_replica_0_task_1_device_CPU_0"


def node(name, op, device, inputs=(), **attr):
    """A placed NodeDef dict with exactly the keys of Operation.node_def."""
    return {"name": name, "op": op, "device": device, "input": list(inputs), "attr": attr}


def names(piece):
    return [nd["name"] for nd in piece.nodes]


def by_name(piece):
    return {nd["name"]: nd for nd in piece.nodes}


def test_hand_written_node_defs_have_the_keys_of_real_ones():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0, name="a")
        tf.identity(a, name="b")
    assert [set(op.node_def) for op in g.get_operations()] == [set(node("a", "Const", PS))] * 2


def test_one_device_is_one_piece_with_no_send_or_recv():
    nodes = [node("a", "Const", W0), node("b", "Identity", W0, ["a"]),
             node("c", "NoOp", W0, ["^b"])]
    pieces = partition(nodes, [], ["b:0"], ["c"])
    assert list(pieces) == [W0]
    piece = pieces[W0]
    assert isinstance(piece, Piece) and piece.device == W0
    assert piece.nodes == nodes
    assert (piece.feeds, piece.fetches, piece.targets) == ([], ["b:0"], ["c"])
    assert piece.as_dict() == {"device": W0, "nodes": nodes, "feeds": [], "fetches": ["b:0"],
                               "targets": ["c"]}


def test_data_edge_between_devices_becomes_a_send_recv_pair():
    nodes = [node("a", "Const", PS), node("b", "Identity", W0, ["a"], T=tf.float32)]
    pieces = partition(nodes, [], ["b:0"], [])
    assert set(pieces) == {PS, W0}
    send_name, recv_name = f"a/_send_0{TO_W0}/_Send", f"a/_send_0{TO_W0}/_Recv"
    assert names(pieces[PS]) == ["a", send_name]
    assert names(pieces[W0]) == [recv_name, "b"]          # the _Recv comes before its reader
    attrs = {"key": f"{PS};{W0};a:0", "tensor_name": "a:0", "send_device": PS,
             "recv_device": W0}
    send, recv = by_name(pieces[PS])[send_name], by_name(pieces[W0])[recv_name]
    assert send == {"name": send_name, "op": "_Send", "input": ["a:0"], "device": PS,
                    "attr": attrs}
    assert recv == {"name": recv_name, "op": "_Recv", "input": [], "device": W0,
                    "attr": attrs}
    b = by_name(pieces[W0])["b"]
    assert b["input"] == [recv_name + ":0"]
    assert b["attr"] == {"T": tf.float32} and b["device"] == W0
    # the _Send runs because it is a target of its piece; the fetch stays with its producer
    assert (pieces[PS].feeds, pieces[PS].fetches, pieces[PS].targets) == ([], [], [send_name])
    assert (pieces[W0].feeds, pieces[W0].fetches, pieces[W0].targets) == ([], ["b:0"], [])


def test_the_input_node_defs_are_not_changed():
    nodes = [node("a", "Const", PS), node("b", "Identity", W0, ["a"])]
    before = [dict(nd, input=list(nd["input"])) for nd in nodes]
    partition(nodes, [], ["b:0"], [])
    assert nodes == before


def test_second_output_is_sent_under_its_own_index():
    nodes = [node("v", "Const", PS), node("split", "Split", PS, ["v"], num_split=2),
             node("use", "Identity", W0, ["split:1"])]
    pieces = partition(nodes, [], ["use:0"], [])
    base = f"split/_send_1{TO_W0}"
    send = by_name(pieces[PS])[base + "/_Send"]
    assert send["input"] == ["split:1"]
    assert send["attr"]["tensor_name"] == "split:1"
    assert send["attr"]["key"] == f"{PS};{W0};split:1"
    assert by_name(pieces[W0])["use"]["input"] == [base + "/_Recv:0"]


def test_a_tensor_goes_to_each_device_once_however_many_ops_read_it():
    nodes = [node("a", "Const", PS),
             node("b1", "Identity", W0, ["a"]), node("b2", "Add", W0, ["a", "a:0"]),
             node("c", "Identity", W1, ["a"])]
    pieces = partition(nodes, [], ["b1:0", "b2:0", "c:0"], [])
    sends = [nd for nd in pieces[PS].nodes if nd["op"] == "_Send"]
    assert [(s["name"], s["attr"]["recv_device"]) for s in sends] == [
        (f"a/_send_0{TO_W0}/_Send", W0), (f"a/_send_0{TO_W1}/_Send", W1)]
    assert pieces[PS].targets == [s["name"] for s in sends]
    recv_w0 = f"a/_send_0{TO_W0}/_Recv:0"
    assert names(pieces[W0]) == [recv_w0[:-2], "b1", "b2"]
    assert by_name(pieces[W0])["b1"]["input"] == [recv_w0]
    assert by_name(pieces[W0])["b2"]["input"] == [recv_w0, recv_w0]
    assert names(pieces[W1]) == [f"a/_send_0{TO_W1}/_Recv", "c"]


def test_two_outputs_of_one_op_are_two_pairs():
    nodes = [node("v", "Const", PS), node("split", "Split", PS, ["v"], num_split=2),
             node("add", "Add", W0, ["split:0", "split:1"])]
    pieces = partition(nodes, [], ["add:0"], [])
    assert by_name(pieces[W0])["add"]["input"] == [f"split/_send_0{TO_W0}/_Recv:0",
                                                   f"split/_send_1{TO_W0}/_Recv:0"]
    assert [nd["attr"]["tensor_name"] for nd in pieces[PS].nodes if nd["op"] == "_Send"] == [
        "split:0", "split:1"]


def test_control_edge_between_devices_is_carried_by_a_control_send():
    nodes = [node("init", "NoOp", PS), node("a", "Const", W0, ["^init"]),
             node("b", "Const", W0, ["^init"])]
    pieces = partition(nodes, [], ["a:0", "b:0"], [])
    send_name, recv_name = f"init/_ctrl_0{TO_W0}/_Send", f"init/_ctrl_0{TO_W0}/_Recv"
    attrs = {"key": f"{PS};{W0};^init", "tensor_name": "^init", "send_device": PS,
             "recv_device": W0}
    assert pieces[PS].nodes == [
        node("init", "NoOp", PS),
        {"name": send_name, "op": "_SendControl", "input": ["^init"], "device": PS,
         "attr": attrs}]
    assert pieces[PS].targets == [send_name]
    assert names(pieces[W0]) == [recv_name, "a", "b"]
    recv = by_name(pieces[W0])[recv_name]
    assert (recv["op"], recv["input"], recv["attr"]) == ("_Recv", [], attrs)
    assert by_name(pieces[W0])["a"]["input"] == ["^" + recv_name]   # still a control input
    assert by_name(pieces[W0])["b"]["input"] == ["^" + recv_name]   # one pair for both


def test_control_edge_within_a_device_is_left_alone():
    nodes = [node("init", "NoOp", W0), node("a", "Const", W0, ["^init"])]
    pieces = partition(nodes, [], ["a:0"], [])
    assert pieces[W0].nodes == nodes


def test_data_and_control_edges_from_one_op_are_separate_pairs():
    nodes = [node("a", "Const", PS), node("b", "Identity", W0, ["a", "^a"])]
    pieces = partition(nodes, [], ["b:0"], [])
    assert by_name(pieces[W0])["b"]["input"] == [f"a/_send_0{TO_W0}/_Recv:0",
                                                 f"^a/_ctrl_0{TO_W0}/_Recv"]
    assert [(nd["op"], nd["attr"]["tensor_name"]) for nd in pieces[PS].nodes[1:]] == [
        ("_Send", "a:0"), ("_SendControl", "^a")]


@pytest.mark.parametrize("feed", ["x:0", "x"])
def test_fed_tensor_is_read_where_it_is_used_and_never_sent(feed):
    # `x` itself is not in the pruned graph: the feed replaces it.
    nodes = [node("w", "Const", PS), node("y", "MatMul", W0, ["x", "w"]),
             node("z", "Add", PS, ["x:0", "w"]), node("z2", "Identity", PS, ["x"])]
    pieces = partition(nodes, [feed], ["y:0", "z:0", "z2:0"], [])
    assert pieces[W0].feeds == ["x:0"]
    assert pieces[PS].feeds == ["x:0"]                     # listed once per piece
    assert by_name(pieces[PS])["z"]["input"] == ["x:0", "w"]
    assert by_name(pieces[W0])["y"]["input"] == ["x", f"w/_send_0{TO_W0}/_Recv:0"]
    sent = [nd["attr"]["tensor_name"] for p in pieces.values() for nd in p.nodes
            if nd["op"] == "_Send"]
    assert sent == ["w:0"]


def test_feeding_one_output_still_sends_the_others():
    nodes = [node("v", "Const", PS), node("split", "Split", PS, ["v"], num_split=2),
             node("add", "Add", W0, ["split:0", "split:1"])]
    pieces = partition(nodes, ["split:0"], ["add:0"], [])
    assert pieces[W0].feeds == ["split:0"]
    assert by_name(pieces[W0])["add"]["input"] == ["split:0", f"split/_send_1{TO_W0}/_Recv:0"]


def test_fetches_go_to_the_producers_piece_normalized_and_fed_ones_to_none():
    nodes = [node("a", "Const", PS), node("b", "Identity", W0, ["a"]),
             node("split", "Split", W1, ["b"], num_split=2)]
    pieces = partition(nodes, ["b:0"], ["a", "b", "split:1", "split:0"], [])
    assert pieces[PS].fetches == ["a:0"]
    assert pieces[W0].fetches == []                        # fed: the master has it already
    assert pieces[W1].fetches == ["split:1", "split:0"]
    assert pieces[W1].feeds == ["b:0"]


def test_targets_go_to_their_own_piece_after_its_sends():
    nodes = [node("a", "Const", W0), node("inc", "Identity", PS, ["a"]),
             node("train", "NoOp", W1, ["^inc"])]
    pieces = partition(nodes, [], [], ["inc", "train"])
    assert pieces[W0].targets == [f"a/_send_0{TO_PS}/_Send"]
    assert pieces[PS].targets == [f"inc/_ctrl_0{TO_W1}/_Send", "inc"]
    assert pieces[W1].targets == ["train"]


def _train_graph():
    g = tf.Graph()
    with g.as_default():
        with tf.device("/job:ps/task:0"):
            w = tf.Variable([[1.0], [2.0]], name="w")
        with tf.device("/job:worker/task:0"):
            x = tf.placeholder(tf.float32, [None, 2], name="x")
            loss = tf.reduce_sum(tf.matmul(x, w, name="y"), name="loss")
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
        with tf.device("/job:worker/task:1"):
            tf.identity(w, name="peek")
    del train
    return [op.node_def for op in g.get_operations()]


def test_pieces_of_a_real_graph_are_self_contained_and_pair_up():
    feeds, fetches, targets = ["x:0"], ["loss:0", "peek:0"], ["train"]
    order = [dict(nd) for nd in prune(_train_graph(), feeds, fetches, targets)]
    placed = place(order, [PS, W0, W1], W0)
    for nd in order:
        nd["device"] = placed[nd["name"]]
    pieces = partition(order, feeds, fetches, targets)
    assert set(pieces) == {PS, W0, W1}
    # every original op is in exactly the piece of its device
    for nd in order:
        assert [p.device for p in pieces.values() if nd["name"] in names(p)] == [nd["device"]]
    sends, recvs = {}, collections.Counter()
    for device, piece in pieces.items():
        here = set(names(piece))
        assert all(nd["device"] == device for nd in piece.nodes)
        for nd in piece.nodes:
            for text in nd["input"]:
                src, index = parse_input(text)
                assert src in here or f"{src}:{index}" in piece.feeds, (device, nd["name"], text)
            if nd["op"] in ("_Send", "_SendControl"):
                assert nd["attr"]["send_device"] == device and nd["name"] in piece.targets
                assert nd["attr"]["recv_device"] != device
                sends[nd["attr"]["key"]] = nd["attr"]
            elif nd["op"] == "_Recv":
                assert nd["attr"]["recv_device"] == device
                recvs[nd["attr"]["key"]] += 1
        # what a worker does with the piece: nothing missing, nothing dead
        kept = prune(piece.nodes, piece.feeds, piece.fetches, piece.targets)
        assert sorted(nd["name"] for nd in kept) == sorted(here)
    assert set(recvs) == set(sends) and set(recvs.values()) == {1}   # pairs match one to one
    assert sorted((a["tensor_name"], a["recv_device"]) for a in sends.values()) == sorted([
        ("w/read:0", W0), ("w/read:0", W1),                    # once to each device
        ("train/learning_rate:0", PS), ("gradients/y_grad/MatMul_1:0", PS),
        ("^train/update_w/ApplyGradientDescent", W0)])         # the `train` NoOp waits for it
    assert pieces[W0].feeds == ["x:0"] and pieces[W0].fetches == ["loss:0"]
    assert pieces[W1].fetches == ["peek:0"] and pieces[PS].fetches == []
    assert "train" in pieces[W0].targets
