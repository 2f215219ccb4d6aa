"""The master service -- mirrors TensorFlow's MasterService and MasterSession
(core/distributed_runtime/master.cc, master_session.cc).

A client's `Session('grpc://host:port')` talks to the master of that server. For each step:

  1. prune      keep what the fetches need (runtime/executor.prune)
  2. place      give every op a device of the cluster (runtime/placer.place); an op that
                asks for nothing lands on the cluster's first task, often /job:ps/task:0
  3. partition  one piece per device, _Send/_Recv on every edge between devices
                (runtime/partition.partition)
  4. register   hand each task its pieces once (RegisterGraph); cached for later steps
  5. run        RunGraph on every task involved, all at once, with one step id; the tasks
                exchange tensors directly; fetched tensors come back here, then to the client

If one task fails the step, the master aborts it everywhere, so no task keeps waiting.
"""
import itertools
import random
import threading
import time

from ..framework import errors
from ..framework.device_spec import DeviceSpec
from .dependency_optimizer import relocate_noops
from .executor import normalize_tensor_name, prune
from .partition import partition, task_of
from .placer import place

__all__ = ["MasterService", "plan_step"]

_ABORT_TIMEOUT = 5.0     # seconds a (paused) task may take to take note of an abort
_REPLY_GRACE = 2.0       # seconds past a step's deadline to wait for the replies


def plan_step(nodes, devices, master_task, feeds, fetches, targets, soft_placement=False,
              isolate_session_state=False):
    """Steps 1 to 3 for one (feeds, fetches, targets): a plain function of the graph's node
    defs and the cluster's devices, with no task called (so it can be read and tested alone).

    Returns `(tasks, placement)`: tasks is {task: {"pieces": [piece dicts], "feeds": {names}}},
    what RegisterGraph and RunGraph will be given; placement is [(node, op, device)] in the
    order the nodes run, what `log_device_placement` prints."""
    order = [dict(nd) for nd in prune(nodes, feeds, fetches, targets)]
    placed = place(order, devices, f"{master_task}/device:CPU:0", soft_placement)
    for nd in order:
        nd["device"] = placed[nd["name"]]
    relocate_noops(order)
    tasks = {}
    for device, piece in partition(order, feeds, fetches, targets).items():
        entry = tasks.setdefault(task_of(device), {"pieces": [], "feeds": set()})
        entry["pieces"].append({**piece.as_dict(), "client_task": master_task,
                                "isolate_session_state": isolate_session_state})
        entry["feeds"].update(piece.feeds)
    return tasks, [(nd["name"], nd["op"], nd["device"]) for nd in order]


class _Plan:
    def __init__(self, tasks, placement):
        self.tasks = tasks                  # task -> {"pieces": [...], "feeds": set, "handle"}
        self.placement = placement          # [(node, op, device)] for log_device_placement


class MasterSession:
    """One client session on this master: its graph, devices and cached plans."""

    def __init__(self, master, handle, config):
        self.master = master
        self.handle = handle
        self.config = config or {}
        self.nodes = []
        self.names = set()
        self.plans = {}
        self.lock = threading.Lock()
        self.active_steps = set()
        self.closed = False
        self.tasks = []
        self.devices = []

    # -- graph -----------------------------------------------------------------
    def extend(self, nodes):
        with self.lock:
            for nd in nodes:
                if nd["name"] in self.names:
                    continue
                self.names.add(nd["name"])
                self.nodes.append(nd)

    # -- planning ----------------------------------------------------------------
    def plan(self, feeds, fetches, targets):
        key = (feeds, fetches, targets)
        plan = self.plans.get(key)
        if plan is not None:
            return plan, False
        with self.lock:
            plan = self.plans.get(key)
            if plan is not None:
                return plan, False
            tasks, placement = plan_step(
                self.nodes, self.devices, self.master.task, feeds, fetches, targets,
                soft_placement=bool(self.config.get("allow_soft_placement")),
                isolate_session_state=bool(self.config.get("isolate_session_state")))
            for task, entry in tasks.items():
                entry["handle"] = self.master.call(task, "RegisterGraph", session=self.handle,
                                                   pieces=entry["pieces"])
            plan = _Plan(tasks, placement)
            self.plans[key] = plan
            return plan, True

    # -- running -----------------------------------------------------------------
    def run(self, feeds, fetches, targets, timeout_ms=0, trace=False):
        if self.closed:
            raise errors.CancelledError(None, None, "Session has been closed.")
        feed_names = tuple(normalize_tensor_name(f) for f in feeds)
        fetch_names = tuple(normalize_tensor_name(f) for f in fetches)
        plan, new = self.plan(feed_names, fetch_names, tuple(targets))
        feed_values = dict(zip(feed_names, feeds.values()))
        timeout_ms = timeout_ms or int(self.config.get("operation_timeout_in_ms") or 0)
        deadline = time.monotonic() + timeout_ms / 1000 if timeout_ms else None
        step_id = random.getrandbits(62)
        with self.lock:
            self.active_steps.add(step_id)
        try:
            results, stats = self.master.run_step(plan, step_id, feed_values, deadline, trace)
        finally:
            with self.lock:
                self.active_steps.discard(step_id)
        values = [feed_values[n] if n in feed_values else results[n] for n in fetch_names]
        return values, stats, (plan.placement if new else None)

    def close(self):
        self.closed = True
        with self.lock:
            steps = list(self.active_steps)
        for step_id in steps:
            self.master.abort_everywhere(step_id, errors.CANCELLED,
                                         "Step was cancelled by an explicit call to "
                                         "`Session::Close()`: the Session was closed while "
                                         "this step was running.")
        tasks = {t for plan in self.plans.values() for t in plan.tasks}
        for task in tasks:
            try:
                self.master.call(task, "CloseWorkerSession", session=self.handle)
            except errors.OpError:
                pass


class MasterService:
    """The master of one task's server. `dispatch(method, request)` is that server's
    dispatcher (runtime/task_server.py): the master reaches its own task's worker service the
    way any caller does, only without a socket."""

    def __init__(self, task, cluster_tasks, peers, dispatch, log=print, fast_path=None,
                 local_worker=None):
        self.task = task                    # '/job:worker/replica:0/task:0'
        self.cluster_tasks = cluster_tasks  # every task of the cluster (full names)
        self.peers = peers                  # runtime/peers.Peers: connections to the others
        self.dispatch = dispatch
        self.log = log
        self.fast_path = fast_path          # runtime/step_channels.py, or None: the plain route
        self.local_worker = local_worker    # (the fast path delivers tensors into its mailbox)
        self._sessions = {}
        self._handles = itertools.count(1)
        self._reset_handles = set()         # sessions closed by Session.reset

    # -- talking to workers -----------------------------------------------------
    def call(self, task, method, timeout=None, **request):
        if task == self.task:
            return self.dispatch(method, request)
        return self.peers.call(task, method, timeout=timeout, **request)

    def abort_everywhere(self, step_id, code, message, tasks=None):
        for task in tasks or self.cluster_tasks:
            try:
                self.call(task, "AbortStep", timeout=_ABORT_TIMEOUT, step_id=step_id, code=code,
                          message=message)
            except errors.OpError:
                pass

    def run_step(self, plan, step_id, feed_values, deadline, trace):
        """RunGraph on every task of the plan at once, with one step id: a thread per other
        task sends its request and waits for its reply, while this master's own task runs its
        pieces in the calling thread. The pieces send each other their tensors directly. The
        first failure aborts the step on all the others at once, so none of them waits for a
        tensor that will never come. (The fast path runs the same step its own way.)"""
        requests = step_requests(plan, step_id, feed_values, deadline, trace)
        outcome = StepOutcome(self, step_id, plan)
        if self.fast_path is not None:
            return self.fast_path.run_step(self, requests, outcome, deadline)
        threads = [threading.Thread(target=outcome.call, args=(task, request), daemon=True,
                                    name=f"RunGraph-{step_id}-{task}")
                   for task, request in requests.items() if task != self.task]
        for thread in threads:
            thread.start()
        try:
            if self.task in requests:
                outcome.run_here(requests[self.task])
            for thread in threads:
                thread.join()
        except BaseException as e:                   # e.g. KeyboardInterrupt: stop them all
            outcome.cancel(e)
            raise
        return outcome.result()

    # -- client requests ---------------------------------------------------------
    def create_session(self, nodes, config, device_filters=()):
        handle = f"{self.task}/session/{next(self._handles)}"
        session = MasterSession(self, handle, config)
        session.tasks = [t for t in self.cluster_tasks if _passes(t, device_filters)] \
            or [self.task]
        session.devices = self._gather_devices(session.tasks, config)
        session.extend(nodes)
        self._sessions[handle] = session
        return handle, session.devices

    def _gather_devices(self, tasks, config):
        """Asks every task for its devices, waiting (and saying so) for tasks not up yet."""
        timeout_ms = int((config or {}).get("operation_timeout_in_ms") or 0)
        deadline = time.monotonic() + timeout_ms / 1000 if timeout_ms else None
        devices, pending = [], list(tasks)
        last_log = time.monotonic()
        while True:
            still = []
            for task in pending:
                try:
                    devices.extend(self.call(task, "ListDevices"))
                except errors.UnavailableError:
                    still.append(task)
            if not still:
                return devices
            pending = still
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                raise errors.DeadlineExceededError(
                    None, None, f"CreateSession gave up after {timeout_ms} ms waiting for "
                    f"{', '.join(pending)}: {self._not_answering(tasks, pending)}")
            if now - last_log >= errors.WAIT_LOG_EVERY:
                last_log = now
                for task in pending:         # TF's line (master.cc), that a student can search
                    self.log(f"CreateSession still waiting for response from worker: {task}")
                self.log(f"  {len(pending)} of the {len(tasks)} tasks of this session have "
                         f"not answered: {self._not_answering(tasks, pending)}")
            time.sleep(0.2 if deadline is None else max(0.0, min(0.2, deadline - now)))

    def _not_answering(self, tasks, pending):
        """Which tasks have not answered, why that may be, and what to do."""
        where = ", ".join(f"{t} at {_address(self.peers, t)}" for t in pending)
        used = [t for t in tasks if t not in pending]
        filters = [t.replace("/replica:0", "") for t in used]
        return (f"{where}. Such a task has not started yet, or it has exited (or its address "
                "in the ClusterSpec is wrong); a session waits until every task it may use "
                "answers. Start it -- or, if this session does not need it, limit the session "
                f"to the tasks it uses: tf.ConfigProto(device_filters={filters}).")

    def session(self, handle):
        session = self._sessions.get(handle)
        if session is None:
            why = ("Session.reset(target) closed it" if handle in self._reset_handles else
                   "the master restarted")
            raise errors.AbortedError(None, None, f"Session {handle} is not found on "
                                      f"{self.task}: {why}. Create a new session.")
        return session

    def close_session(self, handle):
        session = self._sessions.pop(handle, None)
        if session is not None:
            session.close()

    def reset(self, containers=None):
        """TF's Master::Reset: closes every session of this master (their next run is an
        AbortedError), then clears the containers of every task."""
        for handle in list(self._sessions):
            self._reset_handles.add(handle)
            self.close_session(handle)
        for task in self.cluster_tasks:
            try:
                self.call(task, "Reset", containers=containers)
            except errors.UnavailableError:
                pass

    def shutdown(self):
        for handle in list(self._sessions):
            self.close_session(handle)


def step_requests(plan, step_id, feed_values, deadline, trace):
    """The RunGraph request for each task of the plan."""
    return {task: dict(handle=entry["handle"], step_id=step_id,
                       feeds={n: feed_values[n] for n in entry["feeds"]},
                       deadline_in=None if deadline is None else deadline - time.monotonic(),
                       collect_stats=trace)
            for task, entry in plan.tasks.items()}


class StepOutcome:
    """What the tasks of one step answered: their fetched tensors and stats, or their errors.
    The first failure aborts the step on every other task."""

    def __init__(self, master, step_id, plan):
        self.master = master
        self.step_id = step_id
        self.tasks = list(plan.tasks)
        self.fetched, self.stats, self.failures = {}, [], []
        self._lock = threading.Lock()

    def call(self, task, request):
        """RunGraph on another task, in this thread (the plain route)."""
        timeout = None if request["deadline_in"] is None else \
            request["deadline_in"] + _REPLY_GRACE
        try:
            self.finished(task, self.master.peers.call(task, "RunGraph", timeout=timeout,
                                                       **request))
        except errors.OpError as e:
            self.finished(task, e)

    def run_here(self, request):
        """RunGraph on the master's own task, through its dispatcher."""
        try:
            self.finished(self.master.task, self.master.dispatch("RunGraph", request))
        except errors.OpError as e:
            self.finished(self.master.task, e)

    def finished(self, task, outcome):
        """`outcome`: a task's RunGraph result ({"fetched", "stats"}) or its OpError."""
        with self._lock:
            if isinstance(outcome, errors.OpError):
                self.failures.append((task, outcome))
                first = len(self.failures) == 1
            else:
                self.fetched.update(outcome["fetched"])
                self.stats.extend(outcome["stats"])
                first = False
        if first:
            self.master.abort_everywhere(
                self.step_id, outcome.error_code,
                f"Step aborted because {task} failed: {outcome.message}",
                [t for t in self.tasks if t != task])

    def cancel(self, reason):
        """The master itself gave up (an interrupt): stop the step everywhere else."""
        self.master.abort_everywhere(self.step_id, errors.CANCELLED,
                                     f"Step cancelled in {self.master.task}: "
                                     f"{type(reason).__name__}",
                                     [t for t in self.tasks if t != self.master.task])

    def result(self):
        if self.failures:
            raise _root_cause(self.failures)
        return self.fetched, self.stats


def _address(peers, task):
    host, port = peers.addresses.get(task, ("?", "?"))
    return f"{host}:{port}"


def _passes(task, filters):
    if not filters:
        return True
    spec = DeviceSpec.from_string(task)
    for f in filters:
        want = DeviceSpec.from_string(f)
        if all(getattr(want, k) is None or getattr(want, k) == getattr(spec, k)
               for k in ("job", "replica", "task")):
            return True
    return False


def _root_cause(failures):
    for task, e in failures:
        if not isinstance(e, (errors.AbortedError, errors.CancelledError)) or \
                "Step aborted because" not in e.message:
            return e
    return failures[0][1]

