"""One authenticated connection between the sandbox's tasks, and the frames it carries -- the
socket layer of the cluster. It is to the sandbox what gRPC and its HTTP/2 framing are to
TensorFlow.

TensorFlow's tasks talk gRPC. The sandbox's tasks talk plain TCP, one message at a time, and the
code is modelled on CPython's Lib/multiprocessing/connection.py:

    Listener(address, secret)  a server socket; accept() returns a Connection
    connect(address, secret)   the client side; returns a Connection
    Connection                 send(obj) / recv() whole messages
    serve(listener, handler)   a small threaded request/response server

Anyone who can reach a task's port could send it work, so before a single message is read both
ends prove that they know the *cluster secret* -- without ever sending it -- by the handshake
of runtime/cluster_secret.py. If the secrets differ, both ends raise
cluster_secret.AuthenticationError and the connection is closed. Every task of a cluster must
use the same secret: pass it as `secret=`, or set SANDBOX_CLUSTER_SECRET (hex or plain text) in
the environment of every process; cluster_secret.make_secret() makes a good one (print it with
.hex()).

A message travels as one frame. runtime/wire.py turns it into the JSON header and the raw
buffers a frame carries, and back; a frame is

    prefix    16 bytes, little-endian: magic b"TFSB", version u16, flags u16 (0),
              header length u32, number of buffers u32
    table     the length of each buffer, u64 each
    header    the message as UTF-8 JSON (see wire.py)
    buffers   buffer 0, buffer 1, ... raw bytes, back to back

Big arrays are never copied on the way. The sender gives the kernel memoryviews of the arrays
themselves (socket.sendmsg gathers them; only a non-contiguous array is made contiguous first).
The receiver allocates each buffer once, lets the kernel write straight into it
(socket.recvmsg_into) and views it as the array with np.frombuffer(...).reshape(shape).
Arrays returned by recv_message() are writable views of their own fresh buffers.

Every frame is checked BEFORE anything is allocated for it: the magic and version, the limits
(wire.Limits), and the header against the table of buffer lengths -- every descriptor's dtype,
shape and size, as wire.py checks them. Any violation raises FrameError. Only then are the
buffers allocated -- np.empty, whose pages the operating system provides as the bytes actually
arrive, so a frame that promises 3 GiB and sends 10 bytes touches next to no memory.
"""
import logging
import os
import select
import selectors
import socket
import struct
import threading
import time
try:
    import fcntl
    import termios
except ImportError:                                   # Windows
    fcntl = termios = None

import numpy as np

from . import cluster_secret
from .wire import (DEFAULT_LIMITS, PREFIX_BYTES, FrameError, _check_sizes, _Decoder,
                   _NeedsTwoPasses, _parse_header, encode)

__all__ = ["Connection", "Listener", "ConnectionServer", "connect", "serve", "NO_REPLY",
           "MAGIC", "VERSION", "send_message", "recv_message", "message_nbytes", "FrameReader",
           "table_bytes", "frame_bytes"]

log = logging.getLogger(__name__)

SOCKET_BUFFER_BYTES = 4 * 1024 * 1024
NO_REPLY = "__no_reply__"     # a serve() handler returns this for a one-way message


# -- frames -----------------------------------------------------------------------------------
MAGIC = b"TFSB"
VERSION = 1
_PREFIX = struct.Struct("<4sHHII")      # magic, version, flags, header length, number of buffers
assert _PREFIX.size == PREFIX_BYTES     # (the limits of wire.py count the prefix too)
_DONTWAIT = getattr(socket, "MSG_DONTWAIT", 0)
_IOV_MAX = 1024                           # buffers per sendmsg/recvmsg call (Linux and macOS)


def send_message(sock, obj, limits=DEFAULT_LIMITS, blocked=None):
    """Sends `obj` as one frame; returns the number of bytes sent. Encoding errors (TypeError,
    FrameError) are raised before a single byte is sent. Not thread-safe: lock around it.
    With `blocked`, the socket is written without blocking and blocked() is called each time
    it is full."""
    header, buffers = encode(obj, limits)
    lengths = [b.nbytes for b in buffers]
    head = _PREFIX.pack(MAGIC, VERSION, 0, len(header), len(buffers)) + \
        struct.pack(f"<{len(lengths)}Q", *lengths) + header
    _send_all(sock, [memoryview(head)] + buffers, blocked)
    return len(head) + sum(lengths)


def recv_message(sock, limits=DEFAULT_LIMITS):
    """Receives one frame and returns its message. Raises EOFError if the peer closed the
    connection cleanly before the frame began, FrameError for a malformed or truncated frame.
    Reads exactly the frame's bytes; a connection that reads frame after frame uses a
    FrameReader, which reads ahead."""
    return FrameReader(sock, limits, readahead=0).read()


class FrameReader:
    """Reads frames from a socket, one after the other.

    With `readahead` it asks the kernel for up to that many bytes at a time, so a small frame
    costs one system call; what it got of the next frame stays here (`buffered`): look at
    that before waiting for the socket to turn readable. Big buffers still go straight from
    the kernel into the arrays (recvmsg_into). The default is small: what comes ahead of a
    frame's header is copied twice (into this buffer, then into its array) -- a 318 KB frame
    of parameters is read in 78 us instead of 82 with 64 KiB (median of 8 alternating runs)."""

    def __init__(self, sock, limits=DEFAULT_LIMITS, readahead=8192):
        self.sock = sock
        self.limits = limits
        self._exact = not readahead
        self._buf = bytearray(max(readahead, _PREFIX.size))
        self._view = memoryview(self._buf)
        self._start = self._end = 0
        self._eof = False
        self.last_frame_bytes = 0               # the size of the frame read last

    @property
    def buffered(self):
        """Bytes received from the socket and not yet read as (part of) a frame."""
        return self._end - self._start

    def _fill(self, n, part, at_frame_start=False):
        """Makes sure at least n bytes (n <= the buffer's size) are buffered."""
        if self._end - self._start >= n:
            return
        if self._start:                               # move what is left to the front
            left = self._end - self._start
            self._buf[:left] = bytes(self._view[self._start:self._end])
            self._start, self._end = 0, left
        limit = n if self._exact else len(self._buf)
        while self._end < n:
            got = self.sock.recv_into(self._view[self._end:limit])
            if not got:
                self._eof = True
                if at_frame_start and self._end == 0:
                    raise EOFError("the peer closed the connection")
                raise FrameError(f"the peer closed the connection in the middle of a frame "
                                 f"(after {self._end} of the {n} bytes of its {part})")
            self._end += got

    def _take_into(self, view):
        """Copies buffered bytes to the front of `view`; returns how many."""
        n = min(self._end - self._start, view.nbytes)
        view[:n] = self._view[self._start:self._start + n]
        self._start += n
        return n

    def read(self):
        """The next message (see recv_message)."""
        limits = self.limits
        self._fill(_PREFIX.size, "prefix", at_frame_start=True)
        magic, version, flags, header_len, n_buffers = _PREFIX.unpack_from(self._buf,
                                                                          self._start)
        if magic != MAGIC:
            raise FrameError(f"frame does not start with {MAGIC!r} (got {bytes(magic)!r}): the "
                             "peer does not speak the sandbox wire format")
        if version != VERSION or flags != 0:
            raise FrameError(f"frame has wire version {version} (flags {flags}); this side "
                             f"speaks version {VERSION}")
        _check_sizes(header_len, n_buffers, 0, limits)    # before reading table and header
        rest_len = 8 * n_buffers + header_len
        if _PREFIX.size + rest_len <= len(self._buf):     # table and header fit: read here
            self._fill(_PREFIX.size + rest_len, "header")
            self._start += _PREFIX.size
            rest = bytes(self._view[self._start:self._start + rest_len])
            self._start += rest_len
        else:
            self._start += _PREFIX.size
            rest = bytearray(rest_len)
            got = self._take_into(memoryview(rest))
            _recv_all(self.sock, [memoryview(rest)[got:]], "header")
        lengths = list(struct.unpack_from(f"<{n_buffers}Q", rest))
        self.last_frame_bytes = _check_sizes(header_len, n_buffers, sum(lengths), limits)
        tree = _parse_header(memoryview(rest)[8 * n_buffers:])
        if not lengths:                                    # nothing to allocate: one pass
            return _Decoder(lengths, [], limits.max_depth).run(tree)
        buffers, two_passes = [None] * n_buffers, False
        try:                                               # arrays only (the usual frame):
            message = _Decoder(lengths, None, limits.max_depth, into=buffers).run(tree)
        except _NeedsTwoPasses:                            # check all, allocate nothing,
            _Decoder(lengths, None, limits.max_depth).run(tree)    # then build
            buffers = [np.empty(n, dtype=np.uint8) for n in lengths]
            two_passes = True
        views = [memoryview(b) for b in buffers if b.nbytes]
        first = 0
        while first < len(views) and self._end > self._start:    # what came with the
            view = views[first]                                   # header
            got = self._take_into(view)
            if got < view.nbytes:
                views[first] = view[got:]
                break
            first += 1
        _recv_all(self.sock, views[first:], "buffers")
        if two_passes:
            message = _Decoder(lengths, buffers, limits.max_depth).run(tree)
        return message

    def frame_ready(self):
        """True if a whole frame (or the end of the stream) can be read without waiting for
        the peer: takes in what the socket holds, then looks at the frame's size."""
        if self._start == self._end:
            self._start = self._end = 0
        if not self._eof and self._end < len(self._buf):
            try:
                got = self.sock.recv_into(self._view[self._end:], 0, _DONTWAIT)
            except (BlockingIOError, InterruptedError):
                got = None
            if got == 0:
                self._eof = True
            elif got:
                self._end += got
        have = self._end - self._start
        if have < _PREFIX.size:
            return self._eof
        table = table_bytes(self._view[self._start:self._start + _PREFIX.size])
        if table is None:
            return True                                    # malformed: read() says so
        if have < _PREFIX.size + table:
            return False
        total = frame_bytes(self._view[self._start:self._start + _PREFIX.size + table])
        return have + (_socket_waiting(self.sock) or 0) >= total


def _socket_waiting(sock):
    """Bytes waiting in the socket's receive buffer (FIONREAD), or None if unknown."""
    if fcntl is None or not hasattr(termios, "FIONREAD"):
        return None
    try:
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0" * 4))[0]
    except OSError:
        return None


def table_bytes(prefix):
    """From a frame's first PREFIX_BYTES bytes: the size of its buffer table, or None if
    they are not a frame's prefix."""
    magic, version, flags, header_len, n_buffers = _PREFIX.unpack_from(prefix)
    if magic != MAGIC or version != VERSION or flags != 0:
        return None
    return 8 * n_buffers


def frame_bytes(head):
    """From a frame's prefix and buffer table: the size of the whole frame."""
    _, _, _, header_len, n_buffers = _PREFIX.unpack_from(head)
    lengths = struct.unpack_from(f"<{n_buffers}Q", head, _PREFIX.size)
    return _PREFIX.size + 8 * n_buffers + header_len + sum(lengths)


def message_nbytes(obj, limits=DEFAULT_LIMITS):
    """How many bytes send_message(sock, obj) sends (for tracing). It encodes the message
    (arrays are not copied); when you send anyway, use send_message's return value."""
    header, buffers = encode(obj, limits)
    return _PREFIX.size + 8 * len(buffers) + len(header) + sum(b.nbytes for b in buffers)


def _send_all(sock, views, blocked=None):
    """Sends the byte views back to back -- gathered by sendmsg, resumed after partial sends.
    With `blocked`: without blocking, calling blocked() whenever the socket is full."""
    left = sum([v.nbytes for v in views])
    flags = _DONTWAIT if blocked is not None else 0
    while left:
        try:
            if hasattr(sock, "sendmsg"):
                sent = sock.sendmsg(views[:_IOV_MAX], (), flags)
            else:                                     # Windows has no sendmsg
                sent = sock.send(views[0], flags)
        except (BlockingIOError, InterruptedError):
            if blocked is not None:
                blocked()
            continue
        left -= sent
        if left:
            views = _advance(views, sent)


def _recv_all(sock, views, part):
    """Fills the byte views (memoryviews of format "B") from the socket, in order
    (scattered by recvmsg_into)."""
    total, got = sum([v.nbytes for v in views]), 0
    while got < total:
        if hasattr(sock, "recvmsg_into"):
            n = sock.recvmsg_into(views[:_IOV_MAX])[0]
        else:
            n = sock.recv_into(views[0])
        if n == 0:
            raise FrameError(f"the peer closed the connection in the middle of a frame "
                             f"(after {got} of the {total} bytes of its {part})")
        got += n
        if got < total:
            views = _advance(views, n)


def _advance(views, n):
    """Drops the first n bytes from a list of byte views."""
    i = 0
    while i < len(views) and n >= views[i].nbytes:
        n -= views[i].nbytes
        i += 1
    views = views[i:]
    if n:
        views[0] = views[0][n:]
    return views


# -- connections -----------------------------------------------------------------------------
def _fmt(address):
    host, port = address[:2]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _loopback(host):
    """'localhost' means the IPv4 loopback: never a guess among the machine's addresses."""
    return "127.0.0.1" if host == "localhost" else host


class Connection:
    """An authenticated socket that carries whole messages (see runtime/wire.py).

    send() may be called from several threads at once (a lock keeps frames whole); recv() too,
    but each message goes to one of the callers. After an error in the middle of a frame the
    stream is out of step, so the connection closes itself."""

    def __init__(self, sock, peer, limits=DEFAULT_LIMITS):
        self._sock = sock
        self.peer = tuple(peer[:2])                  # (host, port) of the other end
        self.limits = limits
        self._reader = FrameReader(sock, limits)
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
                return send_message(self._sock, obj, self.limits, blocked)
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
            except (EOFError, FrameError, OSError):
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


def connect(address, secret=None, timeout=cluster_secret.HANDSHAKE_TIMEOUT,
            limits=DEFAULT_LIMITS):
    """Connects to the Listener at `address` = (host, port), runs the handshake and returns the
    Connection. Raises OSError (e.g. ConnectionRefusedError) if nothing listens there, and
    AuthenticationError if the secrets differ. `timeout` bounds connecting and the handshake."""
    secret = cluster_secret.as_secret(secret)
    host, port = _loopback(address[0]), int(address[1])
    where = _fmt((host, port))
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as e:
        if e.errno is None:
            raise type(e)(f"cannot connect to {where}: {e}") from None
        raise type(e)(e.errno, f"cannot connect to {where}: {e.strerror}") from None
    try:
        cluster_secret.handshake(sock, secret, is_server=False,
                                 peer=f"the server at {where}", timeout=timeout)
        return Connection(sock, (host, port), limits)
    except BaseException:
        sock.close()
        raise


class Listener:
    """A listening socket at `address` = (host, port); port 0 picks a free port, `.address`
    tells the real one. "localhost" listens on the loopback interface only."""

    def __init__(self, address=("127.0.0.1", 0), secret=None, backlog=128,
                 handshake_timeout=cluster_secret.HANDSHAKE_TIMEOUT, limits=DEFAULT_LIMITS):
        self._secret = cluster_secret.as_secret(secret)
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
            cluster_secret.handshake(sock, self._secret, is_server=True,
                                     peer=f"the client at {_fmt(peer)}",
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
                except FrameError as e:
                    log.warning("%s: closing the connection from %s: malformed frame: %s",
                                self.name, _fmt(peer), e)
                    return
                reply = self.handler(conn, message)
                if not (isinstance(reply, str) and reply == NO_REPLY):
                    conn.send(reply)
        except cluster_secret.AuthenticationError as e:
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
