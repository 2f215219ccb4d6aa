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

PaddingFIFOQueue (padding_fifo_queue.cc) takes shapes with unknown dimensions; its
dequeue_many / dequeue_up_to pad each component to the largest in the batch (zeros, b"" for
strings). PriorityQueue (priority_queue.cc) holds (int64 priority, ...) elements and gives the
smallest priority first, equal priorities in the order of the std::priority_queue heap TF
uses; like TF's, its dequeue_up_to on a closed queue fails when it cannot be filled (TF also
loses the elements it took; the sandbox leaves them in the queue).
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

__all__ = ["FIFOQueue", "RandomShuffleQueue", "PaddingFIFOQueue", "PriorityQueue", "QueueBase"]



class _Queue:
    """The state of one queue: a list of elements (each a tuple of arrays) and a condition."""

    kind = None         # None: FIFOQueue or RandomShuffleQueue; else the class's name
    pads = False        # PaddingFIFOQueue: dequeue_many pads the elements to one shape

    def __init__(self, name, capacity, dtypes, shapes, owner, min_after_dequeue=0,
                 shuffle=False, seed=0):
        self.name = name
        self.capacity = capacity if capacity and capacity > 0 else 0     # <= 0: unbounded
        self.dtypes = dtypes
        self.shapes = shapes
        self.owner = owner
        self.min_after_dequeue = min_after_dequeue
        self.rng = np.random.default_rng(seed or None) if shuffle else None
        self.items = [] if self.kind == "PriorityQueue" else collections.deque()
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
                self._put(element)
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
            if len(attempt.taken) < attempt.need and \
                    not (up_to and attempt.taken and self.kind != "PriorityQueue"):
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
            if self.closed and (not head.up_to or self.kind == "PriorityQueue") and \
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

    def _put(self, element):
        self.items.append(element)

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
    return q.kind if q.kind else "RandomShuffleQueue" if q.rng is not None else "FIFOQueue"


class _PriorityQueue(_Queue):
    """A PriorityQueue's state: a binary heap ordered by the int64 first component, smallest
    first. It is libstdc++'s std::priority_queue (push_heap/pop_heap) that TF's
    priority_queue.cc uses, step for step, so elements of equal priority come out in the
    order TF gives them (neither first-in first-out nor last-in first-out)."""

    kind = "PriorityQueue"

    def _put(self, element):                 # std::push_heap
        heap = self.items
        heap.append(element)
        self._sift_up(len(heap) - 1, 0, element)

    def _sift_up(self, hole, top, element):  # libstdc++ __push_heap
        heap = self.items
        parent = (hole - 1) // 2
        while hole > top and heap[parent][0] > element[0]:
            heap[hole] = heap[parent]
            hole = parent
            parent = (hole - 1) // 2
        heap[hole] = element

    def _take_one(self):                     # std::pop_heap, then pop_back
        heap = self.items
        top = heap[0]
        if len(heap) > 1:
            last = heap[-1]
            heap[-1] = top
            n, hole, child = len(heap) - 1, 0, 0     # libstdc++ __adjust_heap
            while child < (n - 1) // 2:
                child = 2 * (child + 1)
                if heap[child][0] > heap[child - 1][0]:
                    child -= 1
                heap[hole] = heap[child]
                hole = child
            if n % 2 == 0 and child == (n - 2) // 2:
                child = 2 * (child + 1)
                heap[hole] = heap[child - 1]
                hole = child - 1
            self._sift_up(hole, 0, last)
        heap.pop()
        return top

    def _give_back(self, elements):
        for element in elements:
            self._put(element)


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
        cls = _Queue
        if ctx.op_type == "PaddingFIFOQueueV2":
            cls = _PaddingFIFOQueue
        elif ctx.op_type == "PriorityQueueV2":      # the priority is component 0
            cls = _PriorityQueue
            component_types = [_dtypes.int64] + list(component_types)
            shapes = [TensorShape([])] + list(shapes)
        return ctx.resources.lookup_or_create(
            container, name, lambda: cls(name, capacity, component_types, shapes,
                                         ctx.resources.owner, min_after_dequeue, shuffle,
                                         seed))


class RandomShuffleQueueV2(FIFOQueueV2):
    """Like FIFOQueueV2; dequeues a random element, keeping min_after_dequeue in reserve."""


class PaddingFIFOQueueV2(FIFOQueueV2):
    """Like FIFOQueueV2; shapes may have unknown dimensions, which dequeue_many pads."""


class PriorityQueueV2(FIFOQueueV2):
    """Like FIFOQueueV2; elements are (int64 priority, ...), dequeued smallest first."""


class _PaddingFIFOQueue(_Queue):
    kind = "PaddingFIFOQueue"
    pads = True


def _pad_and_stack(values, dtype):
    """Stacks arrays of one rank, each padded at the end of every dimension to the largest
    in the batch: with zeros, b"" for strings, False for bools (padding_fifo_queue.cc)."""
    if not values:
        return np.zeros([0], dtype.as_numpy_dtype)
    shape = [max(v.shape[d] for v in values) for d in range(values[0].ndim)]
    fill = b"" if dtype.base_dtype == _dtypes.string else 0
    out = np.full([len(values)] + shape, fill, dtype=values[0].dtype)
    for i, v in enumerate(values):
        out[(i,) + tuple(slice(0, n) for n in v.shape)] = v
    return out


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
        if queue.pads:
            return tuple(_pad_and_stack([e[i] for e in elements], d)
                         for i, d in enumerate(queue.dtypes))
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

    def _check_static_shapes(self, comps, many):
        """As TF's enqueue does at graph construction: each component's static shape (less
        its first dimension for enqueue_many) must be compatible with the queue's shape."""
        for t, shape in zip(comps, self._shapes or []):
            got = t.get_shape()
            if many and got.ndims is not None:
                if got.ndims == 0:
                    raise ValueError(f"Shape {got} must have rank at least 1 (enqueue_many "
                                     f"into queue {self._name!r}).")
                got = got[1:]
            if shape is not None and not got.is_compatible_with(shape):
                raise ValueError(f"Shapes {got} and {shape} are incompatible (queue "
                                 f"{self._name!r} holds elements of shapes "
                                 f"{[str(s) for s in self._shapes]}).")

    def enqueue(self, vals, name=None):
        comps = self._components(vals)
        self._check_static_shapes(comps, many=False)
        return apply_op("QueueEnqueueV2", [self._queue_ref] + comps,
                        {"Tcomponents": list(self._dtypes)}, name=name or "QueueEnqueueV2",
                        output_dtypes=[])

    def enqueue_many(self, vals, name=None):
        comps = self._components(vals)
        self._check_static_shapes(comps, many=True)
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


class PaddingFIFOQueue(QueueBase):
    """A FIFOQueue whose shapes may have unknown dimensions (None): elements may differ in
    those, and dequeue_many / dequeue_up_to pad every component to the largest in the batch
    (zeros; b"" for strings). The rank of each shape must be known."""

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None,
                 name="padding_fifo_queue"):
        if not isinstance(shapes, (list, tuple)) or not shapes or \
                any(s is None or isinstance(s, int) for s in shapes):
            raise ValueError("When providing partial shapes, a list of shapes must be provided.")
        shapes = [TensorShape(s) for s in shapes]
        if any(s.dims is None for s in shapes):
            raise ValueError(f"All shapes must have a defined rank: {shapes}")
        n_types = len(dtypes) if isinstance(dtypes, (list, tuple)) else 1
        if n_types != len(shapes):
            raise ValueError(f"Shapes must be provided for all components, but received "
                             f"{n_types} dtypes and {len(shapes)} shapes.")
        super().__init__(*_queue_op("PaddingFIFOQueueV2", capacity, dtypes, shapes, names,
                                    shared_name, name, {}))


class PriorityQueue(QueueBase):
    """A queue that dequeues the element of smallest priority first. Every element is
    (priority, *components): the priority an int64 scalar, the components of `types` and
    `shapes` (fully defined). Equal priorities come out in TF's heap order, not in the order
    they went in. dtypes and shapes include the priority's (int64, [])."""

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None,
                 name="priority_queue"):
        types = [_dtypes.as_dtype(t) for t in (types if isinstance(types, (list, tuple))
                                              else [types])]
        if shapes is None:
            raise TypeError("Expected list for 'shapes' argument to 'priority_queue_v2' Op, "
                            "not None.")
        if isinstance(shapes, TensorShape) or (
                shapes and all(s is None or isinstance(s, int) for s in shapes)):
            shapes = [shapes]
        shapes = [TensorShape(s) for s in shapes]
        if any(not s.is_fully_defined() for s in shapes):
            raise ValueError(f"All shapes must be fully defined: {shapes}")
        if len(shapes) != len(types):
            raise ValueError(f"Queue {name!r}: {len(types)} types but {len(shapes)} shapes.")
        _, _, _, ref = _queue_op("PriorityQueueV2", capacity, types, shapes, None,
                                 shared_name, name, {})
        dtypes = [_dtypes.int64] + types
        if names is not None and len(names) != len(dtypes):
            raise ValueError(f"Queue {name!r}: {len(dtypes)} dtypes (the priority's first) but "
                             f"{len(names)} names.")
        super().__init__(dtypes, [TensorShape([])] + shapes, names, ref)
