"""The protocol buffers of a SavedModel -- plays the part of TensorFlow's generated modules
core/protobuf/saved_model_pb2.py, meta_graph_pb2.py, saver_pb2.py, core/framework/
variable_pb2.py and core/protobuf/tensor_bundle_pb2.py.

A SavedModel is read and written by TensorFlow itself, so its files must be TF's exact wire
format, not the sandbox's own (train/meta_graph.py). The sandbox encodes no protobuf by hand:
as the summary writer does (summary/writer.py), it uses the protobuf library and tensorboardX's
copies of TF's graph.proto, tensor.proto, tensor_shape.proto, types.proto and versions.proto.
tensorboardX has no meta_graph.proto or saved_model.proto, so the messages below are declared
here, in Python, as a FileDescriptorProto -- with TF's field numbers and types, which is all
the wire format depends on:

    SavedModel          saved_model_schema_version = 1, repeated MetaGraphDef meta_graphs = 2
    MetaGraphDef        meta_info_def = 1, graph_def = 2, saver_def = 3,
                        map collection_def = 4, map signature_def = 5, asset_file_def = 6
      .MetaInfoDef      meta_graph_version = 1, any_info = 3, tags = 4, tensorflow_version = 5,
                        tensorflow_git_version = 6, stripped_default_attrs = 7
    CollectionDef       oneof node_list = 1 | bytes_list = 2 | int64_list = 3 | float_list = 4
                        | any_list = 5
    TensorInfo          oneof name = 1 | coo_sparse = 4; dtype = 2, tensor_shape = 3
    SignatureDef        map inputs = 1, map outputs = 2, method_name = 3
    AssetFileDef        tensor_info = 1, filename = 2
    SaverDef            filename_tensor_name = 1 ... version = 7 (TF's saver.proto)
    VariableDef         variable_name = 1, initializer_name = 2, snapshot_name = 3,
                        save_slice_info_def = 4, is_resource = 5, initial_value_name = 6,
                        trainable = 7
    BundleHeaderProto   the `.index` file's header entry (tensor_bundle.py)
    BundleEntryProto    one tensor's place in the `.data-?????-of-?????` file
    TrackableObjectGraph  an object-based checkpoint's objects, their children, the
                        checkpoint key of each variable's value, and the optimizers' slots

Fields of TF's messages the sandbox never fills (MetaInfoDef.stripped_op_list, the
object_graph_def of TF-2 SavedModels, composite tensors) are not declared: the library keeps
them as unknown fields when it parses a file that has them, and they are written back as read.

The messages live in the package `sandbox.saved_model`, not `tensorflow`, so the sandbox and
a real TensorFlow may share one Python process. (Only an Any's type_url names the package;
none is written here.) The file sits in framework/, below the saved_model package that writes
SavedModels, because tf.MetaGraphDef and tf.TensorInfo are top-level names (protos.py).
"""
from google.protobuf import any_pb2, descriptor_pb2, descriptor_pool, message_factory
from tensorboardX.proto import graph_pb2, tensor_pb2, tensor_shape_pb2, types_pb2, \
    versions_pb2

__all__ = ["SavedModel", "MetaGraphDef", "CollectionDef", "TensorInfo", "SignatureDef",
           "AssetFileDef", "SaverDef", "VariableDef", "SaveSliceInfoDef", "BundleHeaderProto",
           "BundleEntryProto", "TensorSliceProto", "TrackableObjectGraph"]

_PACKAGE = "sandbox.saved_model"
_F = descriptor_pb2.FieldDescriptorProto
_TYPES = {"string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES, "int32": _F.TYPE_INT32,
          "int64": _F.TYPE_INT64, "bool": _F.TYPE_BOOL, "float": _F.TYPE_FLOAT,
          "fixed32": _F.TYPE_FIXED32}
# Message types from other files (tensorboardX's copies of TF's, and protobuf's own).
_EXTERNAL = {"GraphDef": ".tensorboardX.GraphDef", "TensorShapeProto":
             ".tensorboardX.TensorShapeProto", "TensorProto": ".tensorboardX.TensorProto",
             "VersionDef": ".tensorboardX.VersionDef", "Any": ".google.protobuf.Any"}
_ENUMS = {"DataType": ".tensorboardX.DataType"}

# name: [(field, number, type, label)] with label "" (singular), "repeated", "map:<value type>"
# or "oneof:<name>"; a type is a scalar above, a message here, or one of _EXTERNAL / _ENUMS.
_MESSAGES = {
    "SavedModel": [("saved_model_schema_version", 1, "int64", ""),
                   ("meta_graphs", 2, "MetaGraphDef", "repeated")],
    "MetaGraphDef": [("meta_info_def", 1, "MetaGraphDef.MetaInfoDef", ""),
                     ("graph_def", 2, "GraphDef", ""),
                     ("saver_def", 3, "SaverDef", ""),
                     ("collection_def", 4, "CollectionDef", "map"),
                     ("signature_def", 5, "SignatureDef", "map"),
                     ("asset_file_def", 6, "AssetFileDef", "repeated")],
    "MetaGraphDef.MetaInfoDef": [("meta_graph_version", 1, "string", ""),
                                 ("any_info", 3, "Any", ""),
                                 ("tags", 4, "string", "repeated"),
                                 ("tensorflow_version", 5, "string", ""),
                                 ("tensorflow_git_version", 6, "string", ""),
                                 ("stripped_default_attrs", 7, "bool", "")],
    "CollectionDef": [("node_list", 1, "CollectionDef.NodeList", "oneof:kind"),
                      ("bytes_list", 2, "CollectionDef.BytesList", "oneof:kind"),
                      ("int64_list", 3, "CollectionDef.Int64List", "oneof:kind"),
                      ("float_list", 4, "CollectionDef.FloatList", "oneof:kind"),
                      ("any_list", 5, "CollectionDef.AnyList", "oneof:kind")],
    "CollectionDef.NodeList": [("value", 1, "string", "repeated")],
    "CollectionDef.BytesList": [("value", 1, "bytes", "repeated")],
    "CollectionDef.Int64List": [("value", 1, "int64", "repeated")],
    "CollectionDef.FloatList": [("value", 1, "float", "repeated")],
    "CollectionDef.AnyList": [("value", 1, "Any", "repeated")],
    "TensorInfo": [("name", 1, "string", "oneof:encoding"),
                   ("coo_sparse", 4, "TensorInfo.CooSparse", "oneof:encoding"),
                   ("dtype", 2, "DataType", ""),
                   ("tensor_shape", 3, "TensorShapeProto", "")],
    "TensorInfo.CooSparse": [("values_tensor_name", 1, "string", ""),
                             ("indices_tensor_name", 2, "string", ""),
                             ("dense_shape_tensor_name", 3, "string", "")],
    "SignatureDef": [("inputs", 1, "TensorInfo", "map"),
                     ("outputs", 2, "TensorInfo", "map"),
                     ("method_name", 3, "string", ""),
                     ("defaults", 4, "TensorProto", "map")],
    "AssetFileDef": [("tensor_info", 1, "TensorInfo", ""),
                     ("filename", 2, "string", "")],
    "SaverDef": [("filename_tensor_name", 1, "string", ""),
                 ("save_tensor_name", 2, "string", ""),
                 ("restore_op_name", 3, "string", ""),
                 ("max_to_keep", 4, "int32", ""),
                 ("sharded", 5, "bool", ""),
                 ("keep_checkpoint_every_n_hours", 6, "float", ""),
                 ("version", 7, "int32", "")],     # TF: enum CheckpointFormatVersion (V2 = 2)
    "VariableDef": [("variable_name", 1, "string", ""),
                    ("initializer_name", 2, "string", ""),
                    ("snapshot_name", 3, "string", ""),
                    ("save_slice_info_def", 4, "SaveSliceInfoDef", ""),
                    ("is_resource", 5, "bool", ""),
                    ("initial_value_name", 6, "string", ""),
                    ("trainable", 7, "bool", "")],
    "SaveSliceInfoDef": [("full_name", 1, "string", ""),
                         ("full_shape", 2, "int64", "repeated"),
                         ("var_offset", 3, "int64", "repeated"),
                         ("var_shape", 4, "int64", "repeated")],
    "BundleHeaderProto": [("num_shards", 1, "int32", ""),
                          ("endianness", 2, "int32", ""),   # TF: enum, LITTLE = 0
                          ("version", 3, "VersionDef", "")],
    "BundleEntryProto": [("dtype", 1, "DataType", ""),
                         ("shape", 2, "TensorShapeProto", ""),
                         ("shard_id", 3, "int32", ""),
                         ("offset", 4, "int64", ""),
                         ("size", 5, "int64", ""),
                         ("crc32c", 6, "fixed32", ""),
                         ("slices", 7, "TensorSliceProto", "repeated")],
    "TensorSliceProto": [("extent", 1, "TensorSliceProto.Extent", "repeated")],
    "TensorSliceProto.Extent": [("start", 1, "int64", ""),
                                ("length", 2, "int64", "oneof:has_length")],
    # an object-based checkpoint's graph of objects (train/checkpoint.py)
    "TrackableObjectGraph": [("nodes", 1, "TrackableObjectGraph.TrackableObject", "repeated")],
    "TrackableObjectGraph.TrackableObject": [
        ("children", 1, "TrackableObjectGraph.TrackableObject.ObjectReference", "repeated"),
        ("attributes", 2, "TrackableObjectGraph.TrackableObject.SerializedTensor", "repeated"),
        ("slot_variables", 3, "TrackableObjectGraph.TrackableObject.SlotVariableReference",
         "repeated")],
    "TrackableObjectGraph.TrackableObject.ObjectReference": [("node_id", 1, "int32", ""),
                                                             ("local_name", 2, "string", "")],
    "TrackableObjectGraph.TrackableObject.SerializedTensor": [
        ("name", 1, "string", ""), ("full_name", 2, "string", ""),
        ("checkpoint_key", 3, "string", "")],
    "TrackableObjectGraph.TrackableObject.SlotVariableReference": [
        ("original_variable_node_id", 1, "int32", ""), ("slot_name", 2, "string", ""),
        ("slot_variable_node_id", 3, "int32", "")],
}


def _type_name(type_):
    if type_ in _EXTERNAL:
        return _EXTERNAL[type_]
    if type_ in _ENUMS:
        return _ENUMS[type_]
    return f".{_PACKAGE}.{type_}"


def _add_field(message, name, number, type_, label):
    field = message.field.add(name=name, number=number)
    field.label = _F.LABEL_REPEATED if label in ("repeated", "map") else _F.LABEL_OPTIONAL
    if label == "map":
        # a map<string, V> is a repeated nested message `<Name>Entry {key = 1; value = 2}`
        entry_name = "".join(p.capitalize() for p in name.split("_")) + "Entry"
        entry = message.nested_type.add(name=entry_name)
        entry.options.map_entry = True
        _add_field(entry, "key", 1, "string", "")
        _add_field(entry, "value", 2, type_, "")
        field.type = _F.TYPE_MESSAGE
        field.type_name = f"{_message_path(message)}.{entry_name}"
        return
    if type_ in _TYPES:
        field.type = _TYPES[type_]
    elif type_ in _ENUMS:
        field.type = _F.TYPE_ENUM
        field.type_name = _type_name(type_)
    else:
        field.type = _F.TYPE_MESSAGE
        field.type_name = _type_name(type_)
    if label.startswith("oneof:"):
        oneof = label.split(":", 1)[1]
        names = [o.name for o in message.oneof_decl]
        if oneof not in names:
            message.oneof_decl.add(name=oneof)
            names.append(oneof)
        field.oneof_index = names.index(oneof)


_PATHS = {}


def _message_path(message):
    return _PATHS[id(message)]


def _file_descriptor():
    fdp = descriptor_pb2.FileDescriptorProto(
        name="sandbox/saved_model/saved_model.proto", package=_PACKAGE, syntax="proto3")
    fdp.dependency.extend([graph_pb2.DESCRIPTOR.name, tensor_pb2.DESCRIPTOR.name,
                           tensor_shape_pb2.DESCRIPTOR.name, types_pb2.DESCRIPTOR.name,
                           versions_pb2.DESCRIPTOR.name, any_pb2.DESCRIPTOR.name])
    protos = {}
    for full in _MESSAGES:                       # parents are listed before their children
        parent, _, name = full.rpartition(".")
        container = protos[parent].nested_type if parent else fdp.message_type
        protos[full] = container.add(name=name)
        _PATHS[id(protos[full])] = f".{_PACKAGE}.{full}"
    for full, fields in _MESSAGES.items():
        for field in fields:
            _add_field(protos[full], *field)
    return fdp


def _classes():
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName("sandbox/saved_model/saved_model.proto")
    except KeyError:
        pool.Add(_file_descriptor())
    return {full: message_factory.GetMessageClass(
        pool.FindMessageTypeByName(f"{_PACKAGE}.{full}")) for full in _MESSAGES
        if "." not in full}


_CLASSES = _classes()
SavedModel = _CLASSES["SavedModel"]
MetaGraphDef = _CLASSES["MetaGraphDef"]
CollectionDef = _CLASSES["CollectionDef"]
TensorInfo = _CLASSES["TensorInfo"]
SignatureDef = _CLASSES["SignatureDef"]
AssetFileDef = _CLASSES["AssetFileDef"]
SaverDef = _CLASSES["SaverDef"]
VariableDef = _CLASSES["VariableDef"]
SaveSliceInfoDef = _CLASSES["SaveSliceInfoDef"]
BundleHeaderProto = _CLASSES["BundleHeaderProto"]
BundleEntryProto = _CLASSES["BundleEntryProto"]
TensorSliceProto = _CLASSES["TensorSliceProto"]
TrackableObjectGraph = _CLASSES["TrackableObjectGraph"]
