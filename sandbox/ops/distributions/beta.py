"""The beta distribution on (0, 1) -- mirrors TF 1.15's python/ops/distributions/beta.py.

    pdf(x; a, b) = x**(a - 1) (1 - x)**(b - 1) / B(a, b)

a is `concentration1`, b `concentration0`. Samples are g1 / (g1 + g0) with g1 ~ Gamma(a),
g0 ~ Gamma(b) (random_gamma: NumPy's numbers and, in the sandbox, no gradient).
"""
from ...framework.graph import name_scope
from .. import array_ops, basic_math_ops, comparison_ops
from ..check_ops import assert_less, assert_positive
from ..math_extra_ops import xlogy
from ..random_extra_ops import random_gamma
from ..special_math_ops import betainc, digamma, lgamma
from . import distribution, kullback_leibler, util

__all__ = ["Beta"]


def _positive(what):
    return lambda *tensors: [assert_positive(t, message=f"{what} must be positive.")
                             for t in tensors]


class Beta(distribution.Distribution):
    """Beta(concentration1, concentration0), batched over their broadcast shape."""

    _shape_params = ("concentration1", "concentration0")

    def __init__(self, concentration1=None, concentration0=None, validate_args=False,
                 allow_nan_stats=True, name="Beta"):
        self._init_params(dict(locals()), {"concentration1": concentration1,
                                           "concentration0": concentration0},
                          _positive("Concentration parameter"))
        with name_scope(self.name):
            self._total_concentration = self._concentration1 + self._concentration0
        self._graph_parents.append(self._total_concentration)

    @property
    def concentration1(self):
        """a: the count of 1s, in the beta-Bernoulli picture."""
        return self._concentration1

    @property
    def concentration0(self):
        """b: the count of 0s."""
        return self._concentration0

    @property
    def total_concentration(self):
        """a + b."""
        return self._total_concentration

    def _sample_n(self, n, seed=None):
        ones = array_ops.ones_like(self.total_concentration, dtype=self.dtype)
        gamma1 = random_gamma(shape=[n], alpha=ones * self.concentration1, dtype=self.dtype,
                              seed=seed)
        gamma2 = random_gamma(shape=[n], alpha=ones * self.concentration0, dtype=self.dtype,
                              seed=util.gen_new_seed(seed, "beta"))
        return gamma1 / (gamma1 + gamma2)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _log_cdf(self, x):
        return basic_math_ops.log(self._cdf(x))

    def _cdf(self, x):
        return betainc(self.concentration1, self.concentration0, x)

    def _log_unnormalized_prob(self, x):
        if self.validate_args:
            x = util.with_checks(x, None, [
                assert_positive(x, message="sample must be positive"),
                assert_less(x, array_ops.ones([], self.dtype),
                            message="sample must be less than `1`.")])
        return (xlogy(self.concentration1 - 1., x)
                + (self.concentration0 - 1.) * basic_math_ops.log1p(-x))

    def _log_normalization(self):
        return (lgamma(self.concentration1) + lgamma(self.concentration0)
                - lgamma(self.total_concentration))

    def _entropy(self):
        return (self._log_normalization()
                - (self.concentration1 - 1.) * digamma(self.concentration1)
                - (self.concentration0 - 1.) * digamma(self.concentration0)
                + (self.total_concentration - 2.) * digamma(self.total_concentration))

    def _mean(self):
        return self._concentration1 / self._total_concentration

    def _variance(self):
        return self._mean() * (1. - self._mean()) / (1. + self.total_concentration)

    def _mode(self):
        """(a - 1) / (a + b - 2), defined when a > 1 and b > 1."""
        mode = (self.concentration1 - 1.) / (self.total_concentration - 2.)
        is_defined = comparison_ops.logical_and(
            comparison_ops.greater(self.concentration1, 1.),
            comparison_ops.greater(self.concentration0, 1.))
        return util.undefined_as_nan(
            self, mode, is_defined, ["Mode undefined for concentration1 <= 1.",
                                     "Mode undefined for concentration0 <= 1."],
            [self.concentration1, self.concentration0])


@kullback_leibler.RegisterKL(Beta, Beta)
def _kl_beta_beta(d1, d2, name=None):
    """KL(Beta(a1, b1) || Beta(a2, b2)), the closed form with digammas."""
    def delta(fn, is_property=True):
        fn1, fn2 = getattr(d1, fn), getattr(d2, fn)
        return (fn2 - fn1) if is_property else (fn2() - fn1())
    with name_scope(name, "kl_beta_beta",
                    values=[d1.concentration1, d1.concentration0, d1.total_concentration,
                            d2.concentration1, d2.concentration0, d2.total_concentration]):
        return (delta("_log_normalization", is_property=False)
                - digamma(d1.concentration1) * delta("concentration1")
                - digamma(d1.concentration0) * delta("concentration0")
                + digamma(d1.total_concentration) * delta("total_concentration"))
