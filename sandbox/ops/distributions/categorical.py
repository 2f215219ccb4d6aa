"""The categorical distribution -- mirrors TF 1.15's python/ops/distributions/categorical.py.

    P[X = k] = probs[..., k] = softmax(logits)[..., k],   k in 0 .. K - 1

logits (or probs) are [..., K]: the batch is every dim but the last. Samples are int32 class
indices (multinomial), NOT_REPARAMETERIZED; log_prob is -sparse_softmax_cross_entropy, which
differentiates for the logits -- the policy-gradient loss of REINFORCE:

    pi = tf.distributions.Categorical(logits=policy_logits)
    loss = -tf.reduce_mean(pi.log_prob(actions) * returns)
"""
from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import array_ops, comparison_ops, math_ops, nn_ops, random_ops, reduction_ops
from ..manip_ops import where_v2
from ..slicing_ops import concat
from . import distribution, kullback_leibler, util

__all__ = ["Categorical"]


def _broadcast_cat_event_and_params(event, params, base_dtype):
    """event (int class indices) and params ([..., K]) broadcast against each other."""
    if event.dtype.is_floating:
        event = math_ops.cast(event, dtype=_dtypes.int32)
    elif not event.dtype.is_integer:
        raise TypeError(f"`value` should have integer `dtype` or `self.dtype` ({base_dtype})")
    known = (params.get_shape().ndims is not None
             and params.get_shape()[:-1].is_fully_defined()
             and event.get_shape().is_fully_defined())
    if not known or params.get_shape()[:-1] != event.get_shape():
        params = params * array_ops.ones_like(array_ops.expand_dims(event, -1),
                                              dtype=params.dtype)
        event = event * array_ops.ones(array_ops.shape(params)[:-1], dtype=event.dtype)
        if params.get_shape().ndims is not None:
            event.set_shape(TensorShape(params.get_shape()[:-1]))
    return event, params


class Categorical(util.LogitsProbs, distribution.Distribution):
    """A batch of distributions over the classes 0 .. K - 1."""

    def __init__(self, logits=None, probs=None, dtype=_dtypes.int32, validate_args=False,
                 allow_nan_stats=True, name="Categorical"):
        self._init_logits_probs(dict(locals()), multidimensional=True, dtype=dtype)
        with name_scope(self.name):
            logits_shape = self._logits.get_shape()
            if logits_shape.ndims == 0:
                raise ValueError(f"Categorical: logits (or probs) must have rank at least 1 "
                                 f"(the classes are the last dim), got shape {logits_shape}.")
            self._batch_rank = logits_shape.ndims - 1 if logits_shape.ndims is not None \
                else array_ops.rank(self._logits) - 1
            if logits_shape.ndims is not None and logits_shape[-1] is not None:
                self._event_size = convert_to_tensor(int(logits_shape[-1]),
                                                     dtype=_dtypes.int32, name="event_size")
            else:
                with name_scope("event_size"):
                    self._event_size = array_ops.shape(self._logits)[-1]
            self._logits_2d = self._logits if logits_shape.ndims == 2 else \
                array_ops.reshape(self._logits, [-1, self._event_size])

    @property
    def event_size(self):
        """The number of classes K (a scalar int32 tensor)."""
        return self._event_size

    def _batch_shape_tensor(self):
        return array_ops.shape(self.logits)[:-1]

    def _batch_shape(self):
        return self.logits.get_shape()[:-1]

    def _sample_n(self, n, seed=None):
        sample_dtype = _dtypes.int64 if self.dtype.size > 4 else _dtypes.int32
        draws = random_ops.multinomial(self._logits_2d, n, seed=seed,
                                       output_dtype=sample_dtype)            # [B, n]
        draws = array_ops.reshape(array_ops.transpose(draws),
                                  concat([[n], self.batch_shape_tensor()], 0))
        return math_ops.cast(draws, self.dtype)

    def _log_prob(self, k):
        k, logits = _broadcast_cat_event_and_params(k, self.logits,
                                                    base_dtype=self.dtype.base_dtype)
        return -nn_ops.sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _cdf(self, k):
        """sum of probs[j] for j < k (TF's sequence_mask rule: the mass below k)."""
        k, probs = _broadcast_cat_event_and_params(k, self.probs,
                                                   base_dtype=self.dtype.base_dtype)
        below = comparison_ops.less(array_ops.range(self._event_size),
                                    array_ops.expand_dims(k, -1))
        return reduction_ops.reduce_sum(
            where_v2(below, probs, array_ops.zeros_like(probs)), axis=-1)

    def _entropy(self):
        return -reduction_ops.reduce_sum(nn_ops.log_softmax(self.logits) * self.probs,
                                         axis=-1)

    def _mode(self):
        ret = reduction_ops.argmax(self.logits, axis=self._batch_rank)
        ret = math_ops.cast(ret, self.dtype)
        ret.set_shape(self.batch_shape)
        return ret


@kullback_leibler.RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a, b, name=None):
    """KL(a || b) = sum_k p_a[k] (log p_a[k] - log p_b[k])."""
    with name_scope(name, "kl_categorical_categorical", values=[a.logits, b.logits]):
        delta_log_probs1 = nn_ops.log_softmax(a.logits) - nn_ops.log_softmax(b.logits)
        return reduction_ops.reduce_sum(nn_ops.softmax(a.logits) * delta_log_probs1, axis=-1)
