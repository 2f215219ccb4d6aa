"""The trace ring -- what travelled between tasks (the sandbox's counterpart of TF's tracing).

Every message a task sends or receives -- a step request, a graph piece, a tensor -- is recorded
in a bounded ring buffer of that task: kind, source task, destination task, tensor name, bytes,
step id, start and end time. Any client can read it over the wire; the traffic widget draws it.
Old records fall off the end, so tracing never grows memory.
"""
import collections
import itertools
import threading
import time

__all__ = ["TraceRing", "TraceRecord", "UNTRACED_METHODS"]

# Requests that are not traffic of the training itself (reading the trace, health checks) and
# tensor messages (recorded per tensor by the sender and the receiver instead).
UNTRACED_METHODS = ("GetTrace", "GetTrafficTotals", "Ping", "Tensors")

TraceRecord = collections.namedtuple(
    "TraceRecord", "seq kind src dst tensor nbytes step_id start end")


class TraceRing:
    """A fixed-size, thread-safe ring of TraceRecords, numbered by a growing sequence."""

    def __init__(self, capacity=10000):
        self._records = collections.deque(maxlen=capacity)
        self._seq = itertools.count(1)
        self._lock = threading.Lock()
        self._totals = collections.Counter()      # (kind, src, dst) -> bytes, never dropped

    def record(self, kind, src, dst, tensor="", nbytes=0, step_id=0, start=None, end=None):
        self.record_many(kind, src, dst, ((tensor, nbytes),), step_id, start, end)

    def record_many(self, kind, src, dst, tensors, step_id=0, start=None, end=None):
        """One record per (tensor name, bytes) of `tensors`: the tensors of one message."""
        end = time.time() if end is None else end
        start = end if start is None else start
        step_id, total, seq, append = int(step_id), None, self._seq, self._records.append
        with self._lock:
            for tensor, nbytes in tensors:
                nbytes = int(nbytes)
                append(TraceRecord(next(seq), kind, src, dst, tensor, nbytes, step_id, start,
                                   end))
                total = nbytes if total is None else total + nbytes
            if total is not None:
                self._totals[(kind, src, dst)] += total

    def totals(self):
        """Bytes per (kind, source, destination) since the task started (not bounded by the
        ring's capacity: one counter per pair of tasks)."""
        with self._lock:
            return [[kind, src, dst, n] for (kind, src, dst), n in self._totals.items()]

    def since(self, seq=0, limit=None):
        """Records with a sequence number above `seq` (oldest first)."""
        with self._lock:
            out = [r for r in self._records if r.seq > seq]
        return out if limit is None else out[-limit:]

    def clear(self):
        with self._lock:
            self._records.clear()

    def __len__(self):
        return len(self._records)
