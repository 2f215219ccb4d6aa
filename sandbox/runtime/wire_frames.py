"""The wire format, part 2: frames -- one message is one frame on a socket. Part 1,
runtime/wire_codec.py, turns the message into the JSON header and the raw buffers a frame
carries, and back; runtime/wire.py names both. A frame is

    prefix    16 bytes, little-endian: magic b"TFSB", version u16, flags u16 (0),
              header length u32, number of buffers u32
    table     the length of each buffer, u64 each
    header    the message as UTF-8 JSON (see wire_codec.py)
    buffers   buffer 0, buffer 1, ... raw bytes, back to back

Big arrays are never copied on the way. The sender gives the kernel memoryviews of the arrays
themselves (socket.sendmsg gathers them; only a non-contiguous array is made contiguous first).
The receiver allocates each buffer once, lets the kernel write straight into it
(socket.recvmsg_into) and views it as the array with np.frombuffer(...).reshape(shape).
Arrays returned by recv_message() are writable views of their own fresh buffers.

Every frame is checked BEFORE anything is allocated for it: the magic and version, the limits
(wire_codec.Limits), and the header against the table of buffer lengths -- every descriptor's
dtype, shape and size, as wire_codec checks them. Any violation raises FrameError. Only then
are the buffers allocated -- np.empty, whose pages the operating system provides as the bytes
actually arrive, so a frame that promises 3 GiB and sends 10 bytes touches next to no memory.
"""
import socket
try:
    import fcntl
    import termios
except ImportError:                                   # Windows
    fcntl = termios = None
import struct

import numpy as np

from .wire_codec import (DEFAULT_LIMITS, PREFIX_BYTES, FrameError, _check_sizes, _Decoder,
                         _NeedsTwoPasses, _parse_header, encode)

__all__ = ["MAGIC", "VERSION", "send_message", "recv_message", "message_nbytes", "FrameReader",
           "table_bytes", "frame_bytes"]

MAGIC = b"TFSB"
VERSION = 1
_PREFIX = struct.Struct("<4sHHII")      # magic, version, flags, header length, number of buffers
assert _PREFIX.size == PREFIX_BYTES     # (the limits of wire_codec.py count the prefix too)
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
