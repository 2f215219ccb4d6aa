"""Adagrad Dual Averaging -- mirrors `tf.train.AdagradDAOptimizer`
(python/training/adagrad_da.py; Duchi et al. 2011, "Adaptive Subgradient Methods").

Dual averaging does not step the weights: it keeps, per weight, the sum of all gradients
(slot "gradient_accumulator", '<var>/AdagradDA', started at 0) and of their squares
("gradient_squared_accumulator", '<var>/AdagradDA_1', started at
initial_gradient_squared_accumulator_value), and recomputes each weight from them in closed
form. With T the step number (global_step + 1, read when the update runs):

    g  += grad;   gg += grad ** 2
    var = -sign(g) * lr * max(|g| - l1 * T, 0) / (l2 * T * lr + sqrt(gg))

so a weight is exactly 0 while its average gradient |g| / T stays within l1. Because the
weight depends only on the sums and T, a row of an embedding that is looked up only now and
then (a sparse gradient: SparseApplyAdagradDA, which touches only its rows) gets, when it is
updated, the regularization of all the steps it missed -- hence "for sparse linear models".

`global_step` is required: the step count enters the formula. The optimizer does not
increment it; pass it to minimize() as well, as TF's users do.
"""
from ..framework.tensor import convert_to_tensor
from ..ops import sparse_training_ops, training_ops
from .optimizer import Optimizer, _cast

__all__ = ["AdagradDAOptimizer"]


class AdagradDAOptimizer(Optimizer):
    """Adagrad Dual Averaging algorithm for sparse linear models."""

    def __init__(self, learning_rate, global_step,
                 initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: "
                             f"{initial_gradient_squared_accumulator_value}")
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_gradient_squared_accumulator_value = \
            initial_gradient_squared_accumulator_value
        self._learning_rate_tensor = None
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._global_step = global_step
        self._global_step_on_worker = None

    def _create_slots(self, var_list):
        from ..ops import init_ops
        for v in var_list:
            dtype = v.dtype.base_dtype
            self._zeros_slot(v, "gradient_accumulator", self._name)
            if v.get_shape().is_fully_defined():
                init = init_ops.constant_initializer(
                    self._initial_gradient_squared_accumulator_value, dtype=dtype)
                self._get_or_make_slot_with_initializer(
                    v, init, v.get_shape(), dtype, "gradient_squared_accumulator", self._name)
            else:
                from ..ops import array_ops
                val = array_ops.ones_like(v.initialized_value()) * \
                    self._initial_gradient_squared_accumulator_value
                self._get_or_make_slot(v, val, "gradient_squared_accumulator", self._name)

    def _prepare(self):
        from ..framework.graph import get_default_graph
        from ..ops.control_flow_ops import identity
        self._learning_rate_tensor = convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")
        # T = global_step + 1, read once per step on the worker (beside the learning rate).
        with get_default_graph().colocate_with(self._learning_rate_tensor):
            self._global_step_on_worker = identity(self._global_step) + 1

    def _hyper(self, var):
        """lr, l1, l2 in the variable's dtype, and the step number (an int64 copy made on the
        variable's device: we are inside colocate_with(var))."""
        from ..ops.control_flow_ops import identity
        dtype = var.dtype.base_dtype
        return (_cast(self._learning_rate_tensor, dtype),
                _cast(self._l1_regularization_strength, dtype),
                _cast(self._l2_regularization_strength, dtype),
                identity(self._global_step_on_worker))

    def _apply_dense(self, grad, var):
        lr, l1, l2, global_step = self._hyper(var)
        return training_ops.apply_adagrad_da(
            var, self.get_slot(var, "gradient_accumulator"),
            self.get_slot(var, "gradient_squared_accumulator"), grad, lr, l1, l2, global_step,
            use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        lr, l1, l2, global_step = self._hyper(var)
        return sparse_training_ops.sparse_apply_adagrad_da(
            var, self.get_slot(var, "gradient_accumulator"),
            self.get_slot(var, "gradient_squared_accumulator"), grad.values, grad.indices, lr,
            l1, l2, global_step, use_locking=self._use_locking).op
