"""Unit tests of the placer -- TensorFlow's Placer (core/common_runtime/placer.cc), as the pure
function sandbox/runtime/placer.place: colocation groups (the `_class: loc:@...` attr and the
reference edges into ops that change a variable), the merging of their requested devices, the
defaults that fill what an op leaves unset, soft placement, and the errors -- on small graphs."""
import pytest

import sandbox as tf
from sandbox.runtime.placer import place

PS0 = "/job:ps/replica:0/task:0"
PS1 = "/job:ps/replica:0/task:1"
W0 = "/job:worker/replica:0/task:0"
W1 = "/job:worker/replica:0/task:1"
CPU = "/device:CPU:0"
DEVICES = [PS0 + CPU, PS1 + CPU, W0 + CPU, W0 + "/device:GPU:0", W1 + CPU]


def node(name, op, device="", inputs=(), **attr):
    """A NodeDef dict with exactly the keys of Operation.node_def."""
    return {"name": name, "op": op, "device": device, "input": list(inputs), "attr": attr}


def graph_nodes(graph):
    return [op.node_def for op in graph.get_operations()]


def test_hand_written_node_defs_have_the_keys_of_real_ones():
    g = tf.Graph()
    with g.as_default(), tf.device("/job:ps/task:0"):
        tf.constant(1.0, name="c")
    (real,) = graph_nodes(g)
    assert set(real) == set(node("c", "Const"))
    assert real["device"] == "/job:ps/task:0" and real["input"] == []


# -- filling in the defaults -----------------------------------------------------------------

def test_op_that_asks_for_nothing_lands_on_the_first_task_of_the_cluster():
    # TF 1.15, measured: whichever task the session talks to (here worker 1), an op with no
    # device goes to the first device in order of job name and task -- /job:ps/task:0.
    placed = place([node("a", "Const")], DEVICES, W1 + CPU)
    assert placed == {"a": PS0 + CPU}


def test_a_partial_request_takes_the_first_matching_task():
    placed = place([node("a", "Const", "/job:worker")], DEVICES, W1 + CPU)
    assert placed == {"a": W0 + CPU}                 # not the session's own worker 1


@pytest.mark.parametrize("requested, expected", [
    ("/job:ps/task:1", PS1 + CPU),                           # replica and device filled in
    ("/job:ps", PS0 + CPU),                                  # the first ps task
    ("/job:worker/task:1/cpu:0", W1 + CPU),                  # TF-0.x short form
    ("/device:GPU:0", W0 + "/device:GPU:0"),                 # the only task with a GPU
    ("/gpu:*", W0 + "/device:GPU:0"),                        # any GPU: the first
    (W1 + CPU, W1 + CPU),                                    # already complete
])
def test_unset_fields_are_filled_in_by_the_first_matching_device(requested, expected):
    placed = place([node("a", "Const", requested)], DEVICES, W0 + CPU)
    assert placed == {"a": expected}


def test_every_node_gets_a_device_and_the_node_defs_are_not_changed():
    nodes = [node("a", "Const", "/job:ps/task:1"), node("b", "Identity", "", ["a"]),
             node("c", "Identity", "/job:worker/task:1", ["b"])]
    before = [dict(nd) for nd in nodes]
    placed = place(nodes, DEVICES, W0 + CPU)
    assert placed == {"a": PS1 + CPU, "b": PS0 + CPU, "c": W1 + CPU}
    assert nodes == before                 # place() returns a mapping; it sets no device


# -- a device that no task has ---------------------------------------------------------------

@pytest.mark.parametrize("requested", ["/job:worker/task:7", "/job:nowhere/task:0",
                                       "/job:ps/task:0/device:GPU:0"])
def test_missing_device_is_an_invalid_argument_naming_the_op_and_the_devices(requested):
    nodes = [node("fine", "Const"), node("lost", "Const", requested)]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        place(nodes, DEVICES, W0 + CPU)
    e = info.value
    assert e.node_def == "lost"
    assert "Cannot assign a device for operation lost" in e.message
    assert f"explicitly assigned to {requested}" in e.message
    for device in DEVICES:                 # lists what does exist
        assert device in e.message
    assert "allow_soft_placement" in e.message


def test_soft_placement_falls_back_to_a_device_of_the_ops_own_task():
    nodes = [node("a", "Const", "/job:worker/task:1/device:GPU:7"),
             node("b", "Const", "/job:ps/task:1/gpu:0")]
    placed = place(nodes, DEVICES, W0 + CPU, allow_soft_placement=True)
    assert placed == {"a": W1 + CPU, "b": PS1 + CPU}


def test_soft_placement_does_not_invent_a_job_or_a_task():
    # TF's soft placement drops the device type and index only (colocation_graph.cc).
    for requested in ("/job:nowhere/task:3/device:GPU:1", "/job:worker/task:7"):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            place([node("a", "Const", requested)], DEVICES, W1 + CPU,
                  allow_soft_placement=True)
        assert "not its job or task" in info.value.message


def test_soft_placement_leaves_existing_devices_alone():
    nodes = [node("a", "Const", "/job:worker/task:0/device:GPU:0"),
             node("b", "Const", "/job:ps/task:1")]
    placed = place(nodes, DEVICES, W1 + CPU, allow_soft_placement=True)
    assert placed == {"a": W0 + "/device:GPU:0", "b": PS1 + CPU}


def test_soft_placement_keeps_a_colocation_group_together():
    nodes = [node("w", "VariableV2", "/job:ps/task:1/device:GPU:0"),
             node("w/read", "Identity", "/job:ps/task:1/device:GPU:0", ["w"],
                  _class=[b"loc:@w"])]
    with pytest.raises(tf.errors.InvalidArgumentError, match="operation w:"):
        place(nodes, DEVICES, W0 + CPU)
    placed = place(nodes, DEVICES, W0 + CPU, allow_soft_placement=True)
    assert placed == {"w": PS1 + CPU, "w/read": PS1 + CPU}


# -- colocation ------------------------------------------------------------------------------

@pytest.mark.parametrize("group", [b"loc:@w", "loc:@w"])
def test_class_attr_puts_an_op_with_its_group(group):
    nodes = [node("w", "VariableV2", "/job:ps/task:1"),
             node("r", "Identity", "", ["w"], _class=[group])]
    assert place(nodes, DEVICES, W0 + CPU) == {"w": PS1 + CPU, "r": PS1 + CPU}


def test_colocated_requests_are_merged_field_by_field():
    nodes = [node("a", "Const", "/job:worker"),
             node("b", "Const", "/task:1", _class=[b"loc:@a"])]
    assert place(nodes, DEVICES, W0 + CPU) == {"a": W1 + CPU, "b": W1 + CPU}


def test_colocation_is_transitive_through_an_op_in_two_groups():
    nodes = [node("a", "Const", "/job:ps/task:1"), node("b", "Const"),
             node("c", "Add", "", ["a", "b"], _class=[b"loc:@a", b"loc:@b"]),
             node("d", "Const", _class=[b"loc:@b"])]
    placed = place(nodes, DEVICES, W0 + CPU)
    assert placed == {"a": PS1 + CPU, "b": PS1 + CPU, "c": PS1 + CPU, "d": PS1 + CPU}


def test_ops_colocated_with_an_op_outside_the_piece_stay_together():
    # `w` itself was pruned away; its reads still share one device.
    nodes = [node("r1", "Identity", "", ["w"], _class=[b"loc:@w"]),
             node("r2", "Identity", "/job:ps/task:1", ["w"], _class=[b"loc:@w"]),
             node("other", "Const")]
    placed = place(nodes, DEVICES, W0 + CPU)
    assert placed == {"r1": PS1 + CPU, "r2": PS1 + CPU, "other": PS0 + CPU}


def test_an_op_taking_a_variable_reference_follows_the_variable():
    nodes = [node("w", "VariableV2", "/job:ps/task:1"), node("one", "Const"),
             node("inc", "AssignAdd", "", ["w", "one"])]
    placed = place(nodes, DEVICES, W0 + CPU)
    assert placed == {"w": PS1 + CPU, "one": PS1 + CPU, "inc": PS1 + CPU}   # `one`: see below


def test_an_update_asking_for_another_task_still_runs_where_the_variable_lives():
    nodes = [node("w", "VariableV2", "/job:ps/task:1"), node("one", "Const"),
             node("inc", "AssignAdd", "/job:worker/task:0", ["w", "one"]),
             node("set", "Assign", "/job:ps/task:0", ["w:0", "one"])]
    placed = place(nodes, DEVICES, W0 + CPU)
    assert placed == {"w": PS1 + CPU, "one": PS1 + CPU, "inc": PS1 + CPU, "set": PS1 + CPU}


def test_only_the_reference_input_colocates():
    # Assign's value (input 1) is an ordinary input: its producer is not pulled along.
    nodes = [node("w", "VariableV2", "/job:ps/task:0"), node("v", "VariableV2", "/job:ps/task:1"),
             node("set", "Assign", "", ["w", "v"])]
    placed = place(nodes, DEVICES, W0 + CPU)
    assert placed == {"w": PS0 + CPU, "v": PS1 + CPU, "set": PS0 + CPU}


@pytest.mark.parametrize("other, field", [("/job:worker/task:0", "jobs"),
                                          ("/job:ps/task:1", "tasks"),
                                          ("/job:ps/task:0/device:GPU:0", "types")])
def test_colocation_conflict_is_an_invalid_argument_naming_both_ops(other, field):
    nodes = [node("w", "VariableV2", "/job:ps/task:0/device:CPU:0"),
             node("r", "Identity", other, ["w"], _class=[b"loc:@w"])]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        place(nodes, DEVICES, W0 + CPU)
    e = info.value
    assert e.node_def == "r"
    assert "Cannot colocate nodes 'w' and 'r'" in e.message
    assert f"Cannot merge devices with incompatible {field}" in e.message
    assert other in e.message


def test_compatible_requests_in_a_group_are_no_conflict():
    nodes = [node("w", "VariableV2", "/job:ps"),
             node("r", "Identity", "/job:ps/task:1/device:CPU:0", ["w"], _class=[b"loc:@w"])]
    assert place(nodes, DEVICES, W0 + CPU) == {"w": PS1 + CPU, "r": PS1 + CPU}


def test_real_graph_variable_on_the_ps_matmul_on_the_worker():
    g = tf.Graph()
    with g.as_default():
        with tf.device("/job:ps/task:1"):
            w = tf.Variable([[1.0], [2.0]], name="w")
        with tf.device("/job:worker/task:1"):
            x = tf.placeholder(tf.float32, [None, 2], name="x")
            y = tf.matmul(x, w, name="y")
        with tf.colocate_with(w):
            z = tf.identity(y, name="z")
        loose = tf.identity(y, name="loose")
    del z, loose
    placed = place(graph_nodes(g), DEVICES, W0 + CPU)
    assert placed == {"w/initial_value": PS1 + CPU, "w": PS1 + CPU, "w/Assign": PS1 + CPU,
                      "w/read": PS1 + CPU, "x": W1 + CPU, "y": W1 + CPU, "z": PS1 + CPU,
                      "loose": PS0 + CPU}     # no device: the cluster's first task


# -- where the placer departs from TensorFlow's rules ------------------------------------------

def test_soft_placement_does_not_excuse_a_job_conflict_in_a_colocation_group():
    nodes = [node("w", "VariableV2", "/job:ps/task:0"),
             node("r", "Identity", "/job:worker/task:0", ["w"], _class=[b"loc:@w"])]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot colocate nodes 'w' and 'r'"):
        place(nodes, DEVICES, W0 + CPU, allow_soft_placement=True)


def test_update_under_a_gpu_scope_follows_a_variable_on_a_cpu_only_ps():
    nodes = [node("w", "VariableV2", "/job:ps/task:0"), node("one", "Const"),
             node("inc", "AssignAdd", "/job:worker/task:0/device:GPU:0", ["w", "one"])]
    placed = place(nodes, DEVICES, W0 + CPU)
    assert placed["w"] == placed["inc"] == PS0 + CPU


def test_update_from_another_worker_does_not_move_the_variable():
    g = tf.Graph()
    with g.as_default():
        with tf.device("/job:ps"):
            w = tf.Variable(0, name="w")
        with tf.device("/job:worker/task:1"):
            w.assign_add(1, name="inc")
    devices = [PS0 + CPU, W0 + CPU, W1 + CPU]            # one ps task
    placed = place(graph_nodes(g), devices, W0 + CPU)
    assert placed["w"] == placed["inc"] == placed["w/read"] == PS0 + CPU


def test_placement_does_not_depend_on_the_order_of_the_node_defs():
    nodes = [node("w", "VariableV2", "/job:ps/task:1"), node("one", "Const"),
             node("inc", "AssignAdd", "/job:worker/task:0", ["w", "one"])]
    forward = place(nodes, DEVICES, W0 + CPU)
    assert place(nodes[::-1], DEVICES, W0 + CPU) == forward


# -- generators go where their consumers are (TF's "Heuristic A") ----------------------------

def test_the_13_example_puts_its_constant_on_the_ps():
    g = tf.Graph()
    with g.as_default():
        with tf.device("/job:ps/task:0"):
            v = tf.Variable(0.0, name="v")
        v.assign(13.0, name="set")               # no device: the constant has none either
    placed = place(graph_nodes(g), DEVICES, W1 + CPU)
    (const,) = [op.name for op in g.get_operations()
                if op.type == "Const" and op.outputs[0].consumers()[0].name == "set"]
    assert placed["set"] == placed[const] == PS0 + CPU


def test_a_generator_stays_when_its_consumers_are_on_two_devices():
    nodes = [node("c", "Const"), node("a", "Identity", "/job:worker/task:0", ["c"]),
             node("b", "Identity", "/job:worker/task:1", ["c"])]
    assert place(nodes, DEVICES, W0 + CPU)["c"] == PS0 + CPU


def test_a_generator_keeps_a_device_it_asked_for():
    nodes = [node("c", "Const", "/job:worker/task:1"),
             node("a", "Identity", "/job:ps/task:0", ["c"])]
    assert place(nodes, DEVICES, W0 + CPU)["c"] == W1 + CPU
    nodes[0]["device"] = "/job:ps"                # a request the consumer's device satisfies
    assert place(nodes, DEVICES, W0 + CPU)["c"] == PS0 + CPU


def test_a_placeholder_is_a_generator_and_a_random_op_is_not():
    nodes = [node("x", "Placeholder"), node("shape", "Const", "/job:worker/task:0"),
             node("r", "RandomStandardNormal", "", ["shape"]),
             node("a", "Add", "/job:ps/task:1", ["x", "r"])]
    placed = place(nodes, DEVICES, W0 + CPU)
    assert placed["x"] == PS1 + CPU                 # fed on the ps, as TF places it
    assert placed["r"] == PS0 + CPU                 # has an input: not a generator


def test_a_colocated_generator_stays_with_its_group():
    nodes = [node("w", "VariableV2", "/job:ps/task:0"),
             node("c", "Const", "", _class=[b"loc:@w"]),
             node("a", "Identity", "/job:ps/task:1", ["c"])]
    assert place(nodes, DEVICES, W0 + CPU)["c"] == PS0 + CPU
