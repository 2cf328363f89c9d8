// Utilisation over time, on the Fleet view: jobs waiting in the queue and
// GPUs in use per pool, from GET /v1/sim/utilisation (a sample every 5 s of
// the server's clock, virtual or real, for the last 4 hours), drawn with the
// charts of `simulate --report` (../chart.js). Refreshed every 5 s while
// mounted, and when load() is called (the Fleet view calls it on events).
import { api } from "../api.js";
import { h, replace, throttle, errorBox } from "../dom.js";
import { colors, fmt, frame, niceMax, stepLine } from "../chart.js";

const STEPS_S = [5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

export function mountUtilisation(box) {
  const note = h("p.muted.util-note", "Loading utilisation…");
  const queue = h("div.chart");
  const running = h("div.chart");
  const legend = h("div.chart-legend");
  replace(box, h("h2", "Utilisation over time"), note,
    h("div.util-charts",
      h("figure", h("figcaption", "Jobs waiting in the queue"), queue),
      h("figure", h("figcaption", "GPUs in use per pool"), running, legend)));
  let alive = true;
  const load = throttle(async () => {
    try {
      const u = await api.utilisation();
      if (!alive) return;
      draw(box, { note, queue, running, legend }, u);
    } catch (err) {
      if (alive) replace(note, errorBox(err));
    }
  }, 1000);
  const timer = setInterval(load, 5000);  // the samples' interval
  load();
  return {
    load,
    stop() {
      alive = false;
      clearInterval(timer);
    },
  };
}

function draw(box, parts, u) {
  const ts = u.t_s || [], span = ts.length ? ts[ts.length - 1] : 0, last = (a) => (a.length ? a[a.length - 1] : 0);
  Object.assign(box.dataset, { samples: ts.length, intervalSeconds: u.interval_seconds, nowMs: u.now_ms });
  replace(parts.note, `${ts.length} samples, one every ${fmt(u.interval_seconds, 3)} s of the server's ${u.clock} clock` +
    ` (at most ${u.max_samples}), the last at ${u.now}. Times are UTC.`);
  const xticks = clockTicks(u.t_ms || [], span);
  parts.queue.replaceChildren();
  const qc = frame(parts.queue, { width: 620, height: 220, xmin: 0, xmax: span, xticks,
    ymax: niceMax(Math.max(1, ...u.queued)), label: "Jobs waiting in the queue over time" });
  stepLine(qc, ts, u.queued, colors[0], { class: "series-queued" });
  parts.running.replaceChildren();
  const pools = u.pools || [];
  const ymax = niceMax(Math.max(1, ...pools.map((p) => Math.max(0, ...u.running_gpus[p]))));
  const rc = frame(parts.running, { width: 620, height: 220, xmin: 0, xmax: span, ymax, xticks,
    label: "GPUs in use per pool over time" });
  const items = pools.map((pool, i) => {
    const color = colors[i % colors.length], gpus = last(u.total_gpus[pool]), busy = last(u.busy_share[pool]);
    stepLine(rc, ts, u.running_gpus[pool], color, { class: "series-running", "data-pool": pool, "data-gpus": gpus,
      "data-busy": busy === null ? "" : busy });
    return h("span", { dataset: { pool } }, h("i", { style: `background:${color}`, "aria-hidden": "true" }),
      `${pool} (${last(u.running_gpus[pool])} of ${gpus} GPUs in use, busy ${busy === null ? "-" : fmt(busy * 100)} %)`);
  });
  replace(parts.legend, items.length ? items : h("span", "No pools: the server was started with an empty fleet."));
}

// Ticks at round clock times (UTC), about five over the span.
function clockTicks(tMs, span) {
  if (!tMs.length) return [];
  const step = STEPS_S.find((s) => s >= span / 5) || Math.ceil(span / 5 / 3600) * 3600;
  const t0 = tMs[0] / 1000, ticks = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t0 + span + 1e-9; t += step) {
    const iso = new Date(t * 1000).toISOString();
    ticks.push({ v: t - t0, label: step < 60 ? iso.slice(11, 19) : iso.slice(11, 16) });
  }
  return ticks;
}
