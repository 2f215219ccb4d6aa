"""What the profiler knows of one graph node, and the messages it answers with -- mirrors
TensorFlow's core/profiler/internal/tfprof_node.{h,cc} (TFGraphNode, ExecStep) and the
GraphNodeProto / MultiGraphNodeProto messages of core/profiler/tfprof_output.proto.

A node's statistics come from two places:
  * the graph: its op types (its op's type, and '_trainable_variables' for a trainable
    variable), its shape (the static shape of its first output), the parameters that shape
    holds, and its float operations (flops_registry.py);
  * traced steps (RunMetadata.step_stats, one per `Profiler.add_step`): on which device it
    ran, how many times, and for how long. Step -1 means the average over the steps.
The sandbox's step statistics hold times only, so every byte count is 0: it does not measure
memory.
"""
import re

from ..framework.message import Message

__all__ = ["GraphNodeProto", "MultiGraphNodeProto", "GraphNodeStats", "STAT_NAMES",
           "SCOPE_PARENT", "ROOT"]

ROOT = "_TFProfRoot"                        # TF's kTFProfRoot
SCOPE_PARENT = "_kTFScopeParent"            # the op type of a name scope that is no op
STAT_NAMES = ("run_count", "exec_micros", "accelerator_exec_micros", "cpu_exec_micros",
              "requested_bytes", "peak_bytes", "residual_bytes", "output_bytes",
              "parameters", "float_ops")
_TOTALS = {f"total_{name}": 0 for name in STAT_NAMES}
_CPU_DEVICE = re.compile(r".*/(device:gpu|gpu|device:cpu|cpu):\d+")


def _dims(tensor):
    """TF's ShapeProtoToVec: -1 for an unknown dimension, [] for an unknown rank, [1] for a
    scalar."""
    if tensor.shape.ndims is None:
        return []
    return [-1 if d is None else d for d in tensor.shape.as_list()] or [1]


class GraphNodeProto(Message):
    """A node of the scope view: its own statistics, the totals of what it shows, children."""
    _FIELDS = {"name": "", **{name: 0 for name in STAT_NAMES}, "devices": list,
               "total_definition_count": 0, **_TOTALS, "shapes": list, "children": list}


class MultiGraphNodeProto(Message):
    """A node of the op view: one op type, with the graph nodes of that type it counts."""
    _FIELDS = {"name": "", **{name: 0 for name in STAT_NAMES if name != "run_count"},
               **{k: 0 for k in _TOTALS if k != "total_run_count"}, "graph_nodes": list,
               "children": list}


class GraphNodeStats:
    """One node of the graph (or a name scope that holds nodes), and its statistics."""

    def __init__(self, name, op_type, shape=(), float_ops=0):
        self.name = name
        self.op_type = op_type
        self.op_types = {op_type}
        self.shape = list(shape)            # [] when unknown; a scalar is [1], as in TF
        self.float_ops = float_ops
        self.input_shapes = []              # [dims] of each input ([] when unknown)
        self.canonical_device = ""
        self.execs = {}                     # step -> [micros of each run on a CPU device]

    @classmethod
    def of_op(cls, op, float_ops=0):
        node = cls(op.name, op.type, _dims(op.outputs[0]) if op.outputs else [], float_ops)
        node.input_shapes = [_dims(t) for t in op.inputs]
        return node

    @property
    def parameters(self):
        """The number of values its shape holds, 0 while a dimension is unknown."""
        if not self.shape or min(self.shape) < 0:
            return 0
        count = 1
        for d in self.shape:
            count *= d
        return count

    def add_step_stat(self, step, device, node_stat):
        """TF's TFGraphNode::AddStepStat: a run of this node in `step`, on `device`."""
        device = device.lower()
        if _CPU_DEVICE.fullmatch(device):
            if self.canonical_device and self.canonical_device != device:
                return
            if not self.canonical_device:
                self.canonical_device = device
                self.op_types.add(device)
        runs = self.execs.setdefault(step, [])
        if node_stat.all_start_micros > 0 and _CPU_DEVICE.fullmatch(device):
            runs.append(max(1, node_stat.op_end_rel_micros))   # TF rounds 0 up to 1 micro

    def stats(self, step):
        """Its own statistics in `step` (-1: the average of the traced steps)."""
        if step >= 0:
            runs = [self.execs.get(step, [])]
        else:
            runs = list(self.execs.values())
        micros = sum(sum(r) for r in runs) // len(runs) if runs else 0
        run_count = sum(len(r) for r in runs) // len(runs) if runs else 0
        values = dict.fromkeys(STAT_NAMES, 0)
        values.update(run_count=run_count, exec_micros=micros, cpu_exec_micros=micros,
                      parameters=self.parameters, float_ops=self.float_ops)
        return values
