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
"""
import math
import os

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure, FigureBase
from matplotlib.font_manager import FontProperties
from matplotlib.gridspec import GridSpec
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch, Rectangle
from matplotlib.textpath import TextToPath
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
from matplotlib.transforms import offset_copy

from .palette import DEAD_COLOR as DEAD, run_color

__all__ = ["draw_curves", "draw_curves_both", "draw_placement", "draw_traffic", "draw_lanes",
           "draw_traffic_and_lanes", "small_multiples", "save", "human_bytes", "arrow_width"]

FONT = 12               # text and ticks
SMALL = 11              # the smallest text drawn
TITLE = 14              # panel titles
SPAN_STYLES = {"RunStep": ("#17becf", "a master ran a step (RunStep served)"),
               "RunGraph": ("#bcbd22", "a graph piece ran (RunGraph served)"),
               "straggle": ("#e377c2", "straggler's extra time (step_delay)"),
               "link_delay": ("#ff9896", "slow link's wait (latency, bandwidth)")}
OTHER_SPAN = ("#c7c7c7", "other requests served")

_RC = {"font.size": FONT, "axes.titlesize": TITLE, "axes.labelsize": FONT,
       "xtick.labelsize": FONT, "ytick.labelsize": FONT, "legend.fontsize": SMALL,
       "figure.titlesize": TITLE + 2, "lines.linewidth": 2.5}


# -- figures, panels and words shared by every picture -----------------------------------------
def save(fig, path, dpi=110):
    """Writes `fig` to `path` (a PNG, or any format matplotlib knows by the extension),
    creating the folder if needed; returns the path."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=dpi, facecolor="white")
    return path


def _new_figure(figsize):
    """A figure on an Agg canvas that belongs to no pyplot window: nothing to close, nothing
    shown, whatever backend pyplot uses."""
    fig = Figure(figsize=figsize, layout="constrained")
    FigureCanvasAgg(fig)
    fig.get_layout_engine().set(w_pad=0.08, h_pad=0.08)
    return fig


def _panels(ax, figsize, nrows=1, ncols=1, **grid):
    """(figure, [[axes]]) -- `nrows` x `ncols` panels in `ax`: a new figure of `figsize`
    when None, the whole of a Figure or SubFigure, or the place of an Axes (which goes)."""
    with matplotlib.rc_context(_RC):
        if ax is None:
            ax = _new_figure(figsize)
        if isinstance(ax, FigureBase):
            fig, spec = ax, ax.add_gridspec(nrows, ncols, **grid)
        else:
            fig = ax.figure
            if ax.get_subplotspec() is not None:
                spec = ax.get_subplotspec().subgridspec(nrows, ncols, **grid)
            else:
                box = ax.get_position()
                spec = GridSpec(nrows, ncols, figure=fig, left=box.x0, right=box.x1,
                                bottom=box.y0, top=box.y1, **grid)
            ax.remove()
        axes = [[fig.add_subplot(spec[i, j]) for j in range(ncols)] for i in range(nrows)]
    return fig.get_figure(root=True), axes


def _panel(ax, figsize):
    """(figure, axes): one panel (see _panels)."""
    if ax is not None and not isinstance(ax, FigureBase):
        return ax.get_figure(root=True), ax
    fig, axes = _panels(ax, figsize)
    return fig, axes[0][0]


def _axes_inches(ax):
    """(width, height) of `ax` in inches, as placed now (before the layout's final touch)."""
    box = ax.get_window_extent()
    dpi = ax.get_figure(root=True).dpi
    return box.width / dpi, box.height / dpi


def _container_inches(ax):
    """The width of the figure (or subfigure) `ax` is in, in inches."""
    return ax.get_figure(root=False).bbox.width / ax.get_figure(root=True).dpi


def _settle(ax):
    """Lays the figure out now, so that `ax` has the size it will be drawn at (the pictures
    that fit words to the room they have measure it after this)."""
    ax.get_figure(root=True).draw_without_rendering()


def _title(ax, what, source):
    """A panel's title: what it shows, and (smaller, below) where the numbers come from,
    broken into lines as wide as the panel (less the room tick labels may take from it)."""
    source = _wrap(source, min(_axes_inches(ax)[0], _container_inches(ax) - 2.0))
    lines = source.count("\n") + 1
    ax.set_title(what, fontsize=TITLE, fontweight="bold", loc="left",
                 pad=8 + 1.3 * SMALL * lines)
    ax.annotate(source, (0, 1), xycoords="axes fraction", xytext=(0, 5),
                textcoords="offset points", va="bottom", ha="left", fontsize=SMALL,
                color="#444444")


def _legend_below(ax, handles, title=None, below=0.0, room=None, right=False):
    """A legend under `ax` (`below` points lower, to clear its axis labels), at its left
    (or right) end, in as many columns as `room` inches hold (default: its width, which is
    at least its figure's less 2 inches of tick labels and margins); a legend drawn before
    on `ax` stays. Returns its width in inches."""
    if not handles:
        return 0.0
    if ax.get_legend() is not None:
        ax.add_artist(ax.get_legend())      # ax.legend() would take it away
    column = max(_text_width(h.get_label(), SMALL) for h in handles) + 1.0
    if room is None:
        room = max(_axes_inches(ax)[0], _container_inches(ax) - 2.0)
    ncol = max(1, min(len(handles), int(room // column)))
    fig = ax.get_figure(root=True)
    legend = ax.legend(handles=handles, loc="upper right" if right else "upper left",
                       bbox_to_anchor=(1.0 if right else 0.0, 0.0),
                       bbox_transform=offset_copy(ax.transAxes, fig, y=-below, units="points"),
                       ncol=ncol, fontsize=SMALL, frameon=False, title=title,
                       title_fontsize=SMALL, alignment="left", handlelength=2.5)
    legend.set_in_layout(True)
    return ncol * column


def _nothing(ax, text):
    """An empty panel that says why it is empty."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center",
            fontsize=FONT, color="#555555", wrap=True)


_TEXT_TO_PATH = TextToPath()


def _text_width(text, size, weight="normal"):
    """Width of `text` in inches at `size` points (measured on the font's glyphs)."""
    prop = FontProperties(size=size, weight=weight)
    return _TEXT_TO_PATH.get_text_width_height_descent(text, prop, ismath=False)[0] / 72.0


def _fit(text, width, size, weight="normal"):
    """`text`, cut with '...' until it is at most `width` inches wide."""
    if _text_width(text, size, weight) <= width:
        return text
    while len(text) > 1 and _text_width(text + "\u2026", size, weight) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def _tint(color, amount):
    """`color` mixed with white: `amount` of the colour (0..1)."""
    r, g, b = matplotlib.colors.to_rgb(color)
    return (1 - amount * (1 - r), 1 - amount * (1 - g), 1 - amount * (1 - b))


def _wrap(text, width, size=SMALL, weight="normal"):
    """`text` broken between words into lines at most `width` inches wide at `size`."""
    lines, line = [], ""
    for word in text.split():
        longer = f"{line} {word}".strip()
        if line and _text_width(longer, size, weight) > width:
            lines.append(line)
            line = word
        else:
            line = longer
    return "\n".join(lines + [line])


def human_bytes(n):
    """1536 -> '1.54 kB', 88368525.9 -> '88.4 MB' (decimal units, three figures)."""
    if abs(n) < 999.5:
        return f"{n:.0f} B"
    for unit in ("kB", "MB", "GB"):
        n /= 1000.0
        if abs(n) < 999.5:
            break
    return f"{n:.3g} {unit}"


def _count(n):
    """278.4 -> '278', 0.5 -> '0.5', 12345 -> '12,345'."""
    return f"{n:.3g}" if n < 1000 else f"{n:,.0f}"


# -- curves: loss and test accuracy of several runs --------------------------------------------
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


# -- placement: which task and device holds each op --------------------------------------------
# The boxes are laid out in inches (one data unit = one inch at the figure's own size), so
# that text of a known size fits the rows measured for it.
_BOX_W, _LINE, _GAP, _HEADER = 3.9, 0.25, 0.3, 0.42
_PAD = 0.08                         # between a frame and what it holds
_COUNTED = ("queue", "accumulator", "placeholder")     # kinds of op a group's row names


def draw_placement(state, ax=None):
    """One box per task of `state` (PlacementModel.to_dict()), grouped by job and coloured by
    it (a dead task grey, marked dead); inside, its devices; inside each device its name-scope
    groups, variables in bold with their dtype, shape and bytes. When a device holds more
    groups than fit, the largest are shown and the rest counted ("+N more groups")."""
    tasks, boxes, places, width, height = _placement_layout(state)
    fig, ax = _panel(ax, _placement_size(state))
    ax.axis("off")
    counts = state.get("counts") or {}
    _title(ax, f"Placement: {counts.get('ops', 0)} ops and {counts.get('variables', 0)} "
               f"variables on {len(tasks)} tasks",
           f"{state.get('note') or 'Nothing read yet.'} Bytes: what a task or group holds "
           "(its variables' arrays, its queues' and accumulators' contents).")
    _settle(ax)
    width, height = max(width, 1.0), max(height, 1.0)
    scale = min(1.0, *(have / need for have, need in zip(_axes_inches(ax), (width, height))))
    scale = 1.0 if scale > 0.96 else scale  # a few % smaller boxes: the text still fits
    ax.set_xlim(0, width)
    ax.set_ylim(-height, 0)
    ax.set_aspect("equal")
    if not tasks:
        _nothing(ax, "nothing placed yet: no task has been read")
        return fig
    for (x, y), lines in zip(places, boxes):
        _draw_box(ax, x, y, lines, scale)
    return fig


def _placement_layout(state):
    """(tasks, the rows of each box, their top-left corners, width, height in inches)."""
    tasks = state.get("tasks") or []
    budget = 14 if len(tasks) <= 4 else 9 if len(tasks) <= 8 else 6
    boxes = [_task_lines(task, budget) for task in tasks]
    if state.get("unplaced"):
        boxes.append(_unplaced_lines(state["unplaced"]))
    return (tasks, boxes) + _grid(tasks, boxes)


def _placement_size(state, width=None):
    """The layout's own size and room for the title (its boxes do not shrink: `width` is
    not used)."""
    _, _, _, w, h = _placement_layout(state)
    note_lines = _wrap(state.get("note") or "", max(8.0, w)).count("\n") + 1
    return max(8.0, w) + 0.3, max(3.0, h) + 0.9 + 0.22 * note_lines


def _task_lines(task, budget):
    """A task's box as [(kind, left text, right text, colour)] rows, top to bottom."""
    dead = task.get("state") == "dead"
    color = DEAD if dead else task.get("job_color") or task.get("color") or DEAD
    state = "" if task.get("state", "alive") == "alive" else f"\u2716 {task['state']}"
    variables = task.get("variables", 0)
    held = f"{variables} variable{'s' * (variables != 1)} \u00b7 holds " \
        f"{human_bytes(task.get('bytes', 0))}" if variables else "no variables"
    lines = [("header", task.get("short") or task["name"], state, color),
             ("summary", f"{task.get('ops', 0)} ops", held, color)]
    for device in task.get("devices") or []:
        lines.append(("device", device["name"], "", color))
        lines += _group_lines(device.get("groups") or [], budget, color)
        lines.append(("end", "", "", color))
    return lines


def _group_lines(groups, budget, color):
    """The rows of one device's groups, in _group_rank's order, until `budget` rows are
    used; the groups left are counted on the last row."""
    if not groups:
        return [("more", "no ops placed here yet", "", color)]
    ordered = sorted(groups, key=_group_rank)
    rows, shown = [], 0
    for group in ordered:
        chip = _chip_lines(group, color)
        if len(rows) + len(chip) > budget - (shown < len(groups) - 1):
            break
        rows += chip
        shown += 1
    hidden = ordered[shown:]
    if hidden:
        rows.append(("more", f"+{len(hidden)} more group{'s' * (len(hidden) != 1)}",
                     f"{sum(g['count'] for g in hidden)} ops", color))
    return rows


def _group_rank(group):
    """Variables' groups first, then the other state a task holds (queues, accumulators:
    SyncReplicasOptimizer's), each from the most bytes down; then the rest, most ops first."""
    kinds = group["kinds"]
    if kinds.get("variable"):
        return 0, -group["bytes"]
    if kinds.get("queue") or kinds.get("accumulator"):
        return 1, -group["bytes"]
    return 2, -group["count"]


def _chip_lines(group, color):
    """One group: its scope, op count and bytes; its variables in bold, each on its own row
    (on the group's row when the group is one variable and its ops, as `w1` and `w1/read`)."""
    variables = [op for op in group.get("ops") or [] if op.get("kind") == "variable"]
    special = ", ".join(f"{n} {kind}{'s' * (n != 1)}" for kind, n in group["kinds"].items()
                        if kind in _COUNTED)
    scope = "_Send / _Recv (partitioner)" if group["scope"].startswith("_Send / _Recv") \
        else group["scope"]
    if special:
        scope += f" ({special})"
    count = f"{group['count']} op{'s' * (group['count'] != 1)}"
    if not variables:
        size = f" \u00b7 {human_bytes(group['bytes'])}" if group["bytes"] else ""
        return [("group", scope, count + size, color)]
    if len(variables) == 1 and variables[0]["name"] == group["scope"] and not special:
        op = variables[0]
        return [("variable", f"{op['name']}  {_dtype_shape(op)}",
                 f"{human_bytes(op.get('bytes') or 0)} \u00b7 {count}", color)]
    rows = [("vgroup", scope, count, color)]
    for op in variables[:3]:
        rows.append(("member", f"{op['name']}  {_dtype_shape(op)}",
                     human_bytes(op.get("bytes") or 0), color))
    if len(variables) > 3:
        rows.append(("member", f"+{len(variables) - 3} more variables", "", color))
    return rows


def _dtype_shape(op):
    """'float32 [784, 100]', 'int64 scalar'."""
    shape = op.get("shape")
    shape = "?" if shape is None else "scalar" if shape == [] else \
        f"[{', '.join('?' if d is None else str(d) for d in shape)}]"
    return f"{op.get('dtype') or ''} {shape}".strip()


def _unplaced_lines(unplaced):
    """A box for the ops no step has needed yet: TF places an op only when a step runs it."""
    names = ", ".join(u["name"] for u in unplaced[:6]) + (", ..." if len(unplaced) > 6 else "")
    names = _wrap(names, _BOX_W - 4 * _PAD).split("\n")[:4]
    return [("header", "not placed yet", "", "#777777"),
            ("summary", f"{len(unplaced)} ops", "no step has needed them", "#777777")] + \
        [("more", line, "", "#777777") for line in names]


_ROW_HEIGHT = {"header": _HEADER, "end": _PAD}


def _box_height(lines):
    return sum(_ROW_HEIGHT.get(kind, _LINE) for kind, *_ in lines) + 2 * _PAD


def _grid(tasks, boxes):
    """Top-left corners of the boxes, and the width and height of them all: one row when
    they are four at most, else a row (or more) per job of at most 4 boxes (6 past 8 tasks);
    the box of unplaced ops ends the last row."""
    cols = 4 if len(boxes) <= 8 else 6
    jobs = [t.get("job", "") for t in tasks]
    rows, row = [], []
    for i in range(len(boxes)):
        new_job = i < len(jobs) and row and jobs[i] != jobs[row[-1]] and len(boxes) > 4
        if row and (len(row) == cols or new_job):
            rows.append(row)
            row = []
        row.append(i)
    if row:
        rows.append(row)
    places, y = [None] * len(boxes), -_GAP / 2
    for row in rows:
        for j, i in enumerate(row):
            places[i] = (_GAP / 2 + j * (_BOX_W + _GAP), y)
        y -= max(_box_height(boxes[i]) for i in row) + _GAP
    width = max((len(r) for r in rows), default=1) * (_BOX_W + _GAP)
    return places, width, -y - _GAP / 2


def _draw_box(ax, x, top, lines, scale=1.0):
    """A task's box: its header band in the job's colour, then its rows (text at `scale`
    times its size, when the axes are smaller than the layout)."""
    color = lines[0][3]
    height = _box_height(lines)
    ax.add_patch(FancyBboxPatch((x, top - height), _BOX_W, height,
                                boxstyle="round,pad=0,rounding_size=0.08",
                                fc=_tint(color, 0.08), ec=color, lw=2.5,
                                gid=f"box {lines[0][1]}"))
    y = top - _PAD
    device_top = None
    for kind, left, right, _ in lines:
        row = _ROW_HEIGHT.get(kind, _LINE)
        if kind == "device":
            device_top = y
        elif kind == "end" and device_top is not None:
            ax.add_patch(Rectangle((x + _PAD, y - _PAD / 2), _BOX_W - 2 * _PAD,
                                   device_top - y + _PAD / 2,
                                   fc="white", ec=color, lw=1, ls="--", zorder=1))
        _draw_row(ax, kind, x, y - row / 2, row, left, right, color, scale)
        y -= row


def _draw_row(ax, kind, x, y, row, left, right, color, scale):
    """One row of a box, its left text cut to leave room for its right text."""
    if kind == "header":
        ax.add_patch(Rectangle((x + 0.02, y - row / 2), _BOX_W - 0.04, row, fc=color,
                               ec="none", zorder=1))
        _row_text(ax, x + 2 * _PAD, y, _BOX_W - 4 * _PAD, left, right, FONT + 1, scale,
                  "bold", "white")
        return
    indent = {"group": 2, "vgroup": 2, "variable": 2, "member": 4, "more": 2}.get(kind, 1) \
        * _PAD
    if kind in ("group", "vgroup", "variable", "member"):
        ax.add_patch(Rectangle((x + indent - _PAD / 2, y - row / 2), _BOX_W - _PAD - indent,
                               row, fc=_tint(color, 0.28 if kind != "group" else 0.14),
                               ec="white", lw=1.5, zorder=2))
    weight = "bold" if kind in ("vgroup", "variable", "member") else "normal"
    style = "italic" if kind in ("device", "more") else "normal"
    _row_text(ax, x + indent, y, _BOX_W - indent - 2 * _PAD, left, right, SMALL, scale,
              weight, "black", style)


def _row_text(ax, x, y, width, left, right, size, scale, weight, color, style="normal"):
    """`left` at x and `right` ending at x + width (inches), `left` cut short with '...' so
    that the two never touch; drawn at `scale` times `size` (the layout shrunk as much)."""
    room = width - (_text_width(right, size, weight) + 0.15 if right else 0)
    ax.text(x, y, _fit(left, room, size, weight), ha="left", va="center",
            fontsize=size * scale, fontweight=weight, fontstyle=style, color=color, zorder=3)
    if right:
        ax.text(x + width, y, right, ha="right", va="center", fontsize=size * scale,
                fontweight=weight, fontstyle=style, color=color, zorder=3)


# -- traffic: who sends how much to whom -------------------------------------------------------
# Nodes sit in two columns, x = 0 (the ps tasks) and x = 1 (the others), one unit of y apart;
# the words for each right-hand node's arrows stand in a column to its right.
_KIND_ORDER = ("pull", "push", "sync", "control", "other")


def arrow_width(bytes_per_s, thin=1.0):
    """An arrow's line width in points: 1 for 100 B/s or less, +1.6 per factor of ten
    (1 kB/s: 2.6, 1 MB/s: 7.4, 100 MB/s: 10.6), at most 12 -- a log scale, the same in every
    picture but those of more than 40 arrows, where every width is `thin` times that."""
    return thin * min(12.0, max(1.0, 1.0 + 1.6 * (math.log10(max(bytes_per_s, 1.0)) - 2.0)))


def draw_traffic(state, ax=None):
    """The traffic of `state` (TrafficModel.to_dict()): one node per task (ps on the left,
    the others on the right, a dead task grey), one arrow per (sender, receiver, kind) that
    moved bytes in the window (bytes_per_s > 0), as wide as its bytes/s on a log scale and
    coloured by kind, its bytes/s and messages/s written beside the right-hand node. Past 40
    arrows every width is 0.6 times as much (the legend says so)."""
    tasks = state.get("tasks") or []
    left = [t for t in tasks if t.get("job") == "ps"]
    right = [t for t in tasks if t.get("job") != "ps"]
    if not right:
        left, right = [], left                  # no ps: one column
    arrows = [a for a in state.get("arrows") or [] if a.get("bytes_per_s", 0) > 0]
    fig, ax = _panel(ax, _traffic_size(state))
    _title(ax, "Traffic between tasks",
           f"bytes/s and messages/s over the {state.get('window', 1):g} s before "
           f"t = {state.get('at', 0):.2f} s, measured from the tasks' trace totals")
    ax.axis("off")
    if not tasks:
        _nothing(ax, "nothing yet: no task has been observed")
        return fig
    ax.set_ylim(-len(right) + 0.4, 0.6)
    thin = 1.0 if len(arrows) <= 40 else 0.6
    _traffic_legend(ax, state, arrows, thin)
    _settle(ax)
    totals = {t["short"]: _in_out(t["short"], arrows) for t in left}
    widths = (_node_width(left, totals), _node_width(right, {}))
    words, per_inch = _fit_words(ax, left, right, arrows, widths)
    nodes = _node_places(left, right, arrows, [w * per_inch for w in widths])
    for task in left + right:
        _draw_node(ax, task, nodes[task["short"]], totals.get(task["short"], ""))
    colors = _kind_colors(state)
    for i, (start, end) in _arrow_ends(arrows, nodes).items():
        _draw_arrow(ax, arrows[i], start, end, colors.get(arrows[i]["kind"], "#555555"),
                    thin)
    _draw_arrow_words(ax, words, nodes, colors)
    if not arrows:
        ax.text(0.5, -(len(right) - 1) / 2, f"no traffic in the last "
                f"{state.get('window', 1):g} s", ha="center", va="center", fontsize=FONT,
                color="#555555", bbox=dict(fc="white", ec="#999999"))
    return fig


def _traffic_size(state, width=14.0):
    """A figure size for the arrows: 1.4 inches a right-hand node (1.0 past six)."""
    right = sum(1 for t in state.get("tasks") or [] if t.get("job") != "ps")
    return width, max(4.5, (1.4 if right <= 6 else 1.0) * right + 2.6)


def _node_places(left, right, arrows, widths):
    """{short name: (x, y, height, width)}: the right column one unit apart from y = 0 down,
    the left column spread over the same height; a node is as tall as the arrows meeting
    there need (a ps is tall: every worker's arrows meet there), as room allows."""
    meeting = {}
    for a in arrows:
        for name in (a["src"], a["dst"]):
            meeting[name] = meeting.get(name, 0) + 1
    tall = lambda name, room: min(0.8 * room, max(0.6, 0.13 * meeting.get(name, 0)))  # noqa
    places = {t["short"]: (1.0, -float(i), tall(t["short"], 1.0), widths[1])
              for i, t in enumerate(right)}
    span = max(len(right) - 1, 0)
    for j, t in enumerate(left):
        places[t["short"]] = (0.0, -span * (j + 0.5) / len(left) if span else 0.0,
                              tall(t["short"], max(1.0, len(right) / len(left))), widths[0])
    return places


def _in_out(name, arrows):
    """'in 160 MB/s\nout 161 MB/s': what a node receives and sends per second."""
    received = sum(a["bytes_per_s"] for a in arrows if a["dst"] == name)
    sent = sum(a["bytes_per_s"] for a in arrows if a["src"] == name)
    return f"in {human_bytes(received)}/s\nout {human_bytes(sent)}/s"


def _draw_node(ax, task, place, words=""):
    """A task: a box in its job's colour (hatched grey if dead) with its name, and `words`
    below the name (a ps's totals)."""
    x, y, height, width = place
    dead = task.get("state") == "dead"
    color = DEAD if dead else task.get("color") or DEAD
    ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                boxstyle="round,pad=0,rounding_size=0.04", fc=color,
                                ec="#555555" if dead else "none", lw=1.5, zorder=3,
                                hatch="//" if dead else None, gid=f"node {task['short']}"))
    text = task["short"] + ("" if task.get("state", "alive") == "alive" else
                            f"\n{task['state']}")
    if words and height >= 1.0:
        ax.text(x, y - 0.12, words, ha="center", va="top", fontsize=SMALL, color="white",
                zorder=4)
        y += 0.12
    ax.text(x, y, text, ha="center", va="center", fontsize=FONT, fontweight="bold",
            color="black" if dead else "white", zorder=4,
            bbox=dict(fc="white", ec="none", alpha=0.8, pad=1) if dead else None)


def _arrow_ends(arrows, nodes):
    """{index in arrows: ((x, y) start, (x, y) end)}: the arrows meeting at a node are spread
    along its inner edge, ordered by where their other end is (top first) and then by kind,
    so that they cross as little as possible. Arrows between two nodes of one column leave
    from the column's inner side (and are drawn as arcs)."""
    slots = {}
    for i, a in enumerate(arrows):
        if a["src"] in nodes and a["dst"] in nodes:
            for me, other in ((a["src"], a["dst"]), (a["dst"], a["src"])):
                key = (-nodes[other][1], _kind_rank(a["kind"]), a["src"])
                slots.setdefault(me, []).append((key, i))
    ends = {}
    for me, items in slots.items():
        x, y, height, width = nodes[me]
        items.sort()
        for k, (_, i) in enumerate(items):
            a = arrows[i]
            other_x = nodes[a["dst"] if me == a["src"] else a["src"]][0]
            inward = 1 if other_x > x or (other_x == x and x == 0.0) else -1
            point = (x + inward * width / 2,
                     y + 0.8 * height * (0.5 - (k + 0.5) / len(items)))
            ends.setdefault(i, [None, None])[0 if me == a["src"] else 1] = point
    return {i: tuple(e) for i, e in ends.items()}


def _kind_rank(kind):
    return _KIND_ORDER.index(kind) if kind in _KIND_ORDER else len(_KIND_ORDER)


def _kind_colors(state):
    return {k["kind"]: k["color"] for k in state.get("kinds") or []}


def _draw_arrow(ax, arrow, start, end, color, thin):
    """One arrow, as wide as its bytes/s (log scale); an arc when both ends are in one
    column."""
    width = arrow_width(arrow["bytes_per_s"], thin)
    bend = 0.0 if start[0] != end[0] else (0.5 if start[0] > 0 else -0.5)
    ax.add_patch(FancyArrowPatch(
        start, end, arrowstyle="-|>", mutation_scale=8 + 1.6 * width, linewidth=width,
        color=color, alpha=0.85, shrinkA=0, shrinkB=0, zorder=2,
        connectionstyle=f"arc3,rad={bend}", capstyle="butt", joinstyle="miter",
        gid=f"arrow {arrow['src']} {arrow['dst']} {arrow['kind']}"))


def _lines_per_node(ax, rows):
    """How many lines of SMALL text fit beside one of `rows` nodes one unit apart (at the
    axes' size before layout: a little less after)."""
    height = _axes_inches(ax)[1] * 0.85
    return max(1, int(height / max(rows, 1) * 72 / (SMALL * 1.3)))


def _node_width(tasks, totals):
    """Inches a column's nodes need: their names (and a ps's totals) with a margin."""
    texts = [(t["short"], FONT, "bold") for t in tasks] + \
        [(line, SMALL, "normal") for words in totals.values() for line in words.split("\n")]
    return max((_text_width(*text) for text in texts), default=0.5) + 0.3


def _columns(ax, widths, label_w, gap=0.12):
    """Sets the x axis so that the two columns of nodes (x = 0 and 1, `widths` inches wide)
    and `label_w` inches of words right of the right column fit the axes (if they can: the
    columns stay 1.5 inches apart); returns the data units per inch, or None if the words
    did not fit."""
    width = _axes_inches(ax)[0] * 0.97
    apart = width - widths[0] / 2 - widths[1] / 2 - gap - label_w - 0.1
    per_inch = 1.0 / max(apart, 1.5)
    ax.set_xlim(-(widths[0] / 2 + 0.05) * per_inch, 1 + (widths[1] / 2 + gap + label_w) *
                per_inch)
    return per_inch if apart >= 1.5 else None


def _fit_words(ax, left, right, arrows, widths):
    """({right-hand node: its words}, data units per inch): the words as many lines as fit
    beside a node, without messages/s if they do not fit across; the x axis set to hold the
    two columns of nodes and the words."""
    lines = _lines_per_node(ax, len(right))
    for rates in (True, False):
        words = {t["short"]: _arrow_words(t["short"], arrows, lines, len(left) > 1, rates)
                 for t in right}
        width = max((_text_width(w, SMALL) for ws in words.values() for w, _ in ws),
                    default=0.0)
        per_inch = _columns(ax, widths, width)
        if per_inch:
            return words, per_inch
    return words, (ax.get_xlim()[1] - ax.get_xlim()[0]) / _axes_inches(ax)[0]


def _arrow_words(me, arrows, lines, several_peers, rates=True):
    """[(text, kind)] for the arrows of node `me`: '→ pull  88.4 MB/s · 278 msg/s' (→ comes
    in, ← goes out, as drawn; the messages/s only if `rates`). When they do not fit in
    `lines`, the arrows of one kind and direction are summed over their peers, then the
    smallest are counted ("+N more")."""
    mine = [a for a in arrows if me in (a["src"], a["dst"])]
    mine.sort(key=lambda a: (_kind_rank(a["kind"]), a["src"] == me))
    rows = [(a["dst"] == me, a["kind"], a["src"] if a["dst"] == me else a["dst"],
             a["bytes_per_s"], a["messages_per_s"], 1) for a in mine]
    if len(rows) > lines:
        rows, several_peers = _over_peers(rows), False
    hidden = []
    if len(rows) > lines:
        rows.sort(key=lambda r: -r[3])
        rows, hidden = rows[:max(lines - 1, 0)], rows[max(lines - 1, 0):]
        rows.sort(key=lambda r: (_kind_rank(r[1]), not r[0]))
    words = []
    for incoming, kind, peer, b, m, n in rows:
        arrow = "\u2192" if incoming else "\u2190"
        who = f" {peer}" if several_peers and peer else \
            f" {'from' if incoming else 'to'} {n} tasks" if n > 1 else ""
        rate = human_bytes(b) + "/s" + (f" \u00b7 {_count(m)} msg/s" if m and rates else "")
        words.append((f"{arrow} {kind}{who}  {rate}", kind))
    if hidden:
        words.append((f"+{len(hidden)} more, {human_bytes(sum(r[3] for r in hidden))}/s",
                      "more"))
    return words


def _over_peers(rows):
    """The rows (incoming, kind, peer, bytes/s, messages/s, arrows) of one kind and direction
    summed into one, peer None."""
    merged = {}
    for incoming, kind, _, b, m, n in rows:
        old = merged.get((incoming, kind), (0.0, 0.0, 0))
        merged[(incoming, kind)] = (old[0] + b, old[1] + m, old[2] + n)
    return [(incoming, kind, None, b, m, n) for (incoming, kind), (b, m, n) in merged.items()]


def _draw_arrow_words(ax, words, nodes, colors):
    """Each right-hand node's words, one line per arrow in the arrow's colour, centred on
    the node (placed in points from its edge: they keep their spacing at any size)."""
    line = SMALL * 1.3
    for name, lines in words.items():
        x, y, _, width = nodes[name]
        for k, (text, kind) in enumerate(lines):
            ax.annotate(text, (x + width / 2, y), textcoords="offset points",
                        xytext=(7, line * ((len(lines) - 1) / 2 - k)), ha="left",
                        va="center", fontsize=SMALL, color=colors.get(kind, "#444444"),
                        zorder=4, annotation_clip=False)


def _traffic_legend(ax, state, arrows, thin):
    """Below the panel: the kinds drawn, and three widths to read the arrows by."""
    drawn = {a["kind"] for a in arrows}
    kinds = [Patch(color=k["color"], label=k["label"]) for k in state.get("kinds") or []
             if k["kind"] in drawn]
    widths = [Line2D([], [], color="#555555", linewidth=arrow_width(b, thin),
                     label=f"{human_bytes(b)}/s") for b in (1e3, 1e6, 1e8)]
    used = _legend_below(ax, widths, "width: bytes/s (log scale)", right=True)
    _legend_below(ax, kinds, "colour: kind of traffic", room=_axes_inches(ax)[0] - used - 0.3)


# -- swim lanes: a space-time diagram of the last steps ----------------------------------------
def draw_lanes(state, ax=None):
    """The swim lanes of `state["lanes"]` (TrafficModel.to_dict()): one lane per task, time in
    ms across; each message an arrow from (sender, sent) to (receiver, received) coloured by
    kind -- its slope is the measured latency -- or, when its receipt was not seen, a stub
    ending in an open circle; the requests a task served and the delays the sandbox added as
    translucent bars (stacked when they overlap); stretches whose records were not read
    hatched grey (a lane is never drawn idle where it was only unread)."""
    lanes = state.get("lanes") or {}
    names = _lane_names(state)
    fig, ax = _panel(ax, _lanes_size(state))
    start, end = lanes.get("start", 0.0), lanes.get("end", 0.0)
    length = max(end - start, 1e-6) * 1000
    _title(ax, "Swim lanes: every message " + (f"of the last {length:.3g} ms" if
                                               end > start else "between the tasks"),
           "an arrow from its send (the sender's trace) to its receipt (the receiver's "
           "trace); bars: requests served, delays added")
    if not names:
        ax.axis("off")
        _nothing(ax, "nothing yet: no task has been observed")
        return fig
    def ms(t):
        return (t - start) * 1000.0

    lane = {name: -float(i) for i, name in enumerate(names)}
    ax.set_xlim(0, length)
    ax.set_ylim(-len(names) + 0.45, 0.55)
    _lane_axis(ax, state, names, lane, start)
    drawn = {"not read": _not_read(ax, lanes, names, lane, start, end)}
    drawn.update(_spans(ax, lanes.get("spans") or [], lane, ms))
    drawn.update(_messages(ax, lanes.get("messages") or [], lane, ms, _kind_colors(state)))
    if not lanes.get("messages") and not lanes.get("spans"):
        ax.text(length / 2, -(len(names) - 1) / 2, "no messages in this window",
                ha="center", va="center", fontsize=FONT, color="#555555",
                bbox=dict(fc="white", ec="#999999"), zorder=5)
    _lanes_legend(ax, state, drawn)
    return fig


def _lanes_size(state, width=14.0):
    return width, max(4.0, 0.95 * len(_lane_names(state)) + 2.8)


def _lane_names(state):
    """The lanes, top to bottom: the tasks in the state's order, then any other name the
    lanes mention."""
    names = [t["short"] for t in state.get("tasks") or []]
    lanes = state.get("lanes") or {}
    for item in (lanes.get("messages") or []) + (lanes.get("spans") or []):
        for key in ("src", "dst", "task"):
            if item.get(key) and item[key] not in names:
                names.append(item[key])
    return names


def _lane_axis(ax, state, names, lane, start):
    """Task names on the left in their job's colour, a light band per lane (grey if dead)."""
    by_name = {t["short"]: t for t in state.get("tasks") or []}
    ax.set_yticks([lane[n] for n in names])
    labels = []
    for name in names:
        task = by_name.get(name, {})
        alive = task.get("state", "alive") == "alive"
        labels.append(name if alive else f"{name} ({task['state']})")
        ax.axhspan(lane[name] - 0.45, lane[name] + 0.45, color="#eeeeee" if alive else DEAD,
                   alpha=1 if alive else 0.45, zorder=0, lw=0)
    ax.set_yticklabels(labels)
    for label, name in zip(ax.get_yticklabels(), names):
        label.set_color(by_name.get(name, {}).get("color", "black"))
        label.set_fontweight("bold")
    ax.set_xlabel(f"milliseconds since t = {start:.3f} s")
    ax.tick_params(axis="y", length=0)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)


def _not_read(ax, lanes, names, lane, start, end):
    """Hatches the stretches of each lane its coverage does not reach; True if any."""
    coverage = lanes.get("coverage")
    if coverage is None:
        return False
    any_gap = False
    for name in names:
        for a, b in _gaps(coverage.get(name) or [], start, end):
            ax.add_patch(Rectangle(((a - start) * 1000, lane[name] - 0.45), (b - a) * 1000,
                                   0.9, fc="white", ec="#999999", hatch="///", lw=0,
                                   zorder=0.5, gid=f"not read {name}"))
            any_gap = True
    return any_gap


def _gaps(covered, start, end):
    """The parts of [start, end] that no [a, b] of `covered` reaches."""
    gaps, at = [], start
    for a, b in sorted(covered):
        if a > at:
            gaps.append((at, min(a, end)))
        at = max(at, b)
        if at >= end:
            break
    if at < end:
        gaps.append((at, end))
    return [(a, b) for a, b in gaps if b > a]


def _spans(ax, spans, lane, ms):
    """Each span a translucent bar on its lane; spans that overlap in time stack in rows
    (up to four), so a ps serving three workers at once shows three bars. {kind: True}."""
    rows = {}                       # lane -> [end of each row's last bar]
    placed = []
    for span in sorted(spans, key=lambda s: s["t0"]):
        ends = rows.setdefault(span["task"], [])
        row = next((r for r, e in enumerate(ends) if e <= span["t0"]), None)
        if row is None:
            row = min(len(ends), 3)
            ends.extend([0.0] * (row + 1 - len(ends)))
        ends[row] = max(ends[row], span["t1"])
        placed.append((span, row))
    kinds = {}
    for span, row in placed:
        if span["task"] not in lane:
            continue
        n = len(rows[span["task"]])
        height = 0.8 / n
        color = SPAN_STYLES.get(span["kind"], OTHER_SPAN)[0]
        ax.add_patch(Rectangle((ms(span["t0"]), lane[span["task"]] - 0.4 + row * height),
                               max(ms(span["t1"]) - ms(span["t0"]), 0.0), height * 0.9,
                               fc=color, alpha=0.45, ec=color, lw=1, zorder=1,
                               gid=f"span {span['task']} {span['kind']}"))
        kinds[span["kind"] if span["kind"] in SPAN_STYLES else "other span"] = True
    return kinds


def _messages(ax, messages, lane, ms, colors):
    """One arrow per message and kind: the tensors one task sent another in one wire message
    (same times) are one arrow per kind, side by side 3 points apart (a sync token riding
    with the parameters shows beside them); a stub ending in an open circle where the
    receipt was not seen. {kind: True, "no receipt": bool}."""
    wire = {}
    for m in messages:
        if m["src"] in lane and m["dst"] in lane:
            kinds = wire.setdefault((m["src"], m["dst"], m["t_send"], m["t_recv"]), [])
            if m["kind"] not in kinds:
                kinds.append(m["kind"])
    drawn = {"no receipt": False}
    fig = ax.get_figure(root=True)
    for (src, dst, t_send, t_recv), kinds in wire.items():
        kinds.sort(key=_kind_rank)
        for k, kind in enumerate(kinds):
            shift = offset_copy(ax.transData, fig, x=3.0 * (k - (len(kinds) - 1) / 2),
                                units="points")
            _message(ax, lane[src], lane[dst], ms(t_send),
                     None if t_recv is None else ms(t_recv), colors.get(kind, "#555555"),
                     shift)
            drawn[kind] = True
        drawn["no receipt"] |= t_recv is None
    return drawn


def _message(ax, y0, y1, x_send, x_recv, color, transform):
    """An arrow from (x_send, y0) to (x_recv, y1), or, when x_recv is None, a stub from the
    sender toward the receiver's lane ending in an open circle."""
    if x_recv is None:
        y_end = y0 + 0.35 * (1 if y1 > y0 else -1)
        ax.plot([x_send] * 2, [y0, y_end], color=color, lw=2, zorder=3, transform=transform,
                gid="message stub")
        ax.plot([x_send], [y_end], marker="o", mfc="white", mec=color, ms=7, mew=2,
                zorder=4, transform=transform)
        return
    ax.add_patch(FancyArrowPatch((x_send, y0), (x_recv, y1), arrowstyle="-|>",
                                 mutation_scale=14, lw=2, color=color, shrinkA=0, shrinkB=2,
                                 zorder=3, transform=transform, gid="message"))


def _lanes_legend(ax, state, drawn):
    """Below the panel: the kinds of messages drawn, the kinds of bars, "not read"."""
    handles = [Line2D([], [], color=k["color"], lw=2.5, marker=">", ms=7, label=k["label"])
               for k in state.get("kinds") or [] if drawn.get(k["kind"])]
    if drawn.get("no receipt"):
        handles.append(Line2D([], [], color="#555555", lw=2, marker="o", mfc="white", ms=7,
                              label="receipt not seen"))
    for kind, (color, label) in list(SPAN_STYLES.items()) + [("other span", OTHER_SPAN)]:
        if drawn.get(kind):
            handles.append(Patch(fc=color, alpha=0.45, ec=color, label=label))
    if drawn.get("not read"):
        handles.append(Patch(fc="white", ec="#999999", hatch="///",
                             label="not read (records not fetched)"))
    _legend_below(ax, handles, below=2.2 * FONT + 14)


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
            draw(states_by_label[label], sub)
        if title:
            fig.suptitle(title, fontsize=TITLE + 4, fontweight="bold")
    return fig
