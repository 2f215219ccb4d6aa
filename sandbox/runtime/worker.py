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
from ..ops import sendrecv_ops  # noqa: F401  (registers _Send/_Recv)
from .executor import Executor, StepState
from .partition import task_of
from .rendezvous import Rendezvous
from .resource_mgr import ResourceMgr
from .simulation import sleep_for
from .step_channels import Channel, StepPump

__all__ = ["WorkerService", "StepRendezvous"]


class StepRendezvous:
    """What _Send/_Recv kernels of one step on this task talk to.

    Sends to another task wait in an outbox until the executor moves on to an op that is not
    a send (see Executor.run): the tensors a piece sends one after another -- all the
    parameters a ps hands to a worker, all the gradients a worker hands back -- travel to
    each task as ONE message. And the tensors a piece sends LAST to the master that called it
    (`reply_to`) travel inside the RunGraph reply, which goes out right after: a sync worker's
    token comes back with the reply of its step, one message instead of two."""

    __slots__ = ("worker", "step_id", "outbox", "reply_to", "held")

    def __init__(self, worker, step_id, reply_to=None):
        self.worker = worker
        self.step_id = step_id
        self.outbox = {}                  # task -> [(key, value, tensor name)]
        self.reply_to = reply_to          # the calling master's task, if its reply may carry
        self.held = []                    # the last tensors for it, held for that reply

    def send(self, key, value, recv_device, tensor_name):
        worker = self.worker
        dst_task = task_of(recv_device)
        if dst_task == worker.task:
            worker.rendezvous.send(self.step_id, key, value)
        else:
            self.outbox.setdefault(dst_task, []).append((key, value, tensor_name))

    def flush(self, last=False):
        """Ships what waits in the outbox, one message per destination task -- on the step's
        channel to that task if there is one (runtime/step_channels.py), else on the task's
        connection for tensors. `last`: the piece is done; what is for `reply_to` is held
        for the reply (see take_held)."""
        if not self.outbox:
            return
        outbox, self.outbox = self.outbox, {}
        if last and self.reply_to in outbox:
            self.held = outbox.pop(self.reply_to)
        worker = self.worker
        pump = worker.rendezvous.pump_of(self.step_id)
        for dst_task, items in outbox.items():
            start = time.time()
            message = {"method": "Tensors", "step_id": self.step_id, "one_way": True,
                       "items": [[k, v] for k, v, _ in items], "src": worker.task}
            nbytes = sum(getattr(v, "nbytes", 8) + len(k) for k, v, _ in items)
            if pump is not None and pump.takes(dst_task, nbytes + 200):
                pump.send(dst_task, message)
            else:
                worker.peers.push(dst_task, message)
            self._traced(dst_task, items, start)

    def take_held(self):
        """The held tensors as [[key, value], ...] for the RunGraph reply (after the link's
        simulated delay, as if they went on their own)."""
        items, self.held = self.held, []
        if not items:
            return []
        start = time.time()
        message = {"items": [[k, v] for k, v, _ in items]}
        self.worker.peers.simulate_link(self.reply_to, message, self.step_id)
        self._traced(self.reply_to, items, start)
        return message["items"]

    def _traced(self, dst_task, items, start):
        worker = self.worker
        worker.trace.record_many("send", worker.task, dst_task,
                                 [(name, getattr(value, "nbytes", 0)) for _, value, name in items],
                                 self.step_id, start)

    def recv(self, key, send_device, tensor_name, step, node_name):
        return self.worker.rendezvous.recv(self.step_id, key, step, node_name,
                                           describe=f"{tensor_name!r}")


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

    def deregister_graph(self, handle):
        with self._lock:
            if self._graphs.pop(handle, None) is not None:
                self.placement_version += 1

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
                  conn=None, caller=None):
        """Runs every piece of graph `handle` for one step; returns ({tensor name: value},
        stats, last tensors). `conn`: the connection the RunGraph request of the master at
        task `caller` came on; it carries the step's tensors to and from that task
        (runtime/step_channels.py), and the reply carries the last ones ([[key, value], ...],
        empty unless the graph is a single piece: with several, one piece may still wait for
        what another one sent)."""
        graph = self._graphs.get(handle)
        if graph is None:
            raise errors.AbortedError(None, None, f"Graph handle {handle} is not registered on "
                                      f"{self.task} (the task restarted?). Run the step again.")
        if conn is None or caller is None:
            return self._run_graph(graph, step_id, feeds, deadline, collect_stats)
        pump = StepPump(step_id, [Channel(caller, conn)], deliver=self.receive_from_channel,
                        on_failure=lambda task, e: self.rendezvous.abort(step_id, e),
                        simulate_link=self.peers.simulate_link,
                        on_release=self.rendezvous.notify)
        self.rendezvous.attach(step_id, pump)
        try:
            return self._run_graph(graph, step_id, feeds, deadline, collect_stats,
                                   reply_to=caller if len(graph.executors) == 1 else None)
        finally:
            self.rendezvous.detach(step_id)
            pump.close()

    def receive_from_channel(self, src, message):
        """A Tensors message read off a step channel by the thread that waits in the step."""
        self.receive_tensors(message["step_id"], message["items"], src, pumped=True)

    def _run_graph(self, graph, step_id, feeds, deadline, collect_stats, reply_to=None):
        results, stats, failures = {}, [], []
        states = []

        def run_piece(device, executor):
            step = StepState(step_id, deadline=deadline, collect_stats=collect_stats,
                             rendezvous=StepRendezvous(self, step_id, reply_to))
            states.append(step)
            try:
                values = executor.run([feeds[name] for name in executor.feeds], step)
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
            if self.knobs is not None and not failures:
                self._straggle(step_id, time.monotonic() - started, states)
        finally:
            with self._lock:
                self._active.pop(step_id, None)
            self.rendezvous.cleanup(step_id)
        if failures:
            raise _root_cause(failures)
        held = [item for state in states for item in state.rendezvous.take_held()]
        return results, stats, held

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
        if not containers:
            self.resources.clear()
        else:
            for c in containers:
                self.resources.clear(c)

    # -- peers' calls ---------------------------------------------------------
    def receive_tensors(self, step_id, items, src, pumped=False):
        """Tensors sent here by another task's _Send ops, for this task's _Recv ops."""
        self.rendezvous.send_many(step_id, items, pumped)
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
