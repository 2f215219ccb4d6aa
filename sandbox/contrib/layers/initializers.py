"""Weight initializers of tf.contrib.layers -- mirrors TensorFlow 1.15's
contrib/layers/python/layers/initializers.py.

These are functions returning an initializer function (not the classes of tf.initializers):

    w = tf.get_variable('w', [784, 100], initializer=tf.contrib.layers.xavier_initializer())

variance_scaling_initializer(factor, mode, uniform) draws with variance factor / n, where n is
fan_in, fan_out or their mean (mode 'FAN_IN', 'FAN_OUT', 'FAN_AVG'); uniform draws from
[-sqrt(3 factor / n), sqrt(3 factor / n)], normal from a truncated normal of stddev
sqrt(1.3 factor / n) (1.3 roughly undoes the truncation at two standard deviations).
Xavier (Glorot) is factor 1, FAN_AVG; the default (factor 2, FAN_IN, normal) is He et al.'s.
"""
import math

from ...framework import dtypes as _dtypes
from ...ops import random_ops

__all__ = ["xavier_initializer", "xavier_initializer_conv2d", "variance_scaling_initializer"]


def xavier_initializer(uniform=True, seed=None, dtype=_dtypes.float32):
    """Glorot and Bengio (2010): uniform on [-x, x], x = sqrt(6 / (fan_in + fan_out)), or a
    normal of stddev sqrt(2 / (fan_in + fan_out))."""
    return variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform, seed=seed,
                                        dtype=dtype)


xavier_initializer_conv2d = xavier_initializer


def variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False, seed=None,
                                 dtype=_dtypes.float32):
    """An initializer whose values have variance factor / n (see the module docstring)."""
    dtype = _dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError("Cannot create initializer for non-floating point type.")
    if mode not in ["FAN_IN", "FAN_OUT", "FAN_AVG"]:
        raise TypeError(f"Unknown mode {mode} [FAN_IN, FAN_OUT, FAN_AVG]")

    def _initializer(shape, dtype=dtype, partition_info=None):
        dtype = _dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise TypeError("Cannot create initializer for non-floating point type.")
        shape = list(shape)
        if shape:
            fan_in = float(shape[-2]) if len(shape) > 1 else float(shape[-1])
            fan_out = float(shape[-1])
        else:
            fan_in = fan_out = 1.0
        for dim in shape[:-2]:          # a conv kernel [h, w, in, out]: each tap counts
            fan_in *= float(dim)
            fan_out *= float(dim)
        n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[mode]
        if uniform:
            limit = math.sqrt(3.0 * factor / n)
            return random_ops.random_uniform(shape, -limit, limit, dtype, seed=seed)
        trunc_stddev = math.sqrt(1.3 * factor / n)
        return random_ops.truncated_normal(shape, 0.0, trunc_stddev, dtype, seed=seed)

    return _initializer
