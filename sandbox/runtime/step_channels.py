"""Step channels -- a RunGraph call's connection also carries its step's tensors.

When a master runs a step, it sends RunGraph to every other task of the step and holds each of
those connections until the task replies. For as long as the call lasts, the connection is the
*channel* between the two tasks for this step, in both directions:

    master's task (a worker)                      the ps
    RunGraph(step 42)              ------------>  runs its piece: reads the variables
                                   <------------  Tensors: the parameters      (its _Sends)
    its piece: forward, backward
    Tensors: the gradients         ------------>  applies them
                                   <------------  RunGraph reply (with the tensors the
                                                  piece sent last, if any: a sync token)

and WHOEVER WAITS, READS: a _Recv waiting for a tensor, or the master waiting for the replies,
polls the step's channels itself and takes the next message off the socket, instead of waiting
for a connection thread to read it and wake it up. In Python every hand-off between threads
costs a wake-up and a turn at the GIL; a step of the seed's job would pay four of them.

TensorFlow's gRPC runtime does it differently -- the receiving task asks for each tensor with a
RecvTensor call, answered by gRPC's own threads -- but the pairing is the same: a _Send and a
_Recv meet under one key in the receiving task's rendezvous (runtime/rendezvous.py). Tensors
between two tasks that are not master and callee of one call (ps 0 -> ps 1, say) still travel
on a separate connection (Peers.push), read by the receiving server's connection thread.

Only one thread reads a step's channels at a time (it *claims* the pump); the others wait on
the rendezvous and are woken when something for them arrives. Two tasks may send each other
tensors at the same moment; so that neither can wait forever for the other to read, only
messages far smaller than the socket buffers go on a channel (bigger ones take the receiving
task's connection for tensors, whose reader never stops), and a thread that finds the socket
full reads the whole messages waiting for it meanwhile.
"""
import select
import socket
import threading

from ..framework import errors
from . import spin_wait

__all__ = ["Channel", "StepPump", "CHANNEL_MAX_BYTES"]

CHANNEL_MAX_BYTES = 2**20     # bigger messages travel on the connection for tensors
_POLL_IN = getattr(select, "POLLIN", 1) | getattr(select, "POLLPRI", 2)


class _Waker:
    """A socket pair that interrupts a thread waiting in poll() for its step's channels.

    One per thread that waits in steps, made at its first step and closed when the thread
    ends: a task's sockets stay as many as its connections and threads, however many steps
    have run at once (a pool of them would keep its high-water mark)."""

    __slots__ = ("r", "w")

    def __init__(self):
        self.r, self.w = socket.socketpair()
        self.r.setblocking(False)
        self.w.setblocking(False)

    def __del__(self):
        for end in (getattr(self, "r", None), getattr(self, "w", None)):
            if end is not None:          # (None if socketpair() failed: out of descriptors)
                end.close()


_threads = threading.local()


def _thread_waker():
    waker = getattr(_threads, "waker", None)
    if waker is None:
        waker = _threads.waker = _Waker()
    return waker


class Channel:
    """The connection of one RunGraph call, as seen from one end."""

    __slots__ = ("task", "conn", "done")

    def __init__(self, task, conn):
        self.task = task            # the task at the other end
        self.conn = conn            # a transport.Connection
        self.done = False           # the call's reply came (or the connection failed)


class StepPump:
    """The channels of one step on one task, read by the one thread that claims them.

    `deliver(src_task, message)` is called for a Tensors message, `on_reply(task, reply)` for
    the reply of a RunGraph call (master side), `on_failure(task, error)` when a channel
    breaks. They run in the reading thread, without the pump's claim being given up."""

    def __init__(self, step_id, channels, deliver, on_reply=None, on_failure=None,
                 simulate_link=None, on_release=None):
        self.step_id = step_id
        self.channels = {c.task: c for c in channels}
        self._deliver = deliver
        self._on_reply = on_reply
        self._on_failure = on_failure
        self._simulate_link = simulate_link
        self._on_release = on_release      # wakes threads that wait for the claim
        self._claim = threading.Lock()
        self._waker = _thread_waker()    # (the pump is made and closed by one thread)
        self._woken = False              # a wake-up byte may wait in the waker
        self._by_fd = {c.conn.fileno(): c for c in channels}
        self._poll = select.poll() if hasattr(select, "poll") else None
        if self._poll is not None:
            for fd in self._by_fd:
                self._poll.register(fd, _POLL_IN)
            self._poll.register(self._waker.r.fileno(), _POLL_IN)
        self._counted = True
        spin_wait.step_started()         # (ended by close(), which every user calls)

    # -- the right to read -------------------------------------------------------
    def try_claim(self):
        return self._claim.acquire(False)

    def release(self, notify=True):
        self._claim.release()
        if notify and self._on_release is not None:
            self._on_release()

    @property
    def claimed(self):
        return self._claim.locked()

    def wake(self):
        """Interrupts the thread polling the channels (something it may wait for arrived
        another way, or the step was aborted)."""
        try:
            self._waker.w.send(b"!")
        except (BlockingIOError, OSError):
            pass                     # already woken (buffer full) or closing
        self._woken = True

    @property
    def open_channels(self):
        return [c for c in self.channels.values() if not c.done]

    def all_replied(self):
        return all(c.done for c in self.channels.values())

    # -- reading (only while claimed) ---------------------------------------------
    def pump(self, timeout):
        """Reads what has arrived on the channels, waiting up to `timeout` seconds for the
        first message. Returns after handling the messages that were ready."""
        for channel in self._ready(timeout):
            self._read_one(channel)

    def _ready(self, timeout):
        ready = [c for c in self.channels.values() if not c.done and c.conn.buffered]
        if ready:
            timeout = 0                              # a message (part) is here already
        ms = None if timeout is None else max(0, int(timeout * 1000 + 0.999))
        if self._poll is not None:
            events = None if ready else spin_wait.spin(self._poll_now, own_steps=1)
            if not events:
                events = self._poll.poll(ms)
            fds = [fd for fd, _ in events]
        else:                                        # no poll() (Windows)
            fds = [c.conn.fileno() for c in self.open_channels] + [self._waker.r.fileno()]
            fds = select.select(fds, [], [], timeout)[0]
        for fd in fds:
            channel = self._by_fd.get(fd)
            if channel is None:
                self._drain_wake()
            elif not channel.done and channel not in ready:
                ready.append(channel)
        return ready

    def _poll_now(self):
        return self._poll.poll(0)

    def _drain_wake(self):
        try:
            while self._waker.r.recv(4096):
                pass
        except (BlockingIOError, OSError):
            pass

    def _read_one(self, channel):
        try:
            message = channel.conn.recv()
        except (EOFError, OSError, ValueError) as e:      # FrameError is a ValueError
            self._fail(channel, errors.UnavailableError(
                None, None, f"{channel.task} closed the connection in the middle of step "
                f"{self.step_id} ({type(e).__name__}: {e}); the task died or was stopped."))
            return
        if isinstance(message, dict) and message.get("method") == "Tensors":
            self._deliver(channel.task, message)
        elif isinstance(message, dict) and ("ok" in message or "error" in message) \
                and self._on_reply is not None:
            if message.get("tensors"):            # the callee's last tensors ride on its reply
                self._deliver(channel.task, {"step_id": self.step_id,
                                             "items": message["tensors"]})
            self._finish(channel)
            self._on_reply(channel.task, message)
        else:
            channel.conn.close()
            self._fail(channel, errors.InternalError(
                None, None, f"Unexpected message from {channel.task} during step "
                f"{self.step_id}: {str(message)[:100]}"))

    def _finish(self, channel):
        channel.done = True
        if self._poll is not None:
            try:
                self._poll.unregister(channel.conn.fileno())
            except (KeyError, ValueError, OSError):
                pass

    def _fail(self, channel, error):
        self._finish(channel)
        if self._on_failure is not None:
            self._on_failure(channel.task, error)

    # -- writing --------------------------------------------------------------------
    def send(self, task, message):
        """Sends `message` to `task` on its channel. While the socket is full, reads the
        channels (if no other thread does), so two tasks sending to each other at once
        cannot block each other."""
        channel = self.channels[task]
        if self._simulate_link is not None:
            self._simulate_link(task, message, self.step_id)
        channel.conn.send(message, blocked=lambda: self._while_blocked(channel))

    def takes(self, task, nbytes):
        """True if a message of about `nbytes` to `task` may go on its channel: small enough
        that a full socket always holds whole messages to read (see _while_blocked). Bigger
        ones go on the task's connection for tensors, whose reader thread never stops."""
        channel = self.channels.get(task)
        if channel is None or channel.done:
            return False
        return nbytes <= min(CHANNEL_MAX_BYTES, channel.conn.receive_buffer_bytes() // 8)

    def _while_blocked(self, channel):
        """The socket is full. The other side may be writing to us at this very moment and be
        blocked too: read the WHOLE messages waiting for us (never half of one: the rest of
        it may be stuck behind our own half-sent message), then wait a little for room."""
        if self.try_claim():
            try:
                if not channel.done and channel.conn.frame_buffered():
                    self._read_one(channel)
                    return
            finally:
                self.release()
        channel.conn.writable(0.01)

    def close(self):
        """Empties the thread's waker for its next step (the poll object, which holds no
        resource of the kernel, goes with the pump)."""
        if self._counted:
            self._counted = False
            spin_wait.step_ended()
        if self._woken:
            self._drain_wake()
