"""CurvesWidget -- the front end of the curves view: loss and test accuracy of several runs.

Seed 002's lesson is a comparison: asynchronous workers each update the shared parameters as
soon as their gradient is ready (more updates per second, some computed from stale
parameters), while SyncReplicasOptimizer waits for every replica's gradient and applies their
mean (one update per round, as fast as the slowest worker). Plotted by global step the runs
compare update for update; by wall time, as a class waiting for them would. This widget draws
CurvesModel (curves_model.py): one line per run in its colour, broken where training started
over, the kills and restarts marked where they happened, and seed 002's own table of
accuracies beside ours.

It is a pure renderer: `state` is a CurvesModel.to_dict() set by the Python side
(curves_view.CurvesView); the front end, static/curves.js, draws it:

    state           the runs and the reference table, plain JSON
    x_axis          "step" (global step) or "time" (seconds since each run started)
    show_reference  show seed 002's table beside the accuracy chart
"""
import anywidget
import traitlets

from .front_end import esm

__all__ = ["CurvesWidget"]


class CurvesWidget(anywidget.AnyWidget):
    """Draws a CurvesModel.to_dict() (see the module docstring)."""

    _esm = esm("curves.js")

    state = traitlets.Dict().tag(sync=True)
    x_axis = traitlets.Unicode("step").tag(sync=True)
    show_reference = traitlets.Bool(True).tag(sync=True)

    @traitlets.validate("x_axis")
    def _known_axis(self, proposal):
        if proposal["value"] not in ("step", "time"):
            raise traitlets.TraitError(
                f"x_axis is {proposal['value']!r}; the curves are drawn by global step "
                "(x_axis='step') or by wall time (x_axis='time')")
        return proposal["value"]
