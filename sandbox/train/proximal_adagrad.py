"""Proximal Adagrad -- mirrors `tf.train.ProximalAdagradOptimizer`
(python/training/proximal_adagrad.py; Duchi et al. 2011 for Adagrad, FOBOS for the proximal
step).

Adagrad's per-weight learning rate, then FOBOS's l1/l2 shrinkage with that rate (see
proximal_gradient_descent.py). Each variable gets a slot "accumulator" ('<var>/ProximalAdagrad'),
the running sum of its squared gradients, started at `initial_accumulator_value`:

    accum += grad ** 2
    lr_t   = learning_rate / sqrt(accum)
    prox   = var - lr_t * grad
    var    = sign(prox) * max(|prox| - lr_t * l1, 0) / (1 + lr_t * l2)

A sparse gradient (IndexedSlices) updates only its rows of accum and var
(SparseApplyProximalAdagrad).
"""
from ..framework.tensor import convert_to_tensor
from ..ops import sparse_training_ops, training_ops
from .optimizer import Optimizer, _cast

__all__ = ["ProximalAdagradOptimizer"]


class ProximalAdagradOptimizer(Optimizer):
    """Optimizer that implements the Proximal Adagrad algorithm."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: "
                             f"{initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._l1_regularization_strength_tensor = None
        self._l2_regularization_strength_tensor = None
        self._learning_rate_tensor = None

    def _create_slots(self, var_list):
        for v in var_list:
            dtype = v.dtype.base_dtype
            if v.get_shape().is_fully_defined():
                from ..ops import init_ops
                init = init_ops.constant_initializer(self._initial_accumulator_value,
                                                     dtype=dtype)
                self._get_or_make_slot_with_initializer(v, init, v.get_shape(), dtype,
                                                        "accumulator", self._name)
            else:
                from ..ops import array_ops
                val = array_ops.ones_like(v.initialized_value()) * \
                    self._initial_accumulator_value
                self._get_or_make_slot(v, val, "accumulator", self._name)

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
        return training_ops.apply_proximal_adagrad(
            var, self.get_slot(var, "accumulator"), lr, l1, l2, grad,
            use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        lr, l1, l2 = self._hyper(var)
        return sparse_training_ops.sparse_apply_proximal_adagrad(
            var, self.get_slot(var, "accumulator"), lr, l1, l2, grad.values, grad.indices,
            use_locking=self._use_locking).op
