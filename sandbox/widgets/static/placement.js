/* The placement view's front end: which task and device holds each variable and runs each op.

A pure renderer of PlacementModel.to_dict() (sandbox/widgets/placement_model.py), the synced
trait `state`; it knows nothing about clusters. Everything is redrawn from `state` on every
change (as TF Playground does), at most once per animation frame; what the user opened,
selected, hovered and scrolled survives the redraw.

  * one box per task, in a grid grouped by job (a row of ps, a row of workers...), coloured by
    `task.color`; a dead task is grey, striped, with a "dead" badge
  * inside a task, its devices; inside a device, one chip per name-scope group: scope, number
    of ops, bytes, and a count per kind of op (the glyphs of KIND_GLYPHS); a group holding a
    variable is tinted with its job's colour
  * click a chip: it opens into its ops (trait `expanded`: keys "task|device|scope", e.g.
    "ps:0|CPU:0|hidden", with the task's short name and the device's short name); hover an op:
    its name, type, dtype, shape and bytes; click it: trait `selected` (the op's dict plus
    "task" and "device") and the details panel
  * ops no step has placed yet are listed apart, collapsed; the note and counts are the caption

Hooks for end-to-end tests (stable):
  [data-task="worker:1"][data-state="alive|dead|not answering"]   a task's box (.sbx-task)
  [data-job="ps"]                                    a job's row (.sbx-job)
  [data-device="CPU:0"]                              a device inside a task
  [data-group="worker:1|CPU:0|hidden"][data-open="true|false"]   a group's chip
  [data-op="hidden/w1"][data-kind="variable"]        an op of an open group (.sbx-op)
  [data-testid="details"]                            the selected op's panel
  [data-testid="unplaced"]                           the "not placed yet" list (a <details>)
  [data-testid="caption"]                            the note and the counts
*/

const CSS = `
.sbx-placement { font: 13px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #222; background: #fff; padding: 8px; position: relative; box-sizing: border-box; }
.sbx-placement * { box-sizing: border-box; }
.sbx-placement .sbx-caption { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline;
  margin-bottom: 6px; }
.sbx-placement .sbx-title { font-size: 15px; font-weight: 600; }
.sbx-placement .sbx-counts { color: #444; }
.sbx-placement .sbx-note { color: #555; flex-basis: 100%; }
.sbx-placement .sbx-legend { display: flex; flex-wrap: wrap; gap: 4px 14px; color: #444;
  margin: 4px 0 8px; font-size: 12px; align-items: center; }
.sbx-placement .sbx-swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px;
  vertical-align: -2px; margin-right: 4px; }
.sbx-placement .sbx-glyph { display: inline-block; min-width: 1.1em; text-align: center;
  font-weight: 600; }
.sbx-placement .sbx-details { border: 1px solid #ccc; border-radius: 6px; padding: 5px 10px;
  margin-bottom: 10px; background: #fafafa; min-height: 32px; display: flex; gap: 6px 16px;
  flex-wrap: wrap; align-items: baseline; }
.sbx-placement .sbx-details.sbx-empty { color: #777; }
.sbx-placement .sbx-details b { font-family: ui-monospace, Menlo, Consolas, monospace; }
.sbx-placement .sbx-details .sbx-clear { margin-left: auto; cursor: pointer; border: 1px solid #bbb;
  background: #fff; border-radius: 4px; font-size: 12px; padding: 1px 8px; }
.sbx-placement .sbx-job { margin-bottom: 10px; }
.sbx-placement .sbx-job-head { font-weight: 600; margin: 0 0 4px 2px; font-size: 13px; }
.sbx-placement .sbx-grid { display: grid; gap: 8px; container: sbx-grid / inline-size;
  grid-template-columns: repeat(auto-fit, minmax(var(--sbx-min, 250px), 1fr)); align-items: start; }
.sbx-placement .sbx-grid > .sbx-wide { grid-column: span 2; }
@container sbx-grid (max-width: 540px) { .sbx-placement .sbx-grid > .sbx-wide { grid-column: auto; } }
.sbx-placement .sbx-task { border: 2px solid var(--c); border-radius: 8px; background: #fff;
  min-width: 0; overflow: hidden; }
.sbx-placement .sbx-task-head { background: var(--c); color: #fff; padding: 3px 8px;
  display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.sbx-placement .sbx-task-name { font-weight: 700; font-size: 14px; }
.sbx-placement .sbx-task-meta { font-size: 12px; opacity: .95; }
.sbx-placement .sbx-badge { font-size: 12px; font-weight: 700; border-radius: 4px; padding: 0 6px;
  background: #fff; color: #333; margin-left: auto; }
.sbx-placement .sbx-task[data-state="dead"] { background: repeating-linear-gradient(135deg,
  #f3f3f3 0 8px, #e6e6e6 8px 16px); border-style: solid; }
.sbx-placement .sbx-task[data-state="dead"] .sbx-task-head { color: #333; }
.sbx-placement .sbx-task[data-state="dead"] .sbx-badge { background: #333; color: #fff; }
.sbx-placement .sbx-task[data-state="not answering"] { border-style: dashed; }
.sbx-placement .sbx-task[data-state="not answering"] .sbx-badge { background: #fff3c4; }
.sbx-placement .sbx-device { margin: 6px; border: 1px solid #d4d4d4; border-radius: 6px;
  background: rgba(255,255,255,.85); }
.sbx-placement .sbx-device-head { font-size: 12px; color: #555; padding: 2px 6px;
  border-bottom: 1px solid #e4e4e4; display: flex; gap: 8px; }
.sbx-placement .sbx-groups { display: flex; flex-wrap: wrap; gap: 4px; padding: 5px;
  max-height: 340px; overflow-y: auto; overflow-x: hidden; align-content: flex-start; }
.sbx-placement .sbx-none { color: #888; font-style: italic; padding: 2px 4px; font-size: 12px; }
.sbx-placement .sbx-chip { display: inline-flex; gap: 6px; align-items: baseline; max-width: 100%;
  border: 1px solid #c8c8c8; border-radius: 5px; background: #f7f7f7; padding: 2px 6px;
  cursor: pointer; font: inherit; font-size: 12px; color: #222; text-align: left; }
.sbx-placement .sbx-chip:hover { border-color: #666; }
.sbx-placement .sbx-chip.sbx-var { background: var(--tint); border: 1.5px solid var(--jc); }
.sbx-placement .sbx-chip .sbx-scope { font-weight: 600; font-size: 13px; overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.sbx-placement .sbx-chip .sbx-n { color: #333; background: rgba(0,0,0,.08); border-radius: 8px;
  padding: 0 6px; font-size: 12px; }
.sbx-placement .sbx-chip .sbx-b { color: #555; white-space: nowrap; }
.sbx-placement .sbx-chip .sbx-k { color: #555; white-space: nowrap; }
.sbx-placement .sbx-group-open { flex-basis: 100%; border: 1px solid #999; border-radius: 6px;
  background: #fff; }
.sbx-placement .sbx-group-open > .sbx-chip { border: none; border-bottom: 1px solid #ddd;
  border-radius: 6px 6px 0 0; width: 100%; }
.sbx-placement .sbx-ops { list-style: none; margin: 0; padding: 2px 0; max-height: 240px;
  overflow-y: auto; overflow-x: hidden; container: sbx-ops / inline-size; }
.sbx-placement .sbx-op { display: grid; gap: 8px; padding: 1px 6px; cursor: pointer;
  grid-template-columns: 1.3em minmax(0, 2.2fr) minmax(0, 1fr) minmax(0, 1.2fr) 4.8em;
  align-items: baseline; font-size: 12px; }
@container sbx-ops (max-width: 460px) {
  .sbx-placement .sbx-op { grid-template-columns: 1.3em minmax(0, 2fr) minmax(0, 1fr) 4.8em; }
  .sbx-placement .sbx-op .sbx-opdtype { display: none; } }
.sbx-placement .sbx-op:hover { background: #eef3fb; }
.sbx-placement .sbx-op.sbx-selected { background: #ffe9a8; }
.sbx-placement .sbx-op .sbx-opname { font-family: ui-monospace, Menlo, Consolas, monospace;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.sbx-placement .sbx-op .sbx-prefix { color: #888; }
.sbx-placement .sbx-op[data-kind="variable"] .sbx-opname { font-weight: 700; }
.sbx-placement .sbx-op .sbx-optype, .sbx-placement .sbx-op .sbx-opdtype { color: #555;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.sbx-placement .sbx-op .sbx-opbytes { color: #555; text-align: right; min-width: 4.5em; }
.sbx-placement .sbx-unplaced { border: 1px dashed #aaa; border-radius: 6px; padding: 4px 8px;
  margin-top: 4px; }
.sbx-placement .sbx-unplaced summary { cursor: pointer; color: #444; }
.sbx-placement .sbx-unplaced table { border-collapse: collapse; margin-top: 4px; font-size: 12px; }
.sbx-placement .sbx-unplaced td, .sbx-placement .sbx-unplaced th { padding: 1px 10px 1px 0;
  text-align: left; }
.sbx-placement .sbx-unplaced .sbx-scroll { max-height: 220px; overflow-y: auto; }
.sbx-placement .sbx-mono { font-family: ui-monospace, Menlo, Consolas, monospace; }
.sbx-placement .sbx-tip { position: absolute; z-index: 10; pointer-events: none; display: none;
  background: #222; color: #fff; border-radius: 5px; padding: 5px 8px; font-size: 12px;
  line-height: 1.4; white-space: pre; max-width: 520px; box-shadow: 0 2px 6px rgba(0,0,0,.3); }
`;

/* The glyph of each kind of op (placement_model._KINDS), explained in the legend. */
const KIND_GLYPHS = {
  variable: ["\u25c6", "variable"], placeholder: ["\u25a2", "placeholder"],
  constant: ["c", "constant"], op: ["\u25cb", "op"], send: ["\u2192", "_Send"],
  recv: ["\u2190", "_Recv"], queue: ["\u2261", "queue"], accumulator: ["\u03a3", "accumulator"],
};
const KIND_ORDER = Object.keys(KIND_GLYPHS);

// -- small helpers --------------------------------------------------------------------------
// (h, s, fmtBytes, niceStep and tooltips: dom.js, in front of this module)

function fmtShape(shape) {
  if (shape === null || shape === undefined) return "unknown shape";
  if (shape.length === 0) return "scalar";
  return "[" + shape.map((d) => (d === null ? "?" : d)).join(", ") + "]";
}

function plural(n, word, words) {
  return `${n} ${n === 1 ? word : (words || word + "s")}`;
}

function tint(color, alpha) {
  const m = /^#([0-9a-f]{6})$/i.exec(color || "");
  if (!m) return "#f7f7f7";
  const v = parseInt(m[1], 16);
  return `rgba(${v >> 16}, ${(v >> 8) & 255}, ${v & 255}, ${alpha})`;
}

function kindCounts(kinds) {
  return KIND_ORDER.filter((k) => kinds && kinds[k]).map((k) => `${KIND_GLYPHS[k][0]}${kinds[k]}`)
    .concat(Object.keys(kinds || {}).filter((k) => !KIND_GLYPHS[k]).map((k) => `${k} ${kinds[k]}`))
    .join(" ");
}

function kindWords(kinds) {
  return Object.entries(kinds || {}).map(([k, n]) => plural(n, KIND_GLYPHS[k] ? KIND_GLYPHS[k][1] : k))
    .join(", ");
}

function opTip(op, task, device) {
  return [op.name, `type   ${op.op} (${op.kind})`, `dtype  ${op.dtype || "unknown"}`,
    `shape  ${fmtShape(op.shape)}`,
    `bytes  ${op.bytes === null || op.bytes === undefined ? "unknown" : fmtBytes(op.bytes) +
      (op.bytes >= 1000 ? ` (${op.bytes.toLocaleString("en-US")} B)` : "")}`,
    `on     ${task} ${device}`]
    .concat(op.state ? [`state  ${op.state}`] : [])
    .concat(op.sessions ? [`in ${plural(op.sessions, "registered graph piece")}`] : [])
    .join("\n");
}

// -- scroll positions that survive redraws ------------------------------------

function keepScroll(container, redraw) {
  const saved = {};
  container.querySelectorAll("[data-scroll-key]").forEach((n) => {
    if (n.scrollTop) saved[n.dataset.scrollKey] = n.scrollTop;
  });
  redraw();
  container.querySelectorAll("[data-scroll-key]").forEach((n) => {
    if (saved[n.dataset.scrollKey]) n.scrollTop = saved[n.dataset.scrollKey];
  });
}

// -- the view -------------------------------------------------------------------------------

function render({ model, el }) {
  const root = h("div", { class: "sbx-placement" });
  root.append(h("style", {}, CSS));
  const body = h("div", {});
  root.append(body);
  el.append(root);
  const tips = tooltips(root);
  const ui = { unplacedOpen: false };

  const groupKey = (task, device, group) => `${task.short}|${device.name}|${group.scope}`;

  function toggle(key) {
    const expanded = new Set(model.get("expanded") || []);
    if (expanded.has(key)) expanded.delete(key); else expanded.add(key);
    model.set("expanded", [...expanded]);
    model.save_changes();
    schedule();
  }

  function select(op, task, device) {
    const current = model.get("selected") || {};
    const same = current.name === op.name && current.task === task.short;
    model.set("selected", same ? {} : { ...op, task: task.short, device: device.name });
    model.save_changes();
    schedule();
  }

  function findSelected(state, selected) {
    for (const task of state.tasks || []) {
      if (task.short !== selected.task) continue;
      for (const device of task.devices || []) {
        for (const group of device.groups || []) {
          for (const op of group.ops || []) {
            if (op.name === selected.name) return { ...op, task: task.short, device: device.name };
          }
        }
      }
    }
    return null;
  }

  function details(state) {
    const selected = model.get("selected") || {};
    if (!selected.name) {
      return h("div", { class: "sbx-details sbx-empty", "data-testid": "details" },
        "Click an op to see its details here; click a group to open it.");
    }
    const now = findSelected(state, selected);
    const op = now || selected;
    return h("div", { class: "sbx-details", "data-testid": "details" },
      h("b", {}, op.name),
      h("span", {}, `${op.op} (${op.kind})`),
      h("span", {}, `${op.dtype || "dtype unknown"} ${fmtShape(op.shape)}`),
      h("span", {}, op.bytes === null || op.bytes === undefined ? "bytes unknown" : fmtBytes(op.bytes)),
      h("span", {}, `on ${op.task} ${op.device || ""}`),
      op.state ? h("span", {}, op.state) : null,
      now ? null : h("span", { style: "color:#a33" }, "(no longer in the placement)"),
      h("button", { class: "sbx-clear", title: "Clear the selection",
        onclick: () => { model.set("selected", {}); model.save_changes(); schedule(); } },
        "\u00d7 clear"));
  }

  function chip(task, device, group, open) {
    const key = groupKey(task, device, group);
    const hasVariable = (group.kinds || {}).variable > 0;
    return h("button", {
      class: "sbx-chip" + (hasVariable ? " sbx-var" : ""), "data-group": key,
      "data-open": open ? "true" : "false", "aria-expanded": open ? "true" : "false",
      style: `--jc:${task.job_color || task.color}; --tint:${tint(task.job_color || task.color, 0.16)}`,
      tip: `${group.scope}\n${plural(group.count, "op")}: ${kindWords(group.kinds)}\n` +
        `${fmtBytes(group.bytes)} (outputs of the ops whose shape is known)\n` +
        (open ? "click to close" : "click to list its ops"),
      onclick: () => toggle(key),
    },
    h("span", { class: "sbx-glyph" }, open ? "\u25be" : "\u25b8"),
    h("span", { class: "sbx-scope" }, group.scope),
    h("span", { class: "sbx-n" }, String(group.count)),
    group.bytes ? h("span", { class: "sbx-b" }, fmtBytes(group.bytes)) : null,
    h("span", { class: "sbx-k" }, kindCounts(group.kinds)));
  }

  function opList(task, device, group, selected) {
    const prefix = group.scope && (group.ops || []).every((op) => op.name.startsWith(group.scope + "/")
      || op.name === group.scope) ? group.scope + "/" : "";
    return h("ul", { class: "sbx-ops", "data-scroll-key": "ops|" + groupKey(task, device, group) },
      (group.ops || []).map((op) => {
        const isSelected = selected.name === op.name && selected.task === task.short;
        const rest = prefix && op.name.startsWith(prefix) ? op.name.slice(prefix.length) : op.name;
        return h("li", {
          class: "sbx-op" + (isSelected ? " sbx-selected" : ""), "data-op": op.name,
          "data-kind": op.kind, tip: opTip(op, task.short, device.name),
          onclick: () => select(op, task, device),
        },
        h("span", { class: "sbx-glyph", style: op.kind === "variable" ? `color:${task.job_color}` : "" },
          (KIND_GLYPHS[op.kind] || ["\u00b7"])[0]),
        h("span", { class: "sbx-opname" },
          prefix && rest !== op.name ? h("span", { class: "sbx-prefix" }, prefix) : null, rest),
        h("span", { class: "sbx-optype" }, op.op),
        h("span", { class: "sbx-opdtype" }, op.dtype ? `${op.dtype}${op.shape ? " " + fmtShape(op.shape) : ""}` : ""),
        h("span", { class: "sbx-opbytes" }, op.bytes ? fmtBytes(op.bytes) : ""));
      }));
  }

  function taskBox(task, expanded, selected, wide) {
    const state = task.state || "alive";
    const badge = state === "dead" ? "\u2715 dead" : state === "not answering" ? "not answering"
      : state !== "alive" ? state : null;
    const meta = [plural(task.ops || 0, "op"), plural(task.variables || 0, "variable")];
    if (task.bytes) meta.push(`${fmtBytes(task.bytes)} of variables`);
    return h("div", {
      class: "sbx-task" + (wide && (task.devices || []).some((device) => (device.groups || [])
        .some((group) => expanded.has(groupKey(task, device, group)))) ? " sbx-wide" : ""),
      "data-task": task.short, "data-state": state, "data-job": task.job,
      style: `--c:${task.color}`,
    },
    h("div", { class: "sbx-task-head", tip: `${task.name}\n${state}` },
      h("span", { class: "sbx-task-name" }, task.short),
      h("span", { class: "sbx-task-meta" }, meta.join(" \u00b7 ")),
      badge ? h("span", { class: "sbx-badge", "data-testid": "badge" }, badge) : null),
    (task.devices || []).map((device) => h("div", { class: "sbx-device", "data-device": device.name },
    h("div", { class: "sbx-device-head", tip: device.full }, h("b", {}, device.name),
      h("span", {}, plural((device.groups || []).length, "group"))),
    h("div", { class: "sbx-groups", "data-scroll-key": `groups|${task.short}|${device.name}` },
      (device.groups || []).length === 0 ? h("span", { class: "sbx-none" }, "nothing placed here") : null,
      (device.groups || []).map((group) => {
        const open = expanded.has(groupKey(task, device, group));
        if (!open) return chip(task, device, group, false);
        return h("div", { class: "sbx-group-open" }, chip(task, device, group, true),
          opList(task, device, group, selected));
      })))));
  }

  function legend(tasks) {
    const jobs = new Map();
    for (const t of tasks) if (!jobs.has(t.job)) jobs.set(t.job, t.job_color || t.color);
    const kinds = new Set();
    for (const t of tasks) for (const d of t.devices || []) for (const g of d.groups || [])
      for (const k of Object.keys(g.kinds || {})) kinds.add(k);
    const items = [...jobs].map(([job, color]) => h("span", {},
      h("span", { class: "sbx-swatch", style: `background:${color}` }), job || "(no job)"));
    if (tasks.some((t) => t.state === "dead")) {
      items.push(h("span", {}, h("span", { class: "sbx-swatch", style:
        "background:repeating-linear-gradient(135deg,#eee 0 3px,#b0b0b0 3px 6px)" }), "dead task"));
    }
    for (const k of KIND_ORDER) {
      if (kinds.has(k)) items.push(h("span", {}, h("span", { class: "sbx-glyph" }, KIND_GLYPHS[k][0]),
        " " + KIND_GLYPHS[k][1]));
    }
    const holder = tasks.find((t) => (t.devices || []).some((d) => (d.groups || [])
      .some((g) => (g.kinds || {}).variable)));
    if (holder) {
      const color = holder.job_color || holder.color;
      items.push(h("span", {}, h("span", { class: "sbx-swatch", style:
        `background:${tint(color, 0.16)};border:1.5px solid ${color}` }), "group with a variable"));
    }
    return h("div", { class: "sbx-legend" }, items);
  }

  function unplacedList(state) {
    const unplaced = state.unplaced || [];
    if (!unplaced.length) return null;
    const box = h("details", { class: "sbx-unplaced", "data-testid": "unplaced", open: ui.unplacedOpen },
      h("summary", {}, `Not placed yet: ${plural(unplaced.length, "op")} no step has needed `
        + "(placed when a step first runs them)"),
      h("div", { class: "sbx-scroll", "data-scroll-key": "unplaced" },
        h("table", {}, h("tr", {}, h("th", {}, "op"), h("th", {}, "type"), h("th", {}, "device asked for")),
          unplaced.map((u) => h("tr", {}, h("td", { class: "sbx-mono" }, u.name), h("td", {}, u.op),
            h("td", { class: "sbx-mono" }, u.requested || "(none)"))))));
    box.addEventListener("toggle", () => { ui.unplacedOpen = box.open; });
    return box;
  }

  function draw() {
    const state = model.get("state") || {};
    const tasks = state.tasks || [];
    const expanded = new Set(model.get("expanded") || []);
    const selected = model.get("selected") || {};
    const counts = state.counts || {};
    const jobs = [];
    for (const task of tasks) {
      let row = jobs.find((j) => j.job === task.job);
      if (!row) { row = { job: task.job, tasks: [] }; jobs.push(row); }
      row.tasks.push(task);
    }
    const content = h("div", {},
      h("div", { class: "sbx-caption", "data-testid": "caption" },
        h("span", { class: "sbx-title" }, "Placement"),
        h("span", { class: "sbx-counts" }, [plural(counts.tasks ?? tasks.length, "task"),
          plural(counts.ops ?? 0, "op"), plural(counts.variables ?? 0, "variable")].join(" \u00b7 ")),
        state.note ? h("span", { class: "sbx-note" }, state.note) : null),
      tasks.length ? legend(tasks) : h("div", { class: "sbx-none" }, "No task to show yet."),
      details(state),
      jobs.map((row) => h("div", { class: "sbx-job", "data-job": row.job },
        h("div", { class: "sbx-job-head", style: `color:${row.tasks[0].job_color || row.tasks[0].color}` },
          `${row.job || "(no job)"} \u00b7 ${plural(row.tasks.length, "task")}`),
        h("div", { class: "sbx-grid", style: `--sbx-min:${row.tasks.length > 8 ? 230 : 260}px` },
          row.tasks.map((task) => taskBox(task, expanded, selected, row.tasks.length > 2))))),
      unplacedList(state));
    keepScroll(body, () => body.replaceChildren(content));
    tips.refresh();
  }

  const redraw = redrawing(model, ["change:state", "change:expanded", "change:selected"],
    draw, root);
  function schedule() { redraw.schedule(); }
  return () => {
    redraw.stop();
    root.remove();
  };
}

export default { render };
