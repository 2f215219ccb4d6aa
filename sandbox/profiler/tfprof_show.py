"""What every profile view shares -- mirrors TensorFlow's core/profiler/internal/
tfprof_show.{h,cc}, tfprof_show_multi.cc, tfprof_utils.cc and the printing of
print_model_analysis.cc: accounting (which nodes' statistics count), showing (which nodes a
report prints), sorting, and the text of the report -- "100.35k params", "2.31ms", "16.38KB".
"""
import re
import sys

from .option_builder import ORDER_BY, SELECTABLE
from .tfprof_node import ROOT, STAT_NAMES

__all__ = ["ShowNode", "Options", "format_number", "format_time", "format_memory",
           "account", "should_show", "should_trim", "sort_nodes", "report"]


def format_number(n):
    n = int(n)
    if n < 1000:
        return f"{n}"
    if n < 1000000:
        return f"{n / 1000.0:.2f}k"
    if n < 1000000000:
        return f"{n / 1000000.0:.2f}m"
    return f"{n / 1000000000.0:.2f}b"


def format_time(micros):
    if micros < 1000:
        return f"{micros}us"
    if micros < 1000000:
        return f"{micros / 1000.0:.2f}ms"
    return f"{micros / 1000000.0:.2f}sec"


def format_memory(count):
    if count < 1000:
        return f"{count}B"
    if count < 1000000:
        return f"{count / 1000.0:.2f}KB"
    return f"{count / 1000000.0:.2f}MB"


class Options:
    """An options dict (option_builder.py) read once, with TF's defaults for missing keys
    and clear errors for a column or an order TF does not know."""

    _INTS = ("max_depth", "min_bytes", "min_peak_bytes", "min_residual_bytes",
             "min_output_bytes", "min_micros", "min_accelerator_micros", "min_cpu_micros",
             "min_params", "min_float_ops", "min_occurrence", "step")
    _LISTS = ("account_type_regexes", "start_name_regexes", "trim_name_regexes",
              "show_name_regexes", "hide_name_regexes")

    def __init__(self, options):
        get = options.get
        for key in self._INTS:
            setattr(self, key, int(get(key, {"max_depth": 10, "step": -1}.get(key, 0))))
        for key in self._LISTS:
            setattr(self, key, list(get(key, [])))
        self.order_by = get("order_by", "name")
        self.account_displayed_op_only = bool(get("account_displayed_op_only", False))
        self.select = sorted(set(get("select", [])))      # TF keeps them in a std::set
        unknown = [s for s in self.select if s not in SELECTABLE]
        if unknown:
            raise ValueError(f"profiler options: select {unknown} is not a column the "
                             f"profiler knows; choose from {list(SELECTABLE)}.")
        if self.order_by not in ORDER_BY:
            raise ValueError(f"profiler options: order_by {self.order_by!r} is not one of "
                             f"{list(ORDER_BY)}.")
        output = get("output", "stdout")
        self.output_type, _, rest = output.partition(":")
        self.output_options = dict(kv.split("=", 1) for kv in rest.split(",") if "=" in kv)
        if self.output_type not in ("stdout", "none", "file", "timeline", "pprof"):
            raise ValueError(f"profiler options: output {output!r} is not 'stdout', 'none' "
                             "or 'file:outfile=<path>'.")
        if self.output_type == "file" and "outfile" not in self.output_options:
            raise ValueError("profiler options: output 'file' needs a path: "
                             "'file:outfile=<path>' (ProfileOptionBuilder.with_file_output).")
        if self.output_type in ("timeline", "pprof"):
            raise NotImplementedError(
                f"profiler output {self.output_type!r} is not in the sandbox: for a Chrome "
                "trace of a step use tf.client.timeline.Timeline(run_metadata.step_stats); "
                "the profiler prints to stdout or to a file.")

    def __str__(self):
        """TF's Options::ToString, printed above a report."""
        rows = [(f"-{k}", getattr(self, k)) for k in self._INTS]
        rows += [("-order_by", self.order_by)]
        rows += [(f"-{k}", ",".join(getattr(self, k))) for k in self._LISTS]
        rows += [("-account_displayed_op_only", "true" if self.account_displayed_op_only
                  else "false"), ("-select", ",".join(self.select))]
        outputs = ",".join(f"{k}={v}" for k, v in sorted(self.output_options.items()))
        rows += [("-output", f"{self.output_type}:{outputs}")]
        return "".join(f"{key:<28}{value}\n" for key, value in rows)


class ShowNode:
    """A node of a view: its statistics for the step asked (`proto`), whether they count
    (`account`), and the children the report shows."""

    def __init__(self, node, proto):
        self.node = node
        self.proto = proto
        self.name = proto.name = node.name
        self.account = False
        self.children = []
        self.show_children = []
        self.formatted = ""

    def reinit(self, step):
        for key, value in self.node.stats(step).items():
            if hasattr(self.proto, key):
                setattr(self.proto, key, value)
        if hasattr(self.proto, "devices"):
            self.proto.devices = [self.node.canonical_device] if self.node.canonical_device \
                else []

    def reset_totals(self):
        for key in STAT_NAMES + ("definition_count",):
            if hasattr(self.proto, f"total_{key}"):
                setattr(self.proto, f"total_{key}", 0)

    def add_self_to_totals(self):
        if hasattr(self.proto, "total_definition_count"):
            self.proto.total_definition_count += 1
        for key in STAT_NAMES:
            if hasattr(self.proto, f"total_{key}"):
                setattr(self.proto, f"total_{key}",
                        getattr(self.proto, f"total_{key}") + getattr(self.proto, key))

    def aggregate_totals(self, child):
        for key in STAT_NAMES + ("definition_count",):
            total = f"total_{key}"
            if hasattr(self.proto, total):
                setattr(self.proto, total, getattr(self.proto, total) + getattr(child.proto, total))


def account(node, opts):
    """TF's ReAccount: the node's statistics for the step; True if one of its op types
    matches account_type_regexes."""
    node.reinit(opts.step)
    if opts.account_type_regexes == [".*"]:
        return True
    return any(re.fullmatch(regex, op_type) for regex in opts.account_type_regexes
               for op_type in node.node.op_types)


def should_show(node, opts, depth):
    """TF's ShouldShow: the root always; others past the min_* filters (own parameters and
    float ops; total times and bytes), within max_depth, and named by the name regexes."""
    if node.name == ROOT:
        return True
    p = node.proto
    if (p.total_requested_bytes < opts.min_bytes or p.total_peak_bytes < opts.min_peak_bytes
            or p.total_residual_bytes < opts.min_residual_bytes
            or p.total_output_bytes < opts.min_output_bytes
            or p.total_exec_micros < opts.min_micros
            or p.total_accelerator_exec_micros < opts.min_accelerator_micros
            or p.total_cpu_exec_micros < opts.min_cpu_micros
            or p.parameters < opts.min_params or p.float_ops < opts.min_float_ops
            or getattr(p, "run_count", 0) < opts.min_occurrence or depth > opts.max_depth):
        return False
    if opts.show_name_regexes != [".*"] and not any(
            re.fullmatch(r, node.name) for r in opts.show_name_regexes):
        return False
    return not any(re.fullmatch(r, node.name) for r in opts.hide_name_regexes)


def should_trim(node, regexes):
    return any(re.fullmatch(r, node.name) for r in regexes)


_ORDER_KEYS = {"bytes": "total_requested_bytes", "peak_bytes": "total_peak_bytes",
               "residual_bytes": "total_residual_bytes", "output_bytes": "total_output_bytes",
               "micros": "total_exec_micros", "accelerator_micros":
               "total_accelerator_exec_micros", "cpu_micros": "total_cpu_exec_micros",
               "params": "total_parameters", "float_ops": "total_float_ops"}


def sort_nodes(nodes, opts):
    """TF's SortNodes: a stable sort, largest first by the order_by statistic's total, or
    by name ('name', and 'occurrence', which TF's sort does not know)."""
    key = _ORDER_KEYS.get(opts.order_by)
    if key is None:
        return sorted(nodes, key=lambda n: (n.name != ROOT, n.name))
    return sorted(nodes, key=lambda n: (n.name != ROOT, -getattr(n.proto, key)))


_HELP = {
    "bytes": "requested bytes: The memory requested by the operation, accumulatively.",
    "micros": "total execution time: Sum of accelerator execution time and cpu execution "
              "time.\ncpu execution time: The time from the start to the end of the operation. "
              "It's the sum of actual cpu run time plus the time that it spends waiting if part "
              "of computation is launched asynchronously.\naccelerator execution time: Time "
              "spent executing on the accelerator. This is normally measured by the actual "
              "hardware library.",
    "params": "param: Number of parameters (in the Variable).",
    "float_ops": "flops: Number of float operations. Note: Please read the implementation for "
                 "the math behind it.",
    "tensor_value": "tensor_value: Not supported now.",
    "device": "device: which device is placed on.",
    "op_types": "op_types: The attributes of the operation, includes the Kernel name device "
                "placed on and user-defined strings.",
    "occurrence": "occurrence: The number of times it occurs",
    "input_shapes": "input shape: The shape of input tensors",
    "accelerator_micros": "accelerator execution time: Time spent executing on the "
                          "accelerator. This is normally measured by the actual hardware "
                          "library.",
    "cpu_micros": "cpu execution time: The time from the start to the end of the operation. "
                  "It's the sum of actual cpu run time plus the time that it spends waiting "
                  "if part of computation is launched asynchronously.",
    "peak_bytes": "peak bytes: The peak amount of memory that the operation is holding at "
                  "some point.",
    "residual_bytes": "residual bytes: The memory not de-allocated after the operation "
                      "finishes.",
    "output_bytes": "output bytes: The memory that is output from the operation (not "
                    "necessarilty allocated by the operation)",
}
_VIEW_HELP = {
    "scope": "scope: The nodes in the model graph are organized by their names, which is "
             "hierarchical like filesystem.",
    "op": "op: The nodes are operation kernel type, such as MatMul, Conv2D. Graph nodes "
          "belonging to the same type are aggregated together.",
}
_LEGEND = (("params", "# parameters"), ("float_ops", "# float_ops"),
           ("bytes", "requested bytes"), ("peak_bytes", "peak bytes"),
           ("residual_bytes", "residual bytes"), ("output_bytes", "output bytes"),
           ("micros", "total execution time | accelerator execution time | cpu execution time"),
           ("accelerator_micros", "accelerator execution time"),
           ("cpu_micros", "cpu execution time"), ("device", "assigned devices"),
           ("op_types", "op types"), ("occurrence", "op occurrence (run|defined)"),
           ("input_shapes", "input shapes"))


def legend(opts):
    columns = [text for key, text in _LEGEND if key in opts.select
               and not (key in ("accelerator_micros", "cpu_micros") and "micros" in opts.select)]
    return f"node name | {' | '.join(columns)}\n"


def report(view, opts, body):
    """The report's text as TF prints it: the options, the documentation of the view and of
    the columns, the profile; to stdout, to a file, or nowhere."""
    doc = "\n".join(_HELP[s] for s in opts.select)
    text = f"\nDoc:\n{_VIEW_HELP[view]}\n{doc}\n\nProfile:\n{body}"
    if opts.output_type == "stdout":
        sys.stdout.write("\n=========================Options=============================\n")
        sys.stdout.write(str(opts))
        sys.stdout.write("\n==================Model Analysis Report======================\n")
        sys.stdout.write(text)
        sys.stdout.write("\n======================End of Report==========================\n")
        sys.stdout.flush()
    elif opts.output_type == "file":
        with open(opts.output_options["outfile"], "w") as f:
            f.write(text)
