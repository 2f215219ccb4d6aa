"""TF-1's top-level protocol buffers -- mirrors the messages TensorFlow 1.15 exports from its
generated modules (core/framework/summary_pb2.py, core/util/event_pb2.py,
core/framework/graph_pb2.py, attr_value_pb2.py, core/protobuf/meta_graph_pb2.py):

    tf.Summary  tf.Summary.Value  tf.Summary.Image  tf.Summary.Audio  tf.SummaryMetadata
    tf.HistogramProto  tf.Event  tf.SessionLog  tf.LogMessage  tf.GraphDef  tf.AttrValue
    tf.NameAttrList  tf.MetaGraphDef  tf.TensorInfo

A TF-1 program builds some of them by hand, e.g. to log a number computed in Python:

    writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag='loss', simple_value=0.5)]),
                       step)
    writer.add_session_log(tf.SessionLog(status=tf.SessionLog.START), step)

These are not look-alikes: each name *is* the protobuf class the sandbox itself reads and
writes with, so what a program builds goes straight into the sandbox's files --
tensorboardX's copies of TF's summary.proto, event.proto, graph.proto and attr_value.proto
(the event files of summary/writer.py, read back by tf.train.summary_iterator), and
saved_model_pb2.py's MetaGraphDef and TensorInfo (the SavedModels of tf.saved_model). The
field names and numbers are TF's, so the bytes are TF's too. One name differs: tensorboardX's
event.proto calls LogMessage's level 10 DEBUG where TF's calls it DEBUGGING (same number,
same bytes; `tf.LogMessage.DEBUG`, not `.DEBUGGING`).

The protobuf library is loaded when a program first asks for one of these names, not by
`import sandbox`: this module's `__getattr__` (PEP 562) imports the class on first use, and
the facade (sandbox/__init__.py) imports that same `__getattr__` as its own -- so `tf.Summary`
is looked up here, and a name that is nowhere fails as it would without it.
"""
import importlib

__all__ = ["Summary", "SummaryMetadata", "HistogramProto", "Event", "SessionLog", "LogMessage",
           "GraphDef", "AttrValue", "NameAttrList", "MetaGraphDef", "TensorInfo"]

# name -> the generated module that holds its class
_MODULES = {
    "Summary": "tensorboardX.proto.summary_pb2",
    "SummaryMetadata": "tensorboardX.proto.summary_pb2",
    "HistogramProto": "tensorboardX.proto.summary_pb2",
    "Event": "tensorboardX.proto.event_pb2",
    "SessionLog": "tensorboardX.proto.event_pb2",
    "LogMessage": "tensorboardX.proto.event_pb2",
    "GraphDef": "tensorboardX.proto.graph_pb2",
    "AttrValue": "tensorboardX.proto.attr_value_pb2",
    "NameAttrList": "tensorboardX.proto.attr_value_pb2",
    "MetaGraphDef": "sandbox.framework.saved_model_pb2",
    "TensorInfo": "sandbox.framework.saved_model_pb2",
}


def __getattr__(name):
    if name not in _MODULES:
        raise AttributeError(f"module 'sandbox' has no attribute {name!r}")     # the facade's
    cls = getattr(importlib.import_module(_MODULES[name]), name)
    globals()[name] = cls                 # the next look-up finds it directly
    return cls
