// Fleet: nodes grouped by vendor then pool, with GPU free/total bars,
// running jobs and status (draining/offline stand out), under the fleet's
// utilisation over time (./utilisation.js).
import { api } from "../api.js";
import { onFeed } from "../feed.js";
import { h, replace, vendorTag, throttle, errorBox } from "../dom.js";
import { mountUtilisation } from "./utilisation.js";

export function mountFleet(main) {
  const summary = h("div.summary");
  const body = h("div.fleet", h("p.muted", "Loading nodes…"));
  const legend = h("p.legend", "Bars:", h("i.free", { "aria-hidden": "true" }), "free GPUs", h("i.used", { "aria-hidden": "true" }),
    "GPUs in use. Draining nodes have a dashed border, offline nodes a red one.");
  const util = h("section.util", { "aria-label": "utilisation over time" });
  replace(main, h("div.head", h("h1", "Fleet")), util, summary, legend, body);
  const history = mountUtilisation(util);
  let alive = true;
  const load = throttle(async () => {
    try {
      const res = await api.nodes();
      if (!alive) return;
      const nodes = res.nodes || [];
      replace(summary, vendorTotals(nodes));
      replace(body, nodes.length ? groups(nodes) : h("p.empty", "No nodes: the server was started with an empty fleet."));
    } catch (err) {
      if (alive) replace(body, errorBox(err));
    }
  }, 1000);
  const stop = onFeed((e) => {
    if (/^node\.|^job\.(assigned|completed|failed|cancelled|rejected|running)/.test(e.type)) load();
    if (/^node\.|^job\.(submitted|assigned|completed|failed|cancelled|rejected|retrying)/.test(e.type)) history.load();
  });
  const timer = setInterval(load, 10000);
  load();
  return () => {
    alive = false;
    stop();
    history.stop();
    clearInterval(timer);
  };
}

function bar(free, total, label) {
  const used = total - free;
  return h("div.bar", { role: "meter", "aria-valuemin": "0", "aria-valuemax": String(total), "aria-valuenow": String(free),
    "aria-label": label, title: `${free} of ${total} GPUs free` },
  h("span", { style: `width:${total ? (100 * used) / total : 0}%` }));
}

function vendorTotals(nodes) {
  const by = new Map();
  for (const n of nodes) {
    const v = by.get(n.gpu_vendor) || { free: 0, total: 0, nodes: 0, down: 0 };
    v.nodes++;
    v.total += n.gpu_count || 0;
    if (n.status === "online" || n.status === "busy") v.free += n.gpus_free || 0;
    else v.down++;
    by.set(n.gpu_vendor, v);
  }
  return [...by.entries()].sort().map(([vendor, v]) => h("div.stat",
    h("div", vendorTag(vendor), ` ${v.nodes} nodes${v.down ? `, ${v.down} draining/offline` : ""}`),
    h("div.big", `${v.free} / ${v.total}`, h("small", " GPUs free")),
    bar(v.free, v.total, `${vendor} GPUs free`)));
}

function groups(nodes) {
  const pools = new Map();
  for (const n of nodes) {
    const key = `${n.gpu_vendor}\u0000${n.pool || n.name}`;
    if (!pools.has(key)) pools.set(key, []);
    pools.get(key).push(n);
  }
  return [...pools.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, list]) => {
    const first = list[0];
    const free = list.reduce((s, n) => s + (n.gpus_free || 0), 0);
    const total = list.reduce((s, n) => s + (n.gpu_count || 0), 0);
    const title = key.split("\u0000")[1];
    return h("section.pool", { "aria-label": `pool ${title}` },
      h("h2", vendorTag(first.gpu_vendor), " ", title,
        h("small.muted", ` ${first.gpu_model} · ${first.runtime} ${first.runtime_version || ""} · ${first.region || ""} · $${first.price_per_gpu_hour}/GPU·h · ${free}/${total} free`)),
      h("ul.nodes", list.map(nodeCard)));
  });
}

function nodeCard(n) {
  return h("li.node", { dataset: { status: n.status } },
    h("div.nodehead", h("strong", n.name), h("span.chip", { dataset: { s: n.status } }, n.status)),
    bar(n.gpus_free, n.gpu_count, `${n.name} GPUs free`),
    h("div.nodefacts", `${n.gpus_free}/${n.gpu_count} GPUs free · ${n.running_jobs} running · ${n.gpu_model} ${n.vram_gb} GB`));
}
