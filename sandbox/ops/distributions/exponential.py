"""The exponential distribution -- mirrors TF 1.15's python/ops/distributions/exponential.py.

    pdf(x; rate) = rate exp(-rate x),  x >= 0

A Gamma with concentration 1; samples are -log(u) / rate for u ~ U(tiny, 1), so they are
differentiable in `rate` (FULLY_REPARAMETERIZED, here for real).
"""
import numpy as np

from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, basic_math_ops, random_ops
from ..slicing_ops import concat
from . import gamma

__all__ = ["Exponential"]


class Exponential(gamma.Gamma):
    """Exponential(rate), batched over rate's shape."""

    _shape_params = ("rate",)

    def __init__(self, rate, validate_args=False, allow_nan_stats=True, name="Exponential"):
        parameters = dict(locals())
        with name_scope(name, values=[rate]) as name:
            self._rate = convert_to_tensor(rate, name="rate")
        super().__init__(concentration=array_ops.ones([], dtype=self._rate.dtype),
                         rate=self._rate, allow_nan_stats=allow_nan_stats,
                         validate_args=validate_args, name=name)
        self._parameters = {k: v for k, v in parameters.items() if k != "self"}
        self._graph_parents += [self._rate]

    @property
    def rate(self):
        return self._rate

    def _log_survival_function(self, value):
        return self._log_prob(value) - basic_math_ops.log(self._rate)

    def _sample_n(self, n, seed=None):
        shape = concat([[n], array_ops.shape(self._rate)], 0)
        sampled = random_ops.random_uniform(
            shape, minval=np.finfo(self.dtype.as_numpy_dtype).tiny, maxval=1., seed=seed,
            dtype=self.dtype)
        return -basic_math_ops.log(sampled) / self._rate
