"""`tf.contrib.training` -- the part of TF 1.15's contrib/training that TF-1 programs use:
HParams and parse_values (hparam.py), and the `ps_strategy`s of tf.train.replica_device_setter
-- GreedyLoadBalancingStrategy, byte_size_load_fn and RandomStrategy (device_setter.py). The
queue-based sequence bucketing, resampling and training-loop helpers of contrib/training are
not implemented."""
from .device_setter import GreedyLoadBalancingStrategy, RandomStrategy, byte_size_load_fn
from .hparam import HParams, parse_values

__all__ = ["GreedyLoadBalancingStrategy", "HParams", "RandomStrategy", "byte_size_load_fn",
           "parse_values"]
