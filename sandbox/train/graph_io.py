"""Writing a graph to a file -- mirrors TensorFlow's tf.io.write_graph / tf.train.write_graph
(python/framework/graph_io.py).

    tf.train.write_graph(sess.graph_def, '/tmp/my-model', 'train.pbtxt')   # text
    tf.train.write_graph(tf.get_default_graph(), '/tmp/my-model', 'train.pb', as_text=False)

The sandbox's graphs are not protocol buffers: a Graph's ops carry plain node_def dicts, and
`sess.graph_def` is {"node": [...], "versions": {...}}. write_graph turns them into a real
GraphDef protobuf -- the one the summary FileWriter sends to TensorBoard
(summary/writer.py: graph_def_proto, tensorboardX's copy of TF's graph.proto) -- and writes it
as TF does: `as_text=True` the protobuf text format (a .pbtxt), `as_text=False` the binary
wire format (GraphDef.SerializeToString(), a .pb). Each node has its name, op, inputs, device
and attrs, and a Const its value; attrs with no GraphDef form (Python functions and other
sandbox-only values) and internal attrs ('_...', except '_class') are left out. TensorFlow
parses both files, and a graph of ops that TF has (constants, math, variables) imports and runs
there (tf.import_graph_def); ops of the sandbox alone do not. A variable's value is not in the
graph: a checkpoint carries it.
"""
import os

import numpy as np

from ..framework.graph import Graph
from ..framework.tensor_bundle import atomic_write
from ..summary.writer import graph_def_proto

__all__ = ["write_graph"]


def _as_graph_def(graph_or_graph_def):
    """A GraphDef protobuf of a Graph, of a graph_def dict such as sess.graph_def, or the
    GraphDef protobuf itself."""
    if isinstance(graph_or_graph_def, Graph):
        node_defs = [op.node_def for op in graph_or_graph_def.get_operations()]
    elif isinstance(graph_or_graph_def, dict) and "node" in graph_or_graph_def:
        node_defs = list(graph_or_graph_def["node"])
    elif hasattr(graph_or_graph_def, "SerializeToString") and \
            hasattr(graph_or_graph_def, "node"):
        return graph_or_graph_def
    else:
        raise TypeError(f"write_graph writes a tf.Graph or a graph_def (sess.graph_def), not "
                        f"{type(graph_or_graph_def).__name__}: pass sess.graph or "
                        f"sess.graph_def.")
    proto = graph_def_proto(graph_or_graph_def)
    for node, node_def in zip(proto.node, node_defs):
        if "_output_shapes" in node.attr:       # TF's as_graph_def() adds no shapes
            del node.attr["_output_shapes"]
        value = node_def.get("attr", {}).get("value")
        if isinstance(value, np.ndarray) and "value" in node.attr:
            _fill_tensor(node.attr["value"].tensor, value)
    return proto


def _fill_tensor(tensor_proto, value):
    """Puts a Const's value into its TensorProto (graph_def_proto gives dtype and shape only),
    as TF does: numbers as little-endian tensor_content, strings as string_val."""
    if value.dtype == object or value.dtype.kind in "SU":
        tensor_proto.string_val.extend(
            v if isinstance(v, bytes) else str(v).encode("utf-8") for v in value.ravel())
    elif value.size:
        tensor_proto.tensor_content = value.astype(value.dtype.newbyteorder("<")).tobytes()


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes the graph to logdir/name -- TF's graph_io.write_graph: the GraphDef protobuf in
    text format (as_text=True) or serialized (as_text=False); see the module docstring for what
    it holds. Creates `logdir`; writes atomically; returns the file's path."""
    graph_def = _as_graph_def(graph_or_graph_def)
    logdir = os.fspath(logdir)
    if logdir:
        os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        from google.protobuf import text_format
        data = text_format.MessageToString(graph_def).encode("utf-8")
    else:
        data = graph_def.SerializeToString(deterministic=True)
    atomic_write(path, [data])
    return path
