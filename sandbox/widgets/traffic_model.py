"""The traffic view's model -- who sent what to whom, how much, and when.

Built only from what the tasks measured (their trace rings, runtime/task_server.py, read over
the wire by cluster_watch.ClusterWatch), never from what the program is expected to do:

  arrows      for every (sender, receiver, kind of traffic): bytes/s and messages/s over the
              last `window` seconds, from the differences of the tasks' running totals --
              exact, however fast the trace rings turn over. A sender's totals say what it
              sent; a request (RunGraph...) is counted by the task that served it.
  swim lanes  a space-time diagram of the last steps (as ShiViz draws a distributed run):
              one lane per task, one arrow per message from the moment its sender sent it to
              the moment its receiver had it -- the send record of one task paired with the
              recv record of the other, so the arrow's slope is the measured latency.
              Requests a task served (RunGraph, RunStep...) and the delays the sandbox adds on
              purpose (a straggler's extra time, a slow link's wait) are spans on the lane.
  history     messages and samples of the totals are kept for a bounded time, so a paused
              view can be scrubbed back. Old samples are thinned out (every other one
              dropped) and old messages fall off the end: the model never grows.
  coverage    a busy ps records thousands of messages a second, more than a view can read
              and draw; the watcher reads the newest few hundred of each task at each look.
              So each lane knows which stretches of time its records cover, and the views
              shade the rest ("not read"): a lane never looks idle when it was only unread.

Times are seconds since `origin` (a time.time() value), so that the numbers stay small.
"""
import array
import collections
import statistics

from .cluster_watch import short_name
from .palette import DEAD_COLOR, KIND_COLORS, job_color
from .traffic_kinds import KINDS, NOT_TRAFFIC, job_of, kind_of

__all__ = ["TrafficModel", "Message", "Span"]

KIND_LABELS = {"pull": "parameter pulls (ps \u2192 worker)",
               "push": "gradient pushes (worker \u2192 ps)",
               "sync": "sync tokens and accumulators",
               "control": "control (requests, control edges)",
               "other": "other (initial values, activations...)"}

Message = collections.namedtuple(
    "Message", "src dst kind tensor nbytes step_id step t_send t_recv")
Message.__doc__ = """One tensor that crossed between two tasks: sent at t_send by src (its
send record), received at t_recv by dst (its recv record; None if the receiver's record was
not seen -- the receiver died, or its ring turned over before it was read). `step_id` is the
runtime's (a random 62-bit number, as in TF), `step` a small number for it (1, 2, 3... in
the order this model first saw the steps)."""

Span = collections.namedtuple("Span", "task kind peer label step_id step t0 t1")
Span.__doc__ = """Something a task spent time on: a request it served (kind = the method,
peer = the caller), a straggler's extra time ("straggle"), or a slow link's wait
("link_delay", peer = the task at the other end)."""


class TrafficModel:
    """See the module docstring. `tasks`: the cluster's tasks (full names, or
    cluster_watch.TaskInfo); feed it with `update(observations)`."""

    def __init__(self, tasks, window=1.0, max_messages=6000, max_spans=3000,
                 max_samples=600, match_timeout=3.0, origin=None):
        self.tasks = [getattr(t, "name", t) for t in tasks]
        self.states = {t: "alive" for t in self.tasks}
        self.window = float(window)
        self.origin = origin
        self.match_timeout = match_timeout
        self.messages = collections.deque(maxlen=max_messages)
        self.spans = collections.deque(maxlen=max_spans)
        self.coverage = {t: collections.deque(maxlen=600) for t in self.tasks}
        self._kind_cache = {}
        self.max_samples = max_samples
        self._keys = []                 # (src, dst, kind), in the order first seen
        self._key_index = {}
        self._cumulative = array.array("d")           # bytes, messages of each key
        self._tensor_bytes = {}         # (src, dst, kind) -> {tensor: bytes}
        self._last_rows = {}            # task -> {(kind, src, dst, tensor): (bytes, messages)}
        self._sample_times = []
        self._samples = []              # array('d') of cumulative values, per sample time
        self._sends = {}                # (step_id, src, dst, tensor) -> send record
        self._recvs = {}                # ... -> recv record
        self._step_numbers = collections.OrderedDict()    # step_id -> 1, 2, 3... (bounded)
        self._next_step_number = 1
        self.updates = 0

    # -- feeding ------------------------------------------------------------------------
    def update(self, observations):
        """Takes one round of ClusterWatch.observe()."""
        if not observations:
            return
        now = max(o.time for o in observations)
        if self.origin is None:
            self.origin = now
        for o in observations:
            if o.task in self.states:
                self.states[o.task] = o.state
            if o.totals is not None:
                self._add_totals(o.task, o.totals, o.restarted)
            if o.state == "alive":
                self._cover(o)
            for r in o.records:
                self._add_record(o.task, r)
        self._match_expired(now)
        self._sample(now)
        self.updates += 1

    def _t(self, when):
        return when - self.origin

    def _cover(self, o):
        """Notes the stretch of time the task's records now cover: up to its newest record
        (or to now, if nothing new happened there), from where the last read ended -- or,
        when records were skipped, from the oldest record read this time."""
        spans = self.coverage.setdefault(o.task, collections.deque(maxlen=600))
        end = self._t(o.time if not o.records else max(r.end for r in o.records))
        if o.records and (o.gap or o.restarted or not spans):
            spans.append([self._t(o.records[0].start), end])
        elif spans:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([end, end])

    def _kind(self, record_kind, src, dst, tensor):
        key = (record_kind, src, dst, tensor)
        kind = self._kind_cache.get(key, "?")
        if kind == "?":
            if len(self._kind_cache) > 20000:
                self._kind_cache.clear()
            kind = self._kind_cache[key] = kind_of(record_kind, src, dst, tensor)
        return kind

    def _add_totals(self, task, rows, restarted):
        """Adds what `task` counted since the last time (its totals are since it started; a
        restarted task starts again from zero)."""
        last = {} if restarted else self._last_rows.get(task, {})
        seen = {}
        for kind, src, dst, tensor, nbytes, _, messages in rows:
            key = (kind, src, dst, tensor)
            seen[key] = (nbytes, messages)
            if kind == "recv" or kind in NOT_TRAFFIC:
                continue                    # counted by the sender (or not traffic at all)
            if kind == "send" and src != task:
                continue
            if kind != "send" and dst != task:
                continue
            if src not in self.states or dst not in self.states:
                continue                    # a client program: not a task of the cluster
            old_bytes, old_messages = last.get(key, (0, 0))
            d_bytes, d_messages = nbytes - old_bytes, messages - old_messages
            if d_bytes < 0 or d_messages < 0:          # counters went back: a new process
                d_bytes, d_messages = nbytes, messages
            if d_bytes == 0 and d_messages == 0:
                continue
            traffic = self._kind(kind, src, dst, tensor)
            index = self._index(src, dst, traffic)
            self._cumulative[2 * index] += d_bytes
            self._cumulative[2 * index + 1] += d_messages
            per_tensor = self._tensor_bytes.setdefault((src, dst, traffic), {})
            label = tensor or kind
            if label in per_tensor or len(per_tensor) < 200:
                per_tensor[label] = per_tensor.get(label, 0) + d_bytes
        self._last_rows[task] = seen

    def _index(self, src, dst, kind):
        key = (src, dst, kind)
        index = self._key_index.get(key)
        if index is None:
            index = self._key_index[key] = len(self._keys)
            self._keys.append(key)
            self._cumulative.extend((0.0, 0.0))
        return index

    def _add_record(self, task, r):
        if r.kind == "send":
            key = (r.step_id, r.src, r.dst, r.tensor)
            recv = self._recvs.pop(key, None)
            if recv is None:
                self._sends[key] = r
            else:
                self._add_message(r, recv)
        elif r.kind == "recv":
            key = (r.step_id, r.src, r.dst, r.tensor)
            send = self._sends.pop(key, None)
            if send is None:
                self._recvs[key] = r
            else:
                self._add_message(send, r)
        elif r.kind == "straggle":
            self.spans.append(Span(task, "straggle", task, f"straggler {r.tensor}", r.step_id,
                                   self.step_number(r.step_id), self._t(r.start),
                                   self._t(r.end)))
        elif r.kind == "link_delay":
            self.spans.append(Span(task, "link_delay", r.dst, f"slow link to "
                                   f"{short_name(r.dst)} ({r.tensor or 'tensors'})",
                                   r.step_id, self.step_number(r.step_id), self._t(r.start),
                                   self._t(r.end)))
        else:                                          # a request this task served
            self.spans.append(Span(task, r.kind, r.src, f"{r.kind} from {short_name(r.src)}",
                                   r.step_id, self.step_number(r.step_id), self._t(r.start),
                                   self._t(r.end)))

    def _add_message(self, send, recv):
        kind = self._kind("send", send.src, send.dst, send.tensor)
        t_recv = None if recv is None else self._t(recv.end)
        self.messages.append(Message(send.src, send.dst, kind, send.tensor, send.nbytes,
                                     send.step_id, self.step_number(send.step_id),
                                     self._t(send.start), t_recv))

    def _match_expired(self, now):
        """Sends whose receive was not seen within match_timeout become messages without an
        arrival time; receives whose send was never seen are dropped (their sender's records
        are gone: nothing honest to draw). Both waiting lists are in arrival order, so only
        their old ends are looked at."""
        limit = now - self.match_timeout
        for pending, expire in ((self._sends, self._add_message), (self._recvs, None)):
            while pending:
                key = next(iter(pending))
                r = pending[key]
                if r.end >= limit:
                    break
                del pending[key]
                if expire is not None:
                    expire(r, None)

    def _sample(self, now):
        self._sample_times.append(self._t(now))
        self._samples.append(array.array("d", self._cumulative))
        if len(self._samples) > self.max_samples:
            # thin the older three quarters: every other sample goes (the newest stay dense)
            keep_from = len(self._samples) // 4 * 3
            old_t, old_v = self._sample_times[:keep_from], self._samples[:keep_from]
            self._sample_times = old_t[::2] + self._sample_times[keep_from:]
            self._samples = old_v[::2] + self._samples[keep_from:]

    # -- reading ------------------------------------------------------------------------
    @property
    def start(self):
        return self._sample_times[0] if self._sample_times else 0.0

    @property
    def end(self):
        return self._sample_times[-1] if self._sample_times else 0.0

    def _sample_at(self, t):
        """Index of the newest sample taken at or before t (0 if none)."""
        times = self._sample_times
        lo, hi = 0, len(times)
        while lo < hi:
            mid = (lo + hi) // 2
            if times[mid] <= t:
                lo = mid + 1
            else:
                hi = mid
        return max(0, lo - 1)

    def arrows(self, at=None, window=None):
        """[{src, dst, kind, bytes_per_s, messages_per_s, bytes, messages, top}] over the
        `window` seconds (default: the model's) before `at` (default: the newest sample);
        `bytes` and `messages` are totals up to `at`, `top` the tensors that carried most
        bytes overall."""
        if not self._samples:
            return []
        j = self._sample_at(self.end if at is None else at)
        i = self._sample_at(self._sample_times[j] - (window or self.window))
        if i == j and j > 0:
            i = j - 1
        dt = self._sample_times[j] - self._sample_times[i]
        now, before = self._samples[j], self._samples[i]
        out = []
        for index, (src, dst, kind) in enumerate(self._keys):
            if 2 * index + 1 >= len(now):
                continue                           # first seen after `at`
            total_bytes, total_messages = now[2 * index], now[2 * index + 1]
            if total_messages == 0 and total_bytes == 0:
                continue
            old_bytes = before[2 * index] if 2 * index < len(before) else 0.0
            old_messages = before[2 * index + 1] if 2 * index + 1 < len(before) else 0.0
            per_tensor = self._tensor_bytes.get((src, dst, kind), {})
            top = sorted(per_tensor.items(), key=lambda kv: -kv[1])[:5]
            out.append({"src": src, "dst": dst, "kind": kind,
                        "bytes_per_s": (total_bytes - old_bytes) / dt if dt > 0 else 0.0,
                        "messages_per_s": (total_messages - old_messages) / dt if dt > 0
                        else 0.0,
                        "bytes": total_bytes, "messages": total_messages,
                        "top": [[name, int(n)] for name, n in top]})
        return out

    def totals_by_kind(self, at=None):
        """{kind: bytes} of all traffic up to `at` (default: now)."""
        out = dict.fromkeys(KINDS, 0.0)
        if not self._samples:
            return out
        values = self._samples[self._sample_at(self.end if at is None else at)]
        for index, (_, _, kind) in enumerate(self._keys):
            if 2 * index < len(values):
                out[kind] += values[2 * index]
        return out

    def moment_to_show(self):
        """A moment worth showing when nothing says which (a replay, a picture): the end of
        the first lane's read stretch nearest the middle of the history -- there, every lane
        was read and the run was in full swing."""
        middle = (self.start + self.end) / 2
        spans = list(self.coverage.get(self.tasks[0], ())) if self.tasks else []
        ends = [b for a, b in spans if b - a > 0]
        return min(ends, key=lambda b: abs(b - middle)) if ends else middle

    def step_seconds(self):
        """The median time a master took for one step (its RunStep spans), or None."""
        durations = [s.t1 - s.t0 for s in list(self.spans)[-400:] if s.kind == "RunStep"]
        return statistics.median(durations) if durations else None

    def lanes(self, end=None, length=None):
        """The swim lanes between end - length and end (default: the newest time, and about
        the last six steps): {"start", "end", "messages": [...], "spans": [...]}."""
        if end is None:
            end = self.end
        if length is None:
            step = self.step_seconds()
            length = min(5.0, max(0.005, 6 * step)) if step else 0.05
        start = end - length
        messages = [m for m in self.messages
                    if m.t_send <= end and (m.t_recv if m.t_recv is not None else m.t_send)
                    >= start]
        spans = [s for s in self.spans if s.t0 <= end and s.t1 >= start]
        coverage = {short_name(t): [[round(a, 6), round(b, 6)] for a, b in c
                                    if a <= end and b >= start]
                    for t, c in self.coverage.items()}
        return {"start": start, "end": end,
                "messages": [self._message_dict(m) for m in messages[-1500:]],
                "spans": [self._span_dict(s) for s in spans[-1500:]],
                "coverage": coverage}

    def step_number(self, step_id):
        """A small number for a step id (TF's are random 62-bit numbers): 1 for the first
        step this model saw, 2 for the next... (None for records of no step)."""
        if not step_id:
            return None
        number = self._step_numbers.get(step_id)
        if number is None:
            number = self._step_numbers[step_id] = self._next_step_number
            self._next_step_number += 1
            if len(self._step_numbers) > 20000:
                self._step_numbers.popitem(last=False)
        return number

    def _message_dict(self, m):
        latency = None if m.t_recv is None else m.t_recv - m.t_send
        return {"src": short_name(m.src), "dst": short_name(m.dst), "kind": m.kind,
                "tensor": m.tensor, "bytes": int(m.nbytes), "step": m.step,
                "step_id": str(m.step_id), "t_send": round(m.t_send, 6),
                "t_recv": None if m.t_recv is None else round(m.t_recv, 6),
                "latency_ms": None if latency is None else round(1000 * latency, 3)}

    def _span_dict(self, s):
        return {"task": short_name(s.task), "kind": s.kind, "peer": short_name(s.peer),
                "label": s.label, "step": s.step, "step_id": str(s.step_id),
                "t0": round(s.t0, 6), "t1": round(s.t1, 6)}

    def to_dict(self, end=None, length=None, live=True, window=None):
        """The whole state a view draws: tasks, kinds, arrows at `end` (rates over `window`
        seconds, default the model's), lanes up to `end`."""
        tasks = [{"name": t, "short": short_name(t), "job": job_of(t),
                  "state": self.states.get(t, "alive"),
                  "color": DEAD_COLOR if self.states.get(t) == "dead" else job_color(job_of(t))}
                 for t in self.tasks]
        at = self.end if end is None else end
        arrows = self.arrows(at, window)
        for a in arrows:
            a["src"], a["dst"] = short_name(a["src"]), short_name(a["dst"])
            a["bytes_per_s"] = round(a["bytes_per_s"], 1)
            a["messages_per_s"] = round(a["messages_per_s"], 2)
        return {"tasks": tasks,
                "kinds": [{"kind": k, "label": KIND_LABELS[k], "color": KIND_COLORS[k]}
                          for k in KINDS],
                "window": round(window or self.window, 3), "at": round(at, 6),
                "arrows": arrows,
                "totals": {k: int(v) for k, v in self.totals_by_kind(at).items()},
                "lanes": self.lanes(end, length),
                "history": {"start": round(self.start, 6), "end": round(self.end, 6)},
                "origin": self.origin, "live": bool(live),
                "step_seconds": self.step_seconds()}

    # -- saving -------------------------------------------------------------------------
    def save_state(self):
        """Everything needed to draw this model again without a cluster (recording.py)."""
        return {"tasks": self.tasks, "states": self.states, "window": self.window,
                "origin": self.origin, "keys": [list(k) for k in self._keys],
                "sample_times": self._sample_times,
                "samples": [list(v) for v in self._samples],
                "tensor_bytes": [[list(k), v] for k, v in self._tensor_bytes.items()],
                "messages": [list(m) for m in self.messages],
                "spans": [list(s) for s in self.spans],
                "coverage": {t: [list(c) for c in spans] for t, spans in self.coverage.items()}}

    @classmethod
    def from_state(cls, state):
        model = cls(state["tasks"], window=state["window"], origin=state["origin"])
        model.states.update(state["states"])
        for src, dst, kind in state["keys"]:
            model._index(src, dst, kind)
        model._sample_times = list(state["sample_times"])
        model._samples = [array.array("d", v) for v in state["samples"]]
        if model._samples:
            model._cumulative = array.array("d", model._samples[-1])
            model._cumulative.extend([0.0] * (2 * len(model._keys) - len(model._cumulative)))
        model._tensor_bytes = {tuple(k): dict(v) for k, v in state["tensor_bytes"]}
        model.messages.extend(Message(*m) for m in state["messages"])
        model.spans.extend(Span(*s) for s in state["spans"])
        for task, spans in state["coverage"].items():
            model.coverage.setdefault(task, collections.deque(maxlen=600)).extend(
                [list(c) for c in spans])
        return model
