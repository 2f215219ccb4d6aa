"""KL divergences between distributions -- mirrors TF 1.15's python/ops/distributions/
kullback_leibler.py (tf.distributions.kl_divergence, tf.distributions.RegisterKL).

Each distribution file registers the closed forms it knows:

    @RegisterKL(Normal, Normal)
    def _kl_normal_normal(n_a, n_b, name=None): ...

kl_divergence(a, b) finds the function registered for the nearest pair of classes along
both classes' MROs (a subclass of Normal uses Normal's), and opens the "KullbackLeibler"
name scope. With allow_nan_stats=False the result is checked for NaNs when it runs.
"""
from ...framework.graph import control_dependencies, name_scope
from .. import reduction_ops
from ..basic_math_ops import is_nan
from ..comparison_ops import logical_not
from ..control_flow_ops import identity
from ..logging_ops import Assert

__all__ = ["kl_divergence", "cross_entropy", "RegisterKL"]

_DIVERGENCES = {}


def _registered_kl(type_a, type_b):
    """The function registered for the closest pair of ancestors of (type_a, type_b)."""
    best, best_distance = None, None
    for i, parent_a in enumerate(type_a.__mro__):
        for j, parent_b in enumerate(type_b.__mro__):
            fn = _DIVERGENCES.get((parent_a, parent_b))
            if fn is not None and (best_distance is None or i + j < best_distance):
                best, best_distance = fn, i + j
    return best


def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
    """KL(distribution_a || distribution_b), batched: a tensor of their batch shape."""
    kl_fn = _registered_kl(type(distribution_a), type(distribution_b))
    if kl_fn is None:
        raise NotImplementedError(
            f"No KL(distribution_a || distribution_b) registered for distribution_a type "
            f"{type(distribution_a).__name__} and distribution_b type "
            f"{type(distribution_b).__name__}")
    with name_scope("KullbackLeibler"):
        kl_t = kl_fn(distribution_a, distribution_b, name=name)
        if allow_nan_stats:
            return kl_t
        kl_t = identity(kl_t, name="kl")
        check = Assert(logical_not(reduction_ops.reduce_any(is_nan(kl_t))), [
            f"KL calculation between {distribution_a.name} and {distribution_b.name} "
            "returned NaN values (and was called with allow_nan_stats=False). Values:", kl_t])
        with control_dependencies([check]):
            return identity(kl_t, name="checked_kl")


def cross_entropy(ref, other, allow_nan_stats=True, name=None):
    """H[ref, other] = entropy(ref) + KL(ref || other)."""
    with name_scope(name, "cross_entropy"):
        return ref.entropy() + kl_divergence(ref, other, allow_nan_stats=allow_nan_stats)


class RegisterKL:
    """Decorator registering a KL(a || b) function for a pair of distribution classes."""

    def __init__(self, dist_cls_a, dist_cls_b):
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn):
        if not callable(kl_fn):
            raise TypeError(f"kl_fn must be callable, received: {kl_fn}")
        if self._key in _DIVERGENCES:
            raise ValueError(f"KL({self._key[0].__name__} || {self._key[1].__name__}) has "
                             f"already been registered to: {_DIVERGENCES[self._key]}")
        _DIVERGENCES[self._key] = kl_fn
        return kl_fn
