"""What the profiler learns from the graph itself -- mirrors TensorFlow's
python/profiler/tfprof_logger.py (_get_logged_ops): each op's float operations
(flops_registry.py), and the type '_trainable_variables' for the op of every variable in the
TRAINABLE_VARIABLES collection -- the type `trainable_variables_parameter()` counts.

An `op_log` of the caller's (TF's OpLogProto) adds types of its own: here a dict
{op name: [types]}, e.g. {"hidden/w": ["_big_layers"]}, then
`.with_accounted_types(["_big_layers"])` counts those ops only.
"""
import sys

from ..framework.graph import GraphKeys
from .flops_registry import float_ops
from .option_builder import TRAINABLE_VARIABLES
from .tfprof_node import GraphNodeStats

__all__ = ["graph_nodes"]


def graph_nodes(graph, op_log=None, report_missing=True):
    """GraphNodeStats for every op of `graph`, with its float ops and its profiler types."""
    nodes, missing = [], 0
    for op in graph.get_operations():
        try:
            flops = float_ops(op) or 0
        except ValueError:                   # a formula, but a shape not fully known
            missing, flops = missing + 1, 0
        nodes.append(GraphNodeStats.of_op(op, flops))
    by_name = {node.name: node for node in nodes}
    for variable in graph.get_collection(GraphKeys.TRAINABLE_VARIABLES):
        if variable.op.name in by_name:
            by_name[variable.op.name].op_types.add(TRAINABLE_VARIABLES)
    for name, types in (op_log or {}).items():
        if name in by_name:
            by_name[name].op_types.update([types] if isinstance(types, str) else types)
    if missing and report_missing:
        sys.stderr.write(f"{missing} ops no flops stats due to incomplete shapes.\n")
    return nodes
