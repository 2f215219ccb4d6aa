"""The views drawn with matplotlib (sandbox/widgets/pictures.py) draw what their state says:
one line per run and segment, one arrow per (sender, receiver, kind) that moved bytes, one
box per task, dead tasks grey, an explanatory text for an empty state -- and stay legible:
no two texts overlap, none leaves the figure, none is smaller than 11 pt, and the largest
case (2 ps and 16 workers) draws its task boxes apart.

The states in tests/data/pictures/ were measured on a running cluster (/tmp/make_examples.py
in the widgets' issue): a sync run of 1 ps and 3 workers (placement, traffic live and
paused), an async run whose worker:2 was killed (traffic paused: no arrows), and the curves
of both runs."""
import copy
import itertools
import json
import pathlib

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch
from matplotlib.table import Table
from matplotlib.text import Text

from sandbox.widgets import pictures
from sandbox.widgets.palette import DEAD_COLOR as DEAD

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "pictures"


def load(name):
    return json.loads((DATA / f"{name}.json").read_text())


# -- what every picture must be: readable ---------------------------------------------------------
def drawn_texts(fig):
    """(text, window extent) of every text `fig` shows: visible, not empty, and for tick
    labels, only those of the ticks an axis really draws."""
    if not hasattr(fig.canvas, "get_renderer"):
        FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    ticks, drawn_ticks = set(), set()
    for ax in fig.get_axes():
        for axis in (ax.xaxis, ax.yaxis):
            ticks |= {id(t) for tick in axis.get_major_ticks() + axis.get_minor_ticks()
                      for t in (tick.label1, tick.label2)}
            if ax.axison and axis.get_visible():
                drawn_ticks |= {id(t) for tick in axis._update_ticks()
                                for t in (tick.label1, tick.label2)}
    texts = []
    for t in fig.findobj(Text):
        if not t.get_visible() or not t.get_text().strip():
            continue
        if id(t) in ticks and id(t) not in drawn_ticks:
            continue
        texts.append((t, t.get_window_extent(renderer)))
    return texts


def overlapping_texts(fig, slack=1.0):
    """Pairs of texts whose boxes overlap by more than `slack` pixels both ways."""
    texts = drawn_texts(fig)
    pairs = []
    texts.sort(key=lambda tb: tb[1].x0)
    for i, (a, box_a) in enumerate(texts):
        for b, box_b in texts[i + 1:]:
            if box_b.x0 > box_a.x1 - slack:
                break
            if min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > slack and \
                    min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > slack:
                pairs.append((a.get_text(), b.get_text()))
    return pairs


def assert_legible(fig):
    texts = drawn_texts(fig)
    assert texts, "the picture has no text at all"
    small = sorted({(t.get_text()[:40], t.get_fontsize()) for t, _ in texts
                    if t.get_fontsize() < 11})
    assert not small, f"texts smaller than 11 pt: {small[:5]}"
    page = fig.bbox
    outside = [t.get_text()[:40] for t, box in texts
               if box.x0 < page.x0 - 2 or box.x1 > page.x1 + 2 or box.y0 < page.y0 - 2
               or box.y1 > page.y1 + 2]
    assert not outside, f"texts cut off by the figure's edge: {outside[:5]}"
    overlaps = overlapping_texts(fig)
    assert not overlaps, f"{len(overlaps)} texts overlap, e.g. {overlaps[:3]}"


def assert_saves(fig, tmp_path, name):
    path = pictures.save(fig, str(tmp_path / "out" / f"{name}.png"))
    data = pathlib.Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def texts_of(fig):
    return [t.get_text() for t in fig.findobj(Text)]


def patches(fig, prefix):
    return [p for ax in fig.get_axes() for p in ax.patches
            if (p.get_gid() or "").startswith(prefix)]


def lines(fig, prefix):
    return [line for ax in fig.get_axes() for line in ax.lines
            if (line.get_gid() or "").startswith(prefix)]


# -- the largest case, made from the measured examples --------------------------------------------
def rename(obj, names):
    """`obj` (a JSON value) with every string that is a key of `names` replaced."""
    if isinstance(obj, dict):
        return {k: rename(v, names) for k, v in obj.items()}
    if isinstance(obj, list):
        return [rename(v, names) for v in obj]
    return names.get(obj, obj) if isinstance(obj, str) else obj


def task_names(job, index):
    return {f"/job:{job}/replica:0/task:0": f"/job:{job}/replica:0/task:{index}",
            f"{job}:0": f"{job}:{index}"}


def big_placement(n_ps=2, n_workers=16, dead=(5,)):
    """The sync run's placement with its ps copied `n_ps` times and its workers 16 (worker:0
    the chief, the others as worker:1): 2,000 ops."""
    example = load("placement_cluster_sync")
    by_short = {t["short"]: t for t in example["tasks"]}
    tasks = [rename(by_short["ps:0"], task_names("ps", i)) for i in range(n_ps)]
    for i in range(n_workers):
        source = by_short["worker:0" if i == 0 else "worker:1"]
        names = {source["name"]: f"/job:worker/replica:0/task:{i}", source["short"]:
                 f"worker:{i}"}
        task = rename(source, names)
        if i in dead:
            task.update(state="dead", color=DEAD)
        tasks.append(task)
    ops = sum(t["ops"] for t in tasks)
    return dict(example, tasks=tasks, counts={"tasks": len(tasks), "ops": ops,
                                              "variables": sum(t["variables"] for t in tasks)})


def big_traffic(n_ps=2, n_workers=16, dead=(5,)):
    """The sync run's traffic with 2 ps and 16 workers: every worker talks to every ps as
    worker:1 talked to ps:0, and its messages are worker:1's, a little later each."""
    example = load("traffic_sync_live")
    ps_tasks = [dict(example["tasks"][0], name=f"/job:ps/replica:0/task:{i}", short=f"ps:{i}")
                for i in range(n_ps)]
    workers = []
    for i in range(n_workers):
        task = dict(example["tasks"][1], name=f"/job:worker/replica:0/task:{i}",
                    short=f"worker:{i}")
        if i in dead:
            task.update(state="dead", color=DEAD)
        workers.append(task)
    one = [a for a in example["arrows"] if "worker:1" in (a["src"], a["dst"])]
    lanes = example["lanes"]
    messages = [m for m in lanes["messages"] if "worker:1" in (m["src"], m["dst"])]
    spans = [s for s in lanes["spans"] if s["task"] == "worker:1"]
    arrows, new_messages, new_spans = [], [], []
    for i, j in itertools.product(range(n_workers), range(n_ps)):
        names = {"worker:1": f"worker:{i}", "ps:0": f"ps:{j}"}
        arrows += [dict(rename(a, names), bytes_per_s=a["bytes_per_s"] / n_ps) for a in one]
        shift = 0.0002 * i + 0.00005 * j
        new_messages += [dict(rename(m, names), t_send=m["t_send"] + shift,
                              t_recv=m["t_recv"] + shift) for m in messages]
    for i in range(n_workers):
        new_spans += [rename(s, {"worker:1": f"worker:{i}"}) for s in spans]
    coverage = {t["short"]: [[lanes["start"], lanes["end"]]] for t in ps_tasks + workers}
    return dict(example, tasks=ps_tasks + workers, arrows=arrows,
                lanes=dict(lanes, messages=new_messages, spans=new_spans, coverage=coverage))


def boxes_apart(fig, prefix):
    """The window extents of the patches named `prefix`..., asserted pairwise disjoint."""
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    boxes = [(p.get_gid(), p.get_window_extent(renderer)) for p in patches(fig, prefix)]
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        assert not box_a.overlaps(box_b), f"{a} and {b} overlap"
    return boxes


# -- curves ---------------------------------------------------------------------------------------
def test_curves_draw_one_line_per_run_and_segment_and_the_seed_table(tmp_path):
    state = load("curves")
    fig = pictures.draw_curves(state)
    assert isinstance(fig, Figure)
    for run in state["runs"]:
        segments = {p[3] for p in run["loss"]} | {p[3] for p in run["accuracy"]}
        drawn = lines(fig, f"run {run['id']} ")
        assert len(drawn) == len({p[3] for p in run["loss"]}) + \
            len({p[3] for p in run["accuracy"]})
        assert {line.get_color() for line in drawn} == {run["color"]}
        assert len(segments) >= 1
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == [run["label"] for run in state["runs"]]
    # the kill of worker:2 in the async run: a dashed line on both panels, labelled
    assert len(lines(fig, "event ")) == 2
    assert texts_of(fig).count("worker:2 was killed") == 2
    # seed 002's table beside ours: async x3's final accuracy in the run's colour
    table = [c for ax in fig.axes for c in ax.get_children() if isinstance(c, Table)][0]
    cells = {(i, j): cell.get_text() for (i, j), cell in table.get_celld().items()}
    assert [cells[(i, 1)].get_text() for i in (1, 2, 3)] == ["0.42", "0.58", "0.65"]
    async_x3 = state["runs"][0]
    assert async_x3["label"] == "async x3"
    assert cells[(3, 2)].get_text() == f"{async_x3['summary']['test_accuracy']:.2f}"
    assert cells[(3, 2)].get_color() == async_x3["color"]
    assert cells[(1, 2)].get_text() == "\u2014"              # no async x1 run here
    assert_legible(fig)
    assert_saves(fig, tmp_path, "curves")


def test_a_changed_segment_breaks_a_line_into_two(tmp_path):
    state = load("curves")
    run = state["runs"][1]
    run["loss"] = [[s, s / 100, 2.0 - s / 1000, 0 if s < 300 else 1]
                   for s in range(0, 600, 10)]
    state["runs"] = [run]
    fig = pictures.draw_curves(state)
    drawn = lines(fig, f"run {run['id']} ")
    loss_lines = [line for line in drawn if line.axes is fig.axes[0]]
    assert len(loss_lines) == 2
    assert max(loss_lines[0].get_xdata()) < min(loss_lines[1].get_xdata()) + 301
    assert [line.get_label() for line in loss_lines] == [run["label"], "_nolegend_"]


def test_curves_by_time_use_the_seconds_and_both_show_step_and_time(tmp_path):
    state = load("curves")
    by_time = pictures.draw_curves(state, x_axis="time")
    run = state["runs"][1]
    line = lines(by_time, f"run {run['id']} ")[0]
    assert max(line.get_xdata()) == pytest.approx(max(p[1] for p in run["loss"]))
    assert "seconds" in by_time.axes[0].get_xlabel()
    both = pictures.draw_curves_both(state)
    labels = [ax.get_xlabel() for ax in both.axes if ax.get_xlabel()]
    assert sum("global step" in x for x in labels) == 2 and sum("seconds" in x
                                                               for x in labels) == 2
    assert len(lines(both, "run ")) == 2 * len(lines(by_time, "run "))
    assert_legible(both)
    assert_saves(both, tmp_path, "curves_both")


def test_curves_of_no_run_say_so():
    fig = pictures.draw_curves({"runs": [], "reference": load("curves")["reference"]})
    assert any(t.startswith("nothing yet") for t in texts_of(fig))
    assert not lines(fig, "run ")


# -- placement ------------------------------------------------------------------------------------
def test_placement_draws_a_box_per_task_with_its_variables_in_bold(tmp_path):
    state = load("placement_cluster_sync")
    fig = pictures.draw_placement(state)
    assert isinstance(fig, Figure)
    assert sorted(p.get_gid() for p in patches(fig, "box ")) == \
        sorted(f"box {t['short']}" for t in state["tasks"])
    bold = {t.get_text() for t in fig.findobj(Text) if t.get_fontweight() == "bold"}
    assert "w1  float32 [784, 100]" in bold and "314 kB \u00b7 3 ops" in bold
    assert any(t.startswith("sync_rep_local_step  int64") for t in bold)
    # ps:0 holds 18 groups: its variables first, then SyncReplicasOptimizer's accumulators
    # and token queue, then the groups of most ops; the last 5 groups only counted
    ps_groups = state["tasks"][0]["devices"][0]["groups"]
    assert len(ps_groups) == 18
    assert {"w1:0 (1 accumulator)", "sync_token_q (1 queue)", "+5 more groups"} <= \
        set(texts_of(fig))
    job_colors = {p.get_gid(): p.get_edgecolor() for p in patches(fig, "box ")}
    assert job_colors["box ps:0"][:3] != job_colors["box worker:0"][:3]
    assert_legible(fig)
    assert_saves(fig, tmp_path, "placement")


def test_placement_of_a_session_lists_the_ops_not_placed_yet(tmp_path):
    state = load("placement_session")
    fig = pictures.draw_placement(state)
    assert "box not placed yet" in {p.get_gid() for p in patches(fig, "box ")}
    assert "no ops placed here yet" in texts_of(fig)          # worker:1 ran nothing
    assert_legible(fig)


def test_placement_grays_a_dead_task_and_marks_it():
    state = load("placement_cluster_sync")
    state["tasks"][3].update(state="dead", color=DEAD)
    fig = pictures.draw_placement(state)
    box = {p.get_gid(): p for p in patches(fig, "box ")}["box worker:2"]
    assert box.get_edgecolor()[:3] == pytest.approx((0xb0 / 255,) * 3)
    assert "\u2716 dead" in texts_of(fig)


def test_placement_of_2_ps_and_16_workers_keeps_its_boxes_apart_and_legible(tmp_path):
    state = big_placement()
    assert state["counts"]["ops"] > 1000
    fig = pictures.draw_placement(state)
    assert len(boxes_apart(fig, "box ")) == 18
    assert sum(t.startswith("+") and "more group" in t for t in texts_of(fig)) >= 16
    assert_legible(fig)
    assert_saves(fig, tmp_path, "placement_big")


def test_placement_of_nothing_says_so():
    fig = pictures.draw_placement({"tasks": [], "unplaced": [], "note": "", "counts": {}})
    assert any(t.startswith("nothing placed yet") for t in texts_of(fig))


# -- traffic --------------------------------------------------------------------------------------
def moving(state):
    return [a for a in state["arrows"] if a["bytes_per_s"] > 0]


def test_traffic_draws_one_arrow_per_route_and_kind_that_moved_bytes(tmp_path):
    state = load("traffic_sync_live")
    fig = pictures.draw_traffic(state)
    arrows = patches(fig, "arrow ")
    assert 0 < len(moving(state)) < len(state["arrows"])      # two rows had 0 B/s
    assert sorted(p.get_gid() for p in arrows) == \
        sorted(f"arrow {a['src']} {a['dst']} {a['kind']}" for a in moving(state))
    colors = {k["kind"]: k["color"] for k in state["kinds"]}
    widths = {}
    for arrow, a in zip(sorted(arrows, key=lambda p: p.get_gid()),
                        sorted(moving(state), key=lambda a: f"{a['src']} {a['dst']} "
                                                            f"{a['kind']}")):
        assert arrow.get_edgecolor()[:3] == pytest.approx(
            tuple(int(colors[a["kind"]][i:i + 2], 16) / 255 for i in (1, 3, 5)))
        widths[a["bytes_per_s"]] = arrow.get_linewidth()
    rates = sorted(widths)
    assert [widths[r] for r in rates] == sorted(widths[r] for r in rates)   # wider: more
    pull = next(a for a in state["arrows"] if a["kind"] == "pull" and a["dst"] == "worker:0")
    assert f"\u2192 pull  {pictures.human_bytes(pull['bytes_per_s'])}/s \u00b7 " \
           f"{pull['messages_per_s']:.3g} msg/s" in texts_of(fig)
    assert_legible(fig)
    assert_saves(fig, tmp_path, "traffic")


def test_traffic_grays_a_dead_task_and_says_when_nothing_moved(tmp_path):
    state = load("traffic_async_paused")
    fig = pictures.draw_traffic(state)
    nodes = {p.get_gid(): p for p in patches(fig, "node ")}
    assert len(nodes) == 4 and not patches(fig, "arrow ")
    assert nodes["node worker:2"].get_facecolor()[:3] == pytest.approx((0xb0 / 255,) * 3)
    assert nodes["node worker:1"].get_facecolor()[:3] != pytest.approx((0xb0 / 255,) * 3)
    assert "no traffic in the last 1 s" in texts_of(fig)
    assert_legible(fig)


def test_traffic_of_2_ps_and_16_workers_keeps_its_nodes_apart_and_legible(tmp_path):
    state = big_traffic()
    fig = pictures.draw_traffic(state)
    assert len(boxes_apart(fig, "node ")) == 18
    assert len(patches(fig, "arrow ")) == len(moving(state))
    assert_legible(fig)
    assert_saves(fig, tmp_path, "traffic_big")


def test_traffic_of_no_task_says_so():
    fig = pictures.draw_traffic({"tasks": [], "arrows": [], "kinds": []})
    assert any(t.startswith("nothing yet") for t in texts_of(fig))


# -- swim lanes -----------------------------------------------------------------------------------
def test_lanes_draw_each_message_from_its_send_to_its_receipt(tmp_path):
    state = load("traffic_sync_live")
    lanes = state["lanes"]
    fig = pictures.draw_lanes(state)
    ax = fig.axes[0]
    wire = {(m["src"], m["dst"], m["kind"], m["t_send"], m["t_recv"])
            for m in lanes["messages"] if m["t_recv"] is not None}
    drawn = patches(fig, "message")
    assert len(drawn) == len(wire) and len(wire) < len(lanes["messages"])
    lane = {label.get_text(): y for label, y in zip(ax.get_yticklabels(), ax.get_yticks())}
    assert list(lane) == [t["short"] for t in state["tasks"]]
    # a push from worker:0 to ps:0 goes from worker:0's lane at its send to ps:0's at receipt
    push = next(m for m in lanes["messages"] if m["kind"] == "push")
    ends = [(round(p._posA_posB[0][0], 6), p._posA_posB[0][1], round(p._posA_posB[1][0], 6),
             p._posA_posB[1][1]) for p in drawn]
    assert (round(1000 * (push["t_send"] - lanes["start"]), 6), lane[push["src"]],
            round(1000 * (push["t_recv"] - lanes["start"]), 6), lane[push["dst"]]) in ends
    assert len(patches(fig, "span ")) == len(lanes["spans"])
    assert {p.get_gid() for p in patches(fig, "span ")} >= {"span worker:2 straggle",
                                                            "span ps:0 RunGraph"}
    assert patches(fig, "not read ps:0")                     # its records end before the end
    assert "not read (records not fetched)" in texts_of(fig)
    assert_legible(fig)
    assert_saves(fig, tmp_path, "lanes")


def test_lanes_draw_a_stub_where_the_receipt_was_not_seen():
    state = load("traffic_sync_live")
    messages = state["lanes"]["messages"]
    lost = [m for m in messages if m["kind"] == "pull"][:1]
    lost[0]["t_recv"] = None
    fig = pictures.draw_lanes(state)
    assert len(lines(fig, "message stub")) == 1
    assert "receipt not seen" in texts_of(fig)


def test_lanes_hatch_only_what_was_not_read_and_gray_a_dead_lane():
    state = load("traffic_async_paused")
    fig = pictures.draw_lanes(state)
    assert "no messages in this window" in texts_of(fig)
    lanes = state["lanes"]
    whole = {name for name, spans in lanes["coverage"].items()
             if any(a <= lanes["start"] and b >= lanes["end"] for a, b in spans)}
    assert whole and whole != set(lanes["coverage"])
    unread = {p.get_gid() for p in patches(fig, "not read ")}
    assert unread == {f"not read {t['short']}" for t in state["tasks"]
                      if t["short"] not in whole}
    assert "worker:2 (dead)" in [t.get_text() for t in fig.axes[0].get_yticklabels()]


def test_traffic_and_lanes_of_2_ps_and_16_workers(tmp_path):
    state = big_traffic()
    fig = pictures.draw_traffic_and_lanes(state)
    assert len(fig.axes) == 2
    assert len(patches(fig, "message")) == len({(m["src"], m["dst"], m["kind"], m["t_send"])
                                                for m in state["lanes"]["messages"]})
    assert len(boxes_apart(fig, "node ")) == 18
    assert_legible(fig)
    assert_saves(fig, tmp_path, "traffic_and_lanes_big")


# -- one panel per run ----------------------------------------------------------------------------
def test_small_multiples_draw_a_panel_per_run_titled_in_its_colour(tmp_path):
    runs = {"async x1": load("traffic_async_paused"), "async x2": load("traffic_sync_paused"),
            "async x3": load("traffic_sync_live"), "sync x3": load("traffic_sync_live")}
    fig = pictures.small_multiples(runs, pictures.draw_traffic,
                                   colors={"sync x3": "#d62728"})
    titles = {sub._suptitle.get_text(): sub._suptitle.get_color() for sub in fig.subfigs}
    assert titles == {"async x1": "#1f77b4", "async x2": "#ff7f0e", "async x3": "#2ca02c",
                      "sync x3": "#d62728"}
    assert len(patches(fig, "arrow ")) == sum(len(moving(s)) for s in runs.values())
    assert_legible(fig)
    assert_saves(fig, tmp_path, "small_multiples")


def test_small_multiples_of_traffic_and_lanes_stay_legible():
    runs = {"async x3": load("traffic_async_paused"), "sync x3": load("traffic_sync_live")}
    fig = pictures.small_multiples(runs, pictures.draw_traffic_and_lanes)
    assert len(fig.axes) == 4
    assert_legible(fig)


def test_drawing_in_a_given_axes_uses_it():
    fig = Figure(figsize=(12, 6))
    ax = fig.add_subplot(1, 2, 2)
    assert pictures.draw_traffic(load("traffic_sync_live"), ax) is fig
    assert fig.axes == [ax] and patches(fig, "arrow ")
    assert isinstance(patches(fig, "arrow ")[0], FancyArrowPatch)
    fig = Figure(figsize=(18, 7))
    place = fig.add_subplot(1, 1, 1)
    pictures.draw_curves(copy.deepcopy(load("curves")), ax=place)
    assert place not in fig.axes and len(fig.axes) == 3


def test_small_multiples_draws_curves_too():
    """Every draw function takes its axes by keyword, so small_multiples can use any of them
    (draw_curves takes x_axis second)."""
    state = json.loads((DATA / "curves.json").read_text())
    fig = pictures.small_multiples({"a": state, "b": state}, pictures.draw_curves)
    assert len(fig.subfigs) == 2
    assert all(len(sub.axes) >= 2 for sub in fig.subfigs)      # loss and accuracy in each
