"""The views drawn with matplotlib, for pictures: slides, `make demo`'s demo_output/, a paper.

Each function draws one state -- the plain dict a view model's `to_dict()` returns, the same
state the live Jupyter views draw in a browser -- and returns the Figure. None of them reads
a cluster or guesses what a program should do: what is drawn is what the tasks measured.

  draw_curves(state)        loss and test accuracy of several runs against the global step
                            (or wall time), one colour per run, beside seed 002's table.
  draw_curves_both(state)   the same by step and by time side by side. The TF idea: an async
                            run applies each worker's gradient as soon as it comes (more
                            global steps per second, each computed on weights a little
                            stale), a sync run (SyncReplicasOptimizer) averages N gradients
                            into one step and waits for the slowest worker -- so the runs
                            compare one way by step and another by time.
  draw_placement(state)     one box per task, inside it its devices, inside each device its
                            ops grouped by name scope, variables in bold with shape and size.
                            The TF idea: `tf.device` and `replica_device_setter` put variables
                            on the ps and the computation on the workers; the partitioner adds
                            the _Send/_Recv pairs that connect them.
  draw_traffic(state)       tasks as nodes (ps left, workers right), one arrow per (sender,
                            receiver, kind) as wide as its bytes/s: workers pull parameters
                            from the ps and push gradients back, every step.
  draw_lanes(state)         a space-time diagram (ShiViz's swim lanes): one lane per task, one
                            arrow per message from the moment it was sent to the moment it
                            arrived, the requests a task served and the delays the sandbox
                            added as bars; stretches whose records were not read are hatched.
  draw_traffic_and_lanes(state)   both, arrows above and lanes below.
  small_multiples(states_by_label, draw)   one panel per run, titled in the run's colour.
  save(fig, path)           writes a PNG.

Every drawing function takes the state and `ax`: an Axes to draw in, a Figure (or SubFigure)
to fill, or None for a new figure sized for the state. Fonts are at least 11 pt at the
figure's own size; an Axes given too small makes the placement boxes' text smaller.
Colours come from the state (a run's "color", a job's "job_color", a kind's "color"), so one
thing has one colour in every view and picture.

Each picture is a file of its own, whose docstring tells what it draws and the TF idea
behind it; this module names them all (`from sandbox.widgets import pictures`) and draws
the pictures made of several panels:

  curves_picture.py         draw_curves, draw_curves_both
  placement_picture.py      draw_placement
  traffic_picture.py        draw_traffic (and arrow_width, the arrows' log scale)
  lanes_picture.py          draw_lanes
  shared_picture_style.py   what they share: fonts, figures and panels, titles and legends,
                            words fitted to their room, human_bytes, save
  pictures.py (here)        draw_traffic_and_lanes, small_multiples
"""
import math

import matplotlib

from .curves_picture import _curves_both_size, _curves_size, draw_curves, draw_curves_both
from .lanes_picture import _lanes_size, draw_lanes
from .palette import run_color
from .placement_picture import _placement_size, draw_placement
from .shared_picture_style import (_RC, TITLE, _new_figure, _nothing, _panel, _panels,
                                   human_bytes, save)
from .traffic_picture import _traffic_size, arrow_width, draw_traffic

__all__ = ["draw_curves", "draw_curves_both", "draw_placement", "draw_traffic", "draw_lanes",
           "draw_traffic_and_lanes", "small_multiples", "save", "human_bytes", "arrow_width"]


# -- several panels: arrows over lanes, one panel per run --------------------------------------
def draw_traffic_and_lanes(state, ax=None):
    """The arrows (who sends how much to whom) above the swim lanes (when, in the last
    steps) of one traffic state: the demo's picture of a run."""
    (width, top), (_, bottom) = _traffic_size(state), _lanes_size(state)
    fig, axes = _panels(ax, (width, top + bottom), 2, 1, height_ratios=[top, bottom])
    draw_lanes(state, axes[1][0])
    draw_traffic(state, axes[0][0])         # last: it fits its words to the room left
    return fig


def _traffic_and_lanes_size(state, width=14.0):
    return width, _traffic_size(state)[1] + _lanes_size(state)[1]


_SIZES = {draw_traffic: _traffic_size, draw_lanes: _lanes_size,
          draw_traffic_and_lanes: _traffic_and_lanes_size, draw_placement: _placement_size,
          draw_curves: _curves_size, draw_curves_both: _curves_both_size}
_COMPACT_WIDTH = {draw_traffic: 10.0, draw_lanes: 10.0, draw_traffic_and_lanes: 10.0,
                  draw_curves: 12.0, draw_curves_both: 14.0}


def small_multiples(states_by_label, draw, colors=None, ncols=None, title=None):
    """One panel per run: `draw` (one of the functions above) applied to each state of
    `states_by_label` ({run label: state}, in the runs' order), the label above it in the
    run's colour -- `colors[label]`, or else the palette's colour of the i-th run, which is
    the colour CurvesModel gives it. `ncols`: panels per row (all in one row up to three,
    else two)."""
    labels = list(states_by_label)
    colors = colors or {}
    if not labels:
        fig, ax = _panel(None, (8, 3))
        ax.axis("off")
        _nothing(ax, "nothing yet: no run to draw")
        return fig
    ncols = ncols or (len(labels) if len(labels) <= 3 else 2)
    nrows = math.ceil(len(labels) / ncols)
    size = _SIZES.get(draw, lambda state, width=8.0: (width, 6.0))
    sizes = [size(states_by_label[label], _COMPACT_WIDTH.get(draw, 8.0)) for label in labels]
    panel_w, panel_h = max(w for w, _ in sizes), max(h for _, h in sizes) + 0.6
    fig = _new_figure((panel_w * ncols, panel_h * nrows + (0.7 if title else 0)))
    with matplotlib.rc_context(_RC):
        subfigures = fig.subfigures(nrows, ncols, squeeze=False, wspace=0.02, hspace=0.02)
        for i, label in enumerate(labels):
            sub = subfigures[i // ncols][i % ncols]
            sub.suptitle(label, x=0.01, ha="left", fontsize=TITLE + 4, fontweight="bold",
                         color=colors.get(label) or run_color(i))
            draw(states_by_label[label], ax=sub)
        if title:
            fig.suptitle(title, fontsize=TITLE + 4, fontweight="bold")
    return fig
