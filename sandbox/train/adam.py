"""Adam -- mirrors `tf.train.AdamOptimizer` (python/training/adam.py).

Each variable gets two slots, "m" and "v" ('<var>/Adam' and '<var>/Adam_1'): running averages
of the gradient and of its square. Two more variables, "beta1_power" and "beta2_power", belong
to the optimizer itself (not to one variable); they hold beta1**t and beta2**t and correct the
averages' bias towards zero in the first steps. With t the step number:

    lr_t = learning_rate * sqrt(1 - beta2**t) / (1 - beta1**t)
    m    = beta1 * m + (1 - beta1) * grad
    v    = beta2 * v + (1 - beta2) * grad ** 2
    var -= lr_t * m / (sqrt(v) + epsilon)

beta1_power and beta2_power are multiplied by beta1 and beta2 in `_finish`, after all updates.

A sparse gradient (IndexedSlices) is applied as TF 1.15 does, with ops placed beside the
variable: m and v are decayed whole (m = m * beta1), the new rows are added with ScatterAdd,
and var takes the dense step lr_t * m / (sqrt(v) + epsilon). So Adam's sparse step equals its
dense one, and rows not in the batch still move while their m is not zero (TF's
LazyAdamOptimizer, in contrib, is the one that touches only the rows).
"""
from ..framework.graph import get_default_graph
from ..framework.tensor import convert_to_tensor
from ..ops import state_ops, training_ops
from .optimizer import Optimizer, _cast

__all__ = ["AdamOptimizer"]


class AdamOptimizer(Optimizer):
    """Optimizer that implements the Adam algorithm (Kingma and Ba, 2015)."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08,
                 use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon

    def _get_beta_accumulators(self):
        graph = get_default_graph()
        return (self._get_non_slot_variable("beta1_power", graph=graph),
                self._get_non_slot_variable("beta2_power", graph=graph))

    def _create_slots(self, var_list):
        # The beta powers live with the first variable (by name), so placement is predictable.
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power",
                                       colocate_with=first_var)
        self._create_non_slot_variable(initial_value=self._beta2, name="beta2_power",
                                       colocate_with=first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _prepare(self):
        self._lr_t = convert_to_tensor(self._call_if_callable(self._lr), name="learning_rate")
        self._beta1_t = convert_to_tensor(self._call_if_callable(self._beta1), name="beta1")
        self._beta2_t = convert_to_tensor(self._call_if_callable(self._beta2), name="beta2")
        self._epsilon_t = convert_to_tensor(self._call_if_callable(self._epsilon),
                                            name="epsilon")

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators()
        return training_ops.apply_adam(
            var, self.get_slot(var, "m"), self.get_slot(var, "v"),
            _cast(beta1_power, dtype), _cast(beta2_power, dtype), _cast(self._lr_t, dtype),
            _cast(self._beta1_t, dtype), _cast(self._beta2_t, dtype),
            _cast(self._epsilon_t, dtype), grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        from ..ops import basic_math_ops
        from ..ops.control_flow_ops import group
        g = get_default_graph()
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators()
        beta1_power, beta2_power = _cast(beta1_power, dtype), _cast(beta2_power, dtype)
        lr_t, beta1_t, beta2_t, epsilon_t = (_cast(t, dtype) for t in (
            self._lr_t, self._beta1_t, self._beta2_t, self._epsilon_t))
        lr = lr_t * basic_math_ops.sqrt(1 - beta2_power) / (1 - beta1_power)
        # m_t = beta1 * m + (1 - beta1) * g_t
        m = self.get_slot(var, "m")
        m_scaled_g_values = grad.values * (1 - beta1_t)
        m_t = state_ops.assign(m, m * beta1_t, use_locking=self._use_locking)
        with g.control_dependencies([m_t]):
            m_t = state_ops.scatter_add(m, grad.indices, m_scaled_g_values,
                                        use_locking=self._use_locking)
        # v_t = beta2 * v + (1 - beta2) * (g_t * g_t)
        v = self.get_slot(var, "v")
        v_scaled_g_values = (grad.values * grad.values) * (1 - beta2_t)
        v_t = state_ops.assign(v, v * beta2_t, use_locking=self._use_locking)
        with g.control_dependencies([v_t]):
            v_t = state_ops.scatter_add(v, grad.indices, v_scaled_g_values,
                                        use_locking=self._use_locking)
        v_sqrt = basic_math_ops.sqrt(v_t)
        var_update = state_ops.assign_sub(var, lr * m_t / (v_sqrt + epsilon_t),
                                          use_locking=self._use_locking)
        return group(*[var_update, m_t, v_t])

    def _finish(self, update_ops, name_scope):
        from ..ops.control_flow_ops import group
        g = get_default_graph()
        with g.control_dependencies(update_ops):
            beta1_power, beta2_power = self._get_beta_accumulators()
            with g.colocate_with(beta1_power):
                update_beta1 = beta1_power.assign(beta1_power * self._beta1_t,
                                                  use_locking=self._use_locking)
                update_beta2 = beta2_power.assign(beta2_power * self._beta2_t,
                                                  use_locking=self._use_locking)
        return group(*update_ops + [update_beta1, update_beta2], name=name_scope)
