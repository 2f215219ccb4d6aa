"""`tf.profiler.profile` and `tf.profiler.Profiler` -- mirror TensorFlow 1.15's
python/profiler/model_analyzer.py (TF's tfprof): how many parameters a model holds, how many
float operations a step does, and -- from a traced step -- where the time goes.

    tf.profiler.profile(tf.get_default_graph(),            # parameters, by name scope
                        options=tf.profiler.ProfileOptionBuilder.trainable_variables_parameter())

    run_meta = tf.RunMetadata()
    sess.run(train_op, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
             run_metadata=run_meta)
    tf.profiler.profile(sess.graph, run_meta=run_meta, cmd="op",   # time, by op type
                        options=tf.profiler.ProfileOptionBuilder.time_and_memory(min_bytes=0))

Two views, as TF's: 'scope' (tfprof_scope.py) and 'op' (tfprof_op.py); the report's text is
TF's. On a cluster a traced step holds the ops of every task, so the time of each op is the
time on the task that ran it (the 'device' column names it). What the sandbox does not do:
the 'graph' and 'code' views, the advisor, memory (bytes are 0), and profile files for TF's
command-line tool.
"""
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.message import Message
from .option_builder import ProfileOptionBuilder
from .tfprof_logger import graph_nodes
from .tfprof_node import GraphNodeProto, GraphNodeStats, MultiGraphNodeProto
from .tfprof_op import op_view
from .tfprof_scope import scope_view
from .tfprof_show import Options, report

__all__ = ["profile", "Profiler", "advise", "write_op_log", "OpLogProto", "OpLogEntry"]

_DEFAULT_OPTIONS = 0                       # TF's sentinel: "trainable_variables_parameter()"
_NO_VIEW = {
    "graph": "the 'graph' view (nodes by their inputs) is not in the sandbox; the 'scope' "
             "view shows the same nodes by name, and the placement widget shows the edges.",
    "code": "the 'code' view (nodes by the Python lines that built them) is not in the "
            "sandbox; use the 'scope' or the 'op' view.",
}


class OpLogEntry(Message):
    """TF's tfprof OpLogEntry: extra types (and float ops) for one op, by name."""
    _FIELDS = {"name": "", "float_ops": 0, "types": list}


class OpLogProto(Message):
    """TF's OpLogProto: the caller's extra op types, passed as `op_log`."""
    _FIELDS = {"log_entries": list}


def _types_of(op_log):
    if op_log is None or isinstance(op_log, dict):
        return op_log
    return {entry.name: list(entry.types) for entry in op_log.log_entries}


def _add_run_meta(nodes, step, run_meta):
    """TF's TFStats::AddRunMeta: each traced op run is a statistic of its graph node; a
    traced node the graph lacks (a _Send or _Recv the partition added) becomes a node."""
    by_name = {node.name: node for node in nodes}
    for dev_stats in run_meta.step_stats.dev_stats:
        for node_stat in dev_stats.node_stats:
            name = node_stat.node_name.split(":", 1)[0]
            if name not in by_name:
                if name in ("RecvTensor", "_SOURCE") or "MEMCPY" in name:
                    continue
                by_name[name] = GraphNodeStats(name, name)
                nodes.append(by_name[name])
            by_name[name].add_step_stat(step, dev_stats.device, node_stat)


def _show(cmd, graph, steps, op_log, options):
    if cmd in _NO_VIEW:
        raise NotImplementedError(f"tf.profiler: {_NO_VIEW[cmd]}")
    if cmd not in ("scope", "op"):
        raise errors.InvalidArgumentError(None, None, f"unknown cmd: {cmd}\n")
    opts = Options(options)
    if opts.step >= 0 and opts.step not in steps:
        import sys
        sys.stderr.write(f"Options -step={opts.step} not found.\nAvailable steps: "
                         + "".join(f"{s} " for s in sorted(steps)) + "\n")
        return GraphNodeProto() if cmd == "scope" else MultiGraphNodeProto()
    nodes = graph_nodes(graph, _types_of(op_log), report_missing=not steps)
    for step, run_meta in steps.items():
        _add_run_meta(nodes, step, run_meta)
    text, proto = (scope_view if cmd == "scope" else op_view)(nodes, opts)
    report(cmd, opts, text)
    return proto


def profile(graph=None, run_meta=None, op_log=None, cmd="scope", options=_DEFAULT_OPTIONS):
    """Prints the profile of `graph` (and of the traced step in `run_meta`) and returns it:
    a GraphNodeProto for cmd 'scope', a MultiGraphNodeProto for cmd 'op'."""
    graph = graph or get_default_graph()
    if options == _DEFAULT_OPTIONS:
        options = ProfileOptionBuilder.trainable_variables_parameter()
    return _show(cmd, graph, {} if run_meta is None else {0: run_meta}, op_log, options)


class Profiler:
    """A profiler over several traced steps of one graph (TF's multi-step Profiler):
    `add_step(step, run_meta)` after a traced `sess.run`, then a view; with the option
    step=-1 (the default) times are the average over the steps added."""

    def __init__(self, graph=None, op_log=None):
        self._graph = graph or get_default_graph()
        self._op_log = op_log
        self._steps = {}

    def add_step(self, step, run_meta):
        if run_meta is None or not run_meta.step_stats.dev_stats:
            raise ValueError(f"Profiler.add_step({step}): run_meta holds no traced step; run "
                             "with options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)"
                             " and run_metadata=run_meta.")
        self._steps[step] = run_meta

    def profile_name_scope(self, options):
        return _show("scope", self._graph, self._steps, self._op_log, options)

    def profile_operations(self, options):
        return _show("op", self._graph, self._steps, self._op_log, options)

    def profile_graph(self, options):
        return _show("graph", self._graph, self._steps, self._op_log, options)

    def profile_python(self, options):
        return _show("code", self._graph, self._steps, self._op_log, options)

    def advise(self, options=None):
        return advise(self._graph)

    def serialize_to_string(self):
        raise NotImplementedError("Profiler.serialize_to_string writes a profile for TF's "
                                  "command-line tool, which the sandbox does not have.")


def advise(graph=None, run_meta=None, options=None):
    """TF's advisor (expensive-op and accelerator checks) is not in the sandbox."""
    raise NotImplementedError("tf.profiler.advise is not in the sandbox: its checkers judge "
                              "GPU utilisation and kernel choices a CPU simulation does not "
                              "have. Use tf.profiler.profile with time_and_memory() options to "
                              "see where a step's time goes.")


def write_op_log(graph, log_dir, op_log=None, run_meta=None, add_trace=True):
    """TF writes an op log for its command-line profiler, which the sandbox does not have."""
    raise NotImplementedError("tf.profiler.write_op_log writes a file for TF's command-line "
                              "profiler, which the sandbox does not have; pass op_log to "
                              "tf.profiler.profile instead.")
