// Jobs: a page of jobs (newest first) with status/vendor/text filters,
// cursor paging, and live refresh from the server's event feed.
import { api, root } from "../api.js";
import { onFeed } from "../feed.js";
import { h, replace, chip, vendorTag, duration, since, between, ago, throttle, debounce, field, errorBox } from "../dom.js";

const PAGE = 25;
const STATUSES = ["", "active", "queued", "running", "completed", "failed", "rejected", "cancelled"];
const ACTIVE = "pending,queued,assigned,starting,running";

export function mountJobs(main) {
  const state = { status: "", vendor: "", text: "", cursors: [""], jobs: [], hasMore: false, next: null };
  readQuery(state);
  const status = h("select", { name: "status" }, STATUSES.map((s) => h("option", { value: s }, s || "all")));
  const vendor = h("select", { name: "vendor" }, ["", "amd", "nvidia"].map((v) => h("option", { value: v }, v || "any")));
  const text = h("input", { type: "search", name: "q", placeholder: "name, id, image, node", autocomplete: "off" });
  status.value = state.status;
  vendor.value = state.vendor;
  text.value = state.text;
  const body = h("div.table-wrap");
  const pager = h("nav.pager", { "aria-label": "Pages" });
  const live = h("p.sr-only", { role: "status", "aria-live": "polite" });
  replace(main, h("div.head", h("h1", "Jobs"), h("a.button", { href: root + "ui/submit" }, "New job")),
    h("form.filters", { role: "search", onsubmit: (e) => e.preventDefault() },
      field("Status", status), field("Vendor", vendor), field("Search this page", text)), body, pager, live);

  let alive = true;
  const nodes = new Map();
  const loadNodes = async () => {
    const res = await api.nodes();
    for (const n of res.nodes || []) nodes.set(n.node_id, n);
  };
  const load = async () => {
    try {
      const cursor = state.cursors[state.cursors.length - 1];
      const res = await api.jobs({ limit: PAGE, cursor, status: state.status === "active" ? ACTIVE : state.status,
                                   gpu_vendor: state.vendor });
      if (!alive) return;
      Object.assign(state, { jobs: res.jobs || [], hasMore: !!res.has_more, next: res.next_cursor });
      if (state.jobs.some((j) => j.assigned_node_id && !nodes.has(j.assigned_node_id))) await loadNodes();
      draw();
    } catch (err) {
      if (alive) replace(body, errorBox(err));
    }
  };
  const draw = () => {
    replace(body, table(filtered(state, nodes), nodes));
    drawPager(pager, state, load);
    live.textContent = `${state.jobs.length} jobs on this page`;
  };
  const refilter = () => {
    Object.assign(state, { status: status.value, vendor: vendor.value, text: text.value.trim(), cursors: [""] });
    writeQuery(state);
    load();
  };
  status.addEventListener("change", refilter);
  vendor.addEventListener("change", refilter);
  text.addEventListener("input", debounce(() => {
    state.text = text.value.trim();
    writeQuery(state);
    draw();
  }, 150));

  const refresh = throttle(load, 1000);
  const stop = onFeed((event) => {
    if (!event.job_id) return;
    if (state.cursors.length === 1 || state.jobs.some((j) => j.job_id === event.job_id)) refresh();
  });
  const tick = setInterval(() => alive && state.jobs.length && draw(), 5000);
  load();
  return () => {
    alive = false;
    stop();
    clearInterval(tick);
  };
}

function readQuery(state) {
  const q = new URLSearchParams(location.search);
  state.status = q.get("status") || "";
  state.vendor = q.get("vendor") || "";
  state.text = q.get("q") || "";
}

function writeQuery(state) {
  const q = new URLSearchParams();
  if (state.status) q.set("status", state.status);
  if (state.vendor) q.set("vendor", state.vendor);
  if (state.text) q.set("q", state.text);
  const s = q.toString();
  history.replaceState(null, "", location.pathname + (s ? "?" + s : ""));
}

function filtered(state, nodes) {
  const needle = state.text.toLowerCase();
  if (!needle) return state.jobs;
  return state.jobs.filter((j) => [j.job_id, j.name, j.image, j.assigned_node_id, nodeOf(j, nodes).name, j.status]
    .some((v) => (v || "").toLowerCase().includes(needle)));
}

// List items name the node by id; its name and GPU model come from /v1/nodes.
function nodeOf(j, nodes) {
  const n = nodes.get(j.assigned_node_id) || {};
  return { name: n.name || j.assigned_node_id || "", gpu: (j.gpu && j.gpu.name) || n.gpu_model || "" };
}


function table(jobs, nodes) {
  if (!jobs.length) return h("p.empty", "No jobs match. ", h("a", { href: root + "ui/submit" }, "Submit one"), ".");
  const head = ["Job", "Status", "Vendor", "GPU", "Node", "Age", "Duration"];
  return h("table.jobs",
    h("caption.sr-only", "Jobs, newest first"),
    h("thead", h("tr", head.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", jobs.map((j) => row(j, nodeOf(j, nodes)))));
}

function row(j, node) {
  const gpu = `${j.gpu_count || 1}× ${node.gpu || "—"}`;
  const td = (label, ...c) => h("td", { dataset: { label } }, ...c);
  return h("tr", { dataset: { job: j.job_id } },
    td("Job", h("a", { href: root + "ui/jobs/" + encodeURIComponent(j.job_id) }, j.name || j.job_id),
      h("small.id", j.job_id)),
    td("Status", chip(j.status)),
    td("Vendor", vendorTag(j.gpu_vendor)),
    td("GPU", gpu),
    td("Node", node.name || "—"),
    td("Age", ago(j.created_at)),
    td("Duration", duration(j.started_at ? between(j.started_at, j.completed_at) : j.completed_at ? null : since(j.created_at))));
}

function drawPager(pager, state, load) {
  const page = state.cursors.length;
  const newer = h("button", { type: "button", disabled: page === 1, onclick: () => { state.cursors.pop(); load(); } }, "← Newer");
  const older = h("button", { type: "button", disabled: !state.hasMore || !state.next,
    onclick: () => { state.cursors.push(state.next); load(); } }, "Older →");
  replace(pager, newer, h("span", { "aria-live": "polite" }, `Page ${page}`), older);
}
