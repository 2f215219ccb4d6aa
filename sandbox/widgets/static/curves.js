/* The curves view's front end: loss and test accuracy of several runs, by global step or by
wall time.

A pure renderer of CurvesModel.to_dict() (sandbox/widgets/curves_model.py), the synced trait
`state`; it knows nothing about clusters. Everything but the controls is redrawn from `state`
on every change, at most once per animation frame.

  * two charts side by side: the loss (log scale when every loss is positive) and the test
    accuracy (0..1); x is the global step or the seconds since each run started (trait
    `x_axis`: "step" or "time")
  * one line per run in `run.color`; each point is [global step, time, value, segment], and
    a run's points of one segment make one unbroken line: where training started over (a new
    segment) the line breaks instead of running backwards
  * each run's events (kill, restart, stop...) as a dashed vertical line in its colour, its
    text on hover; hovering a chart reads every run's value there
  * the legend: each run's label, state (starting, running, done, stopped, failed) and figures
  * when `show_reference`: seed 002's table (`state.reference`) beside the accuracy chart,
    next to the final test accuracy (run.summary.test_accuracy) of our async runs with as many
    workers, and its accuracies as grey ticks on the chart's right edge

Hooks for end-to-end tests (stable):
  path.sbx-curve[data-run="<run id>"][data-chart="loss|accuracy"][data-points="<n>"]
  .sbx-event[data-run][data-event="kill|restart|stop..."]
  .sbx-run[data-run][data-state]                      a run in the legend
  [data-testid="x-axis"] (a group of two buttons: [data-testid="x-axis-step"], [data-testid="x-axis-time"])
  [data-testid="show-reference"] (a checkbox)   [data-testid="reference"] (the table)
  [data-testid="loss-chart"] [data-testid="accuracy-chart"]
*/

const CSS = `
.sbx-curves { font: 13px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #222; background: #fff; padding: 8px; position: relative; box-sizing: border-box; }
.sbx-curves * { box-sizing: border-box; }
.sbx-curves .sbx-controls { display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center;
  margin-bottom: 6px; }
.sbx-curves .sbx-title { font-size: 15px; font-weight: 600; }
.sbx-curves .sbx-seg { display: inline-flex; border: 1px solid #999; border-radius: 6px; overflow: hidden; }
.sbx-curves .sbx-seg button { font: inherit; font-size: 13px; border: none; background: #fff;
  padding: 3px 12px; cursor: pointer; color: #222; }
.sbx-curves .sbx-seg button + button { border-left: 1px solid #999; }
.sbx-curves .sbx-seg button[aria-pressed="true"] { background: #2b5d9b; color: #fff; font-weight: 600; }
.sbx-curves label { cursor: pointer; user-select: none; }
.sbx-curves .sbx-legend { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 2px 0 6px; }
.sbx-curves .sbx-run { display: inline-flex; gap: 6px; align-items: baseline; }
.sbx-curves .sbx-run b { font-size: 14px; }
.sbx-curves .sbx-badge { font-size: 12px; font-weight: 600; border-radius: 4px; padding: 0 6px;
  background: #eee; color: #333; }
.sbx-curves .sbx-badge.sbx-running { background: #dafbe1; color: #1a7f37; }
.sbx-curves .sbx-badge.sbx-stopped { background: #fff3c4; color: #7a5300; }
.sbx-curves .sbx-badge.sbx-failed { background: #ffe0e0; color: #a40e26; }
.sbx-curves .sbx-figures { color: #555; font-size: 12px; }
.sbx-curves .sbx-charts { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
.sbx-curves svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.sbx-curves .sbx-reference { border: 1px solid #ddd; border-radius: 6px; padding: 6px 8px;
  font-size: 13px; background: #fafafa; }
.sbx-curves .sbx-reference table { border-collapse: collapse; margin-top: 4px; }
.sbx-curves .sbx-reference th, .sbx-curves .sbx-reference td { padding: 2px 8px 2px 0; text-align: left;
  vertical-align: top; }
.sbx-curves .sbx-reference th { font-size: 12px; color: #555; font-weight: 600; }
.sbx-curves .sbx-reference .sbx-ref-title { font-weight: 600; font-size: 13px; }
.sbx-curves .sbx-reference .sbx-note { color: #666; font-size: 12px; margin-top: 4px; }
.sbx-curves .sbx-swatch { display: inline-block; width: 18px; height: 4px; border-radius: 2px;
  vertical-align: middle; margin-right: 4px; }
.sbx-curves .sbx-empty { color: #777; padding: 20px; }
.sbx-curves .sbx-tip { position: absolute; z-index: 10; pointer-events: none; display: none;
  background: #222; color: #fff; border-radius: 5px; padding: 5px 8px; font-size: 12px;
  line-height: 1.4; white-space: pre; max-width: 520px; box-shadow: 0 2px 6px rgba(0,0,0,.3); }
`;

const EVENT_GLYPHS = { kill: "\u2715", restart: "\u21bb", stop: "\u25a0", pause: "\u275a\u275a",
  resume: "\u25b6" };

// -- small helpers --------------------------------------------------------------------------
// (h, s, fmtBytes, niceStep and tooltips: dom.js, in front of this module)

function fmtTick(v, step) {
  const decimals = Math.max(0, Math.min(6, Math.ceil(-Math.log10(step) - 1e-9)));
  return v.toFixed(decimals);
}

function fmtValue(v) {
  if (v === null || v === undefined) return "?";
  if (Math.abs(v) >= 100) return v.toFixed(0);
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(Math.abs(v) >= 1 ? 2 : 3);
}

/* Ticks of a log axis over [lo, hi]: 1, 2, 5 x 10^k (or every integer multiple when few). */
function logTicks(lo, hi) {
  const out = [];
  for (const mults of [[1, 2, 5], [1, 2, 3, 4, 5, 6, 7, 8, 9]]) {
    out.length = 0;
    for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k += 1) {
      for (const m of mults) {
        const v = m * Math.pow(10, k);
        if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
      }
    }
    if (out.length >= 3) break;
  }
  return out;
}

function linearTicks(lo, hi) {
  const step = niceStep(hi - lo, 5);
  const out = [];
  for (let y = Math.ceil(lo / step) * step; y <= hi; y += step) out.push(y);
  return out;
}

function fmtLogTick(v) {
  return v >= 1 ? String(Math.round(v * 100) / 100) : String(Number(v.toPrecision(2)));
}

// -- one chart ------------------------------------------------------------------------------------

/* Draws `which` ("loss" or "accuracy") of every run; `opts`: {width, height, xKey (0: step,
1: time), xMax, xTitle, reference (rows or null)}. */
function chart(runs, which, opts) {
  const { width, height, xKey, xMax } = opts;
  const values = runs.flatMap((r) => (r[which] || []).map((p) => p[2]));
  const log = which === "loss" && values.length > 0 && values.every((v) => v > 0);
  const margin = { left: 56, right: opts.reference ? 92 : 18, top: 28, bottom: 42 };
  const pw = width - margin.left - margin.right;
  const ph = height - margin.top - margin.bottom;
  let yLo;
  let yHi;
  if (which === "accuracy") { yLo = 0; yHi = 1; } else if (log) {
    yLo = Math.min(...values) / 1.15;
    yHi = Math.max(...values) * 1.15;
  } else {
    yLo = Math.min(0, ...values);
    yHi = values.length ? Math.max(...values) * 1.05 : 1;
  }
  if (!(yHi > yLo)) yHi = yLo + 1;
  const X = (x) => margin.left + (x / xMax) * pw;
  const Y = log ? (y) => margin.top + (1 - (Math.log(y) - Math.log(yLo)) / (Math.log(yHi) - Math.log(yLo))) * ph
    : (y) => margin.top + (1 - (y - yLo) / (yHi - yLo)) * ph;
  const svg = s("svg", { width, height, "data-testid": `${which}-chart`, class: "sbx-chart" });
  svg.append(s("text", { x: margin.left, y: 17, "font-size": 14, "font-weight": 600 },
    which === "loss" ? `loss${log ? " (log scale)" : ""}` : "test accuracy"));

  // axes and grid
  const xStep = niceStep(xMax, Math.max(3, Math.floor(pw / 75)));
  for (let x = 0; x <= xMax * 1.0001; x += xStep) {
    svg.append(s("line", { x1: X(x), y1: margin.top, x2: X(x), y2: margin.top + ph, stroke: "#ececec" }),
      s("text", { x: X(x), y: margin.top + ph + 16, "text-anchor": "middle", "font-size": 12, fill: "#444" },
        fmtTick(x, xStep)));
  }
  const yTicks = which === "accuracy" ? [0, 0.2, 0.4, 0.6, 0.8, 1] : log ? logTicks(yLo, yHi)
    : linearTicks(yLo, yHi);
  for (const y of yTicks) {
    svg.append(s("line", { x1: margin.left, y1: Y(y), x2: margin.left + pw, y2: Y(y), stroke: "#ececec" }),
      s("text", { x: margin.left - 6, y: Y(y) + 4, "text-anchor": "end", "font-size": 12, fill: "#444" },
        which === "accuracy" ? y.toFixed(1) : log ? fmtLogTick(y) : fmtTick(y, niceStep(yHi - yLo, 5))));
  }
  svg.append(s("rect", { x: margin.left, y: margin.top, width: pw, height: ph, fill: "none", stroke: "#999" }),
    s("text", { x: margin.left + pw / 2, y: height - 6, "text-anchor": "middle", "font-size": 12, fill: "#333" },
      opts.xTitle));

  // the reference: seed 002's accuracies as grey ticks on the right edge, ours as triangles
  if (opts.reference) {
    for (const row of opts.reference.rows || []) {
      const y = Y(row.accuracy);
      svg.append(s("g", { class: "sbx-ref-tick", "data-workers": row.workers,
        tip: `${opts.reference.title}\n${row.workers} worker${row.workers === 1 ? "" : "s"}: ${row.accuracy}` },
      s("line", { x1: margin.left, y1: y, x2: margin.left + pw, y2: y, stroke: "#9a9a9a",
        "stroke-dasharray": "2 4", "stroke-opacity": 0.7 }),
      s("line", { x1: margin.left + pw, y1: y, x2: margin.left + pw + 8, y2: y, stroke: "#666", "stroke-width": 2 }),
      s("text", { x: margin.left + pw + 11, y: y + 4, "font-size": 12, fill: "#555" },
        `TF x${row.workers} ${row.accuracy.toFixed(2)}`)));
      for (const run of opts.matches(row.workers)) {
        const a = run.summary.test_accuracy;
        const x = margin.left + pw;
        svg.append(s("polygon", { points: `${x - 1},${Y(a)} ${x - 9},${Y(a) - 5} ${x - 9},${Y(a) + 5}`,
          fill: run.color, tip: `${run.label}: final test accuracy ${a.toFixed(3)} (ours)` }));
      }
    }
  }

  // the curves: one path per run, one unbroken line per segment
  const clipId = `sbx-clip-${which}-${opts.ids}`;
  svg.append(s("defs", {}, s("clipPath", { id: clipId },
    s("rect", { x: margin.left, y: margin.top - 4, width: pw + 4, height: ph + 8 }))));
  const curves = s("g", { "clip-path": `url(#${clipId})` });
  for (const run of runs) {
    const points = run[which] || [];
    const bySegment = new Map();
    for (const p of points) {
      if (!bySegment.has(p[3])) bySegment.set(p[3], []);
      bySegment.get(p[3]).push(p);
    }
    const d = [...bySegment.values()].map((pts) => pts.map((p, i) =>
      `${i ? "L" : "M"}${X(p[xKey]).toFixed(1)},${Y(Math.max(p[2], log ? yLo : -Infinity)).toFixed(1)}`).join("")
      + (pts.length === 1 ? "l0.01,0" : "")).join("");
    curves.append(s("path", { class: "sbx-curve", d, fill: "none", stroke: run.color,
      "stroke-width": which === "loss" ? 2 : 2.4, "stroke-linejoin": "round", "stroke-linecap": "round",
      "data-run": run.id, "data-chart": which, "data-points": points.length }));
    if (which === "accuracy" && points.length <= 80) {
      for (const p of points) {
        curves.append(s("circle", { cx: X(p[xKey]), cy: Y(p[2]), r: 3, fill: run.color }));
      }
    }
  }

  // hovering reads every run's value at the mouse's x
  const cross = s("line", { x1: 0, y1: margin.top, x2: 0, y2: margin.top + ph, stroke: "#555",
    "stroke-dasharray": "3 3", visibility: "hidden" });
  const overlay = s("rect", { x: margin.left, y: margin.top, width: pw, height: ph, fill: "transparent" });
  overlay.sbxTip = (mouse) => {
    const box = overlay.getBoundingClientRect();
    const x = ((mouse.x - box.left) / box.width) * xMax;
    cross.setAttribute("x1", X(x));
    cross.setAttribute("x2", X(x));
    cross.setAttribute("visibility", "visible");
    const lines = [`${opts.xTitle.split(" (")[0]} ${xKey === 0 ? Math.round(x) : x.toFixed(2)}`];
    for (const run of runs) {
      let best = null;
      for (const p of run[which] || []) {
        if (best === null || Math.abs(p[xKey] - x) < Math.abs(best[xKey] - x)) best = p;
      }
      if (best) {
        lines.push(`${run.label}: ${fmtValue(best[2])}  (step ${Math.round(best[0])}, ${best[1].toFixed(2)} s)`);
      }
    }
    return lines.join("\n");
  };
  overlay.addEventListener("mouseleave", () => cross.setAttribute("visibility", "hidden"));
  svg.append(curves, cross, overlay);

  // events: a dashed line where each happened, its text on hover
  for (const run of runs) {
    for (const e of run.events || []) {
      const x = xKey === 0 ? e.global_step : e.time;
      if (x === null || x === undefined) continue;
      const xx = X(Math.min(x, xMax));
      svg.append(s("g", { class: "sbx-event", "data-run": run.id, "data-event": e.kind,
        tip: `${e.text || e.kind}\n${run.label}: global step ${e.global_step ?? "?"}, `
          + `${e.time === undefined ? "?" : Number(e.time).toFixed(2)} s after the start` },
      s("line", { x1: xx, y1: margin.top, x2: xx, y2: margin.top + ph, stroke: "transparent", "stroke-width": 10 }),
      s("line", { x1: xx, y1: margin.top, x2: xx, y2: margin.top + ph, stroke: run.color,
        "stroke-width": 1.6, "stroke-dasharray": "5 4" }),
      s("text", { x: xx, y: margin.top - 3, "text-anchor": "middle", "font-size": 14, "font-weight": 700,
        fill: run.color }, EVENT_GLYPHS[e.kind] || "\u25cf")));
    }
  }
  return svg;
}

// -- the view -------------------------------------------------------------------------------------

function render({ model, el }) {
  const ids = Math.random().toString(36).slice(2, 8);
  const root = h("div", { class: "sbx-curves" });
  root.append(h("style", {}, CSS));
  el.append(root);

  const stepButton = h("button", { "data-testid": "x-axis-step", "data-x": "step",
    onclick: () => setAxis("step") }, "global step");
  const timeButton = h("button", { "data-testid": "x-axis-time", "data-x": "time",
    onclick: () => setAxis("time") }, "wall time");
  const reference = h("input", { type: "checkbox", "data-testid": "show-reference" });
  reference.addEventListener("change", () => {
    model.set("show_reference", reference.checked);
    model.save_changes();
    schedule();
  });
  const controls = h("div", { class: "sbx-controls" },
    h("span", { class: "sbx-title" }, "Training curves"),
    h("span", {}, "x axis ", h("span", { class: "sbx-seg", "data-testid": "x-axis", role: "group" },
      stepButton, timeButton)),
    h("label", {}, reference, " seed 002's table"));
  const body = h("div", {});
  root.append(controls, body);
  const tips = tooltips(root);
  let width = 0;

  function setAxis(axis) {
    model.set("x_axis", axis);
    model.save_changes();
    schedule();
  }

  function legend(runs) {
    return h("div", { class: "sbx-legend" }, runs.map((run) => {
      const sm = run.summary || {};
      const last = (run.accuracy || []).slice(-1)[0];
      const figures = [`global step ${sm.global_step ?? run.global_step ?? 0}`];
      if (sm.seconds !== undefined) figures.push(`${Number(sm.seconds).toFixed(1)} s`);
      if (sm.test_accuracy !== undefined && sm.test_accuracy !== null) {
        figures.push(`test accuracy ${Number(sm.test_accuracy).toFixed(3)}`);
      } else if (last) figures.push(`test accuracy ${last[2].toFixed(3)} (last evaluated)`);
      if (sm.error) figures.push(sm.error);
      return h("span", { class: "sbx-run", "data-run": run.id, "data-state": run.state },
        h("span", { class: "sbx-swatch", style: `background:${run.color}` }),
        h("b", {}, run.label),
        h("span", { class: `sbx-badge sbx-${run.state}` }, run.state),
        h("span", { class: "sbx-figures" }, figures.join(" \u00b7 ")));
    }));
  }

  function referenceTable(ref, matches) {
    return h("div", { class: "sbx-reference", "data-testid": "reference" },
      h("div", { class: "sbx-ref-title" }, ref.title || "reference"),
      h("table", {},
        h("tr", {}, h("th", {}, "async workers"), h("th", {}, "TF"), h("th", {}, "ours (final)")),
        (ref.rows || []).map((row) => {
          const ours = matches(row.workers);
          return h("tr", { "data-workers": row.workers },
            h("td", {}, String(row.workers)), h("td", {}, row.accuracy.toFixed(2)),
            h("td", {}, ours.length ? ours.map((run) => h("div", {},
              h("span", { class: "sbx-swatch", style: `background:${run.color}` }),
              `${run.summary.test_accuracy.toFixed(3)}`, ours.length > 1 ? ` ${run.label}` : "")) : "\u2014"));
        })),
      h("div", { class: "sbx-note" }, "ours: the test accuracy each async run ended with"));
  }

  function draw() {
    const state = model.get("state") || {};
    const runs = state.runs || [];
    const axis = model.get("x_axis") === "time" ? "time" : "step";
    const showRef = !!model.get("show_reference") && !!state.reference;
    stepButton.setAttribute("aria-pressed", axis === "step" ? "true" : "false");
    timeButton.setAttribute("aria-pressed", axis === "time" ? "true" : "false");
    reference.checked = !!model.get("show_reference");
    width = Math.max(480, Math.floor(root.clientWidth - 20) || 1000);
    if (!runs.length) {
      body.replaceChildren(h("div", { class: "sbx-empty" }, "No run yet."));
      return;
    }
    const xKey = axis === "time" ? 1 : 0;
    let xMax = 0;
    for (const run of runs) {
      for (const p of (run.loss || []).concat(run.accuracy || [])) xMax = Math.max(xMax, p[xKey]);
      for (const e of run.events || []) xMax = Math.max(xMax, (xKey === 0 ? e.global_step : e.time) || 0);
    }
    xMax = xMax > 0 ? xMax * 1.02 : 1;
    const matches = (workers) => runs.filter((r) => (r.config || {}).mode === "async" &&
      (r.config || {}).workers === workers && r.summary && typeof r.summary.test_accuracy === "number");
    // the charts side by side, the table beside them when each chart still gets 420 px (or
    // else below them); on a narrow page, one chart per row
    let refW = showRef ? 216 : 0;
    let chartW = Math.floor((width - refW - 20) / 2);
    if (chartW < 420) { refW = 0; chartW = Math.floor((width - 10) / 2); }
    if (chartW < 320) chartW = width;
    const opts = { height: Math.round(Math.max(260, Math.min(340, chartW * 0.62))), xKey, xMax, ids,
      xTitle: axis === "time" ? "wall time (s since each run started)" : "global step" };
    body.replaceChildren(h("div", {},
      legend(runs),
      h("div", { class: "sbx-charts" },
        chart(runs, "loss", { ...opts, width: chartW }),
        chart(runs, "accuracy", { ...opts, width: chartW, reference: showRef ? state.reference : null,
          matches }),
        showRef ? referenceTable(state.reference, matches) : null)));
    if (showRef && refW) body.querySelector(".sbx-reference").style.width = `${refW - 10}px`;
    tips.refresh();
  }

  const redraw = redrawing(model, ["change:state", "change:x_axis", "change:show_reference"],
    draw, root, () => Math.max(480, Math.floor(root.clientWidth - 20)) !== width);
  function schedule() { redraw.schedule(); }
  return () => {
    redraw.stop();
    root.remove();
  };
}

export default { render };
