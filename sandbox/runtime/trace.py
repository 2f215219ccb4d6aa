"""The trace ring -- what travelled between tasks (the sandbox's counterpart of TF's tracing).

Every message a task sends or receives -- a step request, a graph piece, a tensor -- is recorded
in a bounded ring buffer of that task: kind, source task, destination task, tensor name, bytes,
step id, start and end time. Any client can read it over the wire; the traffic widget draws it.
Old records fall off the end, so tracing never grows memory.

Beside the ring, running totals per (kind, source, destination, tensor) -- bytes, tensors and
messages since the task started -- are never dropped: a reader that samples them twice knows
exactly how many bytes and messages of each kind travelled in between, however fast the ring
turned over. (A program that keeps inventing tensor names cannot grow them without bound
either: past MAX_TOTAL_ROWS rows, new names are counted under OTHER_TENSORS.)
"""
import collections
import threading
import time

__all__ = ["TraceRing", "TraceRecord", "UNTRACED_METHODS", "MAX_TOTAL_ROWS", "OTHER_TENSORS"]

# Requests that are not traffic of the training itself (reading the trace, health checks) and
# tensor messages (recorded per tensor by the sender and the receiver instead).
UNTRACED_METHODS = ("GetTrace", "GetTrafficTotals", "GetPlacement", "ListResources", "Observe",
                    "Ping", "Tensors")

TraceRecord = collections.namedtuple(
    "TraceRecord", "seq kind src dst tensor nbytes step_id start end")

MAX_TOTAL_ROWS = 4096
OTHER_TENSORS = "(other tensors)"


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
        self._totals = {}                         # (kind, src, dst, tensor) ->
                                                  #   [bytes, tensors, messages], never dropped

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
        totals = self._totals
        with self._lock:
            self._messages.append((self._next_seq, kind, src, dst, tensors, step_id, start,
                                   end))
            self._next_seq += n
            self._count += n
            if self._count > self.capacity:
                self._drop(self._count - self.capacity)
            biggest, most = None, -1
            for tensor, nbytes in tensors:
                row = totals.get((kind, src, dst, tensor))
                if row is None:
                    row = self._new_total_row(kind, src, dst, tensor)
                row[0] += int(nbytes)
                row[1] += 1
                if nbytes > most:
                    biggest, most = row, nbytes
            biggest[2] += 1                       # a message counts once, under its biggest

    def _new_total_row(self, kind, src, dst, tensor):
        """(under the lock) The totals row of a tensor seen for the first time."""
        key = (kind, src, dst, tensor)
        if len(self._totals) >= MAX_TOTAL_ROWS:
            key = (kind, src, dst, OTHER_TENSORS)
            row = self._totals.get(key)
            if row is not None:
                return row
        row = self._totals[key] = [0, 0, 0]
        return row

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
        by_pair = collections.Counter()
        for kind, src, dst, _, nbytes, _, _ in self.tensor_totals():
            by_pair[(kind, src, dst)] += nbytes
        return [[kind, src, dst, n] for (kind, src, dst), n in by_pair.items()]

    def tensor_totals(self):
        """[kind, source, destination, tensor, bytes, tensors, messages] since the task
        started: `tensors` counts every time the tensor travelled, `messages` the messages
        it was the biggest tensor of (so summing `messages` counts each message once, under
        what it mostly carried: the gradients, not the learning rate sent beside them)."""
        with self._lock:
            return [[kind, src, dst, tensor, row[0], row[1], row[2]]
                    for (kind, src, dst, tensor), row in self._totals.items()]

    def since(self, seq=0, limit=None):
        """Records with a sequence number above `seq` (oldest first); only the newest `limit`
        of them if `limit` is given (found from the newest end: the cost is what is returned,
        not what is in the ring)."""
        with self._lock:
            if limit is None:
                messages = [m for m in self._messages if m[0] + len(m[4]) - 1 > seq]
            else:
                messages, held = [], 0
                for m in reversed(self._messages):
                    if m[0] + len(m[4]) - 1 <= seq or held >= limit:
                        break
                    messages.append(m)
                    held += len(m[4])
                messages.reverse()
        out = []
        for first, kind, src, dst, tensors, step_id, start, end in messages:
            for i, (tensor, nbytes) in enumerate(tensors):
                if first + i > seq:
                    out.append(TraceRecord(first + i, kind, src, dst, tensor, int(nbytes),
                                           int(step_id), start, end))
        return out if limit is None else out[-limit:]

    @property
    def last_seq(self):
        """The sequence number of the newest record (0 if none yet)."""
        with self._lock:
            return self._next_seq - 1

    def clear(self):
        """Empties the ring (the totals keep counting)."""
        with self._lock:
            self._messages.clear()
            self._count = 0

    def __len__(self):
        return self._count
