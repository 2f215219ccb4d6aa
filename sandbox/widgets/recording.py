"""Replay -- a session of runs saved to one file, and opened again in the same views without
a cluster (for slides, or for a class where training cannot run live).

A Recording holds what the views' models held: the curves of every run (curves_model), and per
run the traffic of its cluster (traffic_model: the rates' history, the last messages and
spans, which stretches of time were read) and its placement (placement_model). The file is
one gzip-compressed JSON document -- readable by anyone, no pickle -- that names its format
and version:

    rec = Recording.load("async_vs_sync.sandbox.json.gz")
    CurvesView(rec);  TrafficView(rec, run="sync x3");  PlacementView(rec)
    Dashboard.replay("async_vs_sync.sandbox.json.gz")

Nothing is made up on the way back: a replayed view draws exactly the states the live one
could have drawn at the same moments.
"""
import datetime
import gzip
import json
import os

from .curves_model import CurvesModel
from .placement_model import PlacementModel
from .traffic_model import TrafficModel

__all__ = ["Recording", "FORMAT", "VERSION"]

FORMAT = "sandbox-recording"
VERSION = 1


class Recording:
    """Curves of several runs, and the traffic and placement of each run's cluster."""

    def __init__(self, curves=None, title=""):
        self.curves = curves if curves is not None else CurvesModel()
        self.traffic = {}                  # run id -> TrafficModel
        self.placement = {}                # run id -> PlacementModel
        self.title = title
        self.created = datetime.datetime.now().isoformat(timespec="seconds")

    def add_cluster(self, run_id, traffic=None, placement=None):
        """Keeps run `run_id`'s traffic and placement models (its curves are in .curves)."""
        if traffic is not None:
            self.traffic[run_id] = traffic
        if placement is not None:
            self.placement[run_id] = placement

    @property
    def run_ids(self):
        return list(self.curves.runs) or list(self.traffic)

    def label(self, run_id):
        run = self.curves.runs.get(run_id)
        return run.label if run is not None else str(run_id)

    def find_run(self, run=None):
        """The id of the run named `run` (its id or its label); the last run if None."""
        ids = [r for r in self.run_ids if r in self.traffic or r in self.placement] \
            or self.run_ids
        if not ids:
            raise ValueError("This recording holds no run.")
        if run is None:
            return ids[-1]
        for run_id in ids:
            if run == run_id or run == self.label(run_id):
                return run_id
        raise ValueError(f"No run {run!r} in this recording; it has "
                         f"{', '.join(repr(self.label(r)) for r in ids)}.")

    # -- the file ---------------------------------------------------------------------------
    def to_document(self):
        return {"format": FORMAT, "version": VERSION, "created": self.created,
                "title": self.title, "curves": self.curves.save_state(),
                "runs": [{"id": run_id, "label": self.label(run_id),
                          "traffic": self.traffic[run_id].save_state()
                          if run_id in self.traffic else None,
                          "placement": self.placement[run_id].save_state()
                          if run_id in self.placement else None}
                         for run_id in sorted(set(self.traffic) | set(self.placement),
                                              key=str)]}

    def save(self, path):
        """Writes the recording to `path` (gzip JSON; '.sandbox.json.gz' by convention),
        atomically: a crash while saving never leaves half a file under that name."""
        path = os.fspath(path)
        tmp = path + ".part"
        with gzip.open(tmp, "wt", encoding="utf-8") as f:
            json.dump(self.to_document(), f, separators=(",", ":"))
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path):
        path = os.fspath(path)
        try:
            with gzip.open(path, "rt", encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, EOFError, json.JSONDecodeError) as e:
            raise ValueError(f"{path} is not a sandbox recording (a gzip JSON file written "
                             f"by Recording.save or the dashboard's Save button): "
                             f"{e}") from None
        return cls.from_document(doc, path)

    @classmethod
    def from_document(cls, doc, where="the document"):
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError(f"{where} is not a sandbox recording (no "
                             f"'format': {FORMAT!r} in it).")
        if doc.get("version") != VERSION:
            raise ValueError(f"{where} is a sandbox recording of version "
                             f"{doc.get('version')}; this sandbox reads version {VERSION}.")
        rec = cls(CurvesModel.from_state(doc["curves"]), doc.get("title", ""))
        rec.created = doc.get("created", rec.created)
        for run in doc["runs"]:
            run_id = run["id"]
            if run.get("traffic") is not None:
                rec.traffic[run_id] = TrafficModel.from_state(run["traffic"])
            if run.get("placement") is not None:
                rec.placement[run_id] = PlacementModel.from_state(run["placement"])
        return rec

    def __repr__(self):
        labels = ", ".join(self.label(r) for r in self.run_ids)
        return f"<Recording {self.title or ''} runs: {labels or 'none'}>"
