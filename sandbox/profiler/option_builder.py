"""`tf.profiler.ProfileOptionBuilder` -- mirrors TensorFlow 1.15's
python/profiler/option_builder.py: the options of a profile are a plain dict, and the builder
starts from one of three presets and changes it one setting at a time.

    opts = (tf.profiler.ProfileOptionBuilder(
                tf.profiler.ProfileOptionBuilder.trainable_variables_parameter())
            .with_max_depth(2).order_by("params").build())
    tf.profiler.profile(tf.get_default_graph(), options=opts)

What the options mean (TF's core/profiler/g3doc/options.md): `account_type_regexes` picks the
ops whose statistics count (by op type, or the types the profiler gives -- trainable
variables are of type '_trainable_variables'); `min_*`, `max_depth` and the `*_name_regexes`
pick what is shown; `select` picks the columns; `order_by` sorts each level.
"""
import copy

__all__ = ["ProfileOptionBuilder", "SELECTABLE", "ORDER_BY", "TRAINABLE_VARIABLES"]

TRAINABLE_VARIABLES = "_trainable_variables"        # tfprof_logger.TRAINABLE_VARIABLES
# TF's kShown and kOrderBy (core/profiler/tfprof_options.h), in TF's order.
SELECTABLE = ("bytes", "micros", "params", "float_ops", "tensor_value", "device", "op_types",
              "occurrence", "input_shapes", "accelerator_micros", "cpu_micros", "peak_bytes",
              "residual_bytes", "output_bytes")
ORDER_BY = ("name", "bytes", "peak_bytes", "residual_bytes", "output_bytes", "micros",
            "accelerator_micros", "cpu_micros", "params", "float_ops", "occurrence")


def _preset(**changes):
    options = {"max_depth": 10000, "min_bytes": 0, "min_micros": 0, "min_params": 0,
               "min_float_ops": 0, "min_occurrence": 0, "order_by": "name",
               "account_type_regexes": [".*"], "start_name_regexes": [".*"],
               "trim_name_regexes": [], "show_name_regexes": [".*"], "hide_name_regexes": [],
               "account_displayed_op_only": True, "select": ["micros"], "step": -1,
               "output": "stdout"}
    options.update(changes)
    return options


class ProfileOptionBuilder:
    """Builds the options dict of tf.profiler.profile and tf.profiler.Profiler."""

    def __init__(self, options=None):
        if options is not None:
            self._options = copy.deepcopy(options)
        else:                                        # TF's defaults for a builder from nothing
            self._options = _preset(max_depth=100, account_displayed_op_only=False)

    @staticmethod
    def trainable_variables_parameter():
        """The number of parameters of each trainable variable, by name scope."""
        return _preset(account_type_regexes=[TRAINABLE_VARIABLES], select=["params"])

    @staticmethod
    def float_operation():
        """The floating point operations of each op whose count TF knows (flops_registry.py)."""
        return _preset(min_float_ops=1, order_by="float_ops", select=["float_ops"])

    @staticmethod
    def time_and_memory(min_micros=1, min_bytes=1, min_accelerator_micros=0, min_cpu_micros=0,
                        min_peak_bytes=0, min_residual_bytes=0, min_output_bytes=0):
        """The time each op took in a traced step (needs run_meta). The sandbox does not
        measure memory: its byte columns show 0, so keep min_bytes=0 to see the ops."""
        options = _preset(min_bytes=min_bytes, min_micros=min_micros, order_by="micros",
                          select=["micros", "bytes"])
        options.update(min_peak_bytes=min_peak_bytes, min_residual_bytes=min_residual_bytes,
                       min_output_bytes=min_output_bytes,
                       min_accelerator_micros=min_accelerator_micros,
                       min_cpu_micros=min_cpu_micros)
        return {k: options[k] for k in _TIME_AND_MEMORY_KEYS}

    def build(self):
        return copy.deepcopy(self._options)

    def with_max_depth(self, max_depth):
        self._options["max_depth"] = max_depth
        return self

    def with_min_memory(self, min_bytes=0, min_peak_bytes=0, min_residual_bytes=0,
                        min_output_bytes=0):
        self._options.update(min_bytes=min_bytes, min_peak_bytes=min_peak_bytes,
                             min_residual_bytes=min_residual_bytes,
                             min_output_bytes=min_output_bytes)
        return self

    def with_min_execution_time(self, min_micros=0, min_accelerator_micros=0, min_cpu_micros=0):
        self._options.update(min_micros=min_micros, min_accelerator_micros=min_accelerator_micros,
                             min_cpu_micros=min_cpu_micros)
        return self

    def with_min_parameters(self, min_params):
        self._options["min_params"] = min_params
        return self

    def with_min_occurrence(self, min_occurrence):
        self._options["min_occurrence"] = min_occurrence
        return self

    def with_min_float_operations(self, min_float_ops):
        self._options["min_float_ops"] = min_float_ops
        return self

    def with_accounted_types(self, account_type_regexes):
        self._options["account_type_regexes"] = copy.copy(account_type_regexes)
        return self

    def with_node_names(self, start_name_regexes=None, show_name_regexes=None,
                        hide_name_regexes=None, trim_name_regexes=None):
        for key, value in (("start_name_regexes", start_name_regexes),
                           ("show_name_regexes", show_name_regexes),
                           ("hide_name_regexes", hide_name_regexes),
                           ("trim_name_regexes", trim_name_regexes)):
            if value is not None:
                self._options[key] = copy.copy(value)
        return self

    def account_displayed_op_only(self, is_true):
        self._options["account_displayed_op_only"] = is_true
        return self

    def with_empty_output(self):
        self._options["output"] = "none"
        return self

    def with_stdout_output(self):
        self._options["output"] = "stdout"
        return self

    def with_file_output(self, outfile):
        self._options["output"] = f"file:outfile={outfile}"
        return self

    def with_timeline_output(self, timeline_file):
        self._options["output"] = f"timeline:outfile={timeline_file}"
        return self

    def with_pprof_output(self, pprof_file):
        self._options["output"] = f"pprof:outfile={pprof_file}"
        return self

    def order_by(self, attribute):
        self._options["order_by"] = attribute
        return self

    def select(self, attributes):
        self._options["select"] = copy.copy(attributes)
        return self

    def with_step(self, step):
        self._options["step"] = step
        return self


# time_and_memory's dict has TF's keys in TF's order.
_TIME_AND_MEMORY_KEYS = (
    "max_depth", "min_bytes", "min_peak_bytes", "min_residual_bytes", "min_output_bytes",
    "min_micros", "min_accelerator_micros", "min_cpu_micros", "min_params", "min_float_ops",
    "min_occurrence", "order_by", "account_type_regexes", "start_name_regexes",
    "trim_name_regexes", "show_name_regexes", "hide_name_regexes", "account_displayed_op_only",
    "select", "step", "output")
