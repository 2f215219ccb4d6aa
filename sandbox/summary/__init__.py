"""`tf.summary` -- mirrors TensorFlow 1.x's tf.summary namespace (python/summary/summary.py).

Summary ops record values for TensorBoard: `tf.summary.scalar('loss', loss)` makes an op whose
output is a serialized Summary protocol buffer; `tf.summary.merge_all()` merges every summary
of the graph into one op; `tf.summary.image('input', images)` records a batch of images as
PNGs. The ops themselves are in sandbox/ops/summary_ops.py; `tf.summary.text` and
`tf.summary.tensor_summary` (a whole tensor, for a TensorBoard plugin) in
sandbox/ops/summary_tensor_ops.py; `tf.summary.audio` (clips as WAV files) in
sandbox/ops/summary_audio_ops.py.

The protocol buffers TF 1.15 re-exports here -- Event, SessionLog, Summary, SummaryDescription,
TaggedRunMetadata -- are the classes the FileWriter writes with (tensorboardX's copies of TF's
event.proto and summary.proto; tf.summary.Summary is tf.Summary), loaded on first use.

Not here: tf.summary.initialize and all_v2_summary_ops (TF 2's summary writers).
"""
import importlib

from ..ops.summary_audio_ops import audio
from ..ops.summary_ops import scalar, histogram, image, merge, merge_all
from ..ops.summary_tensor_ops import get_summary_description, tensor_summary, text
from .writer import FileWriter, FileWriterCache

__all__ = ["scalar", "histogram", "image", "audio", "text", "tensor_summary",
           "get_summary_description", "merge", "merge_all", "FileWriter", "FileWriterCache",
           "Event", "SessionLog", "Summary", "SummaryDescription", "TaggedRunMetadata"]

# name -> the generated module that holds its class (as sandbox/framework/protos.py)
_PROTOS = {
    "Event": "tensorboardX.proto.event_pb2",
    "SessionLog": "tensorboardX.proto.event_pb2",
    "TaggedRunMetadata": "tensorboardX.proto.event_pb2",
    "Summary": "tensorboardX.proto.summary_pb2",
    "SummaryDescription": "tensorboardX.proto.summary_pb2",
}


def __getattr__(name):
    if name not in _PROTOS:
        raise AttributeError(f"module 'sandbox.summary' has no attribute {name!r}")
    cls = getattr(importlib.import_module(_PROTOS[name]), name)
    globals()[name] = cls                 # the next look-up finds it directly
    return cls
