"""train_and_evaluate -- mirrors TensorFlow's training.py
(tensorflow_estimator/python/estimator/training.py), the TF-1 recipe for distributed training.

Every process of the job runs the *same* program:

    tf.estimator.train_and_evaluate(estimator,
                                    tf.estimator.TrainSpec(train_input_fn, max_steps=1000),
                                    tf.estimator.EvalSpec(eval_input_fn, steps=10))

and does what its TF_CONFIG task says (RunConfig, run_config.py):

  ps         starts its tf.train.Server and joins it: it only holds variables;
  chief      starts its server and trains between-graph: its graph is built under
             replica_device_setter (variables on the ps), its MonitoredTrainingSession runs on
             its own server, initializes the variables (or restores the latest checkpoint)
             and saves checkpoints to model_dir until the global step reaches max_steps;
  worker     the same, but waits for the chief to initialize, saves nothing, and starts
             (task_id + 1) * 5 seconds late (at most 60), as TF does, so the chief goes first;
  evaluator  starts no server: after start_delay_secs it evaluates each new checkpoint of
             model_dir (at most every throttle_secs) in a local session, and stops once it
             has evaluated a checkpoint at max_steps;
  no TF_CONFIG (local): trains, evaluating after every checkpoint saved (throttled) and at
             the end; returns (the last evaluation's metrics, export results []).

The chief and workers share model_dir (a shared file system); only the chief writes to it.
"""
import collections
import time

from ..framework.graph import GraphKeys
from ..train.basic_session_run_hooks import CheckpointSaverListener, SecondOrStepTimer
from ..train.session_run_hook import SessionRunHook
from ..train.session_manager import logger as _log   # 'sandbox.train', as the hooks log
from .estimator import Estimator
from .run_config import TaskType

__all__ = ["TrainSpec", "EvalSpec", "train_and_evaluate"]

_DELAY_SECS_PER_WORKER = 5        # worker k starts (k + 1) * 5 s after the chief (TF's)
_MAX_DELAY_SECS = 60
_TRAINER_JOBS = (TaskType.CHIEF, TaskType.MASTER, TaskType.WORKER)


def _validate_input_fn(input_fn):
    if not callable(input_fn):
        raise TypeError(f"`input_fn` must be callable, given: {input_fn}")


def _validate_hooks(hooks):
    hooks = tuple(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be `SessionRunHook` instances, given: {hook}")
    return hooks


class TrainSpec(collections.namedtuple("TrainSpec", ["input_fn", "max_steps", "hooks"])):
    """What to train on and until which global step (None: until the input ends)."""

    def __new__(cls, input_fn, max_steps=None, hooks=None):
        _validate_input_fn(input_fn)
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        return super().__new__(cls, input_fn=input_fn, max_steps=max_steps,
                               hooks=_validate_hooks(hooks))


class EvalSpec(collections.namedtuple("EvalSpec", [
        "input_fn", "steps", "name", "hooks", "exporters", "start_delay_secs",
        "throttle_secs"])):
    """What to evaluate on (`steps` batches; None: until the input ends), under which name,
    after how long (start_delay_secs) and how often at most (throttle_secs)."""

    def __new__(cls, input_fn, steps=100, name=None, hooks=None, exporters=None,
                start_delay_secs=120, throttle_secs=600):
        _validate_input_fn(input_fn)
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"`name` must be string, given: {name}")
        if exporters:
            raise NotImplementedError("EvalSpec(exporters=...): the sandbox does not export "
                                      "SavedModels.")
        if start_delay_secs < 0:
            raise ValueError(f"Must specify start_delay_secs >= 0, given: {start_delay_secs}")
        if throttle_secs < 0:
            raise ValueError(f"Must specify throttle_secs >= 0, given: {throttle_secs}")
        return super().__new__(cls, input_fn=input_fn, steps=steps, name=name,
                               hooks=_validate_hooks(hooks), exporters=(),
                               start_delay_secs=start_delay_secs, throttle_secs=throttle_secs)


def train_and_evaluate(estimator, train_spec, eval_spec):
    """Trains and evaluates as this process's TF_CONFIG task says; see the module docstring.
    Returns (metrics, export_results) locally, None on a cluster task."""
    if not isinstance(estimator, Estimator):
        raise TypeError(f"`estimator` must have type `tf.estimator.Estimator`. Got: "
                        f"{type(estimator)}")
    if not isinstance(train_spec, TrainSpec):
        raise TypeError(f"`train_spec` must have type `tf.estimator.TrainSpec`. Got: "
                        f"{type(train_spec)}")
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError(f"`eval_spec` must have type `tf.estimator.EvalSpec`. Got: "
                        f"{type(eval_spec)}")
    config = estimator.config
    if config.task_type == TaskType.EVALUATOR and config.task_id > 0:
        raise ValueError("For distributed training, there can only be one `evaluator` task "
                         f"(with task id 0).  Given task id {config.task_id}")
    return _TrainingExecutor(estimator, train_spec, eval_spec).run()


class _EvalResult(collections.namedtuple("EvalResult",
                                         ["status", "metrics", "checkpoint_path"])):
    EVALUATED, MISSING_CHECKPOINT, NO_NEW_CHECKPOINT = \
        "evaluated", "missing checkpoint", "no new checkpoint"


class _Evaluator:
    """Evaluates the latest checkpoint, unless it was evaluated already."""

    def __init__(self, estimator, eval_spec, max_training_steps):
        self._estimator = estimator
        self._eval_spec = eval_spec
        self._max_training_steps = max_training_steps
        self._previous_ckpt_path = None
        self._last_warning_time = 0

    def evaluate(self):
        latest = self._estimator.latest_checkpoint()
        if not latest:
            self._log_err_msg("Estimator is not trained yet. Will start an evaluation when a "
                              "checkpoint is ready.")
            return _EvalResult(_EvalResult.MISSING_CHECKPOINT, None, None)
        if latest == self._previous_ckpt_path:
            self._log_err_msg("No new checkpoint ready for evaluation. Skip the current "
                              "evaluation pass as evaluation results are expected to be same "
                              "for the same checkpoint.")
            return _EvalResult(_EvalResult.NO_NEW_CHECKPOINT, None, None)
        metrics = self._estimator.evaluate(
            input_fn=self._eval_spec.input_fn, steps=self._eval_spec.steps,
            name=self._eval_spec.name, checkpoint_path=latest, hooks=self._eval_spec.hooks)
        self._last_warning_time = 0
        self._previous_ckpt_path = latest
        return _EvalResult(_EvalResult.EVALUATED, metrics, latest)

    def _log_err_msg(self, message):
        now = time.time()
        if now - self._last_warning_time > 600:
            _log.warning(message)
            self._last_warning_time = now


class _NewCheckpointListenerForEvaluate(CheckpointSaverListener):
    """Evaluates after each checkpoint the training saves (but the first, and at most every
    `throttle_secs`), and at the end (local train_and_evaluate)."""

    def __init__(self, evaluator, throttle_secs):
        self._evaluator = evaluator
        self._throttle_secs = throttle_secs
        self.eval_result = None

    def begin(self):
        self._timer = SecondOrStepTimer(every_secs=self._throttle_secs)
        self._is_first_run = True

    def after_save(self, session, global_step_value):
        if self._is_first_run:             # the checkpoint saved when the session started
            self._is_first_run = False
            return
        if self._timer.should_trigger_for_step(global_step_value):
            self._evaluate(global_step_value)
        else:
            _log.info("Skip the current checkpoint eval due to throttle secs (%s secs).",
                      self._throttle_secs)

    def end(self, session, global_step_value):
        if global_step_value != self._timer.last_triggered_step():
            self._evaluate(global_step_value)

    def _evaluate(self, global_step_value):
        self._timer.update_last_triggered_step(global_step_value)
        self.eval_result = self._evaluator.evaluate()
        if self.eval_result.status != _EvalResult.EVALUATED:
            raise RuntimeError("There was no new checkpoint after the training. Eval status: "
                               f"{self.eval_result.status}")


def _existing_server(config):
    """The server of this task already running in this process (a LocalCluster task
    running the program with run_in_task), or None."""
    from ..runtime.task_server import in_process_server
    address = config.cluster_spec.task_address(config.task_type, config.task_id)
    host, _, port = address.rpartition(":")
    return in_process_server((host, int(port)))


class _TrainingExecutor:
    """Runs the part of train_and_evaluate that this task's type calls for."""

    def __init__(self, estimator, train_spec, eval_spec):
        self._estimator = estimator
        self._train_spec = train_spec
        self._eval_spec = eval_spec

    def run(self):
        config = self._estimator.config
        if not config.cluster_spec and config.task_type != TaskType.EVALUATOR:
            _log.info("Running training and evaluation locally (non-distributed).")
            return self.run_local()
        if not config.task_type:
            raise ValueError("`estimator.config` must have task_type set. This usually means "
                             "TF_CONFIG environment is not set correctly.")
        if config.task_type == "local":
            raise ValueError("`task.type` in TF_CONFIG cannot be `local`. Leaving `cluster` "
                             "and `task` properties in TF_CONFIG absent triggers train and "
                             "evaluate `Estimator` locally (non-distributed).")
        runners = {"chief": self.run_chief, "master": self.run_master,
                   "worker": self.run_worker, "ps": self.run_ps,
                   "evaluator": self.run_evaluator}
        if config.task_type not in runners:
            raise ValueError(f"Task type {config.task_type} is not supported. Supported task "
                             f"types are {sorted(runners)}")
        runners[config.task_type]()
        return None

    # -- the task types -----------------------------------------------------------------
    def run_chief(self):
        return self._start_distributed_training()

    def run_worker(self):
        return self._start_distributed_training()

    def run_master(self):
        raise NotImplementedError("The legacy `master` task type (a chief that also "
                                  "evaluates) is not supported by the sandbox: use `chief` "
                                  "and an `evaluator` task.")

    def run_ps(self):
        server = self._start_std_server(self._estimator.config)
        server.join()

    def run_evaluator(self):
        return self._start_continuous_evaluation()

    def run_local(self):
        config = self._estimator.config
        _log.info("Start train and evaluate loop. The evaluate will happen after every "
                  "checkpoint. Checkpoint frequency is determined based on RunConfig "
                  "arguments: save_checkpoints_steps %s or save_checkpoints_secs %s.",
                  config.save_checkpoints_steps, config.save_checkpoints_secs)
        evaluator = _Evaluator(self._estimator, self._eval_spec, self._train_spec.max_steps)
        listener = _NewCheckpointListenerForEvaluate(evaluator, self._eval_spec.throttle_secs)
        self._estimator.train(input_fn=self._train_spec.input_fn,
                              max_steps=self._train_spec.max_steps,
                              hooks=list(self._train_spec.hooks), saving_listeners=[listener])
        result = listener.eval_result or _EvalResult(_EvalResult.MISSING_CHECKPOINT, None,
                                                     None)
        return result.metrics, []

    # -- helpers ----------------------------------------------------------------------
    def _start_std_server(self, config):
        """Starts this task's tf.train.Server (or, in a LocalCluster task that already runs
        one, uses it: a port cannot be bound twice)."""
        from ..train.server_lib import Server
        if not config.cluster_spec or not config.task_type or config.task_id is None:
            raise RuntimeError("Could not start server; be sure to specify cluster_spec, "
                               "task_type, and task in RunConfig or set the TF_CONFIG "
                               "environment variable.")
        if not config.master:
            jobs = config.cluster_spec.jobs
            if len(jobs) == 1 and len(config.cluster_spec.job_tasks(jobs[0])) == 1 and \
                    config.task_type in _TRAINER_JOBS:
                _log.info("Skip starting Tensorflow server as there is only one node in the "
                          "cluster.")
                return None
            raise RuntimeError("Could not start server; be sure to specify master in "
                               "RunConfig or set the TF_CONFIG environment variable.")
        existing = _existing_server(config)
        if existing is not None:
            _log.info("Using the server of %s already running in this process.",
                      f"/job:{config.task_type}/task:{config.task_id}")
            return existing
        _log.info("Start Tensorflow server.")
        return Server(config.cluster_spec, job_name=config.task_type,
                      task_index=config.task_id, protocol=config.protocol)

    def _start_distributed_training(self, saving_listeners=None):
        config = self._estimator.config
        self._start_std_server(config)
        delay = 0
        if config.task_type == TaskType.WORKER:
            max_delay = _MAX_DELAY_SECS
            if config.experimental_max_worker_delay_secs is not None:
                max_delay = int(config.experimental_max_worker_delay_secs)
            delay = min(max_delay, (config.task_id + 1) * _DELAY_SECS_PER_WORKER)
        if delay > 0:
            _log.info("Waiting %d secs before starting training.", delay)
            time.sleep(delay)
        self._estimator.train(input_fn=self._train_spec.input_fn,
                              max_steps=self._train_spec.max_steps,
                              hooks=list(self._train_spec.hooks),
                              saving_listeners=saving_listeners)

    def _start_continuous_evaluation(self):
        if self._eval_spec.start_delay_secs:
            _log.info("Waiting %f secs before starting eval.", self._eval_spec.start_delay_secs)
            time.sleep(self._eval_spec.start_delay_secs)
        evaluator = _Evaluator(self._estimator, self._eval_spec, self._train_spec.max_steps)
        latest = None
        while True:
            if latest is not None and latest.status == _EvalResult.EVALUATED:
                step = latest.metrics.get(GraphKeys.GLOBAL_STEP)
                if step and self._train_spec.max_steps and step >= self._train_spec.max_steps:
                    _log.info("Exiting evaluation, global_step=%s >= train max_steps=%s",
                              step, self._train_spec.max_steps)
                    return latest.metrics
            start = time.time()
            latest = evaluator.evaluate()
            wait = self._eval_spec.throttle_secs - (time.time() - start)
            if wait > 0:
                _log.info("Waiting %f secs before starting next eval run.", wait)
                time.sleep(wait)
            elif self._eval_spec.throttle_secs == 0 and latest.status != _EvalResult.EVALUATED:
                _log.warning("EvalSpec.throttle_secs is set as 0. This might overload the job "
                             "before finding (next) new checkpoint. Please consider to "
                             "increase it.")
