"""LazyAdam -- mirrors TF 1.15's contrib/opt/python/training/lazy_adam_optimizer.py.

tf.train.AdamOptimizer applied to a sparse gradient (an embedding's IndexedSlices) still
decays m and v of every row, and moves every row whose m is not zero: each step costs the
whole table. LazyAdam updates only the rows in the gradient -- their m, v and value:

    m[rows] = beta1 * m[rows] + (1 - beta1) * g
    v[rows] = beta2 * v[rows] + (1 - beta2) * g * g
    var[rows] -= lr_t * m[rows] / (sqrt(v[rows]) + epsilon)

Dense gradients get plain Adam. (Rows not seen keep stale m and v: this is not Adam any
more, but usually works as well for large embeddings, much faster.)
"""
from ...ops import basic_math_ops, state_ops
from ...ops.control_flow_ops import group
from ...ops.indexing_ops import gather
from ...train.adam import AdamOptimizer
from ...train.optimizer import _cast

__all__ = ["LazyAdamOptimizer"]


class LazyAdamOptimizer(AdamOptimizer):
    """Adam whose sparse updates touch only the rows of the gradient (name 'Adam', as TF)."""

    def _apply_sparse(self, grad, var):
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = (_cast(p, dtype) for p in self._get_beta_accumulators())
        lr_t, beta1_t, beta2_t, epsilon_t = (_cast(t, dtype) for t in (
            self._lr_t, self._beta1_t, self._beta2_t, self._epsilon_t))
        lr = lr_t * basic_math_ops.sqrt(1 - beta2_power) / (1 - beta1_power)
        m = self.get_slot(var, "m")
        m_t = state_ops.scatter_update(
            m, grad.indices,
            beta1_t * gather(m, grad.indices) + (1 - beta1_t) * grad.values,
            use_locking=self._use_locking)
        v = self.get_slot(var, "v")
        v_t = state_ops.scatter_update(
            v, grad.indices,
            beta2_t * gather(v, grad.indices) + (1 - beta2_t) * (grad.values * grad.values),
            use_locking=self._use_locking)
        m_t_slice = gather(m_t, grad.indices)
        v_t_slice = gather(v_t, grad.indices)
        denominator_slice = basic_math_ops.sqrt(v_t_slice) + epsilon_t
        var_update = state_ops.scatter_sub(var, grad.indices, lr * m_t_slice / denominator_slice,
                                           use_locking=self._use_locking)
        return group(var_update, m_t, v_t)
