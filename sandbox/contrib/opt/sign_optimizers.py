"""AddSign and PowerSign (Bello et al., "Neural Optimizer Search with Reinforcement
Learning") -- mirror TF 1.15's contrib/opt/python/training/addsign.py and powersign.py.

Both keep a running average m of the gradient (slot "m") and scale the gradient up when its
sign agrees with m's, down when it disagrees:

    m   = beta * m + (1 - beta) * grad
    s   = sign_decay * sign(grad) * sign(m)
    AddSign:    var -= lr * (alpha + s) * grad
    PowerSign:  var -= lr * exp(log(base) * s) * grad        (= base ** s)

sign_decay is 1, or sign_decay_fn(global_step) when a function is given (TF's
sign_decay.py has linear / cosine / restart schedules; not implemented here). TF fuses each
update into one ApplyAddSign / ApplyPowerSign op; the sandbox builds it from assign ops. A
sparse gradient is made dense first (the base Optimizer's rule).
"""
import math

from ...framework.graph import get_default_graph
from ...framework.tensor import convert_to_tensor
from ...ops import basic_math_ops, state_ops
from ...ops.control_flow_ops import group
from ...train.optimizer import Optimizer, _cast

__all__ = ["AddSignOptimizer", "PowerSignOptimizer"]


class _SignOptimizer(Optimizer):
    """What AddSign and PowerSign share: the slot m, beta, sign_decay and the update; the
    subclass gives `_multiplier(sign_agreement, dtype)`."""

    def __init__(self, learning_rate, beta, sign_decay_fn, use_locking, name):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta = beta
        self._sign_decay_fn = sign_decay_fn
        self._sign_decay_t = None

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        if self._sign_decay_fn is not None:
            self._sign_decay_t = convert_to_tensor(self._sign_decay_fn(global_step),
                                                   name="sign_decay")
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "m", self._name)

    def _prepare(self):
        self._lr_t = convert_to_tensor(self._call_if_callable(self._lr), name="learning_rate")
        self._beta_t = convert_to_tensor(self._call_if_callable(self._beta), name="beta")
        if self._sign_decay_fn is None:
            self._sign_decay_t = convert_to_tensor(1.0, name="sign_decay")

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        lr_t, beta_t, sign_decay_t = (_cast(t, dtype) for t in (
            self._lr_t, self._beta_t, self._sign_decay_t))
        m = self.get_slot(var, "m")
        m_t = state_ops.assign(m, m * beta_t + grad * (1 - beta_t),
                               use_locking=self._use_locking)
        sign_agreement = sign_decay_t * basic_math_ops.sign(grad) * basic_math_ops.sign(m_t)
        with get_default_graph().control_dependencies([m_t]):
            var_update = state_ops.assign_sub(
                var, lr_t * self._multiplier(sign_agreement, dtype) * grad,
                use_locking=self._use_locking)
        return group(var_update, m_t)


class AddSignOptimizer(_SignOptimizer):
    """var -= lr * (alpha + sign_decay * sign(grad) * sign(m)) * grad."""

    def __init__(self, learning_rate=0.1, alpha=1.0, beta=0.9, sign_decay_fn=None,
                 use_locking=False, name="AddSignOptimizer"):
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._alpha = alpha

    def _prepare(self):
        super()._prepare()
        self._alpha_t = convert_to_tensor(self._call_if_callable(self._alpha), name="alpha")

    def _multiplier(self, sign_agreement, dtype):
        return _cast(self._alpha_t, dtype) + sign_agreement


class PowerSignOptimizer(_SignOptimizer):
    """var -= lr * base ** (sign_decay * sign(grad) * sign(m)) * grad."""

    def __init__(self, learning_rate=0.1, base=math.e, beta=0.9, sign_decay_fn=None,
                 use_locking=False, name="PowerSignOptimizer"):
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._base = base

    def _prepare(self):
        super()._prepare()
        self._logbase_t = convert_to_tensor(math.log(self._call_if_callable(self._base)),
                                            name="logbase")

    def _multiplier(self, sign_agreement, dtype):
        return basic_math_ops.exp(_cast(self._logbase_t, dtype) * sign_agreement)
