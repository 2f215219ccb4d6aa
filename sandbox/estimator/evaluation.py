"""One evaluation pass over a checkpoint -- mirrors TensorFlow's evaluation.py
(python/training/evaluation.py) and the `mean` metric the Estimator reports the loss with
(python/ops/metrics_impl.py).

Evaluating is running the model's *metrics* over a stream of batches. A metric is a pair
(value, update_op) over local variables: every run of update_op folds one batch into them
(the mean keeps a `total` and a `count`), and value reads the result at the end. The pass:

  1. a MonitoredSession whose ChiefSessionCreator *restores* the checkpoint (the global
     variables, so the model is exactly the trained one) and initializes the local variables
     (the metrics start from zero);
  2. runs the update ops -- `steps` times (StopAfterNEvalsHook, counting in the local
     variable `eval_step`), or until the input raises OutOfRangeError;
  3. at the end, FinalOpsHook reads every metric's value and the global step.

It runs in a session of its own (a local one unless the RunConfig says otherwise), so an
evaluator process never talks to the training cluster: it only reads the checkpoint files.
"""
import time

from ..framework import dtypes
from ..framework.graph import GraphKeys, get_default_graph, control_dependencies
from ..ops import array_ops, comparison_ops, control_flow_ops, init_ops, math_ops, \
    reduction_ops, state_ops, variable_scope
from ..ops.variables import Variable
from ..ops.basic_math_ops import maximum
from ..train import basic_session_run_hooks
from ..train.monitored_session import ChiefSessionCreator, MonitoredSession
from ..train.session_run_hook import SessionRunArgs, SessionRunHook
from ..train.session_manager import logger as _log   # 'sandbox.train', as the hooks log

__all__ = []

EVAL_STEP = "eval_step"


def _metric_variable(name, dtype=dtypes.float32):
    """A scalar local variable starting at 0, in LOCAL_VARIABLES and METRIC_VARIABLES."""
    return Variable(lambda: array_ops.zeros([], dtype), trainable=False, name=name,
                    collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES])


def _safe_div(total, count, name):
    """total / count, 0 when count is 0 (TF's div_no_nan)."""
    positive = comparison_ops.greater(count, 0.0)
    return comparison_ops.where(positive, total / maximum(count, 1e-30),
                                array_ops.zeros([], dtypes.float32), name=name)


def mean(values, name=None):
    """tf.metrics.mean without weights: (mean_value, update_op) over the values seen."""
    with variable_scope.variable_scope(name, "mean", [values]):
        values = math_ops.cast(values, dtypes.float32)
        total = _metric_variable("total")
        count = _metric_variable("count")
        num_values = math_ops.cast(array_ops.size(values), dtypes.float32)
        update_total = state_ops.assign_add(total, reduction_ops.reduce_sum(values))
        with control_dependencies([values]):
            update_count = state_ops.assign_add(count, num_values)
        value = _safe_div(total, count, name="value")
        update_op = _safe_div(update_total, update_count, name="update_op")
    return value, update_op


def get_or_create_eval_step(graph=None):
    """The local int64 variable `eval_step` counting the evaluation runs of this pass."""
    graph = graph or get_default_graph()
    steps = graph.get_collection(EVAL_STEP)        # TF's GraphKeys.EVAL_STEP
    if len(steps) == 1:
        return steps[0]
    if len(steps) > 1:
        raise ValueError("Multiple tensors added to tf.GraphKeys.EVAL_STEP")
    with graph.as_default(), graph.name_scope(None):
        return variable_scope.get_variable(
            EVAL_STEP, shape=[], dtype=dtypes.int64,
            initializer=init_ops.zeros_initializer(), trainable=False,
            collections=[GraphKeys.LOCAL_VARIABLES, EVAL_STEP])


class StopAfterNEvalsHook(SessionRunHook):
    """Requests a stop after `num_evals` runs, counted in the eval_step variable."""

    def __init__(self, num_evals, log_progress=True):
        self._num_evals = num_evals
        self._evals_completed = None
        self._log_progress = log_progress
        self._log_frequency = 1 if not num_evals or num_evals < 20 else num_evals // 10

    def _set_evals_completed_tensor(self, updated_eval_step):
        self._evals_completed = updated_eval_step

    def before_run(self, run_context):
        return SessionRunArgs({"evals_completed": self._evals_completed})

    def after_run(self, run_context, run_values):
        evals_completed = run_values.results["evals_completed"]
        if self._log_progress and (evals_completed % self._log_frequency == 0 or
                                   evals_completed == self._num_evals):
            _log.info("Evaluation [%d/%d]", evals_completed, self._num_evals)
        if self._num_evals is not None and evals_completed >= self._num_evals:
            run_context.request_stop()


def evaluate_once(checkpoint_path, master="", scaffold=None, eval_ops=None, final_ops=None,
                  hooks=None, config=None):
    """Restores `checkpoint_path` (or initializes, when it is None), runs `eval_ops` until a
    hook stops or the input ends, and returns the values of `final_ops`."""
    eval_step = get_or_create_eval_step()
    hooks = list(hooks or [])
    if eval_ops is not None:
        update_eval_step = state_ops.assign_add(eval_step, 1)
        for h in hooks:
            if isinstance(h, StopAfterNEvalsHook):
                h._set_evals_completed_tensor(update_eval_step)
        eval_ops = [eval_ops, update_eval_step] if not isinstance(eval_ops, (list, dict)) \
            else ([*eval_ops, update_eval_step] if isinstance(eval_ops, list)
                  else {**eval_ops, EVAL_STEP: update_eval_step})
    _log.info("Starting evaluation at %s", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    final_ops_hook = basic_session_run_hooks.FinalOpsHook(final_ops)
    hooks.append(final_ops_hook)
    creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_filename_with_path=checkpoint_path,
                                  master=master, config=config)
    with MonitoredSession(session_creator=creator, hooks=hooks) as session:
        if eval_ops is not None:
            while not session.should_stop():
                session.run(eval_ops)
    _log.info("Finished evaluation at %s", time.strftime("%Y-%m-%d-%H:%M:%S", time.gmtime()))
    return final_ops_hook.final_ops_values


def _eval_scaffold(scaffold):
    """The model's scaffold, with a local init op that also initializes eval_step."""
    if scaffold and scaffold.local_init_op is not None:
        from ..train.monitored_session import Scaffold
        get_or_create_eval_step()
        return Scaffold(local_init_op=control_flow_ops.group(
            scaffold.local_init_op, Scaffold.default_local_init_op()),
            copy_from_scaffold=scaffold)
    return scaffold
