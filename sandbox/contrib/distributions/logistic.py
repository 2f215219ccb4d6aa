"""The logistic distribution -- mirrors TF 1.15's contrib/distributions/python/ops/logistic.py.

    cdf(x; loc, scale) = sigmoid(z),   z = (x - loc) / scale
    log pdf            = -z - 2 softplus(-z) - log(scale)

Samples are loc + scale * logit(u) for u ~ U(0, 1): FULLY_REPARAMETERIZED.
"""
import math

import numpy as np

from ...ops import array_ops, basic_math_ops, nn_ops, random_ops
from ...ops.check_ops import assert_positive
from ...ops.distributions import distribution, util
from ...ops.slicing_ops import concat

__all__ = ["Logistic"]


class Logistic(util.LocScale, distribution.Distribution):
    """Logistic(loc, scale), batched over their broadcast shape."""

    _shape_params = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Logistic"):
        self._init_params(dict(locals()), {"loc": loc, "scale": scale},
                          lambda loc, scale: [assert_positive(scale)])

    def _sample_n(self, n, seed=None):
        shape = concat([[n], self.batch_shape_tensor()], 0)
        np_dtype = self.dtype.as_numpy_dtype
        uniform = random_ops.random_uniform(shape=shape, minval=np.finfo(np_dtype).tiny,
                                            maxval=1., dtype=self.dtype, seed=seed)
        sampled = basic_math_ops.log(uniform) - basic_math_ops.log1p(-uniform)
        return sampled * self.scale + self.loc

    def _z(self, x):
        return (x - self.loc) / self.scale

    def _log_prob(self, x):
        z = self._z(x)
        return -z - 2. * nn_ops.softplus(-z) - basic_math_ops.log(self.scale)

    def _log_cdf(self, x):
        return -nn_ops.softplus(-self._z(x))

    def _cdf(self, x):
        return basic_math_ops.sigmoid(self._z(x))

    def _log_survival_function(self, x):
        return -nn_ops.softplus(self._z(x))

    def _survival_function(self, x):
        return basic_math_ops.sigmoid(-self._z(x))

    def _entropy(self):
        scale = self.scale * array_ops.ones_like(self.loc)
        return 2. + basic_math_ops.log(scale)

    def _mean(self):
        return self.loc * array_ops.ones_like(self.scale)

    def _stddev(self):
        return self.scale * array_ops.ones_like(self.loc) * (math.pi / math.sqrt(3.))

    def _mode(self):
        return self._mean()
