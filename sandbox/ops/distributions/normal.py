"""The normal (Gaussian) distribution -- mirrors TF 1.15's python/ops/distributions/normal.py.

    pdf(x; loc, scale) = exp(-0.5 z**2) / (sqrt(2 pi) scale),   z = (x - loc) / scale

Samples are loc + scale * eps with eps ~ N(0, 1) (random_normal): FULLY_REPARAMETERIZED, so
a loss of samples has gradients for loc and scale (the VAE's reparameterization trick).
"""
import math

from ...framework.graph import name_scope
from .. import array_ops, basic_math_ops, random_ops
from ..check_ops import assert_positive
from ..slicing_ops import concat
from . import distribution, kullback_leibler, special_math, util

__all__ = ["Normal"]


class Normal(util.LocScale, distribution.Distribution):
    """N(loc, scale**2), batched over the broadcast shape of loc and scale."""

    _shape_params = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
        self._init_params(dict(locals()), {"loc": loc, "scale": scale},
                          lambda loc, scale: [assert_positive(scale)])

    def _sample_n(self, n, seed=None):
        shape = concat([[n], self.batch_shape_tensor()], 0)
        sampled = random_ops.random_normal(shape=shape, mean=0., stddev=1.,
                                           dtype=self.loc.dtype, seed=seed)
        return sampled * self.scale + self.loc

    def _z(self, x):
        """(x - loc) / scale."""
        with name_scope("standardize", values=[x]):
            return (x - self.loc) / self.scale

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_unnormalized_prob(self, x):
        return -0.5 * basic_math_ops.square(self._z(x))

    def _log_normalization(self):
        return 0.5 * math.log(2. * math.pi) + basic_math_ops.log(self.scale)

    def _log_cdf(self, x):
        return special_math.log_ndtr(self._z(x))

    def _cdf(self, x):
        return special_math.ndtr(self._z(x))

    def _log_survival_function(self, x):
        return special_math.log_ndtr(-self._z(x))

    def _survival_function(self, x):
        return special_math.ndtr(-self._z(x))

    def _quantile(self, p):
        return special_math.ndtri(p) * self.scale + self.loc

    def _entropy(self):
        scale = self.scale * array_ops.ones_like(self.loc)     # broadcast to the batch
        return 0.5 * math.log(2. * math.pi * math.e) + basic_math_ops.log(scale)

    def _mean(self):
        return self.loc * array_ops.ones_like(self.scale)

    def _stddev(self):
        return self.scale * array_ops.ones_like(self.loc)

    def _mode(self):
        return self._mean()


@kullback_leibler.RegisterKL(Normal, Normal)
def _kl_normal_normal(n_a, n_b, name=None):
    """KL(N(m_a, s_a) || N(m_b, s_b)) = (m_a - m_b)^2 / (2 s_b^2) + (r - 1 - log r) / 2,
    r = s_a^2 / s_b^2."""
    with name_scope(name, "kl_normal_normal", [n_a.loc, n_b.loc]):
        s_a_squared = basic_math_ops.square(n_a.scale)
        s_b_squared = basic_math_ops.square(n_b.scale)
        ratio = s_a_squared / s_b_squared
        return (basic_math_ops.squared_difference(n_a.loc, n_b.loc) / (2. * s_b_squared)
                + 0.5 * (ratio - 1. - basic_math_ops.log(ratio)))
