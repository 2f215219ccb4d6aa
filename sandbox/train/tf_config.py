"""The TF_CONFIG environment variable -- mirrors TensorFlow's `TFConfigClusterResolver`
(python/distribute/cluster_resolver/tfconfig_cluster_resolver.py).

When a distributed program is started as several processes (by hand, by a cluster manager or
by the sandbox's launcher), every process runs the same script and must find out which task it
is. The usual way is the TF_CONFIG environment variable, a JSON object::

    TF_CONFIG='{"cluster": {"chief":  ["localhost:2222"],
                            "worker": ["localhost:2223", "localhost:2224"],
                            "ps":     ["localhost:2225"]},
                "task": {"type": "worker", "index": 1}}'

"cluster" is the whole cluster (see sandbox/train/cluster_spec.py) and "task" names this
process: here the second worker. Optional keys: "rpc_layer" (the protocol, "grpc"),
"session_master" (a session target to use as is) and "environment".

The "evaluator" task is special: it evaluates checkpoints on the side and never talks to the
other tasks. As TensorFlow's distribute coordinator does, an evaluator sees a cluster made of
the evaluator job alone, and every other task sees the cluster without the evaluator.
"""
import json
import os

from .cluster_spec import ClusterSpec

__all__ = ["TFConfigClusterResolver", "task_from_tf_config", "format_master_url"]

_TF_CONFIG_ENV = "TF_CONFIG"
_EVALUATOR = "evaluator"
_EXAMPLE = ('{"cluster": {"worker": ["localhost:2222", "localhost:2223"]}, '
            '"task": {"type": "worker", "index": 0}}')


def format_master_url(master, rpc_layer=None):
    """'rpc_layer://master', or `master` unchanged when there is no rpc_layer."""
    return f"{rpc_layer}://{master}" if rpc_layer else master


def _load_tf_config(environ):
    """Parses TF_CONFIG from `environ` into a dict ({} when it is unset or blank)."""
    text = environ.get(_TF_CONFIG_ENV, "")
    if not text.strip():
        return {}
    try:
        config = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"TF_CONFIG is not valid JSON ({e.msg} at line {e.lineno} column "
                         f"{e.colno}): {text!r}. Expected something like {_EXAMPLE}") from None
    if not isinstance(config, dict):
        raise ValueError(f"TF_CONFIG must be a JSON object, got a {type(config).__name__}: "
                         f"{text!r}. Expected something like {_EXAMPLE}")
    for key in ("cluster", "task"):
        if key in config and not isinstance(config[key], dict):
            raise ValueError(f"TF_CONFIG[{key!r}] must be a JSON object, got "
                             f"{config[key]!r}. Expected something like {_EXAMPLE}")
    return config


def _task_index(value):
    """TF calls int() on the task index; we also reject what int() would silently mangle."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"TF_CONFIG['task']['index'] must be a non-negative integer, got {value!r}")


def _full_cluster_spec(config):
    """ClusterSpec(config["cluster"]), with errors that say they come from TF_CONFIG."""
    try:
        return ClusterSpec(config.get("cluster", {}))
    except (TypeError, ValueError) as e:
        raise type(e)(f"TF_CONFIG['cluster'] is not a valid cluster: {e}") from None


def _split_for_evaluator(cluster_spec, task_type):
    """The evaluator sees only the evaluator job; every other task sees all jobs but it."""
    jobs = cluster_spec.as_dict()
    if task_type == _EVALUATOR:
        jobs = {_EVALUATOR: jobs[_EVALUATOR]} if _EVALUATOR in jobs else {}
    else:
        jobs.pop(_EVALUATOR, None)
    return ClusterSpec(jobs)


class TFConfigClusterResolver:
    """Reads the cluster, this task and the session target from the TF_CONFIG variable.

    Arguments given here override the values in TF_CONFIG. TF_CONFIG is read again at every
    call, as in TensorFlow, so a change of `os.environ` is seen at once.
    """

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        self._task_type = task_type
        self._task_id = task_id
        self._rpc_layer = rpc_layer
        self._environment = environment
        self._environ = os.environ  # the mapping TF_CONFIG is read from (tests may replace it)

    def _config(self):
        return _load_tf_config(self._environ)

    @property
    def task_type(self):
        """This task's job name: the override, else TF_CONFIG['task']['type'], else None."""
        if self._task_type is not None:
            return str(self._task_type)
        task = self._config().get("task", {})
        if "type" not in task:
            return None
        if not isinstance(task["type"], str) or not task["type"]:
            raise ValueError(f"TF_CONFIG['task']['type'] must be a job name such as 'worker', "
                             f"got {task['type']!r}")
        return task["type"]

    @task_type.setter
    def task_type(self, task_type):
        self._task_type = task_type

    @property
    def task_id(self):
        """This task's index: the override, else TF_CONFIG['task']['index'], else None."""
        if self._task_id is not None:
            return int(self._task_id)
        task = self._config().get("task", {})
        return _task_index(task["index"]) if "index" in task else None

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def rpc_layer(self):
        """The protocol: the override, else TF_CONFIG['rpc_layer'], else None."""
        if self._rpc_layer is not None:
            return self._rpc_layer
        return self._config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer

    @property
    def environment(self):
        """The environment name: the override, else TF_CONFIG['environment'], else ''."""
        if self._environment is not None:
            return self._environment
        return self._config().get("environment", "")

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        """{device type: count} of accelerators per task; the sandbox has none, so {}."""
        return {}

    def cluster_spec(self):
        """The ClusterSpec from TF_CONFIG['cluster'] (empty when there is none), split for
        the evaluator as described in the module docstring."""
        return _split_for_evaluator(_full_cluster_spec(self._config()), self.task_type)

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        """The session target of a task (by default this one), e.g. "grpc://localhost:2223".

        TF_CONFIG['session_master'] wins when set; a cluster of at most one task gives "" (run
        in process). Unlike TensorFlow, which leaves the address bare when no rpc_layer is
        known, the sandbox then uses "grpc", the only protocol its sessions speak.
        """
        session_master = self._config().get("session_master")
        if session_master is not None:
            return session_master
        spec = self.cluster_spec()
        if not spec.jobs or (len(spec.jobs) == 1 and len(spec.job_tasks(spec.jobs[0])) == 1):
            return ""
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        rpc_layer = rpc_layer if rpc_layer is not None else self.rpc_layer
        if task_type is None or task_id is None:
            raise RuntimeError("Cannot tell which task's master to return: pass task_type and "
                               "task_id, or set TF_CONFIG['task'], e.g. "
                               '{"type": "worker", "index": 0}')
        return format_master_url(spec.task_address(task_type, task_id), rpc_layer or "grpc")

    def __repr__(self):
        return (f"TFConfigClusterResolver(task_type={self._task_type!r}, "
                f"task_id={self._task_id!r}, rpc_layer={self._rpc_layer!r}, "
                f"environment={self._environment!r})")


def task_from_tf_config(env=os.environ):
    """(cluster_spec, job_name, task_index) for this process, read from env["TF_CONFIG"].

    Without TF_CONFIG (or with neither "cluster" nor "task" in it) the process is not part of
    a cluster: returns (ClusterSpec({}), None, None). When "task" is missing but the cluster
    has a single task, that task is this process. Every other inconsistency is a ValueError.
    """
    resolver = TFConfigClusterResolver()
    resolver._environ = env
    config = resolver._config()
    if "cluster" not in config and "task" not in config:
        return ClusterSpec({}), None, None
    all_jobs = _full_cluster_spec(config)  # before the evaluator split

    if "task" not in config:
        tasks = [(job, i) for job in all_jobs.jobs for i in all_jobs.task_indices(job)]
        if len(tasks) != 1:
            raise ValueError("TF_CONFIG has a 'cluster' but no 'task' saying which task this "
                             'process is: add e.g. "task": {"type": "worker", "index": 0}')
        job_name, task_index = tasks[0]
        resolver.task_type, resolver.task_id = job_name, task_index
        return resolver.cluster_spec(), job_name, task_index

    job_name = resolver.task_type
    if job_name is None:
        raise ValueError("TF_CONFIG['task'] has no 'type': add the job name, e.g. "
                         '"task": {"type": "worker", "index": 0}')
    task_index = resolver.task_id
    if job_name not in all_jobs.jobs:
        if job_name == _EVALUATOR:  # an evaluator may run outside the cluster
            return resolver.cluster_spec(), job_name, 0 if task_index is None else task_index
        raise ValueError(f"TF_CONFIG['task']['type'] is {job_name!r}, which is not a job in "
                         f"TF_CONFIG['cluster'] (jobs: {all_jobs.jobs})")
    indices = all_jobs.task_indices(job_name)
    if task_index is None:
        if len(indices) != 1:
            raise ValueError(f"TF_CONFIG['task'] has no 'index' and job {job_name!r} has "
                             f"{len(indices)} tasks: add e.g. \"index\": 0")
        task_index = indices[0]
    elif task_index not in indices:
        raise ValueError(f"TF_CONFIG['task']['index'] is {task_index}, which is not a task of "
                         f"job {job_name!r} (task indices: {indices})")
    return resolver.cluster_spec(), job_name, task_index
