"""`tf.data.experimental` -- the names of TF 1.15's python/data/experimental the sandbox's
datasets need: AUTOTUNE (-1), which `interleave(cycle_length=...)`, `map(num_parallel_calls=...)`
and `prefetch(...)` accept (the sandbox reads one element at a time, in TF's order), and the
option records that tf.data.Options holds (options.py).
"""
from .options import DistributeOptions, MapVectorizationOptions, OptimizationOptions, \
    StatsOptions, ThreadingOptions

__all__ = ["AUTOTUNE", "DistributeOptions", "MapVectorizationOptions", "OptimizationOptions",
           "StatsOptions", "ThreadingOptions"]

AUTOTUNE = -1
