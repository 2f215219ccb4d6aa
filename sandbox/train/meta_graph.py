"""The `.meta` file beside a checkpoint -- plays the part of TensorFlow's MetaGraphDef files
(python/framework/meta_graph.py; written by tf.train.Saver.save and export_meta_graph, read
back into a graph by tf.train.import_meta_graph, python/training/saver.py).

A meta graph is the graph as data (its ops' node_defs, the saver's names, the collections).
It is stored in the wire format (runtime/wire.py): a JSON header plus raw arrays, never pickle,
checked before it is trusted:

    magic b"SBXMETA1" | u64 header length | u32 crc32 of header | u32 number of buffers
    | u64 length of each buffer | header (JSON) | buffers

Written atomically, as every checkpoint file is (framework/tensor_bundle.py atomic_write).

import_meta_graph rebuilds the graph from that data alone -- no Python code of the program
that wrote it is needed:

    saver = tf.train.import_meta_graph('train/model.ckpt-1000.meta')   # ops into the default
    with tf.Session() as sess:                                          # graph, collections,
        saver.restore(sess, 'train/model.ckpt-1000')                    # the saver
        sess.run('logits:0', {'x:0': batch})

  1. every node_def becomes an Operation again (same name, type, attributes, inputs, control
     inputs, device -- or none with clear_devices=True; the export records each op's output
     dtypes and static shapes, which a node_def alone does not say);
  2. the variables of the variable collections become tf.Variable objects again (TF's
     VariableDef: the variable op, its initializer, its snapshot 'read'), so
     tf.global_variables_initializer(), optimizers and Savers work on them;
  3. the other collections come back where their items are ops or tensors (by name);
     Python objects such as QueueRunners or Savers are not data and are left out;
  4. the Saver is rebuilt from the SaverDef: no new ops, it runs the imported save/restore
     ops. Without a SaverDef, a new Saver is built when there are variables (as TF does).

With import_scope='imported', every name gets the prefix 'imported/'.
"""
import struct
import zlib

import logging

from ..framework import errors
from ..framework.graph import GraphKeys, get_default_graph
from ..framework.importer import import_nodes, rename as _rename
from ..framework.tensor_bundle import atomic_write
from ..runtime import wire

__all__ = ["write_meta_graph", "read_meta_graph", "META_MAGIC", "import_scoped_meta_graph",
           "graph_extras", "VARIABLE_COLLECTIONS"]

META_MAGIC = b"SBXMETA1"
_META_HEAD = struct.Struct("<8sQII")


def write_meta_graph(path, meta_graph):
    header, buffers = wire.encode(meta_graph)
    lengths = [memoryview(b).nbytes for b in buffers]
    head = _META_HEAD.pack(META_MAGIC, len(header), zlib.crc32(header), len(buffers)) + \
        struct.pack(f"<{len(lengths)}Q", *lengths)
    atomic_write(path, [head, header] + [memoryview(b).cast("B") for b in buffers])


def read_meta_graph(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != META_MAGIC or len(data) < _META_HEAD.size:
        raise _loss(f"Meta graph {path} has a bad magic number: not a sandbox meta graph.")
    _, header_len, crc, n = _META_HEAD.unpack_from(data)
    at = _META_HEAD.size
    if len(data) < at + 8 * n:
        raise _loss(f"Meta graph {path} is truncated.")
    lengths = struct.unpack_from(f"<{n}Q", data, at)
    at += 8 * n
    header = data[at:at + header_len]
    if len(header) != header_len or zlib.crc32(header) != crc:
        raise _loss(f"Meta graph {path} is corrupted (header CRC mismatch or truncated).")
    at += header_len
    buffers = []
    for length in lengths:
        if at + length > len(data):
            raise _loss(f"Meta graph {path} is truncated.")
        buffers.append(data[at:at + length])
        at += length
    return wire.decode(header, buffers)


def _loss(message):
    return errors.DataLossError(None, None, message)


# -- what a node_def does not say: written beside the graph by export_meta_graph --------

VARIABLE_COLLECTIONS = (GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES,
                        GraphKeys.LOCAL_VARIABLES, GraphKeys.MODEL_VARIABLES,
                        GraphKeys.MOVING_AVERAGE_VARIABLES, GraphKeys.METRIC_VARIABLES,
                        GraphKeys.GLOBAL_STEP)

_log = logging.getLogger("sandbox")


def _shape_data(shape):
    return None if shape.ndims is None else list(shape.as_list())


def graph_extras(graph, ops, collection_keys):
    """For export: each op's output dtypes and static shapes, and the VariableDef of every
    variable in `collection_keys` (data only: names, dtypes, lists)."""
    outputs = {op.name: [[t.dtype.name, _shape_data(t.get_shape())] for t in op.outputs]
               for op in ops}
    variable_defs = {}
    for key in collection_keys:
        if key not in VARIABLE_COLLECTIONS:
            continue
        for v in graph.get_collection(key):
            if not (hasattr(v, "_ref") and hasattr(v, "initializer")) or \
                    v.name in variable_defs:
                continue
            try:
                variable_defs[v.name] = {
                    "variable_name": v.name, "initializer_name": v.initializer.name,
                    "snapshot_name": v.value().name,
                    "initial_value_name": v.initial_value.name, "trainable": v.trainable}
                info = v._get_save_slice_info()     # a shard: TF's save_slice_info_def
                if info is not None:
                    variable_defs[v.name]["save_slice_info"] = {
                        "full_name": info.full_name, "full_shape": info.full_shape,
                        "var_offset": info.var_offset, "var_shape": info.var_shape}
            except (AttributeError, TypeError, ValueError):
                pass           # not a plain tf.Variable: its collections keep only its name
    return outputs, variable_defs


# -- reading a meta graph back into a graph ---------------------------------------------------

def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None,
                             input_map=None, **kwargs):
    """Adds the graph of a meta graph (a `.meta` path, or the dict export_meta_graph returns)
    to the default graph and restores its collections; returns its SaverDef as a dict, names
    under `import_scope`, or None (tf.train.import_meta_graph, train/saver.py, makes the
    Saver -- as TF's saver.py does over its meta_graph.py). See the module docstring.

    input_map {name in the meta graph ('x:0'): Tensor of the default graph}: the imported ops
    read that tensor instead (e.g. to put a new input pipeline in front of a saved model)."""
    unknown = set(kwargs) - {"restore_collections_predicate"}
    if unknown:
        raise TypeError(f"import_meta_graph got unexpected arguments {sorted(unknown)}; it "
                        "takes clear_devices, import_scope, input_map and "
                        "restore_collections_predicate.")
    keep = kwargs.get("restore_collections_predicate") or (lambda key: True)
    meta = meta_graph_or_file
    if not isinstance(meta, dict):
        path = str(meta)
        try:
            meta = read_meta_graph(path)
        except FileNotFoundError:
            raise OSError(f"File {path} does not exist: import_meta_graph needs the '.meta' "
                          "file a Saver wrote beside its checkpoint (e.g. "
                          "'train/model.ckpt-1000.meta').") from None
    graph = get_default_graph()
    prefix = f"{import_scope.rstrip('/')}/" if import_scope else ""
    input_map = {(k if ":" in k else k + ":0"): v for k, v in (input_map or {}).items()}
    for key, tensor in input_map.items():
        if getattr(tensor, "graph", None) is not graph:
            raise ValueError(f"input_map[{key!r}] must be a Tensor of the default graph, got "
                             f"{tensor!r}.")
    _import_ops(graph, meta, clear_devices, prefix, input_map)
    _import_collections(graph, meta, prefix, keep)
    saver_def = meta.get("saver_def")
    if not saver_def:
        return None
    saver_def = dict(saver_def)
    for key in ("filename_tensor_name", "save_tensor_name", "restore_op_name"):
        if saver_def.get(key):
            saver_def[key] = _rename(saver_def[key], prefix)
    return saver_def


def _import_ops(graph, meta, clear_devices, prefix, input_map):
    nodes = meta.get("graph_def", {}).get("node", [])
    outputs = meta.get("graph_def", {}).get("outputs")
    if nodes and outputs is None:
        raise ValueError("This meta graph does not record its ops' output types (it was "
                         "written by an older sandbox, or built by hand): export it again "
                         "with tf.train.export_meta_graph / Saver.save.")
    # The ops are rebuilt as tf.import_graph_def rebuilds them (framework/importer.py), with
    # the output dtypes and static shapes the export recorded.
    import_nodes(graph, nodes, prefix, input_map, clear_devices=clear_devices,
                 outputs=outputs, caller="import_meta_graph")


def _import_collections(graph, meta, prefix, keep):
    from ..ops.variables import SaveSliceInfo, Variable
    var_defs = meta.get("variable_defs") or {}
    variables = {}

    def variable(name):
        if name not in variables:
            vd = var_defs[name]
            v = Variable.__new__(Variable)        # TF's Variable(variable_def=...)
            v._variable = graph.as_graph_element(_rename(vd["variable_name"], prefix))
            v._initializer_op = graph.as_graph_element(_rename(vd["initializer_name"], prefix))
            v._snapshot = graph.as_graph_element(_rename(vd["snapshot_name"], prefix))
            v._initial_value = graph.as_graph_element(_rename(vd["initial_value_name"], prefix))
            v._trainable = vd.get("trainable", True)
            v._constraint = None
            v._graph = graph
            info = vd.get("save_slice_info")
            if info is not None:
                v._set_save_slice_info(SaveSliceInfo(
                    _rename(info["full_name"], prefix), info["full_shape"],
                    info["var_offset"], info["var_shape"]))
            variables[name] = v
        return variables[name]

    for key, names in (meta.get("collection_def") or {}).items():
        if not keep(key):
            continue
        for name in names:
            if key in VARIABLE_COLLECTIONS:
                if name not in var_defs:
                    _log.info("import_meta_graph: %r of collection %r is not a plain "
                              "tf.Variable; left out.", name, key)
                    continue
                item = variable(name)
            else:
                try:
                    item = graph.as_graph_element(_rename(name, prefix))
                except (KeyError, ValueError, TypeError):
                    _log.info("import_meta_graph: collection %r: %r is not an op or tensor of "
                              "the graph; left out.", key, name)
                    continue
            if item not in graph.get_collection(key):
                graph.add_to_collection(key, item)
