"""Writing a SavedModel -- mirrors TensorFlow's tf.saved_model.builder.SavedModelBuilder
(python/saved_model/builder_impl.py, the TF-1 API).

    builder = tf.saved_model.builder.SavedModelBuilder('export/1')
    with tf.Session(graph=graph) as sess:
        ...
        builder.add_meta_graph_and_variables(
            sess, [tf.saved_model.tag_constants.SERVING],
            signature_def_map={'serving_default':
                               tf.saved_model.predict_signature_def({'x': x}, {'y': y})})
    builder.save()                               # export/1/saved_model.pb

What is written is TensorFlow's format exactly, so TF (tf.compat.v1.saved_model.loader.load)
and TensorFlow Serving read it:

    saved_model.pb        a SavedModel protobuf (saved_model_pb2.py): one MetaGraphDef per
                          add_meta_graph* call, each with its tags, its graph (the GraphDef
                          that train/graph_io.py's write_graph writes), the SaverDef, the
                          collections (variables as VariableDef protobufs, other collections
                          of ops and tensors by name) and the SignatureDefs
    variables/            the variables' values in TF's checkpoint format (tensor_bundle.py,
                          not the sandbox's own format: TF's RestoreV2 reads them)
    assets/               copies of the asset files (e.g. vocabularies), by base name

As in TF, add_meta_graph_and_variables builds a sharded tf.train.Saver over all variables (its
ops go into the graph, name scope 'save'): its save and restore ops and SaverDef are what TF's
loader runs. The values come from the session -- the tensors the Saver's SaveV2 ops would save,
under the names they would save them -- and are written by Python here, in TF's format.
Only the first meta graph carries variables; add_meta_graph adds further graphs (other tags)
that share them.

Differences from TF: strip_default_attrs is accepted and does nothing (the GraphDef written
has the attributes the sandbox's ops carry); partitioned variables and string variables are
refused (NotImplementedError); collections whose items are not ops, tensors or variables
(Savers, QueueRunners ...) are not written.
"""
import os
import shutil

from ..framework.graph import GraphKeys
from ..framework.operation import Operation
from ..framework.tensor import Tensor
from ..framework.graph_def import as_proto
from ..train.meta_graph import VARIABLE_COLLECTIONS, graph_extras
from ..version import __version__
from . import constants, tensor_bundle
from .utils_impl import get_assets_dir, get_variables_dir, get_variables_path

__all__ = ["SavedModelBuilder"]

_DT_INVALID = 0


def _text(path):
    return path.decode("utf-8") if isinstance(path, bytes) else os.fspath(path)


class SavedModelBuilder:
    """Builds a SavedModel: meta graphs with tags, the variables, the assets. See the module
    docstring."""

    def __init__(self, export_dir):
        from ..framework import saved_model_pb2     # protobuf: loaded on first use
        self._saved_model = saved_model_pb2.SavedModel(
            saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
        self._export_dir = _text(export_dir)
        if os.path.exists(self._export_dir):
            if os.listdir(self._export_dir):
                raise AssertionError(
                    f"Export directory {export_dir} already exists, and isn't empty. Please "
                    "choose a different export directory, or delete all the contents of the "
                    "specified directory.")
        else:
            os.makedirs(self._export_dir)
        self._has_saved_variables = False
        self._saved_asset_files = set()

    # -- what TF checks first -------------------------------------------------------
    @staticmethod
    def _validate_tensor_info(tensor_info):
        if tensor_info is None:
            raise AssertionError("All TensorInfo protos used in the SignatureDefs must have "
                                 "the name and dtype fields set.")
        if tensor_info.WhichOneof("encoding") is None:
            raise AssertionError(
                f"Invalid `tensor_info`: {tensor_info}. All TensorInfo protos used in the "
                "SignatureDefs must have one of the 'encoding' fields (e.g., name or "
                "coo_sparse) set.")
        if tensor_info.dtype == _DT_INVALID:
            raise AssertionError(
                f"Invalid `tensor_info`: {tensor_info}. All TensorInfo protos used in the "
                "SignatureDefs must have the dtype field set.")

    def _validate_signature_def_map(self, signature_def_map):
        for signature_def in signature_def_map.values():
            for info in signature_def.inputs.values():
                self._validate_tensor_info(info)
            for info in signature_def.outputs.values():
                self._validate_tensor_info(info)
        for key in (constants.INIT_OP_SIGNATURE_KEY, constants.TRAIN_OP_SIGNATURE_KEY):
            if key in signature_def_map:
                raise KeyError(f'SignatureDef map key "{key}" is reserved for '
                               f'{"initialization" if "init" in key else "the train op"}. '
                               "Please use a different key.")

    @staticmethod
    def _add_main_op(graph, main_op):
        if main_op is None:
            return
        if not isinstance(main_op, Operation):
            raise TypeError(f"Expected {main_op} to be an Operation but got type "
                            f"{type(main_op)} instead.")
        graph.add_to_collection(constants.MAIN_OP_KEY, main_op)

    @staticmethod
    def _maybe_create_saver(graph, saver=None):
        """TF's builder makes a sharded V2 Saver over all variables (empty allowed)."""
        if saver:
            return saver
        from ..train.saver import Saver
        with graph.as_default():
            return Saver(sharded=True, allow_empty=True)

    # -- the public API -------------------------------------------------------------
    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None,
                                     assets_collection=None, legacy_init_op=None,
                                     clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        """Adds the session's graph as the first meta graph, under `tags`, and writes its
        variables' values (from `sess`) and the assets. `main_op` (or, by its old name,
        `legacy_init_op`) is an op the loader runs after restoring, e.g. to initialize
        tables or local variables."""
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already "
                                 "been saved. Please invoke `add_meta_graph()` instead.")
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        graph = sess.graph
        self._add_main_op(graph, main_op if main_op is not None else legacy_init_op)
        os.makedirs(get_variables_dir(self._export_dir), exist_ok=True)
        saver = self._maybe_create_saver(graph, saver)
        if saver.saver_def and not getattr(saver, "_is_empty", False):
            tensor_bundle.write_bundle(get_variables_path(self._export_dir),
                                       _values_to_save(sess, saver.saver_def))
        meta_graph_def = _meta_graph_def(graph, saver.saver_def, clear_devices)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)
        self._save_and_write_assets(assets_collection)
        self._has_saved_variables = True

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None,
                       legacy_init_op=None, clear_devices=False, main_op=None,
                       strip_default_attrs=False, saver=None):
        """Adds the default graph as a further meta graph under `tags` (its variables are
        those add_meta_graph_and_variables saved: same names)."""
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been "
                                 "saved yet. Please invoke `add_meta_graph_and_variables()` "
                                 "first.")
        from ..framework.graph import get_default_graph
        signature_def_map = signature_def_map or {}
        self._validate_signature_def_map(signature_def_map)
        graph = get_default_graph()
        self._add_main_op(graph, main_op if main_op is not None else legacy_init_op)
        saver = self._maybe_create_saver(graph, saver)
        meta_graph_def = _meta_graph_def(graph, saver.saver_def, clear_devices)
        self._tag_and_add_meta_graph(meta_graph_def, tags, signature_def_map)
        self._save_and_write_assets(assets_collection)

    def save(self, as_text=False):
        """Writes saved_model.pb (as_text: saved_model.pbtxt, protobuf text format);
        returns its path (bytes, as TF returns it)."""
        if as_text:
            from google.protobuf import text_format
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
            data = text_format.MessageToString(self._saved_model).encode("utf-8")
        else:
            path = os.path.join(self._export_dir, constants.SAVED_MODEL_FILENAME_PB)
            data = self._saved_model.SerializeToString(deterministic=True)
        from ..framework.tensor_bundle import atomic_write
        atomic_write(path, [data])
        return path.encode("utf-8")

    # -- pieces --------------------------------------------------------------------
    def _tag_and_add_meta_graph(self, meta_graph_def, tags, signature_def_map):
        if isinstance(tags, (str, bytes)):
            tags = [tags]
        for tag in tags or ():
            meta_graph_def.meta_info_def.tags.append(_text(tag))
        for key, signature_def in signature_def_map.items():
            meta_graph_def.signature_def[key].CopyFrom(signature_def)
        self._saved_model.meta_graphs.add().CopyFrom(meta_graph_def)

    def _save_and_write_assets(self, assets_collection):
        """Each asset tensor (a string Const: a file path) is recorded in the asset_file_def
        of the meta graph just added, by its base name; the file is copied into assets/
        (once per name: the first meta graph's file is kept, as in TF)."""
        meta = self._saved_model.meta_graphs[-1]
        copies = {}
        for tensor in assets_collection or ():
            source = _asset_path(tensor)
            name = os.path.basename(source)
            asset = meta.asset_file_def.add()
            asset.filename = name
            asset.tensor_info.name = tensor.name
            copies.setdefault(name, source)
        if not copies:
            return
        assets_dir = get_assets_dir(self._export_dir)
        os.makedirs(assets_dir, exist_ok=True)
        for name, source in copies.items():
            if name in self._saved_asset_files:
                continue
            shutil.copyfile(source, os.path.join(assets_dir, name))
            self._saved_asset_files.add(name)


def _asset_path(tensor):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Asset path tensor {tensor} must be a Tensor.")
    if tensor.op.type != "Const":
        raise TypeError(f"Asset path tensor {tensor} must be of type constant.")
    value = tensor.op.get_attr("value")
    if getattr(value, "shape", None) not in ((), None) or value.dtype.kind not in "SUO":
        raise TypeError(f"Asset path tensor {tensor} must be a scalar of dtype string.")
    value = value.item() if hasattr(value, "item") else value
    return _text(value)


def _ancestors(op):
    seen, stack, out = set(), [op], []
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        out.append(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return out


def _values_to_save(sess, saver_def):
    """{checkpoint name: value}: what the Saver's SaveV2 ops would write, read from `sess`."""
    graph = sess.graph
    save_tensor = graph.as_graph_element(saver_def.save_tensor_name)
    save_ops = [op for op in _ancestors(save_tensor.op) if op.type == "SaveV2"]
    fetches = [(op.inputs[1], op.inputs[2], list(op.inputs[3:])) for op in save_ops]
    out = {}
    for names, specs, values in sess.run(fetches):
        for name, spec, value in zip(names.ravel(), specs.ravel(), values):
            name, spec = _text(name), _text(spec)
            if spec:
                raise NotImplementedError(
                    f"Variable {name!r} is partitioned (saved as the slice {spec!r}): the "
                    "sandbox does not write partitioned variables into a SavedModel.")
            out[name] = value
    return out


# -- the MetaGraphDef protobuf of a sandbox graph -------------------------------------------

def _collection_def(graph, key, items, variable_defs):
    from ..framework import saved_model_pb2     # protobuf: loaded on first use
    collection = saved_model_pb2.CollectionDef()
    if key in VARIABLE_COLLECTIONS:
        for v in items:
            vd = variable_defs.get(getattr(v, "name", None))
            if vd is None:
                return None
            proto = saved_model_pb2.VariableDef(
                variable_name=vd["variable_name"], initializer_name=vd["initializer_name"],
                snapshot_name=vd["snapshot_name"], initial_value_name=vd["initial_value_name"],
                trainable=vd["trainable"])
            info = vd.get("save_slice_info")
            if info is not None:
                proto.save_slice_info_def.full_name = info["full_name"]
                proto.save_slice_info_def.full_shape.extend(info["full_shape"])
                proto.save_slice_info_def.var_offset.extend(info["var_offset"])
                proto.save_slice_info_def.var_shape.extend(info["var_shape"])
            collection.bytes_list.value.append(proto.SerializeToString(deterministic=True))
        return collection
    if not all(isinstance(item, (Operation, Tensor)) and item.graph is graph
               for item in items):
        return None              # Savers, QueueRunners ...: TF's own protobufs, not written
    collection.node_list.value.extend(item.name for item in items)
    return collection


def _meta_graph_def(graph, saver_def, clear_devices=False):
    """The MetaGraphDef protobuf of `graph`: GraphDef, SaverDef and the collections."""
    from ..framework import saved_model_pb2     # protobuf: loaded on first use
    meta = saved_model_pb2.MetaGraphDef()
    meta.meta_info_def.meta_graph_version = ""
    # TF's loader parses the version ('1.15.0'; '1.15.0-sandbox' is not a version to it)
    meta.meta_info_def.tensorflow_version = __version__.partition("-")[0]
    meta.meta_info_def.tensorflow_git_version = __version__
    meta.graph_def.CopyFrom(as_proto(graph))
    if clear_devices:
        for node in meta.graph_def.node:
            node.device = ""
    if saver_def:
        meta.saver_def.CopyFrom(saver_def_proto(saver_def))
    keys = [k for k in graph.get_all_collection_keys() if k != GraphKeys.SAVERS]
    _, variable_defs = graph_extras(graph, [], keys)
    for key in keys:
        items = graph.get_collection(key)
        if not items:
            continue
        collection = _collection_def(graph, key, items, variable_defs)
        if collection is not None:
            meta.collection_def[str(key)].CopyFrom(collection)
    return meta


def saver_def_proto(saver_def):
    """The SaverDef protobuf of the sandbox's SaverDef (train/saver.py)."""
    from ..framework import saved_model_pb2     # protobuf: loaded on first use
    return saved_model_pb2.SaverDef(
        filename_tensor_name=saver_def.filename_tensor_name,
        save_tensor_name=saver_def.save_tensor_name,
        restore_op_name=saver_def.restore_op_name, max_to_keep=saver_def.max_to_keep,
        sharded=saver_def.sharded,
        keep_checkpoint_every_n_hours=saver_def.keep_checkpoint_every_n_hours,
        version=saver_def.version)
