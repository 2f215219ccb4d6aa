"""Swim lanes: a space-time diagram of the last steps, as ShiViz draws a distributed run.

  draw_lanes(state)   one lane per task, time in ms across; one arrow per message from the
                      moment it was sent to the moment it arrived, coloured by kind (a stub
                      ending in an open circle when its receipt was not seen); the requests
                      a task served and the delays the sandbox added as translucent bars;
                      stretches whose records were not read hatched grey.

The TF idea: a step is a conversation between processes -- a worker runs its graph piece
(RunGraph), pulls the parameters from the ps and pushes its gradients back -- and an arrow's
slope is the measured latency, so ordering and waiting show at a glance: where a task waits
for a message, a straggler's extra time, a slow link's wait.

The state is TrafficModel.to_dict()'s "lanes" (traffic_model.py), the one the live
TrafficView draws below its arrows (traffic_picture.py: the same kinds, in the same colours).
"""
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch, Rectangle
from matplotlib.transforms import offset_copy

from .palette import DEAD_COLOR as DEAD
from .shared_picture_style import FONT, _legend_below, _nothing, _panel, _title
from .traffic_picture import _kind_colors, _kind_rank

__all__ = ["draw_lanes", "SPAN_STYLES", "OTHER_SPAN"]

# The bars on a lane: a kind of span (a request served, a delay added) -> (colour, legend).
SPAN_STYLES = {"RunStep": ("#17becf", "a master ran a step (RunStep served)"),
               "RunGraph": ("#bcbd22", "a graph piece ran (RunGraph served)"),
               "straggle": ("#e377c2", "straggler's extra time (step_delay)"),
               "link_delay": ("#ff9896", "slow link's wait (latency, bandwidth)")}
OTHER_SPAN = ("#c7c7c7", "other requests served")


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
