"""Gradient accumulators -- mirrors TensorFlow's ConditionalAccumulator
(python/ops/data_flow_ops.py, core/kernels/conditional_accumulator_base.h and
conditional_accumulator.h).

An accumulator collects gradients sent by several workers and hands out their average. Like a
queue or a variable, it is shared state: the graph only names it, and the accumulator itself
lives in the resource manager of the task its op is placed on. SyncReplicasOptimizer puts one
next to each variable, on that variable's parameter server.

The accumulator has its own *global step* (a counter of the averages it handed out):

  * apply_grad(g, local_step)  adds g -- unless g is stale: computed at a local_step older than
                               the accumulator's global step. A stale gradient is DROPPED (TF
                               drops it silently; the sandbox also counts it: num_dropped()).
  * take_grad(n)               waits, on the accumulator's task, until n fresh gradients have
                               arrived; then returns their average, empties the accumulator and
                               adds 1 to its global step -- every gradient still in flight for
                               the old step has just become stale.
  * set_global_step(s)         puts the accumulator in step with the training's global step.

While take_grad waits it says so every 10 s, naming the replicas it has not heard from in this
round. Two sandbox-only ops help lessons and clean shutdowns: AccumulatorNumDropped (stale
gradients dropped so far) and AccumulatorCancelTakeGradient (wakes a waiting take_grad with
CancelledError, and fails the next ones, until set_global_step is run again); a third,
SyncTokenQueueReopen, lets SyncReplicasOptimizer's chief reopen the token queue that the end of
a previous training closed.

One deliberate difference: when the chief asks for n gradients but more than n fresh ones are
already waiting (it asked late), TF averages all of them; the sandbox averages the first n and
counts the others as dropped. So every update averages exactly n gradients, whatever the timing
of the threads (TF behaves the same whenever the chief is already waiting, the usual case).
"""
import sys
import threading
import time

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["ConditionalAccumulatorBase", "ConditionalAccumulator"]

_FLOAT_TYPES = (_dtypes.float16, _dtypes.float32, _dtypes.float64)


class _TakeAttempt:
    """A take_grad waiting for `need` gradients; the applier that completes it fills `result`."""

    __slots__ = ("need", "result")

    def __init__(self, need):
        self.need = need
        self.result = None


class _Accumulator:
    """The state of one accumulator: the fresh gradients of the current round and its step."""

    def __init__(self, name, dtype, shape, reduction_type, owner):
        self.name = name
        self.dtype = dtype
        self.shape = shape                  # TensorShape (may be partly unknown)
        self.reduction_type = reduction_type
        self.owner = owner                  # task name, for messages
        self.global_step = 0
        self.grads = []                     # fresh gradients of this round, in arrival order
        self.total = None                   # their running sum (TF's accum_grad_): our array
        self.replicas = []                  # who sent each of them ('' if unknown)
        self.seen_replicas = set()          # every replica that ever sent a gradient
        self.num_dropped = 0
        self.takes_cancelled = False
        self.attempts = []                  # waiting take_grads, oldest first
        self.cond = threading.Condition()

    def read(self, node_name=None):
        return self

    # -- apply -----------------------------------------------------------------------
    def apply(self, grad, local_step, replica, node):
        with self.cond:
            if replica:
                self.seen_replicas.add(replica)
            if local_step < self.global_step:
                self.num_dropped += 1          # stale: computed before the last update
                return
            self._validate(grad, node)
            self._add(grad)
            self.grads.append(grad)
            self.replicas.append(replica)
            self._flush()

    def _add(self, grad):
        """Adds a fresh gradient to the running sum as it arrives, as TF's accumulator does:
        when the last one of a round comes, little is left to do before the update."""
        if self.total is None:
            self.total = np.array(grad, copy=True)
        else:
            self.total += grad                  # our own array: adding in place is safe

    def _validate(self, grad, node):
        if self.grads and self.grads[0].shape != grad.shape:
            expected = _shape_text(self.grads[0].shape)
        elif not self.shape.is_compatible_with(grad.shape):
            expected = _shape_text(self.shape.as_list() if self.shape.dims is not None else None)
        else:
            return
        raise errors.InvalidArgumentError(
            node, None, f"Shape mismatch: expected {expected}, got {_shape_text(grad.shape)} "
            f"(accumulator {self.name!r}: every gradient it averages must have the shape of its "
            "variable).")

    # -- take ------------------------------------------------------------------------
    def _flush(self):
        """Completes the oldest waiting take_grad if enough fresh gradients have arrived (runs
        in the thread that made it possible, as TF's FlushUnlocked)."""
        while self.attempts and len(self.grads) >= self.attempts[0].need:
            attempt = self.attempts.pop(0)
            attempt.result = self._take(attempt.need)
            self.cond.notify_all()

    def _take(self, need):
        used, extra = self.grads[:need], len(self.grads) - need
        if not extra:
            total = self.total                  # the running sum of exactly these
        else:                                   # more came than asked for: the first `need`
            total = used[0].copy()
            for g in used[1:]:
                total += g
        if self.reduction_type == "MEAN":
            total /= total.dtype.type(need)
        self.num_dropped += extra               # arrived for this round after it was full
        self.grads, self.replicas, self.total = [], [], None
        self.global_step += 1
        return total

    def take(self, need, step, node):
        if need <= 0:
            raise errors.InvalidArgumentError(node, None, "Argument num_required must be "
                                              f"positive, but was {need}")
        with self.cond:
            if self.takes_cancelled:
                raise errors.CancelledError(node, None, "TakeGrad operation was cancelled")
            attempt = _TakeAttempt(need)
            self.attempts.append(attempt)
            self._flush()
            started = last = time.monotonic()
            try:
                while attempt.result is None:
                    if self.takes_cancelled:
                        raise errors.CancelledError(node, None, "TakeGrad operation was "
                                                    "cancelled")
                    left = None
                    if step is not None:
                        step.check(node)
                        left = step.time_left()
                    self.cond.wait(0.25 if left is None else max(0.001, min(0.25, left)))
                    now = time.monotonic()
                    if now - last >= errors.WAIT_LOG_EVERY and attempt.result is None:
                        last = now
                        print(f"[{self.owner}] {node} {self._waiting_text(need)} "
                              f"({now - started:.0f} s so far)", file=sys.stderr, flush=True)
            finally:
                if attempt.result is None and attempt in self.attempts:
                    self.attempts.remove(attempt)
            return attempt.result

    def _waiting_text(self, need):
        arrived = [r for r in self.replicas if r]
        text = (f"still waiting for {need} fresh gradients for global step {self.global_step} "
                f"in accumulator {self.name!r}: {len(self.grads)} arrived")
        if arrived:
            text += f" (from {', '.join(_short(r) for r in arrived)})"
        missing = sorted(self.seen_replicas - set(arrived))
        if missing:
            text += (f"; waiting for {', '.join(_short(r) for r in missing)} "
                     "(no fresh gradient from it this round -- stopped, paused or slow?)")
        return text + f"; {self.num_dropped} stale gradients dropped so far"

    def set_global_step(self, new_global_step):
        with self.cond:
            if new_global_step < self.global_step:
                print(f"[{self.owner}] WARNING: Attempt to set current_global_step_ to smaller "
                      f"value: current_global_step_ = {self.global_step} >= {new_global_step} "
                      f"= new_global_step (accumulator {self.name!r}).", file=sys.stderr,
                      flush=True)
            self.global_step = new_global_step
            self.takes_cancelled = False

    def cancel_takes(self):
        with self.cond:
            self.takes_cancelled = True
            self.cond.notify_all()


def _shape_text(dims):
    """[2,3] with ? for unknown dims, as TF's TensorShape::DebugString."""
    if dims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _short(replica):
    return replica.replace("/replica:0", "").replace("/device:CPU:0", "")


# -- ops --------------------------------------------------------------------------------

class _ConditionalAccumulatorOp(OpDef):
    """Outputs a reference to the accumulator stored on this task (created on first use)."""
    type_name = "ConditionalAccumulator"
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)
    shape = scalar_shape

    def kernel(ctx, step, dtype, shape, container, shared_name, reduction_type="MEAN"):
        if dtype not in _FLOAT_TYPES:
            raise errors.InvalidArgumentError(
                ctx.name, None, f"ConditionalAccumulator averages float16, float32 or float64 "
                f"gradients, not {dtype.name}.")
        name = shared_name or ctx.name
        return ctx.resources.lookup_or_create(
            container, name, lambda: _Accumulator(name, dtype, shape, reduction_type,
                                                  ctx.resources.owner))


class AccumulatorApplyGradient(OpDef):
    """Adds the gradient to the accumulator, or drops it if local_step < its global step."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(ctx, step, accumulator, local_step, gradient, dtype=None, replica=""):
        grad = np.asarray(gradient, dtype=accumulator.dtype.as_numpy_dtype)
        accumulator.apply(grad, int(local_step), replica, ctx.name)


class AccumulatorTakeGradient(OpDef):
    """Waits for num_required fresh gradients; outputs their average and starts a new round."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(ctx, step, accumulator, num_required, dtype=None):
        return accumulator.take(int(num_required), step, ctx.name)


class AccumulatorNumAccumulated(OpDef):
    """The number of fresh gradients waiting in the accumulator."""
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    shape = scalar_shape

    def kernel(accumulator):
        return np.int32(len(accumulator.grads))


class AccumulatorSetGlobalStep(OpDef):
    """Sets the accumulator's global step (and lets take_grad run again after a cancel)."""
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(accumulator, new_global_step):
        accumulator.set_global_step(int(new_global_step))


class AccumulatorNumDropped(OpDef):
    """(sandbox only) The number of stale gradients the accumulator has dropped so far."""
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    shape = scalar_shape

    def kernel(accumulator):
        return np.int64(accumulator.num_dropped)


class AccumulatorCancelTakeGradient(OpDef):
    """(sandbox only) Fails the waiting and future take_grads with CancelledError until the
    next set_global_step: how the chief's queue runner is woken when training ends."""
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(accumulator):
        accumulator.cancel_takes()


class SyncTokenQueueReopen(OpDef):
    """(sandbox only) Empties a queue and opens it again. SyncReplicasOptimizer's chief runs
    it on its token queue before the first tokens: a queue closed at the end of a previous
    training (see train/sync_replicas_optimizer.py) must not end the new one."""
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(queue):
        queue.reopen()


# -- the Python classes ------------------------------------------------------------------

class ConditionalAccumulatorBase:
    """What every conditional accumulator offers: num_accumulated, set_global_step."""

    def __init__(self, dtype, shape, accumulator_ref):
        self._dtype = dtype
        self._shape = TensorShape(shape) if shape is not None else unknown_shape()
        self._accumulator_ref = accumulator_ref
        self._name = accumulator_ref.op.name.split("/")[-1]

    @property
    def accumulator_ref(self):
        """The underlying accumulator reference."""
        return self._accumulator_ref

    @property
    def name(self):
        """The name of the underlying accumulator."""
        return self._name

    @property
    def dtype(self):
        """The datatype of the gradients accumulated by this accumulator."""
        return self._dtype

    def num_accumulated(self, name=None):
        """Number of gradients that have currently been aggregated in the accumulator."""
        return apply_op("AccumulatorNumAccumulated", [self._accumulator_ref], {},
                        name=name or f"{self._name}_NumAccumulated",
                        output_dtypes=[_dtypes.int32])

    def set_global_step(self, new_global_step, name=None):
        """Sets the accumulator's global step; gradients older than it are dropped from now on."""
        step = _as_int64(new_global_step)
        return apply_op("AccumulatorSetGlobalStep", [self._accumulator_ref, step], {},
                        name=name or "AccumulatorSetGlobalStep", output_dtypes=[])

    def num_dropped(self, name=None):
        """(sandbox only) Number of stale gradients this accumulator has dropped so far."""
        return apply_op("AccumulatorNumDropped", [self._accumulator_ref], {},
                        name=name or f"{self._name}_NumDropped", output_dtypes=[_dtypes.int64])

    def cancel_take_grad(self, name=None):
        """(sandbox only) Wakes a waiting take_grad with CancelledError; later ones fail too,
        until set_global_step runs again."""
        return apply_op("AccumulatorCancelTakeGradient", [self._accumulator_ref], {},
                        name=name or f"{self._name}_CancelTakeGradient", output_dtypes=[])


class ConditionalAccumulator(ConditionalAccumulatorBase):
    """A conditional accumulator for aggregating gradients.

    Up-to-date gradients (i.e., time step at which gradient was computed is equal to the
    accumulator's time step) are added to the accumulator. Extraction of the average gradient
    is blocked until the required number of gradients has been accumulated.
    """

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator",
                 reduction_type="MEAN"):
        if reduction_type not in ("MEAN", "SUM"):
            raise ValueError(f"reduction_type must be 'MEAN' or 'SUM', got {reduction_type!r}")
        dtype = _dtypes.as_dtype(dtype).base_dtype
        shape = TensorShape(shape) if shape is not None else unknown_shape()
        ref = apply_op("ConditionalAccumulator", [],
                       {"dtype": dtype, "shape": shape, "container": "",
                        "shared_name": shared_name or "", "reduction_type": reduction_type},
                       name=name, output_dtypes=[_dtypes.string._as_ref])
        super().__init__(dtype, shape, ref)

    def apply_grad(self, grad, local_step=0, name=None):
        """Adds `grad`, computed at `local_step`, to the accumulator -- or drops it if it is
        stale (local_step < the accumulator's global step). Returns the op."""
        return self._apply_grad(grad, local_step, name)

    def _apply_grad(self, grad, local_step=0, name=None, replica=""):
        # `replica` (sandbox only) names the worker in the accumulator's waiting messages.
        grad = convert_to_tensor(grad, dtype=self._dtype)
        grad.get_shape().assert_is_compatible_with(self._shape)
        local_step = _as_int64(local_step)
        attrs = {"dtype": self._dtype}
        if replica:
            attrs["replica"] = replica
        return apply_op("AccumulatorApplyGradient", [self._accumulator_ref, local_step, grad],
                        attrs, name=name or "AccumulatorApplyGradient", output_dtypes=[])

    def take_grad(self, num_required, name=None):
        """Waits until `num_required` fresh gradients have arrived; returns their average and
        adds 1 to the accumulator's global step."""
        n = convert_to_tensor(num_required, dtype=_dtypes.int32)
        out = apply_op("AccumulatorTakeGradient", [self._accumulator_ref, n],
                       {"dtype": self._dtype}, name=name or "AccumulatorTakeGradient",
                       output_dtypes=[self._dtype])
        out.set_shape(self._shape)
        return out


def _as_int64(value):
    from .math_ops import cast
    t = convert_to_tensor(value)
    return t if t.dtype.base_dtype == _dtypes.int64 else cast(t, _dtypes.int64)
