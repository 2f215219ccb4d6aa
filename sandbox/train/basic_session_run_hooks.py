"""The standard hooks -- mirrors TensorFlow's basic_session_run_hooks
(python/training/basic_session_run_hooks.py).

Each hook does one job during MonitoredSession.run() (see session_run_hook.py for when hooks
are called):

  StopAtStepHook       asks to stop once the global step reaches last_step
  CheckpointSaverHook  saves a checkpoint every N seconds or N steps, and at the end
  SummarySaverHook     runs the summary op every N steps/seconds and writes it to an event file
  StepCounterHook      measures global steps per second (logged and written as a summary)
  LoggingTensorHook    logs the values of some tensors every N steps/seconds
  NanTensorHook        fails (or stops) when the loss becomes NaN
  FinalOpsHook         runs some ops once at the end; FeedFnHook adds feeds to every run
  GlobalStepWaiterHook holds a worker back until the global step reaches a value

Most hooks ask for the global step at every run (it costs one small fetch) and act only when
their SecondOrStepTimer says so. The global step they read is a *copy* made in the same run as
the train op, so it may be one behind: when the timer fires they read it again.
"""
import os
import time

import numpy as np

from ..framework import errors
from ..framework.graph import GraphKeys, get_default_graph
from .session_manager import logger
from .session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["SecondOrStepTimer", "LoggingTensorHook", "StopAtStepHook", "CheckpointSaverListener",
           "CheckpointSaverHook", "StepCounterHook", "NanLossDuringTrainingError",
           "NanTensorHook", "SummarySaverHook", "GlobalStepWaiterHook", "FinalOpsHook",
           "FeedFnHook"]

_GLOBAL_STEP_READ_KEY = "global_step_read_op_cache"


def _no_global_step(hook):
    """TF's words, then what to do about it."""
    return (f"Global step should be created to use {hook}. Create it while you build the "
            "graph, before the session starts: global_step = "
            "tf.train.get_or_create_global_step(), and pass it to the optimizer -- "
            "optimizer.minimize(loss, global_step=global_step) -- so that every training "
            "step adds one to it.")


# -- timers ------------------------------------------------------------------------------

class _HookTimer:
    """Decides when a hook should act."""

    def reset(self):
        pass

    def should_trigger_for_step(self, step):
        raise NotImplementedError

    def update_last_triggered_step(self, step):
        raise NotImplementedError

    def last_triggered_step(self):
        raise NotImplementedError


class SecondOrStepTimer(_HookTimer):
    """Triggers at most once every `every_secs` seconds or once every `every_steps` steps
    (exactly one of them is given). The first call always triggers."""

    def __init__(self, every_secs=None, every_steps=None):
        self.reset()
        self._every_secs = every_secs
        self._every_steps = every_steps
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")

    def reset(self):
        self._last_triggered_step = None
        self._last_triggered_time = None

    def should_trigger_for_step(self, step):
        if self._last_triggered_step is None:
            return True
        if self._last_triggered_step == step:
            return False
        if self._every_secs is not None and \
                time.time() >= self._last_triggered_time + self._every_secs:
            return True
        if self._every_steps is not None and step >= self._last_triggered_step + self._every_steps:
            return True
        return False

    def update_last_triggered_step(self, step):
        """Records a trigger at `step`; returns (elapsed_secs, elapsed_steps) since the last
        one, (None, None) the first time."""
        now = time.time()
        if self._last_triggered_time is None:
            elapsed_secs = elapsed_steps = None
        else:
            elapsed_secs = now - self._last_triggered_time
            elapsed_steps = step - self._last_triggered_step
        self._last_triggered_time = now
        self._last_triggered_step = step
        return elapsed_secs, elapsed_steps

    def last_triggered_step(self):
        return self._last_triggered_step


class NeverTriggerTimer(_HookTimer):
    """A timer that never triggers."""

    def should_trigger_for_step(self, step):
        return False

    def update_last_triggered_step(self, step):
        return None, None

    def last_triggered_step(self):
        return None


# -- helpers -----------------------------------------------------------------------------

def _get_or_create_global_step_read(graph=None):
    """A tensor holding a copy of the global step (`global_step + 0`), made once per graph;
    None if the graph has no global step."""
    from .training_util import get_global_step
    graph = graph or get_default_graph()
    cached = graph.get_collection(_GLOBAL_STEP_READ_KEY)
    if cached:
        return cached[0]
    step = get_global_step(graph)
    if step is None:
        return None
    with graph.as_default() as g, g.name_scope(None), g.name_scope(step.op.name + "/"):
        read = step + 0
    graph.add_to_collection(_GLOBAL_STEP_READ_KEY, read)
    return read


def _as_graph_element(obj):
    """A Tensor/Operation of the default graph from a tensor or a name ('loss', 'loss:0')."""
    graph = get_default_graph()
    if not isinstance(obj, str):
        if getattr(obj, "graph", None) is not graph:
            raise ValueError(f"Passed {obj} should have graph attribute that is equal to "
                             f"current graph {graph}.")
        return obj
    if ":" in obj:
        return graph.as_graph_element(obj)
    element = graph.as_graph_element(obj + ":0")
    try:
        graph.as_graph_element(obj + ":1")
    except (KeyError, ValueError):
        return element
    raise ValueError(f"Name {obj} is ambiguous, as this `Operation` has multiple outputs "
                     "(at least 2).")


def _summary_writer_for(logdir):
    """One FileWriter per directory, shared by the hooks (TF's SummaryWriterCache)."""
    from ..summary.writer import FileWriterCache
    return FileWriterCache.get(logdir)


def _scalar_summary(tag, value):
    """A serialized Summary protocol buffer with one scalar."""
    from tensorboardX.proto import summary_pb2
    return summary_pb2.Summary(value=[summary_pb2.Summary.Value(
        tag=tag, simple_value=float(value))]).SerializeToString()


def _add_session_log(writer, status, step=None, checkpoint_path=None):
    """Records START / STOP / CHECKPOINT in the event file, as TF does (when the writer can)."""
    add = getattr(writer, "add_session_log", None)
    if add is None:
        return
    from tensorboardX.proto import event_pb2
    log = event_pb2.SessionLog(status=getattr(event_pb2.SessionLog, status))
    if checkpoint_path:
        log.checkpoint_path = checkpoint_path
    add(log, None if step is None else int(step))


# -- hooks -------------------------------------------------------------------------------

class LoggingTensorHook(SessionRunHook):
    """Logs the values of `tensors` every N local steps, every N seconds, and/or at the end.

    `tensors` is a dict {tag: tensor or name} or a list of tensors or names; `formatter`
    (optional) turns the dict {tag: value} into the line to log."""

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False,
                 formatter=None):
        only_log_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_log_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and every_n_secs "
                             "must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if not isinstance(tensors, dict):
            self._tag_order = list(tensors)
            tensors = {item: item for item in tensors}
        else:
            self._tag_order = sorted(tensors.keys())
        self._tensors = tensors
        self._formatter = formatter
        self._timer = (NeverTriggerTimer() if only_log_at_end else
                       SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter))
        self._log_at_end = at_end

    def begin(self):
        self._timer.reset()
        self._iter_count = 0
        self._current_tensors = {tag: _as_graph_element(t) for tag, t in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = self._timer.should_trigger_for_step(self._iter_count)
        return SessionRunArgs(self._current_tensors) if self._should_trigger else None

    def _log_tensors(self, tensor_values):
        elapsed_secs, _ = self._timer.update_last_triggered_step(self._iter_count)
        if self._formatter:
            logger.info(self._formatter(tensor_values))
            return
        with np.printoptions(suppress=True):
            stats = ", ".join("%s = %s" % (tag, tensor_values[tag]) for tag in self._tag_order)
        if elapsed_secs is not None:
            logger.info("%s (%.3f sec)", stats, elapsed_secs)
        else:
            logger.info("%s", stats)

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log_tensors(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._log_at_end:
            self._log_tensors(session.run(self._current_tensors))


class StopAtStepHook(SessionRunHook):
    """Requests a stop once the global step reaches `last_step`, or after `num_steps` more
    steps than the global step had when the session was created (give exactly one)."""

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        self._num_steps = num_steps
        self._last_step = last_step

    def begin(self):
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError(_no_global_step("StopAtStepHook"))

    def after_create_session(self, session, coord):
        if self._last_step is None:
            self._last_step = int(session.run(self._global_step_tensor)) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        # The value read is the global step from before this run's update (or after it: the
        # read races with the train op). Only when it may have reached last_step, read again.
        if run_values.results + 1 >= self._last_step:
            step = run_context.session.run(self._global_step_tensor)
            if step >= self._last_step:
                run_context.request_stop()


class CheckpointSaverListener:
    """Called by a CheckpointSaverHook around each save: begin, before_save, after_save (return
    True to stop training), end."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


class CheckpointSaverHook(SessionRunHook):
    """Saves a checkpoint `checkpoint_dir/model.ckpt-<step>` when the session starts, every
    `save_secs` seconds or `save_steps` steps, and at the end."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None):
        logger.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        self._saver = saver
        self._checkpoint_dir = checkpoint_dir
        self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = listeners or []
        self._steps_per_run = 1
        self._summary_writer = None

    def begin(self):
        self._summary_writer = _summary_writer_for(self._checkpoint_dir)
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError(_no_global_step("CheckpointSaverHook"))
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        global_step = int(session.run(self._global_step_tensor))
        add_graph = getattr(self._summary_writer, "add_graph", None)
        if add_graph is not None and not getattr(self, "_graph_written", False):
            add_graph(get_default_graph())
            self._graph_written = True
        # The checkpoint saved here is the state at step `global_step`.
        self._save(session, global_step)
        self._timer.update_last_triggered_step(global_step)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = int(run_context.session.run(self._global_step_tensor))
            if self._timer.should_trigger_for_step(global_step):
                self._timer.update_last_triggered_step(global_step)
                if self._save(run_context.session, global_step):
                    run_context.request_stop()

    def end(self, session):
        last_step = int(session.run(self._global_step_tensor))
        if last_step != self._timer.last_triggered_step():
            self._save(session, last_step)
        for listener in self._listeners:
            listener.end(session, last_step)

    def _save(self, session, step):
        """Saves a checkpoint; True if a listener asked to stop training."""
        logger.info("Saving checkpoints for %d into %s.", step, self._save_path)
        for listener in self._listeners:
            listener.before_save(session, step)
        self._get_saver().save(session, self._save_path, global_step=step)
        _add_session_log(self._summary_writer, "CHECKPOINT", step, self._save_path)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                logger.info("A CheckpointSaverListener requested that training be stopped. "
                            "listener: %s", listener)
                should_stop = True
        return should_stop

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = get_default_graph().get_collection(GraphKeys.SAVERS)
        if not savers:
            raise RuntimeError(f"No items in collection {GraphKeys.SAVERS}. Please add a saver "
                               "to the collection or provide a saver or scaffold.")
        if len(savers) > 1:
            raise RuntimeError(f"More than one item in collection {GraphKeys.SAVERS}. Please "
                               "indicate which one to use by passing it to the constructor.")
        self._saver = savers[0]
        return self._saver


class StepCounterHook(SessionRunHook):
    """Measures global steps per second every N steps or seconds: logs
    'global_step/sec: 123.4' and writes it as a summary when it has a writer or output_dir."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None,
                 summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._last_global_step = None
        self._global_step_check_count = 0
        self._steps_per_run = 1

    def begin(self):
        from .training_util import get_global_step
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer_for(self._output_dir)
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError(_no_global_step("StepCounterHook"))
        self._summary_tag = get_global_step().op.name + "/sec"

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def _log_and_record(self, elapsed_steps, elapsed_time, global_step):
        steps_per_sec = elapsed_steps / elapsed_time if elapsed_time > 0 else float("inf")
        if self._summary_writer is not None:
            self._summary_writer.add_summary(_scalar_summary(self._summary_tag, steps_per_sec),
                                             int(global_step))
        logger.info("%s: %g", self._summary_tag, steps_per_sec)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results
        if self._timer.should_trigger_for_step(stale_global_step + self._steps_per_run):
            global_step = run_context.session.run(self._global_step_tensor)
            if self._timer.should_trigger_for_step(global_step):
                elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(global_step)
                if elapsed_time is not None:
                    self._log_and_record(elapsed_steps, elapsed_time, global_step)
        # A global step that does not move (e.g. a worker of SyncReplicasOptimizer, or a
        # train op built without global_step=) is worth a warning now and then.
        if stale_global_step == self._last_global_step:
            self._global_step_check_count += 1
            if self._global_step_check_count % 20 == 0:
                self._global_step_check_count = 0
                logger.warning(
                    "It seems that global step (tf.train.get_global_step) has not been "
                    "increased. Current value (could be stable): %s vs previous value: %s. "
                    "You could increase the global step by passing tf.train.get_global_step() "
                    "to Optimizer.apply_gradients or Optimizer.minimize.",
                    stale_global_step, self._last_global_step)
        else:
            self._global_step_check_count = 0
        self._last_global_step = stale_global_step


class NanLossDuringTrainingError(RuntimeError):
    """Raised by NanTensorHook when the loss became NaN."""

    def __str__(self):
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Fetches `loss_tensor` at every run; if it is NaN, raises NanLossDuringTrainingError
    (or, with fail_on_nan_loss=False, logs a warning and requests a stop)."""

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.any(np.isnan(run_values.results)):
            failure_message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                logger.error(failure_message)
                raise NanLossDuringTrainingError
            logger.warning(failure_message)
            run_context.request_stop()


class SummarySaverHook(SessionRunHook):
    """Runs the summary op every `save_steps` steps or `save_secs` seconds and writes its
    output, tagged with the global step, to an event file in `output_dir`.

    Give exactly one of `scaffold` (its summary_op is used) and `summary_op` (a tensor or a
    list of tensors)."""

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None,
                 scaffold=None, summary_op=None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        self._summary_op = summary_op
        self._summary_writer = summary_writer
        self._output_dir = output_dir
        self._scaffold = scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        if self._summary_writer is None and self._output_dir:
            self._summary_writer = _summary_writer_for(self._output_dir)
        self._next_step = None
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError(_no_global_step("SummarySaverHook"))

    def before_run(self, run_context):
        self._request_summary = (self._next_step is None or
                                 self._timer.should_trigger_for_step(self._next_step))
        requests = {"global_step": self._global_step_tensor}
        if self._request_summary:
            summary_op = self._get_summary_op()
            if summary_op is not None:
                requests["summary"] = summary_op
        return SessionRunArgs(requests)

    def after_run(self, run_context, run_values):
        if not self._summary_writer:
            return
        global_step = run_values.results["global_step"] + 1
        if self._next_step is None or self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
        global_step = int(global_step)
        if self._next_step is None:
            _add_session_log(self._summary_writer, "START", global_step)
        if self._request_summary:
            self._timer.update_last_triggered_step(global_step)
            for summary in run_values.results.get("summary", ()):
                self._summary_writer.add_summary(summary, global_step)
        self._next_step = global_step + 1

    def end(self, session=None):
        if self._summary_writer:
            self._summary_writer.flush()

    def _get_summary_op(self):
        summary_op = self._summary_op
        if summary_op is None:
            summary_op = self._scaffold.summary_op
        if summary_op is None:
            return None
        return summary_op if isinstance(summary_op, list) else [summary_op]


class GlobalStepWaiterHook(SessionRunHook):
    """Holds this worker's first run until the global step reaches `wait_until_step` (to start
    workers gradually)."""

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError(_no_global_step("_GlobalStepWaiterHook"))

    def before_run(self, run_context):
        if self._worker_is_started:
            return None
        if self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        logger.info("Waiting for global step %d before starting training.",
                    self._wait_until_step)
        last_logged_step = 0
        while True:
            current_step = run_context.session.run(self._global_step_tensor)
            if current_step >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if current_step - last_logged_step > 1000:
                logger.info("Waiting for global step %d before starting training. Current "
                            "step is %d.", self._wait_until_step, current_step)
                last_logged_step = current_step
            time.sleep(0.5)


class FinalOpsHook(SessionRunHook):
    """Runs `final_ops` (a tensor, list or dict) once when the session ends; the values are
    then in `final_ops_values`."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session):
        if self._final_ops is None:
            return
        try:
            self._final_ops_values = session.run(self._final_ops,
                                                 feed_dict=self._final_ops_feed_dict)
        except (errors.OutOfRangeError, StopIteration):
            logger.warning("An OutOfRangeError or StopIteration exception is raised by the code "
                           "in FinalOpsHook. This typically means the ops run by the "
                           "FinalOpsHook depend on an input source (a queue) that is "
                           "exhausted; final ops should only read variables.")
            raise


class FeedFnHook(SessionRunHook):
    """Adds `feed_fn()` (a dict {tensor: value}) to the feeds of every run."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())
