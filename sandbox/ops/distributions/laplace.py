"""The Laplace distribution -- mirrors TF 1.15's python/ops/distributions/laplace.py.

    pdf(x; loc, scale) = exp(-|x - loc| / scale) / (2 scale)

Samples are loc - scale * sign(u) * log1p(-|u|) for u ~ U(-1, 1): FULLY_REPARAMETERIZED.
"""
import math

import numpy as np

from .. import array_ops, basic_math_ops, comparison_ops, random_ops
from ..check_ops import assert_positive
from ..manip_ops import where_v2
from ..slicing_ops import concat
from . import distribution, util

__all__ = ["Laplace"]


def _log_cdf_laplace(x):
    """log of the standard Laplace cdf: log(0.5) + x below 0, log1p(-0.5 exp(-x)) above."""
    lower_solution = -np.log(2.) + x
    safe_exp_neg_x = basic_math_ops.exp(-basic_math_ops.abs(x))
    upper_solution = basic_math_ops.log1p(-0.5 * safe_exp_neg_x)
    return where_v2(comparison_ops.less(x, 0.), lower_solution, upper_solution)


class Laplace(util.LocScale, distribution.Distribution):
    """Laplace(loc, scale), batched over their broadcast shape."""

    _shape_params = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
        self._init_params(dict(locals()), {"loc": loc, "scale": scale},
                          lambda loc, scale: [assert_positive(scale)])

    def _sample_n(self, n, seed=None):
        shape = concat([[n], self.batch_shape_tensor()], 0)
        np_dtype = self.dtype.as_numpy_dtype
        uniform_samples = random_ops.random_uniform(
            shape=shape, minval=np.nextafter(np_dtype(-1.), np_dtype(0.)), maxval=1.,
            dtype=self.dtype, seed=seed)
        return (self.loc - self.scale * basic_math_ops.sign(uniform_samples)
                * basic_math_ops.log1p(-basic_math_ops.abs(uniform_samples)))

    def _z(self, x):
        return (x - self.loc) / self.scale

    def _log_prob(self, x):
        return -basic_math_ops.abs(self._z(x)) - (math.log(2.) + basic_math_ops.log(self.scale))

    def _log_cdf(self, x):
        return _log_cdf_laplace(self._z(x))

    def _log_survival_function(self, x):
        return _log_cdf_laplace(-self._z(x))

    def _cdf(self, x):
        z = self._z(x)
        return 0.5 + 0.5 * basic_math_ops.sign(z) * (1. - basic_math_ops.exp(
            -basic_math_ops.abs(z)))

    def _entropy(self):
        scale = self.scale + array_ops.zeros_like(self.loc)
        return math.log(2.) + 1. + basic_math_ops.log(scale)

    def _mean(self):
        return self.loc + array_ops.zeros_like(self.scale)

    def _stddev(self):
        return math.sqrt(2.) * self.scale + array_ops.zeros_like(self.loc)

    def _mode(self):
        return self._mean()
