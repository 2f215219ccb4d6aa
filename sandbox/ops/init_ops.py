"""Initializers -- mirrors TensorFlow 1.x's init_ops (python/ops/init_ops.py); the
`tf.initializers` namespace gathers them in api/initializers.py.

An initializer is a small object that *builds the ops* computing a starting value:
`init(shape, dtype)` returns a Tensor of that shape. `tf.get_variable('w', [784, 10],
initializer=tf.truncated_normal_initializer(stddev=0.1))` calls it once, inside the variable's
'w/Initializer' name scope, and the variable's initializer op assigns the result.

The variance-scaling family picks the spread of the random values from the layer's size, so
that signals neither explode nor vanish through many layers: with fan_in inputs and fan_out
outputs, Glorot (Xavier) uniform draws from [-limit, limit] with
limit = sqrt(6 / (fan_in + fan_out)).
"""
import math

import numpy as np

from ..framework import dtypes as _dtypes
from . import random_ops

__all__ = ["zeros_initializer", "ones_initializer", "constant_initializer",
           "random_normal_initializer", "truncated_normal_initializer",
           "random_uniform_initializer", "variance_scaling_initializer",
           "glorot_uniform_initializer", "glorot_normal_initializer"]


def _assert_float_dtype(dtype):
    dtype = _dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")
    return dtype


class Initializer:
    """Base class: `__call__(shape, dtype=None, partition_info=None)` returns a Tensor."""

    def __call__(self, shape, dtype=None, partition_info=None):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Zeros(Initializer):
    """Initializer that generates tensors initialized to 0."""

    def __init__(self, dtype=_dtypes.float32):
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        from . import array_ops
        return array_ops.zeros(shape, dtype or self.dtype)

    def get_config(self):
        return {"dtype": self.dtype.name}


class Ones(Initializer):
    """Initializer that generates tensors initialized to 1."""

    def __init__(self, dtype=_dtypes.float32):
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        from . import array_ops
        return array_ops.ones(shape, dtype or self.dtype)

    def get_config(self):
        return {"dtype": self.dtype.name}


class Constant(Initializer):
    """Initializer that generates tensors with constant values: a scalar fills the shape, a
    list or array of the right size is reshaped to it (as tf.constant does)."""

    def __init__(self, value=0, dtype=_dtypes.float32, verify_shape=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value)} (expected Python "
                            "scalar, list or tuple of values, or numpy.ndarray).")
        self.value = value
        self.dtype = _dtypes.as_dtype(dtype)
        self._verify_shape = verify_shape

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        from .constant_op import constant
        if verify_shape is None:
            verify_shape = self._verify_shape
        return constant(self.value, dtype=dtype or self.dtype, shape=shape,
                        verify_shape=verify_shape)

    def get_config(self):
        return {"value": self.value, "dtype": self.dtype.name}


class RandomUniform(Initializer):
    """Initializer that generates tensors with a uniform distribution on [minval, maxval)."""

    def __init__(self, minval=0, maxval=None, seed=None, dtype=_dtypes.float32):
        self.minval = minval
        self.maxval = maxval
        self.seed = seed
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.random_uniform(shape, self.minval, self.maxval, dtype or self.dtype,
                                         seed=self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed,
                "dtype": self.dtype.name}


class RandomNormal(Initializer):
    """Initializer that generates tensors with a normal distribution."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=_dtypes.float32):
        self.mean = mean
        self.stddev = stddev
        self.seed = seed
        self.dtype = _assert_float_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.random_normal(shape, self.mean, self.stddev, dtype or self.dtype,
                                        seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed,
                "dtype": self.dtype.name}


class TruncatedNormal(RandomNormal):
    """Initializer that generates a truncated normal distribution: values more than two
    standard deviations from the mean are re-drawn."""

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.truncated_normal(shape, self.mean, self.stddev, dtype or self.dtype,
                                           seed=self.seed)


def _compute_fans(shape):
    """(fan_in, fan_out) of a weight shape: [in, out] for a matrix; for a convolution kernel
    [h, w, in, out] each input and output channel counts h * w times."""
    if len(shape) < 1:
        fan_in = fan_out = 1
    elif len(shape) == 1:
        fan_in = fan_out = shape[0]
    elif len(shape) == 2:
        fan_in, fan_out = shape
    else:
        receptive_field_size = 1
        for dim in shape[:-2]:
            receptive_field_size *= dim
        fan_in = shape[-2] * receptive_field_size
        fan_out = shape[-1] * receptive_field_size
    return int(fan_in), int(fan_out)


class VarianceScaling(Initializer):
    """Initializer whose spread adapts to the shape of the weights.

    n is fan_in, fan_out or their average (`mode`). With "truncated_normal" the values have
    stddev sqrt(scale / n) after truncation; with "uniform" they lie in [-limit, limit],
    limit = sqrt(3 * scale / n).
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=_dtypes.float32):
        if scale <= 0.:
            raise ValueError("`scale` must be positive float.")
        if mode not in {"fan_in", "fan_out", "fan_avg"}:
            raise ValueError(f"Invalid `mode` argument: {mode}")
        distribution = distribution.lower()
        if distribution not in {"normal", "uniform", "truncated_normal", "untruncated_normal"}:
            raise ValueError(f"Invalid `distribution` argument: {distribution}")
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        self.seed = seed
        self.dtype = _assert_float_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtype or self.dtype
        scale_shape = shape if partition_info is None else partition_info.full_shape
        fan_in, fan_out = _compute_fans(list(scale_shape))
        scale = self.scale
        if self.mode == "fan_in":
            scale /= max(1., fan_in)
        elif self.mode == "fan_out":
            scale /= max(1., fan_out)
        else:
            scale /= max(1., (fan_in + fan_out) / 2.)
        if self.distribution in ("normal", "truncated_normal"):
            # 0.8796... is the stddev of a standard normal truncated to [-2, 2].
            stddev = math.sqrt(scale) / .87962566103423978
            return random_ops.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.random_normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.random_uniform(shape, -limit, limit, dtype, seed=self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "dtype": self.dtype.name}


class GlorotUniform(VarianceScaling):
    """Glorot (Xavier) uniform: [-limit, limit], limit = sqrt(6 / (fan_in + fan_out)). The
    default initializer of tf.get_variable for float variables."""

    def __init__(self, seed=None, dtype=_dtypes.float32):
        super().__init__(scale=1.0, mode="fan_avg", distribution="uniform", seed=seed,
                         dtype=dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


class GlorotNormal(VarianceScaling):
    """Glorot (Xavier) normal: truncated normal with stddev sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, seed=None, dtype=_dtypes.float32):
        super().__init__(scale=1.0, mode="fan_avg", distribution="truncated_normal", seed=seed,
                         dtype=dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


# TF-1 names: the classes themselves, called with the constructor arguments.
zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_uniform_initializer = RandomUniform
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal


def lecun_normal(seed=None):
    return VarianceScaling(scale=1., mode="fan_in", distribution="truncated_normal", seed=seed)


def lecun_uniform(seed=None):
    return VarianceScaling(scale=1., mode="fan_in", distribution="uniform", seed=seed)


def he_normal(seed=None):
    return VarianceScaling(scale=2., mode="fan_in", distribution="truncated_normal", seed=seed)


def he_uniform(seed=None):
    return VarianceScaling(scale=2., mode="fan_in", distribution="uniform", seed=seed)


class Identity(Initializer):
    """gain times the identity matrix (2-D shapes only; a rectangle gets ones on its main
    diagonal): tf.initializers.identity and tf.keras.initializers.Identity."""

    def __init__(self, gain=1.0, dtype=_dtypes.float32):
        self.gain = gain
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        from .constant_op import constant
        shape = tuple(shape)
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices.")
        dtype = _dtypes.as_dtype(dtype or self.dtype)
        value = self.gain * np.eye(shape[0], shape[1])
        return constant(value.astype(dtype.as_numpy_dtype), dtype=dtype)

    def get_config(self):
        return {"gain": self.gain, "dtype": self.dtype.name}
