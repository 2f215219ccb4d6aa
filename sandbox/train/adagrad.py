"""Adagrad -- mirrors `tf.train.AdagradOptimizer` (python/training/adagrad.py).

Each variable gets a slot "accumulator" ('<var>/Adagrad'), the running sum of its squared
gradients, started at `initial_accumulator_value`. Weights that saw large gradients take
smaller steps:

    accum += grad ** 2
    var   -= learning_rate * grad / sqrt(accum)

A sparse gradient (IndexedSlices) updates only its rows of accum and var
(SparseApplyAdagrad); for Adagrad that is the same as a dense step with zero rows.
"""
from ..framework.tensor import convert_to_tensor
from ..ops import sparse_training_ops, training_ops
from .optimizer import Optimizer, _cast

__all__ = ["AdagradOptimizer"]


class AdagradOptimizer(Optimizer):
    """Optimizer that implements the Adagrad algorithm."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False,
                 name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: "
                             f"{initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value

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
        lr = self._call_if_callable(self._learning_rate)
        self._learning_rate_tensor = convert_to_tensor(lr, name="learning_rate")

    def _apply_dense(self, grad, var):
        return training_ops.apply_adagrad(
            var, self.get_slot(var, "accumulator"),
            _cast(self._learning_rate_tensor, var.dtype.base_dtype), grad,
            use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        return sparse_training_ops.sparse_apply_adagrad(
            var, self.get_slot(var, "accumulator"),
            _cast(self._learning_rate_tensor, var.dtype.base_dtype), grad.values, grad.indices,
            use_locking=self._use_locking).op
