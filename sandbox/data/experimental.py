"""`tf.data.experimental` -- the one name of TF 1.15's python/data/experimental the sandbox's
datasets need: AUTOTUNE (-1), which `interleave(cycle_length=...)`, `map(num_parallel_calls=...)`
and `prefetch(...)` accept (the sandbox reads one element at a time, in TF's order).
"""
__all__ = ["AUTOTUNE"]

AUTOTUNE = -1
