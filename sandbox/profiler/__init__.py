"""`tf.profiler` -- the names of TensorFlow 1.15's tf.profiler namespace (TF's generated
api/_v1/profiler/__init__.py): tfprof's parameter, float-operation and time reports.

    tf.profiler.profile(tf.get_default_graph(),
                        options=tf.profiler.ProfileOptionBuilder.float_operation())
"""
from .model_analyzer import (OpLogProto, Profiler, advise, profile,  # noqa: F401
                             write_op_log)
from .option_builder import ProfileOptionBuilder  # noqa: F401
from .tfprof_node import GraphNodeProto, MultiGraphNodeProto  # noqa: F401

__all__ = ["GraphNodeProto", "MultiGraphNodeProto", "OpLogProto", "ProfileOptionBuilder",
           "Profiler", "advise", "profile", "write_op_log"]
