"""A task's server -- mirrors TensorFlow's GrpcServer (core/distributed_runtime/rpc/grpc_server_lib.cc).

Every task of a cluster runs one: a socket listener at the task's address from the ClusterSpec,
behind which sit two services --

  * the master service (runtime/master.py), for clients that open Session(server.target)
  * the worker service (runtime/worker.py), for masters that run graph pieces here and for
    peers that push tensors here

Each request is a message {"method": ..., arguments}; the reply is {"ok": result} or
{"error": [code, message, node]}, turned back into the same tf.errors class on the caller's side.
One table (handlers()) maps each method to its handler, and every request goes through
dispatch(): those from the socket, and those of a client in this very process -- a started
server registers itself (in_process_server() finds it), and a Session on it calls dispatch()
directly, as TensorFlow's LocalMaster does (core/distributed_runtime/local_master.cc).

Every message a task sends or receives is recorded in its trace ring (TraceRing, at the end of
this file): what the traffic view draws.
"""
import collections
import errno
import inspect
import os
import sys
import threading
import time

from ..framework import errors
from . import cluster_secret, compute_threads, step_channels, transport
from .master import MasterService
from .peers import NO_REPLY, Peers, parse_address
from .simulation import Knobs
from .worker import WorkerService

__all__ = ["TaskServer", "task_name", "checked_address", "in_process_server", "TraceRing",
           "TraceRecord", "UNTRACED_METHODS", "MAX_TOTAL_ROWS", "OTHER_TENSORS"]


def task_name(job, index):
    return f"/job:{job}/replica:0/task:{index}"


def checked_address(job, index, address, own=False):
    """(host, port) of task `index` of `job`, or the InvalidArgumentError TF's server gives
    when it starts (grpc_server_lib.cc GetPort for its own address, grpc_channel.cc
    ValidateHostPortPair for the others'), naming the task and saying what to write."""
    parsed = parse_address(address)
    if parsed is not None:
        return parsed
    host, sep, port = address.rpartition(":")
    where = f"job {job!r}, task {index} ({task_name(job, index)})"
    example = "e.g. 'localhost:2222'" + (" or 'localhost:0' for any free port" if own else "")
    if "://" in address:
        fix = f"write {address.split('://', 1)[1]!r}, without the protocol prefix"
    elif not sep or not port.isdigit():
        fix = f"an address must be 'host:port' with a port number, {example}"
    elif "/" in host:
        fix = f"the host part {host!r} cannot hold a '/', {example}"
    else:
        fix = f"a port is a number in 0..65535, {example}"
    if own:
        text = f'Could not parse port for local server from "{address}"'
    else:
        text = f'Could not interpret "{address}" as a host-port pair'
    raise errors.InvalidArgumentError(None, None, f"{text}: the ClusterSpec's address of {where}"
                                      f" is {address!r}; {fix}.")


class TaskServer:
    """The server of task (`job_name`, `task_index`) of `cluster_spec`."""

    def __init__(self, cluster_spec, job_name, task_index, secret=None, num_gpus=0,
                 listener=None, log=None, intra_op_threads=0):
        self.job_name = job_name
        self.task_index = task_index
        self.task = task_name(job_name, task_index)
        self.cluster_spec = cluster_spec
        address = cluster_spec.task_address(job_name, task_index)
        host, port = checked_address(job_name, task_index, address, own=True)
        addresses = {}                    # every address is checked before anything starts
        for job in cluster_spec.jobs:
            for index in cluster_spec.task_indices(job):
                addresses[task_name(job, index)] = checked_address(
                    job, index, cluster_spec.task_address(job, index))
        self.secret = secret if secret is not None else cluster_secret.secret_for((host, port))
        self._log = log or self._stderr_log
        if listener is None:
            bind_host = "127.0.0.1" if host == "localhost" else host
            try:
                listener = transport.Listener((bind_host, port), self.secret)
            except OSError as e:
                raise errors.UnknownError(None, None, _bind_failure(
                    job_name, task_index, address, e)) from None
        self.listener = listener
        self.address = listener.address
        cluster_secret.register((host, self.address[1]), self.secret)
        self.trace = TraceRing()
        self.knobs = Knobs(self.task)
        self.peers = Peers(addresses, self.secret, owner=self.task, knobs=self.knobs,
                           trace=self.trace)
        devices = [f"{self.task}/device:CPU:0"] + \
                  [f"{self.task}/device:GPU:{i}" for i in range(int(num_gpus))]
        self.fast_path = step_channels if step_channels.enabled() else None
        self.worker = WorkerService(self.task, devices, self.peers, self.trace, self._log,
                                    knobs=self.knobs)
        self.master = MasterService(self.task, sorted(addresses), self.peers, self.dispatch,
                                    self._log, fast_path=self.fast_path,
                                    local_worker=self.worker)
        self._table = {method: _Handler(fn) for method, fn in self.handlers().items()}
        hosts = [host for host, _ in addresses.values()]
        self._blas_threads = compute_threads.share_for(hosts, intra_op_threads)
        self._serving = None
        self._stopped = threading.Event()
        self.started = time.time()            # tells an observer that a task restarted

    def _stderr_log(self, text):
        print(f"[{self.task}] {text}", file=sys.stderr, flush=True)

    # -- lifetime -----------------------------------------------------------------
    def start(self):
        if self._serving is None and not self._stopped.is_set():
            self._serving = transport.serve(self.listener, self._handle,
                                            name=f"server{self.task}")
            _register(self)
            compute_threads.hold(self, self._blas_threads)

    def stop(self):
        if self._stopped.is_set():
            return
        self._stopped.set()
        _unregister(self)
        compute_threads.release(self)
        self.master.shutdown()
        self.worker.shutdown()
        if self._serving is not None:
            self._serving.stop()
        else:
            self.listener.close()
        self.peers.close()
        host, _ = parse_address(self.cluster_spec.task_address(self.job_name, self.task_index))
        cluster_secret.unregister((host, self.address[1]))

    def join(self, timeout=None):
        """Blocks until the server is stopped (or `timeout` seconds pass); returns True if it
        stopped."""
        end = None if timeout is None else time.monotonic() + timeout
        while not self._stopped.wait(0.5):
            if end is not None and time.monotonic() >= end:
                return False
        return True

    @property
    def stopped(self):
        return self._stopped.is_set()

    @property
    def target(self):
        """'grpc://host:port' of this server's master, as tf.train.Server.target gives it."""
        host = self.cluster_spec.task_address(self.job_name, self.task_index).rpartition(":")[0]
        return f"grpc://{host}:{self.address[1]}"

    # -- requests -------------------------------------------------------------------
    def _handle(self, conn, message):
        """A request from the socket: dispatched, answered, traced."""
        method = message.get("method") if isinstance(message, dict) else None
        src = message.get("src", "client") if isinstance(message, dict) else "client"
        start = time.time()
        nbytes = conn.last_frame_bytes        # (read now: the step's tensors come on conn too)
        try:
            result = self.dispatch(method, message, conn)
            reply = None if result is NO_REPLY else {"ok": result}
        except errors.OpError as e:
            reply = {"error": [e.error_code, e.message, _node_name(e)]}
        end = time.time()
        if reply is not None and not message.get("one_way"):
            conn.send(reply)     # first the reply, then the trace: the caller does not wait
        if method not in UNTRACED_METHODS:
            self.trace.record(method or "?", src, self.task, "", nbytes,
                              message.get("step_id", 0), start, end)
        return NO_REPLY

    def dispatch(self, method, request, conn=None):
        """Runs `request` (a dict of arguments) of `method` with its handler from the table
        (handlers()); returns the result or raises the OpError. Sessions of this process and
        this task's own master call it directly (in_process_server(), master.py), the
        socket's requests come through _handle. `conn`: the connection the request came on.

        A request with arguments its handler does not take, or without one it needs, is an
        InvalidArgumentError; an exception of the handler that is not a TF error is a bug of
        the sandbox, and comes back as an InternalError naming the task and the method."""
        handler = self._table.get(method)
        if handler is None:
            raise errors.UnimplementedError(
                None, None, f"{self.task} does not know the method {method!r}; it knows "
                f"{', '.join(sorted(self._table))}.")
        args = {k: v for k, v in request.items() if k in handler.params}
        missing = handler.required - args.keys()
        unknown = request.keys() - handler.params - _ENVELOPE
        if missing or unknown:
            raise errors.InvalidArgumentError(
                None, None, f"Bad {method} request to {self.task}: "
                + (f"missing {', '.join(sorted(missing))}" if missing else "")
                + ("; " if missing and unknown else "")
                + (f"unknown {', '.join(sorted(unknown))}" if unknown else "")
                + f". {method} takes {', '.join(sorted(handler.params)) or 'nothing'}.")
        if "conn" in handler.params:
            args["conn"] = conn
        try:
            return handler.fn(**args)
        except errors.OpError:
            raise
        except Exception as e:
            raise errors.InternalError(
                None, None, f"{method} failed on {self.task} (a bug of the sandbox, not of "
                f"your program): {type(e).__name__}: {e}") from e

    def handlers(self):
        """The table: request method -> what answers it."""
        w, master = self.worker, self.master
        return {
            # the worker service: what masters ask, and tensors from peers
            "RegisterGraph": w.register_graph,
            "RunGraph": self._run_graph,
            "AbortStep": w.abort_step,
            "CloseWorkerSession": w.close_session,
            "ListDevices": w.list_devices,
            "Reset": w.reset,
            "Tensors": self._tensors,
            # the master service: what clients ask
            "CreateSession": self._create_session,
            "ExtendSession": lambda handle, nodes: master.session(handle).extend(nodes),
            "RunStep": self._run_step,
            "CloseSession": master.close_session,
            "MasterReset": master.reset,
            # what the views read (sandbox/widgets), the simulation's knobs, the lifetime
            "Observe": self._observe,
            "GetTrace": lambda since=0, limit=None: [list(r) for r in
                                                    self.trace.since(since, limit)],
            "GetTrafficTotals": lambda by_tensor=False: (self.trace.tensor_totals()
                                                         if by_tensor else self.trace.totals()),
            "GetPlacement": w.placement,
            "ListResources": w.resources.describe,
            "SetKnobs": self._set_knobs,
            "GetKnobs": self.knobs.as_dict,
            "Ping": lambda: {"task": self.task, "devices": w.list_devices()},
            "Stop": self._stop_soon,
        }

    def _run_graph(self, handle, step_id, feeds, deadline_in=None, collect_stats=False,
                   channel=False, src=None, conn=None, rendezvous=None):
        """`channel`: the caller's master runs the step on the fast path, and this call's
        connection carries its tensors (runtime/step_channels.py). `rendezvous`: from a
        caller in this process only, the fast path's way to make the step's rendezvous."""
        deadline = None if deadline_in is None else time.monotonic() + deadline_in
        if channel and conn is not None and self.fast_path is not None:
            return self.fast_path.serve_run_graph(self.worker, conn, src, handle, step_id,
                                                  feeds, deadline, collect_stats)
        return self.worker.run_graph(handle, step_id, feeds, deadline, collect_stats,
                                     rendezvous)

    def _tensors(self, step_id, items, src="client"):
        self.worker.receive_tensors(step_id, items, src)

    def _create_session(self, nodes, config=None, device_filters=None):
        handle, devices = self.master.create_session(nodes, config or {}, device_filters or ())
        return {"handle": handle, "devices": devices, "task": self.task}

    def _run_step(self, handle, feeds, fetches, targets, timeout_ms=0, trace=False):
        values, stats, placement = self.master.session(handle).run(feeds, fetches, targets,
                                                                   timeout_ms, trace)
        return {"values": values, "stats": stats, "placement": placement}

    def _observe(self, since=0, limit=None):
        """What a watcher (the traffic and placement views) reads in one call: who this is,
        its trace records since `since` (the newest `limit`), its running totals."""
        return {"task": self.task, "pid": os.getpid(), "started": self.started,
                "last_seq": self.trace.last_seq,
                "records": [list(r) for r in self.trace.since(since, limit)],
                "totals": self.trace.tensor_totals(),
                "placement_version": self.worker.placement_version}

    def _set_knobs(self, slowdown=None, step_delay=None, links=None):
        self.knobs.update(slowdown, step_delay, links)
        return self.knobs.as_dict()

    def _stop_soon(self):
        """Stops a moment later, so that this reply still reaches the caller."""
        timer = threading.Timer(0.1, self.stop)
        timer.daemon = True
        timer.start()
        return True


# What every request carries besides its handler's arguments (runtime/peers.py adds them).
_ENVELOPE = {"method", "src", "one_way"}


class _Handler:
    """A handler of the table, with the arguments it takes (read once, not per request)."""

    __slots__ = ("fn", "params", "required")

    def __init__(self, fn):
        self.fn = fn
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        self.params = {p.name for p in params}
        self.required = {p.name for p in params if p.default is p.empty} - {"conn"}


def _bind_failure(job, index, address, e):
    """Why the server of task `index` of `job` cannot listen at `address`, and what to do."""
    why = e.strerror or str(e)
    if e.errno == errno.EADDRINUSE:
        advice = ("Is another server (or an old process) already using that port? Stop it, or "
                  "choose another port in the ClusterSpec.")
    else:
        advice = ("A server listens at the host of its own address, so that host must be this "
                  "machine: 'localhost', this machine's name or one of its IP addresses.")
    return (f"Could not start the server of job {job!r}, task {index} "
            f"({task_name(job, index)}) at {address}: {why}. {advice}")


def _node_name(e):
    nd = e.node_def
    return nd if isinstance(nd, str) else None


# -- the servers of this process (TF: LocalMaster::Register and Lookup) ------------------------
# A server registers itself when it starts, under its port; Session(target) looks the target up
# before it opens a socket (runtime/remote_session.py), and calls that server's dispatch().

_servers = {}               # port -> TaskServer started in this process
_servers_lock = threading.Lock()
_LOOPBACK = ("localhost", "127.0.0.1", "::1", "")


def _register(server):
    with _servers_lock:
        _servers[server.address[1]] = server


def _unregister(server):
    with _servers_lock:
        if _servers.get(server.address[1]) is server:
            del _servers[server.address[1]]


def in_process_server(address):
    """The running TaskServer of this process that listens at `address` (host, port), or None."""
    host, port = address
    with _servers_lock:
        server = _servers.get(int(port))
    if server is None or server.stopped:
        return None
    bound = server.address[0]
    spec_host = server.cluster_spec.task_address(server.job_name,
                                                 server.task_index).rpartition(":")[0]
    if host in (bound, spec_host) or (host in _LOOPBACK and bound in _LOOPBACK):
        return server
    return None


# -- the trace ring: what travelled between tasks (the sandbox's counterpart of TF's tracing) --
#
# Every message a task sends or receives -- a step request, a graph piece, a tensor -- is
# recorded in a bounded ring of that task: kind, source task, destination task, tensor name,
# bytes, step id, start and end time. Any client can read it (GetTrace, Observe); the traffic
# view draws it. Old records fall off the end, so tracing never grows memory.
#
# Beside the ring, running totals per (kind, source, destination, tensor) -- bytes, tensors and
# messages since the task started -- are never dropped: a reader that samples them twice knows
# exactly how many bytes and messages of each kind travelled in between, however fast the ring
# turned over. (A program that keeps inventing tensor names cannot grow them without bound
# either: past MAX_TOTAL_ROWS rows, new names are counted under OTHER_TENSORS.)

# Requests that are not traffic of the training itself (reading the trace, health checks) and
# tensor messages (recorded per tensor by the sender and the receiver instead).
UNTRACED_METHODS = ("GetTrace", "GetTrafficTotals", "GetPlacement", "ListResources", "Observe",
                    "Ping", "Tensors")

TraceRecord = collections.namedtuple(
    "TraceRecord", "seq kind src dst tensor nbytes step_id start end")

MAX_TOTAL_ROWS = 4096
OTHER_TENSORS = "(other tensors)"


class TraceRing:
    """A fixed-size, thread-safe ring of TraceRecords, numbered by a growing sequence.

    A message's tensors are kept together as they come (one entry per message) and made into
    TraceRecords only when somebody reads them: recording sits on every step's path, reading
    does not."""

    def __init__(self, capacity=10000):
        self.capacity = capacity
        self._messages = collections.deque()      # (first seq, kind, src, dst, tensors,
        self._count = 0                           #   step_id, start, end); records held
        self._next_seq = 1
        self._lock = threading.Lock()
        self._totals = {}                         # (kind, src, dst, tensor) ->
                                                  #   [bytes, tensors, messages], never dropped

    def record(self, kind, src, dst, tensor="", nbytes=0, step_id=0, start=None, end=None):
        self.record_many(kind, src, dst, ((tensor, nbytes),), step_id, start, end)

    def record_many(self, kind, src, dst, tensors, step_id=0, start=None, end=None):
        """One record per (tensor name, bytes) of `tensors` (a list or tuple the caller no
        longer changes): the tensors of one message."""
        n = len(tensors)
        if not n:
            return
        end = time.time() if end is None else end
        start = end if start is None else start
        totals = self._totals
        with self._lock:
            self._messages.append((self._next_seq, kind, src, dst, tensors, step_id, start,
                                   end))
            self._next_seq += n
            self._count += n
            if self._count > self.capacity:
                self._drop(self._count - self.capacity)
            biggest, most = None, -1
            for tensor, nbytes in tensors:
                row = totals.get((kind, src, dst, tensor))
                if row is None:
                    row = self._new_total_row(kind, src, dst, tensor)
                row[0] += int(nbytes)
                row[1] += 1
                if nbytes > most:
                    biggest, most = row, nbytes
            biggest[2] += 1                       # a message counts once, under its biggest

    def _new_total_row(self, kind, src, dst, tensor):
        """(under the lock) The totals row of a tensor seen for the first time."""
        key = (kind, src, dst, tensor)
        if len(self._totals) >= MAX_TOTAL_ROWS:
            key = (kind, src, dst, OTHER_TENSORS)
            row = self._totals.get(key)
            if row is not None:
                return row
        row = self._totals[key] = [0, 0, 0]
        return row

    def _drop(self, n):
        """Drops the n oldest records (under the lock)."""
        messages = self._messages
        while n:
            oldest = messages[0]
            k = len(oldest[4])                    # its tensors
            if k <= n:                            # (the usual case: whole messages go)
                messages.popleft()
                n -= k
                self._count -= k
            else:
                first, kind, src, dst, tensors, step_id, start, end = oldest
                messages[0] = (first + n, kind, src, dst, tensors[n:], step_id, start, end)
                self._count -= n
                n = 0

    def totals(self):
        """Bytes per (kind, source, destination) since the task started (not bounded by the
        ring's capacity: one counter per pair of tasks)."""
        by_pair = collections.Counter()
        for kind, src, dst, _, nbytes, _, _ in self.tensor_totals():
            by_pair[(kind, src, dst)] += nbytes
        return [[kind, src, dst, n] for (kind, src, dst), n in by_pair.items()]

    def tensor_totals(self):
        """[kind, source, destination, tensor, bytes, tensors, messages] since the task
        started: `tensors` counts every time the tensor travelled, `messages` the messages
        it was the biggest tensor of (so summing `messages` counts each message once, under
        what it mostly carried: the gradients, not the learning rate sent beside them)."""
        with self._lock:
            return [[kind, src, dst, tensor, row[0], row[1], row[2]]
                    for (kind, src, dst, tensor), row in self._totals.items()]

    def since(self, seq=0, limit=None):
        """Records with a sequence number above `seq` (oldest first); only the newest `limit`
        of them if `limit` is given (found from the newest end: the cost is what is returned,
        not what is in the ring)."""
        with self._lock:
            if limit is None:
                messages = [m for m in self._messages if m[0] + len(m[4]) - 1 > seq]
            else:
                messages, held = [], 0
                for m in reversed(self._messages):
                    if m[0] + len(m[4]) - 1 <= seq or held >= limit:
                        break
                    messages.append(m)
                    held += len(m[4])
                messages.reverse()
        out = []
        for first, kind, src, dst, tensors, step_id, start, end in messages:
            for i, (tensor, nbytes) in enumerate(tensors):
                if first + i > seq:
                    out.append(TraceRecord(first + i, kind, src, dst, tensor, int(nbytes),
                                           int(step_id), start, end))
        return out if limit is None else out[-limit:]

    @property
    def last_seq(self):
        """The sequence number of the newest record (0 if none yet)."""
        with self._lock:
            return self._next_seq - 1

    def clear(self):
        """Empties the ring (the totals keep counting)."""
        with self._lock:
            self._messages.clear()
            self._count = 0

    def __len__(self):
        return self._count
