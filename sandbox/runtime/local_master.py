"""A client and a master in the same process talk directly -- mirrors TensorFlow's LocalMaster
(core/distributed_runtime/local_master.h).

In a between-graph program every worker process runs BOTH a server and the client:

    server = tf.train.Server(cluster, job_name="worker", task_index=0)
    with tf.Session(server.target) as sess: ...

TensorFlow notices that `server.target` is a master in this very process and calls it as a
function -- no RPC between a client and its own master. The sandbox does the same: a started
server registers itself here under its port, and `Session(target)` looks the target up before
it opens a socket. Everything BETWEEN tasks still crosses the wire: the master's RunGraph to
the ps, the parameters the ps sends, the gradients the worker sends back.

What the in-process master does is recorded in the task's trace like a message ("RunStep"
from "client"), so the traffic widgets still show each step's request.
"""
import threading
import time

from ..framework import errors
from .peers import message_size
from .trace import UNTRACED_METHODS

__all__ = ["register", "unregister", "lookup", "InProcessMaster"]

_servers = {}               # port -> TaskServer started in this process
_lock = threading.Lock()
_LOOPBACK = ("localhost", "127.0.0.1", "::1", "")


def register(server):
    with _lock:
        _servers[server.address[1]] = server


def unregister(server):
    with _lock:
        if _servers.get(server.address[1]) is server:
            del _servers[server.address[1]]


def lookup(address):
    """The running TaskServer of this process that listens at `address` (host, port), or None."""
    host, port = address
    with _lock:
        server = _servers.get(int(port))
    if server is None or server.stopped:
        return None
    bound = server.address[0]
    spec_host = server.cluster_spec.task_address(server.job_name,
                                                 server.task_index).rpartition(":")[0]
    if host in (bound, spec_host) or (host in _LOOPBACK and bound in _LOOPBACK):
        return server
    return None


class InProcessMaster:
    """The part of `Peers` a RemoteSession uses, calling a master of this process directly."""

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
