"""The Estimator -- mirrors TensorFlow's Estimator (tensorflow_estimator/python/estimator/
estimator.py), the TF-1 way to write a model once and run it alone or on a cluster.

The program gives two functions; the Estimator owns the graphs, sessions and checkpoints:

    def input_fn():                  # -> (features, labels): tensors, e.g. from a queue
    def model_fn(features, labels, mode, params, config):   # -> tf.estimator.EstimatorSpec

    est = tf.estimator.Estimator(model_fn, model_dir="/tmp/mnist")
    est.train(input_fn, max_steps=1000)      # until the global step is 1000
    est.evaluate(eval_input_fn, steps=10)    # {'loss': ..., 'accuracy': ..., 'global_step': 1000}
    for p in est.predict(predict_input_fn): ...

Every call builds a *new graph* (input_fn, then model_fn in that mode) and runs it in a
MonitoredSession, so nothing lives between calls but the files in model_dir:

  train     a MonitoredTrainingSession on RunConfig.master: the chief restores the latest
            checkpoint (so a second train() goes on from the saved global step) or
            initializes; a CheckpointSaverHook saves every save_checkpoints_steps/secs and
            at the end; StopAtStepHook stops at max_steps (or after `steps` more).
            On a cluster (TF_CONFIG) the graph is built under replica_device_setter: the
            variables go to the ps tasks, everything else stays on this task.
  evaluate  restores the latest checkpoint in a session of its own, runs the metric update
            ops (evaluation.py), writes the results as summaries to model_dir/eval.
  predict   restores the latest checkpoint, yields the predictions one example at a time
            until the input raises OutOfRangeError.
  export_saved_model   (or export_savedmodel) the PREDICT graph of a serving input receiver
            and the latest checkpoint as a SavedModel (export/saved_model_export.py).

Estimator(warm_start_from=...) -- a checkpoint (directory or prefix), a SavedModel directory
or a WarmStartSettings -- calls tf.train.warm_start (train/warm_starting_util.py) in every
training graph, after model_fn: the variables' initializers then read that checkpoint, which
matters only while model_dir has no checkpoint of its own (one there is restored instead).
"""
import collections
import inspect
import os
import tempfile

import numpy as np

from ..client.config import ConfigProto
from ..framework.graph import Graph, GraphKeys, get_collection, add_to_collection
from ..ops import control_flow_ops
from ..ops.random_ops import set_random_seed
from ..train import checkpoint_management, training_util
from ..train.basic_session_run_hooks import CheckpointSaverHook, LoggingTensorHook, \
    NanTensorHook, StopAtStepHook, _get_or_create_global_step_read
from ..train.device_setter import STANDARD_PS_OPS, replica_device_setter
from ..train.monitored_session import ChiefSessionCreator, MonitoredSession, \
    MonitoredTrainingSession
from ..train.saver import Saver
from ..train.session_run_hook import SessionRunHook
from ..train.session_manager import logger as _log   # 'sandbox.train', as the hooks log
from ..train.warm_starting_util import VocabInfo, warm_start
from . import evaluation
from .export import saved_model_export
from .model_fn import EstimatorSpec, ModeKeys, LOSS_METRIC_KEY
from .run_config import RunConfig

__all__ = ["Estimator", "WarmStartSettings", "VocabInfo"]


class WarmStartSettings(collections.namedtuple("WarmStartSettings", [
        "ckpt_to_initialize_from", "vars_to_warm_start", "var_name_to_vocab_info",
        "var_name_to_prev_var_name"])):
    """What Estimator(warm_start_from=...) warm-starts: the arguments of tf.train.warm_start
    (TF's tf.estimator.WarmStartSettings, same defaults)."""

    def __new__(cls, ckpt_to_initialize_from, vars_to_warm_start=".*",
                var_name_to_vocab_info=None, var_name_to_prev_var_name=None):
        if not ckpt_to_initialize_from:
            raise ValueError("`ckpt_to_initialize_from` MUST be set in WarmStartSettings")
        return super().__new__(cls, ckpt_to_initialize_from, vars_to_warm_start,
                               var_name_to_vocab_info or {}, var_name_to_prev_var_name or {})


def _get_default_warm_start_settings(warm_start_from):
    """WarmStartSettings from warm_start_from: None, a checkpoint path (a SavedModel
    directory stands for its variables/variables checkpoint) or WarmStartSettings."""
    if warm_start_from is None:
        return None
    if isinstance(warm_start_from, (str, bytes, os.PathLike)):
        path = os.fsdecode(warm_start_from)
        saved_model_variables = os.path.join(path, "variables", "variables")
        if os.path.exists(saved_model_variables + ".index"):
            _log.info("Warm-starting from a SavedModel")
            return WarmStartSettings(ckpt_to_initialize_from=saved_model_variables)
        return WarmStartSettings(ckpt_to_initialize_from=path)
    if isinstance(warm_start_from, WarmStartSettings):
        return warm_start_from
    raise ValueError(f"warm_start_from must be a string or a WarmStartSettings, instead got "
                     f"{type(warm_start_from)}")


_VALID_MODEL_FN_ARGS = {"features", "labels", "mode", "params", "self", "config"}


def _fn_args(fn):
    return tuple(inspect.signature(fn).parameters)


def _check_hooks_type(hooks):
    hooks = list(hooks or [])
    for h in hooks:
        if not isinstance(h, SessionRunHook):
            raise TypeError(f"Hooks must be a SessionRunHook, given: {h}")
    return hooks


def _verify_model_fn_args(model_fn, params):
    args = set(_fn_args(model_fn))
    if "features" not in args:
        raise ValueError(f"model_fn ({model_fn}) must include features argument.")
    if params is not None and "params" not in args:
        raise ValueError(f"model_fn ({model_fn}) does not include params argument, but params "
                         f"({params}) is passed to Estimator.")
    if params is None and "params" in args:
        _log.warning("Estimator's model_fn (%s) includes params argument, but params are not "
                     "passed to Estimator.", model_fn)
    unexpected = sorted(args - _VALID_MODEL_FN_ARGS)
    if unexpected:
        raise ValueError(f"model_fn ({model_fn}) has following not expected args: {unexpected}")


class _DatasetInitializerHook(SessionRunHook):
    """Runs a dataset iterator's initializer when the session is created."""

    def __init__(self, iterator):
        self._iterator = iterator

    def begin(self):
        self._initializer = self._iterator.initializer

    def after_create_session(self, session, coord):
        session.run(self._initializer)


def _parse_input_fn_result(result):
    """(features, labels, hooks) from what an input_fn returned: (features, labels), features
    alone, or a tf.data Dataset (of either)."""
    hooks = []
    if hasattr(result, "make_initializable_iterator"):
        iterator = result.make_initializable_iterator()
        hooks.append(_DatasetInitializerHook(iterator))
        result = iterator.get_next()
    if isinstance(result, (list, tuple)):
        if len(result) != 2:
            raise ValueError("input_fn should return (features, labels) as a len 2 tuple.")
        return result[0], result[1], hooks
    return result, None, hooks


def _load_global_step_from_checkpoint_dir(checkpoint_dir):
    path = checkpoint_management.latest_checkpoint(checkpoint_dir)
    if not path:
        return 0
    try:
        return int(checkpoint_management.load_variable(path, GraphKeys.GLOBAL_STEP))
    except Exception:             # TF: any failure to read means "start from 0"
        return 0


def _replica_device_setter(config):
    """Variables on the ps tasks, everything else on this task (None without a ps)."""
    if config.task_type:
        worker_device = f"/job:{config.task_type}/task:{config.task_id}"
    else:
        worker_device = "/job:worker"
    if config.num_ps_replicas > 0:
        return replica_device_setter(ps_tasks=config.num_ps_replicas,
                                     worker_device=worker_device, merge_devices=True,
                                     ps_ops=list(STANDARD_PS_OPS), cluster=config.cluster_spec)
    return None


def _write_dict_to_summary(output_dir, dictionary, current_global_step):
    """Writes the scalar results of an evaluation as summaries of `output_dir`."""
    from tensorboardX.proto import summary_pb2
    from ..summary.writer import FileWriterCache
    _log.info("Saving dict for global step %d: %s", current_global_step,
              ", ".join(f"{k} = {v}" for k, v in sorted(dictionary.items())))
    values = []
    for key, value in sorted(dictionary.items()):
        if key == GraphKeys.GLOBAL_STEP:
            continue
        if isinstance(value, (np.floating, float, np.integer, int, np.bool_, bool)) or \
                (isinstance(value, np.ndarray) and value.size == 1):
            values.append(summary_pb2.Summary.Value(tag=key, simple_value=float(value)))
        else:
            _log.warning("Skipping summary for %s, must be a float, np.float32, np.int64, "
                         "np.int32 or int.", key)
    writer = FileWriterCache.get(output_dir)
    writer.add_summary(summary_pb2.Summary(value=values).SerializeToString(),
                       int(current_global_step))
    writer.flush()


class Estimator:
    """Trains, evaluates and predicts with the model of `model_fn`; see the module docstring.

    Args:
      model_fn: model_fn(features, labels, mode, params, config) -> EstimatorSpec (labels,
        mode, params and config are passed only if it takes them).
      model_dir: where checkpoints and summaries go; also RunConfig(model_dir=...) or
        TF_CONFIG["model_dir"]; a new temporary directory when none is given.
      config: a tf.estimator.RunConfig (default: RunConfig(), which reads TF_CONFIG).
      params: a dict handed to model_fn (and to input_fn if it takes `params`).
    """

    def __init__(self, model_fn, model_dir=None, config=None, params=None,
                 warm_start_from=None):
        self._warm_start_settings = _get_default_warm_start_settings(warm_start_from)
        if config is None:
            config = RunConfig()
        if not isinstance(config, RunConfig):
            raise ValueError(f"config must be an instance of `RunConfig`, but provided "
                             f"{config}.")
        if config.session_config is None:
            config = config.replace(session_config=ConfigProto(allow_soft_placement=True))
        model_dir = os.fspath(model_dir) if model_dir is not None else None
        if model_dir is not None and config.model_dir is not None and \
                config.model_dir != model_dir:
            raise ValueError("`model_dir` are set both in constructor and `RunConfig`, but "
                             f"with different values. In constructor: '{model_dir}', in "
                             f"`RunConfig`: '{config.model_dir}' ")
        if model_dir:
            config = config.replace(model_dir=model_dir)
        elif config.model_dir is None:
            model_dir = tempfile.mkdtemp()
            _log.warning("Using temporary folder as model directory: %s", model_dir)
            config = config.replace(model_dir=model_dir)
        self._config = config
        self._model_dir = config.model_dir
        self._session_config = config.session_config
        _log.info("Using config: %r", config)
        self._device_fn = config.device_fn or _replica_device_setter(config)
        if model_fn is None:
            raise ValueError("model_fn must be provided to Estimator.")
        _verify_model_fn_args(model_fn, params)
        self._model_fn = model_fn
        self._params = dict(params or {})

    # -- properties ------------------------------------------------------------------
    @property
    def model_dir(self):
        return self._model_dir

    @property
    def config(self):
        return self._config

    @property
    def params(self):
        return dict(self._params)

    @property
    def model_fn(self):
        """The model_fn, called as the Estimator calls it: (features, labels, mode, config)."""
        def public_model_fn(features, labels, mode, config):
            return self._call_model_fn(features, labels, mode, config)
        return public_model_fn

    # -- checkpoints -----------------------------------------------------------------
    def latest_checkpoint(self):
        """The path of the newest checkpoint in model_dir, or None."""
        return checkpoint_management.latest_checkpoint(self.model_dir)

    def _check_checkpoint_available(self):
        if not self.latest_checkpoint():
            raise ValueError(f"Could not find trained model in model_dir: {self.model_dir}.")

    def get_variable_names(self):
        """The names of the variables in the latest checkpoint."""
        self._check_checkpoint_available()
        return [name for name, _ in checkpoint_management.list_variables(self.model_dir)]

    def get_variable_value(self, name):
        """The value of variable `name` in the latest checkpoint (a NumPy array)."""
        self._check_checkpoint_available()
        return checkpoint_management.load_variable(self.model_dir, name)

    def eval_dir(self, name=None):
        """Where evaluate() writes its summaries: model_dir/eval or model_dir/eval_<name>."""
        return os.path.join(self._model_dir, "eval" if not name else "eval_" + name)

    # -- calling the program's functions -----------------------------------------------
    def _call_input_fn(self, input_fn, mode):
        args = _fn_args(input_fn)
        kwargs = {}
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = self.config
        return input_fn(**kwargs)

    def _call_model_fn(self, features, labels, mode, config):
        args = _fn_args(self._model_fn)
        kwargs = {}
        if "labels" in args:
            kwargs["labels"] = labels
        elif labels is not None:
            raise ValueError("model_fn does not take labels, but input_fn returns labels.")
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = config
        _log.info("Calling model_fn.")
        spec = self._model_fn(features=features, **kwargs)
        _log.info("Done calling model_fn.")
        if not isinstance(spec, EstimatorSpec):
            raise ValueError(f"model_fn should return an EstimatorSpec, got "
                             f"{type(spec).__name__}: build it with tf.estimator.EstimatorSpec("
                             "mode, predictions=..., loss=..., train_op=...).")
        return spec

    @staticmethod
    def _create_and_assert_global_step(graph):
        step = training_util.create_global_step(graph)
        training_util.assert_global_step(step)
        return step

    # -- train -----------------------------------------------------------------------
    def train(self, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
        """Trains until `steps` more steps are done, the global step reaches `max_steps`, or
        the input ends (OutOfRangeError). Returns self."""
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        if max_steps is not None:
            start_step = _load_global_step_from_checkpoint_dir(self._model_dir)
            if max_steps <= start_step:
                _log.info("Skipping training since max_steps has already saved.")
                return self
        hooks = _check_hooks_type(hooks)
        if steps is not None or max_steps is not None:
            hooks.append(StopAtStepHook(steps, max_steps))
        saving_listeners = list(saving_listeners or [])
        loss = self._train_model(input_fn, hooks, saving_listeners)
        _log.info("Loss for final step: %s.", loss)
        return self

    def _train_model(self, input_fn, hooks, saving_listeners):
        worker_hooks = []
        with Graph().as_default() as g, g.device(self._device_fn):
            set_random_seed(self._config.tf_random_seed)
            global_step = self._create_and_assert_global_step(g)
            _get_or_create_global_step_read(g)
            features, labels, input_hooks = _parse_input_fn_result(
                self._call_input_fn(input_fn, ModeKeys.TRAIN))
            worker_hooks.extend(input_hooks)
            spec = self._call_model_fn(features, labels, ModeKeys.TRAIN, self.config)
            global_step = training_util.get_global_step(g)
            return self._train_with_estimator_spec(spec, worker_hooks, hooks, global_step,
                                                   saving_listeners)

    def _train_with_estimator_spec(self, spec, worker_hooks, hooks, global_step,
                                   saving_listeners):
        from ..summary import scalar
        if self._warm_start_settings:
            _log.info("Warm-starting with WarmStartSettings: %s", self._warm_start_settings)
            warm_start(*self._warm_start_settings)
        if not any(getattr(x, "op", x).name == "loss"
                   for x in get_collection(GraphKeys.SUMMARIES)):
            scalar("loss", spec.loss)
        add_to_collection(GraphKeys.LOSSES, spec.loss)
        worker_hooks.extend(hooks)
        worker_hooks.append(NanTensorHook(spec.loss))
        if self._config.log_step_count_steps is not None:
            worker_hooks.append(LoggingTensorHook({"loss": spec.loss, "step": global_step},
                                                  every_n_iter=self._config.log_step_count_steps))
        worker_hooks.extend(spec.training_hooks)
        if not (spec.scaffold.saver or get_collection(GraphKeys.SAVERS)):
            add_to_collection(GraphKeys.SAVERS, Saver(
                sharded=True, max_to_keep=self._config.keep_checkpoint_max,
                keep_checkpoint_every_n_hours=self._config.keep_checkpoint_every_n_hours,
                defer_build=True, save_relative_paths=True))
        chief_hooks = []
        all_hooks = worker_hooks + list(spec.training_chief_hooks)
        saver_hooks = [h for h in all_hooks if isinstance(h, CheckpointSaverHook)]
        if self._config.save_checkpoints_secs or self._config.save_checkpoints_steps:
            if not saver_hooks:
                chief_hooks = [CheckpointSaverHook(
                    self._model_dir, save_secs=self._config.save_checkpoints_secs,
                    save_steps=self._config.save_checkpoints_steps, scaffold=spec.scaffold)]
                saver_hooks = [chief_hooks[0]]
        if saving_listeners:
            if not saver_hooks:
                raise ValueError("There should be a CheckpointSaverHook to use "
                                 "saving_listeners. Please set one of the "
                                 "RunConfig.save_checkpoints_steps or "
                                 "RunConfig.save_checkpoints_secs.")
            for listener in saving_listeners:
                if listener not in saver_hooks[0]._listeners:
                    saver_hooks[0]._listeners.append(listener)
        loss, any_step_done = None, False
        with MonitoredTrainingSession(
                master=self._config.master, is_chief=self._config.is_chief,
                checkpoint_dir=self._model_dir, scaffold=spec.scaffold, hooks=worker_hooks,
                chief_only_hooks=tuple(chief_hooks) + tuple(spec.training_chief_hooks),
                save_checkpoint_secs=0,                 # the CheckpointSaverHook saves
                save_summaries_steps=self._config.save_summary_steps,
                config=self._session_config,
                max_wait_secs=self._config.session_creation_timeout_secs,
                log_step_count_steps=self._config.log_step_count_steps) as mon_sess:
            while not mon_sess.should_stop():
                _, loss = mon_sess.run([spec.train_op, spec.loss])
                any_step_done = True
        if not any_step_done:
            _log.warning("Training with estimator made no steps. Perhaps input is empty or "
                         "misspecified.")
        return loss

    # -- evaluate --------------------------------------------------------------------
    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None):
        """Evaluates the latest checkpoint (or `checkpoint_path`) on `steps` batches of
        input_fn (all of them when steps is None) and returns a dict with 'loss' (the mean
        loss), every eval_metric_ops value, and 'global_step'."""
        hooks = _check_hooks_type(hooks)
        if steps is not None:
            if steps <= 0:
                raise ValueError(f"Must specify steps > 0, given: {steps}")
            hooks.append(evaluation.StopAfterNEvalsHook(num_evals=steps))
        if not checkpoint_path:
            checkpoint_path = self.latest_checkpoint()
            if not checkpoint_path:
                _log.info("Could not find trained model in model_dir: %s, running "
                          "initialization to evaluate.", self._model_dir)
        with Graph().as_default() as g:
            set_random_seed(self._config.tf_random_seed)
            self._create_and_assert_global_step(g)
            features, labels, input_hooks = _parse_input_fn_result(
                self._call_input_fn(input_fn, ModeKeys.EVAL))
            spec = self._call_model_fn(features, labels, ModeKeys.EVAL, self.config)
            metric_ops = dict(spec.eval_metric_ops)
            if LOSS_METRIC_KEY in metric_ops:
                raise ValueError(f'Metric with name "{LOSS_METRIC_KEY}" is not allowed, because '
                                 "Estimator already defines a default metric with the same "
                                 "name.")
            metric_ops[LOSS_METRIC_KEY] = evaluation.mean(spec.loss)
            update_ops, eval_dict = [], {}
            for key, (value, update) in sorted(metric_ops.items()):  # TF sorts them too
                eval_dict[key] = value
                update_ops.append(update)
            update_op = control_flow_ops.group(*update_ops)
            if GraphKeys.GLOBAL_STEP in eval_dict:
                raise ValueError("Metric with name `global_step` is not allowed, because "
                                 "Estimator already defines a default metric with the same "
                                 "name.")
            eval_dict[GraphKeys.GLOBAL_STEP] = training_util.get_global_step(g)
            all_hooks = list(input_hooks) + hooks + list(spec.evaluation_hooks)
            scaffold = evaluation._eval_scaffold(spec.scaffold)
            results = evaluation.evaluate_once(
                checkpoint_path, master=self._config.evaluation_master, scaffold=scaffold,
                eval_ops=update_op, final_ops=eval_dict, hooks=all_hooks,
                config=self._session_config)
        if results is None:
            raise RuntimeError("Evaluation produced no results: the final ops did not run.")
        _write_dict_to_summary(self.eval_dir(name), results, results[GraphKeys.GLOBAL_STEP])
        return results

    # -- export ----------------------------------------------------------------------
    def export_saved_model(self, export_dir_base, serving_input_receiver_fn,
                           assets_extra=None, as_text=False, checkpoint_path=None,
                           experimental_mode=ModeKeys.PREDICT):
        """Writes the PREDICT graph of serving_input_receiver_fn() and the latest checkpoint
        as a SavedModel in export_dir_base/<timestamp>; returns that directory (bytes)."""
        return saved_model_export.export_all_saved_models(
            self, export_dir_base, {experimental_mode: serving_input_receiver_fn},
            assets_extra=assets_extra, as_text=as_text, checkpoint_path=checkpoint_path)

    def export_savedmodel(self, export_dir_base, serving_input_receiver_fn, assets_extra=None,
                          as_text=False, checkpoint_path=None, strip_default_attrs=False):
        """TF-1's name of export_saved_model (deprecated in TF, kept working)."""
        return self.export_saved_model(export_dir_base, serving_input_receiver_fn,
                                       assets_extra, as_text, checkpoint_path)

    # -- predict ---------------------------------------------------------------------
    def predict(self, input_fn, predict_keys=None, hooks=None, checkpoint_path=None,
                yield_single_examples=True):
        """Yields the predictions of the latest checkpoint for every example of input_fn (a
        dict per example when predictions is a dict), until the input ends."""
        hooks = _check_hooks_type(hooks)
        if not checkpoint_path:
            checkpoint_path = self.latest_checkpoint()
        if not checkpoint_path:
            _log.info("Could not find trained model in model_dir: %s, running initialization "
                      "to predict.", self._model_dir)
        with Graph().as_default() as g:
            set_random_seed(self._config.tf_random_seed)
            self._create_and_assert_global_step(g)
            features, _, input_hooks = _parse_input_fn_result(
                self._call_input_fn(input_fn, ModeKeys.PREDICT))
            spec = self._call_model_fn(features, None, ModeKeys.PREDICT, self.config)
            predictions = self._extract_keys(spec.predictions, predict_keys)
            all_hooks = list(input_hooks) + hooks + list(spec.prediction_hooks)
            creator = ChiefSessionCreator(checkpoint_filename_with_path=checkpoint_path,
                                          master=self._config.master, scaffold=spec.scaffold,
                                          config=self._session_config)
            with MonitoredSession(session_creator=creator, hooks=all_hooks) as mon_sess:
                while not mon_sess.should_stop():
                    preds = mon_sess.run(predictions)
                    if not yield_single_examples:
                        yield preds
                    elif not isinstance(predictions, dict):
                        yield from preds
                    else:
                        for i in range(self._extract_batch_length(preds)):
                            yield {key: value[i] for key, value in preds.items()}

    @staticmethod
    def _extract_keys(predictions, predict_keys):
        if not predict_keys:
            return predictions
        if not isinstance(predictions, dict):
            raise ValueError("predict_keys argument is not valid in case of non-dict "
                             "predictions.")
        existing = list(predictions.keys())
        predictions = {k: v for k, v in predictions.items() if k in predict_keys}
        if not predictions:
            raise ValueError(f"Expected to run at least one output from {existing}, provided "
                             f"{predict_keys}.")
        return predictions

    @staticmethod
    def _extract_batch_length(preds):
        length = None
        for key, value in preds.items():
            length = length or value.shape[0]
            if value.shape[0] != length:
                raise ValueError(f"Batch length of predictions should be same. {key} has "
                                 "different batch length than others.")
        return length
