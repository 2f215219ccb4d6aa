"""The worker service -- mirrors TensorFlow's WorkerService (core/distributed_runtime/worker.cc).

Every task runs one. It owns what lives on the task:

  * its devices            '/job:ps/replica:0/task:0/device:CPU:0' (+ simulated GPUs)
  * its resource manager   the variables and queues placed on this task
  * its rendezvous         tensors pushed here by other tasks, waiting for their _Recv

and it answers the master:

  RegisterGraph   "here are the graph pieces for your devices" -> a handle (cached by master)
  RunGraph        "run them for step 42, with these feeds"    -> the fetched tensors
  AbortStep       "step 42 failed elsewhere"                  -> waiting _Recvs wake up

plus Tensor messages from peer tasks (the _Send of another task delivering a tensor here).
What it was given to run (`placement`) and what lives in its resource manager (`resources`)
can be read by anyone, which is how the placement view sees a cluster it did not start.
"""
import itertools
import threading
import time

from ..framework import errors
from .executor import Executor, StepState
from .rendezvous import Rendezvous, StepRendezvous  # (and the _Send/_Recv ops)
from ..framework.resource_mgr import ResourceMgr
from .simulation import sleep_for

__all__ = ["WorkerService"]


class _RegisteredGraph:
    def __init__(self, handle, session, executors, nodes):
        self.handle = handle
        self.session = session
        self.executors = executors      # list of (device, Executor)
        self.nodes = nodes              # [name, op type, device, dtype, shape] of each node


class WorkerService:
    """The worker service of one task."""

    def __init__(self, task, devices, peers, trace, log=print, knobs=None):
        self.task = task
        self.knobs = knobs
        self.devices = list(devices)
        self.peers = peers
        self.trace = trace
        self.log = log
        self.resources = ResourceMgr(owner=task)
        self._isolated = {}               # session -> its ResourceMgr (isolate_session_state)
        self.rendezvous = Rendezvous(owner=task, log=log)
        self._graphs = {}
        self._states = {}
        self._handles = itertools.count(1)
        self._lock = threading.Lock()
        self._active = {}                 # step_id -> list of StepState
        self.placement_version = 0        # grows whenever a graph is registered or dropped

    # -- the master's calls ---------------------------------------------------
    def list_devices(self):
        return list(self.devices)

    def register_graph(self, session, pieces):
        """Builds an executor per graph piece; returns a handle for RunGraph."""
        state_store = self._states.setdefault(session, {})
        executors = []
        for piece in pieces:
            device = piece["device"]
            if device not in self.devices:
                raise errors.InvalidArgumentError(
                    None, None, f"{self.task} has no device {device}; it has "
                    f"{', '.join(self.devices)}.")
            # fetches for a master elsewhere leave this task (executor.py's docstring)
            leave = piece.get("client_task", self.task) != self.task
            # ConfigProto(isolate_session_state=True): the session's own variables and queues
            resources = self._isolated.setdefault(session, ResourceMgr(owner=self.task)) \
                if piece.get("isolate_session_state") else self.resources
            executors.append((device, Executor(piece["nodes"], piece["feeds"], piece["fetches"],
                                               piece["targets"], resources, state_store,
                                               device=device, fetches_leave=leave)))
        nodes = [_node_summary(nd, piece["device"]) for piece in pieces
                 for nd in piece["nodes"]]
        with self._lock:
            handle = f"{self.task}/graph/{next(self._handles)}"
            self._graphs[handle] = _RegisteredGraph(handle, session, executors, nodes)
            self.placement_version += 1
        return handle

    def close_session(self, session):
        with self._lock:
            for handle in [h for h, g in self._graphs.items() if g.session == session]:
                del self._graphs[handle]
                self.placement_version += 1
            self._states.pop(session, None)
            self._isolated.pop(session, None)

    def placement(self, since_version=None):
        """What the masters gave this task to run: {"version": n, "nodes": [[name, op type,
        device, dtype, shape, sessions], ...]} over every registered graph piece (a node that
        several sessions registered -- the same variable for every worker -- is listed once,
        with how many). "nodes" is None if nothing changed since `since_version`."""
        with self._lock:
            version = self.placement_version
            if since_version is not None and since_version == version:
                return {"version": version, "nodes": None}
            graphs = list(self._graphs.values())
        merged = {}
        for graph in graphs:
            for name, op, device, dtype, shape in graph.nodes:
                entry = merged.get((name, device))
                if entry is None:
                    merged[(name, device)] = [name, op, device, dtype, shape, {graph.session}]
                else:
                    entry[5].add(graph.session)
        nodes = [entry[:5] + [len(entry[5])] for entry in merged.values()]
        return {"version": version, "nodes": nodes}

    def run_graph(self, handle, step_id, feeds, deadline=None, collect_stats=False,
                  rendezvous=None):
        """Runs every piece of graph `handle` for one step; returns {"fetched": {tensor name:
        value}, "stats": [...]}. `rendezvous(worker, step_id, pieces)` makes each piece's
        StepRendezvous (the fast path passes its own: runtime/step_channels.py)."""
        graph = self._graphs.get(handle)
        if graph is None:
            raise errors.AbortedError(None, None, f"Graph handle {handle} is not registered on "
                                      f"{self.task} (the task restarted?). Run the step again.")
        results, stats, failures, states = {}, [], [], []
        pieces = len(graph.executors)
        make_rendezvous = rendezvous or (lambda worker, step, pieces: StepRendezvous(worker,
                                                                                     step))

        def run_piece(device, executor):
            step = StepState(step_id, deadline=deadline, collect_stats=collect_stats,
                             rendezvous=make_rendezvous(self, step_id, pieces))
            states.append(step)
            try:
                values = executor.run([feeds[name] for name in executor.feeds], step)
                step.rendezvous.flush(last=True)
                results.update(zip(executor.fetches, values))
                if step.stats is not None:
                    stats.extend((device,) + s for s in step.stats)
            except errors.OpError as e:
                failures.append(e)
                self.rendezvous.abort(step_id, e)
            except Exception as e:  # a bug: report it, do not kill the task
                failures.append(errors.InternalError(
                    None, None, f"Internal error in {self.task} while running its graph piece "
                    f"for {device}: {type(e).__name__}: {e}"))
                self.rendezvous.abort(step_id, failures[-1])
            finally:
                step.end()

        with self._lock:
            self._active[step_id] = states
        started = time.monotonic()
        try:
            threads = [threading.Thread(target=run_piece, args=piece, daemon=True,
                                        name=f"step-{step_id}-{piece[0]}")
                       for piece in graph.executors[1:]]
            for t in threads:
                t.start()
            if graph.executors:
                run_piece(*graph.executors[0])
            for t in threads:
                t.join()
            if self.knobs is not None and self.knobs.straggles and not failures:
                self._straggle(step_id, time.monotonic() - started, states)
        finally:
            with self._lock:
                self._active.pop(step_id, None)
            self.rendezvous.cleanup(step_id)
        if failures:
            raise _root_cause(failures)
        return {"fetched": results, "stats": stats}

    def _straggle(self, step_id, elapsed, states):
        """A simulated slow machine (runtime/simulation.py): make the step last longer."""
        delay = self.knobs.compute_delay(elapsed)
        if delay > 0:
            start = time.time()
            sleep_for(delay, states[0] if states else None)
            self.trace.record("straggle", self.task, self.task, f"x{self.knobs.slowdown:g}",
                              0, step_id, start, time.time())

    def abort_step(self, step_id, code, message):
        """Another task failed this step: wake everything here that waits in it."""
        error = errors.exception_type_from_error_code(code)(None, None, message)
        with self._lock:
            states = list(self._active.get(step_id, ()))
        for state in states:
            state.cancelled = message
        self.rendezvous.abort(step_id, error)

    def shutdown(self):
        """The task is stopping: fail every step still running here."""
        with self._lock:
            steps = list(self._active)
        for step_id in steps:
            self.abort_step(step_id, errors.ABORTED, f"{self.task} is shutting down.")

    def reset(self, containers=None):
        """TF's Worker::CleanupAll: no container names clears the default container only
        (DeviceMgr::ClearContainers), as `tf.Session.reset(target)` does in TensorFlow."""
        if not containers:
            self.resources.clear(self.resources.default_container)
        else:
            for c in containers:
                self.resources.clear(c)

    # -- peers' calls ---------------------------------------------------------
    def receive_tensors(self, step_id, items, src, wake=True):
        """Tensors sent here by another task's _Send ops, for this task's _Recv ops (`wake`:
        see Rendezvous.send_many)."""
        self.rendezvous.send_many(step_id, items, wake)
        self.trace.record_many("recv", src, self.task,
                               [(key.rsplit(";", 1)[-1], getattr(value, "nbytes", 0))
                                for key, value in items], step_id)


def _node_summary(nd, device):
    """[name, op type, device, dtype, shape] of a node of a registered piece, from what its
    attrs say (a variable's or placeholder's dtype and shape, a constant's value)."""
    attr = nd.get("attr") or {}
    dtype = attr.get("dtype", attr.get("T"))
    shape = attr.get("shape")
    if shape is None and getattr(attr.get("value"), "shape", None) is not None:
        shape = attr["value"].shape
    if shape is not None:
        dims = shape.as_tuple() if hasattr(shape, "as_tuple") else tuple(shape)
        shape = None if dims is None else [None if d is None else int(d) for d in dims]
    return [nd["name"], nd["op"], device,
            getattr(dtype, "name", None) if dtype is not None else None, shape]


def _root_cause(failures):
    """Prefer the error that caused the others (not the aborted/cancelled echoes)."""
    for e in failures:
        if not isinstance(e, (errors.AbortedError, errors.CancelledError)):
            return e
    return failures[0]
