"""Connections from one task (or a client) to the others -- the sandbox's counterpart of TF's
GrpcChannelCache / WorkerCache.

`call(task, method, **args)` sends a request and waits for the reply; `push(task, message)`
sends a one-way message (a tensor for another task's rendezvous). Connections are opened on
first use, authenticated with the cluster secret, and reused. A task that cannot be reached, or
whose connection breaks during a call, becomes an UnavailableError that names it.
"""
import contextlib
import sys
import threading
import time

from ..framework import errors
from . import cluster_secret, transport

__all__ = ["Peers", "raise_remote_error", "parse_address", "NO_REPLY"]

NO_REPLY = transport.NO_REPLY
# Calls that legitimately wait long and whose waits other parts already explain.
QUIET_METHODS = ("RunGraph",)


def raise_remote_error(reply, task):
    code, message, node = reply["error"]
    raise errors.exception_type_from_error_code(code)(node or None, None, message)


def parse_address(address):
    """'host:port' -> (host, port), or None if `address` is not one (the runtime's one
    parser of addresses: ClusterSpec entries, Session targets without their 'grpc://')."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in host or int(port) > 65535:
        return None
    return host.strip("[]"), int(port)


class Peers:
    """A pool of authenticated connections to the tasks of a cluster."""

    def __init__(self, addresses, secret, owner="client", connect_timeout=5.0, knobs=None,
                 trace=None):
        self.addresses = dict(addresses)      # task name -> (host, port)
        self.secret = secret
        self.owner = owner
        self.knobs = knobs                    # simulation.Knobs of the owner task, or None
        self.trace = trace
        self.connect_timeout = connect_timeout
        self._idle = {}                       # task -> [Connection]
        self._push = {}                       # task -> Connection (one-way)
        self._lock = threading.Lock()
        self._closed = False

    def _connect(self, task):
        if self._closed:
            raise errors.CancelledError(None, None, f"{self.owner} is shutting down.")
        address = self.addresses.get(task)
        if address is None:
            raise errors.InvalidArgumentError(None, None, f"{task} is not a task of this "
                                              f"cluster; known tasks: {sorted(self.addresses)}")
        try:
            return transport.connect(address, self.secret, timeout=self.connect_timeout)
        except cluster_secret.AuthenticationError as e:
            raise errors.UnauthenticatedError(None, None, f"{task} at {_fmt(address)} refused "
                                              f"the connection: {e}") from None
        except (OSError, OverflowError) as e:
            raise errors.UnavailableError(None, None, f"{task} at {_fmt(address)} is "
                                          f"unavailable: {getattr(e, 'strerror', None) or e}. "
                                          "Is that task running (started, and not exited), and "
                                          f"is {_fmt(address)} its address in the ClusterSpec?"
                                          ) from None

    def call(self, task, method, timeout=None, **kwargs):
        """Sends a request and waits for the reply -- at most `timeout` seconds if given
        (then DeadlineExceededError). A long wait is reported every 10 s, never silent."""
        conn = self.start_call(task, method, **kwargs)
        with _closing_on_failure(conn, task, method):
            reply = self._wait_reply(conn, task, method, timeout)
        self.end_call(task, conn)
        if "error" in reply:
            raise_remote_error(reply, task)
        return reply.get("ok")

    def start_call(self, task, method, **kwargs):
        """Sends a request and returns the connection its reply will come on; give the
        connection back with end_call() once the reply is read (or close it)."""
        with self._lock:
            idle = self._idle.get(task)
            conn = idle.pop() if idle else None
        if conn is not None and conn.peer_gone():      # the task restarted meanwhile
            conn.close()
            conn = None
        if conn is None:
            conn = self._connect(task)
        request = {"method": method, "src": self.owner, **kwargs}
        self.simulate_link(task, request, kwargs.get("step_id", 0))
        with _closing_on_failure(conn, task, method):
            conn.send(request)
        return conn

    def end_call(self, task, conn):
        """Takes back the connection of a finished call, for the next call to `task`."""
        with self._lock:
            if self._closed or conn.closed:
                conn.close()
            else:
                self._idle.setdefault(task, []).append(conn)

    def push(self, task, message):
        with self._lock:
            conn = self._push.get(task)
        if conn is not None and conn.peer_gone():      # the task restarted meanwhile
            with self._lock:
                if self._push.get(task) is conn:
                    del self._push[task]
            conn.close()
            conn = None
        if conn is None:
            conn = self._connect(task)
            with self._lock:
                existing = self._push.get(task)
                if existing is None:
                    self._push[task] = conn
                else:
                    conn.close()
                    conn = existing
        self.simulate_link(task, message, message.get("step_id", 0))
        try:
            conn.send({**message, "one_way": True})
        except OSError as e:
            with self._lock:
                if self._push.get(task) is conn:
                    del self._push[task]
            conn.close()
            raise errors.UnavailableError(None, None, f"{task} became unavailable while "
                                          f"receiving a tensor: {_why(e)}") from None

    def _wait_reply(self, conn, task, method, timeout):
        started = time.monotonic()
        while True:
            waited = time.monotonic() - started
            chunk = errors.WAIT_LOG_EVERY if timeout is None else \
                min(errors.WAIT_LOG_EVERY, timeout - waited)
            try:
                return conn.recv(timeout=max(chunk, 0.001))
            except TimeoutError:
                waited = time.monotonic() - started
                if timeout is not None and waited >= timeout:
                    conn.close()
                    raise errors.DeadlineExceededError(
                        None, None, f"No reply to {method} from {task} within {timeout:g} s "
                        "(is the task paused or overloaded?).") from None
                if method not in QUIET_METHODS:
                    print(f"[{self.owner}] still waiting for the reply to {method} from "
                          f"{task} ({waited:.0f} s so far)", file=sys.stderr, flush=True)

    def simulate_link(self, task, message, step_id):
        """A slow or distant link (runtime/simulation.py): wait as long as it would take."""
        if self.knobs is None or not self.knobs.links:
            return
        nbytes = message_size(message)
        delay = self.knobs.link_delay(task, nbytes)
        if delay > 0:
            start = time.time()
            time.sleep(delay)
            if self.trace is not None:
                self.trace.record("link_delay", self.owner, task, message.get("method", ""),
                                  nbytes, step_id, start, time.time())

    def rename(self, old, new):
        """Calls the task `new` from now on (e.g. once a target's task name is known)."""
        with self._lock:
            self.addresses[new] = self.addresses.pop(old)
            if old in self._idle:
                self._idle[new] = self._idle.pop(old)
            if old in self._push:
                self._push[new] = self._push.pop(old)

    def forget(self, task):
        """Drops cached connections to `task` (after it restarted)."""
        with self._lock:
            conns = self._idle.pop(task, []) + [c for c in [self._push.pop(task, None)] if c]
        for c in conns:
            c.close()

    def close(self):
        with self._lock:
            self._closed = True
            conns = [c for cs in self._idle.values() for c in cs] + list(self._push.values())
            self._idle.clear()
            self._push.clear()
        for c in conns:
            c.close()


@contextlib.contextmanager
def _closing_on_failure(conn, task, method):
    """Closes `conn` if the block fails; a broken connection becomes an UnavailableError."""
    try:
        yield
    except (OSError, EOFError) as e:
        conn.close()
        raise errors.UnavailableError(None, None, f"{task} became unavailable during "
                                      f"{method}: {_why(e)}. The task died or was "
                                      "stopped.") from None
    except BaseException:
        conn.close()
        raise


def _fmt(address):
    host, port = address
    return f"{host}:{port}"


def _why(e):
    if isinstance(e, EOFError):
        return "connection closed"
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


def message_size(obj):
    """Approximate bytes of a message: its arrays and strings (cheap: no encoding)."""
    total, stack = 0, [obj]
    while stack:                          # a loop, not a recursion: it runs on every step
        x = stack.pop()
        if type(x) is str or type(x) is bytes:       # the common leaves, without a getattr
            total += len(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        else:
            nbytes = getattr(x, "nbytes", None)          # arrays and NumPy scalars
            if nbytes is not None:
                total += nbytes
            elif isinstance(x, (str, bytes)):
                total += len(x)
            else:
                total += 8
    return total
