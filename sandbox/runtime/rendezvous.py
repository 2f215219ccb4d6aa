"""The rendezvous -- mirrors TensorFlow's Rendezvous (core/framework/rendezvous.h).

When the graph is split across devices, an edge that crosses a boundary becomes a pair of ops:
a _Send on the producer's side and a _Recv on the consumer's side, sharing one *key*:

    "/job:ps/replica:0/task:0/device:CPU:0;/job:worker/replica:0/task:0/device:CPU:0;weights/read:0"

Every task has one rendezvous: a mailbox of tensors keyed by (step id, key). A _Send puts the
tensor into the mailbox of the consumer's task (through the transport when that is another
process); a _Recv takes it out, waiting until it arrives. The sandbox *pushes* tensors from
producer to consumer -- one message, no round trip -- where TensorFlow's gRPC runtime has the
consumer pull them; the pairing by key is the same.

A step whose tensors travel on the channels of its RunGraph calls (runtime/step_channels.py)
has a *pump* here: a _Recv that finds its tensor missing reads those channels itself, if no
other thread of the step is reading them already.

A step that fails is *aborted*: every _Recv waiting in it wakes up with the error, so nothing
waits forever for a tensor that will never come.
"""
import threading
import time

from ..framework import errors

__all__ = ["Rendezvous", "make_key"]

_LOG_EVERY = 10.0      # seconds between "still waiting" lines
_ABANDONED_AFTER = 300.0


def make_key(send_device, recv_device, tensor_name):
    return f"{send_device};{recv_device};{tensor_name}"


class Rendezvous:
    """Tensors in flight to this task, keyed by (step_id, key)."""

    def __init__(self, owner="", log=None):
        self.owner = owner
        self._cond = threading.Condition()
        self._items = {}          # (step_id, key) -> (value, arrival time)
        self._aborted = {}        # step_id -> (OpError, time)
        self._pumps = {}          # step_id -> StepPump (runtime/step_channels.py)
        self._log = log or (lambda text: None)

    def send(self, step_id, key, value, pumped=False):
        """Puts a tensor in the mailbox. `pumped`: it was read by the thread pumping the step's
        channels (which looks for it itself); otherwise that thread is woken up."""
        self.send_many(step_id, ((key, value),), pumped)

    def send_many(self, step_id, items, pumped=False):
        """Puts the tensors of one message -- [(key, value), ...] -- in the mailbox at once."""
        with self._cond:
            if step_id in self._aborted:
                return            # the step failed: drop the tensors
            now = time.monotonic()
            for key, value in items:
                self._items[(step_id, key)] = (value, now)
            self._cond.notify_all()
            if not pumped:
                self._wake_pump(step_id)

    def _wake_pump(self, step_id):
        pump = self._pumps.get(step_id)
        if pump is not None and pump.claimed:
            pump.wake()

    # -- the channels of a step (runtime/step_channels.py) ---------------------------------
    def attach(self, step_id, pump):
        with self._cond:
            self._pumps[step_id] = pump

    def pump_of(self, step_id):
        return self._pumps.get(step_id)

    def detach(self, step_id):
        with self._cond:
            self._pumps.pop(step_id, None)

    def notify(self):
        with self._cond:
            self._cond.notify_all()

    def wait_until(self, step_id, done, timeout=None):
        """Waits until done() is true (checked under the lock), reading the step's channels
        meanwhile when no other thread does. Returns done()'s last value (False on timeout)."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not done():
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._wait_or_pump(step_id, 0.5 if left is None else min(0.5, left))
            return True

    def _wait_or_pump(self, step_id, timeout):
        """Called with the lock held: reads the step's channels for up to `timeout` seconds if
        this thread can claim them, else waits to be notified."""
        pump = self._pumps.get(step_id)
        if pump is not None and pump.try_claim():
            self._cond.release()
            try:
                pump.pump(timeout)
            finally:
                pump.release(notify=False)
                self._cond.acquire()
                self._cond.notify_all()          # others may claim now, or find their tensor
        else:
            self._cond.wait(timeout)

    def recv(self, step_id, key, step=None, node_name=None, describe=None):
        """Waits for the tensor (step_id, key); honours the step's cancellation and deadline,
        and logs every 10 s what it is waiting for."""
        started = last_log = time.monotonic()
        with self._cond:
            while True:
                item = self._items.pop((step_id, key), None)
                if item is not None:
                    return item[0]
                aborted = self._aborted.get(step_id)
                if aborted is not None:
                    raise aborted[0]
                if step is not None:
                    step.check(node_name)
                    left = step.time_left()
                else:
                    left = None
                wait = 0.5 if left is None else min(0.5, max(left, 0.001))
                self._wait_or_pump(step_id, wait)
                now = time.monotonic()
                if now - last_log >= _LOG_EVERY:
                    last_log = now
                    what = describe or key.rsplit(";", 1)[-1]
                    source = key.split(";", 1)[0]
                    self._log(f"Step {step_id}: {self.owner} still waiting for tensor {what} "
                              f"from {source} ({now - started:.0f} s so far)")

    def abort(self, step_id, error):
        """Fails every current and future recv of `step_id` with `error`."""
        with self._cond:
            if not isinstance(error, errors.OpError):
                error = errors.AbortedError(None, None, str(error))
            self._aborted[step_id] = (error, time.monotonic())
            for k in [k for k in self._items if k[0] == step_id]:
                del self._items[k]
            self._cond.notify_all()
            self._wake_pump(step_id)
            self._sweep()

    def cleanup(self, step_id):
        """Forgets the step: leftovers and its abort mark (when the step is over everywhere)."""
        with self._cond:
            for k in [k for k in self._items if k[0] == step_id]:
                del self._items[k]
            self._sweep()

    def pending(self):
        with self._cond:
            return sorted(self._items)

    def _sweep(self):
        now = time.monotonic()
        for k in [k for k, (_, t) in self._items.items() if now - t > _ABANDONED_AFTER]:
            del self._items[k]
        for s in [s for s, (_, t) in self._aborted.items() if now - t > _ABANDONED_AFTER]:
            del self._aborted[s]
