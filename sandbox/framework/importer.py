"""Importing a graph -- mirrors TensorFlow's tf.import_graph_def (python/framework/importer.py).

    graph_def = sess.graph_def                      # or Graph-built node_defs, or a GraphDef
    with tf.Graph().as_default():                   # protobuf (tf.train.write_graph's, TF's)
        y, = tf.import_graph_def(graph_def, input_map={"x:0": new_x},
                                 return_elements=["y:0"], name="import")

Every node becomes an Operation again under the name scope `name` ("import" by default, made
unique as a name scope is; "" for none): same type, attributes, inputs, control inputs and
device. `input_map` {"x:0": Tensor} makes the imported ops read that tensor instead;
`return_elements` names ops ("y") or tensors ("y:0") to return.

The same code rebuilds the ops of a meta graph (train/meta_graph.py, tf.train.import_meta_graph):
import_nodes below. A meta graph records each op's output dtypes and static shapes; a plain
graph_def does not (a node_def says its inputs, not its outputs), so import_graph_def infers the
output dtypes from the node's attributes as TF's OpDefs would ("dtype", "DstT", "out_type",
"T" ...) and runs the ops' shape functions. A GraphDef protobuf (anything with `.node` whose
items have name, op, input, device and attr as TF's NodeDef) is read duck-typed: its AttrValues
become the sandbox's plain attribute values, a TensorProto a NumPy array (tensor_proto.py).
"""
import numpy as np

from . import dtypes, errors
from .graph import get_default_graph
from .op_def import get_op_def, registered_ops
from .tensor import Tensor, convert_to_tensor
from .tensor_shape import TensorShape

__all__ = ["import_graph_def"]


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Imports the graph `graph_def` (sess.graph_def, {"node": [node_def, ...]}, or a GraphDef
    protobuf) into the default graph under the name scope `name` (default "import"); returns
    the ops and tensors named in `return_elements`, or None. See the module docstring.
    `op_dict` is unused (as in TF); `producer_op_list` is accepted and ignored."""
    del op_dict, producer_op_list
    nodes = _node_dicts(graph_def)
    if input_map is None:
        input_map = {}
    elif not isinstance(input_map, dict):
        raise TypeError("Argument `input_map` must be a dictionary. Obtained "
                        f"{type(input_map).__name__}")
    if not all(isinstance(k, (str, bytes)) for k in input_map):
        raise TypeError("All keys for argument `input_map` must be strings. "
                        f"Obtained keys: {list(input_map.keys())}")
    if return_elements is not None:
        if isinstance(return_elements, (str, bytes)) or \
                not all(isinstance(x, (str, bytes)) for x in return_elements):
            raise TypeError("Argument `return_elements` must be a list of strings. "
                            f"Obtained {return_elements}.")
        return_elements = [x.decode() if isinstance(x, bytes) else x for x in return_elements]
    input_map = {(k.decode() if isinstance(k, bytes) else k): v for k, v in input_map.items()}

    graph = get_default_graph()
    by_name = {nd["name"]: nd for nd in nodes}
    known = registered_ops()
    with graph.name_scope("import" if name is None else name) as scope:
        for nd in nodes:
            if nd["op"] not in known:
                get_op_def(nd["op"])             # NotFoundError: Op type not registered 'X'
        mapped = {}
        for key, value in input_map.items():
            mapped[_tensor_key(key)] = value if isinstance(value, Tensor) else \
                convert_to_tensor(value)
    prefix = scope
    missing = [key for key in input_map if not _names_output(by_name, _tensor_key(key))]
    if missing:
        raise ValueError("Attempted to map inputs that were not found in graph_def: "
                         f"[{', '.join(missing)}]")
    for key, tensor in mapped.items():
        if tensor.graph is not graph:
            raise ValueError(f"input_map[{key!r}] must be a Tensor of the default graph, got "
                             f"{tensor!r}.")
    # Check return_elements before the graph changes, as TF's import does.
    for element in return_elements or ():
        op_name, colon, index = element.partition(":")
        if op_name not in by_name:
            what = "tensor" if colon else "node"
            raise ValueError(f"Requested return {what} {element!r} not found in graph def")
    created = import_nodes(graph, nodes, prefix, mapped, uniquify=True,
                           caller="import_graph_def")
    if return_elements is None:
        return None
    results = []
    for element in return_elements:
        op_name, colon, index = element.partition(":")
        op = created[op_name]
        if not colon:
            results.append(op)
            continue
        i = int(index)
        if not 0 <= i < len(op.outputs):
            raise ValueError(f"Invalid return output {i} of node {op_name!r}, which has "
                             f"{len(op.outputs)} output(s)")
        results.append(op.outputs[i])
    return results


def _tensor_key(key):
    op_name, _, index = key.partition(":")
    return f"{op_name}:{index or 0}"


def _names_output(by_name, key):
    op_name, _, index = key.partition(":")
    return op_name in by_name and index.isdigit()


# -- what a node_def is: a dict, or a NodeDef protobuf read duck-typed --------------------

def _node_dicts(graph_def):
    """The node_defs of `graph_def` as plain dicts {"name", "op", "input", "device", "attr"}."""
    if isinstance(graph_def, dict) and "node" in graph_def:
        nodes = graph_def["node"]
    elif hasattr(graph_def, "node") and not isinstance(graph_def, (str, bytes, dict)):
        nodes = graph_def.node
    else:
        raise TypeError("Argument `graph_def` must be a GraphDef proto.")
    out = []
    for nd in nodes:
        if isinstance(nd, dict):
            out.append({"name": nd["name"], "op": nd["op"], "input": list(nd.get("input", ())),
                        "device": nd.get("device") or "",
                        "attr": {k: v for k, v in (nd.get("attr") or {}).items()
                                 if k != "_output_shapes"}})
        else:                                   # a NodeDef protobuf
            attrs = {k: _attr_value(k, v) for k, v in nd.attr.items() if k != "_output_shapes"}
            for key, value in attrs.items():
                if hasattr(value, "name") and hasattr(value, "attr"):    # a NameAttrList
                    raise ValueError(
                        f"Cannot import node {nd.name!r} ({nd.op}): its attr {key!r} calls the "
                        f"function {value.name!r}, whose body a GraphDef protobuf keeps in "
                        "GraphDef.library, which the sandbox cannot read. Import the graph's "
                        "own GraphDef (graph.as_graph_def() or sess.graph_def, not its bytes): "
                        "it holds the bodies of tf.while_loop, tf.cond and tf.data functions.")
            out.append({"name": nd.name, "op": nd.op, "input": list(nd.input),
                        "device": nd.device or "", "attr": attrs})
    return out


def _attr_value(key, attr):
    """The sandbox's plain value of an AttrValue protobuf."""
    from .tensor_proto import make_ndarray, dtype_of_enum
    field = attr.WhichOneof("value")
    if field is None:
        return None
    if field == "list":
        lst = attr.list
        for name in ("s", "i", "f", "b", "type", "shape", "tensor"):
            items = list(getattr(lst, name))
            if items:
                return [_scalar_attr(key, name, v, make_ndarray, dtype_of_enum) for v in items]
        return []
    return _scalar_attr(key, field, getattr(attr, field), make_ndarray, dtype_of_enum)


def _scalar_attr(key, field, value, make_ndarray, dtype_of_enum):
    if field == "s":
        if key == "_class":
            return value
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return value
    if field in ("i", "f", "b"):
        return value
    if field == "type":
        return dtype_of_enum(value)
    if field == "shape":
        if value.unknown_rank:
            return TensorShape(None)
        return TensorShape([None if d.size < 0 else d.size for d in value.dim])
    if field == "tensor":
        return make_ndarray(value)
    return value


# -- rebuilding the ops (shared with train/meta_graph.py's import_meta_graph) -------------

def rename(name, prefix):
    """`name` (an op name, a tensor name or a '^control' input) under `prefix` ('scope/')."""
    if not prefix:
        return name
    if name.startswith("^"):
        return "^" + prefix + name[1:]
    return prefix + name


def import_nodes(graph, nodes, prefix, input_map, clear_devices=False, outputs=None,
                 uniquify=False, caller="import_meta_graph"):
    """Adds `nodes` (node_def dicts) to `graph`, each name under `prefix`; returns {name in
    `nodes`: Operation}. `input_map` {'x:0': Tensor}: inputs read that tensor instead.
    `outputs` {name: [[dtype name, shape list], ...]} (a meta graph's record) gives each op's
    output dtypes and static shapes; without it the dtypes are inferred and the shape functions
    run. `uniquify`: a name already taken gets a new unique one (as TF's import with name='');
    otherwise it is an error."""
    final = {}
    for nd in nodes:
        name = rename(nd["name"], prefix)
        if name in graph._nodes_by_name and not uniquify:
            raise ValueError(f"{caller}: the default graph already has an op named "
                             f"{name!r}. Import into a new tf.Graph(), or pass "
                             "import_scope='some_name' to prefix the imported names.")
        final[nd["name"]] = name
    # Inputs before consumers. An export lists ops in creation order, which already is such
    # an order; _topological makes sure of it for a graph assembled by other means.
    by_name = {nd["name"]: nd for nd in nodes}
    used_outputs = {}
    for nd in nodes:
        for ref in nd["input"]:
            if not ref.startswith("^"):
                op_name, _, index = ref.partition(":")
                used_outputs[op_name] = max(used_outputs.get(op_name, 0), int(index or 0) + 1)
    created, pending = {}, []
    with graph.as_default(), graph.name_scope(None), graph.control_dependencies(None):
        for original in _topological(by_name, caller):
            nd = by_name[original]
            name = final[original]
            inputs = []
            for ref in nd["input"]:
                if ref.startswith("^"):
                    continue
                op_name, _, index = ref.partition(":")
                mapped = input_map.get(f"{op_name}:{index or 0}")
                if mapped is not None:
                    inputs.append(mapped)
                    continue
                source = created[op_name]
                if int(index or 0) >= len(source.outputs):
                    raise ValueError(f"{caller}: node {original!r} takes input {ref!r}, but "
                                     f"{op_name!r} has {len(source.outputs)} output(s).")
                inputs.append(source.outputs[int(index or 0)])
            attrs = dict(nd["attr"])
            if prefix and attrs.get("_class"):
                attrs["_class"] = [b"loc:@" + prefix.encode() + c[len(b"loc:@"):]
                                   if c.startswith(b"loc:@") else c for c in attrs["_class"]]
            marked = graph.unique_name(name)
            if marked != name:       # e.g. 'a' imported after an op 'A': names clash by case
                if not uniquify:
                    raise ValueError(f"{caller}: the name {name!r} is taken in the "
                                     "default graph; pass import_scope to prefix the names.")
                name = final[original] = marked
            if outputs is not None:
                out = outputs[original]
                op = graph.create_op(nd["op"], inputs, [dtypes.as_dtype(d) for d, _ in out],
                                     name=name + "/", attrs=attrs, compute_shapes=False,
                                     compute_device=False)
                for tensor, (_, shape) in zip(op.outputs, out):
                    tensor._shape = TensorShape(shape)
            else:
                out_types = infer_output_dtypes(nd, inputs, used_outputs.get(original, 0))
                op = graph.create_op(nd["op"], inputs, out_types, name=name + "/",
                                     attrs=attrs, compute_shapes=True, compute_device=False)
            device = "" if clear_devices else nd.get("device", "")
            if device:
                op._set_device(device)
            else:
                graph._apply_device_functions(op)
            created[original] = op
            pending.append((op, nd))
        for op, nd in pending:
            for ref in nd["input"]:
                if ref.startswith("^"):
                    op._add_control_input(created[ref[1:]])
    return created


def _topological(by_name, caller):
    """The names in an order where every op comes after its (data and control) inputs."""
    order, state = [], {}
    for start in by_name:
        stack = [(start, False)]
        while stack:
            name, done = stack.pop()
            if done:
                state[name] = 2
                order.append(name)
                continue
            if state.get(name):
                continue
            state[name] = 1
            stack.append((name, True))
            for ref in reversed(by_name[name]["input"]):
                dep = ref.lstrip("^").partition(":")[0]
                if dep not in by_name:
                    what = "graph_def" if caller == "import_graph_def" else "meta graph"
                    raise ValueError(f"{caller}: node {name!r} takes input {ref!r}, "
                                     f"which is not in the {what}.")
                if not state.get(dep) and not ref.startswith("^"):
                    stack.append((dep, False))
    # Control inputs are added after all ops exist, so only data inputs order the list.
    return order


# -- output dtypes from a node_def: what TF's OpDefs say ----------------------------------

_NO_OUTPUTS = {"NoOp", "Assert", "MergeV2Checkpoints", "QueueCloseV2", "SaveV2", "Save",
               "SaveSlices", "AccumulatorApplyGradient", "AccumulatorSetGlobalStep",
               "QueueEnqueueV2", "QueueEnqueueManyV2", "PrintV2", "WriteFile",
               "ResetQueueRunner"}
_BOOL_OUTPUTS = {"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
                 "LogicalAnd", "LogicalOr", "LogicalNot", "IsFinite", "IsNan", "IsInf",
                 "IsVariableInitialized", "InTopK", "InTopKV2", "ApproximateEqual"}
_INT32_OUTPUTS = {"Rank", "QueueSizeV2", "ReaderNumRecordsProducedV2"}
_SINGLE = {"Where": "int64", "AsString": "string", "StringJoin": "string"}
# ops of several outputs whose dtypes differ, or whose number an attribute gives:
# fn(attrs, T) -> output dtypes (T: the "T" attr, or the first input's dtype)
_MULTI = {
    "TopKV2": lambda a, t: [t, dtypes.int32],
    "Unique": lambda a, t: [t, a.get("out_idx", dtypes.int32)],
    "ListDiff": lambda a, t: [t, a.get("out_idx", dtypes.int32)],
    "UniqueWithCounts": lambda a, t: [t] + [a.get("out_idx", dtypes.int32)] * 2,
    "DynamicPartition": lambda a, t: [t] * int(a["num_partitions"]),
    "Qr": lambda a, t: [t, t],
    "SelfAdjointEigV2": lambda a, t: [t, t],
    "Svd": lambda a, t: [t, t, t],
    "SoftmaxCrossEntropyWithLogits": lambda a, t: [t, t],
    "SparseSoftmaxCrossEntropyWithLogits": lambda a, t: [t, t],
    "Dropout": lambda a, t: [t, t],
    "ReaderReadV2": lambda a, t: [dtypes.string, dtypes.string],
    "ReaderReadUpToV2": lambda a, t: [dtypes.string, dtypes.string],
    "IdentityN": lambda a, t: list(a["T"]),
    "ConcatOffset": lambda a, t: [dtypes.int32] * int(a["N"]),
    "DecodeCSV": lambda a, t: list(a["OUT_TYPE"]),
}


def infer_output_dtypes(nd, inputs, used=0):
    """The output dtypes of the op of node_def `nd` (inputs: its input Tensors), as TF's OpDef
    type attributes say; at least `used` outputs (the highest index its consumers read)."""
    op_type, attrs = nd["op"], nd["attr"]
    try:
        op_def = get_op_def(op_type)
    except errors.NotFoundError:
        op_def = None
    first = inputs[0].dtype.base_dtype if inputs else dtypes.float32

    def dtype(value):
        return dtypes.as_dtype(value).base_dtype

    if op_type in _NO_OUTPUTS and not used:
        return []
    if op_def is not None and op_def.ref_outputs and op_type not in ("VariableV2", "Variable"):
        return [dtypes.string._as_ref]      # a queue, reader or accumulator: its handle
    listed = None
    if op_type in _MULTI:
        t = attrs.get("T")
        t = dtype(t) if t is not None and not isinstance(t, (list, tuple)) else first
        try:
            listed = [dtype(d) for d in _MULTI[op_type](attrs, t)]
        except (KeyError, TypeError, ValueError):
            listed = None
    for key in ("dtypes", "component_types", "Tout", "out_types", "output_types"):
        if listed is not None:
            break
        if isinstance(attrs.get(key), (list, tuple)):
            listed = [dtype(d) for d in attrs[key]]
            break
    if listed is not None:
        out = listed
    else:
        if op_type in _SINGLE:
            one = dtypes.as_dtype(_SINGLE[op_type])
        elif op_type in _BOOL_OUTPUTS:
            one = dtypes.bool
        elif op_type in _INT32_OUTPUTS:
            one = dtypes.int32
        else:
            one = None
            for key in ("DstT", "out_type", "output_type", "output_dtype", "Tout", "dtype", "T"):
                value = attrs.get(key)
                if value is not None and not isinstance(value, (list, tuple, np.ndarray)):
                    try:
                        one = dtype(value)
                        break
                    except (TypeError, ValueError):
                        pass
            if one is None:
                one = first
        count = 1
        if op_def is not None and op_def.multi_output:
            for key in ("num", "num_split", "N"):
                if isinstance(attrs.get(key), (int, np.integer)):
                    count = int(attrs[key])
                    break
        out = [one] * count
    if len(out) < used:
        out = out + [out[-1] if out else first] * (used - len(out))
    if op_def is not None:
        out = [d._as_ref if i in op_def.ref_outputs else d for i, d in enumerate(out)]
    return out
