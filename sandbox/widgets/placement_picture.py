"""Placement: which task, and which device of it, holds each op.

  draw_placement(state)   one box per task, grouped and coloured by job (a dead task grey,
                          marked dead); inside it its devices; inside each device its ops
                          grouped by name scope, variables in bold with their dtype, shape
                          and bytes; the ops no step has needed yet in a box of their own.

The TF idea: `tf.device` and `replica_device_setter` put the variables on the ps and the
computation on the workers; the partitioner adds the _Send/_Recv pairs that connect them (a
group of their own in each box); and TF places an op only when a step runs it, so ops that
no step has needed stand apart, "not placed yet".

The state is PlacementModel.to_dict() (placement_model.py), the one the live PlacementView
draws. The boxes are measured in inches, so that their text keeps its size; an Axes given
smaller than the layout draws the text smaller.
"""
from matplotlib.patches import FancyBboxPatch, Rectangle

from .palette import DEAD_COLOR as DEAD
from .shared_picture_style import (FONT, SMALL, _axes_inches, _fit, _nothing, _panel,
                                   _settle, _text_width, _tint, _title, _wrap, human_bytes)

__all__ = ["draw_placement"]

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
