"""The Dirichlet-multinomial distribution -- mirrors TF 1.15's python/ops/distributions/
dirichlet_multinomial.py.

A multinomial of total_count trials whose class probabilities are first drawn from a
Dirichlet(concentration):

    P[counts] = n! / prod_j counts[j]! * B(alpha + counts) / B(alpha)

event_shape is [K], the dtype concentration's. NOT_REPARAMETERIZED.
"""
from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, basic_math_ops, math_ops
from ..random_extra_ops import random_gamma
from ..slicing_ops import concat
from ..special_math_ops import lbeta
from . import distribution, util
from .dirichlet import _concentration, _SimplexParameters
from .multinomial import _count_draws

__all__ = ["DirichletMultinomial"]


class DirichletMultinomial(_SimplexParameters, distribution.Distribution):
    """DirichletMultinomial(total_count, concentration) over K classes."""

    def __init__(self, total_count, concentration, validate_args=False, allow_nan_stats=True,
                 name="DirichletMultinomial"):
        parameters = dict(locals())
        with name_scope(name, values=[total_count, concentration]) as name:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            self._concentration, self._total_concentration = _concentration(
                concentration, validate_args, "DirichletMultinomial")
        super().__init__(dtype=self._concentration.dtype,
                         reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters,
                         graph_parents=[self._total_count, self._concentration], name=name)

    @property
    def total_count(self):
        """n, the number of trials."""
        return self._total_count

    def _sample_n(self, n, seed=None):
        k = self.event_shape_tensor()[0]
        unnormalized_logits = array_ops.reshape(basic_math_ops.log(random_gamma(
            shape=[n], alpha=self.concentration, dtype=self.dtype, seed=seed)),
            concat([[-1], [k]], 0))                                    # [n * B, k]
        n_draws = math_ops.cast(self.total_count, _dtypes.int32) * array_ops.ones(
            array_ops.shape(unnormalized_logits)[:1], dtype=_dtypes.int32)
        x = _count_draws(unnormalized_logits, n_draws, 1, k,
                         util.gen_new_seed(seed, salt="dirichlet_multinomial"), self.dtype)
        return array_ops.reshape(x, concat([[n], self.batch_shape_tensor(), [k]], 0))

    def _log_prob(self, counts):
        ordered_prob = lbeta(self.concentration + counts) - lbeta(self.concentration)
        return ordered_prob + util.log_combinations(self.total_count, counts)

    def _mean(self):
        return self.total_count * (self.concentration
                                   / array_ops.expand_dims(self.total_concentration, -1))

    def _variance(self):
        c0 = array_ops.expand_dims(self.total_concentration, -1)
        scale = basic_math_ops.sqrt((1. + c0 / self.total_count) / (1. + c0))
        x = scale * self._mean()
        return x * (self.total_count * scale - x)
