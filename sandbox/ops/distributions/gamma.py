"""The gamma distribution -- mirrors TF 1.15's python/ops/distributions/gamma.py.

    pdf(x; alpha, beta) = x**(alpha - 1) exp(-beta x) beta**alpha / Gamma(alpha),  x > 0

alpha is `concentration`, beta is `rate` (1 / scale). Samples come from random_gamma (NumPy's
generator, see random_extra_ops.py); unlike TF, which differentiates them implicitly, the
sandbox's random_gamma has no gradient, so a loss of samples does not reach the parameters
(log_prob, cdf, entropy and the KL do).
"""

from ...framework.graph import name_scope
from .. import basic_math_ops, comparison_ops
from ..check_ops import assert_positive
from ..math_extra_ops import xlogy
from ..random_extra_ops import random_gamma
from ..special_math_ops import digamma, igamma, lgamma
from . import distribution, kullback_leibler, util

__all__ = ["Gamma"]


class Gamma(distribution.Distribution):
    """Gamma(concentration, rate), batched over their broadcast shape."""

    _shape_params = ("concentration", "rate")

    def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True,
                 name="Gamma"):
        self._init_params(dict(locals()), {"concentration": concentration, "rate": rate},
                          lambda c, r: [assert_positive(c), assert_positive(r)])

    @property

    def concentration(self):
        """alpha, the shape parameter."""
        return self._concentration

    @property

    def rate(self):
        """beta, the inverse scale."""
        return self._rate

    def _sample_n(self, n, seed=None):
        return random_gamma(shape=[n], alpha=self.concentration, beta=self.rate,
                            dtype=self.dtype, seed=seed)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _cdf(self, x):
        return igamma(self.concentration, self.rate * self._checked_sample(x))

    def _log_unnormalized_prob(self, x):
        return xlogy(self.concentration - 1., self._checked_sample(x)) - self.rate * x

    def _log_normalization(self):
        return lgamma(self.concentration) - self.concentration * basic_math_ops.log(self.rate)

    def _entropy(self):
        return (self.concentration - basic_math_ops.log(self.rate) + lgamma(self.concentration)
                + (1. - self.concentration) * digamma(self.concentration))

    def _mean(self):
        return self.concentration / self.rate

    def _variance(self):
        return self.concentration / basic_math_ops.square(self.rate)

    def _stddev(self):
        return basic_math_ops.sqrt(self.concentration) / self.rate

    def _mode(self):
        """(alpha - 1) / beta, defined for alpha > 1."""
        return util.undefined_as_nan(
            self, (self.concentration - 1.) / self.rate,
            comparison_ops.greater(self.concentration, 1.),
            "mode not defined when any concentration <= 1", self.concentration)

    def _checked_sample(self, x):
        if not self.validate_args:
            return x
        return util.with_checks(x, None, [assert_positive(x)])


@kullback_leibler.RegisterKL(Gamma, Gamma)


def _kl_gamma_gamma(g0, g1, name=None):
    """KL(Gamma(a0, b0) || Gamma(a1, b1)), the closed form."""
    with name_scope(name, "kl_gamma_gamma",
                    values=[g0.concentration, g0.rate, g1.concentration, g1.rate]):
        return ((g0.concentration - g1.concentration) * digamma(g0.concentration)
                + lgamma(g1.concentration) - lgamma(g0.concentration)
                + g1.concentration * basic_math_ops.log(g0.rate)
                - g1.concentration * basic_math_ops.log(g1.rate)
                + g0.concentration * (g1.rate / g0.rate - 1.))

