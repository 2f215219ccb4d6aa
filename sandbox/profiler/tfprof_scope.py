"""The scope view -- mirrors TensorFlow's core/profiler/internal/tfprof_scope.cc (TFScope):
graph nodes arranged by their names, as a file system arranges paths. `hidden/w` is a child of
`hidden`; a name scope that is no op of its own (`hidden`) is made a node of type
'_kTFScopeParent' so that its ops have a parent. `tf.profiler.profile(cmd='scope')` answers with
the root of this tree, `_TFProfRoot`, as a GraphNodeProto.

Three passes, as TF's:
  1. account  keep the nodes whose statistics count (account_type_regexes) and the scopes
              above them; each node's totals are its own plus its children's
  2. show     pick the nodes the report prints (should_show); a hidden node's children move
              up to its nearest shown ancestor, and with account_displayed_op_only the totals
              count the shown nodes only
  3. format   one line a node, indented two spaces a level
"""
from .tfprof_node import ROOT, SCOPE_PARENT, GraphNodeProto, GraphNodeStats
from .tfprof_show import (ShowNode, account, format_memory, format_number, format_time,
                          legend, should_show, should_trim, sort_nodes)

__all__ = ["scope_view"]


def _build(graph_nodes):
    nodes = {}
    for stats in graph_nodes:
        nodes[stats.name] = ShowNode(stats, GraphNodeProto())
        name = stats.name
        while "/" in name:                   # every prefix of a name is a node too
            name = name.rsplit("/", 1)[0]
            if name not in nodes:
                nodes[name] = ShowNode(GraphNodeStats(name, SCOPE_PARENT), GraphNodeProto())
    roots = []
    for name in sorted(nodes):                # TF's nodes live in a std::map: by name
        parent = name.rsplit("/", 1)[0] if "/" in name else None
        (nodes[parent].children if parent else roots).append(nodes[name])
    root = ShowNode(GraphNodeStats(ROOT, SCOPE_PARENT), GraphNodeProto())
    root.children = roots
    return root


def _account(nodes, opts):
    kept = []
    for node in nodes:
        node.reset_totals()
        kept_children = _account(node.children, opts)
        node.account = account(node, opts)
        if node.account or kept_children:
            node.reset_totals()
            node.add_self_to_totals()
            for child in kept_children:
                node.aggregate_totals(child)
            node.show_children = kept_children
            kept.append(node)
    return kept


def _search_root(nodes, regexes):
    import re
    found = []
    for node in nodes:
        if any(re.fullmatch(r, node.name) for r in regexes):
            found.append(node)
        else:
            found += _search_root(node.show_children, regexes)
    return found


def _print_scope(nodes, opts, depth, last_indent):
    shown = []
    for node in nodes:
        show = should_show(node, opts, depth)
        indent = last_indent + 2 if show else last_indent
        children = []
        if not should_trim(node, opts.trim_name_regexes) and depth <= opts.max_depth:
            children = _print_scope(node.show_children, opts, depth + 1, indent)
        if show:
            if opts.account_displayed_op_only:
                node.reset_totals()
                node.add_self_to_totals()
            node.show_children = sort_nodes(children, opts)
            for child in node.show_children:
                if opts.account_displayed_op_only:
                    node.aggregate_totals(child)
            node.formatted = " " * last_indent + format_node(node, opts) + "\n"
            shown.append(node)
        else:
            shown += children
    return shown


def _self_total(node, own, total, fmt):
    return f"{fmt(own) if node.account else '--'}/{fmt(total)}"


def format_node(node, opts):
    """TF's TFShow::FormatNode: 'name (column, column ...)'."""
    p, select, info = node.proto, opts.select, []
    if "params" in select:
        if node.node.shape:
            info.append("x".join(str(d) for d in node.node.shape))
        info.append(_self_total(node, p.parameters, p.total_parameters, format_number)
                    + " params")
    if "float_ops" in select:
        info.append(_self_total(node, p.float_ops, p.total_float_ops, format_number) + " flops")
    for column, stat in (("bytes", "requested_bytes"), ("peak_bytes", "peak_bytes"),
                         ("residual_bytes", "residual_bytes"), ("output_bytes", "output_bytes")):
        if column in select:
            info.append(_self_total(node, getattr(p, stat), getattr(p, f"total_{stat}"),
                                    format_memory))
    times = (("micros", "exec_micros"), ("accelerator_micros", "accelerator_exec_micros"),
             ("cpu_micros", "cpu_exec_micros"))
    for column, stat in times:
        if "micros" in select or column in select:
            info.append(_self_total(node, getattr(p, stat), getattr(p, f"total_{stat}"),
                                    format_time))
    if "device" in select and p.devices:
        info.append("|".join(p.devices))
    if "op_types" in select:
        info.append("|".join(sorted(node.node.op_types)))
    if "occurrence" in select:
        runs = _self_total(node, p.run_count, p.total_run_count, format_number)
        info.append(f"{runs}|{'1' if node.account else '--'}/"
                    f"{format_number(p.total_definition_count)}")
    if "input_shapes" in select:
        info.append("|".join(f"{i}:{'x'.join(map(str, s)) if s else 'unknown'}"
                             for i, s in enumerate(node.node.input_shapes)))
    return f"{node.name} ({', '.join(info)})"


def _to_proto(node):
    node.proto.children = [_to_proto(child) for child in node.show_children]
    return node.proto


def scope_view(graph_nodes, opts):
    """The scope view's report text and its root GraphNodeProto."""
    root = _build(graph_nodes)
    roots = _account(root.children, opts)
    root.reset_totals()
    for node in roots:
        root.aggregate_totals(node)
    if opts.start_name_regexes != [".*"]:
        roots = _search_root(roots, opts.start_name_regexes)
    root.show_children = roots
    root = _print_scope([root], opts, 1, 0)[0]
    lines = []

    def collect(node):
        lines.append(node.formatted)
        for child in node.show_children:
            collect(child)
    collect(root)
    return legend(opts) + "".join(lines), _to_proto(root)
