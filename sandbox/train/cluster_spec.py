"""Cluster descriptions -- mirrors TensorFlow's `tf.train.ClusterSpec` (python/training/server_lib.py).

Distributed TensorFlow runs one computation across several processes. The words:

* A **task** is one process, reachable at a network address "host:port" (for example
  "localhost:2222"). Each task runs a server that owns devices ("/job:ps/task:0/cpu:0")
  and executes the parts of the graph placed on them.
* A **job** is a named group of tasks that play the same role. By convention "ps"
  (parameter servers) hold the variables and "worker" tasks compute gradients; "chief" is
  the worker that also writes checkpoints and summaries, and "evaluator" evaluates the
  model on the side. A task is named by its job and its index in that job:
  "/job:worker/task:1" is the second worker.
* A **cluster** is the set of all jobs: it tells every process where every other one is.

A `ClusterSpec` is that description as a Python object, built from a dict::

    cluster = tf.train.ClusterSpec({"ps": ["localhost:2222"],
                                    "worker": ["localhost:2223", "localhost:2224"]})

A job may also be *sparse* -- a dict {task_index: address} -- when a process only needs to
know some of its peers (`{"worker": {1: "localhost:2224"}}`).

TensorFlow also represents a cluster as a `ClusterDef` protocol buffer. The sandbox has no
protocol buffers, so `ClusterDef` and `JobDef` below are small plain-data classes with the
same fields; `str(cluster_def)` prints the same protobuf text form TensorFlow prints.

As in TensorFlow, a ClusterSpec is only a description: an address is any string
(`ClusterSpec({"job": ["host:port"]})` is fine). Addresses are checked where they are used --
when a server starts (`tf.train.Server` must be able to read a port in every address of the
cluster, and to listen at its own) and when a task first connects to another one -- and those
errors name the job, the task and the address. Job names must be usable in a device name
("/job:NAME") and task indices are non-negative integers. Port 0 asks the operating system for
any free port when the server starts (that is what `tf.train.Server.create_local_server()`
uses); other processes cannot know such a port, so it is only useful for a task nobody else
connects to.
"""
import difflib
import re

__all__ = ["ClusterSpec", "ClusterDef", "JobDef"]


# ---------------------------------------------------------------------------------------------
# ClusterDef / JobDef: plain-data stand-ins for tensorflow/core/protobuf/cluster.proto
# ---------------------------------------------------------------------------------------------
class JobDef:
    """One job of a ClusterDef: `name` and `tasks`, a dict {task_index: "host:port"}."""

    def __init__(self, name="", tasks=None):
        self.name = name
        self.tasks = dict(tasks or {})

    def __eq__(self, other):
        if not isinstance(other, JobDef):
            return NotImplemented
        return self.name == other.name and self.tasks == other.tasks

    __hash__ = None

    def __repr__(self):
        return f"JobDef(name={self.name!r}, tasks={self.tasks!r})"


class ClusterDef:
    """Plain-data form of a cluster: `job`, a list of JobDef (TF's ClusterDef protobuf)."""

    def __init__(self, job=None):
        self.job = list(job or [])

    def add_job(self, name, tasks=None):
        """Appends and returns a new JobDef (TF: `cluster_def.job.add()`)."""
        job_def = JobDef(name, tasks)
        self.job.append(job_def)
        return job_def

    def __eq__(self, other):
        if not isinstance(other, ClusterDef):
            return NotImplemented
        return self.job == other.job

    __hash__ = None

    def __repr__(self):
        return f"ClusterDef(job={self.job!r})"

    def __str__(self):
        """The protobuf text format, as `print(cluster_spec.as_cluster_def())` shows in TF."""
        lines = []
        for job_def in self.job:
            lines.append("job {")
            lines.append(f"  name: {_quote(job_def.name)}")
            for index in sorted(job_def.tasks):
                lines += ["  tasks {", f"    key: {index}",
                          f"    value: {_quote(job_def.tasks[index])}", "  }"]
            lines.append("}")
        return "".join(line + "\n" for line in lines)


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"',
            ord("'"): "\\'", ord("\\"): "\\\\"}


def _quote(value):
    """A protobuf text-format string literal: UTF-8 bytes, C escapes, octal for the rest."""
    if isinstance(value, str):
        value = value.encode("utf-8")
    out = []
    for byte in value:
        if byte in _ESCAPES:
            out.append(_ESCAPES[byte])
        elif 0x20 <= byte < 0x7F:
            out.append(chr(byte))
        else:
            out.append("\\%03o" % byte)
    return '"' + "".join(out) + '"'


# ---------------------------------------------------------------------------------------------
# Validation of job names, task indices and address types
# ---------------------------------------------------------------------------------------------
_JOB_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # what "/job:NAME" accepts in a device name


def _as_text(value):
    """TF accepts bytes or unicode for names and addresses (compat.as_bytes); returns str."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    return value


def _check_job_name(job_name):
    job_name = _as_text(job_name)
    if not isinstance(job_name, str):
        raise TypeError(f"Job name {job_name!r} must be bytes or unicode (a string such as "
                        f"'worker'), got {type(job_name).__name__}")
    if not job_name:
        raise ValueError("Job name '' is empty: use a name such as 'ps' or 'worker'")
    if not _JOB_NAME.fullmatch(job_name):
        raise ValueError(f"Job name {job_name!r} is not valid: it must start with a letter and "
                         f"contain only letters, digits and '_' (it is used in device names "
                         f"such as '/job:{job_name}/task:0')")
    return job_name


def _check_task_index(job_name, index):
    original = index
    if isinstance(index, str) and re.fullmatch(r"\s*[+-]?\d+\s*", index):
        index = int(index)  # TF calls int(i) on sparse keys; JSON (TF_CONFIG) keys are strings
    elif isinstance(index, bool) or not hasattr(index, "__index__"):
        raise TypeError(f"Task index {original!r} in job {job_name!r} must be an integer, got "
                        f"{type(original).__name__}")
    index = int(index)
    if index < 0:
        raise ValueError(f"Task index {original!r} in job {job_name!r} must be non-negative")
    return index


def _check_address(job_name, index, address):
    """TF accepts any bytes or unicode string here; what it means is checked when a server
    starts or a task connects (runtime/task_server.py)."""
    address = _as_text(address)
    if not isinstance(address, str):
        raise TypeError(f"Task address {address!r} (job {job_name!r}, task {index}) must be "
                        f"bytes or unicode (a string such as 'localhost:2222'), got "
                        f"{type(address).__name__}")
    return address


def _check_cluster(spec):
    """Validates {job: {index: address}}; returns the same with cleaned entries, the jobs in
    the order given (as TF keeps them: `jobs` and `as_dict()` in that order, the ClusterDef
    sorted) and each job's tasks by index."""
    checked = {}
    for job_name, tasks in spec.items():
        name = _check_job_name(job_name)
        if name in checked:
            raise ValueError(f"Job name {name!r} appears twice in the cluster")
        job = {}
        for raw_index, address in tasks.items():
            index = _check_task_index(name, raw_index)
            if index in job:
                raise ValueError(f"Task index {index} appears twice in job {name!r}")
            job[index] = _check_address(name, index, address)
        checked[name] = dict(sorted(job.items()))
    return checked


# ---------------------------------------------------------------------------------------------
# ClusterSpec
# ---------------------------------------------------------------------------------------------
class ClusterSpec:
    """Represents a cluster as a set of "tasks", organized into "jobs".

    `ClusterSpec({"worker": ["w0:2222", "w1:2222"], "ps": ["ps0:2222"]})` is a cluster with
    two jobs and three tasks. A job may be sparse: `{"worker": {1: "w1:2222"}}`. The argument
    may also be another ClusterSpec or a ClusterDef.
    """

    def __init__(self, cluster):
        if isinstance(cluster, dict):
            spec = {}
            for job_name, tasks in cluster.items():
                if isinstance(tasks, (list, tuple)):
                    spec[job_name] = dict(enumerate(tasks))
                elif isinstance(tasks, dict):
                    spec[job_name] = tasks
                else:
                    raise TypeError(f"The tasks for job {job_name!r} must be a list or a "
                                    f"dictionary from integers to strings, got "
                                    f"{type(tasks).__name__}")
            self._cluster_spec = _check_cluster(spec)
        elif isinstance(cluster, ClusterDef):
            spec = {}
            for job_def in cluster.job:
                if not isinstance(job_def, JobDef):
                    raise TypeError(f"ClusterDef.job must hold JobDef objects, got "
                                    f"{type(job_def).__name__}")
                if _as_text(job_def.name) in spec:
                    raise ValueError(f"Job name {job_def.name!r} appears twice in the ClusterDef")
                spec[_as_text(job_def.name)] = job_def.tasks
            self._cluster_spec = _check_cluster(spec)
        elif isinstance(cluster, ClusterSpec):            # through its (sorted) ClusterDef
            self._cluster_spec = {job: dict(cluster._cluster_spec[job])
                                  for job in sorted(cluster._cluster_spec)}
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a `ClusterDef` protocol buffer, "
                            f"got {type(cluster).__name__}")

    # -- comparisons and printing -------------------------------------------------------------
    def __bool__(self):
        return bool(self._cluster_spec)

    def __eq__(self, other):
        """Same jobs and tasks. A dict or ClusterDef is compared as the ClusterSpec it makes."""
        if isinstance(other, (dict, ClusterDef)):
            try:
                other = ClusterSpec(other)
            except (TypeError, ValueError):
                return False
        if not isinstance(other, ClusterSpec):
            return NotImplemented
        return self._cluster_spec == other._cluster_spec

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # mutable-looking and compared by value, as in TF: not hashable

    def __repr__(self):
        key_values = self.as_dict()
        items = [repr(k) + ": " + repr(key_values[k]) for k in sorted(key_values)]
        return "ClusterSpec({" + ", ".join(items) + "})"

    __str__ = __repr__  # TF defines only __repr__: "ClusterSpec(" + str(as_dict()) + ")"

    # -- conversions ----------------------------------------------------------------------------
    def as_dict(self):
        """{job: list of addresses} for dense jobs, {job: {index: address}} for sparse ones.

        A job is dense when its indices are exactly 0..n-1; a job with no tasks gives {}.
        """
        ret = {}
        for job in self.jobs:
            indices = self.task_indices(job)
            if not indices:
                ret[job] = {}
            elif max(indices) + 1 == len(indices):
                ret[job] = self.job_tasks(job)
            else:
                ret[job] = {i: self.task_address(job, i) for i in indices}
        return ret

    def as_cluster_def(self):
        """Returns a `ClusterDef` for this cluster (jobs and tasks sorted)."""
        return ClusterDef([JobDef(job, dict(self._cluster_spec[job]))
                           for job in sorted(self._cluster_spec)])

    # -- queries --------------------------------------------------------------------------------
    @property
    def jobs(self):
        """The job names in this cluster, in the order they were given."""
        return list(self._cluster_spec)

    def _job(self, job_name):
        try:
            return self._cluster_spec[job_name]
        except (KeyError, TypeError):
            raise ValueError(f"No such job in cluster: {job_name!r}; its jobs are "
                             f"{self.jobs}{_did_you_mean(job_name, self.jobs)}") from None

    def num_tasks(self, job_name):
        """The number of tasks defined in `job_name` (ValueError if there is no such job)."""
        return len(self._job(job_name))

    def task_indices(self, job_name):
        """The sorted list of task indices defined in `job_name`."""
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index):
        """The "host:port" address of task `task_index` of `job_name`."""
        job = self._job(job_name)
        try:
            return job[task_index]
        except (KeyError, TypeError):
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}; its "
                             f"tasks are {sorted(job)}") from None

    def job_tasks(self, job_name):
        """The addresses of `job_name` as a list indexed by task index.

        For a sparse job the list has None for the missing indices, so its length can differ
        from `num_tasks(job_name)`.
        """
        job = self._job(job_name)
        ret = [None] * (max(job) + 1 if job else 0)
        for index, address in job.items():
            ret[index] = address
        return ret


def _did_you_mean(name, names):
    close = difflib.get_close_matches(str(_as_text(name)), names, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
