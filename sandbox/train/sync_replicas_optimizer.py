"""Synchronous training -- mirrors TensorFlow's `tf.train.SyncReplicasOptimizer`
(python/training/sync_replicas_optimizer.py).

In asynchronous training every worker applies its own gradients whenever it is done, so many of
them were computed from parameters that others have changed since ("stale" gradients).
SyncReplicasOptimizer wraps an ordinary optimizer so that the workers advance in *rounds*:
each update averages the gradients of `replicas_to_aggregate` workers, all computed from the
same parameters. The mechanism is built from graph pieces you already know:

  1. One ConditionalAccumulator per trainable variable, placed on that variable's ps
     (shared_name '<variable>:0/grad_accum', so every worker's graph names the same one).
  2. A worker does not update the variables. Its train op computes the gradients and applies
     them to the accumulators, tagged with its `local_step` -- a LOCAL variable on the worker
     (GraphKeys.LOCAL_VARIABLES, 'sync_rep_local_step') holding the global step its
     parameters were read at.
  3. An accumulator drops a stale gradient -- local_step < the accumulator's own global step,
     i.e. computed before the last update -- and counts it (sandbox: stale_gradients_dropped()).
  4. The chief runs one more thread, the chief queue runner (get_chief_queue_runner). It waits
     in take_grad until replicas_to_aggregate fresh gradients have arrived in every
     accumulator, applies their average with the wrapped optimizer, adds 1 to global_step, and
     then puts tokens -- copies of the new global step -- into the sync token queue
     ('sync_token_q', a FIFOQueue on global_step's device). Each take_grad also moves its
     accumulator to the next step, which makes every gradient still in flight stale.
  5. A worker's train op ends by dequeuing one token and copying it into its local_step: it
     cannot start its next step before the round is applied -- the barrier -- and its next
     gradients are tagged with the new global step.
  6. At the start the chief puts replicas_to_aggregate tokens in the queue
     (get_init_tokens_op). Each round puts total_num_replicas tokens (at least
     replicas_to_aggregate). With backup workers (replicas_to_aggregate < total_num_replicas)
     a round needs only the fastest workers; the straggler's gradient arrives late, is dropped,
     and the straggler takes a token like everyone else.

`make_session_run_hook(is_chief)` does the set-up in a MonitoredTrainingSession: every worker
initializes its local_step from global_step; the chief also sets each accumulator's global
step, fills the token queue and starts the chief queue runner.

The end of training -- where the sandbox does more than TF. TensorFlow leaves a worker blocked
forever on the token queue when the round it waits for never comes (the chief has finished, or
another worker has left and a round can no longer fill). In the sandbox:

  7. When a worker's MonitoredTrainingSession ends normally (e.g. StopAtStepHook), the hook
     CLOSES the token queue. A closed queue still hands out the tokens it holds; after that its
     dequeue fails with OutOfRangeError, which a MonitoredTrainingSession takes as the normal
     end of training (as for an exhausted input queue). So every other worker leaves its loop
     at its next token -- whatever step it was in. The chief also cancels its own queue
     runner's take_grad (CancelledError), so its session closes at once. A program without
     the hook (a Supervisor loop) runs `opt.close_token_queue_op` (and, on the chief,
     `opt.cancel_take_grads_op`) itself when it is done.
  8. Rounds are a group activity: the first worker that finishes normally ends synchronous
     training for all of them. A worker that dies does not (its session never ends
     normally): with backup workers the others go on; without, the chief's take_grad waits,
     and the ps says every 10 s which replicas it is still waiting for.
  9. A worker that starts after the end finds the queue closed and stops at its first step.
     A new chief empties and reopens the queue before its first tokens; still, to train again
     on the same tasks, reset them first (tf.Session.reset(target)): a worker cannot tell a
     queue closed by the last training from one its new chief has not reopened yet.
 10. When the chief's queue runner FAILS (its update raised, say an InvalidArgumentError) the
     chief's training stops with that error -- and no round will ever come again. TF leaves
     every worker, the chief included, blocked on the token queue. The sandbox's runner also
     closes the token queue then: the workers leave at their next token, and the chief's
     MonitoredTrainingSession raises the runner's error. (Not for the errors a
     MonitoredTrainingSession recovers from -- a ps that died, AbortedError, UnavailableError
     -- after which training goes on.)
"""
import numpy as np

from ..framework import dtypes
from ..framework import errors
from ..framework.graph import GraphKeys, get_default_graph, name_scope
from ..framework.op_def import apply_op
from ..framework.tensor import convert_to_tensor
from ..ops import array_ops, control_flow_ops, state_ops, variables
from ..ops.accumulator_ops import ConditionalAccumulator
from ..ops.data_flow_ops import FIFOQueue
from .optimizer import Optimizer
from .queue_runner import QueueRunner
from .session_manager import logger
from .session_run_hook import SessionRunHook

__all__ = ["SyncReplicasOptimizer"]

# TF's FIFOQueue treats capacity -1 as unbounded; the sandbox's data_flow_ops does not (yet),
# so the token queue asks for TF's kUnbounded (INT_MAX) directly.
_UNBOUNDED = 2 ** 31 - 1


class SyncReplicasOptimizer(Optimizer):
    """Class to synchronize, aggregate gradients and pass them to the optimizer.

    Usage (every worker builds the same graph):

        opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                             replicas_to_aggregate=3, total_num_replicas=3)
        train_op = opt.minimize(loss, global_step=global_step)
        hook = opt.make_session_run_hook(is_chief)
        with tf.train.MonitoredTrainingSession(master=target, is_chief=is_chief,
                                               hooks=[hook, tf.train.StopAtStepHook(...)]) as s:
            while not s.should_stop():
                s.run(train_op)
    """

    def __init__(self, opt, replicas_to_aggregate, total_num_replicas=None,
                 variable_averages=None, variables_to_average=None, use_locking=False,
                 name="sync_replicas"):
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        super().__init__(use_locking, name)
        logger.info("SyncReplicasV2: replicas_to_aggregate=%s; total_num_replicas=%s",
                    replicas_to_aggregate, total_num_replicas)
        self._opt = opt
        self._replicas_to_aggregate = replicas_to_aggregate
        self._gradients_applied = False
        self._variable_averages = variable_averages
        self._variables_to_average = variables_to_average
        self._total_num_replicas = total_num_replicas
        self._tokens_per_step = max(total_num_replicas, replicas_to_aggregate)
        self._global_step = None
        self._sync_token_queue = None
        self._chief_queue_runner = None
        self._accumulator_list = []          # (accumulator, device of its variable)

    def compute_gradients(self, *args, **kwargs):
        """The wrapped optimizer's compute_gradients: the gradients of this worker alone (clip
        them here if you like); apply_gradients aggregates them across workers."""
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Builds the whole mechanism (see the module docstring) and returns this worker's
        train op: apply the gradients to the accumulators, then wait for a token."""
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        grads_and_vars = list(grads_and_vars)
        graph = global_step.graph if hasattr(global_step, "graph") else get_default_graph()
        with graph.as_default():
            return self._apply_gradients(graph, grads_and_vars, global_step, name)

    def _apply_gradients(self, graph, grads_and_vars, global_step, name):
        self._global_step = global_step
        train_ops = []
        aggregated_grad = []
        var_list = []

        # local_anchor lands on this worker's device; the local step is colocated with it, so
        # that a device function (replica_device_setter) does not send it to a ps.
        local_anchor = control_flow_ops.no_op()
        replica = local_anchor.device        # e.g. '/job:worker/task:1', for the ps's messages
        with graph.colocate_with(local_anchor):
            self._local_step = variables.Variable(
                initial_value=0, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
                dtype=global_step.dtype.base_dtype, name="sync_rep_local_step")

        self.local_step_init_op = state_ops.assign(self._local_step, global_step)
        chief_init_ops = [self.local_step_init_op]
        self.ready_for_local_init_op = variables.report_uninitialized_variables(
            variables.global_variables())

        with name_scope(None, self._name):
            for grad, var in grads_and_vars:
                var_list.append(var)
                with graph.device(var.device):
                    if grad is None:
                        aggregated_grad.append(None)        # pass-through
                        continue
                    if hasattr(grad, "indices") and hasattr(grad, "values"):
                        # TF uses a SparseConditionalAccumulator; until the sandbox has one,
                        # the rows are made dense here, on the variable's ps (only the rows
                        # cross the wire)
                        grad = convert_to_tensor(grad)
                    grad_accum = ConditionalAccumulator(grad.dtype, shape=var.get_shape(),
                                                        shared_name=var.name + "/grad_accum")
                    train_ops.append(grad_accum._apply_grad(grad, local_step=self._local_step,
                                                            replica=replica))
                    aggregated_grad.append(grad_accum.take_grad(self._replicas_to_aggregate))
                    self._accumulator_list.append((grad_accum, var.device))

            aggregated_grads_and_vars = list(zip(aggregated_grad, var_list))

            # sync_op will be assigned to the same device as the global step.
            with graph.device(global_step.device), name_scope(""):
                update_op = self._opt.apply_gradients(aggregated_grads_and_vars, global_step)

            # The token queue, and a dummy queue for the chief's queue runner (TF's way of
            # keeping the runner's automatic close away from the real queue).
            with graph.device(global_step.device), name_scope(""):
                sync_token_queue = FIFOQueue(_UNBOUNDED, global_step.dtype.base_dtype,
                                             shapes=[[]], name="sync_token_q",
                                             shared_name="sync_token_q")
                self._sync_token_queue = sync_token_queue
                dummy_queue = FIFOQueue(1, dtypes.int32, shapes=[[]], name="dummy_queue",
                                        shared_name="dummy_queue")

            with graph.device(global_step.device), name_scope(""):
                # Replicas have to wait until they can get a token from the token queue.
                with graph.control_dependencies(train_ops):
                    token = sync_token_queue.dequeue()
                train_op = state_ops.assign(self._local_step, token)

                with graph.control_dependencies([update_op]):
                    # The tokens go in only after the update: the barrier opens on new values.
                    # (A fresh read: in TF the variable's read aliases its memory and sees the
                    # update; a sandbox read is a snapshot, so it must come after the update.)
                    tokens = array_ops.fill([self._tokens_per_step], _read(global_step))
                    sync_op = sync_token_queue.enqueue_many((tokens,))

                if self._variable_averages is not None:
                    with graph.control_dependencies([sync_op]), name_scope(""):
                        sync_op = self._variable_averages.apply(self._variables_to_average)

                # Sandbox: the ops that end synchronous training cleanly (docstring, 7-9).
                self.close_token_queue_op = sync_token_queue.close(
                    cancel_pending_enqueues=True, name="sync_token_q_Close")
                self.token_queue_is_closed = sync_token_queue.is_closed(
                    name="sync_token_q_IsClosed")
                self.reopen_token_queue_op = apply_op(
                    "SyncTokenQueueReopen", [sync_token_queue.queue_ref], {},
                    name="sync_token_q_Reopen", output_dtypes=[])
            cancels = []
            for accum, dev in self._accumulator_list:
                with graph.device(dev):
                    cancels.append(accum.cancel_take_grad())
            with graph.device(global_step.device), name_scope(""):
                self.cancel_take_grads_op = control_flow_ops.group(
                    *cancels, name="sync_replicas_cancel_take_grads")
                self._num_dropped = (self._accumulator_list[0][0].num_dropped(
                    name="sync_replicas_num_dropped") if self._accumulator_list else None)
                # On a stop request the runner's cancel op also wakes its waiting take_grad.
                cancel_op = control_flow_ops.group(
                    dummy_queue.close(cancel_pending_enqueues=True), *cancels,
                    name="sync_replicas_queue_runner_cancel")
                self._chief_queue_runner = _ChiefQueueRunner(
                    dummy_queue, [sync_op], cancel_op=cancel_op,
                    queue_closed_exception_types=(errors.OutOfRangeError,
                                                  errors.CancelledError),
                    close_token_queue_op=self.close_token_queue_op)

            for accum, dev in self._accumulator_list:
                with graph.device(dev):
                    chief_init_ops.append(accum.set_global_step(global_step,
                                                                name="SetGlobalStep"))
            self.chief_init_op = control_flow_ops.group(*chief_init_ops)
            self._gradients_applied = True
            return train_op

    def get_chief_queue_runner(self):
        """The QueueRunner the chief runs: aggregate, apply, bump global_step, add tokens."""
        if self._gradients_applied is False:
            raise ValueError("Should be called after apply_gradients().")
        return self._chief_queue_runner

    def get_slot(self, *args, **kwargs):
        """The wrapped optimizer's slot."""
        return self._opt.get_slot(*args, **kwargs)

    def variables(self):
        """The wrapped optimizer's variables (not the local step)."""
        return self._opt.variables()

    def get_slot_names(self, *args, **kwargs):
        """The wrapped optimizer's slot names."""
        return self._opt.get_slot_names(*args, **kwargs)

    def get_init_tokens_op(self, num_tokens=-1):
        """The op that puts the first `num_tokens` tokens (default replicas_to_aggregate)
        into the token queue; the chief runs it once, at the start. Make sure
        num_tokens >= replicas_to_aggregate - total_num_replicas."""
        if self._gradients_applied is False:
            raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
        tokens_needed = self._replicas_to_aggregate - self._total_num_replicas
        if num_tokens == -1:
            num_tokens = self._replicas_to_aggregate
        elif num_tokens < tokens_needed:
            raise ValueError("Too few tokens to finish the first step: %d (given) vs %d "
                             "(needed)" % (num_tokens, tokens_needed))
        graph = self._global_step.graph
        with graph.as_default():
            if num_tokens > 0:
                with graph.device(self._global_step.device), name_scope(""):
                    tokens = array_ops.fill([num_tokens], _read(self._global_step))
                    return self._sync_token_queue.enqueue_many((tokens,))
            return control_flow_ops.no_op(name="no_init_tokens")

    def stale_gradients_dropped(self):
        """(sandbox only) A tensor: how many stale gradients have been dropped so far -- one
        per stale worker step (counted by the accumulator of the first variable)."""
        if self._gradients_applied is False:
            raise ValueError("Should be called after apply_gradients().")
        return self._num_dropped

    def make_session_run_hook(self, is_chief, num_tokens=-1):
        """Creates a hook to handle SyncReplicasHook ops such as initialization."""
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)


class _ChiefQueueRunner(QueueRunner):
    """TF's chief queue runner, plus rule 10 of the module docstring: a stop caused by an error
    that ends the training also closes the token queue, so that nobody waits for the next
    round forever."""

    _RECOVERABLE = (errors.AbortedError, errors.UnavailableError)

    def __init__(self, *args, close_token_queue_op=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._close_token_queue_op = close_token_queue_op

    def _close_on_stop(self, sess, cancel_op, coord):
        coord.wait_for_stop()
        try:
            coord.raise_requested_exception()          # the error that stopped us, if any
            error = None
        except Exception as e:
            error = e
        if error is not None and not isinstance(error, self._RECOVERABLE):
            logger.error("The chief's sync queue runner stopped on %s: %s. Closing the sync "
                         "token queue, so that every worker leaves its loop.",
                         type(error).__name__, getattr(error, "message", error))
            try:
                sess.run(self._close_token_queue_op)
            except Exception as e:                # the ps may be gone too
                logger.info("Could not close the sync token queue: %s", e)
        super()._close_on_stop(sess, cancel_op, coord)      # returns at once: stopped


class _SyncReplicasOptimizerHook(SessionRunHook):
    """Sets up synchronous training in a MonitoredTrainingSession, and ends it cleanly."""

    def __init__(self, sync_optimizer, is_chief, num_tokens):
        self._sync_optimizer = sync_optimizer
        self._is_chief = is_chief
        self._num_tokens = num_tokens

    def begin(self):
        opt = self._sync_optimizer
        if opt._gradients_applied is False:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before "
                             "using the hook.")
        self._ready_for_local_init_op = opt.ready_for_local_init_op
        if self._is_chief:
            self._local_init_op = opt.chief_init_op
            self._q_runner = opt.get_chief_queue_runner()
            self._init_tokens_op = opt.get_init_tokens_op(self._num_tokens)
            self._end_ops = [opt.close_token_queue_op, opt.cancel_take_grads_op]
        else:
            self._local_init_op = opt.local_step_init_op
            self._q_runner = None
            self._init_tokens_op = None
            self._end_ops = [opt.close_token_queue_op]

    def after_create_session(self, session, coord):
        """Runs the initialization ops; the chief starts its queue runner."""
        not_ready = session.run(self._ready_for_local_init_op)
        if np.size(not_ready):
            names = ", ".join(n.decode() if isinstance(n, bytes) else str(n)
                              for n in np.ravel(not_ready))
            raise RuntimeError("Init operations did not make model ready for "
                               "SyncReplicasOptimizer local_init. Init op: %s, error: %s"
                               % (self._local_init_op.name,
                                  "Variables not initialized: " + names))
        session.run(self._local_init_op)
        opt = self._sync_optimizer
        if self._is_chief:
            session.run(opt.reopen_token_queue_op)
            session.run(self._init_tokens_op)
            self._q_runner.create_threads(session, coord=coord, daemon=True, start=True)
        elif session.run(opt.token_queue_is_closed):
            logger.info("The sync token queue is closed: synchronous training on this cluster "
                        "has ended, so this worker will stop at its first step. (To train "
                        "again on the same tasks, reset them first: tf.Session.reset(target).)")

    def end(self, session):
        """The sandbox's clean end (module docstring, 7): close the token queue, so that every
        worker still waiting for a round leaves too; the chief also wakes its queue runner."""
        try:
            session.run(self._end_ops)
        except errors.OpError as e:           # the ps may be gone already
            logger.info("Could not close the sync token queue: %s", e.message)


def _read(variable):
    """A read of `variable` made here, inside the current control dependencies."""
    if hasattr(variable, "read_value"):
        return variable.read_value()
    return control_flow_ops.identity(variable)
