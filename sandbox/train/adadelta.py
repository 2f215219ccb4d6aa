"""AdadeltaOptimizer -- mirrors TensorFlow 1.x's `tf.train.AdadeltaOptimizer`
(python/training/adadelta.py; Zeiler 2012, "ADADELTA: an adaptive learning rate method").

Each variable gets two zero-started slots: "accum" ('<var>/Adadelta'), a running average of
squared gradients, and "accum_update" ('<var>/Adadelta_1'), a running average of squared
updates. The step size adapts per weight -- the ratio of the two RMS values -- so the
learning rate (default 0.001, as in TF; the paper uses 1.0) only scales it:

    accum        = rho * accum + (1 - rho) * grad ** 2
    update       = sqrt(accum_update + epsilon) / sqrt(accum + epsilon) * grad
    var         -= learning_rate * update
    accum_update = rho * accum_update + (1 - rho) * update ** 2

One fused op (ApplyAdadelta, ops/training_ops.py) does all four, on the task holding the
variable. A sparse gradient (tf.IndexedSlices, from an embedding lookup) goes to
SparseApplyAdadelta, which updates only the looked-up rows and their slots' rows.
"""
from ..framework.tensor import convert_to_tensor
from ..ops import training_ops
from .optimizer import Optimizer, _cast

__all__ = ["AdadeltaOptimizer"]


class AdadeltaOptimizer(Optimizer):
    """Optimizer that implements the Adadelta algorithm."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False,
                 name="Adadelta"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._rho = rho
        self._epsilon = epsilon

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "accum", self._name)
            self._zeros_slot(v, "accum_update", self._name)

    def _prepare(self):
        self._lr_t = convert_to_tensor(self._call_if_callable(self._lr), name="lr")
        self._rho_t = convert_to_tensor(self._call_if_callable(self._rho), name="rho")
        self._epsilon_t = convert_to_tensor(self._call_if_callable(self._epsilon),
                                            name="epsilon")

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        return training_ops.apply_adadelta(
            var, self.get_slot(var, "accum"), self.get_slot(var, "accum_update"),
            _cast(self._lr_t, dtype), _cast(self._rho_t, dtype), _cast(self._epsilon_t, dtype),
            grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        """Only the rows of grad.indices (an embedding's looked-up rows) change, slots too."""
        dtype = var.dtype.base_dtype
        return training_ops.sparse_apply_adadelta(
            var, self.get_slot(var, "accum"), self.get_slot(var, "accum_update"),
            _cast(self._lr_t, dtype), _cast(self._rho_t, dtype), _cast(self._epsilon_t, dtype),
            grad.values, grad.indices, use_locking=self._use_locking).op
