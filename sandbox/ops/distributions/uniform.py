"""The uniform distribution on [low, high) -- mirrors TF 1.15's python/ops/distributions/
uniform.py.

    pdf(x) = 1 / (high - low) for low <= x < high, else 0

Samples are low + (high - low) * u with u ~ U[0, 1) (random_uniform):
FULLY_REPARAMETERIZED.
"""
import math

from .. import array_ops, basic_math_ops, comparison_ops, random_ops
from ..check_ops import assert_less
from ..manip_ops import where_v2
from ..slicing_ops import concat
from . import distribution, util

__all__ = ["Uniform"]


class Uniform(distribution.Distribution):
    """U[low, high), batched over the broadcast shape of low and high."""

    _shape_params = ("low", "high")

    def __init__(self, low=0., high=1., validate_args=False, allow_nan_stats=True,
                 name="Uniform"):
        self._init_params(dict(locals()), {"low": low, "high": high},
                          lambda low, high: [assert_less(
                              low, high, message="uniform not defined when low >= high.")])

    @property
    def low(self):
        """Lower boundary of the support (included)."""
        return self._low

    @property
    def high(self):
        """Upper boundary of the support (excluded)."""
        return self._high

    def range(self, name="range"):
        """high - low."""
        with self._name_scope(name):
            return self.high - self.low

    def _sample_n(self, n, seed=None):
        shape = concat([[n], self.batch_shape_tensor()], 0)
        samples = random_ops.random_uniform(shape=shape, dtype=self.dtype, seed=seed)
        return self.low + self.range() * samples

    def _prob(self, x):
        broadcasted_x = x * array_ops.ones(self.batch_shape_tensor(), dtype=x.dtype)
        zeros, ones = array_ops.zeros_like(broadcasted_x), array_ops.ones_like(broadcasted_x)
        outside = comparison_ops.logical_or(comparison_ops.less(broadcasted_x, self.low),
                                            comparison_ops.greater_equal(broadcasted_x,
                                                                         self.high))
        return where_v2(basic_math_ops.is_nan(broadcasted_x), broadcasted_x,
                        where_v2(outside, zeros, ones / self.range()))

    def _cdf(self, x):
        broadcast_shape = util.dynamic_batch_shape(x, self.low, self.high)
        zeros = array_ops.zeros(broadcast_shape, dtype=self.dtype)
        ones = array_ops.ones(broadcast_shape, dtype=self.dtype)
        broadcasted_x = x * ones
        result_if_not_big = where_v2(comparison_ops.less(x, self.low), zeros,
                                     (broadcasted_x - self.low) / self.range())
        return where_v2(comparison_ops.greater_equal(x, self.high), ones, result_if_not_big)

    def _entropy(self):
        return basic_math_ops.log(self.range())

    def _mean(self):
        return (self.low + self.high) / 2.

    def _variance(self):
        return basic_math_ops.square(self.range()) / 12.

    def _stddev(self):
        return self.range() / math.sqrt(12.)
