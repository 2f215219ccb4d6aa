"""Curves: the loss and test accuracy of several runs, one colour per run, by global step and
by wall time, beside seed 002's table (TF's test accuracy with 1, 2 and 3 async workers).

  draw_curves(state, x_axis)  loss and test accuracy against the global step ("step") or
                              wall time ("time"); a run's events (a task killed, restarted)
                              as dashed lines in its colour; seed 002's table beside.
  draw_curves_both(state)     loss above and accuracy below, by step on the left and by time
                              on the right; the runs' legend and seed 002's table beside.

The TF idea: an async run applies each worker's gradient as soon as it comes -- more global
steps per second, each computed on weights a little stale --, while a sync run
(SyncReplicasOptimizer) averages N gradients into one step and waits for the slowest worker.
So the runs compare one way by step and another by time, and the picture shows both.

The state is CurvesModel.to_dict() (curves_model.py), the one the live CurvesView draws: a
run's points by segment, a new segment where its training started over (a ps restarted
without a checkpoint), so that no line is drawn back.
"""
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from .shared_picture_style import FONT, SMALL, _axes_inches, _nothing, _panels, _title, _wrap

__all__ = ["draw_curves", "draw_curves_both"]

_X = {"step": (0, "global step (updates the ps applied)"),
      "time": (1, "seconds since the run started")}
_METRICS = {"loss": ("loss", "each worker's batch loss as it reported it, averaged over "
                             "short stretches of time"),
            "accuracy": ("test accuracy", "the chief's evaluations on the test set during "
                                          "the run")}


def draw_curves(state, x_axis="step", ax=None):
    """Loss and test accuracy of every run of `state` (CurvesModel.to_dict()) against the
    global step (`x_axis="step"`) or wall time ("time"), with seed 002's table beside."""
    fig, axes = _panels(ax, _curves_size(state), 1, 3, width_ratios=[1, 1, 0.42])
    loss_ax, acc_ax, table_ax = axes[0]
    _curve_panel(loss_ax, state, "loss", x_axis, legend=True)
    _curve_panel(acc_ax, state, "accuracy", x_axis)
    _reference_table(table_ax, state)
    return fig


def draw_curves_both(state, ax=None):
    """Loss (top) and test accuracy (bottom) by global step (left) and by wall time (right),
    the runs' legend and seed 002's table beside."""
    fig, axes = _panels(ax, _curves_both_size(state), 2, 3, width_ratios=[1, 1, 0.42])
    for j, x_axis in enumerate(("step", "time")):
        _curve_panel(axes[0][j], state, "loss", x_axis)
        _curve_panel(axes[1][j], state, "accuracy", x_axis)
    _run_legend(axes[0][2], state)
    _reference_table(axes[1][2], state)
    return fig


def _curves_size(state, width=17.0):
    return width, 6.5


def _curves_both_size(state, width=19.0):
    return width, 11.0


def _segments(points):
    """{segment: [points]}: a run's points by segment -- a new one starts where its training
    started over (a ps restarted without a checkpoint): one line each, never drawn back."""
    out = {}
    for point in points:
        out.setdefault(point[3], []).append(point)
    return out


def _curve_panel(ax, state, metric, x_axis, legend=False):
    """One metric of every run against one x axis: a line per run and segment, the run's
    events as dashed vertical lines."""
    column, xlabel = _X[x_axis]
    name, source = _METRICS[metric]
    by = "global step" if x_axis == "step" else "wall time"
    _title(ax, f"{name[0].upper() + name[1:]} by {by}", source)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(name)
    ax.grid(True, alpha=0.3)
    runs = state.get("runs") or []
    drawn = 0
    for run in runs:
        for k, (segment, points) in enumerate(_segments(run.get(metric) or []).items()):
            ax.plot([p[column] for p in points], [p[2] for p in points], color=run["color"],
                    label="_nolegend_" if k else run["label"], linewidth=2.5,
                    marker="o" if metric == "accuracy" else None, markersize=5,
                    gid=f"run {run.get('id')} segment {segment}")
            drawn += 1
    if not drawn:
        _nothing(ax, "nothing yet: no run has reported a " + name)
        return
    if metric == "loss":
        _log_scale(ax)
    _events(ax, runs, x_axis, top=metric == "loss")
    if legend:
        ax.legend(loc="upper right", fontsize=FONT, title="run", title_fontsize=FONT)


def _event_text(event):
    text = event.get("text") or event.get("kind", "")
    if len(text) > 22:
        text = " ".join(filter(None, (event.get("kind"), event.get("task"))))
    return text


def _log_scale(ax):
    """A log y axis labelled 2, 3, 5, 10, 20 (not 2 x 10^0)."""
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 3.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def _events(ax, runs, x_axis, top=True):
    """Each run's events (a task killed, restarted...) as a dashed line in the run's colour,
    labelled along it at the top (or the bottom, where a rising curve leaves room); events
    closer than 3 % of the axis share one label."""
    key = "global_step" if x_axis == "step" else "time"
    marks = sorted((e[key], run["color"], _event_text(e)) for run in runs
                   for e in run.get("events") or [] if e.get(key) is not None)
    lo, hi = ax.get_xlim()
    labels = []                     # [x, colour, [texts]] of each label
    for x, color, text in marks:
        ax.axvline(x, color=color, linestyle="--", linewidth=2, gid=f"event {text}")
        if labels and x - labels[-1][0] < 0.03 * (hi - lo):
            if text not in labels[-1][2]:
                labels[-1][2].append(text)
        else:
            labels.append([x, color, [text]])
    for x, color, texts in labels:
        ax.text(x, 0.97 if top else 0.03, ", ".join(texts), transform=ax.get_xaxis_transform(),
                rotation=90, ha="right", va="top" if top else "bottom", fontsize=SMALL,
                color=color, bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none",
                                       alpha=0.8))
    ax.set_xlim(lo, hi)


def _run_legend(ax, state):
    """The runs' colours, in a panel of their own."""
    ax.axis("off")
    runs = state.get("runs") or []
    handles = [Line2D([], [], color=r["color"], linewidth=4, label=r["label"]) for r in runs]
    if handles:
        ax.legend(handles=handles, loc="center", fontsize=FONT + 2, title="runs",
                  title_fontsize=FONT + 2, frameon=False)


def _reference_table(ax, state):
    """Seed 002's table (TF's accuracy with 1, 2, 3 async workers) beside ours: the final test
    accuracy of this state's async run(s) with as many workers, in the run's colour."""
    ax.axis("off")
    reference = state.get("reference") or {}
    rows = reference.get("rows") or []
    if not rows:
        return
    cells, colors = [], []
    for row in rows:
        ours = [r for r in state.get("runs") or []
                if r.get("config", {}).get("mode") == "async"
                and r.get("config", {}).get("workers") == row["workers"]
                and (r.get("summary") or {}).get("test_accuracy") is not None]
        text = ", ".join(f"{r['summary']['test_accuracy']:.2f}" for r in ours) or "\u2014"
        cells.append([f"async x{row['workers']}", f"{row['accuracy']:.2f}", text])
        colors.append(ours[0]["color"] if len(ours) == 1 else "black")
    table = ax.table(cellText=cells, colLabels=["run", "seed 002\n(TF)", "ours"],
                     loc="center", cellLoc="center", bbox=[0, 0.25, 1, 0.5])
    table.auto_set_font_size(False)
    table.set_fontsize(FONT)
    for (i, j), cell in table.get_celld().items():
        cell.set_edgecolor("#999999")
        if i == 0:
            cell.set_text_props(fontweight="bold")
        elif j == 2:
            cell.get_text().set_color(colors[i - 1])
            cell.get_text().set_fontweight("bold")
    title = reference.get("title", "seed 002's table")
    ax.set_title(_wrap(title, _axes_inches(ax)[0] * 1.1, FONT), fontsize=FONT, loc="center")
    ax.text(0.5, 0.2, "ours: each run's final test\naccuracy (its summary)",
            transform=ax.transAxes, ha="center", va="top", fontsize=SMALL, color="#444444")
