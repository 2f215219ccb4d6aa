"""A task's server -- mirrors TensorFlow's GrpcServer (core/distributed_runtime/rpc/grpc_server_lib.cc).

Every task of a cluster runs one: a socket listener at the task's address from the ClusterSpec,
behind which sit two services --

  * the master service (runtime/master.py), for clients that open Session(server.target)
  * the worker service (runtime/worker.py), for masters that run graph pieces here and for
    peers that push tensors here

Each request is a message {"method": ..., arguments}; the reply is {"ok": result} or
{"error": [code, message, node]}, turned back into the same tf.errors class on the caller's side.
Every message is recorded in the task's trace ring (runtime/trace.py).
"""
import errno
import os
import sys
import threading
import time

from ..framework import errors
from . import cluster_secret, compute_threads, local_master, transport
from .master import MasterService
from .peers import NO_REPLY, Peers
from .simulation import Knobs
from .trace import UNTRACED_METHODS, TraceRing
from .worker import WorkerService

__all__ = ["TaskServer", "task_name", "parse_address", "checked_address"]


def task_name(job, index):
    return f"/job:{job}/replica:0/task:{index}"


def parse_address(address):
    host, sep, port = address.rpartition(":")
    if not sep:
        raise ValueError(f"Address {address!r} has no port: write it as host:port")
    return host.strip("[]"), int(port)


def checked_address(job, index, address, own=False):
    """(host, port) of task `index` of `job`, or the InvalidArgumentError TF's server gives
    when it starts (grpc_server_lib.cc GetPort for its own address, grpc_channel.cc
    ValidateHostPortPair for the others'), naming the task and saying what to write."""
    host, sep, port = address.rpartition(":")
    where = f"job {job!r}, task {index} ({task_name(job, index)})"
    example = "e.g. 'localhost:2222'" + (" or 'localhost:0' for any free port" if own else "")
    if "://" in address:
        fix = f"write {address.split('://', 1)[1]!r}, without the protocol prefix"
    elif not sep or not port.isdigit():
        fix = f"an address must be 'host:port' with a port number, {example}"
    elif "/" in host:
        fix = f"the host part {host!r} cannot hold a '/', {example}"
    elif int(port) > 65535:
        fix = f"a port is a number in 0..65535, {example}"
    else:
        return host.strip("[]"), int(port)
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
        self.worker = WorkerService(self.task, devices, self.peers, self.trace, self._log,
                                    knobs=self.knobs)
        self.master = MasterService(self.task, sorted(addresses), self.peers, self.worker,
                                    self._log)
        hosts = [host for host, _ in addresses.values()]
        self._blas_threads = compute_threads.share_for(hosts, intra_op_threads)
        self._local_tasks = compute_threads.local_tasks(hosts)
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
            local_master.register(self)
            compute_threads.hold(self, self._blas_threads, self._local_tasks)

    def stop(self):
        if self._stopped.is_set():
            return
        self._stopped.set()
        local_master.unregister(self)
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
        method = message.get("method") if isinstance(message, dict) else None
        src = message.get("src", "client") if isinstance(message, dict) else "client"
        start = time.time()
        nbytes = conn.last_frame_bytes        # (read now: the step's tensors come on conn too)
        try:
            if method == "Tensors":
                self.worker.receive_tensors(message["step_id"], message["items"], src)
                return NO_REPLY
            result = self.dispatch(method, message, conn)
            if method == "RunGraph":              # [fetched, stats, the piece's last tensors]
                reply = {"ok": result[:2], "tensors": result[2]}
            else:
                reply = {"ok": result}
        except errors.OpError as e:
            reply = {"error": [e.error_code, e.message, _node_name(e)]}
        except (KeyError, TypeError, ValueError) as e:
            reply = {"error": [errors.INVALID_ARGUMENT, f"Bad {method} request: "
                               f"{type(e).__name__}: {e}", None]}
        end = time.time()
        conn.send(reply)         # first the reply, then the trace: the caller does not wait
        if method not in UNTRACED_METHODS:
            self.trace.record(method or "?", src, self.task, "", nbytes,
                              message.get("step_id", 0) if isinstance(message, dict) else 0,
                              start, end)
        return NO_REPLY

    def dispatch(self, method, m, conn=None):
        """Runs request `m` (a dict of arguments) of `method`; returns the result or raises the
        OpError. Sessions in this process call it directly (runtime/local_master.py). `conn`:
        the connection the request came on (a RunGraph call's tensors travel on it too)."""
        w, master = self.worker, self.master
        if method == "RunGraph":
            deadline = None if m.get("deadline_in") is None else \
                time.monotonic() + m["deadline_in"]
            return list(w.run_graph(m["handle"], m["step_id"], m["feeds"], deadline,
                                    m.get("collect_stats", False), conn=conn,
                                    caller=m.get("src") if conn is not None else None))
        if method == "RegisterGraph":
            return w.register_graph(m["session"], m["pieces"])
        if method == "ListDevices":
            return w.list_devices()
        if method == "AbortStep":
            return w.abort_step(m["step_id"], m["code"], m["message"])
        if method == "CloseWorkerSession":
            return w.close_session(m["session"])
        if method == "Reset":
            return w.reset(m.get("containers"))
        if method == "CreateSession":
            handle, devices = master.create_session(m["nodes"], m.get("config") or {},
                                                    m.get("device_filters") or ())
            return {"handle": handle, "devices": devices, "task": self.task}
        if method == "ExtendSession":
            return master.session(m["handle"]).extend(m["nodes"])
        if method == "RunStep":
            session = master.session(m["handle"])
            values, stats, placement = session.run(m["feeds"], m["fetches"], m["targets"],
                                                   m.get("timeout_ms", 0), m.get("trace", False))
            return {"values": values, "stats": stats, "placement": placement}
        if method == "CloseSession":
            return master.close_session(m["handle"])
        if method == "MasterReset":
            return master.reset(m.get("containers"))
        if method == "GetTrafficTotals":
            return self.trace.tensor_totals() if m.get("by_tensor") else self.trace.totals()
        if method == "GetTrace":
            return [list(r) for r in self.trace.since(m.get("since", 0), m.get("limit"))]
        if method == "Observe":
            # What a watcher (the traffic and placement views) reads in one call: who this
            # is, its trace records since `since` (the newest `limit`), its running totals.
            return {"task": self.task, "pid": os.getpid(), "started": self.started,
                    "last_seq": self.trace.last_seq,
                    "records": [list(r) for r in self.trace.since(m.get("since", 0),
                                                                  m.get("limit"))],
                    "totals": self.trace.tensor_totals(),
                    "placement_version": w.placement_version}
        if method == "GetPlacement":
            return w.placement(m.get("since_version"))
        if method == "ListResources":
            return w.resources.describe()
        if method == "SetKnobs":
            self.knobs.update(m.get("slowdown"), m.get("step_delay"), m.get("links"))
            return self.knobs.as_dict()
        if method == "GetKnobs":
            return self.knobs.as_dict()
        if method == "Ping":
            return {"task": self.task, "devices": w.list_devices()}
        if method == "Stop":
            # Stop a moment later, so that this reply still reaches the caller.
            timer = threading.Timer(0.1, self.stop)
            timer.daemon = True
            timer.start()
            return True
        raise errors.UnimplementedError(None, None, f"{self.task} does not know the method "
                                        f"{method!r}.")


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
