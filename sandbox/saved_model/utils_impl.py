"""TensorInfo: a tensor of the graph named by data -- TF's python/saved_model/utils_impl.py
(tf.saved_model.utils.build_tensor_info, tf.saved_model.build_tensor_info).

    info = tf.saved_model.utils.build_tensor_info(x)     # name 'x:0', dtype, static shape
    x = tf.saved_model.utils.get_tensor_from_tensor_info(info, sess.graph)

A SparseTensor is named by its three tensors (TensorInfo.coo_sparse). Also the paths inside a
SavedModel directory (TF's saved_model/utils_impl.py keeps those too).
"""
import os

from ..framework.graph import get_default_graph
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_proto import enum_of_dtype
from . import constants

__all__ = ["build_tensor_info", "get_tensor_from_tensor_info", "get_variables_dir",
           "get_variables_path", "get_assets_dir"]


def _shape_proto(shape):
    from tensorboardX.proto import tensor_shape_pb2
    if shape.ndims is None:
        return tensor_shape_pb2.TensorShapeProto(unknown_rank=True)
    return tensor_shape_pb2.TensorShapeProto(dim=[
        tensor_shape_pb2.TensorShapeProto.Dim(size=-1 if d is None else int(d))
        for d in shape.as_list()])


def build_tensor_info(tensor):
    """The TensorInfo protocol buffer of a Tensor or SparseTensor: its name (or its three
    tensors' names), dtype and static shape."""
    from ..framework.saved_model_pb2 import TensorInfo    # protobuf: loaded on first use
    if isinstance(tensor, SparseTensor):
        info = TensorInfo(dtype=enum_of_dtype(tensor.dtype),
                          tensor_shape=_shape_proto(tensor.get_shape()))
        info.coo_sparse.values_tensor_name = tensor.values.name
        info.coo_sparse.indices_tensor_name = tensor.indices.name
        info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
        return info
    if not (hasattr(tensor, "name") and hasattr(tensor, "dtype") and
            hasattr(tensor, "get_shape")):
        raise TypeError(f"build_tensor_info expects a Tensor or SparseTensor, got {tensor!r}")
    return TensorInfo(name=tensor.name, dtype=enum_of_dtype(tensor.dtype),
                      tensor_shape=_shape_proto(tensor.get_shape()))


def _prepend(name, import_scope):
    return f"{import_scope.rstrip('/')}/{name}" if import_scope else name


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The Tensor or SparseTensor of `graph` (default: the default graph) that `tensor_info`
    names, each name under `import_scope` when given. KeyError when it is not there."""
    graph = graph or get_default_graph()

    def tensor(name):
        return graph.get_tensor_by_name(_prepend(name, import_scope))

    encoding = tensor_info.WhichOneof("encoding")
    if encoding == "name":
        return tensor(tensor_info.name)
    if encoding == "coo_sparse":
        sparse = tensor_info.coo_sparse
        return SparseTensor(tensor(sparse.indices_tensor_name),
                            tensor(sparse.values_tensor_name),
                            tensor(sparse.dense_shape_tensor_name))
    raise ValueError(f"Invalid TensorInfo.encoding: {encoding}. Expected `coo_sparse` or "
                     "`name` for a dense tensor (the sandbox has no composite tensors).")


def _text(path):
    return path.decode("utf-8") if isinstance(path, bytes) else os.fspath(path)


def get_variables_dir(export_dir):
    return os.path.join(_text(export_dir), constants.VARIABLES_DIRECTORY)


def get_variables_path(export_dir):
    """The checkpoint prefix of a SavedModel's variables: export_dir/variables/variables."""
    return os.path.join(get_variables_dir(export_dir), constants.VARIABLES_FILENAME)


def get_assets_dir(export_dir):
    return os.path.join(_text(export_dir), constants.ASSETS_DIRECTORY)
