"""Where and how an Estimator runs -- mirrors TensorFlow's RunConfig
(tensorflow_estimator/python/estimator/run_config.py).

A RunConfig holds two kinds of settings:

  * what the program chooses: model_dir (checkpoints and summaries), save_checkpoints_steps
    or save_checkpoints_secs (600 s unless one is given; never both), keep_checkpoint_max,
    save_summary_steps, log_step_count_steps, tf_random_seed, session_config;
  * what the process *is*, read from the TF_CONFIG environment variable (parsed by
    sandbox/train/tf_config.py): cluster_spec, task_type, task_id, master, is_chief,
    num_ps_replicas, num_worker_replicas, global_id_in_cluster.

With TF_CONFIG = {"cluster": {"chief": [c], "ps": [p0, p1], "worker": [w0, w1]},
"task": {"type": "worker", "index": 1}} TensorFlow 1.15 gives (and so does the sandbox):

    task      master        is_chief  num_ps  num_worker  global_id  session_config.device_filters
    chief 0   grpc://c      True      2       3           0          /job:ps, /job:chief
    worker 1  grpc://w1     False     2       3           2          /job:ps, /job:worker/task:1
    ps 1      grpc://p1     False     2       3           4          /job:ps, /job:worker, ...
    evaluator ''            False     0       0           None       (none: session_config None)
    no TF_CONFIG: task worker 0, master '', is_chief True, 0 ps, 1 worker, cluster_spec empty

A cluster must have exactly one "chief" (TF's rule); the chief counts as a worker replica.
The evaluator sees an empty cluster: it evaluates checkpoints in its own process and never
joins the training cluster.
"""
import copy
import os

from ..client.config import ConfigProto
from ..train.cluster_spec import ClusterSpec
from ..train.tf_config import TFConfigClusterResolver, _load_tf_config
from ..train.session_manager import logger as _log   # 'sandbox.train', as the hooks log

__all__ = ["RunConfig", "TaskType"]

_USE_DEFAULT = object()
_LOCAL_MASTER = ""
_GRPC_SCHEME = "grpc://"
_SAVE_CKPT_ERR = "`save_checkpoints_steps` and `save_checkpoints_secs` cannot be both set."
_REPLACEABLE = ["model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
                "save_checkpoints_secs", "session_config", "keep_checkpoint_max",
                "keep_checkpoint_every_n_hours", "log_step_count_steps", "train_distribute",
                "device_fn", "protocol", "eval_distribute", "experimental_distribute",
                "experimental_max_worker_delay_secs", "session_creation_timeout_secs"]


class TaskType:
    MASTER = "master"
    PS = "ps"
    WORKER = "worker"
    CHIEF = "chief"
    EVALUATOR = "evaluator"


def _validate_task(cluster_spec, resolver, chief_type):
    """(task_type, task_id) of this process, checked against the cluster as TF checks them."""
    if chief_type not in cluster_spec.jobs:
        raise ValueError(f'If "cluster" is set in TF_CONFIG, it must have one "{chief_type}" '
                         'node.')
    if len(cluster_spec.job_tasks(chief_type)) > 1:
        raise ValueError(f'The "cluster" in TF_CONFIG must have only one "{chief_type}" node.')
    task_type, task_id = resolver.task_type, resolver.task_id
    if not task_type:
        raise ValueError('If "cluster" is set in TF_CONFIG, task type must be set.')
    if task_id is None:
        raise ValueError('If "cluster" is set in TF_CONFIG, task index must be set.')
    if task_type == TaskType.EVALUATOR:
        return task_type, task_id
    if task_type not in cluster_spec.jobs:
        raise ValueError(f"{task_type} is not a valid task_type in the cluster_spec:\n"
                         f"{cluster_spec}\n\nNote that these values may be coming from the "
                         "TF_CONFIG environment variable.")
    if not 0 <= task_id < len(cluster_spec.job_tasks(task_type)):
        raise ValueError(f"{task_id} is not a valid task_id for task_type {task_type} in the "
                         f"cluster_spec:\n{cluster_spec}\n\nNote that these values may be "
                         "coming from the TF_CONFIG environment variable.")
    return task_type, task_id


def _global_id(cluster_spec, task_type, task_id, chief_type):
    """The task's number among all tasks: the chief first, then the other jobs by name, the
    ps last."""
    order = [chief_type] + [t for t in sorted(cluster_spec.jobs)
                            if t not in (chief_type, TaskType.PS)]
    if TaskType.PS in cluster_spec.jobs:
        order.append(TaskType.PS)
    next_id = 0
    for t in order:
        if t == task_type:
            return next_id + task_id
        next_id += len(cluster_spec.job_tasks(t))
    raise RuntimeError(f"Internal Error: `task_type` ({task_type}) is not in cluster_spec "
                       f"({cluster_spec}).")


def _session_master(cluster_spec, task_type, task_id, tf_config):
    if "session_master" in tf_config:
        return tf_config["session_master"]
    jobs = cluster_spec.jobs
    if len(jobs) == 1 and len(cluster_spec.job_tasks(jobs[0])) == 1:
        return _LOCAL_MASTER
    return _GRPC_SCHEME + cluster_spec.job_tasks(task_type)[task_id]


def _validate(config):
    def check(name, cond, message):
        value = getattr(config, "_" + name)
        if value is not None and not cond(value):
            raise ValueError(message)
    check("model_dir", lambda d: d, "model_dir should be non-empty")
    check("save_summary_steps", lambda s: s >= 0, "save_summary_steps should be >= 0")
    check("save_checkpoints_steps", lambda s: s >= 0, "save_checkpoints_steps should be >= 0")
    check("save_checkpoints_secs", lambda s: s >= 0, "save_checkpoints_secs should be >= 0")
    check("session_config", lambda c: isinstance(c, ConfigProto),
          "session_config must be instance of ConfigProto")
    check("keep_checkpoint_max", lambda k: k >= 0, "keep_checkpoint_max should be >= 0")
    check("keep_checkpoint_every_n_hours", lambda h: h > 0,
          "keep_checkpoint_every_n_hours should be > 0")
    check("log_step_count_steps", lambda n: n > 0, "log_step_count_steps should be > 0")
    check("tf_random_seed", lambda s: isinstance(s, int), "tf_random_seed must be integer.")
    check("session_creation_timeout_secs", lambda t: t > 0,
          "session_creation_timeout_secs should be > 0")
    check("device_fn", callable, 'device_fn must be callable with exactly one argument "op".')
    check("protocol", lambda p: p in ("grpc", "grpc+verbs"),
          "protocol should be grpc or grpc+verbs")


class RunConfig:
    """The settings of an Estimator's runs, and this process's place in the cluster (from
    TF_CONFIG); see the module docstring."""

    def __init__(self, model_dir=None, tf_random_seed=None, save_summary_steps=100,
                 save_checkpoints_steps=_USE_DEFAULT, save_checkpoints_secs=_USE_DEFAULT,
                 session_config=None, keep_checkpoint_max=5,
                 keep_checkpoint_every_n_hours=10000, log_step_count_steps=100,
                 train_distribute=None, device_fn=None, protocol=None, eval_distribute=None,
                 experimental_distribute=None, experimental_max_worker_delay_secs=None,
                 session_creation_timeout_secs=7200):
        if save_checkpoints_steps is _USE_DEFAULT and save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_steps, save_checkpoints_secs = None, 600
        elif save_checkpoints_secs is _USE_DEFAULT:
            save_checkpoints_secs = None
        elif save_checkpoints_steps is _USE_DEFAULT:
            save_checkpoints_steps = None
        elif save_checkpoints_steps is not None and save_checkpoints_secs is not None:
            raise ValueError(_SAVE_CKPT_ERR)
        if train_distribute or eval_distribute or experimental_distribute:
            raise NotImplementedError("RunConfig: distribution strategies (train_distribute, "
                                      "eval_distribute) are not part of the sandbox; use "
                                      "TF_CONFIG with ps and workers (between-graph).")
        tf_config = _load_tf_config(os.environ)
        if tf_config:
            _log.info("TF_CONFIG environment variable: %s", tf_config)
        if model_dir == "":
            raise ValueError("model_dir should be non-empty.")
        if "model_dir" in tf_config:
            if model_dir and model_dir != tf_config["model_dir"]:
                raise ValueError("`model_dir` provided in RunConfig construct, if set, must "
                                 "have the same value as the model_dir in TF_CONFIG. "
                                 f"model_dir: {model_dir}\nTF_CONFIG['model_dir']: "
                                 f"{tf_config['model_dir']}.\n")
            model_dir = tf_config["model_dir"]
        RunConfig._replace(
            self, model_dir=model_dir, tf_random_seed=tf_random_seed,
            save_summary_steps=save_summary_steps,
            save_checkpoints_steps=save_checkpoints_steps,
            save_checkpoints_secs=save_checkpoints_secs, session_config=session_config,
            keep_checkpoint_max=keep_checkpoint_max,
            keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
            log_step_count_steps=log_step_count_steps, train_distribute=None,
            device_fn=device_fn, protocol=protocol, eval_distribute=None,
            experimental_distribute=None,
            experimental_max_worker_delay_secs=experimental_max_worker_delay_secs,
            session_creation_timeout_secs=session_creation_timeout_secs)
        self._init_distributed_setting(tf_config)
        if not self._session_config and self._cluster_spec:
            self._session_config = self._default_session_config_distributed()

    # -- TF_CONFIG -------------------------------------------------------------------
    def _init_distributed_setting(self, tf_config):
        service = tf_config.get("service")
        if service is not None and not isinstance(service, dict):
            raise TypeError(f'If "service" is set in TF_CONFIG, it must be a dict. Given '
                            f"{type(service)}")
        self._service = service
        resolver = TFConfigClusterResolver()
        self._cluster_spec = ClusterSpec(tf_config.get("cluster", {}))
        chief_type = TaskType.CHIEF
        if self._cluster_spec and TaskType.MASTER in self._cluster_spec.jobs:
            if TaskType.CHIEF in self._cluster_spec.jobs:
                raise ValueError("If `master` node exists in `cluster`, job `chief` is not "
                                 "supported.")
            chief_type = TaskType.MASTER
        if not self._cluster_spec:
            task = tf_config.get("task", {})
            self._task_type = task.get("type", TaskType.WORKER)
            self._task_id = int(task.get("index", 0))
            if self._task_type != TaskType.WORKER:
                raise ValueError('If "cluster" is not set in TF_CONFIG, task type must be '
                                 'WORKER.')
            if self._task_id != 0:
                raise ValueError('If "cluster" is not set in TF_CONFIG, task index must be 0.')
            self._global_id_in_cluster = 0
            self._master = tf_config.get("session_master", _LOCAL_MASTER)
            self._evaluation_master = tf_config.get("eval_session_master", _LOCAL_MASTER)
            self._is_chief = True
            self._num_ps_replicas = 0
            self._num_worker_replicas = 1
            return
        self._task_type, self._task_id = _validate_task(self._cluster_spec, resolver,
                                                        chief_type)
        if self._task_type == TaskType.EVALUATOR:
            if chief_type == TaskType.MASTER:
                raise ValueError("If `master` node exists in `cluster`, task_type `evaluator` "
                                 "is not supported.")
            self._evaluation_master = tf_config.get("eval_session_master", _LOCAL_MASTER)
            self._cluster_spec = ClusterSpec({})
            self._master = _LOCAL_MASTER
            self._num_ps_replicas = 0
            self._num_worker_replicas = 0
            self._global_id_in_cluster = None
        else:
            self._evaluation_master = _LOCAL_MASTER
            self._master = _session_master(self._cluster_spec, self._task_type, self._task_id,
                                           tf_config)
            jobs = self._cluster_spec.as_dict()
            self._num_ps_replicas = len(jobs.get(TaskType.PS, []))
            self._num_worker_replicas = (len(jobs.get(TaskType.WORKER, [])) +
                                         len(jobs.get(chief_type, [])))
            self._global_id_in_cluster = _global_id(self._cluster_spec, self._task_type,
                                                    self._task_id, chief_type)
        self._is_chief = self._task_type == chief_type

    def _default_session_config_distributed(self):
        """Device filters so that a worker's sessions see only the ps tasks and itself."""
        filters = {TaskType.MASTER: ["/job:ps", "/job:master"],
                   TaskType.CHIEF: ["/job:ps", "/job:chief"],
                   TaskType.WORKER: ["/job:ps", f"/job:worker/task:{self._task_id}"],
                   TaskType.PS: ["/job:ps", "/job:worker", "/job:chief", "/job:master"]}
        if self._task_type not in filters:
            return None
        return ConfigProto(allow_soft_placement=True, device_filters=filters[self._task_type])

    # -- properties ------------------------------------------------------------------
    cluster_spec = property(lambda self: self._cluster_spec)
    device_fn = property(lambda self: self._device_fn)
    evaluation_master = property(lambda self: self._evaluation_master)
    is_chief = property(lambda self: self._is_chief)
    master = property(lambda self: self._master)
    num_ps_replicas = property(lambda self: self._num_ps_replicas)
    num_worker_replicas = property(lambda self: self._num_worker_replicas)
    task_id = property(lambda self: self._task_id)
    task_type = property(lambda self: self._task_type)
    global_id_in_cluster = property(lambda self: self._global_id_in_cluster)
    experimental_max_worker_delay_secs = property(
        lambda self: self._experimental_max_worker_delay_secs)
    tf_random_seed = property(lambda self: self._tf_random_seed)
    save_summary_steps = property(lambda self: self._save_summary_steps)
    save_checkpoints_secs = property(lambda self: self._save_checkpoints_secs)
    save_checkpoints_steps = property(lambda self: self._save_checkpoints_steps)
    session_config = property(lambda self: self._session_config)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_every_n_hours = property(lambda self: self._keep_checkpoint_every_n_hours)
    log_step_count_steps = property(lambda self: self._log_step_count_steps)
    session_creation_timeout_secs = property(lambda self: self._session_creation_timeout_secs)
    model_dir = property(lambda self: self._model_dir)
    service = property(lambda self: self._service)
    train_distribute = property(lambda self: None)
    eval_distribute = property(lambda self: None)
    protocol = property(lambda self: self._protocol)

    def replace(self, **kwargs):
        """A copy with the given settings replaced (only those of TF's list; setting one of
        save_checkpoints_steps/secs clears the other)."""
        return RunConfig._replace(copy.deepcopy(self), **kwargs)

    @staticmethod
    def _replace(config, **kwargs):
        for key, value in kwargs.items():
            if key not in _REPLACEABLE:
                raise ValueError(f"Replacing {key} is not supported. Allowed properties are "
                                 f"{_REPLACEABLE}.")
            setattr(config, "_" + key, value)
        steps, secs = config._save_checkpoints_steps, config._save_checkpoints_secs
        if "save_checkpoints_steps" in kwargs and "save_checkpoints_secs" in kwargs:
            if steps is not None and secs is not None:
                raise ValueError(_SAVE_CKPT_ERR)
        elif "save_checkpoints_steps" in kwargs and steps is not None:
            config._save_checkpoints_secs = None
        elif "save_checkpoints_secs" in kwargs and secs is not None:
            config._save_checkpoints_steps = None
        _validate(config)
        return config

    def __repr__(self):
        return (f"RunConfig(task_type={self._task_type!r}, task_id={self._task_id}, "
                f"master={self._master!r}, is_chief={self._is_chief}, "
                f"num_ps_replicas={self._num_ps_replicas}, "
                f"num_worker_replicas={self._num_worker_replicas}, "
                f"model_dir={self._model_dir!r})")
