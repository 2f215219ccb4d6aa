"""The op view -- mirrors TensorFlow's core/profiler/internal/tfprof_op.cc (TFOp): one line
per op type (MatMul, Conv2D, VariableV2 ...), holding the graph nodes of that type whose
statistics count, so a report says where a model's parameters, float operations or time go
by kind of op:

    MatMul                   101.63k float_ops (100.00%, 99.75%)
    AddV2                        266 float_ops (0.25%, 0.25%)

The first percentage is the share of this line and all below it, the second the share of
this line alone. `tf.profiler.profile(cmd='op')` answers with a MultiGraphNodeProto whose
children form a chain, one op type inside the other, in the order printed -- as TF's.
"""
import re

from .tfprof_node import ROOT, GraphNodeProto, GraphNodeStats, MultiGraphNodeProto
from .tfprof_show import (ShowNode, format_memory, format_number, format_time, legend,
                          should_show, should_trim, sort_nodes)

__all__ = ["op_view"]


class _OpTypeNode(ShowNode):
    """The graph nodes of one op type; its statistics are the sum of those that count."""

    def __init__(self, op_type, members):
        super().__init__(GraphNodeStats(op_type, op_type), MultiGraphNodeProto())
        self.members = members

    def reinit(self, step, regexes):
        counted = [m for m in self.members if regexes == [".*"] or any(
            re.fullmatch(r, t) for r in regexes for t in m.op_types)]
        self.proto.graph_nodes = []
        for key in ("exec_micros", "accelerator_exec_micros", "cpu_exec_micros",
                    "requested_bytes", "peak_bytes", "residual_bytes", "output_bytes",
                    "parameters", "float_ops"):
            setattr(self.proto, key, 0)
        for member in counted:
            stats = member.stats(step)
            graph_node = GraphNodeProto(name=member.name, **stats)
            self.proto.graph_nodes.append(graph_node)
            for key, value in stats.items():
                if key != "run_count":
                    setattr(self.proto, key, getattr(self.proto, key) + value)
        return bool(counted)


def _percent(total, own, root_total):
    if total <= 0:
        return 0.0, 0.0
    return 100.0 * total / root_total, 100.0 * own / root_total


def _column(text, total, own, root_total):
    accumulated, alone = _percent(total, own, root_total)
    return f"{text} ({accumulated:.2f}%, {alone:.2f}%)".rjust(30)


def format_node(node, root, opts):
    """TF's TFOp::FormatNode: the op type, left in 25 columns, then each column right in 30."""
    p, r, select, attrs = node.proto, root.proto, opts.select, []
    for column, stat in (("bytes", "requested_bytes"), ("peak_bytes", "peak_bytes"),
                         ("residual_bytes", "residual_bytes"), ("output_bytes", "output_bytes")):
        if column in select:
            attrs.append(_column(format_memory(getattr(p, stat)), getattr(p, f"total_{stat}"),
                                 getattr(p, stat), getattr(r, f"total_{stat}")))
    for column, stat in (("micros", "exec_micros"), ("accelerator_micros",
                         "accelerator_exec_micros"), ("cpu_micros", "cpu_exec_micros")):
        if "micros" in select or column in select:
            attrs.append(_column(format_time(getattr(p, stat)), getattr(p, f"total_{stat}"),
                                 getattr(p, stat), getattr(r, f"total_{stat}")))
    if "params" in select:
        attrs.append(_column(f"{format_number(p.parameters)} params", p.total_parameters,
                             p.parameters, r.total_parameters))
    if "float_ops" in select:
        attrs.append(_column(f"{format_number(p.float_ops)} float_ops", p.total_float_ops,
                             p.float_ops, r.total_float_ops))
    if "device" in select:
        attrs.append("|".join(sorted({g.devices[0] for g in p.graph_nodes if g.devices})))
    if "op_types" in select:
        attrs.append("|".join(sorted(set().union(*(m.op_types for m in node.members)))))
    if "occurrence" in select:
        runs = sum(g.run_count for g in p.graph_nodes)
        attrs.append(f"{runs}|{len(p.graph_nodes)}".rjust(10))
    return f"{node.name:<25}{', '.join(attrs)}\n"


def op_view(graph_nodes, opts):
    """The op view's report text and its root MultiGraphNodeProto."""
    by_type = {}
    for stats in graph_nodes:
        by_type.setdefault(stats.op_type, []).append(stats)
    for members in by_type.values():
        members.sort(key=lambda m: m.name)      # TF keeps its graph nodes by name
    root = ShowNode(GraphNodeStats(ROOT, ROOT), MultiGraphNodeProto())
    nodes = []
    for op_type in sorted(by_type):
        node = _OpTypeNode(op_type, by_type[op_type])
        node.account = node.reinit(opts.step, opts.account_type_regexes)
        node.reset_totals()
        node.add_self_to_totals()
        nodes.append(node)
    nodes = sort_nodes(nodes, opts)
    counted, below = [], None
    for node in reversed(nodes):                # each total: this line and all below it
        if node.account:
            if below is not None:
                node.aggregate_totals(below)
            counted.append(node)
            below = node
    counted.reverse()
    if below is not None:
        root.aggregate_totals(below)
    start = 0
    if opts.start_name_regexes and opts.start_name_regexes != [".*"]:
        start = next((i for i, n in enumerate(counted) if any(
            re.fullmatch(r, n.name) for r in opts.start_name_regexes)), len(counted))
    shown = []
    for depth, node in enumerate(counted[start:]):
        if should_trim(node, opts.trim_name_regexes) or depth > opts.max_depth:
            break
        if should_show(node, opts, depth):
            shown.append(node)
    if opts.account_displayed_op_only:
        below = None
        for node in reversed(shown):
            node.reset_totals()
            node.add_self_to_totals()
            if below is not None:
                node.aggregate_totals(below)
            below = node
        root.reset_totals()
        if below is not None:
            root.aggregate_totals(below)
    text = legend(opts) + "".join(format_node(n, root, opts) for n in shown)
    parent = root.proto
    for node in shown:
        parent.children = [node.proto]
        parent = node.proto
    return text, root.proto
