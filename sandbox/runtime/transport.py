"""Authenticated connections between the sandbox's tasks -- the socket layer of the cluster.

TensorFlow's tasks talk gRPC. The sandbox's tasks talk plain TCP, one message at a time in the
wire format of runtime/wire.py, and the code is modelled on CPython's
Lib/multiprocessing/connection.py:

    Listener(address, secret)  a server socket; accept() returns a Connection
    connect(address, secret)   the client side; returns a Connection
    Connection                 send(obj) / recv() whole messages
    serve(listener, handler)   a small threaded request/response server

Anyone who can reach a task's port could send it work, so before a single message is read both
ends prove that they know the *cluster secret* -- without ever sending it:

    server -> client   b"CHAL" + 32 random bytes                  (a fresh challenge)
    client -> server   b"ANSW" + HMAC-SHA256(secret, challenge)   (only a secret-holder can)
    server -> client   b"WELC" or b"FAIL"
    ... then the client challenges the server the same way.

A challenge is new every time, so an answer overheard once is useless later. Each end checks
the answer it received with hmac.compare_digest (constant time). The handshake is a few tiny
fixed-size binary records with a time limit (HANDSHAKE_TIMEOUT), so a peer that connects and
says nothing cannot hold a server thread. If the secrets differ, both ends raise
AuthenticationError and the connection is closed.

Every task of a cluster must use the same secret: pass it as `secret=`, or set
SANDBOX_CLUSTER_SECRET (hex or plain text) in the environment of every process; make_secret()
makes a good one (print it with .hex()).
"""
import hmac
import logging
import os
import secrets as _secrets
import select
import selectors
import socket
import threading
import time

from . import wire

__all__ = ["AuthenticationError", "Connection", "Listener", "ConnectionServer", "connect", "serve",
           "NO_REPLY", "HANDSHAKE_TIMEOUT", "SECRET_ENV", "make_secret", "parse_secret",
           "secret_from_env", "secret_from_file"]

log = logging.getLogger(__name__)

HANDSHAKE_TIMEOUT = 10.0      # seconds for the whole handshake
SECRET_ENV = "SANDBOX_CLUSTER_SECRET"
SOCKET_BUFFER_BYTES = 4 * 1024 * 1024
NO_REPLY = "__no_reply__"     # a serve() handler returns this for a one-way message

_HOW_TO_SET = ("Every task and client of a cluster must use the same secret: pass the same "
               f"secret= to every server and client, or set {SECRET_ENV} (hex or plain text) "
               "in the environment of every process.")


class AuthenticationError(ConnectionError):
    """The peer did not prove it knows the cluster secret (or did not finish the handshake)."""


# -- secrets ---------------------------------------------------------------------------------
def make_secret():
    """32 random bytes: a fresh cluster secret (`make_secret().hex()` to write it down)."""
    return _secrets.token_bytes(32)


def parse_secret(text):
    """A secret written as text: 32 or more hex digits are decoded, anything else is used as
    plain text (UTF-8)."""
    text = text.strip()
    if not text:
        raise ValueError("the cluster secret is empty")
    try:
        return bytes.fromhex(text) if len(text) >= 32 else text.encode()
    except ValueError:
        return text.encode()


def secret_from_env(name=SECRET_ENV):
    """The secret in environment variable `name`, or None if it is not set."""
    value = os.environ.get(name)
    return parse_secret(value) if value else None


def secret_from_file(path):
    """The secret stored (as hex or text) in the file at `path`."""
    with open(path, encoding="utf-8") as f:
        return parse_secret(f.read())


def _as_secret(secret):
    if secret is None:
        secret = secret_from_env()
        if secret is None:
            raise ValueError(f"No cluster secret given. {_HOW_TO_SET}")
    if isinstance(secret, str):
        secret = parse_secret(secret)
    if not isinstance(secret, (bytes, bytearray)) or not secret:
        raise ValueError(f"The cluster secret must be non-empty bytes or str, not {secret!r}.")
    return bytes(secret)


# -- the handshake ---------------------------------------------------------------------------
_CHALLENGE, _ANSWER, _WELCOME, _FAILURE = b"CHAL", b"ANSW", b"WELC", b"FAIL"
_NONCE_BYTES = 32


def _handshake(sock, secret, is_server, peer, timeout):
    """Both challenges; raises AuthenticationError, or ConnectionError if the peer went away
    (and leaves closing to the caller)."""
    deadline = time.monotonic() + timeout
    try:
        if is_server:
            _deliver_challenge(sock, secret, deadline, peer)
            _answer_challenge(sock, secret, deadline, peer)
        else:
            _answer_challenge(sock, secret, deadline, peer)
            _deliver_challenge(sock, secret, deadline, peer)
        sock.settimeout(None)
    except TimeoutError:
        raise AuthenticationError(f"{peer} did not complete the handshake within "
                                  f"{timeout:g} s (is it a sandbox task that has the cluster "
                                  "secret?).") from None
    except (EOFError, OSError) as e:
        if isinstance(e, AuthenticationError):
            raise
        # A secret that does not match is answered with a FAIL record (below), not a bare
        # close: a bare close means the task exited, or is exiting, meanwhile -- the caller
        # sees an unavailable task, not a refusal.
        raise ConnectionError(f"{peer} closed the connection during the handshake "
                              f"({_reason(e)}): the task may have exited or be shutting down; "
                              f"if it is running, check that it has the cluster secret. "
                              f"{_HOW_TO_SET}") from None


def _deliver_challenge(sock, secret, deadline, peer):
    challenge = os.urandom(_NONCE_BYTES)
    _send_record(sock, _CHALLENGE + challenge, deadline)
    answer = _recv_record(sock, len(_ANSWER) + 32, deadline)
    expected = _ANSWER + hmac.new(secret, challenge, "sha256").digest()
    if not hmac.compare_digest(answer, expected):
        try:
            _send_record(sock, _FAILURE, deadline)
        except OSError:
            pass
        raise AuthenticationError(f"{peer} failed the handshake: the cluster secret did not "
                                  f"match. {_HOW_TO_SET}")
    _send_record(sock, _WELCOME, deadline)


def _answer_challenge(sock, secret, deadline, peer):
    record = _recv_record(sock, len(_CHALLENGE) + _NONCE_BYTES, deadline)
    if record[:4] != _CHALLENGE:
        raise AuthenticationError(f"{peer} did not start the sandbox handshake (is it a "
                                  "sandbox task? is its secret set?)")
    _send_record(sock, _ANSWER + hmac.new(secret, record[4:], "sha256").digest(), deadline)
    if _recv_record(sock, len(_WELCOME), deadline) != _WELCOME:
        raise AuthenticationError(f"{peer} refused the connection: the cluster secret did not "
                                  f"match. {_HOW_TO_SET}")


def _send_record(sock, data, deadline):
    sock.settimeout(max(deadline - time.monotonic(), 1e-3))
    sock.sendall(data)


def _recv_record(sock, n, deadline):
    data = b""
    while len(data) < n:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        sock.settimeout(remaining)
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("connection closed")
        data += chunk
    return data


def _reason(e):
    return "connection closed" if isinstance(e, EOFError) else (e.strerror or str(e))


def _fmt(address):
    host, port = address[:2]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _loopback(host):
    """'localhost' means the IPv4 loopback: never a guess among the machine's addresses."""
    return "127.0.0.1" if host == "localhost" else host


# -- connections -----------------------------------------------------------------------------
class Connection:
    """An authenticated socket that carries whole messages (see runtime/wire.py).

    send() may be called from several threads at once (a lock keeps frames whole); recv() too,
    but each message goes to one of the callers. After an error in the middle of a frame the
    stream is out of step, so the connection closes itself."""

    def __init__(self, sock, peer, limits=wire.DEFAULT_LIMITS):
        self._sock = sock
        self.peer = tuple(peer[:2])                  # (host, port) of the other end
        self.limits = limits
        self._reader = wire.FrameReader(sock, limits)
        self._rcvbuf = None
        self._send_lock = threading.Lock()
        self._recv_lock = threading.Lock()
        self._closed = False
        sock.settimeout(None)
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            # Room for a whole parameter tensor in the kernel's buffers: a sender hands it
            # over and goes on, instead of waiting for the reader to drain it piece by piece.
            for option in ((socket.SO_SNDBUF, socket.SO_RCVBUF) if SOCKET_BUFFER_BYTES else ()):
                try:
                    sock.setsockopt(socket.SOL_SOCKET, option, SOCKET_BUFFER_BYTES)
                except OSError:
                    pass

    def send(self, obj, blocked=None):
        """Sends one message; returns its size in bytes. TypeError or FrameError (message too
        big) are raised before anything is sent; an OSError closes the connection.
        `blocked()`, if given, is called whenever the socket cannot take more bytes yet
        (instead of blocking), e.g. to read from the other direction meanwhile."""
        with self._send_lock:
            self._check_open()
            try:
                return wire.send_message(self._sock, obj, self.limits, blocked)
            except OSError:
                self.close()
                raise

    def recv(self, timeout=None):
        """The next message. Raises TimeoutError if none begins within `timeout` seconds,
        EOFError if the peer closed the connection, FrameError for a malformed frame."""
        with self._recv_lock:
            self._check_open()
            if timeout is not None and not self.readable(timeout):
                raise TimeoutError(f"no message from {_fmt(self.peer)} within {timeout:g} s")
            try:
                return self._reader.read()
            except (EOFError, wire.FrameError, OSError):
                self.close()
                raise

    def close(self):
        """Closes the connection (idempotent, from any thread; wakes a thread in recv)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._sock.shutdown(socket.SHUT_RDWR)    # close() alone would not wake a reader
        except OSError:
            pass
        self._sock.close()

    @property
    def closed(self):
        return self._closed

    def peer_gone(self):
        """True if the other end has closed (or reset) the connection. Only meaningful when
        no message is expected: an idle connection turns readable only when it ends."""
        if self._closed:
            return True
        if self._reader.buffered:
            return False                             # a message came: not gone
        try:
            return self._sock.recv(1, _PEEK_NOW) == b""
        except (BlockingIOError, InterruptedError):
            return False                             # open, nothing to read: alive
        except (OSError, ValueError):
            return True

    def frame_buffered(self):
        """True if a whole frame (or the end of the stream, or bytes that are no frame) has
        arrived, so that recv() returns without waiting for the peer."""
        with self._recv_lock:
            if self._closed:
                return True
            try:
                return self._reader.frame_ready()
            except OSError:
                return True                          # broken: recv() will say so

    @property
    def last_frame_bytes(self):
        """The size on the wire of the message recv() returned last."""
        return self._reader.last_frame_bytes

    @property
    def buffered(self):
        """Bytes already read from the socket that recv() will return before asking it."""
        return self._reader.buffered

    def receive_buffer_bytes(self):
        """The kernel's receive buffer size of this connection's socket."""
        if self._rcvbuf is None:
            try:
                self._rcvbuf = self._sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
            except OSError:
                return 0
        return self._rcvbuf

    def readable(self, timeout):
        """True if a message (or the end of the stream) can be read within `timeout` s."""
        return self._reader.buffered > 0 or _wait_for(self._sock, _POLLIN, timeout)

    def writable(self, timeout):
        """True if the socket can take more bytes within `timeout` seconds."""
        return _wait_for(self._sock, _POLLOUT, timeout)

    def fileno(self):
        return self._sock.fileno()

    def _check_open(self):
        if self._closed:
            raise OSError(f"the connection to {_fmt(self.peer)} is closed")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        state = "closed" if self._closed else "open"
        return f"<Connection to {_fmt(self.peer)} ({state})>"


_PEEK_NOW = socket.MSG_PEEK | getattr(socket, "MSG_DONTWAIT", 0)
_POLLIN = getattr(select, "POLLIN", 1)
_POLLOUT = getattr(select, "POLLOUT", 4)


def _wait_for(sock, event, timeout):
    """Waits until `sock` is readable (_POLLIN) or writable (_POLLOUT), at most `timeout` s."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(sock, event | getattr(select, "POLLHUP", 0))
        return bool(poller.poll(None if timeout is None else max(0, int(timeout * 1000 + .999))))
    lists = ([sock], [], []) if event == _POLLIN else ([], [sock], [])
    return bool(select.select(*lists, timeout)[0 if event == _POLLIN else 1])


def connect(address, secret=None, timeout=HANDSHAKE_TIMEOUT, limits=wire.DEFAULT_LIMITS):
    """Connects to the Listener at `address` = (host, port), runs the handshake and returns the
    Connection. Raises OSError (e.g. ConnectionRefusedError) if nothing listens there, and
    AuthenticationError if the secrets differ. `timeout` bounds connecting and the handshake."""
    secret = _as_secret(secret)
    host, port = _loopback(address[0]), int(address[1])
    where = _fmt((host, port))
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as e:
        if e.errno is None:
            raise type(e)(f"cannot connect to {where}: {e}") from None
        raise type(e)(e.errno, f"cannot connect to {where}: {e.strerror}") from None
    try:
        _handshake(sock, secret, is_server=False, peer=f"the server at {where}",
                   timeout=timeout)
        return Connection(sock, (host, port), limits)
    except BaseException:
        sock.close()
        raise


class Listener:
    """A listening socket at `address` = (host, port); port 0 picks a free port, `.address`
    tells the real one. "localhost" listens on the loopback interface only."""

    def __init__(self, address=("127.0.0.1", 0), secret=None, backlog=128,
                 handshake_timeout=HANDSHAKE_TIMEOUT, limits=wire.DEFAULT_LIMITS):
        self._secret = _as_secret(secret)
        self.handshake_timeout = handshake_timeout
        self.limits = limits
        host, port = _loopback(address[0]), int(address[1])
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        try:
            if os.name == "posix":                   # reuse a port left in TIME_WAIT
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
            sock.listen(backlog)
        except OSError as e:
            sock.close()
            raise OSError(e.errno, f"cannot listen on {_fmt((host, port))}: "
                                   f"{e.strerror or e}") from None
        self._sock = sock
        self.address = sock.getsockname()[:2]

    def accept(self):
        """Waits for a client and returns its Connection, handshake done. Raises
        AuthenticationError if the client fails the handshake (its socket is closed)."""
        sock, peer = self._sock.accept()
        return self._handshake(sock, peer)

    def _handshake(self, sock, peer):
        try:
            _handshake(sock, self._secret, is_server=True, peer=f"the client at {_fmt(peer)}",
                       timeout=self.handshake_timeout)
            return Connection(sock, peer, self.limits)
        except BaseException:
            sock.close()
            raise

    def close(self):
        try:
            self._sock.shutdown(socket.SHUT_RDWR)    # wakes a thread in accept() on Linux
        except OSError:
            pass
        self._sock.close()

    def fileno(self):
        return self._sock.fileno()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<Listener at {_fmt(self.address)}>"


# -- a small threaded server -----------------------------------------------------------------
class ConnectionServer:
    """What serve() returns: an accept thread plus one thread per connection. Each connection
    thread runs the handshake, then for every message calls handler(conn, message) and sends
    the reply back (unless it is NO_REPLY). A failed handshake, a malformed frame or an
    exception in the handler closes THAT connection only, and is logged."""

    def __init__(self, listener, handler, name="sandbox-server"):
        self.listener = listener
        self.address = listener.address
        self.handler = handler
        self.name = name
        self._lock = threading.Lock()
        self._stopping = False
        self._sockets = set()                 # sockets of the open connections
        self._threads = set()                 # their threads
        self._wake_r, self._wake_w = socket.socketpair()    # stop() wakes the accept loop
        self._accept_thread = threading.Thread(target=self._accept_loop, daemon=True,
                                               name=f"{name}-accept")
        self._accept_thread.start()

    def _accept_loop(self):
        lsock = self.listener._sock
        lsock.setblocking(False)
        with selectors.DefaultSelector() as selector:
            selector.register(lsock, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while True:
                selector.select()
                if self._stopping:
                    return
                try:
                    sock, peer = lsock.accept()
                except BlockingIOError:
                    continue                          # the client gave up in the meantime
                except OSError as e:                  # e.g. out of file descriptors
                    log.warning("%s: accept failed: %s", self.name, e)
                    time.sleep(0.1)
                    continue
                sock.setblocking(True)
                with self._lock:
                    if self._stopping:
                        sock.close()
                        return
                    thread = threading.Thread(target=self._serve_connection, args=(sock, peer),
                                              name=f"{self.name}-{_fmt(peer)}", daemon=True)
                    self._sockets.add(sock)
                    self._threads.add(thread)
                    thread.start()

    def _serve_connection(self, sock, peer):
        conn = None
        try:
            conn = self.listener._handshake(sock, peer)
            while True:
                try:
                    message = conn.recv()
                except EOFError:
                    log.debug("%s: %s closed the connection", self.name, _fmt(peer))
                    return
                except wire.FrameError as e:
                    log.warning("%s: closing the connection from %s: malformed frame: %s",
                                self.name, _fmt(peer), e)
                    return
                reply = self.handler(conn, message)
                if not (isinstance(reply, str) and reply == NO_REPLY):
                    conn.send(reply)
        except AuthenticationError as e:
            level = logging.DEBUG if self._stopping else logging.WARNING
            log.log(level, "%s: refused a connection: %s", self.name, e)
        except OSError as e:
            log.debug("%s: connection from %s ended: %s", self.name, _fmt(peer), e)
        except Exception:
            log.exception("%s: error while serving %s; closing that connection", self.name,
                          _fmt(peer))
        finally:
            with self._lock:                          # stop() shuts sockets down under it
                self._sockets.discard(sock)
                self._threads.discard(threading.current_thread())
            (conn or sock).close()

    def stop(self, timeout=5.0):
        """Closes the listener and every open connection, and joins all threads. Returns True
        if every thread ended within `timeout` (a handler that never returns cannot be
        interrupted; its thread is reported in the log)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            self._stopping = True
            for sock in self._sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)   # wakes its thread in recv
                except OSError:
                    pass
            threads = list(self._threads)
        try:
            self._wake_w.send(b"x")
        except OSError:
            pass                                      # stopped before
        self._accept_thread.join(max(deadline - time.monotonic(), 0))
        self.listener.close()
        for thread in threads:
            if thread is not threading.current_thread():     # stop() called by a handler
                thread.join(max(deadline - time.monotonic(), 0))
        self._wake_r.close()
        self._wake_w.close()
        left = [t.name for t in threads + [self._accept_thread]
                if t.is_alive() and t is not threading.current_thread()]
        if left:
            log.warning("%s: threads still running after stop(): %s", self.name, left)
        return not left

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def __repr__(self):
        return f"<ConnectionServer {self.name} at {_fmt(self.address)}>"


def serve(listener, handler, name="sandbox-server"):
    """Serves `listener` in background threads: handler(conn, message) -> reply is called for
    each message (return NO_REPLY for a one-way message). Returns the ConnectionServer; stop()
    it."""
    return ConnectionServer(listener, handler, name)
