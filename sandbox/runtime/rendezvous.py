"""The rendezvous -- mirrors TensorFlow's Rendezvous (core/framework/rendezvous.h) and, for a
step that spans tasks, its remote rendezvous (core/distributed_runtime/base_rendezvous_mgr.h).

When the graph is split across devices, an edge that crosses a boundary becomes a pair of ops:
a _Send on the producer's side and a _Recv on the consumer's side, sharing one *key*:

    "/job:ps/replica:0/task:0/device:CPU:0;/job:worker/replica:0/task:0/device:CPU:0;weights/read:0"

Every task has one Rendezvous: a mailbox of tensors keyed by (step id, key). A _Recv takes its
tensor out, waiting until it arrives; a _Send puts its tensor into the mailbox of the
consumer's task. Each step's _Send and _Recv ops talk to a StepRendezvous, the step's view of
it: a tensor for a device of this task goes straight into this task's mailbox, one for another
task is *pushed* to that task (a Tensors message; its server puts it in its own mailbox). The
sandbox pushes -- one message, no round trip -- where TensorFlow's gRPC runtime has the
consumer pull; the pairing by key is the same.

A step that fails is *aborted*: every _Recv waiting in it wakes up with the error, so nothing
waits forever for a tensor that will never come.

The rendezvous only matches sends with receives; how tensors travel is the transport's
business. (A transport that reads the step's sockets in the thread that waits -- the fast
path, runtime/step_channels.py -- lends the mailbox a `waiter` for its steps.)

The _Send and _Recv ops themselves close this file (TF: core/kernels/sendrecv_ops.cc): the
master's partitioner adds them (runtime/partition.py), programs never create them, and each
kernel is one call on the step's rendezvous.
"""
import threading
import time

import numpy as np

from ..framework import errors
from ..framework.op_def import OpDef

__all__ = ["Rendezvous", "StepRendezvous", "make_key"]

_ABANDONED_AFTER = 300.0


def make_key(send_device, recv_device, tensor_name):
    return f"{send_device};{recv_device};{tensor_name}"


class Rendezvous:
    """Tensors in flight to this task, keyed by (step_id, key)."""

    def __init__(self, owner="", log=None):
        self.owner = owner
        self.cond = threading.Condition()
        self._items = {}          # (step_id, key) -> (value, arrival time)
        self._aborted = {}        # step_id -> (OpError, time)
        self._waiters = {}        # step_id -> (waiter(timeout), wake()), lent by a transport
        self._log = log or (lambda text: None)

    def send_many(self, step_id, items, wake=True):
        """Puts the tensors of one message -- [(key, value), ...] -- in the mailbox at once,
        and wakes whoever waits (`wake=False`: the waiter itself brought them)."""
        with self.cond:
            if step_id in self._aborted:
                return            # the step failed: drop the tensors
            now = time.monotonic()
            for key, value in items:
                self._items[(step_id, key)] = (value, now)
            self.cond.notify_all()
            if wake:
                self._wake(step_id)

    def send(self, step_id, key, value):
        self.send_many(step_id, ((key, value),))

    def _wake(self, step_id):
        lent = self._waiters.get(step_id)
        if lent is not None:
            lent[1]()

    def recv(self, step_id, key, step=None, node_name=None, describe=None):
        """Waits for the tensor (step_id, key); honours the step's cancellation and deadline,
        and logs every 10 s what it is waiting for."""
        started = last_log = time.monotonic()
        with self.cond:
            while True:
                item = self._items.pop((step_id, key), None)
                if item is not None:
                    return item[0]
                aborted = self._aborted.get(step_id)
                if aborted is not None:
                    raise aborted[0]
                left = None
                if step is not None:
                    step.check(node_name)
                    left = step.time_left()
                self.wait(step_id, 0.5 if left is None else min(0.5, max(left, 0.001)))
                now = time.monotonic()
                if now - last_log >= errors.WAIT_LOG_EVERY:
                    last_log = now
                    what = describe or key.rsplit(";", 1)[-1]
                    self._log(f"Step {step_id}: {self.owner} still waiting for tensor {what} "
                              f"from {key.split(';', 1)[0]} ({now - started:.0f} s so far)")

    def wait(self, step_id, timeout):
        """(With the lock held.) Waits for news of the step for up to `timeout` seconds."""
        lent = self._waiters.get(step_id)
        if lent is None:
            self.cond.wait(timeout)
        else:
            lent[0](timeout)

    def lend_waiter(self, step_id, waiter=None, wake=None):
        """From now on, whoever waits in `step_id` calls waiter(timeout) (with the lock held)
        instead of sleeping on the lock's condition, and news of the step calls wake();
        lend_waiter(step_id) takes them back."""
        with self.cond:
            if waiter is None:
                self._waiters.pop(step_id, None)
            else:
                self._waiters[step_id] = (waiter, wake)

    def abort(self, step_id, error):
        """Fails every current and future recv of `step_id` with `error`."""
        with self.cond:
            if not isinstance(error, errors.OpError):
                error = errors.AbortedError(None, None, str(error))
            self._aborted[step_id] = (error, time.monotonic())
            for k in [k for k in self._items if k[0] == step_id]:
                del self._items[k]
            self.cond.notify_all()
            self._wake(step_id)
            self._sweep()

    def aborted(self, step_id):
        with self.cond:
            return step_id in self._aborted

    def cleanup(self, step_id):
        """Forgets the step: leftovers and its abort mark (when the step is over everywhere)."""
        with self.cond:
            for k in [k for k in self._items if k[0] == step_id]:
                del self._items[k]
            self._sweep()

    def _sweep(self):
        now = time.monotonic()
        for k in [k for k, (_, t) in self._items.items() if now - t > _ABANDONED_AFTER]:
            del self._items[k]
        for s in [s for s, (_, t) in self._aborted.items() if now - t > _ABANDONED_AFTER]:
            del self._aborted[s]


class StepRendezvous:
    """What the _Send and _Recv kernels of one step on one task talk to (TF's remote
    rendezvous): a tensor for this task goes into its mailbox, one for another task is pushed
    there at once, and a _Recv waits in this task's mailbox."""

    def __init__(self, worker, step_id):
        self.worker = worker
        self.step_id = step_id

    def send(self, key, value, recv_device, tensor_name):
        worker = self.worker
        dst_task = recv_device.rsplit("/device:", 1)[0]
        if dst_task == worker.task:
            worker.rendezvous.send(self.step_id, key, value)
            return
        start = time.time()
        worker.peers.push(dst_task, {"method": "Tensors", "step_id": self.step_id,
                                     "items": [[key, value]], "src": worker.task})
        worker.trace.record("send", worker.task, dst_task, tensor_name,
                            getattr(value, "nbytes", 0), self.step_id, start)

    def recv(self, key, send_device, tensor_name, step, node_name):
        return self.worker.rendezvous.recv(self.step_id, key, step, node_name,
                                           describe=repr(tensor_name))

    def flush(self, last=False):
        """Sends nothing: every send went out at once. (A batching transport holds its sends
        until the step waits -- a step calls this before it does -- or its piece ends:
        `last`.)"""


# -- the _Send and _Recv ops (TF: SendOp and RecvOp, core/kernels/sendrecv_ops.cc) -----------
# `step.rendezvous` is the StepRendezvous the worker service gives the step that runs them.

class _Send(OpDef):
    """Ships its input to the device named by `recv_device`."""
    uses_context = True
    stateful = True
    differentiable = False

    def kernel(ctx, step, value, key, tensor_name, send_device, recv_device):
        _step_rendezvous(step, ctx).send(key, value, recv_device, tensor_name)


class _SendControl(OpDef):
    """Tells `recv_device` that the op it depends on has run (a control edge across devices)."""
    uses_context = True
    stateful = True
    differentiable = False

    def kernel(ctx, step, key, tensor_name, send_device, recv_device):
        _step_rendezvous(step, ctx).send(key, np.zeros((), np.bool_), recv_device, tensor_name)


class _Recv(OpDef):
    """Waits for the tensor with its key and outputs it."""
    uses_context = True
    stateful = True
    differentiable = False

    def kernel(ctx, step, key, tensor_name, send_device, recv_device):
        return _step_rendezvous(step, ctx).recv(key, send_device, tensor_name, step, ctx.name)


def _step_rendezvous(step, ctx):
    if step.rendezvous is None:
        raise errors.InternalError(ctx.name, None, f"{ctx.op_type} {ctx.name!r} ran outside a "
                                   "distributed step (no rendezvous).")
    return step.rendezvous
