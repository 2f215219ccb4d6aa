"""Timelines of one step -- mirrors TF 1.15's python/client/timeline.py.

    run_metadata = tf.RunMetadata()
    sess.run(train_op, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
             run_metadata=run_metadata)
    trace = Timeline(run_metadata.step_stats).generate_chrome_trace_format()
    open("step.json", "w").write(trace)   # open it in https://ui.perfetto.dev, chrome://tracing

The JSON has TF's shape, {"traceEvents": [...]}:

  * process metadata ('ph': 'M', 'name': 'process_name'): pid 0 is "Allocators", then two
    "processes" per device, '<device> Compute' (its ops) and '<device> Tensors';
  * one complete event per op run ('ph': 'X', 'cat': 'Op'), named by the op's type, on its
    device's Compute pid, in a lane ('tid') where it overlaps no other op; its args hold the
    node's name, its type and its inputs (input0, input1 ...);
  * with show_dataflow, a flow arrow ('ph': 's' at the producer's end, 'ph': 't' at the
    consumer's start, 'cat': 'DataFlow') for every edge whose two ops are on different
    devices or lanes -- TF also leaves out arrows within one lane, they would only clutter.

TF reads an op's inputs from its NodeExecStats.timeline_label ('b = Mul(a, b/y)'). The
sandbox's labels name no inputs ('b = Mul()'), so when a graph is given the inputs are taken
from the graph's ops; every _Send is joined to its _Recv by an arrow too, so what travelled
between tasks is visible. show_memory draws nothing: the sandbox records no allocations.
"""
import json
import re

__all__ = ["Timeline"]

_SENDS = ("_Send", "_SendControl")


class _ChromeTraceFormatter:
    """Collects Chrome Trace events (TF's _ChromeTraceFormatter)."""

    def __init__(self):
        self._events = []
        self._metadata = []

    @staticmethod
    def _event(ph, category, name, pid, tid, timestamp):
        return {"ph": ph, "cat": category, "name": name, "pid": pid, "tid": tid,
                "ts": timestamp}

    def emit_pid(self, name, pid):
        self._metadata.append({"name": "process_name", "ph": "M", "pid": pid,
                               "args": {"name": name}})

    def emit_region(self, timestamp, duration, pid, tid, category, name, args):
        event = self._event("X", category, name, pid, tid, timestamp)
        event["dur"] = duration
        event["args"] = args
        self._events.append(event)

    def emit_flow(self, name, start, end, flow_id):
        """An arrow from `start` to `end`, each (timestamp, pid, tid)."""
        for ph, (timestamp, pid, tid) in (("s", start), ("t", end)):
            event = self._event(ph, "DataFlow", name, pid, tid, timestamp)
            event["id"] = flow_id
            self._events.append(event)

    def format_to_string(self, pretty=False):
        trace = {"traceEvents": self._metadata + self._events}
        if pretty:
            return json.dumps(trace, indent=4, separators=(",", ": "))
        return json.dumps(trace, separators=(",", ":"))


def _parse_op_label(label):
    """('name', 'Op', [inputs]) from a timeline label 'name = Op(in1, in2)'."""
    match = re.match(r"(.*) = (.*)\((.*)\)", label)
    if match is None:
        return "unknown", "unknown", []
    node_name, op, inputs = match.groups()
    return node_name, op, inputs.split(", ") if inputs else []


def _send_recv_key(node_name):
    """What a _Send and its _Recv have in common: their name without the '/_N' suffix."""
    return node_name.rsplit("/_", 1)[0]


class Timeline:
    """Turns StepStats into Chrome Trace Event JSON (TF's Timeline)."""

    def __init__(self, step_stats, graph=None):
        self._step_stats = step_stats
        self._graph = graph
        self._chrome_trace = _ChromeTraceFormatter()
        self._device_pids = {}          # device -> pid of its Compute row
        self._lanes = {}                # id(node_stats) -> tid
        self._flow_starts = {}          # tensor name -> (end time, pid, tid) of its producer
        self._next_flow_id = 0

    def _inputs(self, node_stats):
        """The input tensor names of an op run: from its label, else from the graph."""
        _, _, inputs = _parse_op_label(node_stats.timeline_label)
        if inputs or self._graph is None:
            return inputs
        try:
            op = self._graph.get_operation_by_name(node_stats.node_name)
        except (KeyError, ValueError):
            return []
        return [t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}"
                for t in op.inputs]

    def _allocate_pids(self):
        self._chrome_trace.emit_pid("Allocators", 0)
        for dev_stats in self._step_stats.dev_stats:
            pid = 2 * len(self._device_pids) + 1
            self._device_pids[dev_stats.device] = pid
            self._chrome_trace.emit_pid(dev_stats.device + " Compute", pid)
            self._chrome_trace.emit_pid(dev_stats.device + " Tensors", pid + 1)

    def _assign_lanes(self):
        """Each op goes to the first lane of its device that is free when it starts."""
        for dev_stats in self._step_stats.dev_stats:
            lanes = [0]
            for ns in dev_stats.node_stats:
                end = ns.all_start_micros + ns.all_end_rel_micros
                lane = next((i for i, busy_until in enumerate(lanes)
                             if ns.all_start_micros > busy_until), len(lanes))
                if lane == len(lanes):
                    lanes.append(end)
                lanes[lane] = end
                self._lanes[id(ns)] = lane

    def _record_outputs(self):
        for dev_stats in self._step_stats.dev_stats:
            pid = self._device_pids[dev_stats.device]
            for ns in dev_stats.node_stats:
                place = (ns.all_start_micros + ns.all_end_rel_micros, pid, self._lanes[id(ns)])
                self._flow_starts[ns.node_name] = place
                if ns.op in _SENDS:
                    self._flow_starts[_send_recv_key(ns.node_name)] = place

    def _flow(self, name, start, end):
        if start[1:] != end[1:]:       # not within one lane of one device
            self._chrome_trace.emit_flow(name, start, end, self._next_flow_id)
            self._next_flow_id += 1

    def _show_compute(self, show_dataflow):
        for dev_stats in self._step_stats.dev_stats:
            pid = self._device_pids[dev_stats.device]
            for ns in dev_stats.node_stats:
                tid = self._lanes[id(ns)]
                inputs = self._inputs(ns)
                args = {"name": ns.node_name, "op": ns.op}
                for i, input_name in enumerate(inputs):
                    args[f"input{i}"] = input_name
                self._chrome_trace.emit_region(ns.all_start_micros, ns.all_end_rel_micros, pid,
                                               tid, "Op", ns.op, args)
                if not show_dataflow:
                    continue
                here = (ns.all_start_micros, pid, tid)
                if ns.op == "_Recv":
                    inputs = inputs + [_send_recv_key(ns.node_name)]
                for input_name in inputs:
                    producer = input_name.lstrip("^").split(":")[0]
                    if producer in self._flow_starts:
                        self._flow(input_name, self._flow_starts[producer], here)

    def generate_chrome_trace_format(self, show_dataflow=True, show_memory=False,
                                     op_time="schedule"):
        """The step as a Chrome Trace JSON string (pretty-printed, as TF's)."""
        self._chrome_trace = _ChromeTraceFormatter()
        self._device_pids, self._lanes, self._flow_starts = {}, {}, {}
        self._next_flow_id = 0
        self._allocate_pids()
        self._assign_lanes()
        self._record_outputs()
        self._show_compute(show_dataflow)
        return self._chrome_trace.format_to_string(pretty=True)
