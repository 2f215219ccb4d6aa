"""Decoupled weight decay (Loshchilov & Hutter, "Decoupled Weight Decay Regularization") --
mirrors TF 1.15's contrib/opt/python/training/weight_decay_optimizers.py.

An L2 penalty added to the loss goes through the optimizer's gradient scaling (for Adam it
is divided by sqrt(v), so heavily-updated weights are barely regularized). Decoupled weight
decay shrinks the variable directly, before the optimizer's own step:

    var <- var - weight_decay * var          (not multiplied by the learning rate!)
    var <- var - optimizer_step(grad)        (grad computed at the old var)

so AdamW's step is  var = var * (1 - weight_decay) - lr_t * m / (sqrt(v) + epsilon).
`decay_var_list` (given to apply_gradients) limits the decay to some variables. TF 1.15's
quirk is kept: minimize(decay_var_list=...) records the list, but minimize then calls
apply_gradients, which resets it -- so through minimize every variable decays. Pass the list
to apply_gradients (after compute_gradients) to restrict the decay.
"""
from ...framework.graph import get_default_graph
from ...framework.tensor import convert_to_tensor
from ...ops import state_ops
from ...ops.control_flow_ops import no_op
from ...ops.indexing_ops import gather
from ...train.adam import AdamOptimizer
from ...train.momentum import MomentumOptimizer
from ...train.optimizer import Optimizer

__all__ = ["DecoupledWeightDecayExtension", "extend_with_decoupled_weight_decay",
           "AdamWOptimizer", "MomentumWOptimizer"]


class DecoupledWeightDecayExtension:
    """Mix-in placed before an Optimizer class: adds the weight decay to its updates."""

    def __init__(self, weight_decay, **kwargs):
        self._decay_var_list = None   # set by minimize / apply_gradients
        self._weight_decay = weight_decay
        self._weight_decay_tensor = None
        super().__init__(**kwargs)

    def minimize(self, loss, global_step=None, var_list=None,
                 gate_gradients=Optimizer.GATE_OP, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None,
                 decay_var_list=None):
        # As in TF 1.15, apply_gradients (called by minimize) sets the list again (to none).
        self._decay_var_list = set(decay_var_list) if decay_var_list else False
        return super().minimize(
            loss, global_step=global_step, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, name=name,
            grad_loss=grad_loss)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None,
                        decay_var_list=None):
        self._decay_var_list = set(decay_var_list) if decay_var_list else False
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _prepare(self):
        self._weight_decay_tensor = convert_to_tensor(
            self._call_if_callable(self._weight_decay), name="weight_decay")
        super()._prepare()

    def _decays(self, var):
        return not self._decay_var_list or var in self._decay_var_list

    def _decay_weights_op(self, var):
        if self._decays(var):
            return state_ops.assign_sub(var, self._weight_decay * var, self._use_locking)
        return no_op()

    def _decay_weights_sparse_op(self, var, indices):
        """Only the rows of the sparse gradient decay."""
        if self._decays(var):
            update = -self._weight_decay * gather(var, indices)
            return state_ops.scatter_add(var, indices, update, self._use_locking)
        return no_op()

    def _apply_dense(self, grad, var):
        with get_default_graph().control_dependencies([self._decay_weights_op(var)]):
            return super()._apply_dense(grad, var)

    def _apply_sparse(self, grad, var):
        decay_op = self._decay_weights_sparse_op(var, grad.indices)
        with get_default_graph().control_dependencies([decay_op]):
            return super()._apply_sparse(grad, var)


def extend_with_decoupled_weight_decay(base_optimizer):
    """A subclass of `base_optimizer` whose constructor takes `weight_decay` first:
    extend_with_decoupled_weight_decay(tf.train.AdamOptimizer)(weight_decay=1e-4, ...)."""

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension, base_optimizer):
        def __init__(self, weight_decay, *args, **kwargs):
            super().__init__(weight_decay, *args, **kwargs)

    return OptimizerWithDecoupledWeightDecay


class MomentumWOptimizer(DecoupledWeightDecayExtension, MomentumOptimizer):
    """Momentum with decoupled weight decay:  var = var * (1 - weight_decay) - lr * accum."""

    def __init__(self, weight_decay, learning_rate, momentum, use_locking=False,
                 name="MomentumW", use_nesterov=False):
        super().__init__(weight_decay, learning_rate=learning_rate, momentum=momentum,
                         use_locking=use_locking, name=name, use_nesterov=use_nesterov)


class AdamWOptimizer(DecoupledWeightDecayExtension, AdamOptimizer):
    """Adam with decoupled weight decay (AdamW)."""

    def __init__(self, weight_decay, learning_rate=0.001, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, use_locking=False, name="AdamW"):
        super().__init__(weight_decay, learning_rate=learning_rate, beta1=beta1, beta2=beta2,
                         epsilon=epsilon, use_locking=use_locking, name=name)
