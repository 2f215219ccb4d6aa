"""The multivariate normal with a diagonal covariance -- mirrors TF 1.15's
contrib/distributions/python/ops/mvn_diag.py (MultivariateNormalDiag), without its
LinearOperator machinery:

    X = loc + scale_diag * Z,   Z ~ N(0, I_k)     (covariance = diag(scale_diag ** 2))

loc and scale_diag are [..., k]: batch_shape is their broadcast leading dims, event_shape
[k]. The density is the product of k independent normals, so log_prob sums Normal's over the
last axis. scale_identity_multiplier (a scalar times I) multiplies scale_diag, or is the
whole scale when scale_diag is None.
"""
import math

from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...ops import array_ops, basic_math_ops, random_ops, reduction_ops
from ...ops.check_ops import assert_positive
from ...ops.diag_ops import matrix_diag
from ...ops.distributions import distribution, kullback_leibler, util
from ...ops.distributions.normal import Normal
from ...ops.slicing_ops import concat

__all__ = ["MultivariateNormalDiag"]


class MultivariateNormalDiag(distribution.Distribution):
    """N(loc, diag(scale_diag)**2) over vectors of size k, batched over the leading dims."""

    def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None,
                 validate_args=False, allow_nan_stats=True, name="MultivariateNormalDiag"):
        parameters = dict(locals())
        if loc is None and scale_diag is None:
            raise ValueError("MultivariateNormalDiag: give loc or scale_diag (the size k of "
                             "the vectors comes from one of them).")
        with name_scope(name, values=[loc, scale_diag, scale_identity_multiplier]) as name:
            given = {k: v for k, v in (("loc", loc), ("scale_diag", scale_diag)) if v is not None}
            tensors, dtype = util.checked_params("MultivariateNormalDiag", given)
            given = dict(zip(given, tensors))
            loc = given.get("loc")
            scale = given.get("scale_diag")
            if scale is None:
                scale = array_ops.ones_like(loc)
            if loc is None:
                loc = array_ops.zeros_like(scale)
            if scale_identity_multiplier is not None:
                scale = scale * convert_to_tensor(scale_identity_multiplier, dtype=dtype,
                                                  name="scale_identity_multiplier")
            if validate_args:
                scale = util.with_checks(scale, "scale_diag", [assert_positive(
                    basic_math_ops.abs(scale), message="Singular scale: a zero in scale_diag.")])
        self._loc, self._scale_diag = loc, scale
        super().__init__(dtype=dtype, reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[loc, scale], name=name)

    @property
    def loc(self):
        """The mean vectors, [..., k]."""
        return self._loc

    @property
    def scale_diag(self):
        """The diagonal of the scale matrix (the stddevs up to sign), [..., k]."""
        return self._scale_diag

    def _full_shape(self):
        return util.static_batch_shape(self._loc, self._scale_diag)

    def _batch_shape(self):
        return self._full_shape()[:-1]

    def _batch_shape_tensor(self):
        return util.dynamic_batch_shape(self._loc, self._scale_diag)[:-1]

    def _event_shape(self):
        return self._full_shape()[-1:]

    def _event_shape_tensor(self):
        return util.dynamic_batch_shape(self._loc, self._scale_diag)[-1:]

    def _sample_n(self, n, seed=None):
        shape = concat([[n], util.dynamic_batch_shape(self._loc, self._scale_diag)], 0)
        z = random_ops.random_normal(shape=shape, dtype=self.dtype, seed=seed)
        return self._loc + self._scale_diag * z

    def _log_prob(self, x):
        z = (x - self._loc) / self._scale_diag
        return reduction_ops.reduce_sum(
            -0.5 * basic_math_ops.square(z) - 0.5 * math.log(2. * math.pi)
            - basic_math_ops.log(basic_math_ops.abs(self._scale_diag)), -1)

    def _entropy(self):
        log_scale = basic_math_ops.log(basic_math_ops.abs(self._scale_diag)) \
            * array_ops.ones_like(self._loc)
        return reduction_ops.reduce_sum(0.5 * math.log(2. * math.pi * math.e) + log_scale, -1)

    def _mean(self):
        return self._loc * array_ops.ones_like(self._scale_diag)

    def _mode(self):
        return self._mean()

    def _stddev(self):
        return basic_math_ops.abs(self._scale_diag) * array_ops.ones_like(self._loc)

    def _variance(self):
        return basic_math_ops.square(self._stddev())

    def _covariance(self):
        return matrix_diag(self._variance())


@kullback_leibler.RegisterKL(MultivariateNormalDiag, MultivariateNormalDiag)
def _kl_mvn_diag(a, b, name=None):
    """KL(a || b): the k coordinates are independent normals, so it is the sum over the last
    axis of the Normal-Normal KL."""
    with name_scope(name, "kl_mvn_diag", [a.loc, b.loc]):
        return reduction_ops.reduce_sum(kullback_leibler.kl_divergence(
            Normal(a.loc, a.scale_diag), Normal(b.loc, b.scale_diag)), -1)
