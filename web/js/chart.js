// SVG step charts of values over time, shared by the dashboard (as an ES
// module) and the self-contained page of `simulate --report`, which inlines
// this file with every leading `export ` removed. So: declarations only, no
// imports, no top-level code that touches the page. Every number a line
// shows is also on its element (data-max, data-last, data-samples), so
// tests can compare a chart with the data it was drawn from.
export const NS = "http://www.w3.org/2000/svg";
export const colors = ["#c8102e", "#1f6fb2", "#2e9e4f", "#e08a00", "#7b4fb5", "#0f9aa0", "#8a5a2b", "#d6409f", "#5d6b82"];

export function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function text(parent, x, y, content, attrs) {
  const node = el("text", Object.assign({ x, y }, attrs || {}), parent);
  node.textContent = content;
  return node;
}

export function fmt(v, digits) {
  if (v === null || v === undefined) return "-";
  return Number(v).toLocaleString("en-US", { maximumFractionDigits: digits === undefined ? 1 : digits });
}

export function niceMax(v) {
  if (!(v > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

// A chart frame: returns {svg, x(v), y(v)} with axes and ticks drawn.
export function frame(parent, opts) {
  const W = opts.width || 560, H = opts.height || 240, L = 56, R = 12, T = 10, B = 34;
  const svg = el("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img" }, parent);
  if (opts.label) svg.setAttribute("aria-label", opts.label);
  const x = (v) => L + (opts.xmax > opts.xmin ? (v - opts.xmin) / (opts.xmax - opts.xmin) : 0.5) * (W - L - R);
  const y = (v) => H - B - (v / opts.ymax) * (H - T - B);
  for (let i = 0; i <= 4; i++) {
    const v = (opts.ymax * i) / 4;
    el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }, svg);
    text(svg, L - 6, y(v) + 4, fmt(v, 2), { "text-anchor": "end" });
  }
  el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }, svg);
  el("line", { x1: L, x2: L, y1: T, y2: H - B, class: "axis" }, svg);
  for (const t of opts.xticks || []) text(svg, x(t.v), H - B + 14, t.label, { "text-anchor": "middle" });
  if (opts.xlabel) text(svg, (L + W - R) / 2, H - 4, opts.xlabel, { "text-anchor": "middle" });
  return { svg, x, y };
}

// Ticks from 0 to maxS seconds in s, min or h.
export function timeTicks(maxS) {
  const unit = maxS >= 7200 ? 3600 : maxS >= 120 ? 60 : 1, name = unit === 3600 ? "h" : unit === 60 ? "min" : "s";
  const step = niceMax(maxS / unit / 5) * unit, ticks = [];
  for (let v = 0; v <= maxS + 1e-9; v += step) ticks.push({ v, label: fmt(v / unit, 1) + " " + name });
  return ticks;
}

// A step line of samples, with data-max and data-last on it.
export function stepLine(chart, ts, values, color, attrs) {
  let d = "";
  values.forEach((v, i) => {
    d += (i === 0 ? "M" : "H") + chart.x(ts[i]).toFixed(1) + " " + (i === 0 ? "" : "V") + chart.y(v).toFixed(1) + " ";
  });
  return el("path", Object.assign({ d, fill: "none", stroke: color, "stroke-width": 1.6,
    "data-max": Math.max(0, ...values), "data-last": values.length ? values[values.length - 1] : 0,
    "data-samples": values.length }, attrs), chart.svg);
}
