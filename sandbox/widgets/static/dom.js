/* What the three views' front ends share: building DOM and SVG nodes, bytes in human units,
nice tick steps, and tooltips that survive redraws.

anywidget loads one ES module per widget, from a string -- no import between files, no build
step -- so sandbox/widgets/front_end.py puts this file in front of each view's own module
(placement.js, traffic.js, curves.js) and the widget gets the two as one module.

  h(tag, attrs, ...children)   an HTML element; s(...) the same for SVG. attrs: "class",
                               "style" (CSS text), "tip" (a tooltip: text, or a function of
                               the mouse position giving text), "on<event>" (a listener),
                               anything else an attribute (true: present, false/null: absent)
  fmtBytes(n)                  313600 -> "313.6 KB" (powers of 1000, as the Python side)
  niceStep(span, count)        a 1, 2 or 5 x 10^k step that cuts `span` into about `count`
  tooltips(root)               one tooltip element for every node under root with a "tip";
                               returns {tip, refresh}: call refresh() after a redraw
  redrawing(model, events, draw, root, widthChanged)
                               draw() now and, at most once per animation frame, whenever
                               one of the model's `events` fires, schedule() is called, or
                               root's size changes so that widthChanged() is true; returns
                               {schedule, stop}: stop() undoes all of it
*/
const SVGNS = "http://www.w3.org/2000/svg";

function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVGNS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "style") node.style.cssText = value;
    else if (key === "tip") node.sbxTip = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function fmtBytes(n) {
  if (n === null || n === undefined) return "?";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  let v = Number(n);
  while (Math.abs(v) >= 1000 && i < units.length - 1) { v /= 1000; i += 1; }
  return (i === 0 ? String(Math.round(v)) : v.toFixed(1)) + "\u202f" + units[i];
}

function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

function tooltips(root) {
  const tip = h("div", { class: "sbx-tip" });
  root.append(tip);
  let mouse = null;
  function show() {
    let node = mouse && document.elementFromPoint(mouse.x, mouse.y);
    while (node && node !== root && node.sbxTip === undefined) node = node.parentNode;
    const given = node && node !== root ? node.sbxTip : null;
    const text = typeof given === "function" ? given(mouse) : given;
    if (!text) { tip.style.display = "none"; return; }
    tip.textContent = text;
    tip.style.display = "block";
    const box = root.getBoundingClientRect();
    let x = mouse.x - box.left + 14;
    if (x + tip.offsetWidth > root.clientWidth) {
      x = Math.max(0, mouse.x - box.left - tip.offsetWidth - 10);
    }
    tip.style.left = `${x}px`;
    tip.style.top = `${mouse.y - box.top + 16}px`;
  }
  root.addEventListener("mousemove", (e) => { mouse = { x: e.clientX, y: e.clientY }; show(); });
  root.addEventListener("mouseleave", () => { mouse = null; tip.style.display = "none"; });
  return { tip, refresh: () => { if (mouse) show(); } };
}

function redrawing(model, events, draw, root, widthChanged) {
  let frame = 0;
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; draw(); });
  };
  events.forEach((e) => model.on(e, schedule));
  const resize = widthChanged && typeof ResizeObserver !== "undefined"
    ? new ResizeObserver(() => { if (widthChanged()) schedule(); }) : null;
  if (resize) resize.observe(root);
  draw();
  return {
    schedule,
    stop() {
      events.forEach((e) => model.off(e, schedule));
      if (resize) resize.disconnect();
      if (frame) cancelAnimationFrame(frame);
    },
  };
}
