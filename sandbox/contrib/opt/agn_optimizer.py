"""Accumulated Gradient Normalization (AGN; Hermans, ACML 2017) -- mirrors TF 1.15's
contrib/opt/python/training/agn_optimizer.py (`AGNCustomGetter`, `AGNOptimizer`).

Each worker trains its OWN copy of the model for `communication_period` steps, summing its
gradients meanwhile; then it sends the ps their mean -- one normalized, accumulated gradient --
which the optimizer applies to the global copy, and continues from the global copy:

    local  -= optimizer step(grad)          every step, on the worker
    accum  += grad                          every step, on the worker
    every communication_period steps:
        global -= optimizer step(accum / communication_period)     on the ps
        local   = global;  accum = 0;  global_step += 1

  * AGNCustomGetter(worker_device), the custom_getter of a variable scope inside
    replica_device_setter: each trainable get_variable makes the local copy `name` on
    worker_device (LOCAL_VARIABLES, trainable), `global_center_variable/name` where
    replica_device_setter puts it (a ps; GLOBAL_VARIABLES) and `grad_variable/name`, the
    gradient sum, on worker_device (LOCAL_VARIABLES) -- all three with the variable's
    initializer.
  * AGNOptimizer(optimizer, num_worker, custom_getter, communication_period=10): the same
    optimizer makes both steps; the variables it makes for the local step (its slots, Adam's
    beta powers) go to LOCAL_VARIABLES, those of the global step (slots of the global
    copies) stay global. apply_gradients counts `local_step` (a LOCAL int32 variable).
  * make_session_run_hook(is_chief, task_index): after its session is created, each worker
    copies the global variables into its local ones and zeroes its gradient sums.

Sandbox: TF's communication step is one tf.cond whose branch spans worker and ps; here it is
stages (cross_device_cond.py): the normalized sums cross to the ps as rows and are applied in
one If per ps, then the global step, then the global copies cross back to one If on the
worker -- only on the communication steps, as in TF.
"""
from ...framework.graph import GraphKeys, get_default_graph
from ...ops import array_ops, state_ops, variable_scope, variables
from ...ops.comparison_ops import equal
from ...ops.control_flow_ops import group
from ...ops.math_ops import floormod
from ...train.optimizer import Optimizer
from .cross_device_cond import apply_gradients_if, cond_per_device, rows_if
from .init_op_hook import InitOpHook

__all__ = ["AGNCustomGetter", "AGNOptimizer", "GLOBAL_VARIABLE_NAME", "GRAD_VARIABLE_NAME"]

GLOBAL_VARIABLE_NAME = "global_center_variable"
GRAD_VARIABLE_NAME = "grad_variable"


class AGNCustomGetter:
    """A custom_getter that gives each trainable variable a local copy and a gradient sum on
    the worker and a global copy on the ps (see the module docstring)."""

    def __init__(self, worker_device):
        """Args:
          worker_device: the worker's device (the local copies and gradient sums go there).
        """
        self._worker_device = worker_device
        self._global_map = {}
        self._grad_map = {}

    def __call__(self, getter, name, trainable, collections, *args, **kwargs):
        graph = get_default_graph()
        if not trainable:
            return getter(name, *args, trainable=trainable, collections=collections,
                          **kwargs)
        with graph.device(self._worker_device):
            local_var = getter(name, *args, trainable=True,
                               collections=[GraphKeys.LOCAL_VARIABLES], **kwargs)
        if kwargs.get("reuse") is True:
            return local_var
        global_center_variable = getter(
            "%s/%s" % (GLOBAL_VARIABLE_NAME, name), *args, trainable=False,
            collections=[GraphKeys.GLOBAL_VARIABLES], **kwargs)
        with graph.device(self._worker_device):
            grad_variable = getter(
                "%s/%s" % (GRAD_VARIABLE_NAME, name), *args, trainable=False,
                collections=[GraphKeys.LOCAL_VARIABLES], **kwargs)
        if kwargs.get("partitioner") is None:
            self._grad_map[local_var] = grad_variable
            self._global_map[local_var] = global_center_variable
        else:
            for part, grad_part, global_part in zip(list(local_var), list(grad_variable),
                                                    list(global_center_variable)):
                self._grad_map[part] = grad_part
                self._global_map[part] = global_part
        return local_var


class AGNOptimizer(Optimizer):
    """Wrapper that implements the Accumulated Gradient Normalization algorithm.

    Reference: Joeri Hermans, Accumulated Gradient Normalization, ACML 2017
    (https://arxiv.org/abs/1710.02368).
    """

    def __init__(self, optimizer, num_worker, custom_getter, communication_period=10,
                 use_locking=True, name="AGNOptimizer"):
        """Args:
          optimizer: the optimizer of both steps (sgd, momentum, adam ...).
          num_worker: the number of workers.
          custom_getter: the AGNCustomGetter the model was built with.
          communication_period: the local steps between two communications with the ps.
          use_locking: if True use locks for the update operations.
          name: name prefix of the operations.
        """
        super().__init__(use_locking, name)
        self._opt = optimizer
        self._num_worker = num_worker
        self._period = communication_period
        self._global_map = custom_getter._global_map
        self._grad_map = custom_getter._grad_map
        self._local_step = variable_scope.get_variable(
            initializer=0, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
            name="local_step")
        self._opt._prepare()

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The local step, the gradient sums and -- every communication_period steps -- the
        global step (module docstring). Returns the op that does it all."""
        grads_and_vars = list(grads_and_vars)
        graph = get_default_graph()
        local_vars = [v for g, v in grads_and_vars if g is not None]
        grads = [g for g, v in grads_and_vars if g is not None]

        def _variable_creator(next_creator, collections=None, **kwargs):
            if not collections:
                collections = [GraphKeys.LOCAL_VARIABLES]
            elif GraphKeys.GLOBAL_VARIABLES in collections:
                collections = list(collections)
                collections.append(GraphKeys.LOCAL_VARIABLES)
                collections.remove(GraphKeys.GLOBAL_VARIABLES)
            return next_creator(collections=collections, **kwargs)
        # theta = theta - lr * grad
        with variable_scope.variable_creator_scope(_variable_creator):
            local_update_op = self._opt.apply_gradients(grads_and_vars)

        # a = a + grad
        update_ops = [local_update_op]
        grad_vars = [self._grad_map[var] for var in local_vars]
        for g, grad_var in zip(grads, grad_vars):
            update_ops.append(state_ops.assign_add(grad_var, g))
        global_center_vars = [self._global_map[var] for var in local_vars]

        local_update = state_ops.assign_add(self._local_step, 1,
                                            name="local_step_update").op
        with graph.control_dependencies([local_update]):
            condition = equal(floormod(self._local_step, self._period), 0)
        with graph.control_dependencies(update_ops):
            return self._update_global_variables(condition, local_vars, grad_vars,
                                                 global_center_vars, global_step)

    def _update_global_variables(self, condition, local_vars, grad_vars, global_center_vars,
                                 global_step):
        """TF's `cond(condition, _Update_global_variables, no_op)`, in stages."""
        graph = get_default_graph()
        # a = a / t, sent to the ps as rows; there the optimizer applies it to the global
        # copies, then the global step counts the communication.
        normalized = [grad_var.read_value() / self._period for grad_var in grad_vars]
        applied = apply_gradients_if(self._opt, condition,
                                     list(zip(normalized, global_center_vars)),
                                     global_step=global_step, rows=True)
        # pull: the global copies cross back; the local copies take them, the sums restart.
        with graph.control_dependencies([applied]):
            global_rows = []
            for gvar in global_center_vars:
                with graph.colocate_with(gvar):
                    global_rows.append(rows_if(condition, gvar.read_value()))
        work = []
        for lvar, grad_var, rows in zip(local_vars, grad_vars, global_rows):
            work.append((lvar.device, lambda v=lvar, r=rows: state_ops.assign(v, r[0])))
            work.append((grad_var.device, lambda g=grad_var: state_ops.assign(
                g, array_ops.zeros_like(g))))
        return group(*cond_per_device(condition, work, name="pull"))

    def get_init_op(self, task_index):
        """The op that sets every local variable to its global copy and zeroes the gradient
        sums, before the training begins."""
        init_ops = []
        local_vars = variables.trainable_variables()
        global_center_vars = [self._global_map[var] for var in local_vars]
        grad_vars = [self._grad_map[var] for var in local_vars]
        if not (local_vars and global_center_vars and grad_vars):
            raise ValueError("The lists of local_variables, global_center_variables,"
                             "grad_center_variables should not be empty")
        for lvar, gc_var in zip(local_vars, global_center_vars):
            init_ops.append(state_ops.assign(lvar, gc_var))
        for g in grad_vars:
            init_ops.append(state_ops.assign(g, array_ops.zeros_like(g)))
        return group(*init_ops)

    def make_session_run_hook(self, is_chief, task_index):
        """Creates a hook to handle AGNOptimizerHook ops such as initialization."""
        return InitOpHook(self, is_chief, task_index)
