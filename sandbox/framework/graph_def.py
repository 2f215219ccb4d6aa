"""A graph as data -- mirrors TensorFlow's GraphDef (core/framework/graph.proto) and
Graph.as_graph_def (python/framework/ops.py).

    graph_def = tf.get_default_graph().as_graph_def()    # or sess.graph_def
    print(len(graph_def.node), graph_def.node[0].op)
    frozen = tf.graph_util.convert_variables_to_constants(sess, graph_def, ["logits"])
    with tf.gfile.GFile("frozen.pb", "wb") as f:
        f.write(frozen.SerializeToString())              # TF's bytes: TensorFlow reads them

In TensorFlow a GraphDef is a protocol buffer. The sandbox's graphs are plain node_def dicts
(framework/node_def.py), and some of their attrs have no protobuf form -- the bodies of
tf.while_loop, tf.cond and tf.data functions are graphs themselves. So a GraphDef here is that
dict, {"node": [NodeDef ...], "versions": {"producer": ...}}, which keeps everything: it
imports back whole (tf.import_graph_def), bodies included. It answers as the protobuf does --
`.node`, `.versions.producer`, `SerializeToString()`, `str()` in text format -- and
`as_proto()` gives the real protobuf (tensorboardX's copy of TF's graph.proto; tf.GraphDef is
that class), Const values included, as TF writes it. What the protobuf cannot carry is left
out of it: internal attrs ('_...', except '_class'), and the bodies of functions -- an attr
holding one names it, as TF's does, but TF keeps bodies in GraphDef.library, which
tensorboardX's copy of graph.proto lacks; importing such a protobuf says so.

graph_def_proto() is the TensorBoard form the FileWriter sends (no values; each node's
output shapes in '_output_shapes', drawn on the edges).
"""
import numpy as np

from .dtypes import DType, as_dtype
from .node_def import NodeDef
from .tensor_shape import TensorShape

__all__ = ["GraphDef", "as_proto", "graph_def_proto"]


class _Versions(dict):
    """GraphDef.versions: producer (and min_consumer), as attributes too."""
    __slots__ = ()

    def __getattr__(self, key):
        if key in ("producer", "min_consumer"):
            return self.get(key, 0)
        raise AttributeError(f"'VersionDef' object has no attribute {key!r}")


class GraphDef(dict):
    """The nodes of a graph as data: a dict with keys "node" and "versions", readable as TF's
    GraphDef protobuf (`gd.node`, `gd.versions.producer`, `gd.SerializeToString()`)."""

    __slots__ = ()

    def __init__(self, node=(), versions=None):
        super().__init__(node=[n if isinstance(n, NodeDef) else NodeDef(n) for n in node],
                         versions=_Versions(versions or {}))

    @property
    def node(self):
        return self["node"]

    @property
    def versions(self):
        return self["versions"]

    def as_proto(self):
        return as_proto(self)

    def SerializeToString(self, deterministic=False):  # noqa: N802 -- protobuf's name
        """The protobuf's bytes, which TensorFlow parses (see as_proto for what they hold)."""
        return as_proto(self).SerializeToString(deterministic=deterministic)

    def ByteSize(self):  # noqa: N802 -- protobuf's name
        return as_proto(self).ByteSize()

    def __str__(self):
        from google.protobuf import text_format
        return text_format.MessageToString(as_proto(self))

    def __reduce__(self):
        return (GraphDef, (list(self["node"]), dict(self["versions"])))


def as_proto(graph_or_graph_def, add_shapes=False, caller="as_proto"):
    """The GraphDef protobuf of a Graph, of a graph_def dict (sess.graph_def), or the protobuf
    itself -- TF's as_graph_def(): every node's name, op, inputs, device and attrs, a Const's
    value in its TensorProto, and (add_shapes) each node's output shapes."""
    if hasattr(graph_or_graph_def, "SerializeToString") and \
            not isinstance(graph_or_graph_def, GraphDef):
        return graph_or_graph_def
    if isinstance(graph_or_graph_def, dict):
        node_defs = list(graph_or_graph_def.get("node", []))
    elif hasattr(graph_or_graph_def, "get_operations"):
        node_defs = [op.node_def for op in graph_or_graph_def.get_operations()]
    else:
        raise TypeError(f"{caller} writes a tf.Graph or a graph_def (sess.graph_def), not "
                        f"{type(graph_or_graph_def).__name__}: pass sess.graph or "
                        f"sess.graph_def.")
    proto = graph_def_proto(graph_or_graph_def)
    from ..version import GRAPH_DEF_VERSION
    versions = graph_or_graph_def.get("versions", {}) if isinstance(graph_or_graph_def, dict) \
        else {}
    proto.versions.producer = versions.get("producer", GRAPH_DEF_VERSION)
    for node, node_def in zip(proto.node, node_defs):
        if "_output_shapes" in node.attr and not add_shapes and not isinstance(
                graph_or_graph_def, dict):         # (a graph_def has them when it asked)
            del node.attr["_output_shapes"]
        value = node_def.get("attr", {}).get("value")
        if isinstance(value, np.ndarray) and "value" in node.attr:
            _fill_tensor(node.attr["value"].tensor, value)
    return proto


def graph_def_proto(graph):
    """A TensorBoard GraphDef (tensorboardX's protobuf) of a sandbox Graph, or of a graph_def
    dict {"node": [node_def, ...]} such as sess.graph_def: node names, ops, inputs, devices,
    attrs, and each op's output shapes (`_output_shapes`, drawn on the edges)."""
    from tensorboardX.proto import graph_pb2, node_def_pb2, versions_pb2
    if isinstance(graph, dict):
        pairs = [(nd, None) for nd in graph.get("node", [])]
    else:
        pairs = [(op.node_def, op) for op in graph.get_operations()]
    nodes = []
    for nd, op in pairs:
        node = node_def_pb2.NodeDef(name=nd["name"], op=nd["op"], input=list(nd["input"]),
                                    device=nd.get("device") or "")
        for key, value in nd.get("attr", {}).items():
            if key.startswith("_") and key not in ("_class", "_output_shapes"):
                continue
            attr = _attr_proto(value)
            if attr is not None:
                node.attr[key].CopyFrom(attr)
        if op is not None and op.outputs:
            shapes = _attr_proto([t.get_shape() for t in op.outputs])
            node.attr["_output_shapes"].CopyFrom(shapes)
        nodes.append(node)
    return graph_pb2.GraphDef(node=nodes, versions=versions_pb2.VersionDef(producer=27))


def _fill_tensor(tensor_proto, value):
    """Puts a Const's value into its TensorProto (graph_def_proto gives dtype and shape only),
    as TF does: numbers as little-endian tensor_content, strings as string_val."""
    if value.dtype == object or value.dtype.kind in "SU":
        tensor_proto.string_val.extend(
            v if isinstance(v, bytes) else str(v).encode("utf-8") for v in value.ravel())
    elif value.size:
        tensor_proto.tensor_content = value.astype(value.dtype.newbyteorder("<")).tobytes()


def _type_enum(dtype):
    from tensorboardX.proto import types_pb2
    base = dtype.base_dtype.name
    name = {"float32": "DT_FLOAT", "float64": "DT_DOUBLE", "float16": "DT_HALF"}.get(
        base, "DT_" + base.upper())
    value = types_pb2.DataType.Value(name)
    return value + 100 if dtype.is_ref else value


def _shape_proto(shape):
    return shape.as_proto()


def _attr_proto(value):
    """An AttrValue for a plain attribute (None when the protobuf has no form for it)."""
    from tensorboardX.proto import attr_value_pb2, tensor_pb2
    AttrValue = attr_value_pb2.AttrValue
    if isinstance(value, bool) or isinstance(value, np.bool_):
        return AttrValue(b=bool(value))
    if isinstance(value, (int, np.integer)):
        return AttrValue(i=int(value))
    if isinstance(value, (float, np.floating)):
        return AttrValue(f=float(value))
    if isinstance(value, str):
        return AttrValue(s=value.encode("utf-8"))
    if isinstance(value, bytes):
        return AttrValue(s=value)
    if isinstance(value, DType):
        return AttrValue(type=_type_enum(value))
    if isinstance(value, TensorShape):
        return AttrValue(shape=_shape_proto(value))
    if isinstance(value, np.ndarray):            # a Const's value: its dtype and shape only
        try:
            dtype = _type_enum(as_dtype(value.dtype))
        except (TypeError, ValueError):
            return None
        return AttrValue(tensor=tensor_pb2.TensorProto(
            dtype=dtype, tensor_shape=_shape_proto(TensorShape(value.shape))))
    if isinstance(value, dict) and {"name", "nodes"} <= set(value):
        # a function's body (tf.while_loop, tf.cond, tf.data): TF's AttrValue names it and
        # keeps the body in GraphDef.library, which this protobuf has not -- the name only
        return AttrValue(func=attr_value_pb2.NameAttrList(name=value["name"]))
    if isinstance(value, (list, tuple)):
        if value and all(_is_dims(v) for v in value):   # list(shape): parse_example's
            value = [TensorShape([None if d == -1 else d for d in v]) for v in value]
        items = [_attr_proto(v) for v in value]
        if any(item is None for item in items):
            return None
        lst = AttrValue.ListValue()
        for item in items:
            field = item.WhichOneof("value")
            if field in ("s", "i", "f", "b", "type"):
                getattr(lst, field).append(getattr(item, field))
            elif field == "shape":
                lst.shape.add().CopyFrom(item.shape)
            else:
                return None
        return AttrValue(list=lst)
    return None


def _is_dims(value):
    """A shape written as a list of ints (-1 or None unknown), as parse_example's dense_shapes
    are: an AttrValue has no list of lists, so a list of these is a list(shape)."""
    return isinstance(value, (list, tuple)) and all(
        d is None or (isinstance(d, (int, np.integer)) and not isinstance(d, bool))
        for d in value)
