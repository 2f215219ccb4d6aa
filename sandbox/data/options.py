"""`tf.data.Options` -- mirrors TensorFlow 1.15's python/data/util/options.py (OptionsBase,
merge_options) and the Options classes of data/ops/dataset_ops.py and data/experimental/ops/
(DistributeOptions, OptimizationOptions, MapVectorizationOptions, StatsOptions,
ThreadingOptions).

Options tune how TF's runtime runs a pipeline -- its static optimizations (fusing a map into
the batch after it ...), threads, determinism -- without changing the elements:

    options = tf.data.Options()
    options.experimental_deterministic = False
    options.experimental_threading.private_threadpool_size = 4
    dataset = dataset.with_options(options)
    dataset.options()                  # the options of the whole pipeline, merged

An Options object is a record of typed fields, each None ("TF's default") until set; setting a
field of the wrong type is a TypeError, an unknown one an AttributeError. `with_options` merges
the new options into those of its input, as TF 1.15 does: a field set in only one of them is
taken, and a field set to two different values is a ValueError (TF 2 later lets the newer
value win). The sandbox's pipelines run the same with any options (ops/dataset_pipeline.py has
no optimizer and no thread pool of its own), so the options are kept and reported, not acted on.
"""

__all__ = ["Options", "DistributeOptions", "OptimizationOptions", "MapVectorizationOptions",
           "StatsOptions", "ThreadingOptions", "merge_options"]


class OptionsBase:
    """A record of typed options. A subclass lists `_OPTIONS = {name: (type, doc)}`; a type
    that is itself an OptionsBase makes a nested record, created on first read."""

    _OPTIONS = {}

    def __init__(self):
        object.__setattr__(self, "_options", {})

    def __getattr__(self, name):
        options = self.__dict__.get("_options")
        if options is None or name not in type(self)._OPTIONS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        kind = type(self)._OPTIONS[name][0]
        if name not in options and isinstance(kind, type) and issubclass(kind, OptionsBase):
            options[name] = kind()
        return options.get(name)

    def __setattr__(self, name, value):
        if name not in type(self)._OPTIONS:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        kind = type(self)._OPTIONS[name][0]
        if value is not None and not isinstance(value, kind):
            raise TypeError(f'Property "{name}" must be of type {kind}, got: {value!r} '
                            f"(type: {type(value)!r})")
        self._options[name] = value

    def __eq__(self, other):
        if type(self) is not type(other):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._OPTIONS)

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None

    def __repr__(self):
        set_ = {k: v for k, v in self._options.items()
                if not (isinstance(v, OptionsBase) and v == type(v)())}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in set_.items())})"

    def merge(self, options):
        """These options merged with `options` (see merge_options)."""
        return merge_options(self, options)


def merge_options(*options_list):
    """One Options of the same class holding every option set in any of `options_list`; an
    option set to two different values is a ValueError (TF 1.15's merge_options)."""
    if not options_list:
        raise ValueError("At least one options should be provided")
    kind = type(options_list[0])
    for options in options_list:
        if not isinstance(options, kind):
            raise TypeError(f"Could not merge incompatible options: {options!r} vs "
                            f"{options_list[0]!r}")
    default, result = kind(), kind()
    for options in options_list:
        for name in kind._OPTIONS:
            this, that = getattr(result, name), getattr(options, name)
            if that == getattr(default, name):
                continue
            if this == getattr(default, name):
                setattr(result, name, that)
            elif isinstance(that, OptionsBase):
                setattr(result, name, merge_options(this, that))
            elif this != that:
                raise ValueError(f"Cannot merge incompatible values ({this!r} and {that!r}) of "
                                 f"option: {name}")
    return result


class DistributeOptions(OptionsBase):
    """How a distribution strategy shards the dataset (tf.data.experimental)."""
    _OPTIONS = {
        "auto_shard": (bool, "Whether to shard the dataset automatically (default True)."),
        "num_devices": (int, "The number of devices attached to this input pipeline."),
    }


class MapVectorizationOptions(OptionsBase):
    """Whether and how map is vectorized (tf.data.experimental)."""
    _OPTIONS = {
        "enabled": (bool, "Whether to vectorize map transformations (default False)."),
        "use_choose_fastest": (bool, "Whether to pick the faster of the vectorized and "
                                     "plain pipelines at run time (default False)."),
    }


class OptimizationOptions(OptionsBase):
    """The static optimizations of the pipeline's graph (tf.data.experimental)."""
    _OPTIONS = dict({
        name: (bool, doc) for name, doc in [
            ("apply_default_optimizations", "Whether to apply the default optimizations."),
            ("autotune", "Whether to tune parallelism and buffer sizes automatically."),
            ("autotune_buffers", "Whether to tune prefetch buffer sizes automatically."),
            ("filter_fusion", "Whether to fuse filter transformations."),
            ("filter_with_random_uniform_fusion", "Whether to fuse filter(random_uniform)."),
            ("hoist_random_uniform", "Whether to hoist random_uniform out of map."),
            ("map_and_batch_fusion", "Whether to fuse map and batch."),
            ("map_and_filter_fusion", "Whether to fuse map and filter."),
            ("map_fusion", "Whether to fuse map transformations."),
            ("map_parallelization", "Whether to parallelize stateless map."),
            ("noop_elimination", "Whether to eliminate no-op transformations."),
            ("parallel_batch", "Whether to batch in parallel."),
            ("shuffle_and_repeat_fusion", "Whether to fuse shuffle and repeat.")]},
        autotune_cpu_budget=(int, "The CPU budget of autotuning (default: all cores)."),
        map_vectorization=(MapVectorizationOptions, "The map vectorization options."))


class StatsOptions(OptionsBase):
    """Statistics collected about the pipeline (tf.data.experimental)."""
    _OPTIONS = {
        "aggregator": (object, "The StatsAggregator that collects the statistics."),
        "prefix": (str, "A prefix of the statistics' names."),
        "counter_prefix": (str, "A prefix of the counters' names."),
        "latency_all_edges": (bool, "Whether to record the latency of every edge."),
    }


class ThreadingOptions(OptionsBase):
    """The threads of the pipeline (tf.data.experimental)."""
    _OPTIONS = {
        "max_intra_op_parallelism": (int, "The most threads one op of the pipeline uses."),
        "private_threadpool_size": (int, "The size of the pipeline's own thread pool."),
    }


class Options(OptionsBase):
    """tf.data.Options: how the runtime runs a pipeline (see the module docstring)."""
    _OPTIONS = {
        "experimental_deterministic": (bool, "Whether elements come in a deterministic order "
                                             "(default True)."),
        "experimental_distribute": (DistributeOptions, "The distribution options."),
        "experimental_optimization": (OptimizationOptions, "The optimization options."),
        "experimental_slack": (bool, "Whether to introduce slack in the last prefetch."),
        "experimental_stats": (StatsOptions, "The statistics options."),
        "experimental_threading": (ThreadingOptions, "The threading options."),
    }
