"""Queues -- mirrors TensorFlow's FIFOQueue and RandomShuffleQueue (ops/data_flow_ops.py,
core/kernels/fifo_queue.cc).

A queue is shared state, like a variable: the graph only names it; the queue itself lives in
the resource manager of the task its op is placed on. So a queue on /job:ps/task:0 is one queue
for every worker that builds the same graph -- which is how TF's SyncReplicasOptimizer hands
out tokens, and how input pipelines pass batches between threads.

`dequeue` on an empty queue *waits* -- on the task that owns the queue -- until an element
arrives, the queue is closed (OutOfRangeError), or the step is cancelled or times out. While it
waits it says so every 10 s. Waiting dequeues are served first come, first served, as TF's
queues serve their pending attempts in order: a dequeue_many at the head of the line gets its
elements before a later dequeue gets any, and a worker back for its next token cannot take the
one a slower worker has been waiting for. The thread that enqueues hands the elements over, so
the three workers waiting for their tokens wake up at once, each with its token.
"""
import collections
import threading
import time

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape

__all__ = ["FIFOQueue", "RandomShuffleQueue", "QueueBase"]



class _Queue:
    """The state of one queue: a list of elements (each a tuple of arrays) and a condition."""

    def __init__(self, name, capacity, dtypes, shapes, owner, min_after_dequeue=0,
                 shuffle=False, seed=0):
        self.name = name
        self.capacity = capacity if capacity and capacity > 0 else 0     # <= 0: unbounded
        self.dtypes = dtypes
        self.shapes = shapes
        self.owner = owner
        self.min_after_dequeue = min_after_dequeue
        self.rng = np.random.default_rng(seed or None) if shuffle else None
        self.items = collections.deque()
        self.closed = False
        self.cancel_pending = False
        self.cond = threading.Condition()
        self.line = collections.deque()          # waiting dequeues (_Attempt), in order

    def read(self, node_name=None):
        return self

    def _wait(self, ready, step, node, what):
        started = last = time.monotonic()
        while not ready():
            if step is not None:
                step.check(node)
                left = step.time_left()
            else:
                left = None
            self.cond.wait(0.25 if left is None else max(0.001, min(0.25, left)))
            now = time.monotonic()
            if now - last >= errors.WAIT_LOG_EVERY:
                last = now
                print(f"[{self.owner}] {node} still waiting to {what} queue {self.name!r} "
                      f"({len(self.items)} of {_capacity_text(self.capacity)} elements, "
                      f"{now - started:.0f} s so far)", flush=True)

    def enqueue(self, elements, step, node):
        with self.cond:
            if self.closed:
                raise errors.CancelledError(node, None, f"{_kind(self)} {self.name!r} is "
                                            "closed: no more elements can be enqueued.")
            for element in elements:
                # An enqueue already waiting when the queue closes keeps waiting for room,
                # as in TF -- unless the queue was closed with cancel_pending_enqueues=True.
                self._wait(lambda: self.cancel_pending or not self.capacity or
                           len(self.items) < self.capacity, step, node, "enqueue into")
                if self.cancel_pending:
                    raise errors.CancelledError(node, None, f"Enqueue to {_kind(self)} "
                                                f"{self.name!r} was cancelled (the queue was "
                                                "closed with cancel_pending_enqueues=True).")
                self.items.append(element)
                self._serve()

    def dequeue(self, n, step, node, up_to=False):
        """Takes `n` elements, collecting them as they arrive (n may exceed the capacity)."""
        attempt = _Attempt(max(n, 1), up_to)
        with self.cond:
            self.line.append(attempt)
            self._serve()
            try:
                self._wait(lambda: attempt.done, step, node, "dequeue from")
            except BaseException:                  # cancelled or timed out
                if not attempt.done:
                    self.line.remove(attempt)
                self._give_back(attempt.taken)     # what it took goes back to the front
                self._serve()                      # to those behind it
                raise
            if len(attempt.taken) < attempt.need and not (up_to and attempt.taken):
                raise errors.OutOfRangeError(
                    node, None, f"{_kind(self)} {self.name!r} is closed and has insufficient "
                    f"elements (requested {attempt.need}, current size {len(self.items)})")
            return attempt.taken

    def _serve(self):
        """Hands elements to the waiting dequeues, the first in line first, as TF's queues
        do (QueueBase::FlushUnlocked): whoever changes the queue serves the line, so a
        dequeue wakes up with its elements in hand. A dequeue_many that cannot be filled
        from a closed queue gets nothing (dequeue_up_to gets what is there)."""
        reserve = self.min_after_dequeue if self.rng is not None and not self.closed else 0
        changed = False
        while self.line:
            head = self.line[0]
            if self.closed and not head.up_to and \
                    len(head.taken) + len(self.items) < head.need:
                self._give_back(head.taken)        # it fails, and takes nothing
                head.taken = []
            else:
                while len(head.taken) < head.need and len(self.items) > reserve:
                    head.taken.append(self._take_one())
                    changed = True
                if len(head.taken) < head.need and not self.closed:
                    break                          # the head waits; nobody passes it
            head.done = True
            self.line.popleft()
            changed = True
        if changed:
            self.cond.notify_all()                 # served dequeues, and room for enqueues

    def _give_back(self, elements):
        for element in reversed(elements):
            self.items.appendleft(element)

    def _take_one(self):
        if self.rng is None:
            return self.items.popleft()
        index = int(self.rng.integers(len(self.items)))
        self.items.rotate(-index)
        element = self.items.popleft()
        self.items.rotate(index)
        return element

    def reopen(self):
        """Empties the queue and opens it again (used by SyncReplicasOptimizer's new chief)."""
        with self.cond:
            self.items.clear()
            self.closed = False
            self.cancel_pending = False
            self.cond.notify_all()

    def close(self, cancel_pending_enqueues=False):
        with self.cond:
            self.closed = True
            self.cancel_pending = self.cancel_pending or bool(cancel_pending_enqueues)
            self._serve()
            self.cond.notify_all()


class _Attempt:
    """A waiting dequeue: how many elements it needs, and those it has been handed."""

    __slots__ = ("need", "up_to", "taken", "done")

    def __init__(self, need, up_to):
        self.need = need
        self.up_to = up_to
        self.taken = []
        self.done = False


def _capacity_text(capacity):
    return str(capacity) if capacity and 0 < capacity < 2**31 - 1 else "unbounded"


def _kind(q):
    return "RandomShuffleQueue" if q.rng is not None else "FIFOQueue"


# -- ops --------------------------------------------------------------------------------

class FIFOQueueV2(OpDef):
    """Outputs a reference to the queue stored on this task (created on first use)."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)
    shape = scalar_shape

    def kernel(ctx, step, component_types, shapes, capacity, container, shared_name,
               min_after_dequeue=0, seed=0):
        name = shared_name or ctx.name
        shuffle = ctx.op_type == "RandomShuffleQueueV2"
        return ctx.resources.lookup_or_create(
            container, name, lambda: _Queue(name, capacity, component_types, shapes,
                                            ctx.resources.owner, min_after_dequeue, shuffle,
                                            seed))


class RandomShuffleQueueV2(FIFOQueueV2):
    """Like FIFOQueueV2; dequeues a random element, keeping min_after_dequeue in reserve."""


def _check_component(value, dtype, shape, node, queue):
    value = np.asarray(value, dtype=dtype.as_numpy_dtype)
    if shape is not None and shape.dims is not None and not shape.is_compatible_with(value.shape):
        raise errors.InvalidArgumentError(node, None, f"Shape mismatch in tuple component: "
                                          f"expected {shape}, got {list(value.shape)} "
                                          f"(queue {queue.name!r}).")
    return value


class QueueEnqueueV2(OpDef):
    """Adds one element (a tuple of tensors) to the queue; waits while it is full."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(ctx, step, queue, *components, Tcomponents=None):
        element = tuple(_check_component(c, d, s, ctx.name, queue)
                        for c, d, s in zip(components, queue.dtypes, _shapes(queue)))
        queue.enqueue([element], step, ctx.name)


class QueueEnqueueManyV2(OpDef):
    """Adds the slices along dimension 0 of the components, one element each."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(ctx, step, queue, *components, Tcomponents=None):
        arrays = [np.asarray(c, dtype=d.as_numpy_dtype) for c, d in zip(components, queue.dtypes)]
        n = arrays[0].shape[0] if arrays and arrays[0].ndim else 0
        elements = [tuple(_check_component(a[i], d, s, ctx.name, queue)
                          for a, d, s in zip(arrays, queue.dtypes, _shapes(queue)))
                    for i in range(n)]
        queue.enqueue(elements, step, ctx.name)


class QueueDequeueV2(OpDef):
    """Removes one element; waits while the queue is empty."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    multi_output = True

    def kernel(ctx, step, queue, component_types=None, timeout_ms=-1):
        (element,) = queue.dequeue(1, step, ctx.name)
        return element


class QueueDequeueManyV2(OpDef):
    """Removes n elements and stacks them along a new dimension 0."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    multi_output = True

    def kernel(ctx, step, queue, n, component_types=None, timeout_ms=-1, up_to=False):
        elements = queue.dequeue(int(n), step, ctx.name, up_to=up_to)
        return tuple(np.stack([e[i] for e in elements]) for i in range(len(queue.dtypes)))


class QueueSizeV2(OpDef):
    """The number of elements in the queue."""
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    shape = scalar_shape

    def kernel(queue):
        return np.int32(len(queue.items))


class QueueCloseV2(OpDef):
    """Closes the queue: no more enqueues; dequeues drain what is left, then fail."""
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(queue, cancel_pending_enqueues=False):
        queue.close(cancel_pending_enqueues)


class QueueIsClosedV2(OpDef):
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    shape = scalar_shape

    def kernel(queue):
        return np.bool_(queue.closed)


def _shapes(queue):
    return queue.shapes if queue.shapes else [None] * len(queue.dtypes)


# -- the Python classes ------------------------------------------------------------------

class QueueBase:
    """The TF-1 queue API shared by FIFOQueue and RandomShuffleQueue."""

    def __init__(self, dtypes, shapes, names, queue_ref):
        self._dtypes = dtypes
        self._shapes = shapes
        self._names = names
        self._queue_ref = queue_ref
        self._name = queue_ref.op.name

    @property
    def queue_ref(self):
        return self._queue_ref

    @property
    def name(self):
        return self._name

    @property
    def dtypes(self):
        return list(self._dtypes)

    @property
    def shapes(self):
        return list(self._shapes)

    @property
    def names(self):
        return self._names

    def _components(self, vals):
        if self._names is not None and isinstance(vals, dict):
            vals = [vals[n] for n in self._names]
        if not isinstance(vals, (list, tuple)):
            vals = [vals]
        if len(vals) != len(self._dtypes):
            raise ValueError(f"Queue {self._name!r} holds {len(self._dtypes)} components per "
                             f"element, but {len(vals)} were given.")
        return [convert_to_tensor(v, dtype=d) for v, d in zip(vals, self._dtypes)]

    def enqueue(self, vals, name=None):
        comps = self._components(vals)
        return apply_op("QueueEnqueueV2", [self._queue_ref] + comps,
                        {"Tcomponents": list(self._dtypes)}, name=name or "QueueEnqueueV2",
                        output_dtypes=[])

    def enqueue_many(self, vals, name=None):
        comps = self._components(vals)
        return apply_op("QueueEnqueueManyV2", [self._queue_ref] + comps,
                        {"Tcomponents": list(self._dtypes)}, name=name or "QueueEnqueueManyV2",
                        output_dtypes=[])

    def _pack(self, outs, batch=None):
        outs = outs if isinstance(outs, list) else [outs]
        for t, shape in zip(outs, self._shapes or [None] * len(outs)):
            if shape is not None:
                t.set_shape(TensorShape([batch]).concatenate(shape) if batch is not False
                            else shape)
        if self._names is not None:
            return dict(zip(self._names, outs))
        return outs[0] if len(outs) == 1 else outs

    def dequeue(self, name=None):
        outs = apply_op("QueueDequeueV2", [self._queue_ref],
                        {"component_types": list(self._dtypes), "timeout_ms": -1},
                        name=name or "QueueDequeueV2", output_dtypes=list(self._dtypes))
        return self._pack(outs, batch=False)

    def dequeue_many(self, n, name=None):
        n_t = convert_to_tensor(n, dtype=_dtypes.int32)
        outs = apply_op("QueueDequeueManyV2", [self._queue_ref, n_t],
                        {"component_types": list(self._dtypes), "timeout_ms": -1},
                        name=name or "QueueDequeueManyV2", output_dtypes=list(self._dtypes))
        return self._pack(outs, batch=n if isinstance(n, int) else None)

    def dequeue_up_to(self, n, name=None):
        n_t = convert_to_tensor(n, dtype=_dtypes.int32)
        outs = apply_op("QueueDequeueManyV2", [self._queue_ref, n_t],
                        {"component_types": list(self._dtypes), "timeout_ms": -1,
                         "up_to": True},
                        name=name or "QueueDequeueUpToV2", output_dtypes=list(self._dtypes))
        return self._pack(outs, batch=None)

    def size(self, name=None):
        return apply_op("QueueSizeV2", [self._queue_ref], {}, name=name or "QueueSizeV2",
                        output_dtypes=[_dtypes.int32])

    def close(self, cancel_pending_enqueues=False, name=None):
        return apply_op("QueueCloseV2", [self._queue_ref],
                        {"cancel_pending_enqueues": cancel_pending_enqueues},
                        name=name or "QueueCloseV2", output_dtypes=[])

    def is_closed(self, name=None):
        return apply_op("QueueIsClosedV2", [self._queue_ref], {},
                        name=name or "QueueIsClosedV2", output_dtypes=[_dtypes.bool])


def _queue_op(op_type, capacity, dtypes, shapes, names, shared_name, name, extra):
    dtypes = [_dtypes.as_dtype(d) for d in (dtypes if isinstance(dtypes, (list, tuple))
                                            else [dtypes])]
    if shapes is not None:
        one_shape = isinstance(shapes, TensorShape) or not shapes or \
            not isinstance(shapes[0], (list, tuple, TensorShape))
        shapes = [TensorShape(shapes)] if one_shape else [TensorShape(s) for s in shapes]
        if len(shapes) != len(dtypes):
            raise ValueError(f"Queue {name!r}: {len(dtypes)} dtypes but {len(shapes)} shapes.")
    if names is not None and len(names) != len(dtypes):
        raise ValueError(f"Queue {name!r}: {len(dtypes)} dtypes but {len(names)} names.")
    g = get_default_graph()
    ref = apply_op(op_type, [], {"component_types": dtypes, "shapes": shapes or [],
                                 "capacity": int(capacity), "container": "",
                                 "shared_name": shared_name or "", **extra},
                   name=name, output_dtypes=[_dtypes.string._as_ref], graph=g)
    return dtypes, shapes or [], names, ref


class FIFOQueue(QueueBase):
    """A queue that dequeues elements in first-in first-out order."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
                 name="fifo_queue"):
        super().__init__(*_queue_op("FIFOQueueV2", capacity, dtypes, shapes, names,
                                    shared_name, name, {}))


class RandomShuffleQueue(QueueBase):
    """A queue that dequeues elements in random order, keeping min_after_dequeue in reserve
    (until it is closed)."""

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None,
                 shared_name=None, name="random_shuffle_queue"):
        if min_after_dequeue >= capacity:
            raise ValueError(f"min_after_dequeue ({min_after_dequeue}) must be smaller than "
                             f"capacity ({capacity}).")
        super().__init__(*_queue_op("RandomShuffleQueueV2", capacity, dtypes, shapes, names,
                                    shared_name, name,
                                    {"min_after_dequeue": int(min_after_dequeue),
                                     "seed": 0 if seed is None else int(seed)}))
