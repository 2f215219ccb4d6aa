"""The fast path -- a step whose tensors ride on its RunGraph calls' connections.

This module is the sandbox's one seam for speed. The plain route -- the one to read first,
TF's own -- is in master.py (run_step), worker.py (run_graph) and rendezvous.py: a thread
per RunGraph call, a _Send that pushes its tensor at once, a _Recv that sleeps until the
receiving server's connection thread has put it in the mailbox. That route is correct and
easy to follow, but in Python every hand-off between threads costs a wake-up and a turn at the
GIL, and a step of the seed's job pays several. So, unless SANDBOX_FAST_PATHS=0 is set in the
tasks' environment, the master runs its steps here instead, with two tricks, each measured
on the seed job by bench/bench_route.py (1 ps + 1 worker, 9 rounds in turns, medians):

  1. channels    while a master's RunGraph call to a task is open, its connection is the
                 *channel* between the two tasks for this step, in both directions:

                     master's task (a worker)                      the ps
                     RunGraph(step 42)              ------------>  runs its piece: reads
                                                    <------------  Tensors: the parameters
                     its piece: forward, backward
                     Tensors: the gradients         ------------>  applies them
                                                    <------------  RunGraph reply

                 and WHOEVER WAITS, READS: a _Recv waiting for a tensor, or the master
                 waiting for the replies, polls the step's channels itself and takes the next
                 message off the socket (the rendezvous lends it as its waiter), instead of
                 waiting for a connection thread to read it and wake it up. The plain route's
                 step took 1.10-1.24x the time of the channels' alone (4 runs, 2026-11-28).
  2. batching    the tensors a piece sends one after another -- all the parameters a ps
                 hands to a worker, all the gradients a worker hands back -- wait in an
                 outbox until the step waits or the piece ends, and travel to each task as ONE
                 message (StepState.check lets them go before anything waits). Without it a
                 step took 1.07-1.13x as long (4 runs, 2026-11-28: at the 10% line).
                 SANDBOX_FAST_BATCHING=0 switches it off alone.

Two more tricks were measured the same way and removed, as a trick that buys less than 10%
must be: spinning a moment in poll() before sleeping (switched off, a step took 1.06x as
long: it bought 6%), and the tensors a piece sends last riding on the RunGraph reply
(switched off, a step took 0.89x as long: it cost 11%).

TensorFlow's gRPC runtime does it differently -- the receiving task asks for each tensor with a
RecvTensor call, answered by gRPC's own threads -- but the pairing is the same: a _Send and a
_Recv meet under one key in the receiving task's rendezvous. Tensors between two tasks that are
not master and callee of one call (ps 0 -> ps 1, say) still travel on a separate connection
(Peers.push), read by the receiving server's connection thread.

Only one thread reads a step's channels at a time (it *claims* the pump); the others wait on
the rendezvous and are woken when something for them arrives. Two tasks may send each other
tensors at the same moment; so that neither can wait forever for the other to read, only
messages far smaller than the socket buffers go on a channel (bigger ones take the receiving
task's connection for tensors, whose reader never stops), and a thread that finds the socket
full reads the whole messages waiting for it meanwhile.
"""
import os
import select
import socket
import threading
import time

from ..framework import errors
from .rendezvous import StepRendezvous

__all__ = ["enabled", "run_step", "serve_run_graph", "ChannelRendezvous", "Channel",
           "StepPump", "CHANNEL_MAX_BYTES"]

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

    # -- the right to read -------------------------------------------------------
    def try_claim(self):
        return self._claim.acquire(False)

    def release(self, notify=True):
        self._claim.release()
        if notify and self._on_release is not None:
            self._on_release()

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
        if self._woken:
            self._drain_wake()


# -- the switch -----------------------------------------------------------------------------------
def enabled(trick="SANDBOX_FAST_PATHS"):
    """False if $SANDBOX_FAST_PATHS is "0": then every step takes the plain route (read by each
    task's server when it starts; LocalCluster's tasks inherit the launcher's environment).
    enabled("SANDBOX_FAST_BATCHING"): batching alone."""
    return os.environ.get(trick, "1") != "0"


# -- the master's side ----------------------------------------------------------------------------
def run_step(master, requests, outcome, deadline):
    """MasterService.run_step on channels: RunGraph to every other task at once (each call's
    connection a channel), this master's own pieces in the calling thread, then the replies
    -- all read by whichever thread waits. Returns what outcome.result() returns."""
    step_id = outcome.step_id
    channels = []
    for task, request in requests.items():
        if task == master.task:
            continue
        try:
            channels.append(Channel(task, master.peers.start_call(task, "RunGraph",
                                                                  channel=True, **request)))
        except errors.OpError as e:
            outcome.finished(task, e)
    worker = master.local_worker
    mailbox = worker.rendezvous

    def on_reply(task, reply):
        if "error" in reply:
            code, message, node = reply["error"]
            outcome.finished(task, errors.exception_type_from_error_code(code)(
                node or None, None, message))
        else:
            outcome.finished(task, reply["ok"])

    pump = StepPump(step_id, channels, deliver=_deliver_to(worker), on_reply=on_reply,
                    on_failure=outcome.finished, simulate_link=master.peers.simulate_link,
                    on_release=_notify(mailbox))
    mailbox.lend_waiter(step_id, _waiter(mailbox, pump), pump.wake)
    try:
        if master.task in requests:
            outcome.run_here(dict(requests[master.task], rendezvous=_rendezvous_for(pump)))
        wait = None if deadline is None else deadline - time.monotonic() + _REPLY_GRACE
        if not _wait_until(mailbox, step_id, pump.all_replied, wait):
            late = [c.task for c in pump.open_channels]
            for channel in pump.open_channels:
                channel.conn.close()             # a reply may still come: out of step
            outcome.finished(late[0], errors.DeadlineExceededError(
                None, None, f"No reply to RunGraph of step {step_id} from "
                f"{', '.join(late)} by the step's deadline (is the task paused or "
                "overloaded?)."))
    except BaseException as e:                   # e.g. KeyboardInterrupt: stop them all
        outcome.cancel(e)
        for channel in pump.open_channels:
            channel.conn.close()
        raise
    finally:
        mailbox.lend_waiter(step_id)
        pump.close()
        for channel in channels:
            if channel.done and not channel.conn.closed:
                master.peers.end_call(channel.task, channel.conn)
            else:
                channel.conn.close()
    return outcome.result()


_REPLY_GRACE = 2.0       # seconds past a step's deadline to wait for the replies


def _wait_until(mailbox, step_id, done, timeout):
    """Waits until done() (checked under the mailbox's lock), reading the channels meanwhile
    when no other thread does. False on timeout."""
    end = None if timeout is None else time.monotonic() + timeout
    with mailbox.cond:
        while not done():
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                return False
            mailbox.wait(step_id, 0.5 if left is None else min(0.5, left))
        return True


# -- the callee's side ----------------------------------------------------------------------------
def serve_run_graph(worker, conn, caller, handle, step_id, feeds, deadline, collect_stats):
    """RunGraph that came on a channel: the step's tensors to and from `caller` travel on
    `conn` while the piece runs; the server answers on it as usual afterwards."""
    mailbox = worker.rendezvous
    pump = StepPump(step_id, [Channel(caller, conn)], deliver=_deliver_to(worker),
                    on_failure=lambda task, e: mailbox.abort(step_id, e),
                    simulate_link=worker.peers.simulate_link, on_release=_notify(mailbox))
    mailbox.lend_waiter(step_id, _waiter(mailbox, pump), pump.wake)
    try:
        return worker.run_graph(handle, step_id, feeds, deadline, collect_stats,
                                _rendezvous_for(pump))
    finally:
        mailbox.lend_waiter(step_id)
        pump.close()


# -- what the step's kernels talk to --------------------------------------------------------------
class ChannelRendezvous(StepRendezvous):
    """A step's rendezvous on the fast path: sends wait in an outbox until the step waits or
    its piece ends (flush), then go to each task as one message -- on the step's channel to
    it when there is one."""

    __slots__ = ("pump", "outbox", "batching")

    def __init__(self, worker, step_id, pump):
        super().__init__(worker, step_id)
        self.pump = pump
        self.outbox = {}                  # task -> [(key, value, tensor name)]
        self.batching = enabled("SANDBOX_FAST_BATCHING")

    def send(self, key, value, recv_device, tensor_name):
        dst_task = recv_device.rsplit("/device:", 1)[0]
        if dst_task == self.worker.task:
            self.worker.rendezvous.send(self.step_id, key, value)
        else:
            self.outbox.setdefault(dst_task, []).append((key, value, tensor_name))
            if not self.batching:
                self.flush()

    def flush(self, last=False):
        if not self.outbox:
            return
        outbox, self.outbox = self.outbox, {}
        worker, pump = self.worker, self.pump
        for dst_task, items in outbox.items():
            start = time.time()
            message = {"method": "Tensors", "step_id": self.step_id, "one_way": True,
                       "items": [[k, v] for k, v, _ in items], "src": worker.task}
            nbytes = sum(getattr(v, "nbytes", 8) + len(k) for k, v, _ in items)
            if pump.takes(dst_task, nbytes + 200):
                pump.send(dst_task, message)
            else:
                worker.peers.push(dst_task, message)
            self._traced(dst_task, items, start)

    def _traced(self, dst_task, items, start):
        self.worker.trace.record_many(
            "send", self.worker.task, dst_task,
            [(name, getattr(value, "nbytes", 0)) for _, value, name in items], self.step_id,
            start)


def _rendezvous_for(pump):
    return lambda worker, step, pieces: ChannelRendezvous(worker, step, pump)


def _deliver_to(worker):
    """Tensors read off a channel go into the worker's mailbox -- by the very thread that
    waits, so nobody needs waking."""
    def deliver(src, message):
        worker.receive_tensors(message["step_id"], message["items"], src, wake=False)
    return deliver


def _notify(mailbox):
    def notify():
        with mailbox.cond:
            mailbox.cond.notify_all()
    return notify


def _waiter(mailbox, pump):
    """What the mailbox calls (with its lock held) to wait in the step: read the channels for
    up to `timeout` seconds if this thread can claim them, else sleep until notified."""
    def wait(timeout):
        if pump.try_claim():
            mailbox.cond.release()
            try:
                pump.pump(timeout)
            finally:
                pump.release(notify=False)
                mailbox.cond.acquire()
                mailbox.cond.notify_all()      # others may claim now, or find their tensor
        else:
            mailbox.cond.wait(timeout)
    return wait
