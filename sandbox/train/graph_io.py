"""Writing a graph to a file -- mirrors TensorFlow's tf.io.write_graph / tf.train.write_graph
(python/framework/graph_io.py).

    tf.train.write_graph(sess.graph_def, '/tmp/my-model', 'train.pbtxt')   # text
    tf.train.write_graph(tf.get_default_graph(), '/tmp/my-model', 'train.pb', as_text=False)

The sandbox's graphs are not protocol buffers: a Graph's ops carry plain node_def dicts, and
`sess.graph_def` is a GraphDef of those dicts (framework/graph_def.py). write_graph turns them
into a real GraphDef protobuf (framework/graph_def.py: as_proto, tensorboardX's copy of TF's
graph.proto) and writes it as TF does: `as_text=True` the protobuf text format (a .pbtxt),
`as_text=False` the binary wire format (GraphDef.SerializeToString(), a .pb). Each node has its name, op, inputs, device
and attrs, and a Const its value; attrs with no GraphDef form (Python functions and other
sandbox-only values) and internal attrs ('_...', except '_class') are left out. TensorFlow
parses both files, and a graph of ops that TF has (constants, math, variables) imports and runs
there (tf.import_graph_def); ops of the sandbox alone do not. A variable's value is not in the
graph: a checkpoint carries it.
"""
import os

from ..framework.graph_def import as_proto
from ..framework.tensor_bundle import atomic_write

__all__ = ["write_graph"]


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes the graph to logdir/name -- TF's graph_io.write_graph: the GraphDef protobuf in
    text format (as_text=True) or serialized (as_text=False); see the module docstring for what
    it holds. Creates `logdir`; writes atomically; returns the file's path."""
    graph_def = as_proto(graph_or_graph_def, caller="write_graph")
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
