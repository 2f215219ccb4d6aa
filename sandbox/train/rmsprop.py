"""RMSProp -- mirrors `tf.train.RMSPropOptimizer` (python/training/rmsprop.py).

Each variable gets slots "rms" (a decaying average of squared gradients, started at ONE as in
TF 1.x) and "momentum" (named '<var>/RMSProp' and '<var>/RMSProp_1'):

    ms   = decay * ms + (1 - decay) * grad ** 2
    mom  = momentum * mom + learning_rate * grad / sqrt(ms + epsilon)
    var -= mom

With centered=True a third slot "mg" tracks the mean gradient and ms - mg ** 2 (an estimate
of the gradient's variance) replaces ms.

A sparse gradient (IndexedSlices) updates only its rows of the slots and of var
(SparseApplyRMSProp, SparseApplyCenteredRMSProp): the other rows' ms is not decayed and their
momentum does not move them.
"""
from ..framework.tensor import convert_to_tensor
from ..ops import sparse_training_ops, training_ops
from .optimizer import Optimizer, _cast

__all__ = ["RMSPropOptimizer"]


class RMSPropOptimizer(Optimizer):
    """Optimizer that implements the RMSProp algorithm."""

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._decay = decay
        self._momentum = momentum
        self._epsilon = epsilon
        self._centered = centered

    def _create_slots(self, var_list):
        for v in var_list:
            dtype = v.dtype.base_dtype
            if v.get_shape().is_fully_defined():
                from ..ops import init_ops
                self._get_or_make_slot_with_initializer(
                    v, init_ops.ones_initializer(dtype=dtype), v.get_shape(), dtype, "rms",
                    self._name)
            else:
                from ..ops import array_ops
                self._get_or_make_slot(v, array_ops.ones_like(v.initialized_value()), "rms",
                                       self._name)
            if self._centered:
                self._zeros_slot(v, "mg", self._name)
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")
        self._decay_tensor = convert_to_tensor(self._call_if_callable(self._decay), name="decay")
        self._momentum_tensor = convert_to_tensor(self._call_if_callable(self._momentum),
                                                  name="momentum")
        self._epsilon_tensor = convert_to_tensor(self._call_if_callable(self._epsilon),
                                                 name="epsilon")

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        rms = self.get_slot(var, "rms")
        mom = self.get_slot(var, "momentum")
        hyper = [_cast(t, dtype) for t in (self._learning_rate_tensor, self._decay_tensor,
                                           self._momentum_tensor, self._epsilon_tensor)]
        if self._centered:
            mg = self.get_slot(var, "mg")
            return training_ops.apply_centered_rms_prop(
                var, mg, rms, mom, *hyper, grad, use_locking=self._use_locking).op
        return training_ops.apply_rms_prop(var, rms, mom, *hyper, grad,
                                           use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        dtype = var.dtype.base_dtype
        rms = self.get_slot(var, "rms")
        mom = self.get_slot(var, "momentum")
        hyper = [_cast(t, dtype) for t in (self._learning_rate_tensor, self._decay_tensor,
                                           self._momentum_tensor, self._epsilon_tensor)]
        if self._centered:
            return sparse_training_ops.sparse_apply_centered_rms_prop(
                var, self.get_slot(var, "mg"), rms, mom, *hyper, grad.values, grad.indices,
                use_locking=self._use_locking).op
        return sparse_training_ops.sparse_apply_rms_prop(
            var, rms, mom, *hyper, grad.values, grad.indices,
            use_locking=self._use_locking).op
