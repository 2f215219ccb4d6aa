"""Loading a SavedModel -- mirrors TensorFlow's tf.saved_model.loader.load (python/saved_model/
loader_impl.py, the TF-1 API; tf.saved_model.load in TF 1.x's v1 API is the same function).

    with tf.Session(graph=tf.Graph()) as sess:
        meta_graph_def = tf.saved_model.loader.load(
            sess, [tf.saved_model.tag_constants.SERVING], 'export/1')
        sig = meta_graph_def.signature_def['serving_default']
        y = sess.run(sig.outputs['y'].name, {sig.inputs['x'].name: batch})

It reads saved_model.pb (or saved_model.pbtxt), picks the MetaGraphDef whose tags are exactly
`tags`, and then, as TF's loader does:

  1. imports its graph into sess.graph (framework/importer.py; under `import_scope/` if
     given) and its collections: variables come back as tf.Variables (from their VariableDef
     protobufs, as train/meta_graph.py rebuilds them), collections of ops and tensors by name;
  2. restores the variables from variables/ -- a checkpoint in TensorFlow's format
     (tensor_bundle.py). The graph's own restore op (the SaverDef's restore_op_name) is run,
     with the tensors its RestoreV2 ops would read from the files fed in by the loader, which
     reads TF's format here in Python: the Assigns are the graph's, nothing is added to it;
  3. runs the main op (collection 'saved_model_main_op', else 'legacy_init_op'), feeding each
     asset tensor the path of its file in assets/.

A graph TensorFlow wrote may hold ops the sandbox does not have. Those of TF's Saver that only
SAVING needs (StaticRegexFullMatch, which picks the temporary file name) are not imported, nor
anything that depends on them; the model, the variables and the restore ops are. A signature
tensor that depends on an op the sandbox lacks raises NotFoundError naming the op type.
"""
import logging
import os

from ..framework import errors
from ..framework.importer import import_graph_def
from ..framework.op_def import registered_ops
from ..train.meta_graph import VARIABLE_COLLECTIONS, import_scoped_meta_graph
from . import constants
from .tensor_bundle import BundleReader
from .utils_impl import get_assets_dir, get_variables_path

__all__ = ["load", "maybe_saved_model_directory", "contains_saved_model",
           "parse_saved_model", "SavedModelLoader"]

_log = logging.getLogger("sandbox")


def _text(path):
    return path.decode("utf-8") if isinstance(path, bytes) else os.fspath(path)


def maybe_saved_model_directory(export_dir):
    """Whether `export_dir` may hold a SavedModel: it has saved_model.pb or .pbtxt."""
    export_dir = _text(export_dir)
    return any(os.path.isfile(os.path.join(export_dir, name)) for name in
               (constants.SAVED_MODEL_FILENAME_PB, constants.SAVED_MODEL_FILENAME_PBTXT))


def contains_saved_model(export_dir):
    """tf.saved_model.contains_saved_model: a directory with a SavedModel file in it."""
    return os.path.isdir(_text(export_dir)) and maybe_saved_model_directory(export_dir)


def parse_saved_model(export_dir):
    """The SavedModel protobuf of `export_dir`; OSError (TF's IOError) when there is none or
    it does not parse."""
    export_dir = _text(export_dir)
    path_pb = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    path_pbtxt = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    from ..framework import saved_model_pb2     # protobuf: loaded on first use
    saved_model = saved_model_pb2.SavedModel()
    if os.path.isfile(path_pb):
        with open(path_pb, "rb") as f:
            data = f.read()
        try:
            saved_model.ParseFromString(data)
        except Exception as e:          # google.protobuf.message.DecodeError
            raise OSError(f"Cannot parse file {path_pb}: {e}.") from e
    elif os.path.isfile(path_pbtxt):
        from google.protobuf import text_format
        with open(path_pbtxt, "rb") as f:
            data = f.read()
        try:
            text_format.Parse(data.decode("utf-8"), saved_model)
        except text_format.ParseError as e:
            raise OSError(f"Cannot parse file {path_pbtxt}: {e}.") from e
    else:
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.path.sep}"
                      f"{{{constants.SAVED_MODEL_FILENAME_PBTXT}|"
                      f"{constants.SAVED_MODEL_FILENAME_PB}}}")
    return saved_model


def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Loads the meta graph tagged `tags` of the SavedModel in `export_dir` into `sess` and
    restores its variables; returns its MetaGraphDef protobuf. See the module docstring."""
    return SavedModelLoader(export_dir).load(sess, tags, import_scope, **saver_kwargs)


def _prefixed(name, import_scope):
    return f"{import_scope.rstrip('/')}/{name}" if import_scope else name


class SavedModelLoader:
    """TF's SavedModelLoader: the steps of load() one by one."""

    def __init__(self, export_dir):
        self._export_dir = _text(export_dir)
        self._variables_path = get_variables_path(self._export_dir)
        self._saved_model = parse_saved_model(self._export_dir)

    @property
    def export_dir(self):
        return self._export_dir

    @property
    def variables_path(self):
        return self._variables_path

    @property
    def saved_model(self):
        return self._saved_model

    def get_meta_graph_def_from_tags(self, tags):
        """The MetaGraphDef whose tags are the set `tags`; RuntimeError listing the tag-sets
        there are otherwise."""
        if isinstance(tags, (str, bytes)):
            tags = [tags]
        wanted = {_text(t) for t in tags}
        available_tags = []
        for meta_graph_def in self._saved_model.meta_graphs:
            available_tags.append(set(meta_graph_def.meta_info_def.tags))
            if set(meta_graph_def.meta_info_def.tags) == wanted:
                return meta_graph_def
        raise RuntimeError(
            f"MetaGraphDef associated with tags {str(list(tags)).strip('[]')} could not be "
            f"found in SavedModel, with available tags '{available_tags}'. To inspect "
            "available tag-sets in the SavedModel, please use the SavedModel CLI: "
            "`saved_model_cli`.")

    def load_graph(self, graph, tags, import_scope=None, **saver_kwargs):
        """Imports the meta graph's ops and collections into `graph`; returns the name of its
        restore op (under import_scope), or None."""
        meta_graph_def = self.get_meta_graph_def_from_tags(tags)
        return _import_meta_graph_def(graph, meta_graph_def, import_scope,
                                      clear_devices=saver_kwargs.get("clear_devices", False))

    def restore_variables(self, sess, restore_op_name, import_scope=None):
        """Restores the variables from variables/ (TF's checkpoint format) by running
        `restore_op_name` -- a new Saver's when None and there are variables."""
        graph = sess.graph
        if restore_op_name is None:
            from ..ops.variables import global_variables
            with graph.as_default():
                prefix = f"{import_scope.rstrip('/')}/" if import_scope else ""
                var_list = [v for v in global_variables() if v.name.startswith(prefix)]
                if not var_list:
                    _log.info("The specified SavedModel has no variables; no checkpoints "
                              "were restored.")
                    return
                from ..train.saver import Saver
                restore_op_name = Saver(var_list, sharded=True).saver_def.restore_op_name
        _run_restore(sess, graph.as_graph_element(restore_op_name), self._variables_path)

    def run_init_ops(self, sess, tags, import_scope=None):
        """Runs the main op (or legacy init op), feeding the asset tensors their paths."""
        meta_graph_def = self.get_meta_graph_def_from_tags(tags)
        feed = {}
        for asset in meta_graph_def.asset_file_def:
            name = _prefixed(asset.tensor_info.name, import_scope)
            feed[sess.graph.get_tensor_by_name(name)] = os.path.join(
                get_assets_dir(self._export_dir), asset.filename)
        for key in (constants.MAIN_OP_KEY, constants.LEGACY_INIT_OP_KEY):
            if key not in meta_graph_def.collection_def:
                continue
            names = list(meta_graph_def.collection_def[key].node_list.value)
            if len(names) != 1:
                raise RuntimeError("Expected exactly one SavedModel init op. Found "
                                   f"{len(names)}: {names}.")
            op = sess.graph.as_graph_element(_prefixed(names[0], import_scope))
            sess.run(op, feed_dict=feed or None)
            return

    def load(self, sess, tags, import_scope=None, **saver_kwargs):
        with sess.graph.as_default():
            restore_op_name = self.load_graph(sess.graph, tags, import_scope, **saver_kwargs)
            self.restore_variables(sess, restore_op_name, import_scope)
            self.run_init_ops(sess, tags, import_scope)
        return self.get_meta_graph_def_from_tags(tags)


# -- importing a MetaGraphDef protobuf ------------------------------------------------------

# Ops of newer TFs that are an op the sandbox has under its TF-1 name: TF >= 1.15 writes `a + b`
# as AddV2, which is Add without Add's string concatenation -- the same on numbers.
_ALIASES = {"AddV2": "Add"}

def _left_out(nodes):
    """{name: op type it lacks}: nodes of ops the sandbox does not have, and all that depend on
    them (by data or control input)."""
    known = set(registered_ops()) | set(_ALIASES)
    out = {n.name: n.op for n in nodes if n.op not in known}
    changed = bool(out)
    while changed:
        changed = False
        for node in nodes:
            if node.name in out:
                continue
            for ref in node.input:
                dep = ref.lstrip("^").partition(":")[0]
                if dep in out:
                    out[node.name] = out[dep]
                    changed = True
                    break
    return out


def _import_meta_graph_def(graph, meta_graph_def, import_scope, clear_devices=False):
    prefix = f"{import_scope.rstrip('/')}/" if import_scope else ""
    nodes = list(meta_graph_def.graph_def.node)
    left_out = _left_out(nodes)
    if left_out:
        _log.info("SavedModel: %d op(s) not imported, of types the sandbox does not have or "
                  "depending on them: %s", len(left_out), sorted(left_out))
    for info in _signature_tensors(meta_graph_def):
        op_name = info.partition(":")[0]
        if op_name in left_out:
            raise errors.NotFoundError(
                None, None, f"The signature tensor {info!r} needs the op type "
                f"{left_out[op_name]!r}, which the sandbox does not have.")
    taken = [prefix + n.name for n in nodes
             if n.name not in left_out and prefix + n.name in graph._nodes_by_name]
    if taken:
        raise ValueError(f"loader.load: the graph already has ops named {taken[:5]}. Load "
                         "into a new tf.Graph(), or pass import_scope='some_name'.")
    graph_def = type(meta_graph_def.graph_def)()
    graph_def.versions.CopyFrom(meta_graph_def.graph_def.versions)
    known = registered_ops()
    for node in nodes:
        if node.name not in left_out:
            copy = graph_def.node.add()
            copy.CopyFrom(node)
            if copy.op not in known and copy.op in _ALIASES:
                copy.op = _ALIASES[copy.op]
            if clear_devices:
                copy.device = ""
    with graph.as_default():
        import_graph_def(graph_def, name=prefix)
        collections, variable_defs = _collections(graph, meta_graph_def, prefix, left_out)
        saver_def = None
        if meta_graph_def.HasField("saver_def") and \
                meta_graph_def.saver_def.restore_op_name.partition(":")[0] not in left_out:
            saver_def = {"restore_op_name": meta_graph_def.saver_def.restore_op_name}
        restored = import_scoped_meta_graph(
            {"graph_def": {"node": []}, "collection_def": collections,
             "variable_defs": variable_defs, "saver_def": saver_def}, import_scope=import_scope)
    return restored["restore_op_name"] if restored else None


def _signature_tensors(meta_graph_def):
    for signature_def in meta_graph_def.signature_def.values():
        for info in list(signature_def.inputs.values()) + list(signature_def.outputs.values()):
            if info.WhichOneof("encoding") == "name":
                yield info.name
            elif info.WhichOneof("encoding") == "coo_sparse":
                s = info.coo_sparse
                yield from (s.values_tensor_name, s.indices_tensor_name,
                            s.dense_shape_tensor_name)


def _collections(graph, meta_graph_def, prefix, left_out):
    """The collections as train/meta_graph.py's import takes them: {key: [names]} and the
    variables' VariableDefs as dicts. Collections of numbers or of other protobufs (TF's
    QueueRunnerDefs, SaverDefs, contexts) have no sandbox form and are left out."""
    from ..framework import saved_model_pb2     # protobuf: loaded on first use
    collections, variable_defs = {}, {}
    for key, collection in meta_graph_def.collection_def.items():
        kind = collection.WhichOneof("kind")
        if kind == "node_list":
            names = [n for n in collection.node_list.value
                     if n.lstrip("^").partition(":")[0] not in left_out]
        elif kind == "bytes_list" and key in VARIABLE_COLLECTIONS:
            names = []
            for data in collection.bytes_list.value:
                vd = saved_model_pb2.VariableDef.FromString(data)
                ops = [n.partition(":")[0] for n in (vd.variable_name, vd.initializer_name,
                                                     vd.snapshot_name, vd.initial_value_name)]
                if vd.is_resource or any(op in left_out for op in ops):
                    _log.info("SavedModel: variable %r left out of collection %r (a resource "
                              "variable, or its ops are of types the sandbox does not have)",
                              vd.variable_name, key)
                    continue
                variable_defs[vd.variable_name] = _variable_def(graph, vd, prefix)
                names.append(vd.variable_name)
        else:
            _log.info("SavedModel: collection %r (%s) has no sandbox form; left out.", key, kind)
            continue
        if names:
            collections[key] = names
    return collections, variable_defs


def _variable_def(graph, vd, prefix):
    initial_value = vd.initial_value_name
    if not initial_value:         # graphs of old TF versions: the initializer's value input
        assign = graph.get_operation_by_name(prefix + vd.initializer_name)
        initial_value = assign.inputs[1].name[len(prefix):]
    out = {"variable_name": vd.variable_name, "initializer_name": vd.initializer_name,
           "snapshot_name": vd.snapshot_name, "initial_value_name": initial_value,
           "trainable": vd.trainable}
    if vd.HasField("save_slice_info_def"):
        info = vd.save_slice_info_def
        out["save_slice_info"] = {"full_name": info.full_name,
                                  "full_shape": list(info.full_shape),
                                  "var_offset": list(info.var_offset),
                                  "var_shape": list(info.var_shape)}
    return out


# -- restoring from TF's checkpoint format ---------------------------------------------------

def _ancestors(op):
    seen, stack = set(), [op]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        yield op
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)


def _run_restore(sess, restore_op, variables_path):
    """Runs `restore_op`, feeding every RestoreV2 it depends on the values it would read."""
    from ..framework.tensor_bundle import parse_shape_and_slice
    restores = [op for op in _ancestors(restore_op) if op.type == "RestoreV2"]
    reader = BundleReader(variables_path)
    specs = sess.run([(op.inputs[1], op.inputs[2]) for op in restores])
    feed = {}
    for op, (names, slices) in zip(restores, specs):
        for tensor, name, spec in zip(op.outputs, names.ravel(), slices.ravel()):
            name = _text(name)
            value = reader.get_tensor(name)
            parsed = parse_shape_and_slice(spec, name)
            if parsed is not None:            # a shard of a partitioned variable
                _, start, shape = parsed
                value = value[tuple(slice(b, b + n) for b, n in zip(start, shape))]
            feed[tensor] = value.astype(tensor.dtype.base_dtype.as_numpy_dtype)
    sess.run(restore_op, feed_dict=feed)
