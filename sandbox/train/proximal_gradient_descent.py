"""Proximal gradient descent -- mirrors `tf.train.ProximalGradientDescentOptimizer`
(python/training/proximal_gradient_descent.py; FOBOS, Duchi & Singer 2009, "Efficient Learning
using Forward-Backward Splitting").

Each step is a gradient step followed by the "proximal" step of the l1/l2 regularization,
which shrinks every weight towards 0 -- and sets it to exactly 0 when the l1 pull is larger
than the weight, which is how l1 gives sparse models:

    prox = var - learning_rate * grad
    var  = sign(prox) * max(|prox| - learning_rate * l1, 0) / (1 + learning_rate * l2)

It keeps no slots. With l1 = l2 = 0 it is plain gradient descent. A sparse gradient
(IndexedSlices) updates only its rows (SparseApplyProximalGradientDescent): the other rows
are not shrunk, where a dense step with zero rows would shrink them.
"""
from ..framework.tensor import convert_to_tensor
from ..ops import sparse_training_ops, training_ops
from .optimizer import Optimizer, _cast

__all__ = ["ProximalGradientDescentOptimizer"]


class ProximalGradientDescentOptimizer(Optimizer):
    """Optimizer that implements the proximal gradient descent algorithm."""

    def __init__(self, learning_rate, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False,
                 name="ProximalGradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._learning_rate_tensor = None
        self._l1_regularization_strength_tensor = None
        self._l2_regularization_strength_tensor = None

    def _prepare(self):
        def tensor(value, name):
            return convert_to_tensor(self._call_if_callable(value), name=name)
        self._learning_rate_tensor = tensor(self._learning_rate, "learning_rate")
        self._l1_regularization_strength_tensor = tensor(self._l1_regularization_strength,
                                                         "l1_regularization_strength")
        self._l2_regularization_strength_tensor = tensor(self._l2_regularization_strength,
                                                         "l2_regularization_strength")

    def _hyper(self, var):
        dtype = var.dtype.base_dtype
        return [_cast(t, dtype) for t in (self._learning_rate_tensor,
                                          self._l1_regularization_strength_tensor,
                                          self._l2_regularization_strength_tensor)]

    def _apply_dense(self, grad, var):
        lr, l1, l2 = self._hyper(var)
        return training_ops.apply_proximal_gradient_descent(
            var, lr, l1, l2, grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        lr, l1, l2 = self._hyper(var)
        return sparse_training_ops.sparse_apply_proximal_gradient_descent(
            var, lr, l1, l2, grad.values, grad.indices, use_locking=self._use_locking).op
