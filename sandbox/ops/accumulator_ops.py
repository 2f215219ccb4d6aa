"""Gradient accumulators -- mirrors TensorFlow's ConditionalAccumulator and
SparseConditionalAccumulator (python/ops/data_flow_ops.py, core/kernels/
conditional_accumulator_base.h, conditional_accumulator.h and
sparse_conditional_accumulator.h).

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

A SparseConditionalAccumulator does the same with IndexedSlices (the gradients of an
embedding lookup, say): apply_indexed_slices_grad / apply_grad(indices, values) adds each row
to the row of its index, and take_indexed_slices_grad(n) returns IndexedSlices where each
index's row is averaged over the gradients that had that index (MEAN), not over all n. As in
TF, the indices of each gradient are expected in increasing order: the accumulator merges them
as sorted lists, so the result's indices are sorted too.

One deliberate difference: when the chief asks for n gradients but more than n fresh ones are
already waiting (it asked late), TF averages all of them; the sandbox averages the first n and
counts the others as dropped. So every update averages exactly n gradients, whatever the timing
of the threads (TF behaves the same whenever the chief is already waiting, the usual case).
"""
import collections
import sys
import threading
import time

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["ConditionalAccumulatorBase", "ConditionalAccumulator",
           "SparseConditionalAccumulator"]

_FLOAT_TYPES = (_dtypes.float16, _dtypes.float32, _dtypes.float64)


class _TakeAttempt:
    """A take_grad waiting for `need` gradients; the applier that completes it fills `result`."""

    __slots__ = ("need", "result")

    def __init__(self, need):
        self.need = need
        self.result = None


class _Accumulator:
    """The state of one accumulator: the fresh gradients of the current round and its step."""

    op_type = "ConditionalAccumulator"

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
        # the running sum of exactly these -- or, if more came than asked for, of the first
        total = self.total if not extra else self._sum(used)
        result = self._reduce(total, need)
        self.num_dropped += extra               # arrived for this round after it was full
        self.grads, self.replicas, self.total = [], [], None
        self.global_step += 1
        return result

    @staticmethod
    def _sum(grads):
        total = grads[0].copy()
        for g in grads[1:]:
            total += g
        return total

    def _reduce(self, total, need):
        if self.reduction_type == "MEAN":
            total /= total.dtype.type(need)
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


class _SparseAccumulator(_Accumulator):
    """The state of a SparseConditionalAccumulator: each gradient is (indices, values, shape
    or None); the running sum is (indices, summed rows, how many gradients had each index)."""
    op_type = "SparseConditionalAccumulator"

    def _validate(self, grad, node):
        indices, values, grad_shape = grad
        expected = self.grads[0][1].shape if self.grads else None
        known = self.shape.as_list() if self.shape.dims is not None else []
        for i in range(1, values.ndim):
            want = expected[i] if expected is not None else \
                (known[i] if i < len(known) else None)
            if want is not None and want != values.shape[i]:
                raise errors.InvalidArgumentError(
                    node, None, f"Shape mismatch: expected values dim {i} to be {want}, got "
                    f"{values.shape[i]} (accumulator {self.name!r}: every gradient's rows must "
                    f"have the shape of the variable's rows).")
        limit = known[0] if known and known[0] is not None else \
            (int(grad_shape[0]) if grad_shape is not None and len(grad_shape) else None)
        for i, index in enumerate(indices):
            if limit is not None and index >= limit:
                raise errors.InvalidArgumentError(
                    node, None, f"Shape mismatch: index of slice {i} exceeded limits of shape; "
                    f"index is {index} exceeded {limit}")

    def _add(self, grad):
        self.total = _merge(self.total, (grad[0], grad[1], np.ones(len(grad[0]), np.int64)))

    def _sum(self, grads):
        total = None
        for indices, values, _ in grads:
            total = _merge(total, (indices, values, np.ones(len(indices), np.int64)))
        return total

    def _reduce(self, total, need):
        indices, values, counts = total
        if self.reduction_type == "MEAN":
            values = values / counts.reshape((-1,) + (1,) * (values.ndim - 1)).astype(
                values.dtype)
        known = self.shape.as_list() if self.shape.dims is not None else []
        shape = [known[i] if i < len(known) and known[i] is not None else
                 (-1 if i == 0 else values.shape[i]) for i in range(values.ndim)]
        return indices, values.astype(self.dtype.as_numpy_dtype), np.asarray(shape, np.int64)


def _merge(total, grad):
    """Adds the rows of `grad` to `total`, both (indices, rows, counts) with indices taken as
    sorted lists: a two-list merge, as TF's SparseConditionalAccumulator does."""
    if total is None:
        indices, values, counts = grad
        return np.array(indices, np.int64), np.array(values, copy=True), counts
    (a_idx, a_val, a_cnt), (b_idx, b_val, b_cnt) = total, grad
    rows, idx, cnt = [], [], []
    i = j = 0
    while i < len(a_idx) or j < len(b_idx):
        take_a = j == len(b_idx) or (i < len(a_idx) and a_idx[i] <= b_idx[j])
        take_b = i == len(a_idx) or (j < len(b_idx) and b_idx[j] <= a_idx[i])
        if take_a and take_b:                       # the same index: add the rows
            idx.append(a_idx[i])
            rows.append(a_val[i] + b_val[j])
            cnt.append(a_cnt[i] + b_cnt[j])
        elif take_a:
            idx.append(a_idx[i])
            rows.append(a_val[i])
            cnt.append(a_cnt[i])
        else:
            idx.append(b_idx[j])
            rows.append(b_val[j])
            cnt.append(b_cnt[j])
        i, j = i + take_a, j + take_b
    values = np.stack(rows) if rows else a_val[:0]
    return np.asarray(idx, np.int64), values, np.asarray(cnt, np.int64)


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
        return _lookup_or_create(ctx, _Accumulator, dtype, shape, container, shared_name,
                                 reduction_type)


def _lookup_or_create(ctx, state_class, dtype, shape, container, shared_name, reduction_type):
    if dtype not in _FLOAT_TYPES:
        raise errors.InvalidArgumentError(
            ctx.name, None, f"{state_class.op_type} averages float16, float32 or float64 "
            f"gradients, not {dtype.name}.")
    name = shared_name or ctx.name
    return ctx.resources.lookup_or_create(
        container, name, lambda: state_class(name, dtype, shape, reduction_type,
                                             ctx.resources.owner))


class _SparseConditionalAccumulatorOp(OpDef):
    """Outputs a reference to the sparse accumulator stored on this task."""
    type_name = "SparseConditionalAccumulator"
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)
    shape = scalar_shape

    def kernel(ctx, step, dtype, shape, container, shared_name, reduction_type="MEAN"):
        return _lookup_or_create(ctx, _SparseAccumulator, dtype, shape, container,
                                 shared_name, reduction_type)


class SparseAccumulatorApplyGradient(OpDef):
    """Adds the rows of an IndexedSlices gradient, or drops it if it is stale."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(ctx, step, accumulator, local_step, gradient_indices, gradient_values,
               gradient_shape, has_known_shape=False, dtype=None, replica=""):
        grad = (np.asarray(gradient_indices, np.int64).reshape(-1),
                np.asarray(gradient_values, dtype=accumulator.dtype.as_numpy_dtype),
                np.asarray(gradient_shape, np.int64) if has_known_shape else None)
        accumulator.apply(grad, int(local_step), replica, ctx.name)


class SparseAccumulatorTakeGradient(OpDef):
    """Waits for num_required fresh gradients; outputs the indices, the rows (summed or
    averaged per index) and the dense shape."""
    uses_context = True
    stateful = True
    differentiable = False
    multi_output = True
    ref_inputs = (0,)

    def shape(op):
        return [TensorShape([None]), unknown_shape(), TensorShape([None])]

    def kernel(ctx, step, accumulator, num_required, dtype=None):
        return accumulator.take(int(num_required), step, ctx.name)


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


def _make_accumulator(op_type, dtype, shape, shared_name, name, reduction_type):
    """(dtype, shape, reference) of a new accumulator op of type `op_type`."""
    if reduction_type not in ("MEAN", "SUM"):
        raise ValueError(f"reduction_type must be 'MEAN' or 'SUM', got {reduction_type!r}")
    dtype = _dtypes.as_dtype(dtype).base_dtype
    shape = TensorShape(shape) if shape is not None else unknown_shape()
    ref = apply_op(op_type, [],
                   {"dtype": dtype, "shape": shape, "container": "",
                    "shared_name": shared_name or "", "reduction_type": reduction_type},
                   name=name, output_dtypes=[_dtypes.string._as_ref])
    return dtype, shape, ref


class ConditionalAccumulator(ConditionalAccumulatorBase):
    """A conditional accumulator for aggregating gradients.

    Up-to-date gradients (i.e., time step at which gradient was computed is equal to the
    accumulator's time step) are added to the accumulator. Extraction of the average gradient
    is blocked until the required number of gradients has been accumulated.
    """

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator",
                 reduction_type="MEAN"):
        super().__init__(*_make_accumulator("ConditionalAccumulator", dtype, shape,
                                            shared_name, name, reduction_type))

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


SparseAccumulatorTakeGradientResult = collections.namedtuple(
    "SparseAccumulatorTakeGradient", ["indices", "values", "shape"])


class SparseConditionalAccumulator(ConditionalAccumulatorBase):
    """A conditional accumulator for aggregating sparse gradients (IndexedSlices).

    Up-to-date gradients are added to the accumulator; take_grad / take_indexed_slices_grad
    wait for the required number and return, per index, the average of the rows sent for it.
    """

    def __init__(self, dtype, shape=None, shared_name=None,
                 name="sparse_conditional_accumulator", reduction_type="MEAN"):
        super().__init__(*_make_accumulator("SparseConditionalAccumulator", dtype, shape,
                                            shared_name, name, reduction_type))

    def apply_indexed_slices_grad(self, grad, local_step=0, name=None):
        """Adds the IndexedSlices `grad` (computed at `local_step`), or drops it if stale."""
        return self.apply_grad(grad.indices, grad.values, grad.dense_shape,
                               local_step=local_step, name=name)

    def apply_grad(self, grad_indices, grad_values, grad_shape=None, local_step=0, name=None):
        """Adds rows `grad_values` at `grad_indices` (sorted) -- a gradient of dense shape
        `grad_shape`, if given, computed at `local_step` -- or drops it if it is stale."""
        from .math_ops import cast
        indices = cast(convert_to_tensor(grad_indices), _dtypes.int64)
        values = convert_to_tensor(grad_values, dtype=self._dtype)
        shape = cast(convert_to_tensor([] if grad_shape is None else grad_shape,
                                       dtype=None if grad_shape is not None else _dtypes.int64),
                     _dtypes.int64)
        return apply_op("SparseAccumulatorApplyGradient",
                        [self._accumulator_ref, _as_int64(local_step), indices, values, shape],
                        {"dtype": self._dtype, "has_known_shape": grad_shape is not None},
                        name=name or "SparseAccumulatorApplyGradient", output_dtypes=[])

    def take_grad(self, num_required, name=None):
        """Waits for `num_required` fresh gradients; returns (indices, values, shape) of their
        per-index average and adds 1 to the accumulator's global step."""
        n = convert_to_tensor(num_required, dtype=_dtypes.int32)
        out = apply_op("SparseAccumulatorTakeGradient", [self._accumulator_ref, n],
                       {"dtype": self._dtype}, name=name or "SparseAccumulatorTakeGradient",
                       output_dtypes=[_dtypes.int64, self._dtype, _dtypes.int64])
        return SparseAccumulatorTakeGradientResult(*out)

    def take_indexed_slices_grad(self, num_required, name=None):
        """take_grad, as IndexedSlices."""
        indices, values, shape = self.take_grad(num_required, name=name)
        return IndexedSlices(values=values, indices=indices, dense_shape=shape)


def _as_int64(value):
    from .math_ops import cast
    t = convert_to_tensor(value)
    return t if t.dtype.base_dtype == _dtypes.int64 else cast(t, _dtypes.int64)
