"""FtrlOptimizer -- mirrors TensorFlow 1.x's `tf.train.FtrlOptimizer` (python/training/ftrl.py;
McMahan et al. 2013, "Ad Click Prediction: a View from the Trenches").

FTRL-Proximal ("Follow The Regularized Leader") keeps, per weight, the sum of squared
gradients ("accum", '<var>/Ftrl', started at initial_accumulator_value) and a "linear" term
('<var>/Ftrl_1', started at 0) that sums the gradients minus a correction for the weight's own
value. The weight itself is not stepped but recomputed from "linear" each time -- and set to
exactly 0 while |linear| <= l1, which is why FTRL with l1 gives sparse models:

    new_accum = accum + grad ** 2
    linear   += grad - (new_accum ** -p - accum ** -p) / learning_rate * var     (p: power)
    var       = (l1 * sign(linear) - linear) / (new_accum ** -p / learning_rate + 2 * l2)
                if |linear| > l1 else 0

With l2_shrinkage_regularization_strength > 0 the gradient in `linear` gains
2 * l2_shrinkage * var (TF's ApplyFtrlV2). Both are one fused op in ops/training_ops.py.
A sparse gradient (tf.IndexedSlices, from an embedding lookup) goes to SparseApplyFtrl(V2),
which touches only the looked-up rows: the others keep their weights, where a dense update
would recompute them from their `linear` (and so zero them on the first step).
"""
from ..framework.tensor import convert_to_tensor
from ..ops import training_ops
from .optimizer import Optimizer, _cast

__all__ = ["FtrlOptimizer"]


class FtrlOptimizer(Optimizer):
    """Optimizer that implements the FTRL-Proximal algorithm."""

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="Ftrl", accum_name=None, linear_name=None,
                 l2_shrinkage_regularization_strength=0.0):
        super().__init__(use_locking, name)
        if initial_accumulator_value < 0.0:
            raise ValueError(f"initial_accumulator_value {initial_accumulator_value:f} needs "
                             "to be positive or zero")
        if learning_rate_power > 0.0:
            raise ValueError(f"learning_rate_power {learning_rate_power:f} needs to be "
                             "negative or zero")
        for what, value in (("l1_regularization_strength", l1_regularization_strength),
                            ("l2_regularization_strength", l2_regularization_strength),
                            ("l2_shrinkage_regularization_strength",
                             l2_shrinkage_regularization_strength)):
            if value < 0.0:
                raise ValueError(f"{what} {value:f} needs to be positive or zero")
        self._learning_rate = learning_rate
        self._learning_rate_power = learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self._accum_name = accum_name
        self._linear_name = linear_name

    def _create_slots(self, var_list):
        from ..ops import init_ops
        from ..ops.constant_op import constant
        for v in var_list:
            dtype = v.dtype.base_dtype
            if v.get_shape().is_fully_defined():
                init = init_ops.constant_initializer(self._initial_accumulator_value,
                                                     dtype=dtype)
                self._get_or_make_slot_with_initializer(
                    v, init, v.get_shape(), dtype, "accum", self._accum_name or self._name)
            else:
                from ..ops import array_ops
                val = array_ops.ones_like(v.initialized_value()) * \
                    constant(self._initial_accumulator_value, dtype=dtype)
                self._get_or_make_slot(v, val, "accum", self._accum_name or self._name)
            self._zeros_slot(v, "linear", self._linear_name or self._name)

    def _prepare(self):
        def tensor(value, name):
            return convert_to_tensor(self._call_if_callable(value), name=name)
        self._learning_rate_tensor = tensor(self._learning_rate, "learning_rate")
        self._l1_regularization_strength_tensor = tensor(self._l1_regularization_strength,
                                                         "l1_regularization_strength")
        self._l2_regularization_strength_tensor = tensor(self._l2_regularization_strength,
                                                         "l2_regularization_strength")
        self._l2_shrinkage_regularization_strength_tensor = tensor(
            self._l2_shrinkage_regularization_strength, "l2_shrinkage_regularization_strength")
        self._learning_rate_power_tensor = tensor(self._learning_rate_power,
                                                  "learning_rate_power")

    def _hyper(self, var):
        dtype = var.dtype.base_dtype
        return [_cast(t, dtype) for t in (
            self._learning_rate_tensor, self._l1_regularization_strength_tensor,
            self._l2_regularization_strength_tensor,
            self._l2_shrinkage_regularization_strength_tensor,
            self._learning_rate_power_tensor)]

    def _apply_dense(self, grad, var):
        accum, linear = self.get_slot(var, "accum"), self.get_slot(var, "linear")
        lr, l1, l2, shrinkage, power = self._hyper(var)
        if self._l2_shrinkage_regularization_strength <= 0.0:
            return training_ops.apply_ftrl(var, accum, linear, grad, lr, l1, l2, power,
                                           use_locking=self._use_locking).op
        return training_ops.apply_ftrl_v2(var, accum, linear, grad, lr, l1, l2, shrinkage,
                                          power, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        """Only the rows of grad.indices change: a weight whose row is not looked up keeps its
        value (a dense update would recompute it from `linear`, zeroing it at first)."""
        accum, linear = self.get_slot(var, "accum"), self.get_slot(var, "linear")
        lr, l1, l2, shrinkage, power = self._hyper(var)
        if self._l2_shrinkage_regularization_strength <= 0.0:
            return training_ops.sparse_apply_ftrl(var, accum, linear, grad.values,
                                                  grad.indices, lr, l1, l2, power,
                                                  use_locking=self._use_locking).op
        return training_ops.sparse_apply_ftrl_v2(var, accum, linear, grad.values, grad.indices,
                                                 lr, l1, l2, shrinkage, power,
                                                 use_locking=self._use_locking).op
