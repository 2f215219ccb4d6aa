"""Model averaging -- mirrors TF 1.15's contrib/opt/python/training/model_average_optimizer.py
(`ModelAverageCustomGetter`, `ModelAverageOptimizer`).

Each worker trains its OWN copy of the model, on the worker, with no communication at all for
`interval_steps` steps; then the workers meet: the average of their copies becomes the global
model (on the ps), and every worker continues from it. Synchronous -- every worker waits for
the others at each meeting -- but with interval_steps times fewer meetings than
SyncReplicasOptimizer has rounds.

  * ModelAverageCustomGetter(worker_device), the custom_getter of a variable scope inside
    replica_device_setter: each trainable get_variable makes the local copy `name` on
    worker_device (LOCAL_VARIABLES, trainable) and `global_center_variable/name` where
    replica_device_setter puts it (a ps; GLOBAL_VARIABLES, not trainable), initialized to the
    local copy's initial value.
  * ModelAverageOptimizer(opt, num_worker, is_chief, ma_custom_getter, interval_steps=100):
    apply_gradients applies `opt` to the local copies, adds 1 to `local_step` (a LOCAL int32
    variable) and, when local_step % interval_steps == 0:
      1. each worker pushes its local copies into one ConditionalAccumulator per variable on
         the ps (shared name '<global variable>:0/var_accum'), tagged with the global step;
      2. the chief takes the mean of num_worker of them into each global variable, adds 1 to
         the global step and puts num_worker - 1 tokens into 'sync_queue' (a FIFOQueue beside
         the global step); each other worker waits for a token -- the barrier;
      3. every worker copies the global variables into its local copies.
    The global step counts the averagings. apply_gradients requires it.
  * make_session_run_hook(): TF 1.15's hook builds, in begin(), the initialization ops -- the
    local and global initializers, get_init_op() (local copies := global variables) and, on
    the chief, chief_init_op (each accumulator's global step := the global step) -- and runs
    none of them (the sandbox keeps that: a MonitoredTrainingSession initializes the
    variables as usual, each local copy from its own initializer).

    ma = ModelAverageCustomGetter(worker_device)
    with tf.device(tf.train.replica_device_setter(worker_device=worker_device,
                                                  cluster=cluster)), \\
            tf.variable_scope("", custom_getter=ma):
        global_step = tf.train.get_or_create_global_step()
        ...model built with tf.get_variable...
    opt = ModelAverageOptimizer(tf.train.GradientDescentOptimizer(0.1), num_worker=2,
                                is_chief=is_chief, ma_custom_getter=ma, interval_steps=10)
    train_op = opt.minimize(loss, global_step=global_step)

Sandbox: TF's averaging is one tf.cond whose branch spans worker and ps; here it is stages
(cross_device_cond.py) -- the accumulators in one If per ps, the barrier in one If beside the
global step, the copy back in one If on the worker -- and the models cross the wire only on
the averaging steps, as in TF.
"""
from ...framework import dtypes
from ...framework.graph import GraphKeys, get_default_graph, name_scope
from ...ops import array_ops, state_ops, variable_scope, variables
from ...ops.accumulator_ops import ConditionalAccumulator
from ...ops.comparison_ops import equal
from ...ops.constant_op import constant
from ...ops.control_flow_ops import group
from ...ops.data_flow_ops import FIFOQueue
from ...ops.math_ops import floormod
from ...train.optimizer import Optimizer
from ...train.session_run_hook import SessionRunHook
from .cross_device_cond import cond_on, cond_per_device, rows_if

__all__ = ["ModelAverageCustomGetter", "ModelAverageOptimizer", "GLOBAL_VARIABLE_NAME"]

GLOBAL_VARIABLE_NAME = "global_center_variable"


class ModelAverageCustomGetter:
    """A custom_getter that gives each trainable variable a local copy on the worker and a
    global version on the ps (see the module docstring). Use it with
    tf.train.replica_device_setter and tf.get_variable.
    """

    def __init__(self, worker_device):
        """Args:
          worker_device: the worker's device, e.g. "/job:worker/task:0".
        """
        self._worker_device = worker_device
        self._local_2_global = {}

    def __call__(self, getter, name, trainable, collections, *args, **kwargs):
        graph = get_default_graph()
        if trainable:
            with graph.device(self._worker_device):
                local_var = getter(name, *args, trainable=True,
                                   collections=[GraphKeys.LOCAL_VARIABLES], **kwargs)
            global_variable = variables.Variable(
                name="%s/%s" % (GLOBAL_VARIABLE_NAME, name),
                initial_value=local_var.initialized_value(), trainable=False,
                collections=[GraphKeys.GLOBAL_VARIABLES])
            self._local_2_global[local_var] = global_variable
            return local_var
        kwargs["trainable"] = trainable
        kwargs["collections"] = collections
        if collections and GraphKeys.LOCAL_VARIABLES in collections:
            with graph.device(self._worker_device):
                return getter(name, *args, **kwargs)
        return getter(name, *args, **kwargs)


class ModelAverageOptimizer(Optimizer):
    """Wrapper optimizer that implements the Model Average algorithm.

    Synchronous: each worker updates its local variables and counts its own local_step, from
    0, +1 per update. Whenever interval_steps divides the local step, the local variables of
    all the workers are averaged into the global variables, which the local variables then
    take.
    """

    def __init__(self, opt, num_worker, is_chief, ma_custom_getter, interval_steps=100,
                 use_locking=True, name="ModelAverageOptimizer"):
        """Args:
          opt: the optimizer of the local variables.
          num_worker: the number of workers (all of them take part in each average).
          is_chief: whether this is the chief worker (it computes the averages).
          ma_custom_getter: the ModelAverageCustomGetter the model was built with.
          interval_steps: the local steps between two averages.
          use_locking: if True use locks for the update operations.
          name: name prefix of the operations.
        """
        super().__init__(use_locking, name)
        self._opt = opt
        self._num_worker = num_worker
        self._is_chief = is_chief
        self._local_2_global = ma_custom_getter._local_2_global
        self._interval_steps = interval_steps
        self._accumulator_list = []
        self._chief_init_op = None
        self._local_step = variable_scope.get_variable(
            initializer=0, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
            name="local_step")
        self._opt._prepare()

    def compute_gradients(self, *args, **kwargs):
        """The wrapped optimizer's compute_gradients."""
        return self._opt.compute_gradients(*args, **kwargs)

    def _local_vars_update(self, var_list):
        """The op that copies the global variables into the local ones of `var_list`."""
        if not var_list:
            raise ValueError("The list of local_variables should not be empty")
        graph = get_default_graph()
        update_ops = []
        for lvar in var_list:
            gvar = self._local_2_global[lvar]
            with graph.device(lvar.device):
                update_ops.append(state_ops.assign(lvar, gvar.read_value()))
        return group(*update_ops)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the wrapped optimizer to the local variables, counts the local step and,
        every interval_steps steps, averages the workers' variables (module docstring).

        Raises:
          ValueError: if grads_and_vars is empty or global_step is None.
        """
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required")
        grads_and_vars = list(grads_and_vars)
        graph = get_default_graph()
        apply_updates = self._opt.apply_gradients(grads_and_vars)
        with graph.control_dependencies([apply_updates]):
            local_update = state_ops.assign_add(self._local_step, 1,
                                                name="local_step_update").op
        with graph.control_dependencies([local_update]):
            condition = equal(floormod(self._local_step, self._interval_steps), 0)
            conditional_update = self._update_global_variables(condition, grads_and_vars,
                                                               global_step)
        chief_init_ops = []
        for accum, dev in self._accumulator_list:
            with graph.device(dev):
                chief_init_ops.append(accum.set_global_step(global_step, name="SetGlobalStep"))
        self._chief_init_op = group(*chief_init_ops)
        return conditional_update

    def _update_global_variables(self, condition, grads_and_vars, global_step):
        """TF's `cond(condition, _update_global_variables, no_op)`, in stages."""
        graph = get_default_graph()
        local_vars = [v for g, v in grads_and_vars if g is not None]
        global_vars = [self._local_2_global[v] for v in local_vars]

        def accumulator(var, gvar):
            return ConditionalAccumulator(var.dtype, shape=var.get_shape(),
                                          shared_name=gvar.name + "/var_accum")
        with name_scope(None, self._name + "/global"):
            for var, gvar in zip(local_vars, global_vars):
                with graph.device(gvar.device):
                    self._accumulator_list.append((accumulator(var, gvar), gvar.device))

        # 1. The local values and the global step cross to the ps only to be averaged.
        value_rows = []
        for var in local_vars:
            with graph.colocate_with(var):
                value_rows.append(rows_if(condition, var.read_value()))
        with graph.colocate_with(global_step):
            step_rows = rows_if(condition, global_step.read_value())

        # 2. On each ps: every worker pushes its values; the chief takes their mean (it
        #    waits for num_worker of them) into the global variables.
        def push(var, gvar, rows):
            accum = accumulator(var, gvar)        # the same one: found by its shared name
            pushed = accum.apply_grad(rows[0], local_step=step_rows[0])
            if not self._is_chief:
                return pushed
            with get_default_graph().control_dependencies([pushed]):
                return state_ops.assign(gvar, accum.take_grad(self._num_worker))
        averaged = cond_per_device(
            condition, [(gvar.device, lambda v=var, g=gvar, r=rows: push(v, g, r))
                        for var, gvar, rows in zip(local_vars, global_vars, value_rows)],
            name="average")

        # 3. Beside the global step: the chief counts the averaging and releases the other
        #    workers with num_worker - 1 tokens; each of them waits for one.
        def barrier():
            sync_queue = FIFOQueue(-1, [dtypes.bool], shapes=[[]], shared_name="sync_queue")
            if not self._is_chief:
                return group(sync_queue.dequeue())
            step = state_ops.assign_add(global_step, 1)
            with get_default_graph().control_dependencies([step]):
                tokens = array_ops.fill([self._num_worker - 1], constant(False))
                return sync_queue.enqueue_many(tokens)
        with graph.control_dependencies(averaged):
            synced = cond_on(global_step.device, condition, barrier, name="sync")

        # 4. The averages cross back; each worker copies them into its local variables.
        with graph.control_dependencies([synced]):
            global_rows = []
            for gvar in global_vars:
                with graph.colocate_with(gvar):
                    global_rows.append(rows_if(condition, gvar.read_value()))
        return group(*cond_per_device(
            condition, [(var.device, lambda v=var, r=rows: state_ops.assign(v, r[0]))
                        for var, rows in zip(local_vars, global_rows)],
            name="local_update"))

    def get_init_op(self):
        """The op that sets every local variable to its global variable."""
        return self._local_vars_update(variables.trainable_variables())

    def make_session_run_hook(self):
        """Creates a hook to handle ModelAverage ops such as initialization."""
        return _ModelAverageOptimizerHook(self, self._is_chief)


class _ModelAverageOptimizerHook(SessionRunHook):
    """TF 1.15's hook: begin() builds the initialization ops; nothing runs them."""

    def __init__(self, ma_optimizer, is_chief):
        self._ma_optimizer = ma_optimizer
        self._is_chief = is_chief

    def begin(self):
        self._local_init_op = variables.local_variables_initializer()
        self._global_init_op = None
        if self._is_chief:
            self._global_init_op = variables.global_variables_initializer()
            self._chief_init_op = self._ma_optimizer._chief_init_op
        self._variable_init_op = self._ma_optimizer.get_init_op()
