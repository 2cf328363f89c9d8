// The report page of `simulate --report`: plain HTML, CSS and JS drawing SVG
// from the data embedded in it. Every number a chart shows is also on its
// element as a data-* attribute, so a test can compare it with --json.
#include <string>
#include <string_view>

#include "jgrid/api/web_assets.hpp"
#include "sim_report.hpp"

namespace jgrid::cli {
namespace {

constexpr const char* k_head = R"page(<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>jgrid-local simulate report</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f5f6f8}
header{background:#1d2330;color:#fff;padding:14px 24px}header h1{margin:0;font-size:18px}
header p{margin:4px 0 0;color:#b8c0cf;font-size:13px}
main{padding:16px 24px;display:grid;gap:16px;grid-template-columns:repeat(auto-fit,minmax(560px,1fr))}
section{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:12px 16px}
section.wide{grid-column:1/-1}h2{font-size:15px;margin:0 0 8px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}td,th{padding:3px 10px;text-align:right;border-bottom:1px solid #eef0f3}
th:first-child,td:first-child{text-align:left}tr.selected td{background:#fff4d6}
svg{display:block;max-width:100%}svg text{font-size:11px;fill:#4a5364}.axis{stroke:#9aa3b2}.grid{stroke:#eef0f3}
.legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}
select{font:inherit;padding:2px 6px}.note{color:#6b7385;font-size:12px}
</style></head><body>
<header><h1>Simulation report</h1><p id="title"></p></header>
<main>
<section class="wide" id="sweep-section" hidden><h2>Sweep: <span id="metric-name"></span> against <span id="sweep-path"></span></h2>
<div id="sweep-chart"></div><div class="legend" id="sweep-legend"></div><table id="points"></table></section>
<section class="wide"><h2>Run <select id="point-select"></select></h2><table id="summary"></table></section>
<section><h2>Queued jobs over simulated time</h2><div id="queue-chart"></div><p class="note" id="queue-note"></p></section>
<section><h2>Running GPUs per pool over simulated time</h2><div id="running-chart"></div><div class="legend" id="running-legend"></div></section>
<section class="wide"><h2>Queue wait per GPU model (submit to first assignment)</h2><div id="wait-charts"></div></section>
</main>
<script type="application/json" id="report-data">)page";

// The page's own script; the chart helpers (el, text, fmt, niceMax, frame,
// timeTicks, stepLine, colors) come before it from web/js/chart.js.
constexpr const char* k_script_open = R"page(</script>
<script>
"use strict";
)page";

constexpr const char* k_tail = R"page(const data = JSON.parse(document.getElementById("report-data").textContent);

function cell(row, value, field, tag) {
  const td = document.createElement(tag || "td");
  td.textContent = value;
  if (field) td.dataset.field = field;
  row.appendChild(td);
  return td;
}

function legend(id, names) {
  const box = document.getElementById(id);
  box.textContent = "";
  names.forEach((name, i) => {
    const span = document.createElement("span");
    const swatch = document.createElement("i");
    swatch.style.background = colors[i % colors.length];
    span.appendChild(swatch);
    span.appendChild(document.createTextNode(name));
    box.appendChild(span);
  });
}

function drawSeries(point) {
  const s = point.series, maxT = s.t_s.length ? s.t_s[s.t_s.length - 1] : 0;
  const queue = document.getElementById("queue-chart");
  queue.textContent = "";
  const qc = frame(queue, { xmin: 0, xmax: maxT, ymax: niceMax(Math.max(1, ...s.queued)), xticks: timeTicks(maxT) });
  stepLine(qc, s.t_s, s.queued, colors[0], { class: "series-queued" });
  document.getElementById("queue-note").textContent =
    `${s.t_s.length} samples, one every ${fmt(s.interval_s, 3)} simulated s (and one at the end).`;
  const running = document.getElementById("running-chart");
  running.textContent = "";
  const pools = Object.keys(s.running_gpus);
  const gpus = point.summary.gpu_utilisation || {};
  const ymax = niceMax(Math.max(1, ...pools.map((p) => Math.max(0, ...s.running_gpus[p]))));
  const rc = frame(running, { xmin: 0, xmax: maxT, ymax, xticks: timeTicks(maxT) });
  pools.forEach((pool, i) => stepLine(rc, s.t_s, s.running_gpus[pool], colors[i % colors.length],
    { class: "series-running", "data-pool": pool, "data-gpus": gpus[pool] ? gpus[pool].gpus : 0 }));
  legend("running-legend", pools.map((p) => `${p} (${gpus[p] ? gpus[p].gpus : 0} GPUs, busy ${fmt(gpus[p] ? gpus[p].utilisation * 100 : 0)} %)`));
}

// Histogram bars per bin and markers at p50/p95/p99 (placed within their bin).
function drawWaits(point) {
  const box = document.getElementById("wait-charts");
  box.textContent = "";
  const bins = data.wait_bins_s, waits = point.summary.queue_wait_s || {};
  const names = ["< " + bins[0] + " s"];
  for (let i = 1; i < bins.length; i++) names.push(bins[i - 1] + "–" + bins[i] + " s");
  names.push("≥ " + bins[bins.length - 1] + " s");
  const labels = Object.keys(waits);
  if (!labels.length) box.textContent = "No job was placed in this run.";
  labels.forEach((label) => {
    const w = waits[label], counts = point.wait_histogram[label] || [];
    const holder = document.createElement("div");
    holder.className = "wait-model";
    Object.assign(holder.dataset, { label, jobs: w.jobs, p50: w.p50, p95: w.p95, p99: w.p99 });
    const h3 = document.createElement("h3");
    h3.style.cssText = "font-size:13px;margin:10px 0 2px";
    h3.textContent = `${label}: ${w.jobs} jobs, p50 ${fmt(w.p50)} s, p95 ${fmt(w.p95)} s, p99 ${fmt(w.p99)} s`;
    holder.appendChild(h3);
    box.appendChild(holder);
    const n = counts.length, ymax = niceMax(Math.max(1, ...counts));
    const chart = frame(holder, { width: 1100, height: 170, xmin: 0, xmax: n, ymax,
      xticks: names.map((label, i) => ({ v: i + 0.5, label })) });
    counts.forEach((c, i) => el("rect", { x: chart.x(i) + 4, width: chart.x(1) - chart.x(0) - 8, y: chart.y(c),
      height: chart.y(0) - chart.y(c), fill: "#1f6fb2", opacity: 0.75, class: "wait-bin", "data-bin": i, "data-count": c }, chart.svg));
    const where = (v) => {
      let i = 0;
      while (i < bins.length && v >= bins[i]) i++;
      const lo = i === 0 ? 0 : bins[i - 1], hi = i < bins.length ? bins[i] : lo * 2;
      return i + Math.min(1, (v - lo) / Math.max(hi - lo, 1e-9));
    };
    [["p50", "#2e9e4f"], ["p95", "#c8102e"], ["p99", "#7b4fb5"]].forEach(([q, color]) => {
      const x = chart.x(where(w[q]));
      el("line", { x1: x, x2: x, y1: chart.y(ymax), y2: chart.y(0), stroke: color, "stroke-width": 2,
        "stroke-dasharray": "4 3", class: "wait-marker", "data-quantile": q, "data-value": w[q] }, chart.svg);
      text(chart.svg, x + 3, chart.y(ymax) + 10 + ["p50", "p95", "p99"].indexOf(q) * 12, `${q} ${fmt(w[q])} s`, { fill: color });
    });
  });
}

function drawSummary(point) {
  const table = document.getElementById("summary"), s = point.summary;
  table.textContent = "";
  const rows = [["jobs", s.jobs, "jobs"], ["retries", s.retries, "retries"], ["cost (USD)", fmt(s.cost_usd, 2), "cost_usd"],
    ["simulated span (s)", fmt(s.simulated_seconds, 3), "simulated_seconds"]];
  for (const [status, count] of Object.entries(s.by_status || {})) rows.push([status, count, "by_status." + status]);
  for (const [code, count] of Object.entries(s.failure_codes || {})) rows.push(["failure " + code, count, "failure_codes." + code]);
  for (const [name, value, field] of rows) {
    const tr = table.insertRow();
    cell(tr, name, null, "th");
    const td = cell(tr, value, field);
    td.dataset.value = field.split(".").reduce((o, k) => (o ? o[k] : undefined), s);
  }
}

function drawSweep() {
  if (data.points.length < 2 || !data.paths.length) return;
  document.getElementById("sweep-section").hidden = false;
  document.getElementById("metric-name").textContent = data.metric;
  const first = data.paths[0];
  document.getElementById("sweep-path").textContent = first;
  const numeric = data.points.every((p) => typeof p.point[first] === "number");
  const xs = [...new Set(data.points.map((p) => p.point[first]))];
  const xv = (v) => (numeric ? v : xs.indexOf(v));
  const groups = new Map();
  data.points.forEach((p, i) => {
    const key = data.paths.slice(1).map((path) => `${path}=${p.point[path]}`).join(" ") || data.metric;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(Object.assign({ index: i }, p));
  });
  const values = data.points.map((p) => p.metric).filter((v) => v !== null);
  const lo = numeric ? Math.min(...xs) : 0, hi = numeric ? Math.max(...xs) : Math.max(xs.length - 1, 1);
  const pad = (hi - lo || 1) * 0.05, xmin = lo - pad, xmax = hi + pad;  // room for the end points' labels
  const chart = frame(document.getElementById("sweep-chart"), { width: 1100, height: 280, xmin, xmax,
    ymax: niceMax(Math.max(1e-9, ...values)), xlabel: first, xticks: xs.map((v) => ({ v: xv(v), label: String(v) })) });
  [...groups.entries()].forEach(([key, points], g) => {
    const color = colors[g % colors.length];
    const drawn = points.filter((p) => p.metric !== null);
    if (drawn.length > 1)
      el("polyline", { points: drawn.map((p) => `${chart.x(xv(p.point[first]))},${chart.y(p.metric)}`).join(" "),
        fill: "none", stroke: color, "stroke-width": 2 }, chart.svg);
    points.forEach((p) => {
      const cx = chart.x(xv(p.point[first])), has = p.metric !== null;
      const dot = el("circle", { cx, cy: has ? chart.y(p.metric) : chart.y(0), r: 5, fill: has ? color : "#fff",
        stroke: color, class: "metric-point", "data-point": p.index, "data-x": p.point[first],
        "data-value": has ? p.metric : "null", "data-series": key }, chart.svg);
      el("title", {}, dot).textContent = `${p.label}: ${data.metric} = ${fmt(p.metric, 3)}`;
      text(chart.svg, cx, (has ? chart.y(p.metric) : chart.y(0)) - 8, fmt(p.metric), { "text-anchor": "middle" });
      dot.addEventListener("click", () => select(p.index));
    });
  });
  legend("sweep-legend", [...groups.keys()]);
  const table = document.getElementById("points");
  const head = table.insertRow();
  [...data.paths, data.metric, "jobs", "retries", "cost (USD)"].forEach((h) => cell(head, h, null, "th"));
  data.points.forEach((p, i) => {
    const tr = table.insertRow();
    tr.dataset.point = i;
    data.paths.forEach((path) => cell(tr, p.point[path]));
    cell(tr, fmt(p.metric, 3), "metric").dataset.value = p.metric === null ? "null" : p.metric;
    cell(tr, p.summary.jobs);
    cell(tr, p.summary.retries);
    cell(tr, fmt(p.summary.cost_usd, 2));
    tr.addEventListener("click", () => select(i));
  });
}

function select(i) {
  const point = data.points[i];
  document.getElementById("point-select").value = String(i);
  document.querySelectorAll("#points tr[data-point]").forEach((tr) => tr.classList.toggle("selected", tr.dataset.point === String(i)));
  document.body.dataset.selected = i;
  drawSummary(point);
  drawSeries(point);
  drawWaits(point);
}

document.getElementById("title").textContent = data.title;
const chooser = document.getElementById("point-select");
data.points.forEach((p, i) => {
  const option = document.createElement("option");
  option.value = String(i);
  option.textContent = p.label;
  chooser.appendChild(option);
});
chooser.addEventListener("change", () => select(Number(chooser.value)));
drawSweep();
if (data.points.length) select(0);
document.body.dataset.ready = "1";
</script></body></html>
)page";

// A `<` in the data could end the script element (`</script>`) or open a
// comment; as `\u003c` it is the same JSON string and neither.
std::string escaped(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

// The dashboard's chart module as a plain script: its lines' leading
// `export ` removed (the file is written to allow exactly that).
std::string chart_script() {
  std::string module;
  for (const api::WebAsset* asset = api::web_assets(); asset && asset->path; ++asset)
    if (std::string(asset->path) == "/js/chart.js") module.assign(reinterpret_cast<const char*>(asset->bytes), asset->size);
  std::string script;
  for (std::size_t at = 0; at < module.size();) {
    std::size_t end = module.find('\n', at);
    end = end == std::string::npos ? module.size() : end + 1;
    std::string_view line(module.data() + at, end - at);
    if (line.starts_with("export ")) line.remove_prefix(7);
    script.append(line);
    at = end;
  }
  return script;
}

}  // namespace

std::string report_html(const nlohmann::json& data) {
  return k_head + escaped(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) + k_script_open +
         chart_script() + k_tail;
}

}  // namespace jgrid::cli
