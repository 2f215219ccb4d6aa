"""DropStaleGradientOptimizer -- mirrors TF 1.15's
contrib/opt/python/training/drop_stale_gradient_optimizer.py.

In asynchronous training a worker reads the variables, computes its gradients, and applies them
-- meanwhile the other workers have applied theirs, so its gradients were computed from
parameters that are already `global_step - step read` updates old: they are *stale*. This
wrapper drops the gradients of a step that is too stale instead of applying them:

    opt = tf.contrib.opt.DropStaleGradientOptimizer(
        tf.train.GradientDescentOptimizer(0.1), staleness=2)
    train_op = opt.minimize(loss, global_step=global_step)

  * compute_gradients first records the global step the worker reads (its "local step", a
    read of global_step made before the loss is computed: the gradients wait for it);
  * apply_gradients computes staleness = global_step - local_step once the gradients are
    done. If staleness <= `staleness` the wrapped optimizer applies them (and increments the
    global step); else nothing is updated, and `stale_counter` -- a float variable beside the
    global step, not trained -- grows by 1. The returned op is that counter's assign_add (its
    value: the number of steps dropped so far), and a summary
    'Gradient staleness percentage' reports stale_counter / (global_step + 1).

staleness=0 accepts only a gradient computed from the newest parameters; a negative staleness
drops every step.

Sandbox: TF 1.15 applies the gradients inside one tf.cond; here the update is one If per device
of the variables, then the global step (cross_device_cond.py), with the gradients sent to the ps
only when they are applied -- the values, variable and summary are TF's. The wrapped optimizer
must be a standard one (GradientDescent, Momentum, Adam ...: see apply_gradients_if).
"""
from ...framework import dtypes
from ...framework.graph import get_default_graph
from ...framework.indexed_slices import IndexedSlices
from ...framework.tensor import Tensor
from ...ops import array_ops, init_ops, math_ops, variable_scope
from ...ops.comparison_ops import less_equal
from ...ops.control_flow_ops import identity
from ...ops.summary_ops import scalar as _scalar_summary
from ...train import training_util
from ...train.optimizer import Optimizer
from .cross_device_cond import apply_gradients_if

__all__ = ["DropStaleGradientOptimizer"]


class DropStaleGradientOptimizer(Optimizer):
    """Wrapper optimizer that checks and drops stale gradients.

    It records the global step of each worker before the gradients are computed and compares
    it with the global step when they are applied: if the difference is larger than
    `staleness`, all the computed gradients of that step are dropped.
    """

    def __init__(self, opt, staleness, use_locking=False, name="DropStaleGradient"):
        """Args:
          opt: the optimizer that computes and applies the gradients.
          staleness: the largest staleness accepted.
          use_locking: if True use locks for the update operations.
          name: name prefix of the operations (default "DropStaleGradient").
        """
        super().__init__(use_locking, name)
        self._opt = opt
        self._staleness = staleness
        self._local_step = None

    def compute_gradients(self, loss, *args, **kwargs):
        """The wrapped optimizer's gradients, computed after this worker has recorded the
        global step it reads (its local step)."""
        graph = get_default_graph()
        global_step = training_util.get_global_step()
        if global_step is None:
            raise ValueError("DropStaleGradientOptimizer needs a global step to measure "
                             "staleness: create one (tf.train.get_or_create_global_step()) "
                             "before compute_gradients / minimize.")
        with graph.colocate_with(loss):
            self._local_step = global_step.read_value() + 0
        with graph.control_dependencies([self._local_step]):
            loss = identity(loss)
            return self._opt.compute_gradients(loss, *args, **kwargs)

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients with the wrapped optimizer if they are fresh enough, else
        counts the step as dropped. Returns the stale counter's assign_add."""
        if self._local_step is None:
            raise ValueError("DropStaleGradientOptimizer.apply_gradients needs the local step "
                             "that its compute_gradients records: call compute_gradients "
                             "(or minimize) of this optimizer first.")
        if global_step is None:
            raise ValueError("DropStaleGradientOptimizer.apply_gradients needs the "
                             "global_step, to measure the staleness of the gradients.")
        grads_and_vars = list(grads_and_vars)
        graph = get_default_graph()
        # Number of stale gradients.
        with graph.colocate_with(global_step):
            stale_counter = variable_scope.get_variable(
                "stale_counter", [], initializer=init_ops.zeros_initializer(),
                trainable=False)

        gradients = []
        for grad, _ in grads_and_vars:
            if isinstance(grad, Tensor):
                gradients.append(grad)
            elif isinstance(grad, IndexedSlices):
                gradients.append(grad.values.op)
            elif grad is not None:
                gradients.append(grad.op)
        with graph.control_dependencies(gradients), graph.colocate_with(global_step):
            staleness = array_ops.reshape(global_step.read_value() - self._local_step,
                                          shape=())
        accept = less_equal(staleness, self._staleness)
        update = apply_gradients_if(self._opt, accept, grads_and_vars,
                                    global_step=global_step, name=name, rows=True)
        with graph.control_dependencies([update]):
            dropped = 1.0 - math_ops.cast(accept, dtypes.float32)
        conditional_update = stale_counter.assign_add(dropped)

        _scalar_summary("Gradient staleness percentage",
                        stale_counter / math_ops.cast(global_step.read_value() + 1,
                                                      dtypes.float32))
        return conditional_update
