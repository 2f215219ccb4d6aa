"""CurvesView -- test accuracy and loss of several runs, by global step and by wall time,
live in Jupyter while they train.

    CurvesView(exp)                   # an Experiment (sandbox.experiments), running or not
    CurvesView([exp1, exp2, exp3])    # several, overlaid, each labelled with its settings
    CurvesView(recording)             # a saved session of runs

Each run is one colour, the same in every view and picture. By global step, async and sync
runs compare update for update; by wall time, they compare as a class waiting for them
would: that contrast is the lesson of seed 002 (more async workers, more updates per epoch;
sync's barrier waits for the slowest). Kills and restarts are marked where they happened, so
the curve shows what they cost. Seed 002's own table sits beside ours.
"""
import threading

from .curves_model import CurvesModel
from .curves_widget import CurvesWidget
from .feed import INTERVAL, Ticker
from .recording import Recording

__all__ = ["CurvesView"]


class CurvesView(CurvesWidget):
    """See the module docstring. `source`: an Experiment, a list of them, a CurvesModel,
    or a Recording; add more runs later with `add(exp)`."""

    def __init__(self, source=None, interval=INTERVAL, max_points=800, **kwargs):
        super().__init__(**kwargs)
        self._lock = threading.Lock()
        self._experiments = []             # (run id, Experiment) still running
        if isinstance(source, Recording):
            self.model = source.curves
        elif isinstance(source, CurvesModel):
            self.model = source
        else:
            self.model = CurvesModel(max_points=max_points)
            for exp in (source if isinstance(source, (list, tuple)) else
                        [source] if source is not None else []):
                self.add(exp)
        self._shown = None
        self.refresh()
        self._ticker = Ticker(interval, self._tick, name="curves-view").start()

    def add(self, exp, label=None, start=True):
        """Overlays Experiment `exp` (started now if it was not and `start`); returns its
        run id."""
        if not all(hasattr(exp, name) for name in ("subscribe", "on_event", "config")):
            raise TypeError(f"CurvesView draws the runs of sandbox.experiments.Experiment "
                            f"(or a CurvesModel, or a Recording); got {type(exp).__name__} "
                            f"{exp!r:.60}.")
        with self._lock:
            run_id = len(self.model.runs)
            self.model.add_run(run_id, exp.config(), label=label)
        exp.subscribe(lambda record: self._record(run_id, record))
        exp.on_event(lambda event: self._event(run_id, event))
        self._experiments.append((run_id, exp))
        if start and exp.started is None:
            exp.start()
        return run_id

    def _record(self, run_id, record):
        with self._lock:
            self.model.add_records(run_id, (record,))

    def _event(self, run_id, event):
        with self._lock:
            self.model.add_event(run_id, event)

    def _tick(self):
        for run_id, exp in list(self._experiments):
            if exp.finished:
                self._experiments.remove((run_id, exp))
                with self._lock:
                    state = "failed" if exp.error is not None else \
                        "stopped" if any(e["kind"] == "stop" for e in exp.events) else "done"
                    summary = dict(exp.summary(), error=None if exp.error is None
                                   else f"{type(exp.error).__name__}: {exp.error}")
                    self.model.finish(run_id, state, summary)
        if self.model.version != self._shown:
            self.refresh()

    def refresh(self):
        with self._lock:
            self._shown = self.model.version
            self.state = self.model.to_dict()

    def picture(self, x_axis=None):
        """The same curves drawn with matplotlib (by step and by time, side by side, unless
        `x_axis` is "step" or "time")."""
        from .pictures import draw_curves, draw_curves_both
        if x_axis is None:
            return draw_curves_both(self.state)
        return draw_curves(self.state, x_axis=x_axis)

    def stop(self):
        """Stops following the runs, after drawing what they have recorded so far; the view
        stays on the page as it last was (`close()` also takes it off)."""
        ticker, self._ticker = getattr(self, "_ticker", None), None   # (None if __init__ failed)
        if ticker is not None:
            ticker.stop()
            self._tick()

    def close(self):
        self.stop()
        super().close()
