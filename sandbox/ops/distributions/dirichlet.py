"""The Dirichlet distribution on the simplex -- mirrors TF 1.15's python/ops/distributions/
dirichlet.py.

    pdf(x; alpha) = prod_j x[j]**(alpha[j] - 1) / B(alpha),   x[j] > 0, sum_j x[j] = 1

concentration (alpha) is [..., K]: batch_shape is its leading dims, event_shape [K]. Samples
normalize K gamma draws (random_gamma: no gradient in the sandbox).
"""
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, basic_math_ops, comparison_ops, math_ops, reduction_ops
from ..check_ops import assert_less, assert_positive
from ..manip_ops import where_v2
from ..math_extra_ops import xlogy
from ..random_extra_ops import random_gamma
from ..special_math_ops import digamma, lbeta
from . import distribution, kullback_leibler, util

__all__ = ["Dirichlet"]


class _SimplexParameters:
    """The shapes of a distribution whose `concentration` is [..., K] (Dirichlet,
    DirichletMultinomial): batch = its leading dims, event = [K]."""

    def _batch_shape_tensor(self):
        return array_ops.shape(self.total_concentration)

    def _batch_shape(self):
        return self.total_concentration.get_shape()

    def _event_shape_tensor(self):
        return array_ops.shape(self.concentration)[-1:]

    def _event_shape(self):
        return self.concentration.get_shape()[-1:]

    @property
    def concentration(self):
        """alpha, [..., K]."""
        return self._concentration

    @property
    def total_concentration(self):
        """sum_j alpha[j], [...]."""
        return self._total_concentration


def _concentration(value, validate_args, name):
    """concentration as a tensor of rank >= 1, positive (checked with validate_args), and its
    sum over the last axis."""
    concentration = convert_to_tensor(value, name="concentration")
    if concentration.get_shape().ndims == 0:
        raise ValueError(f"{name}: concentration must have rank at least 1 ([..., K]), got "
                         "a scalar.")
    if validate_args:
        concentration = util.with_checks(concentration, None, [assert_positive(
            concentration, message="Concentration parameter must be positive.")])
    return concentration, reduction_ops.reduce_sum(concentration, -1)


class Dirichlet(_SimplexParameters, distribution.Distribution):
    """Dirichlet(concentration) over K classes."""

    def __init__(self, concentration, validate_args=False, allow_nan_stats=True,
                 name="Dirichlet"):
        parameters = dict(locals())
        with name_scope(name, values=[concentration]) as name:
            self._concentration, self._total_concentration = _concentration(
                concentration, validate_args, "Dirichlet")
        super().__init__(dtype=self._concentration.dtype,
                         reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._concentration, self._total_concentration],
                         name=name)

    def _sample_n(self, n, seed=None):
        gamma_sample = random_gamma(shape=[n], alpha=self.concentration, dtype=self.dtype,
                                    seed=seed)
        return gamma_sample / reduction_ops.reduce_sum(gamma_sample, -1, keepdims=True)

    def _log_prob(self, x):
        return (reduction_ops.reduce_sum(xlogy(self.concentration - 1., x), -1)
                - lbeta(self.concentration))

    def _entropy(self):
        k = math_ops.cast(self.event_shape_tensor()[0], self.dtype)
        return (lbeta(self.concentration)
                + (self.total_concentration - k) * digamma(self.total_concentration)
                - reduction_ops.reduce_sum((self.concentration - 1.)
                                           * digamma(self.concentration), axis=-1))

    def _mean(self):
        return self.concentration / array_ops.expand_dims(self.total_concentration, -1)

    def _variance(self):
        scale = basic_math_ops.rsqrt(1. + array_ops.expand_dims(self.total_concentration, -1))
        x = scale * self._mean()
        return x * (scale - x)

    def _mode(self):
        """(alpha - 1) / (sum alpha - K), defined when every alpha > 1."""
        k = math_ops.cast(self.event_shape_tensor()[0], self.dtype)
        mode = (self.concentration - 1.) / (
            array_ops.expand_dims(self.total_concentration, -1) - k)
        if self.allow_nan_stats:
            nan = array_ops.fill(array_ops.shape(mode),
                                 convert_to_tensor(float("nan"), dtype=self.dtype), name="nan")
            defined = reduction_ops.reduce_all(
                comparison_ops.greater(self.concentration, 1.), axis=-1)
            return where_v2(array_ops.expand_dims(defined, -1), mode, nan)
        return util.with_checks(mode, None, [assert_less(
            array_ops.ones([], self.dtype), self.concentration,
            message="Mode undefined when any concentration <= 1")])


@kullback_leibler.RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(d1, d2, name=None):
    """KL(Dir(a1) || Dir(a2)) = sum (a1 - a2)(digamma(a1) - digamma(sum a1))
    - lbeta(a1) + lbeta(a2)."""
    with name_scope(name, "kl_dirichlet_dirichlet",
                    values=[d1.concentration, d2.concentration]):
        digamma_sum_d1 = digamma(reduction_ops.reduce_sum(d1.concentration, axis=-1,
                                                          keepdims=True))
        digamma_diff = digamma(d1.concentration) - digamma_sum_d1
        concentration_diff = d1.concentration - d2.concentration
        return (reduction_ops.reduce_sum(concentration_diff * digamma_diff, axis=-1)
                - lbeta(d1.concentration) + lbeta(d2.concentration))
