"""The Bernoulli distribution -- mirrors TF 1.15's python/ops/distributions/bernoulli.py.

    P[X = 1] = probs = sigmoid(logits),  P[X = 0] = 1 - probs

Give logits or probs (not both). Samples are int32 (or `dtype`) 0/1: uniform < probs, not
differentiable (NOT_REPARAMETERIZED); log_prob is, for both parameters -- it is
-sigmoid_cross_entropy_with_logits(labels=x, logits=logits).
"""
from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from .. import array_ops, basic_math_ops, comparison_ops, math_ops, nn_ops, random_ops
from ..control_flow_ops import identity
from ..nn_impl import sigmoid_cross_entropy_with_logits
from ..slicing_ops import concat
from . import distribution, kullback_leibler, util

__all__ = ["Bernoulli"]


class Bernoulli(util.LogitsProbs, distribution.Distribution):
    """A batch of coin flips: 1 with probability `probs` (log-odds `logits`)."""

    _shape_params = ("logits",)

    def __init__(self, logits=None, probs=None, dtype=_dtypes.int32, validate_args=False,
                 allow_nan_stats=True, name="Bernoulli"):
        self._init_logits_probs(dict(locals()), multidimensional=False, dtype=dtype)

    def _sample_n(self, n, seed=None):
        new_shape = concat([[n], self.batch_shape_tensor()], 0)
        uniform = random_ops.random_uniform(new_shape, seed=seed, dtype=self.probs.dtype)
        return math_ops.cast(comparison_ops.less(uniform, self.probs), self.dtype)

    def _log_prob(self, event):
        event = math_ops.cast(event, self.logits.dtype)
        logits = self.logits
        if not (event.get_shape().is_fully_defined() and logits.get_shape().is_fully_defined()
                and event.get_shape() == logits.get_shape()):      # broadcast the two
            logits = array_ops.ones_like(event) * logits
            event = array_ops.ones_like(logits) * event
        return -sigmoid_cross_entropy_with_logits(labels=event, logits=logits)

    def _entropy(self):
        return (-self.logits * (basic_math_ops.sigmoid(self.logits) - 1.)
                + nn_ops.softplus(-self.logits))

    def _mean(self):
        return identity(self.probs)

    def _variance(self):
        return self._mean() * (1. - self.probs)

    def _mode(self):
        return math_ops.cast(comparison_ops.greater(self.probs, 0.5), self.dtype)


@kullback_leibler.RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a, b, name=None):
    """KL(a || b) = p_a log(p_a / p_b) + (1 - p_a) log((1 - p_a) / (1 - p_b)), from logits."""
    with name_scope(name, "kl_bernoulli_bernoulli", values=[a.logits, b.logits]):
        delta_probs0 = nn_ops.softplus(-b.logits) - nn_ops.softplus(-a.logits)
        delta_probs1 = nn_ops.softplus(b.logits) - nn_ops.softplus(a.logits)
        return (basic_math_ops.sigmoid(a.logits) * delta_probs0
                + basic_math_ops.sigmoid(-a.logits) * delta_probs1)
