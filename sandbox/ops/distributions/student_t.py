"""Student's t distribution -- mirrors TF 1.15's python/ops/distributions/student_t.py.

    pdf(x; df, loc, scale) = (1 + y**2 / df)**(-(df + 1) / 2) / Z,   y = (x - loc) / scale
    Z = |scale| sqrt(df) sqrt(pi) Gamma(df / 2) / Gamma((df + 1) / 2)

Samples are loc + scale * eps / sqrt(g / df), eps ~ N(0, 1), g ~ Gamma(df / 2, 1 / 2): the
gamma part comes from random_gamma (no gradient in the sandbox), loc and scale do get one.
The mean is NaN for df <= 1, the variance inf for 1 < df <= 2 and NaN for df <= 1.
"""
import numpy as np

from .. import array_ops, basic_math_ops, comparison_ops, random_ops
from ..check_ops import assert_positive
from ..control_flow_ops import identity
from ..manip_ops import where_v2
from ..random_extra_ops import random_gamma
from ..slicing_ops import concat
from ..special_math_ops import betainc, digamma, lbeta, lgamma
from . import distribution, util

__all__ = ["StudentT"]


class StudentT(util.LocScale, distribution.Distribution):
    """StudentT(df, loc, scale), batched over their broadcast shape."""

    _shape_params = ("df", "loc", "scale")

    def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True,
                 name="StudentT"):
        self._init_params(dict(locals()), {"df": df, "loc": loc, "scale": scale},
                          lambda df, loc, scale: [assert_positive(df)])

    @property
    def df(self):
        """Degrees of freedom."""
        return self._df

    def _ones(self):
        return array_ops.ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _sample_n(self, n, seed=None):
        shape = concat([[n], self.batch_shape_tensor()], 0)
        normal_sample = random_ops.random_normal(shape, dtype=self.dtype, seed=seed)
        df = self.df * self._ones()
        gamma_sample = random_gamma([n], 0.5 * df, beta=0.5, dtype=self.dtype,
                                    seed=util.gen_new_seed(seed, salt="student_t"))
        samples = normal_sample * basic_math_ops.rsqrt(gamma_sample / df)
        return samples * self.scale + self.loc

    def _log_prob(self, x):
        y = (x - self.loc) / self.scale
        log_unnormalized = -0.5 * (self.df + 1.) * basic_math_ops.log1p(y ** 2. / self.df)
        log_normalization = (basic_math_ops.log(basic_math_ops.abs(self.scale))
                             + 0.5 * basic_math_ops.log(self.df) + 0.5 * np.log(np.pi)
                             + lgamma(0.5 * self.df) - lgamma(0.5 * (self.df + 1.)))
        return log_unnormalized - log_normalization

    def _cdf(self, x):
        y = (x - self.loc) / basic_math_ops.abs(self.scale)
        x_t = self.df / (y ** 2. + self.df)
        neg_cdf = 0.5 * betainc(0.5 * self.df, 0.5, x_t)
        return where_v2(comparison_ops.less(y, 0.), neg_cdf, 1. - neg_cdf)

    def _entropy(self):
        v = array_ops.expand_dims(self._ones(), -1)
        u = v * array_ops.expand_dims(self.df, -1)
        beta_arg = concat([u, v], -1) / 2.
        return (basic_math_ops.log(basic_math_ops.abs(self.scale))
                + 0.5 * basic_math_ops.log(self.df) + lbeta(beta_arg)
                + 0.5 * (self.df + 1.) * (digamma(0.5 * (self.df + 1.))
                                          - digamma(0.5 * self.df)))

    def _mean(self):
        """loc, defined for df > 1."""
        return util.undefined_as_nan(
            self, self.loc * self._ones(), comparison_ops.greater(self.df, self._ones()),
            "mean not defined for components of df <= 1", self.df)

    def _variance(self):
        """scale**2 df / (df - 2) for df > 2, inf for 1 < df <= 2, undefined for df <= 1."""
        denom = where_v2(comparison_ops.greater(self.df, 2.), self.df - 2.,
                         array_ops.ones_like(self.df))
        var = self._ones() * basic_math_ops.square(self.scale) * self.df / denom
        inf = np.array(np.inf, dtype=self.dtype.as_numpy_dtype)
        result_where_defined = where_v2(
            comparison_ops.greater(self.df, array_ops.fill(self.batch_shape_tensor(), 2.)),
            var, array_ops.fill(self.batch_shape_tensor(), inf, name="inf"))
        return util.undefined_as_nan(
            self, result_where_defined, comparison_ops.greater(self.df, self._ones()),
            "variance not defined for components of df <= 1", self.df)

    def _mode(self):
        return identity(self.loc)
