"""Momentum -- mirrors `tf.train.MomentumOptimizer` (python/training/momentum.py).

Each variable gets a slot "momentum" (named '<var>/Momentum'), a running sum of past gradients
that decays by `momentum` every step -- like a heavy ball rolling downhill:

    accum = momentum * accum + grad
    var  -= learning_rate * accum

With use_nesterov=True the step looks ahead:  var -= lr * grad + lr * momentum * accum.

A sparse gradient (IndexedSlices) updates only its rows, accum and var alike
(SparseApplyMomentum): the other rows keep their accumulated momentum, undecayed, and do not
move -- unlike a dense step with zero rows, which would keep moving them.
"""
from ..framework.tensor import convert_to_tensor
from ..ops import sparse_training_ops, training_ops
from .optimizer import Optimizer, _cast

__all__ = ["MomentumOptimizer"]


class MomentumOptimizer(Optimizer):
    """Optimizer that implements the Momentum algorithm."""

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum",
                 use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        lr = self._call_if_callable(self._learning_rate)
        momentum = self._call_if_callable(self._momentum)
        self._learning_rate_tensor = convert_to_tensor(lr, name="learning_rate")
        self._momentum_tensor = convert_to_tensor(momentum, name="momentum")

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        return training_ops.apply_momentum(
            var, self.get_slot(var, "momentum"), _cast(self._learning_rate_tensor, dtype), grad,
            _cast(self._momentum_tensor, dtype), use_locking=self._use_locking,
            use_nesterov=self._use_nesterov).op

    def _apply_sparse(self, grad, var):
        dtype = var.dtype.base_dtype
        return sparse_training_ops.sparse_apply_momentum(
            var, self.get_slot(var, "momentum"), _cast(self._learning_rate_tensor, dtype),
            grad.values, grad.indices, _cast(self._momentum_tensor, dtype),
            use_locking=self._use_locking, use_nesterov=self._use_nesterov).op
