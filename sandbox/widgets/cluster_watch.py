"""Watching a cluster from outside -- what the placement and traffic views read.

A ClusterWatch knows a cluster the way one of its tasks does: by its ClusterSpec and its
secret. It starts nothing. For each task it asks, over the same authenticated sockets the
tasks use between themselves, one `Observe` request (runtime/task_server.py):

    who are you      task name, process id, when its server started (a new time: restarted)
    what travelled   the trace records since the last ones it read (the newest `limit`)
    how much         the running totals of bytes and messages per (kind, peer, tensor)

and, when asked, `GetPlacement` (what the masters gave the task to run) and `ListResources`
(the variables, queues and accumulators that live there). So it watches a LocalCluster
started by this notebook, tasks started in terminals with `python -m sandbox task`, or a
lesson program's cluster, all the same way. A task that refuses the connection is "dead"; one
that takes too long to answer is "not answering" (paused, or overloaded) and is asked less
often until it answers again -- a watcher never hangs on a task.
"""
import collections
import json
import pathlib
import threading
import time

from ..framework import errors
from ..runtime import cluster_secret
from ..runtime.peers import Peers
from ..runtime.peers import parse_address
from ..runtime.task_server import TraceRecord, task_name
from ..train.cluster_spec import ClusterSpec

__all__ = ["ClusterWatch", "Observation", "TaskInfo", "AttachedCluster", "attach",
           "short_name", "job_order"]

JOB_ORDER = ("chief", "ps", "worker", "evaluator")
ALIVE, DEAD, NOT_ANSWERING = "alive", "dead", "not answering"


def job_order(job):
    """Sort key: chief, ps, worker, evaluator, then the other jobs by name."""
    return (JOB_ORDER.index(job) if job in JOB_ORDER else len(JOB_ORDER), job)


def short_name(task):
    """'/job:worker/replica:0/task:1' -> 'worker:1' (anything else is returned as it is)."""
    if not task.startswith("/job:"):
        return task
    job = task[len("/job:"):].split("/", 1)[0]
    index = task.rsplit("/task:", 1)[-1].split("/", 1)[0]
    return f"{job}:{index}"


TaskInfo = collections.namedtuple("TaskInfo", "name short job index address")

Observation = collections.namedtuple(
    "Observation", "time task state records totals restarted gap error")
Observation.__doc__ = """What one Observe of one task said.

time       when it was read (time.time() of this process)
task       the task's full name
state      "alive", "dead" or "not answering"
records    new TraceRecords since the previous observation (oldest first)
totals     [kind, src, dst, tensor, bytes, tensors, messages] since the task started, or None
restarted  True if the task is a new process since the previous observation
gap        True if records were skipped (more arrived than `limit` since the last read)
error      why the task is not alive (a sentence), else None
"""


class ClusterWatch:
    """Reads the tasks of a cluster it did not start (see the module docstring).

    `cluster`: a LocalCluster, an AttachedCluster, or anything with `cluster_spec` and
    `secret`; or a ClusterSpec (or dict) with `secret` given separately. `trace_limit`: most
    records read per task per observation; `timeout`: seconds a task may take to answer."""

    def __init__(self, cluster, secret=None, trace_limit=200, timeout=1.0):
        spec = getattr(cluster, "cluster_spec", cluster)
        if not isinstance(spec, (ClusterSpec, dict)):
            raise TypeError(f"A cluster to watch is a LocalCluster, attach(cluster_spec, "
                            f"secret) for tasks started elsewhere, or a ClusterSpec (or its "
                            f"dict) with its secret; got {type(cluster).__name__} "
                            f"{cluster!r:.60}.")
        self.cluster_spec = spec if isinstance(spec, ClusterSpec) else ClusterSpec(spec)
        self.local_cluster = cluster if hasattr(cluster, "is_alive") else None
        self.trace_limit = trace_limit
        self.timeout = timeout
        tasks = []
        for job in sorted(self.cluster_spec.jobs, key=job_order):
            for index in self.cluster_spec.task_indices(job):
                name = task_name(job, index)
                address = self.cluster_spec.task_address(job, index)
                tasks.append(TaskInfo(name, short_name(name), job, index, address))
        self.tasks = tasks
        addresses = {t.name: parse_address(t.address) for t in tasks}
        if secret is None:
            secret = getattr(cluster, "secret", None)
        if secret is None and addresses:
            secret = cluster_secret.secret_for(next(iter(addresses.values())))
        self._peers = Peers(addresses, secret, owner="watcher", connect_timeout=timeout)
        self._since = {t.name: 0 for t in tasks}
        self._started = {}
        self._state = {t.name: ALIVE for t in tasks}
        self._skip = {t.name: 0 for t in tasks}        # observations to skip (backing off)
        self._placement_versions = {}
        self._placement = {}
        self._lock = threading.Lock()
        self._closed = False

    # -- the tasks' state -----------------------------------------------------------------
    def state(self, task):
        """'alive', 'dead' or 'not answering', as last observed."""
        return self._state[task]

    def states(self):
        return dict(self._state)

    def started(self, task):
        """When the task's server started (its process's incarnation), as last observed."""
        return self._started.get(task)

    def _known_dead(self, info):
        """A LocalCluster knows its processes: a task whose process exited is dead, and
        nobody needs to knock on its port to find out."""
        if self.local_cluster is None:
            return False
        try:
            return not self.local_cluster.is_alive(info.job, info.index)
        except (ValueError, AttributeError):
            return False

    # -- reading --------------------------------------------------------------------------
    def observe(self):
        """One Observation per task (see Observation)."""
        with self._lock:
            return [self._observe(info) for info in self.tasks]

    def _observe(self, info):
        now = time.time()
        name = info.name
        if self._known_dead(info):
            self._state[name] = DEAD
            return Observation(now, name, DEAD, [], None, False, False,
                               f"{info.short}'s process has exited.")
        if self._skip[name] > 0:                 # not answering: ask again a bit later
            self._skip[name] -= 1
            return Observation(now, name, self._state[name], [], None, False, False,
                               "(not asked this time: it did not answer last time)")
        try:
            reply = self._peers.call(name, "Observe", timeout=self.timeout,
                                     since=self._since[name], limit=self.trace_limit)
        except errors.DeadlineExceededError:
            self._peers.forget(name)
            self._state[name] = NOT_ANSWERING
            self._skip[name] = 4
            return Observation(now, name, NOT_ANSWERING, [], None, False, False,
                               f"{info.short} did not answer within {self.timeout:g} s "
                               "(paused, or overloaded).")
        except (errors.UnavailableError, errors.CancelledError) as e:
            self._peers.forget(name)
            self._state[name] = DEAD
            return Observation(now, name, DEAD, [], None, False, False, e.message)
        started = reply["started"]
        restarted = name in self._started and self._started[name] != started
        self._started[name] = started
        if restarted:
            self._since[name] = 0
            self._placement_versions.pop(name, None)
        records = [TraceRecord(*row) for row in reply["records"]]
        since = self._since[name]
        gap = bool(records) and records[0].seq > since + 1
        if records:
            self._since[name] = records[-1].seq
        elif reply["last_seq"] < since:          # (a restart we could not see otherwise)
            self._since[name] = reply["last_seq"]
        self._state[name] = ALIVE
        return Observation(now, name, ALIVE, records, reply["totals"], restarted, gap, None)

    def placement(self):
        """{task: [[name, op type, device, dtype, shape, sessions], ...]} -- what each living
        task was given to run (asked again only from tasks whose placement changed)."""
        with self._lock:
            for info in self.tasks:
                if self._state[info.name] != ALIVE or self._known_dead(info):
                    continue
                try:
                    reply = self._peers.call(info.name, "GetPlacement", timeout=self.timeout,
                                             since_version=self._placement_versions.get(
                                                 info.name))
                except errors.OpError:
                    continue
                if reply["nodes"] is not None:
                    self._placement[info.name] = reply["nodes"]
                    self._placement_versions[info.name] = reply["version"]
            return dict(self._placement)

    def resources(self):
        """{task: [[container, name, kind, dtype, shape, bytes, state], ...]} of each living
        task (framework/resource_mgr.py ResourceMgr.describe)."""
        out = {}
        with self._lock:
            for info in self.tasks:
                if self._state[info.name] != ALIVE or self._known_dead(info):
                    continue
                try:
                    out[info.name] = self._peers.call(info.name, "ListResources",
                                                      timeout=self.timeout)
                except errors.OpError:
                    continue
        return out

    def close(self):
        self._closed = True
        self._peers.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class AttachedCluster:
    """A cluster this program did not start -- tasks launched in terminals with
    `python -m sandbox task ...`, or by a lesson program -- known by its ClusterSpec and
    secret. Every view (and the Dashboard) accepts it where it accepts a LocalCluster; it can
    be watched, not killed or restarted (its processes belong to somebody else)."""

    def __init__(self, cluster_spec, secret=None):
        spec = cluster_spec if isinstance(cluster_spec, ClusterSpec) else \
            ClusterSpec(cluster_spec)
        self.cluster_spec = spec
        if isinstance(secret, str):
            secret = cluster_secret.parse_secret(secret)
        self.secret = secret if secret is not None else cluster_secret.default_secret()

    @property
    def tasks(self):
        return [task_name(job, index) for job in sorted(self.cluster_spec.jobs, key=job_order)
                for index in self.cluster_spec.task_indices(job)]

    def target(self, job="worker", index=0):
        return f"grpc://{self.cluster_spec.task_address(job, index)}"

    def __repr__(self):
        return f"<AttachedCluster {self.cluster_spec}>"


def attach(cluster_spec, secret=None):
    """The cluster described by `cluster_spec` (a ClusterSpec, a dict, or the JSON text or
    file that `python -m sandbox task --cluster` takes), with its secret (bytes, the hex text
    of it, or None for the one this user's terminals share: $SANDBOX_CLUSTER_SECRET, or
    ~/.sandbox/cluster_secret)."""
    if isinstance(cluster_spec, str):
        text = cluster_spec
        path = pathlib.Path(text)
        if not text.lstrip().startswith("{") and path.exists():
            text = path.read_text()
        try:
            cluster_spec = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"attach() takes a ClusterSpec, a dict, or JSON text (or a JSON "
                             f"file) like '{{\"ps\": [\"localhost:2222\"], \"worker\": "
                             f"[\"localhost:2223\"]}}'; could not read {cluster_spec!r}: "
                             f"{e}") from None
    return AttachedCluster(cluster_spec, secret)
