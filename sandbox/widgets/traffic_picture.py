"""Traffic: who sends how much to whom, as arrows between the tasks.

  draw_traffic(state)   tasks as nodes (ps left, workers right, a dead task grey), one arrow
                        per (sender, receiver, kind) that moved bytes in the window, as wide
                        as its bytes/s on a log scale (arrow_width) and coloured by kind, its
                        bytes/s and messages/s written beside the right-hand node.

The TF idea: with the variables on the ps, workers pull parameters from the ps and push
gradients back, every step -- so every worker's arrows meet at the ps (drawn tall for them),
and the bytes/s through it grow with every worker added.

The state is TrafficModel.to_dict() (traffic_model.py), the one the live TrafficView draws:
rates measured from the tasks' trace totals over a window. lanes_picture.py draws the same
messages in time, one by one.
"""
import math

from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch

from .palette import DEAD_COLOR as DEAD
from .shared_picture_style import (FONT, SMALL, _axes_inches, _count, _legend_below,
                                   _nothing, _panel, _settle, _text_width, _title,
                                   human_bytes)

__all__ = ["draw_traffic", "arrow_width"]

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
