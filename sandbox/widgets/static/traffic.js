/* The traffic view's front end: what travels between the tasks, how much, and when.

A pure renderer of TrafficModel.to_dict() (sandbox/widgets/traffic_model.py), the synced
trait `state` (with `stopped: true` once TrafficView.stop() ended its reading); it knows
nothing about clusters. Everything but the controls is redrawn from
`state` on every change, at most once per animation frame; hover, selection and a slider
being dragged survive the redraw. Two pictures:

  (a) arrows   the ps tasks on the left, the other tasks on the right (one row each); one
               arrow per (src, dst, kind), as wide as its bytes/s (log scale), coloured by
               kind (`state.kinds`); the table beside the right-hand tasks gives each arrow's
               bytes/s and messages/s (summed over the ps when there are several -- hover a
               cell or an arrow for each one, and its top tensors); a dashed arrow carried
               nothing in the last `state.window` seconds; dead tasks are grey
  (b) lanes    a space-time diagram (as ShiViz draws one): one lane per task, time along x
               over [lanes.start, lanes.end]; each message an arrow from (its sender's lane,
               t_send) to (its receiver's lane, t_recv), a short stub ending in a hollow
               circle when its arrival was not seen; the requests a task served and the
               delays added on purpose as bars on its lane; what the view did not read
               (outside `lanes.coverage[task]`) hatched

Controls (the Python side draws a new `state` when they change): Pause/Resume (trait
`paused`; resuming sets `view_end` to null), a slider over [history.start, history.end]
(`view_end`; moving it pauses), zoom buttons (`view_length`: halve, double, or null for
automatic), and a click on a message (`selected_message`: the message's dict, shown in the
details box).

Hooks for end-to-end tests (stable):
  .sbx-node[data-task="worker:1"][data-state="alive|dead|not answering"]   a task (arrows)
  .sbx-lane[data-task="worker:1"][data-state="..."]                        a task's lane
  .sbx-arrow[data-src][data-dst][data-kind][data-bytes-per-s]              an arrow
  .sbx-msg[data-kind][data-src][data-dst][data-arrival="seen|not seen"]    a message
  .sbx-span[data-kind][data-task]                                          a span on a lane
  .sbx-unread[data-task]                                                   a stretch not read
  [data-testid="pause"] [data-testid="scrub"] (an <input type=range>)
  [data-testid="zoom-in"] (fewer steps) [data-testid="zoom-out"] (more steps)
  [data-testid="zoom-auto"] [data-testid="status"] [data-testid="message-details"]
*/

const CSS = `
.sbx-traffic { font: 13px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #222; background: #fff; padding: 8px; position: relative; box-sizing: border-box; }
.sbx-traffic * { box-sizing: border-box; }
.sbx-traffic .sbx-controls { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center;
  padding: 6px 8px; border: 1px solid #d8d8d8; border-radius: 6px; background: #f8f8f8; }
.sbx-traffic button { font: inherit; font-size: 13px; border: 1px solid #aaa; background: #fff;
  border-radius: 5px; padding: 3px 10px; cursor: pointer; color: #222; }
.sbx-traffic button:hover { border-color: #555; }
.sbx-traffic button[data-testid="pause"] { min-width: 92px; font-weight: 600; }
.sbx-traffic .sbx-status { font-weight: 600; min-width: 150px; }
.sbx-traffic .sbx-status.sbx-live { color: #1a7f37; }
.sbx-traffic .sbx-status.sbx-paused { color: #9a6700; }
.sbx-traffic .sbx-scrub { display: flex; align-items: center; gap: 6px; flex: 1 1 260px; }
.sbx-traffic .sbx-scrub input { flex: 1 1 auto; min-width: 120px; }
.sbx-traffic .sbx-muted { color: #666; font-size: 12px; white-space: nowrap; }
.sbx-traffic .sbx-zoom { display: flex; align-items: center; gap: 4px; }
.sbx-traffic .sbx-panel { margin-top: 8px; border: 1px solid #e0e0e0; border-radius: 6px;
  padding: 4px 6px 6px; }
.sbx-traffic .sbx-panel-head { display: flex; flex-wrap: wrap; gap: 2px 14px; align-items: baseline; }
.sbx-traffic .sbx-panel-title { font-size: 15px; font-weight: 600; }
.sbx-traffic .sbx-legend { display: flex; flex-wrap: wrap; gap: 3px 16px; font-size: 12px;
  color: #333; margin-top: 2px; align-items: center; }
.sbx-traffic .sbx-legend svg { vertical-align: middle; margin-right: 4px; }
.sbx-traffic svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.sbx-traffic .sbx-arrow, .sbx-traffic .sbx-msg { cursor: pointer; }
.sbx-traffic .sbx-arrow:hover .sbx-vis { stroke-opacity: 1; }
.sbx-traffic .sbx-msg:hover .sbx-vis { stroke-width: 3; }
.sbx-traffic .sbx-details { margin-top: 8px; border: 1px solid #ccc; border-radius: 6px;
  padding: 5px 10px; background: #fafafa; display: flex; flex-wrap: wrap; gap: 4px 16px;
  align-items: baseline; min-height: 32px; }
.sbx-traffic .sbx-details.sbx-empty { color: #777; }
.sbx-traffic .sbx-details b { font-family: ui-monospace, Menlo, Consolas, monospace; }
.sbx-traffic .sbx-details .sbx-clear { margin-left: auto; font-size: 12px; padding: 1px 8px; }
.sbx-traffic .sbx-tip { position: absolute; z-index: 10; pointer-events: none; display: none;
  background: #222; color: #fff; border-radius: 5px; padding: 5px 8px; font-size: 12px;
  line-height: 1.4; white-space: pre; max-width: 560px; box-shadow: 0 2px 6px rgba(0,0,0,.3); }
`;

const JOB_ORDER = ["chief", "ps", "worker", "evaluator"];
let instances = 0;

// -- small helpers --------------------------------------------------------------------------
// (h, s, fmtBytes, niceStep and tooltips: dom.js, in front of this module)

const fmtRate = (bps) => fmtBytes(bps) + "/s";

function fmtCount(n) {
  if (n >= 100) return String(Math.round(n));
  if (n >= 10) return n.toFixed(0);
  return n.toFixed(n >= 1 ? 1 : 2).replace(/\.?0+$/, "") || "0";
}

function fmtDuration(seconds) {
  if (seconds === null || seconds === undefined) return "?";
  if (seconds >= 10) return `${seconds.toFixed(0)} s`;
  if (seconds >= 1) return `${seconds.toFixed(2)} s`;
  if (seconds >= 0.01) return `${(seconds * 1000).toFixed(0)} ms`;
  return `${(seconds * 1000).toFixed(seconds >= 0.001 ? 1 : 2)} ms`;
}

function jobRank(job) {
  const i = JOB_ORDER.indexOf(job);
  return i < 0 ? JOB_ORDER.length : i;
}

function taskIndex(short) {
  const n = parseInt(String(short).split(":").pop(), 10);
  return Number.isFinite(n) ? n : 0;
}

function byJob(a, b) {
  return jobRank(a.job) - jobRank(b.job) || (a.job < b.job ? -1 : a.job > b.job ? 1 : 0) ||
    taskIndex(a.short) - taskIndex(b.short);
}

function stateBadge(state) {
  return state === "dead" ? "\u2715 dead" : state === "not answering" ? "not answering" : "";
}

/* An arrow's width: bytes/s on a log scale (100 B/s -> 1.5 px, 1 MB/s -> 6.7, 1 GB/s -> 10.6). */
function arrowWidth(bps) {
  if (!(bps > 0)) return 1.2;
  return Math.max(1.5, Math.min(12, 1.5 + 1.3 * Math.log10(Math.max(bps, 100) / 100)));
}

/* A line from (x1, y1) to (x2, y2) ending in a triangle `head` long: [line, head]. */
function arrowShape(x1, y1, x2, y2, color, width, head, attrs) {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length;
  const uy = dy / length;
  const bx = x2 - ux * head;
  const by = y2 - uy * head;
  const half = Math.max(head * 0.45, width * 0.9);
  return [
    s("line", { x1, y1, x2: bx + ux * 0.5, y2: by + uy * 0.5, stroke: color, "stroke-width": width,
      class: "sbx-vis", ...attrs }),
    s("polygon", { points: `${x2},${y2} ${bx - uy * half},${by + ux * half} ${bx + uy * half},${by - ux * half}`,
      fill: color, class: "sbx-head", ...(attrs && attrs["stroke-opacity"] ?
        { "fill-opacity": attrs["stroke-opacity"] } : {}) }),
  ];
}

// -- (a) the arrows -----------------------------------------------------------------------------

function arrowTip(a, kindOf, seconds) {
  const kind = kindOf[a.kind] || { label: a.kind };
  const lines = [`${a.src} \u2192 ${a.dst}: ${kind.label}`,
    `${fmtRate(a.bytes_per_s)}, ${fmtCount(a.messages_per_s)} messages/s over the last ${seconds} s`,
    `${fmtBytes(a.bytes)} in ${Math.round(a.messages)} messages since the start`];
  if (a.top && a.top.length) {
    lines.push("most bytes (since the start):");
    for (const [name, n] of a.top) lines.push(`  ${name}  ${fmtBytes(n)}`);
  }
  return lines.join("\n");
}

function sides(tasks) {
  let left = tasks.filter((t) => t.job === "ps");
  if (!left.length && tasks.length > 1) {
    const jobs = [...new Set(tasks.map((t) => t.job))];
    left = jobs.length > 1 ? tasks.filter((t) => t.job === jobs[0]) : tasks.slice(0, 1);
  }
  const right = tasks.filter((t) => !left.includes(t));
  return { left, right };
}

let measurer = null;

/* The width in pixels of `text` in `font` (a canvas measures it; no layout needed). */
function textWidth(text, font) {
  if (!measurer) measurer = document.createElement("canvas").getContext("2d");
  measurer.font = `${font} system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
  return measurer.measureText(text).width;
}

function drawArrows(state, width, kindOf, kindIndex) {
  const tasks = [...(state.tasks || [])].sort(byJob);
  const byName = new Map(tasks.map((t) => [t.short, t]));
  const arrows = (state.arrows || []).filter((a) => byName.has(a.src) && byName.has(a.dst));
  const { left, right } = sides(tasks);
  const rightNames = new Set(right.map((t) => t.short));
  const isRight = (name) => rightNames.has(name);

  // the table: one row per right-hand task, one column per (kind, received|sent) seen from it
  const columns = [];
  for (const a of arrows) {
    for (const [name, dir] of [[a.dst, "in"], [a.src, "out"]]) {
      if (isRight(name) && !columns.some((c) => c.kind === a.kind && c.dir === dir)) {
        columns.push({ kind: a.kind, dir });
      }
    }
  }
  columns.sort((a, b) => (kindIndex[a.kind] ?? 99) - (kindIndex[b.kind] ?? 99) ||
    (a.dir === "in" ? -1 : 1) - (b.dir === "in" ? -1 : 1));
  const cells = right.map((t) => columns.map((c) => {
    const mine = arrows.filter((a) => a.kind === c.kind && (c.dir === "in" ? a.dst === t.short
      : a.src === t.short));
    if (!mine.length) return null;
    const bps = mine.reduce((n, a) => n + a.bytes_per_s, 0);
    const mps = mine.reduce((n, a) => n + a.messages_per_s, 0);
    return { bps, mps, idle: !(bps > 0 || mps > 0), rate: fmtRate(bps), count: ` ${fmtCount(mps)}/s`,
      tip: mine.map((a) => arrowTip(a, kindOf, state.window)).join("\n\n") };
  }));
  // a cell is "rate count" on one line, or on two when one line makes the table too wide
  const nodeW = 104;
  const nodeH = 26;
  const columnWidths = (twoLines) => columns.map((c, j) => {
    let w = Math.max(textWidth(c.kind, "700 13px"), textWidth("received", "12px"));
    for (const row of cells) {
      const cell = row[j];
      if (cell) w = Math.max(w, cell.idle ? textWidth("idle", "12px") : twoLines
        ? Math.max(textWidth(cell.rate, "700 13px"), textWidth(cell.count, "12px"))
        : textWidth(cell.rate, "700 13px") + textWidth(cell.count, "12px"));
    }
    return Math.ceil(w) + (twoLines ? 12 : 16);
  });
  let widths = columnWidths(false);
  const fits = (ws, gap) => 12 + 2 * nodeW + gap + 36 + ws.reduce((n, w) => n + w, 0) <= width;
  const twoLines = !fits(widths, 200);
  if (twoLines) widths = columnWidths(true);
  columns.forEach((c, j) => { c.width = widths[j]; });
  const head = columns.length ? 36 : 8;
  const rows = Math.max(right.length, 1);
  const rowH = rows <= 3 ? 52 : rows <= 6 ? 42 : rows <= 10 ? (twoLines ? 36 : 32) : (twoLines ? 34 : 28);
  const tableW = columns.reduce((n, c) => n + c.width, 0);
  const xL = 12 + nodeW / 2;
  const xR = Math.max(xL + nodeW + (twoLines ? 130 : 200), width - tableW - 20 - nodeW / 2);
  const svgW = Math.max(width, xR + nodeW / 2 + 16 + tableW);
  const height = head + Math.max(rows * rowH, left.length * 44) + 6;
  const bodyH = height - head - 6;
  const pos = new Map();
  right.forEach((t, i) => pos.set(t.short, { x: xR, y: head + (i + 0.5) * (bodyH / rows) }));
  left.forEach((t, i) => pos.set(t.short, { x: xL, y: head + (i + 0.5) * (bodyH / left.length) }));
  const svg = s("svg", { width: svgW, height, class: "sbx-arrows-svg", "data-testid": "arrows" });

  // the arrows, those of one pair of tasks side by side; the widest drawn first
  const pairs = new Map();
  for (const a of arrows) {
    const key = [a.src, a.dst].sort().join("\u0000");
    if (!pairs.has(key)) pairs.set(key, []);
    pairs.get(key).push(a);
  }
  const crowded = arrows.length > 40;
  const drawn = [];
  for (const list of pairs.values()) {
    list.sort((a, b) => (kindIndex[a.kind] ?? 99) - (kindIndex[b.kind] ?? 99) || (a.src < b.src ? -1 : 1));
    const gap = Math.min(7, (rowH - 8) / Math.max(1, list.length));
    list.forEach((a, k) => {
      const p = pos.get(a.src);
      const q = pos.get(a.dst);
      const off = (k - (list.length - 1) / 2) * gap;
      const color = (kindOf[a.kind] || {}).color || "#888";
      const live = a.bytes_per_s > 0 || a.messages_per_s > 0;
      const w = arrowWidth(a.bytes_per_s);
      const hl = Math.max(9, w * 1.7);
      const dead = byName.get(a.src).state === "dead" || byName.get(a.dst).state === "dead";
      const opacity = dead ? 0.35 : !live ? 0.5 : crowded ? 0.6 : 0.8;
      const g = s("g", { class: "sbx-arrow", "data-src": a.src, "data-dst": a.dst, "data-kind": a.kind,
        "data-bytes-per-s": a.bytes_per_s, tip: arrowTip(a, kindOf, state.window) });
      if (isRight(a.src) !== isRight(a.dst)) {
        const toRight = p.x < q.x;
        const x1 = p.x + (toRight ? nodeW / 2 + 2 : -nodeW / 2 - 2);
        const x2 = q.x + (toRight ? -nodeW / 2 - 2 : nodeW / 2 + 2);
        g.append(s("line", { x1, y1: p.y + off, x2, y2: q.y + off, stroke: "transparent",
          "stroke-width": Math.max(9, w + 4) }),
        ...arrowShape(x1, p.y + off, x2, q.y + off, color, w, hl,
          { "stroke-opacity": opacity, "stroke-dasharray": live ? null : "4 4" }));
      } else {                                   // both on one side: an arc beside them
        const out = isRight(a.src) ? -1 : 1;
        const xa = p.x + out * nodeW / 2;
        const cx = xa + out * (40 + 0.3 * Math.abs(q.y - p.y));
        const cy = (p.y + q.y) / 2 + off;
        const path = `M${xa},${p.y + off} Q${cx},${cy} ${xa},${q.y + off}`;
        const len = Math.hypot(xa - cx, q.y + off - cy) || 1;
        const ux = (xa - cx) / len;
        const uy = (q.y + off - cy) / len;
        g.append(s("path", { d: path, fill: "none", stroke: "transparent", "stroke-width": Math.max(9, w + 4) }),
          s("path", { d: path, fill: "none", stroke: color, "stroke-width": w, class: "sbx-vis",
            "stroke-opacity": opacity, "stroke-dasharray": live ? null : "4 4" }),
          arrowShape(xa - ux * hl * 2, q.y + off - uy * hl * 2, xa, q.y + off, color, 0, hl,
            { "stroke-opacity": opacity })[1]);
      }
      drawn.push([a.bytes_per_s, g]);
    });
  }
  drawn.sort((a, b) => b[0] - a[0]);
  svg.append(s("g", {}, drawn.map(([, g]) => g)));

  // the tasks
  for (const t of tasks) {
    const p = pos.get(t.short);
    const dead = t.state === "dead";
    const twoLines = dead && rowH >= 40;
    const sent = arrows.filter((a) => a.src === t.short).reduce((n, a) => n + a.bytes_per_s, 0);
    const got = arrows.filter((a) => a.dst === t.short).reduce((n, a) => n + a.bytes_per_s, 0);
    svg.append(s("g", { class: "sbx-node", "data-task": t.short, "data-state": t.state || "alive",
      tip: `${t.name}: ${t.state}\nsends ${fmtRate(sent)}, receives ${fmtRate(got)} (last ${state.window} s)` },
    s("rect", { x: p.x - nodeW / 2, y: p.y - (twoLines ? 18 : nodeH / 2), width: nodeW,
      height: twoLines ? 36 : nodeH, rx: 6, fill: t.color,
      stroke: t.state === "not answering" ? "#333" : "none",
      "stroke-dasharray": t.state === "not answering" ? "4 3" : null }),
    s("text", { x: p.x, y: p.y + (twoLines ? -3 : 4.5), "text-anchor": "middle", "font-size": 14,
      "font-weight": 700, fill: dead ? "#333" : "#fff" }, dead && !twoLines ? `\u2715 ${t.short}` : t.short),
    twoLines ? s("text", { x: p.x, y: p.y + 12, "text-anchor": "middle", "font-size": 12,
      "font-weight": 700, fill: "#333" }, "\u2715 dead") : null,
    t.state === "not answering" ? s("text", { x: p.x, y: p.y + nodeH / 2 + 12, "text-anchor": "middle",
      "font-size": 12, fill: "#333" }, "not answering") : null));
  }

  // the table's cells, beside the right-hand tasks
  let x = xR + nodeW / 2 + 16;
  columns.forEach((c, j) => {
    const kind = kindOf[c.kind] || { label: c.kind, color: "#888" };
    svg.append(s("text", { x, y: 14, "font-size": 13, "font-weight": 700, fill: kind.color, tip: kind.label },
      c.kind),
    s("text", { x, y: 29, "font-size": 12, fill: "#555", tip: kind.label }, c.dir === "in" ? "received" : "sent"));
    right.forEach((t, i) => {
      const cell = cells[i][j];
      if (!cell) return;
      const y = pos.get(t.short).y + 4.5;
      svg.append(cell.idle
        ? s("text", { x, y, "font-size": 12, fill: "#888", tip: cell.tip, class: "sbx-rate" }, "idle")
        : twoLines
          ? s("text", { x, y: y - 7, "font-size": 13, tip: cell.tip, class: "sbx-rate" },
            s("tspan", { "font-weight": 700, fill: kind.color }, cell.rate),
            s("tspan", { x, dy: 14, fill: "#555", "font-size": 12 }, cell.count.trim()))
          : s("text", { x, y, "font-size": 13, tip: cell.tip, class: "sbx-rate" },
            s("tspan", { "font-weight": 700, fill: kind.color }, cell.rate),
            s("tspan", { fill: "#555", "font-size": 12 }, cell.count)));
    });
    x += c.width;
  });
  if (!arrows.length) {
    svg.append(s("text", { x: (xL + xR) / 2, y: head + bodyH / 2 + 4, "text-anchor": "middle",
      "font-size": 13, fill: "#777" }, "no traffic measured up to this time"));
  }
  return svg;
}

// -- (b) the swim lanes ---------------------------------------------------------------------------

function uncovered(intervals, start, end) {
  const sorted = [...(intervals || [])].sort((a, b) => a[0] - b[0]);
  const out = [];
  let t = start;
  for (const [a, b] of sorted) {
    if (a > t) out.push([t, Math.min(a, end)]);
    t = Math.max(t, b);
    if (t >= end) break;
  }
  if (t < end) out.push([t, end]);
  return out.filter(([a, b]) => b > a);
}

function messageTip(m, kindOf) {
  return [`${m.tensor}  ${fmtBytes(m.bytes)}`,
    `${m.src} \u2192 ${m.dst}: ${(kindOf[m.kind] || { label: m.kind }).label}`,
    `step ${m.step ?? "?"}`,
    m.latency_ms === null || m.latency_ms === undefined ? "arrival not seen"
      : `latency ${m.latency_ms.toFixed(3)} ms`, "click for details"].join("\n");
}

const sameMessage = (a, b) => a && b && a.src === b.src && a.dst === b.dst && a.tensor === b.tensor
  && a.step_id === b.step_id && a.t_send === b.t_send;

function drawLanes(state, width, kindOf, ids, selected, onPick) {
  const lanes = state.lanes || {};
  const start = lanes.start ?? 0;
  const end = lanes.end ?? 1;
  const span = Math.max(end - start, 1e-9);
  const tasks = [...(state.tasks || [])].sort(byJob);
  const n = Math.max(tasks.length, 1);
  const laneH = n <= 4 ? 44 : n <= 8 ? 34 : n <= 12 ? 28 : 24;
  const top = 8;
  const x0 = 112;
  const x1 = width - 18;
  const height = top + n * laneH + 34;
  const X = (t) => x0 + ((t - start) / span) * (x1 - x0);
  const laneY = new Map(tasks.map((t, i) => [t.short, top + (i + 0.5) * laneH]));
  const svg = s("svg", { width, height, class: "sbx-lanes-svg", "data-testid": "lanes" });
  svg.append(s("defs", {},
    s("clipPath", { id: `sbx-clip-${ids}` }, s("rect", { x: x0, y: 0, width: x1 - x0, height })),
    s("pattern", { id: `sbx-unread-${ids}`, width: 7, height: 7, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)" },
    s("rect", { width: 7, height: 7, fill: "#efefef" }),
    s("line", { x1: 0, y1: 0, x2: 0, y2: 7, stroke: "#bdbdbd", "stroke-width": 3 })),
    s("pattern", { id: `sbx-straggle-${ids}`, width: 6, height: 6, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(-45)" },
    s("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#222", "stroke-width": 2.2, "stroke-opacity": 0.55 })),
    s("pattern", { id: `sbx-link-${ids}`, width: 6, height: 6, patternUnits: "userSpaceOnUse" },
      s("circle", { cx: 3, cy: 3, r: 1.4, fill: "#222", "fill-opacity": 0.6 }))));

  // lanes: band, label, unread stretches
  const plot = s("g", { "clip-path": `url(#sbx-clip-${ids})` });
  tasks.forEach((t, i) => {
    const y = laneY.get(t.short);
    svg.append(s("rect", { x: 0, y: top + i * laneH, width, height: laneH,
      fill: i % 2 ? "#ffffff" : "#f7f8fa" }));
    const badge = laneH >= 30 ? stateBadge(t.state) : "";
    const name = t.state === "dead" && !badge ? `\u2715 ${t.short}` : t.short;
    svg.append(s("g", { class: "sbx-lane", "data-task": t.short, "data-state": t.state || "alive",
      tip: `${t.name}: ${t.state}` },
    s("rect", { x: 4, y: y - 3 - (badge ? 7 : 6), width: 5, height: badge ? 20 : 12, fill: t.color, rx: 1 }),
    s("text", { x: 14, y: y + (badge ? -2 : 4.5), "font-size": 13, "font-weight": 700,
      fill: t.state === "dead" ? "#666" : darker(t.color) }, name),
    badge ? s("text", { x: 14, y: y + 11, "font-size": 12, fill: "#444", "font-weight": 600 }, badge) : null));
    const coverage = lanes.coverage;
    if (coverage) {
      for (const [a, b] of uncovered(coverage[t.short], start, end)) {
        plot.append(s("rect", { class: "sbx-unread", "data-task": t.short, x: X(a), y: y - laneH * 0.42,
          width: Math.max(1, X(b) - X(a)), height: laneH * 0.84, fill: `url(#sbx-unread-${ids})`,
          tip: `${t.short}: not read from ${a.toFixed(4)} to ${b.toFixed(4)} s\n(the ring turned faster `
            + "than the view reads: this stretch is unknown, not idle)" }));
      }
    }
    plot.append(s("line", { x1: x0, y1: y, x2: x1, y2: y, stroke: "#c9c9c9", "stroke-width": 1 }));
  });

  // time axis
  const ticks = s("g", {});
  const step = niceStep(span, Math.max(3, Math.floor((x1 - x0) / 110)));
  const decimals = Math.max(0, Math.min(6, Math.ceil(-Math.log10(step) - 1e-9)));
  const axisY = top + n * laneH;
  for (let t = Math.ceil(start / step) * step; t <= end + step * 1e-6; t += step) {
    const x = X(t);
    ticks.append(s("line", { x1: x, y1: top, x2: x, y2: axisY + 4, stroke: "#e1e1e1" }),
      s("text", { x, y: axisY + 17, "text-anchor": "middle", "font-size": 12, fill: "#444" },
        t.toFixed(decimals)));
  }
  svg.append(ticks);
  svg.append(s("line", { x1: x0, y1: axisY, x2: x1, y2: axisY, stroke: "#888" }));
  svg.append(s("text", { x: 14, y: axisY + 17, "font-size": 12, fill: "#666" }, "time (s)"));
  svg.append(plot);

  // spans: requests served (the task's colour), delays added on purpose (patterns)
  const spans = [...(lanes.spans || [])].filter((sp) => laneY.has(sp.task))
    .sort((a, b) => (b.t1 - b.t0) - (a.t1 - a.t0));
  const labelEnds = new Map();
  const spanLayer = s("g", {});
  const labels = [];
  for (const sp of spans) {
    const y = laneY.get(sp.task);
    const task = tasks.find((t) => t.short === sp.task);
    const xa = X(sp.t0);
    const w = Math.max(2, X(sp.t1) - xa);
    const delay = sp.kind === "straggle" || sp.kind === "link_delay";
    const fill = sp.kind === "straggle" ? `url(#sbx-straggle-${ids})` : sp.kind === "link_delay"
      ? `url(#sbx-link-${ids})` : task.color;
    spanLayer.append(s("rect", { class: "sbx-span", "data-kind": sp.kind, "data-task": sp.task,
      x: xa, y: y - laneH * (delay ? 0.22 : 0.32), width: w, height: laneH * (delay ? 0.44 : 0.64),
      fill, "fill-opacity": delay ? 1 : 0.16, stroke: delay ? "#333" : task.color,
      "stroke-opacity": delay ? 0.6 : 0.55, rx: 2,
      tip: `${sp.label}${sp.step ? `, step ${sp.step}` : ""}\n${fmtDuration(sp.t1 - sp.t0)} `
        + `(${sp.t0.toFixed(4)} \u2192 ${sp.t1.toFixed(4)} s)`
        + (delay ? "\nadded on purpose by the sandbox" : "") }));
    const text = sp.kind === "straggle" ? "straggle" : sp.label;
    const room = Math.min(X(sp.t1), x1) - Math.max(xa, x0) - 8;
    const wanted = text.length * 6.6;
    const from = Math.max(xa, x0) + 4;
    if (room >= Math.min(wanted, 70) && from >= (labelEnds.get(sp.task) ?? -1)) {
      const shown = wanted <= room ? text : text.slice(0, Math.max(3, Math.floor(room / 6.6) - 1)) + "\u2026";
      labels.push(s("text", { x: from, y: y - laneH * 0.32 + 12.5, "font-size": 12, fill: "#333",
        "pointer-events": "none" }, shown));
      labelEnds.set(sp.task, from + shown.length * 6.6 + 6);
    }
  }
  plot.append(spanLayer);
  labels.forEach((l) => plot.append(l));

  // messages: an arrow from (sender, t_send) to (receiver, t_recv); the biggest drawn last
  const messages = [...(lanes.messages || [])].filter((m) => laneY.has(m.src) && laneY.has(m.dst))
    .sort((a, b) => a.bytes - b.bytes);
  const msgLayer = s("g", {});
  let chosen = null;
  for (const m of messages) {
    const color = (kindOf[m.kind] || {}).color || "#888";
    const xs = X(m.t_send);
    const ys = laneY.get(m.src);
    const yd = laneY.get(m.dst);
    const isSelected = sameMessage(m, selected);
    const attrs = { class: "sbx-msg", "data-kind": m.kind, "data-src": m.src, "data-dst": m.dst,
      "data-tensor": m.tensor, "data-arrival": m.t_recv === null || m.t_recv === undefined ? "not seen" : "seen",
      "data-selected": isSelected ? "true" : null, tip: messageTip(m, kindOf),
      onclick: (e) => { e.stopPropagation(); onPick(m); } };
    let g;
    if (m.t_recv === null || m.t_recv === undefined) {
      const xe = xs + 10;
      const ye = ys + (yd - ys) * 0.35;
      g = s("g", attrs,
        s("line", { x1: xs, y1: ys, x2: xe, y2: ye, stroke: "transparent", "stroke-width": 9 }),
        s("line", { x1: xs, y1: ys, x2: xe, y2: ye, stroke: color, "stroke-width": isSelected ? 3.5 : 1.8,
          class: "sbx-vis", "stroke-dasharray": "3 2" }),
        s("circle", { cx: xe, cy: ye, r: 4.5, fill: "#fff", stroke: color, "stroke-width": 2 }));
    } else {
      const xd = X(m.t_recv);
      g = s("g", attrs,
        s("line", { x1: xs, y1: ys, x2: xd, y2: yd, stroke: "transparent", "stroke-width": 9 }),
        isSelected ? s("line", { x1: xs, y1: ys, x2: xd, y2: yd, stroke: "#000", "stroke-width": 6,
          "stroke-opacity": 0.35 }) : null,
        arrowShape(xs, ys, xd, yd, color, isSelected ? 3.5 : 1.7, 8, {}));
    }
    if (isSelected) chosen = g; else msgLayer.append(g);
  }
  if (chosen) msgLayer.append(chosen);
  plot.append(msgLayer);
  if (!messages.length) {
    svg.append(s("rect", { x: (x0 + x1) / 2 - 120, y: top + (n * laneH) / 2 - 12, width: 240, height: 24,
      rx: 4, fill: "#fff", "fill-opacity": 0.9 }),
    s("text", { x: (x0 + x1) / 2, y: top + (n * laneH) / 2 + 4.5, "text-anchor": "middle",
      "font-size": 13, fill: "#555" }, "no message between these times"));
  }
  return svg;
}

function darker(color) {
  const m = /^#([0-9a-f]{6})$/i.exec(color || "");
  if (!m) return color;
  const v = parseInt(m[1], 16);
  const f = (c) => Math.round(c * 0.82).toString(16).padStart(2, "0");
  return `#${f(v >> 16)}${f((v >> 8) & 255)}${f(v & 255)}`;
}

function legendItem(sample, text) {
  return h("span", {}, sample, text);
}

function lineSample(color, dashed, width) {
  return s("svg", { width: 30, height: 12 },
    arrowShape(1, 6, 29, 6, color, width || 2.5, 8, dashed ? { "stroke-dasharray": "4 3" } : {}));
}

function boxSample(attrs, inner) {
  return s("svg", { width: 24, height: 14 }, inner || null, s("rect", { x: 1, y: 1, width: 22, height: 12,
    rx: 2, ...attrs }));
}

// -- the view -------------------------------------------------------------------------------------

function render({ model, el }) {
  const ids = `${++instances}-${Math.random().toString(36).slice(2, 7)}`;
  const root = h("div", { class: "sbx-traffic" });
  root.append(h("style", {}, CSS));
  el.append(root);

  // controls: built once, updated by draw()
  const pause = h("button", { "data-testid": "pause" });
  const status = h("span", { class: "sbx-status", "data-testid": "status" });
  const slider = h("input", { type: "range", "data-testid": "scrub", step: "any",
    "aria-label": "where the lanes end" });
  const sliderLabel = h("span", { class: "sbx-muted" });
  const zoomLabel = h("span", { class: "sbx-muted", "data-testid": "zoom-label" });
  const controls = h("div", { class: "sbx-controls" }, pause, status,
    h("span", { class: "sbx-scrub" }, h("span", { class: "sbx-muted" }, "history"), slider, sliderLabel),
    h("span", { class: "sbx-zoom" },
      h("button", { "data-testid": "zoom-in", title: "Show a shorter time: fewer steps, more detail",
        onclick: () => zoom(0.5) }, "\u2212 fewer steps"),
      h("button", { "data-testid": "zoom-out", title: "Show a longer time: more steps",
        onclick: () => zoom(2) }, "+ more steps"),
      h("button", { "data-testid": "zoom-auto", title: "About the last six steps",
        onclick: () => { model.set("view_length", null); model.save_changes(); } }, "auto"),
      zoomLabel));
  const panels = h("div", {});
  root.append(controls, panels);
  const tips = tooltips(root);

  let dragging = false;
  let lastSent = 0;
  let trailing = null;
  let width = 0;

  pause.addEventListener("click", () => {
    if (model.get("paused")) {
      model.set("paused", false);
      model.set("view_end", null);
    } else {
      model.set("paused", true);
    }
    model.save_changes();
    updateControls();
  });

  function sendSoon() {                       // at most ~8 messages a second while dragging
    const now = performance.now();
    if (now - lastSent > 120) {
      lastSent = now;
      model.save_changes();
    } else if (!trailing) {
      trailing = setTimeout(() => { trailing = null; lastSent = performance.now(); model.save_changes(); }, 120);
    }
  }

  slider.addEventListener("pointerdown", () => { dragging = true; });
  slider.addEventListener("input", () => {
    if (!model.get("paused")) model.set("paused", true);
    model.set("view_end", Number(slider.value));
    sendSoon();
    updateControls();
  });
  slider.addEventListener("change", () => { dragging = false; model.save_changes(); });
  const released = () => { dragging = false; };
  window.addEventListener("pointerup", released);

  function currentLength() {
    const lanes = (model.get("state") || {}).lanes || {};
    return model.get("view_length") ?? Math.max(1e-4, (lanes.end ?? 0) - (lanes.start ?? 0));
  }

  function zoom(factor) {
    const history = (model.get("state") || {}).history || {};
    const most = Math.max(0.01, (history.end ?? 0) - (history.start ?? 0));
    const length = Math.min(most, Math.max(0.0005, currentLength() * factor));
    model.set("view_length", length);
    model.save_changes();
    updateControls();
  }

  function updateControls() {
    const state = model.get("state") || {};
    const lanes = state.lanes || {};
    const history = state.history || {};
    const paused = !!model.get("paused");
    pause.textContent = paused ? "\u25b6 Resume" : "\u275a\u275a Pause";
    pause.title = paused ? "Follow the cluster live again" : "Freeze the view (the cluster keeps running)";
    const live = !paused && state.live !== false && !state.stopped;
    status.className = "sbx-status " + (live ? "sbx-live" : "sbx-paused");
    const shownEnd = model.get("view_end") ?? lanes.end ?? history.end ?? 0;
    status.textContent = live ? `\u25cf live, t = ${(lanes.end ?? 0).toFixed(3)} s`
      : !paused && state.stopped ? `\u25a0 stopped at t = ${(lanes.end ?? 0).toFixed(3)} s: no longer reading the cluster`
      : `\u275a\u275a paused at t = ${Number(shownEnd).toFixed(3)} s`;
    slider.min = String(history.start ?? 0);
    slider.max = String(Math.max(history.end ?? 0, history.start ?? 0));
    if (!dragging) slider.value = String(live ? (history.end ?? 0) : shownEnd);
    sliderLabel.textContent = `${(history.start ?? 0).toFixed(1)}\u2013${(history.end ?? 0).toFixed(1)} s`;
    const length = currentLength();
    const steps = state.step_seconds ? ` \u2248 ${Math.max(1, Math.round(length / state.step_seconds))} steps` : "";
    zoomLabel.textContent = `shown: ${fmtDuration(length)}${steps}` +
      (model.get("view_length") === null || model.get("view_length") === undefined ? " (auto)" : "");
  }

  function pick(message) {
    const current = model.get("selected_message") || {};
    model.set("selected_message", sameMessage(current, message) ? {} : { ...message });
    model.save_changes();
    schedule();
  }

  function details(state, kindOf) {
    const m = model.get("selected_message") || {};
    if (!m.tensor) {
      return h("div", { class: "sbx-details sbx-empty", "data-testid": "message-details" },
        "Click a message in the swim lanes to see its tensor, size, step and latency.");
    }
    const bundle = ((state.lanes || {}).messages || []).filter((o) => o.src === m.src && o.dst === m.dst
      && o.t_send === m.t_send && o.t_recv === m.t_recv && o.tensor !== m.tensor);
    const kind = kindOf[m.kind] || { label: m.kind, color: "#888" };
    return h("div", { class: "sbx-details", "data-testid": "message-details" },
      h("b", {}, m.tensor),
      h("span", {}, `${fmtBytes(m.bytes)} (${Number(m.bytes).toLocaleString("en-US")} B)`),
      h("span", {}, `${m.src} \u2192 ${m.dst}`),
      h("span", { style: `color:${kind.color};font-weight:600` }, kind.label),
      h("span", {}, `step ${m.step ?? "?"} (step_id ${m.step_id})`),
      h("span", {}, m.latency_ms === null || m.latency_ms === undefined
        ? `sent at ${Number(m.t_send).toFixed(4)} s, arrival not seen`
        : `latency ${Number(m.latency_ms).toFixed(3)} ms (sent ${Number(m.t_send).toFixed(4)} s, `
          + `received ${Number(m.t_recv).toFixed(4)} s)`),
      bundle.length ? h("span", { style: "flex-basis:100%;color:#444" },
        `sent with it: ${bundle.map((o) => `${o.tensor} (${fmtBytes(o.bytes)})`).join(", ")}`) : null,
      h("button", { class: "sbx-clear", onclick: () => pick(m) }, "\u00d7 clear"));
  }

  function draw() {
    const state = model.get("state") || {};
    const kinds = state.kinds || [];
    const kindOf = Object.fromEntries(kinds.map((k) => [k.kind, k]));
    const kindIndex = Object.fromEntries(kinds.map((k, i) => [k.kind, i]));
    width = Math.max(560, Math.floor(root.clientWidth - 30) || 1000);
    updateControls();
    const totals = state.totals || {};
    const lanes = state.lanes || {};
    const present = new Set((lanes.messages || []).map((m) => m.kind));
    const spanKinds = new Set((lanes.spans || []).map((sp) => sp.kind));
    const request = (lanes.spans || []).find((sp) => sp.kind !== "straggle" && sp.kind !== "link_delay");
    const served = request && (state.tasks || []).find((t) => t.short === request.task);
    const unreadSomewhere = (state.tasks || []).some((t) => lanes.coverage &&
      uncovered(lanes.coverage[t.short], lanes.start, lanes.end).length);
    const kindsLegend = kinds.map((k) => legendItem(lineSample(k.color), k.label));
    const content = h("div", {},
      h("div", { class: "sbx-panel" },
        h("div", { class: "sbx-panel-head" },
          h("span", { class: "sbx-panel-title" }, "Who sends what to whom"),
          h("span", { class: "sbx-muted" }, `over the last ${state.window ?? "?"} s up to t = `
            + `${(state.at ?? 0).toFixed(3)} s; each cell: bytes/s, messages/s`
            + ((state.tasks || []).filter((t) => t.job === "ps").length > 1 ? " (all ps together)" : "")),
          kinds.some((k) => totals[k.kind]) ? h("span", { class: "sbx-muted" }, "sent so far: "
            + kinds.filter((k) => totals[k.kind]).map((k) => `${k.kind} ${fmtBytes(totals[k.kind])}`)
              .join(" \u00b7 ")) : null),
        h("div", { style: "overflow-x:auto", "data-scroll-key": "arrows" },
          drawArrows(state, width, kindOf, kindIndex)),
        h("div", { class: "sbx-legend" }, kindsLegend,
          legendItem(s("svg", { width: 46, height: 14 }, s("line", { x1: 1, y1: 7, x2: 12, y2: 7, stroke: "#555",
            "stroke-width": 1.5 }), s("line", { x1: 17, y1: 7, x2: 44, y2: 7, stroke: "#555", "stroke-width": 9 })),
          "width: bytes/s (log scale)"),
          legendItem(lineSample("#777", true, 1.2), `nothing in the last ${state.window ?? "?"} s`),
          (state.tasks || []).some((t) => t.state === "dead")
            ? legendItem(boxSample({ fill: "#b0b0b0" }), "dead task") : null)),
      h("div", { class: "sbx-panel" },
        h("div", { class: "sbx-panel-head" },
          h("span", { class: "sbx-panel-title" }, "Swim lanes: every message from its send to its receipt"),
          h("span", { class: "sbx-muted" }, `${(lanes.start ?? 0).toFixed(3)}\u2013${(lanes.end ?? 0).toFixed(3)} s`
            + ` (${fmtDuration((lanes.end ?? 0) - (lanes.start ?? 0))}), ${(lanes.messages || []).length} messages`)),
        drawLanes(state, width, kindOf, ids, model.get("selected_message") || {}, pick),
        h("div", { class: "sbx-legend" },
          kinds.filter((k) => present.has(k.kind)).map((k) => legendItem(lineSample(k.color, false, 1.7), k.kind)),
          (lanes.messages || []).some((m) => m.t_recv === null || m.t_recv === undefined)
            ? legendItem(s("svg", { width: 14, height: 14 }, s("circle", { cx: 7, cy: 7, r: 4.5, fill: "#fff",
              stroke: "#555", "stroke-width": 2 })), "arrival not seen") : null,
          served ? legendItem(boxSample({ fill: served.color, "fill-opacity": 0.16, stroke: served.color }),
            "a request the task served (RunGraph, RunStep...), in its colour") : null,
          spanKinds.has("straggle") ? legendItem(boxSample({ fill: `url(#sbx-straggle-${ids})`, stroke: "#333" }),
            "a straggler's extra time (added on purpose)") : null,
          spanKinds.has("link_delay") ? legendItem(boxSample({ fill: `url(#sbx-link-${ids})`, stroke: "#333" }),
            "a slow link's wait (added on purpose)") : null,
          unreadSomewhere ? legendItem(boxSample({ fill: `url(#sbx-unread-${ids})`, stroke: "#bbb" }),
            "not read (the ring turned faster than the view reads)") : null)),
      details(state, kindOf));
    const scrolled = {};                          // a narrow page scrolls the arrows sideways
    panels.querySelectorAll("[data-scroll-key]").forEach((n) => { scrolled[n.dataset.scrollKey] = n.scrollLeft; });
    panels.replaceChildren(content);
    panels.querySelectorAll("[data-scroll-key]").forEach((n) => { n.scrollLeft = scrolled[n.dataset.scrollKey] || 0; });
    tips.refresh();
  }

  const redraw = redrawing(model, ["change:state", "change:selected_message", "change:paused",
    "change:view_end", "change:view_length"], draw, root,
  () => Math.max(560, Math.floor(root.clientWidth - 30)) !== width);
  function schedule() { redraw.schedule(); }
  return () => {
    redraw.stop();
    if (trailing) clearTimeout(trailing);
    window.removeEventListener("pointerup", released);
    root.remove();
  };
}

export default { render };
