"""Helpers the distributions share -- a few of TF 1.15's python/ops/distributions/util.py.

    LocScale, LogitsProbs        the properties loc/scale and logits/probs (mixins)
    static_batch_shape(a, b)     the broadcast of the parameters' shapes (a TensorShape)
    dynamic_batch_shape(a, b)    the same as an int32 tensor
    with_checks(x, name, checks) x as an Identity named `name` that waits for the assertion
                                 ops `checks` (the `validate_args=True` checks; none otherwise)
    checked_params(what, {...})  a distribution's parameters as such Identities
    same_float_dtype(*tensors)   the common float dtype, or a TypeError naming them
    logits_probs(...)            the (logits, probs) pair from whichever one was given
    undefined_as_nan(...)        a statistic, NaN where undefined (or checked, per
                                 allow_nan_stats)
    gen_new_seed(seed, salt)     a second seed from a first (TF's rule)
    log_combinations(n, counts)  log of the multinomial coefficient
"""
import hashlib

import numpy as np

from ...framework.graph import control_dependencies, name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, basic_math_ops, nn_ops
from ..check_ops import assert_less, assert_less_equal, assert_non_negative
from ..control_flow_ops import identity
from ..reduction_ops import reduce_sum
from ..special_math_ops import lgamma
from ..manip_ops import broadcast_dynamic_shape, broadcast_static_shape, where_v2

__all__ = ["LocScale", "LogitsProbs", "static_batch_shape", "dynamic_batch_shape",
           "with_checks", "checked_params", "same_float_dtype", "logits_probs",
           "undefined_as_nan", "gen_new_seed", "log_combinations"]


class LocScale:
    """The `loc` and `scale` properties of Normal, Laplace and StudentT."""

    @property
    def loc(self):
        """The location: the mean (where defined), median and mode."""
        return self._loc

    @property
    def scale(self):
        """The scale: the stddev of a Normal, and proportional to it for the others."""
        return self._scale


class LogitsProbs:
    """The `logits` and `probs` properties of Bernoulli, Categorical and Multinomial."""

    @property
    def logits(self):
        """Log-odds (Bernoulli), or unnormalized log-probabilities of the classes."""
        return self._logits

    @property
    def probs(self):
        """The probability of a 1 (Bernoulli), or of each class."""
        return self._probs


def static_batch_shape(*tensors):
    """The broadcast of the tensors' static shapes."""
    shape = tensors[0].get_shape()
    for t in tensors[1:]:
        shape = broadcast_static_shape(shape, t.get_shape())
    return shape


def dynamic_batch_shape(*tensors):
    """The broadcast of the tensors' shapes, as an int32 tensor."""
    shape = array_ops.shape(tensors[0])
    for t in tensors[1:]:
        shape = broadcast_dynamic_shape(shape, array_ops.shape(t))
    return shape


def with_checks(x, name, checks):
    """x (an Identity named `name`) after the assertion ops `checks` have run."""
    with control_dependencies(list(checks)):
        return identity(x, name=name)


def checked_params(what, values, checks=None):
    """The parameters `values` ({name: value}) as tensors, each an Identity named after its
    parameter ("Normal/loc"), after the assertions `checks(*tensors)` when it is given (the
    validate_args=True checks); with the dtype they share, else a TypeError naming `what`."""
    tensors = [convert_to_tensor(v) for v in values.values()]
    assertions = checks(*tensors) if checks is not None else []
    tensors = [with_checks(t, name, assertions) for t, name in zip(tensors, values)]
    return tensors, same_float_dtype(tensors, what)


def same_float_dtype(tensors, what):
    """The tensors' common float dtype; a TypeError naming `what` if they differ or are not
    floating point (TF's assert_same_float_dtype)."""
    dtypes = {t.dtype.base_dtype for t in tensors}
    if len(dtypes) != 1:
        raise TypeError(f"{what}: the parameters must have the same dtype, got "
                        f"{sorted(d.name for d in dtypes)}: cast them to one float dtype.")
    dtype = dtypes.pop()
    if not dtype.is_floating:
        raise TypeError(f"{what}: expected a floating point dtype, got {dtype.name}: pass "
                        "float values (1.0, not 1) or cast them.")
    return dtype


def logits_probs(logits, probs, multidimensional, validate_args, name="GetLogitsAndProbs",
                 dtype=None):
    """(logits, probs) from exactly one of them: probs = sigmoid(logits) for a Bernoulli,
    softmax(logits) when `multidimensional`; logits = log(probs) (- log1p(-probs))."""
    with name_scope(name, values=[probs, logits]):
        if (probs is None) == (logits is None):
            raise ValueError("Must pass probs or logits, but not both.")
        if probs is None:
            logits = convert_to_tensor(logits, name="logits", dtype=dtype)
            if not logits.dtype.is_floating:
                raise TypeError("logits must having floating type.")
            if multidimensional:
                return logits, nn_ops.softmax(logits, name="probs")
            return logits, basic_math_ops.sigmoid(logits, name="probs")
        probs = convert_to_tensor(probs, name="probs", dtype=dtype)
        if not probs.dtype.is_floating:
            raise TypeError("probs must having floating type.")
        if validate_args:
            one = convert_to_tensor(1., dtype=probs.dtype.base_dtype)
            checks = [assert_non_negative(probs, message="probs has components less than 0.")]
            if not multidimensional:
                checks.append(assert_less_equal(probs, one,
                                                message="probs has components greater than 1."))
            probs = with_checks(probs, "probs", checks)
        with name_scope("logits"):
            if multidimensional:
                return basic_math_ops.log(probs), probs
            return basic_math_ops.log(probs) - basic_math_ops.log1p(-probs), probs


def undefined_as_nan(dist, value, is_defined, message, assert_lower=None):
    """A statistic defined only where `is_defined` holds: NaN elsewhere when
    dist.allow_nan_stats, else `value` after an assertion (1 < assert_lower, with `message`)
    that fails the step where it is undefined."""
    if dist.allow_nan_stats:
        nan = array_ops.fill(dist.batch_shape_tensor(),
                             np.array(np.nan, dtype=dist.dtype.as_numpy_dtype), name="nan")
        return where_v2(is_defined, value, nan)
    one = array_ops.ones([], dtype=dist.dtype)
    lowers = assert_lower if isinstance(assert_lower, (list, tuple)) else [assert_lower]
    messages = message if isinstance(message, (list, tuple)) else [message]
    return with_checks(value, None, [assert_less(one, lower, message=text)
                                     for lower, text in zip(lowers, messages)])


def gen_new_seed(seed, salt):
    """A new seed from `seed` and `salt` (None stays None): TF's rule, so two draws of one
    distribution (Beta's two gammas) are not the same numbers."""
    if seed is None:
        return None
    digest = hashlib.md5((str(seed) + salt).encode("utf-8")).hexdigest()
    return int(digest[:8], 16) & 0x7FFFFFFF


def log_combinations(n, counts, name="log_combinations"):
    """log(n! / prod_j counts[j]!), the multinomial coefficient (lgamma of each + 1)."""
    with name_scope(name, values=[n, counts]):
        n = convert_to_tensor(n, name="n")
        counts = convert_to_tensor(counts, name="counts")
        total_permutations = lgamma(n + 1)
        redundant_permutations = reduce_sum(lgamma(counts + 1), axis=-1)
        return total_permutations - redundant_permutations
