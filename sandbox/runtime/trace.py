"""The trace ring -- what travelled between tasks (the sandbox's counterpart of TF's tracing).

Every message a task sends or receives -- a step request, a graph piece, a tensor -- is recorded
in a bounded ring buffer of that task: kind, source task, destination task, tensor name, bytes,
step id, start and end time. Any client can read it over the wire; the traffic widget draws it.
Old records fall off the end, so tracing never grows memory.
"""
import collections
import threading
import time

__all__ = ["TraceRing", "TraceRecord", "UNTRACED_METHODS"]

# Requests that are not traffic of the training itself (reading the trace, health checks) and
# tensor messages (recorded per tensor by the sender and the receiver instead).
UNTRACED_METHODS = ("GetTrace", "GetTrafficTotals", "Ping", "Tensors")

TraceRecord = collections.namedtuple(
    "TraceRecord", "seq kind src dst tensor nbytes step_id start end")


class TraceRing:
    """A fixed-size, thread-safe ring of TraceRecords, numbered by a growing sequence.

    A message's tensors are kept together as they come (one entry per message) and made into
    TraceRecords only when somebody reads them: recording sits on every step's path, reading
    does not."""

    def __init__(self, capacity=10000):
        self.capacity = capacity
        self._messages = collections.deque()      # (first seq, kind, src, dst, tensors,
        self._count = 0                           #   step_id, start, end); records held
        self._next_seq = 1
        self._lock = threading.Lock()
        self._totals = collections.Counter()      # (kind, src, dst) -> bytes, never dropped

    def record(self, kind, src, dst, tensor="", nbytes=0, step_id=0, start=None, end=None):
        self.record_many(kind, src, dst, ((tensor, nbytes),), step_id, start, end)

    def record_many(self, kind, src, dst, tensors, step_id=0, start=None, end=None):
        """One record per (tensor name, bytes) of `tensors` (a list or tuple the caller no
        longer changes): the tensors of one message."""
        n = len(tensors)
        if not n:
            return
        end = time.time() if end is None else end
        start = end if start is None else start
        total = 0
        for _, nbytes in tensors:
            total += nbytes
        with self._lock:
            self._messages.append((self._next_seq, kind, src, dst, tensors, step_id, start,
                                   end))
            self._next_seq += n
            self._count += n
            if self._count > self.capacity:
                self._drop(self._count - self.capacity)
            self._totals[(kind, src, dst)] += int(total)

    def _drop(self, n):
        """Drops the n oldest records (under the lock)."""
        messages = self._messages
        while n:
            oldest = messages[0]
            k = len(oldest[4])                    # its tensors
            if k <= n:                            # (the usual case: whole messages go)
                messages.popleft()
                n -= k
                self._count -= k
            else:
                first, kind, src, dst, tensors, step_id, start, end = oldest
                messages[0] = (first + n, kind, src, dst, tensors[n:], step_id, start, end)
                self._count -= n
                n = 0

    def totals(self):
        """Bytes per (kind, source, destination) since the task started (not bounded by the
        ring's capacity: one counter per pair of tasks)."""
        with self._lock:
            return [[kind, src, dst, n] for (kind, src, dst), n in self._totals.items()]

    def since(self, seq=0, limit=None):
        """Records with a sequence number above `seq` (oldest first)."""
        with self._lock:
            messages = [m for m in self._messages if m[0] + len(m[4]) - 1 > seq]
        out = []
        for first, kind, src, dst, tensors, step_id, start, end in messages:
            for i, (tensor, nbytes) in enumerate(tensors):
                if first + i > seq:
                    out.append(TraceRecord(first + i, kind, src, dst, tensor, int(nbytes),
                                           int(step_id), start, end))
        return out if limit is None else out[-limit:]

    def clear(self):
        with self._lock:
            self._messages.clear()
            self._count = 0

    def __len__(self):
        return self._count
