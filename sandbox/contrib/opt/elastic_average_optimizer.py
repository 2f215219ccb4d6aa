"""Elastic Averaging SGD (EASGD; Zhang, Choromanska & LeCun 2015) -- mirrors TF 1.15's
contrib/opt/python/training/elastic_average_optimizer.py (`ElasticAverageCustomGetter`,
`ElasticAverageOptimizer`).

Each worker trains its OWN copy of the model, on the worker, and only every
`communication_period` steps talks to the ps, where a *center* copy lives. Then worker and
center are pulled towards each other by an elastic force:

    diff   = local - center
    local  = local  - moving_rate * diff
    center = center + moving_rate * diff

so the workers may explore apart (rho, below, sets how far) and the center is their moving
average. The pieces:

  * ElasticAverageCustomGetter(worker_device), used as the custom_getter of a variable scope
    inside replica_device_setter. Each trainable get_variable makes three variables:
      name                          the local copy: on worker_device, LOCAL_VARIABLES,
                                    trainable (the optimizer trains it);
      global_center_variable/name   the center: where replica_device_setter puts it (a ps),
                                    GLOBAL_VARIABLES, not trainable;
      local_center_variable/name    the center as the worker last saw it: on worker_device,
                                    LOCAL_VARIABLES, not trainable.
    Non-trainable variables (the global step) are made as asked.
  * ElasticAverageOptimizer(opt, num_worker, ea_custom_getter, communication_period=10,
    moving_rate=None, rho=None, synchronous=False): moving_rate defaults to
    BETA / communication_period / num_worker (BETA = 0.9, the paper's), rho to
    moving_rate / learning rate. compute_gradients adds rho * sum(l2_loss(local - local
    center)) to the loss (the elastic penalty; rho=0 turns it off). apply_gradients applies
    `opt` to the local copies, adds 1 to `local_step` (a LOCAL variable, int32), and when
    local_step % communication_period == 0 does the elastic update above -- with
    local_center := center first -- and increments the global step: in EASGD the global step
    counts communications, not steps.
  * make_session_run_hook(is_chief, task_index): after its session is created, each worker
    copies the center into its local copy and its local center (get_init_op); with
    synchronous=True they then wait for each other (one queue per worker on the ps).
  * swapping_saver(): a Saver that saves the centers under the local names, so the model
    restores into an ordinary graph.

    ea = ElasticAverageCustomGetter(worker_device)
    with tf.device(tf.train.replica_device_setter(worker_device=worker_device,
                                                  cluster=cluster)), \\
            tf.variable_scope("", custom_getter=ea):
        global_step = tf.train.get_or_create_global_step()
        ...model built with tf.get_variable...
    opt = ElasticAverageOptimizer(tf.train.GradientDescentOptimizer(0.1), num_worker=2,
                                  ea_custom_getter=ea, communication_period=4)
    train_op = opt.minimize(loss, global_step=global_step)
    hooks = [opt.make_session_run_hook(is_chief, task_index)]

Sandbox: TF's elastic update is one tf.cond whose branch spans worker and ps; here it is three
stages (cross_device_cond.py) -- the center read on its ps, the local update in one If on the
worker, the center update in one If per ps -- and the center and the difference cross the
wire only on the steps that communicate, as in TF.
"""
from ...framework import dtypes
from ...framework.graph import GraphKeys, get_default_graph
from ...ops import array_ops, nn_ops, state_ops, variable_scope, variables
from ...ops.comparison_ops import equal
from ...ops.constant_op import constant
from ...ops.control_flow_ops import group, no_op
from ...ops.data_flow_ops import FIFOQueue
from ...ops.math_ops import add_n, floormod, subtract
from ...train import saver as saver_lib
from ...train.optimizer import Optimizer
from .cross_device_cond import by_device, cond_on, cond_per_device, rows_if
from .init_op_hook import InitOpHook

__all__ = ["ElasticAverageCustomGetter", "ElasticAverageOptimizer", "LOCAL_VARIABLE_NAME",
           "GLOBAL_VARIABLE_NAME", "GLOBAL_STEP"]

LOCAL_VARIABLE_NAME = "local_center_variable"
GLOBAL_VARIABLE_NAME = "global_center_variable"
GLOBAL_STEP = "global_step"


class ElasticAverageCustomGetter:
    """A custom_getter that gives each trainable variable a local copy on the worker, a center
    on the ps and a local center on the worker (see the module docstring). Use it with
    tf.train.replica_device_setter (which puts the centers and the global step on the ps) and
    tf.get_variable (a tf.Variable does not go through custom getters).
    """

    def __init__(self, worker_device):
        """Args:
          worker_device: the worker's device, e.g. "/job:worker/task:0".
        """
        self._worker_device = worker_device
        self._local_map = {}
        self._global_map = {}

    def __call__(self, getter, name, trainable, collections, *args, **kwargs):
        graph = get_default_graph()
        if trainable:
            with graph.device(self._worker_device):
                local_var = getter(name, *args, trainable=True,
                                   collections=[GraphKeys.LOCAL_VARIABLES], **kwargs)
            if kwargs.get("reuse") is True:
                return local_var
            global_center_variable = getter(
                "%s/%s" % (GLOBAL_VARIABLE_NAME, name), *args, trainable=False,
                collections=[GraphKeys.GLOBAL_VARIABLES], **kwargs)
            with graph.device(self._worker_device):
                local_center_variable = getter(
                    "%s/%s" % (LOCAL_VARIABLE_NAME, name), *args, trainable=False,
                    collections=[GraphKeys.LOCAL_VARIABLES], **kwargs)
            if kwargs.get("partitioner") is None:
                self._local_map[local_var] = local_center_variable
                self._global_map[local_var] = global_center_variable
            else:
                for part, local_part, global_part in zip(
                        list(local_var), list(local_center_variable),
                        list(global_center_variable)):
                    self._local_map[part] = local_part
                    self._global_map[part] = global_part
            return local_var
        kwargs["trainable"] = trainable
        kwargs["collections"] = collections
        if collections and GraphKeys.LOCAL_VARIABLES in collections:
            with graph.device(self._worker_device):
                return getter(name, *args, **kwargs)
        return getter(name, *args, **kwargs)


class ElasticAverageOptimizer(Optimizer):
    """Wrapper optimizer that implements the Elastic Average SGD algorithm.

    Asynchronous: each worker updates its local variables and counts its own local_step,
    from 0, +1 per update. Whenever communication_period divides the local step, the worker
    reads the current centers, computes the elastic difference between its local variables
    and the centers, and moves both by moving_rate times it.
    """

    # Default value as paper described
    BETA = 0.9

    def __init__(self, opt, num_worker, ea_custom_getter, communication_period=10,
                 moving_rate=None, rho=None, use_locking=True, synchronous=False,
                 name="ElasticAverageOptimizer"):
        """Args:
          opt: the optimizer of the local variables.
          num_worker: the number of workers.
          ea_custom_getter: the ElasticAverageCustomGetter the model was built with.
          communication_period: the local steps between two elastic updates.
          moving_rate: the elastic force (default BETA / communication_period / num_worker).
          rho: the weight of the elastic penalty in the loss (default moving_rate /
            opt's learning rate; 0.0 is suggested in asynchronous mode).
          use_locking: if True use locks for the update operations.
          synchronous: True: at the start the workers wait for each other, after their
            initialization; False: each starts when it is ready (a restarted worker joins
            without waiting).
          name: name prefix of the operations.
        """
        super().__init__(use_locking, name)
        self._opt = opt
        self._num_worker = num_worker
        self._period = communication_period
        self._local_map = ea_custom_getter._local_map
        self._global_map = ea_custom_getter._global_map
        self._synchronous = synchronous
        if moving_rate is None:
            self._moving_rate = self.BETA / communication_period / num_worker
        else:
            self._moving_rate = moving_rate
        if rho is None:
            learning_rate = getattr(self._opt, "_learning_rate", None)
            if learning_rate is None:
                raise AttributeError(
                    f"ElasticAverageOptimizer: rho defaults to moving_rate / the learning rate "
                    f"of `opt`, and {type(self._opt).__name__} has no _learning_rate (as in "
                    "TF 1.15). Pass rho= explicitly (0.0 is suggested in asynchronous mode).")
            self._rho = self._moving_rate / learning_rate
        else:
            self._rho = rho
        self._local_step = variable_scope.get_variable(
            initializer=0, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
            name="local_step")
        self._opt._prepare()

    def compute_gradients(self, loss, var_list=None, gate_gradients=Optimizer.GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """The gradients of loss + rho * sum(l2_loss(local - local center)), by the wrapped
        optimizer (the elastic penalty limits how far a worker explores)."""
        if not var_list:
            var_list = variables.trainable_variables()
        elastic_difference = [
            subtract(v, lv) for v, lv in zip(variables.trainable_variables(),
                                              [self._local_map[var] for var in var_list])]
        distance_loss = self._rho * add_n([nn_ops.l2_loss(ed) for ed in elastic_difference])
        total_loss = loss + distance_loss
        return self._opt.compute_gradients(total_loss, var_list, gate_gradients,
                                           aggregation_method, colocate_gradients_with_ops,
                                           grad_loss)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the wrapped optimizer to the local variables, counts the local step and,
        every communication_period steps, does the elastic update (and increments
        global_step). Returns the op that does it all."""
        grads_and_vars = list(grads_and_vars)
        graph = get_default_graph()
        global_old = {v.op.name for v in variables.global_variables()}
        apply_updates = self._opt.apply_gradients(grads_and_vars)
        global_new = {v.op.name for v in variables.global_variables()}
        with graph.control_dependencies([apply_updates]):
            local_update = state_ops.assign_add(self._local_step, 1,
                                                name="local_step_update").op
        # The variables the wrapped optimizer made (its slots; Adam's beta powers) belong to
        # this worker: LOCAL_VARIABLES, not GLOBAL_VARIABLES.
        _move_to_local_variables(graph, global_new - global_old)

        with graph.control_dependencies([local_update]):
            condition = equal(floormod(self._local_step, self._period), 0)
            return self._update_global_variables(condition, grads_and_vars, global_step)

    def _update_global_variables(self, condition, grads_and_vars, global_step):
        """TF's `cond(condition, _Update_global_variables, no_op)`, in three stages."""
        graph = get_default_graph()
        local_vars = [v for g, v in grads_and_vars if g is not None]
        centers = [self._global_map[v] for v in local_vars]
        local_centers = [self._local_map[v] for v in local_vars]
        # 1. Each center, read on its ps; it crosses to the worker only to communicate.
        center_rows = []
        for center in centers:
            with graph.colocate_with(center):
                center_rows.append(rows_if(condition, center.read_value()))
        # 2. On the worker: local center := center; diff = local - center;
        #    local -= moving_rate * diff. The diffs go back as rows.
        local_values = [v.read_value() for v in local_vars]     # after this step's update
        diff_rows = list(center_rows)
        for device, indices in by_device(range(len(local_vars)),
                                         device_of=lambda i: local_vars[i].device):
            def elastic(indices=indices):
                diffs = []
                for i in indices:
                    local_center = state_ops.assign(local_centers[i], center_rows[i][0])
                    diff = subtract(local_values[i], local_center)
                    pulled = state_ops.assign_sub(local_vars[i], self._moving_rate * diff)
                    with get_default_graph().control_dependencies([pulled]):
                        diffs.append(array_ops.expand_dims(diff, 0))
                return diffs

            def stay(indices=indices):
                return [center_rows[i] for i in indices]       # zero rows
            out = cond_on(device, condition, elastic, stay, name="elastic_update")
            for i, rows in zip(indices, out if isinstance(out, (list, tuple)) else [out]):
                diff_rows[i] = rows
        # 3. On each ps: center += moving_rate * diff; the global step counts the update.
        work = [(center.device, lambda c=center, d=rows:
                 state_ops.assign_add(c, self._moving_rate * d[0]))
                for center, rows in zip(centers, diff_rows)]
        if global_step is not None:
            work.append((global_step.device, lambda: state_ops.assign_add(global_step, 1)))
        return group(*cond_per_device(condition, work, name="center_update"))

    def get_init_op(self, task_index):
        """The op that sets every local variable and local center to its center (then, with
        synchronous=True, waits until every worker has done so)."""
        init_ops = []
        local_vars = variables.trainable_variables()
        global_center_vars = [self._global_map[var] for var in local_vars]
        local_center_vars = [self._local_map[var] for var in local_vars]
        if not (local_vars and global_center_vars and local_center_vars):
            raise ValueError("The lists of local_variables, global_center_variables, "
                             "local_center_variables should not be empty  ")
        for lvar, gc_var, lc_var in zip(local_vars, global_center_vars, local_center_vars):
            init_ops.append(state_ops.assign(lvar, gc_var))
            init_ops.append(state_ops.assign(lc_var, gc_var))
        init_op = group(*init_ops)
        if not self._synchronous:
            return init_op
        return self._add_sync_queues_and_barrier(task_index, [init_op])

    def _add_sync_queues_and_barrier(self, task_index, enqueue_after_list):
        """A barrier: one queue per worker; each worker puts a token in every other worker's
        queue, then takes num_worker - 1 tokens from its own."""
        graph = get_default_graph()
        sync_queues = [FIFOQueue(self._num_worker, [dtypes.bool], shapes=[[]],
                                 shared_name="%s%s" % ("variable_init_sync_queue", i))
                       for i in range(self._num_worker)]
        queue_ops = []
        token = constant(False)
        with graph.control_dependencies(enqueue_after_list):
            for i, q in enumerate(sync_queues):
                if i == task_index:
                    queue_ops.append(no_op())
                else:
                    queue_ops.append(q.enqueue(token))
        if self._num_worker > 1:     # (the sandbox's dequeue_many(0) would wait for one)
            queue_ops.append(sync_queues[task_index].dequeue_many(len(sync_queues) - 1))
        return group(*queue_ops)

    def make_session_run_hook(self, is_chief, task_index):
        """Creates a hook to handle ElasticAverageOptimizerHook ops such as initialization."""
        return InitOpHook(self, is_chief, task_index)

    def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
        """A Saver that saves each center under its local variable's name (call it after the
        model is built): evaluation and inference restore the centers into an ordinary model.

        Args:
          var_list: the variables to save, as for Saver() (default: the trainable ones).
          name: the saver's name.
          **kwargs: more arguments of Saver().
        Raises:
          RuntimeError: no center was made (the model was not built with
            ElasticAverageCustomGetter, or not yet).
        """
        if not self._global_map:
            raise RuntimeError("global_center_variable is empty, please make sure "
                               "this is called after model created and "
                               "ElasticAverageCustomGetter is used when declaring you model")
        if var_list is None:
            var_list = variables.trainable_variables()
        if not isinstance(var_list, dict):
            var_list = saver_lib.op_list_to_dict(var_list)
        swapped_var_list = {}
        for key, var in var_list.items():
            tensor = var
            if not isinstance(var, list):
                for tvar in variables.trainable_variables():
                    if tvar.op.name == var.op.name:
                        tensor = self._global_map.get(tvar, var)
                        break
            else:                                   # a partitioned variable
                tensor = [self._global_map.get(lvar, lvar) for lvar in var]
            swapped_var_list[key] = tensor
        return saver_lib.Saver(swapped_var_list, name=name, **kwargs)


def _move_to_local_variables(graph, names):
    """Moves the variables named `names` from GLOBAL_VARIABLES to LOCAL_VARIABLES."""
    global_vars = graph.get_collection_ref(GraphKeys.GLOBAL_VARIABLES)
    moving = [v for v in global_vars if v.op.name in names]
    for var in moving:
        global_vars.remove(var)
        graph.add_to_collection(GraphKeys.LOCAL_VARIABLES, var)
