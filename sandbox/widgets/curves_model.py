"""The curves view's model -- loss and test accuracy of several runs, by global step and by
wall time, from the records the runs streamed while they trained.

Each run is one Experiment (sandbox/experiments/cluster_run.py): every worker step sends a
record (worker, global_step, its own step, time since the run started, the batch's loss, and
-- from the chief, every `eval_every` steps -- the test accuracy). The model keeps, per run:

  loss       the records' losses averaged over buckets of time: a run of ten minutes at a
             thousand steps a second still holds at most `max_points` points. When the buckets
             outnumber it, neighbours merge (the bucket width doubles): the whole run stays
             drawn, at a coarser grain, and memory stays flat.
  accuracy   the chief's evaluations, each one a point (merged the same way past the limit)
  events     what happened to the cluster meanwhile: a task killed or restarted, by whom
  segments   a new segment starts when the global step falls back (a ps restarted with no
             checkpoint: training started over), so a curve by step is never drawn backwards

beside seed 002's own table -- the accuracy TF's tutorial printed for 1, 2 and 3 async
workers after 20 epochs -- so that a class compares its runs with the tutorial's.
"""
import collections

from .palette import run_color

__all__ = ["CurvesModel", "RunCurves", "SEED_TABLE", "run_label"]

SEED_TABLE = {"title": "seed 002's table (TF, async, 20 epochs, learning rate 0.001)",
              "rows": [{"workers": 1, "accuracy": 0.42}, {"workers": 2, "accuracy": 0.58},
                       {"workers": 3, "accuracy": 0.65}]}


def run_label(config):
    """A short name for a run's configuration: 'async x3', 'sync x3 (2 of 3)',
    'async x2, straggler 50 ms', 'sync x3, link 5 ms 100 Mbit/s'..."""
    mode, workers = config.get("mode", "async"), config.get("workers", 1)
    label = f"{mode} x{workers}"
    ps = config.get("ps", 1)
    if ps and ps != 1:
        label += f", {ps} ps"
    r = config.get("replicas_to_aggregate")
    if mode == "sync" and r and r != workers:
        label += f" ({r} of {workers})"
    delay = config.get("straggler_ms")
    if delay:
        label += f", straggler {delay:g} ms"
    latency, bandwidth = config.get("latency_ms"), config.get("bandwidth_mbps")
    if latency or bandwidth:
        link = []
        if latency:
            link.append(f"{latency:g} ms")
        if bandwidth:
            link.append(f"{bandwidth:g} Mbit/s")
        label += ", link " + " ".join(link)
    return label


class _Buckets:
    """Points averaged over time buckets; at most `limit` buckets (the width doubles)."""

    def __init__(self, limit, width=0.02):
        self.limit = limit
        self.width = width
        self.buckets = collections.OrderedDict()   # (segment, bucket index) -> sums

    def add(self, segment, time, step, value):
        key = (segment, int(time // self.width))
        b = self.buckets.get(key)
        if b is None:
            self.buckets[key] = [time, step, value, 1, step]
        else:
            b[0] += time
            b[1] += step
            b[2] += value
            b[3] += 1
            b[4] = max(b[4], step)
        while len(self.buckets) > self.limit:
            self._coarsen()

    def _coarsen(self):
        self.width *= 2
        merged = collections.OrderedDict()
        for (segment, _), b in self.buckets.items():
            key = (segment, int((b[0] / b[3]) // self.width))
            m = merged.get(key)
            if m is None:
                merged[key] = list(b)
            else:
                for i in range(4):
                    m[i] += b[i]
                m[4] = max(m[4], b[4])
        self.buckets = merged

    def points(self):
        """[[global step, time, value, segment], ...] in time order."""
        out = [[b[1] / b[3], b[0] / b[3], b[2] / b[3], segment]
               for (segment, _), b in self.buckets.items()]
        out.sort(key=lambda p: p[1])
        return out

    def __len__(self):
        return len(self.buckets)


class RunCurves:
    """The curves of one run."""

    def __init__(self, run_id, label, config, color, max_points):
        self.id = run_id
        self.label = label
        self.config = dict(config)
        self.color = color
        self.loss = _Buckets(max_points)
        self.accuracy = _Buckets(max(50, max_points // 4), width=1e-9)
        self.events = []
        self.state = "starting"
        self.summary = {}
        self.segment = 0
        self.records = 0
        self.last = {}                  # the newest record of each worker
        self._segment_of = {}           # worker -> the segment its records are in
        self._max_step = 0

    def add(self, record):
        """One worker step. Each worker's records come in order, but the workers' batches
        interleave; so "the global step fell back" is judged per worker: the first worker
        whose own global step falls to less than half starts a new segment, and the others
        join it as their own steps fall."""
        step, worker = record["global_step"], record["worker"]
        last = self.last.get(worker)
        if last is not None and last["global_step"] > 20 and step < last["global_step"] // 2:
            if self._segment_of[worker] == self.segment:
                self.segment += 1                   # the first to see training start over
                self._max_step = 0
            self._segment_of[worker] = self.segment
        segment = self._segment_of.setdefault(worker, self.segment)
        if segment == self.segment:
            self._max_step = max(self._max_step, step)   # the newest segment's global step
        self.records += 1
        self.last[worker] = record
        self.loss.add(segment, record["time"], step, record["loss"])
        if record.get("test_accuracy") is not None:
            self.accuracy.add(segment, record["time"], step, record["test_accuracy"])

    def to_dict(self):
        return {"id": self.id, "label": self.label, "config": self.config,
                "color": self.color, "state": self.state, "summary": self.summary,
                "events": self.events, "records": self.records,
                "global_step": self._max_step,
                "loss": [_rounded(p) for p in self.loss.points()],
                "accuracy": [_rounded(p) for p in self.accuracy.points()]}


def _rounded(point):
    step, time, value, segment = point
    return [round(step, 2), round(time, 4), round(value, 5), segment]


class CurvesModel:
    """The curves of every run of a session (a dashboard, a demo, a replayed file)."""

    def __init__(self, max_points=800, reference=SEED_TABLE):
        self.max_points = max_points
        self.reference = reference
        self.runs = collections.OrderedDict()       # run id -> RunCurves
        self.version = 0

    def add_run(self, run_id, config, label=None, color=None):
        """Starts a new run's curves; its colour is the next of the palette (the same one
        every other view and picture uses for this run)."""
        if color is None:
            color = run_color(len(self.runs))
        run = RunCurves(run_id, label or run_label(config), config, color, self.max_points)
        self.runs[run_id] = run
        self.version += 1
        return run

    def add_records(self, run_id, records):
        run = self.runs[run_id]
        for record in records:
            run.add(record)
        if run.state == "starting" and run.records:
            run.state = "running"
        self.version += 1

    def add_event(self, run_id, event):
        """`event`: {"time": seconds since the run started, "global_step", "kind" ("kill",
        "restart", "stop"...), "text"}."""
        self.runs[run_id].events.append(dict(event))
        self.version += 1

    def finish(self, run_id, state="done", summary=None):
        run = self.runs[run_id]
        run.state = state
        run.summary = dict(summary or {})
        self.version += 1

    def to_dict(self):
        return {"runs": [run.to_dict() for run in self.runs.values()],
                "reference": self.reference}

    # -- saving -------------------------------------------------------------------------
    def save_state(self):
        return self.to_dict()

    @classmethod
    def from_state(cls, state, max_points=800):
        """Curves drawn again from a saved state (recording.py); they no longer grow."""
        model = cls(max_points, state.get("reference", SEED_TABLE))
        for r in state["runs"]:
            run = model.add_run(r["id"], r["config"], r["label"], r["color"])
            run.state, run.summary, run.events = r["state"], r["summary"], r["events"]
            run.records, run._max_step = r["records"], r["global_step"]
            for buckets, points in ((run.loss, r["loss"]), (run.accuracy, r["accuracy"])):
                for i, (step, time, value, segment) in enumerate(points):
                    buckets.buckets[(segment, -len(points) + i)] = [time, step, value, 1, step]
        return model
