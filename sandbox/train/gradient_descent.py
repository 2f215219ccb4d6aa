"""Plain gradient descent -- mirrors `tf.train.GradientDescentOptimizer`
(python/training/gradient_descent.py).

Each step moves every variable against its gradient:  var -= learning_rate * grad.
It keeps no slots: the update needs nothing but the gradient.

A sparse gradient (an IndexedSlices: some rows of an embedding) is applied as TF does, with
one ScatterSub on the variable's device: var[indices] -= learning_rate * values. Repeated
indices need no summing first: each subtraction adds up.
"""
from ..framework.tensor import convert_to_tensor
from ..ops import state_ops, training_ops
from .optimizer import Optimizer, _cast

__all__ = ["GradientDescentOptimizer"]


class GradientDescentOptimizer(Optimizer):
    """Optimizer that implements the gradient descent algorithm."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._learning_rate_tensor = None

    def _prepare(self):
        lr = self._call_if_callable(self._learning_rate)
        self._learning_rate_tensor = convert_to_tensor(lr, name="learning_rate")

    def _apply_dense(self, grad, var):
        return training_ops.apply_gradient_descent(
            var, _cast(self._learning_rate_tensor, var.dtype.base_dtype), grad,
            use_locking=self._use_locking).op

    def _apply_sparse_duplicate_indices(self, grad, var):
        delta = grad.values * _cast(self._learning_rate_tensor, var.dtype.base_dtype)
        return state_ops.scatter_sub(var, grad.indices, delta,
                                     use_locking=self._use_locking).op
