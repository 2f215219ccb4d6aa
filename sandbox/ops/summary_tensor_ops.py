"""Tensor and text summaries -- mirrors TensorFlow's TensorSummaryV2 op (core/kernels/
summary_tensor_op.cc), tf.summary.tensor_summary (python/ops/summary_ops.py), tf.summary.text
(python/summary/text_summary.py) and tf.summary.get_summary_description
(python/summary/summary.py).

A tensor summary records a whole tensor, of any dtype and shape, under a tag; the Summary
value holds it as a TensorProto and carries a SummaryMetadata telling TensorBoard which plugin
shows it. tf.summary.text is a tensor summary of a string tensor for the text plugin:

    tf.summary.text('notes', tf.constant(['**loss** went *down*']))  # Markdown, per step
    tf.summary.tensor_summary('weights', w, summary_description='the layer 1 kernel')
    merged = tf.summary.merge_all()              # as scalar and histogram summaries

The bytes are TF's: the TensorProto as TF's Tensor::AsProtoTensorContent writes it (numbers
little-endian in tensor_content; strings, as AsProtoField, in string_val) and the metadata
always present, empty or not. The tag is the summary's name scope, as for every summary
(sandbox/ops/summary_ops.py). The SummaryMetadata is tensorboardX's class (tf.SummaryMetadata),
loaded when a tensor summary is first made.

get_summary_description reads the description of TF's older TensorSummary op (a JSON attr),
which no TF-1.15 function makes any more: for the TensorSummaryV2 ops tensor_summary makes it
raises ValueError, as TF's does.
"""
import numpy as np

from ..framework import dtypes
from ..framework import errors
from ..framework.graph import GraphKeys
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.tensor import Tensor, convert_to_tensor
from .summary_ops import _serialized, _summary_pb2, _text, collect, summary_scope
from .tensor_serialization_ops import tensor_to_proto_bytes

__all__ = []   # reached as tf.summary.* (sandbox/summary/__init__.py)

TEXT_PLUGIN_NAME = "text"     # TensorBoard's text plugin (text_summary.PLUGIN_NAME)


# -- kernel --------------------------------------------------------------------------------

class TensorSummaryV2(OpDef):
    """Summary with one value: the tensor (a TensorProto) under `tag`, with its metadata."""
    shape = scalar_shape
    differentiable = False

    def kernel(tag, tensor, serialized_summary_metadata, T=None):
        tag = np.asarray(tag, dtype=object)
        if tag.ndim != 0:
            raise errors.InvalidArgumentError(None, None, "tag must be scalar")
        dtype = T.base_dtype if T is not None else dtypes.as_dtype(np.asarray(tensor).dtype)
        pb = _summary_pb2()
        value = pb.Summary.Value(tag=_text(tag.item()))
        value.tensor.MergeFromString(
            tensor_to_proto_bytes(tensor, dtype, strings_in_content=False))
        value.metadata.SetInParent()          # TF writes it even when it is empty
        metadata = np.asarray(serialized_summary_metadata, dtype=object).item()
        try:                                  # TF ignores metadata that does not parse
            value.metadata.MergeFromString(metadata.encode() if isinstance(metadata, str)
                                           else bytes(metadata))
        except Exception:
            pass
        return _serialized(pb.Summary(value=[value]))


# -- building the ops ----------------------------------------------------------------------

def tensor_summary(name, tensor, summary_description=None, collections=None,
                   summary_metadata=None, family=None, display_name=None):
    """A summary op recording the whole `tensor` (tf.summary.tensor_summary).
    `summary_metadata` (a tf.SummaryMetadata) names the plugin that shows it;
    `summary_description` and `display_name` are set on it (as TF does, on the object passed).
    Added to `collections` (default [GraphKeys.SUMMARIES])."""
    if summary_metadata is None:
        summary_metadata = _summary_pb2().SummaryMetadata()
    if summary_description is not None:
        summary_metadata.summary_description = summary_description
    if display_name is not None:
        summary_metadata.display_name = display_name
    serialized_metadata = summary_metadata.SerializeToString()
    with summary_scope(name, family, values=[tensor]) as (tag, scope):
        tag = convert_to_tensor(tag, dtype=dtypes.string, name="tag")
        tensor = convert_to_tensor(tensor, name="tensor")
        metadata = convert_to_tensor(serialized_metadata, dtype=dtypes.string,
                                     name="serialized_summary_metadata")
        val = apply_op("TensorSummaryV2", [tag, tensor, metadata],
                       {"T": tensor.dtype.base_dtype}, name=scope,
                       output_dtypes=[dtypes.string])
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def text(name, tensor, collections=None):
    """A summary op recording the string Tensor `tensor` for TensorBoard's text plugin, which
    shows it as Markdown (tf.summary.text): a tensor summary whose metadata names the plugin
    'text'."""
    if not hasattr(tensor, "dtype"):
        raise AttributeError(f"'{type(tensor).__name__}' object has no attribute 'dtype': "
                             "tf.summary.text takes a string Tensor, as TF's does -- wrap the "
                             "value in tf.constant(...)")
    if tensor.dtype != dtypes.string:
        raise ValueError(f"Expected tensor {getattr(tensor, 'name', tensor)} to have dtype "
                         f"string, got {tensor.dtype}")
    pb = _summary_pb2()
    metadata = pb.SummaryMetadata(
        plugin_data=pb.SummaryMetadata.PluginData(plugin_name=TEXT_PLUGIN_NAME))
    return tensor_summary(name=name, tensor=tensor, summary_metadata=metadata,
                          collections=collections)


def get_summary_description(node_def):
    """The SummaryDescription (its type_hint) of a node_def of TF's older TensorSummary op:
    its 'description' attr, parsed as JSON (tf.summary.get_summary_description). Takes the
    sandbox's op.node_def or a NodeDef protocol buffer."""
    if isinstance(node_def, Tensor) or not hasattr(node_def, "op"):
        raise TypeError(f"get_summary_description expects a node_def (op.node_def), got "
                        f"{type(node_def).__name__}")
    if node_def.op != "TensorSummary":
        raise ValueError(f"Can't get_summary_description on {node_def.op}")
    description = node_def.attr["description"] if "description" in node_def.attr else b""
    description = getattr(description, "s", description)      # a protobuf AttrValue
    if isinstance(description, bytes):
        description = description.decode("utf-8")
    from google.protobuf import json_format
    summary_description = _summary_pb2().SummaryDescription()
    json_format.Parse(description, summary_description)
    return summary_description
