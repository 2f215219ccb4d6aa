"""The multinomial distribution -- mirrors TF 1.15's python/ops/distributions/multinomial.py.

    P[counts] = n! / prod_j counts[j]! * prod_j probs[j]**counts[j],   sum_j counts[j] = n

total_count (n) is [...], logits or probs [..., K]; a draw is a float vector of K counts
summing to n (event_shape [K]). Sampling draws n classes per distribution with multinomial
and counts them (TF maps over the batch; here every row draws max(n) classes and the ones
past its own n are masked out). NOT_REPARAMETERIZED.
"""
from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, comparison_ops, math_ops, nn_ops, random_ops, reduction_ops
from ..control_flow_ops import identity
from ..indexing_ops import one_hot
from ..slicing_ops import concat
from . import distribution, util

__all__ = ["Multinomial"]


def _count_draws(logits, n_draws, n, k, seed, dtype):
    """n draws of total counts n_draws[b] from each row b of logits [B, k]: [n, B, k]."""
    max_draws = reduction_ops.reduce_max(n_draws)
    draws = random_ops.multinomial(logits, n * max_draws, seed=seed,
                                   output_dtype=_dtypes.int32)             # [B, n * max]
    draws = array_ops.reshape(draws, concat([[-1], [n], [max_draws]], 0))  # [B, n, max]
    keep = comparison_ops.less(array_ops.range(max_draws),
                               array_ops.expand_dims(n_draws, -1))        # [B, max]
    keep = math_ops.cast(array_ops.expand_dims(array_ops.expand_dims(keep, 1), -1), dtype)
    counts = reduction_ops.reduce_sum(one_hot(draws, depth=k, dtype=dtype) * keep, -2)
    return array_ops.transpose(counts, [1, 0, 2])


class Multinomial(util.LogitsProbs, distribution.Distribution):
    """Multinomial(total_count, logits or probs) over K classes."""

    def __init__(self, total_count, logits=None, probs=None, validate_args=False,
                 allow_nan_stats=True, name="Multinomial"):
        self._init_logits_probs(dict(locals()), multidimensional=True)
        with name_scope(self.name, values=[total_count]):
            self._total_count = convert_to_tensor(total_count, name="total_count")
            self._mean_val = array_ops.expand_dims(self._total_count, -1) * self._probs
        self._graph_parents.insert(0, self._total_count)

    @property
    def total_count(self):
        """n, the number of trials."""
        return self._total_count

    def _batch_shape_tensor(self):
        return array_ops.shape(self._mean_val)[:-1]

    def _batch_shape(self):
        return self._mean_val.get_shape()[:-1]

    def _event_shape_tensor(self):
        return array_ops.shape(self._mean_val)[-1:]

    def _event_shape(self):
        return self._mean_val.get_shape()[-1:]

    def _sample_n(self, n, seed=None):
        k = self.event_shape_tensor()[0]
        n_draws = math_ops.cast(self.total_count, dtype=_dtypes.int32)
        n_draws = array_ops.ones_like(self.logits[..., 0], dtype=_dtypes.int32) * n_draws
        logits = array_ops.ones_like(array_ops.expand_dims(n_draws, -1),
                                     dtype=self.logits.dtype) * self.logits
        x = _count_draws(array_ops.reshape(logits, concat([[-1], [k]], 0)),
                         array_ops.reshape(n_draws, [-1]), n, k, seed, self.dtype)
        return array_ops.reshape(x, concat([[n], self.batch_shape_tensor(), [k]], 0))

    def _log_prob(self, counts):
        return (reduction_ops.reduce_sum(counts * nn_ops.log_softmax(self.logits), -1)
                + util.log_combinations(self.total_count, counts))

    def _mean(self):
        return identity(self._mean_val)

    def _variance(self):
        p = self.probs * array_ops.expand_dims(array_ops.ones_like(self.total_count), -1)
        return self._mean_val - self._mean_val * p
