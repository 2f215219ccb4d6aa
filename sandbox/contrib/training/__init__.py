"""`tf.contrib.training` -- the part of TF 1.15's contrib/training that TF-1 programs use:
HParams and parse_values (hparam.py). The queue-based sequence bucketing, resampling and
training-loop helpers of contrib/training are not implemented."""
from .hparam import HParams, parse_values

__all__ = ["HParams", "parse_values"]
