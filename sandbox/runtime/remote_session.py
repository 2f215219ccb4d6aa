"""The client side of `Session('grpc://host:port')` -- mirrors TensorFlow's GrpcSession
(core/distributed_runtime/rpc/grpc_session.cc).

The client never runs ops itself. It ships the graph, as data, to the master of the target
server (CreateSession, then ExtendSession with only the ops added since), and for each
`sess.run` sends the feeds and the names of the fetches (RunStep). The master does the rest.

In a between-graph program every worker process runs BOTH a server and the client:

    server = tf.train.Server(cluster, job_name="worker", task_index=0)
    with tf.Session(server.target) as sess: ...

TensorFlow notices that `server.target` is a master in this very process and calls it as a
function (its LocalMaster) -- no RPC between a client and its own master. The sandbox does the
same: InProcessMaster calls that server's dispatcher, the one a socket's request goes through.
Everything BETWEEN tasks still crosses the wire: the master's RunGraph to the ps, the
parameters the ps sends, the gradients the worker sends back.
"""
import sys
import threading
import time

from ..framework import errors
from ..framework.step_stats import fill_step_stats
from . import cluster_secret
from .peers import Peers, message_size, parse_address
from .task_server import UNTRACED_METHODS, TraceRecord, in_process_server

__all__ = ["RemoteSession", "parse_target", "reset_containers", "read_trace", "call_master"]

MASTER = "master"


def parse_target(target):
    """'grpc://localhost:2222' or 'localhost:2222' -> ('localhost', 2222)."""
    text = target
    for prefix in ("grpc://", "grpc+sandbox://", "sandbox://"):
        if text.startswith(prefix):
            text = text[len(prefix):]
    address = parse_address(text)
    if address is None or not address[0]:
        raise errors.NotFoundError(     # TF's words: no runtime takes such a target
            None, None, f'No session factory registered for the given session options: '
            f'{{target: "{target}"}}. A Session runs in this process (target \'\') or '
            "through a server's master: 'grpc://host:port', e.g. server.target or "
            "cluster.target('worker', 0).")
    return address


def call_master(peers, master, session_config, method, /, **kwargs):
    """The first call to the master at a target: if it cannot be reached and the config has
    an operation_timeout_in_ms, tries again until then (TF's client waits for its master),
    then DeadlineExceededError; without a timeout, the UnavailableError at once."""
    timeout_ms = int(getattr(session_config, "operation_timeout_in_ms", 0) or 0)
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            return peers.call(master, method, **kwargs)
        except errors.UnavailableError as e:
            if not timeout_ms:
                raise
            if time.monotonic() >= deadline:
                raise errors.DeadlineExceededError(
                    None, None, f"{method} found no master within operation_timeout_in_ms="
                    f"{timeout_ms}: {e.message}") from None
            time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))


def _config_dict(config):
    return {"allow_soft_placement": bool(config.allow_soft_placement),
            "log_device_placement": bool(config.log_device_placement),
            "operation_timeout_in_ms": int(config.operation_timeout_in_ms or 0),
            "isolate_session_state": bool(config.isolate_session_state)}


class InProcessMaster:
    """The part of `Peers` a RemoteSession uses, calling a master of this process through its
    server's dispatcher. What it asks is recorded in the task's trace like a message ("RunStep"
    from "client"), so the traffic view still shows each step's request."""

    def __init__(self, server):
        self.server = server

    def call(self, task, method, timeout=None, **kwargs):
        server = self.server
        if server.stopped:
            raise errors.UnavailableError(None, None, f"{server.task} (the master of this "
                                          "Session) has been stopped; create a new Session "
                                          "on a running server.")
        start = time.time()
        try:
            return server.dispatch(method, kwargs)
        finally:
            if method not in UNTRACED_METHODS:
                server.trace.record(method, "client", server.task, "", message_size(kwargs),
                                    kwargs.get("step_id", 0), start, time.time())

    def rename(self, old, new):
        pass

    def close(self):
        pass


class RemoteSession:
    """Runs a graph through the master service at `target`."""

    def __init__(self, target, graph, config):
        self.target = target
        self.address = parse_target(target)
        self.graph = graph
        self.config = config
        self.master = f"the master at {target}"          # its task name once known
        server = in_process_server(self.address)
        if server is not None and config.rpc_options.use_rpc_for_inprocess_master:
            server = None                 # asked for the socket even so (TF's RPCOptions)
        if server is not None:            # our own process's server: no socket in between
            self.peers = InProcessMaster(server)
        else:
            self.peers = Peers({self.master: self.address},
                               cluster_secret.secret_for(self.address), owner="client")
        self.handle = None
        self.devices = []
        self.sent_ops = 0
        self.synced_version = None        # the graph's version when last sent to the master
        self.master_task = None
        self.placement = {}               # op name -> (op type, device): what the master chose
        self._sync_lock = threading.Lock()

    def _sync_graph(self):
        with self._sync_lock:
            self._sync_graph_locked()

    def _sync_graph_locked(self):
        version = self.graph.version
        ops = self.graph.get_operations()
        if self.handle is None:
            reply = call_master(self.peers, self.master, self.config, "CreateSession",
                                nodes=[op.node_def for op in ops],
                                config=_config_dict(self.config),
                                device_filters=list(self.config.device_filters or []))
            self.handle, self.devices = reply["handle"], reply["devices"]
            self.master_task = reply["task"]
            named = f"{reply['task']} (the master at {self.target})"
            self.peers.rename(self.master, named)
            self.master = named
            self.sent_ops = len(ops)
        elif len(ops) > self.sent_ops:
            self.peers.call(self.master, "ExtendSession", handle=self.handle,
                            nodes=[op.node_def for op in ops[self.sent_ops:]])
            self.sent_ops = len(ops)
        self.synced_version = version

    def list_devices(self):
        self._sync_graph()
        return list(self.devices)

    def run(self, feeds, fetches, targets, feed_values, options=None, run_metadata=None):
        if self.graph.version != self.synced_version:     # ops were added since
            self._sync_graph()
        trace = bool(options and options.trace_level >= 1 and run_metadata is not None)
        timeout_ms = int(options.timeout_in_ms) if options else 0
        reply = self.peers.call(self.master, "RunStep", handle=self.handle,
                                timeout=timeout_ms / 1000.0 + 2.0 if timeout_ms else None,
                                feeds=dict(zip(feeds, feed_values)), fetches=list(fetches),
                                targets=list(targets),
                                timeout_ms=int(options.timeout_in_ms) if options else 0,
                                trace=trace)
        if reply.get("placement"):            # (sent with a step the master planned anew)
            for name, op, device in reply["placement"]:
                self.placement[name] = (op, device)
            if self.config.log_device_placement:
                for name, op, device in reply["placement"]:
                    print(f"{name}: ({op}): {device}", file=sys.stderr)
        if trace:           # each task's rows: (its device, node, op, node's device, start, end)
            fill_step_stats(run_metadata.step_stats,
                            [(device, name, op, begin, end) for device, name, op, _, begin, end,
                             *_ in reply.get("stats") or []])
        return reply["values"]

    def close(self):
        if self.handle is not None:
            try:
                self.peers.call(self.master, "CloseSession", handle=self.handle)
            except errors.OpError:
                pass
            self.handle = None
        self.peers.close()


def reset_containers(target, containers=None, config=None):
    address = parse_target(target)
    peers = Peers({MASTER: address}, cluster_secret.secret_for(address), owner="client")
    try:
        call_master(peers, MASTER, config, "MasterReset", containers=list(containers or []))
    finally:
        peers.close()


def read_trace(target, since=0, limit=None):
    """The trace records of the task at `target` (TraceRing, runtime/task_server.py), oldest
    first."""
    address = parse_target(target)
    peers = Peers({MASTER: address}, cluster_secret.secret_for(address), owner="client")
    try:
        rows = peers.call(MASTER, "GetTrace", since=since, limit=limit)
    finally:
        peers.close()
    return [TraceRecord(*row) for row in rows]
