"""Freezing and pruning graph_defs -- mirrors TF 1.15's python/framework/graph_util_impl.py
(tf.graph_util: convert_variables_to_constants, extract_sub_graph, remove_training_nodes,
must_run_on_cpu, tensor_shape_from_node_def_name).

The classic last step of a TF-1 tutorial is "freezing" a trained model into one file that needs
no checkpoint:

    frozen = tf.graph_util.convert_variables_to_constants(
        sess, sess.graph_def, output_node_names=["softmax"])
    tf.train.write_graph(frozen, "/tmp/model", "frozen.pb", as_text=False)
    ...
    with tf.Graph().as_default():                      # later, anywhere
        probs, = tf.import_graph_def(frozen, return_elements=["softmax:0"], name="")

It works in two steps, as TF's:
  1. extract_sub_graph keeps the nodes the outputs need -- the outputs and, walking back, every
     node one of them reads or waits for (inputs and control inputs) -- in their order. The
     initializers, the Assign ops, the training ops and the Saver's ops all go.
  2. Every variable left (VariableV2, Variable) becomes a Const of the same name holding the
     variable's current value, read with one sess.run. The `<var>/read` Identity that reads it
     now reads the constant, so nothing else changes.
`variable_names_whitelist` freezes only the variables named; `variable_names_blacklist` all
but those (the others stay variables, to be restored from a checkpoint).

A graph_def is either the sandbox's form -- a GraphDef of NodeDef dicts (framework/graph_def.py),
what `sess.graph_def` and `graph.as_graph_def()` give -- or a GraphDef protobuf (tf.GraphDef, as
parsed from a .pb file).
Every function here returns the form it was given; tf.import_graph_def and tf.train.write_graph
take both. The nodes are copies: the input graph_def is not changed.

The sandbox has no resource variables (VarHandleOp / ReadVariableOp), so TF's conversion of
those has nothing to convert here. The functions take `sess` only to call sess.run.
"""
import copy
import re

import numpy as np

from .graph_def import GraphDef
from .node_def import NodeDef
from .tensor_proto import dtype_of_enum, make_tensor_proto

__all__ = ["convert_variables_to_constants", "extract_sub_graph", "must_run_on_cpu",
           "remove_training_nodes", "tensor_shape_from_node_def_name"]

_VARIABLE_OPS = {"Assign", "AssignAdd", "AssignSub", "Queue", "ScatterAdd", "ScatterSub",
                 "ScatterUpdate", "TruncatedNormal", "Variable", "VariableV2"}


# -- the two forms of a graph_def ---------------------------------------------------------------

def _is_proto(graph_def):
    return hasattr(graph_def, "SerializeToString") and hasattr(graph_def, "node") and \
        not isinstance(graph_def, dict)          # (the sandbox's GraphDef is a dict)


def _nodes(graph_def):
    """The nodes of `graph_def` (copies of the sandbox's dicts are NodeDefs: node.name ...)."""
    if _is_proto(graph_def):
        return list(graph_def.node)
    if isinstance(graph_def, dict) and "node" in graph_def:
        return [NodeDef(nd) for nd in graph_def["node"]]
    raise TypeError(f"graph_def must be a graph_pb2.GraphDef proto, got "
                    f"{type(graph_def).__name__}. Pass sess.graph_def (or "
                    "tf.get_default_graph().as_graph_def()), or a tf.GraphDef.")


def _graph_def_like(graph_def, nodes):
    """A graph_def of the same form as `graph_def`, holding `nodes`, its versions and library."""
    if _is_proto(graph_def):
        out = type(graph_def)()
        out.node.extend(nodes)
        for field in ("versions", "library"):       # (tensorboardX's GraphDef has no library)
            if field in graph_def.DESCRIPTOR.fields_by_name and graph_def.HasField(field):
                getattr(out, field).CopyFrom(getattr(graph_def, field))
        return out
    return GraphDef(node=nodes, versions=dict(graph_def.get("versions", {})))


def _copy_node(node, inputs=None):
    """A copy of `node`, with `inputs` in place of its own when given."""
    if isinstance(node, dict):
        new = NodeDef(node)
        new["input"] = list(node["input"] if inputs is None else inputs)
        new["attr"] = dict(node.get("attr") or {})
        return new
    new = copy.deepcopy(node)
    if inputs is not None:
        del new.input[:]
        new.input.extend(inputs)
    return new


def _const_node(variable_node, value):
    """The Const node standing for a frozen variable: same name, dtype and value."""
    if isinstance(variable_node, dict):
        dtype = variable_node["attr"]["dtype"]
        return NodeDef(name=variable_node["name"], op="Const",
                       attr={"dtype": dtype,
                             "value": np.asarray(value, dtype=dtype.as_numpy_dtype)})
    node = type(variable_node)()
    node.name, node.op = variable_node.name, "Const"
    node.attr["dtype"].CopyFrom(variable_node.attr["dtype"])
    tensor = make_tensor_proto(value, dtype=dtype_of_enum(variable_node.attr["dtype"].type))
    node.attr["value"].tensor.MergeFromString(tensor.SerializeToString())
    return node


def _node_name(n):
    """The node an input names: '^a' (a control input) and 'a:1' (an output) are node 'a'."""
    return n[1:] if n.startswith("^") else n.split(":")[0]


# -- extract_sub_graph -----------------------------------------------------------------------

def extract_sub_graph(graph_def, dest_nodes):
    """The graph_def of the nodes `dest_nodes` (node names) need: they and every node they read
    or wait for, transitively, in graph_def's order."""
    if isinstance(dest_nodes, (str, bytes)):
        raise TypeError("dest_nodes must be a list.")
    nodes = _nodes(graph_def)
    by_name = {node.name: node for node in nodes}
    for name in dest_nodes:
        assert name in by_name, f"{name} is not in graph"
    keep, pending = set(), list(dest_nodes)
    while pending:                                  # walk back from the outputs
        name = pending.pop()
        if name in keep:
            continue
        keep.add(name)
        pending.extend(_node_name(i) for i in by_name[name].input)
    return _graph_def_like(graph_def, [_copy_node(node) for node in nodes if node.name in keep])


# -- convert_variables_to_constants ------------------------------------------------------------

def convert_variables_to_constants(sess, input_graph_def, output_node_names,
                                   variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """The graph_def that computes output_node_names with every variable it reads replaced by a
    Const of the variable's current value in `sess` (see the module docstring)."""
    inference_graph = extract_sub_graph(input_graph_def, output_node_names)
    variable_names = []
    for node in _nodes(inference_graph):
        if node.op not in ("Variable", "VariableV2"):
            continue
        if (variable_names_whitelist is not None and node.name not in variable_names_whitelist) \
                or (variable_names_blacklist is not None and
                    node.name in variable_names_blacklist):
            continue
        variable_names.append(node.name)
    values = sess.run([name + ":0" for name in variable_names]) if variable_names else []
    frozen = dict(zip(variable_names, values))
    output_nodes = [_const_node(node, frozen[node.name]) if node.name in frozen else node
                    for node in _nodes(inference_graph)]
    return _graph_def_like(inference_graph, output_nodes)


# -- remove_training_nodes --------------------------------------------------------------------

def remove_training_nodes(input_graph, protected_nodes=None):
    """The graph_def without what only training needs: CheckNumerics nodes dropped, and Identity
    nodes spliced out (their readers read the Identity's input) -- except the nodes in
    `protected_nodes` and Identities with or serving as control inputs."""
    protected = set(protected_nodes or ())
    nodes = _nodes(input_graph)
    removed = {n.name for n in nodes if n.op == "CheckNumerics" and n.name not in protected}
    kept = [_copy_node(n, [i for i in n.input if re.sub(r"^\^", "", i) not in removed])
            for n in nodes if n.name not in removed]

    control_inputs = {i[1:] for n in kept for i in n.input if i.startswith("^")}
    with_control_input = {n.name for n in kept if any(i.startswith("^") for i in n.input)}
    splice = {n.name: n.input[0] for n in kept
              if n.op == "Identity" and n.name not in protected and
              n.name not in with_control_input and n.name not in control_inputs}

    def resolve(full_name):
        name = re.sub(r"^\^", "", full_name)
        while name in splice:
            full_name = splice[name]
            name = re.sub(r"^\^", "", full_name)
        return full_name
    spliced = [_copy_node(n, [resolve(i) for i in n.input]) for n in kept
               if n.name not in splice]
    if _is_proto(input_graph):
        out = type(input_graph)()
        out.node.extend(spliced)
        return out
    return {"node": spliced, "versions": dict(input_graph.get("versions", {}))}


# -- what runs where; shapes ----------------------------------------------------------------

def _attr_dtype(node_def, key):
    value = node_def.attr[key]
    return dtype_of_enum(value.type) if hasattr(value, "type") else value


def must_run_on_cpu(node, pin_variables_on_cpu=False):
    """Whether TF's placer would keep `node` (an Operation or a NodeDef) on the CPU: int32 and
    string Consts, int32 DynamicStitch and Casts from int32, and (pin_variables_on_cpu) the
    variable ops. (The sandbox's tasks have only a CPU.)"""
    node_def = node.node_def if hasattr(node, "node_def") and hasattr(node, "outputs") else node
    if pin_variables_on_cpu and node_def.op in _VARIABLE_OPS:
        return True
    checks = {"Const": "dtype", "DynamicStitch": "T", "ParallelDynamicStitch": "T",
              "Cast": "SrcT"}
    if node_def.op not in checks:
        return False
    dtype = _attr_dtype(node_def, checks[node_def.op])
    allowed = ("int32", "string") if node_def.op == "Const" else ("int32",)
    return getattr(dtype, "name", None) in allowed


def tensor_shape_from_node_def_name(graph, input_name):
    """The static shape of the tensor `input_name` ('x' is 'x:0') of `graph`."""
    canonical_name = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(canonical_name).get_shape()
