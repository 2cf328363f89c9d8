// The Job view's panels: runtime (exit code and tails), artifacts with
// signed download links, screening checks, and placement.
import { api } from "../api.js";
import { h, replace, errorBox } from "../dom.js";
import { checksTable, checksSummary } from "./checks.js";

export async function drawRuntime(el, jobId) {
  try {
    const rt = await api.runtime(jobId);
    const avail = rt.runtime_availability || {};
    replace(el,
      h("dl.facts",
        h("dt", "Exit code"), h("dd.exit", rt.exit_code === null || rt.exit_code === undefined ? "—" : String(rt.exit_code)),
        h("dt", "Timed out"), h("dd", rt.timed_out ? "yes" : "no")),
      tail("stdout (last 8 KiB)", rt.stdout_tail, avail.stdout_tail, "stdout"),
      tail("stderr (last 8 KiB)", rt.stderr_tail, avail.stderr_tail, "stderr"),
      (rt.diagnostics || []).length ? h("ul", rt.diagnostics.map((d) => h("li", typeof d === "string" ? d : JSON.stringify(d)))) : null);
  } catch (err) {
    replace(el, h("p.muted", err.status === 404 ? "Not available until the workload starts." : err.message));
  }
}

function tail(label, text, avail, stream) {
  const state = avail && avail.state ? ` · ${avail.state}${avail.reason ? ": " + avail.reason : ""}` : "";
  return h("details.tail", { open: !!text },
    h("summary", label, h("small.muted", state)),
    h("pre", { dataset: { s: stream }, tabindex: "0" }, text || "(empty)"));
}

const KIB = 1024;
function size(n) {
  if (n === null || n === undefined) return "—";
  if (n < KIB) return `${n} B`;
  if (n < KIB * KIB) return `${(n / KIB).toFixed(1)} KiB`;
  return `${(n / KIB / KIB).toFixed(1)} MiB`;
}

export async function drawArtifacts(el, jobId) {
  try {
    const res = await api.artifacts(jobId);
    const list = res.artifacts || [];
    const links = await Promise.all(list.slice(0, 50).map((a) =>
      api.download(jobId, a.artifact_id).then((d) => d.download_url || d.url, () => null)));
    const missing = (res.expected || []).filter((e) => !e.present);
    replace(el,
      list.length ? h("ul.artifacts", list.map((a, i) => h("li",
        links[i] ? h("a", { href: links[i], download: a.filename.split("/").pop() }, a.filename) : h("span", a.filename),
        h("small.muted", ` ${size(a.size_bytes)} · ${a.content_type || a.mime_type || ""} · sha256 ${String(a.sha256 || "").slice(0, 12)}…`))))
        : h("p.muted", "No artifacts (yet). Files written under /workspace/artifacts are collected when the job ends."),
      missing.length ? h("p.warnline", "Expected but missing: ", missing.map((m) => h("code", m.path)).flatMap((c, i) => i ? [", ", c] : [c])) : null);
  } catch (err) {
    replace(el, errorBox(err));
  }
}

// `screened` is the data of the latest job.screened event, if any: the
// intent it decided and what it read about the image.
export function drawScreening(el, job, screened) {
  const s = job.screening || {};
  const intent = screened && screened.intent;
  const decided = intent ? h("dl.facts.intent",
    h("dt", "Routed to"), h("dd", intent.gpu_vendor === "any" ? "any vendor" : intent.gpu_vendor,
      intent.unknown_stack ? h("small.muted", " (no ROCm evidence)") : null),
    h("dt", "Image read"), h("dd.image-source", intent.image_source || "—")) : null;
  replace(el, h("p.muted", checksSummary(s.checks)), decided, checksTable(s.checks),
    (s.warnings || []).length ? h("ul.warnings", s.warnings.map((w) => h("li", typeof w === "string" ? w : w.message || JSON.stringify(w)))) : null);
}

// `route` is the data of the latest job.route_selected event, if any.
export function drawPlacement(el, job, route) {
  const s = job.scheduling;
  if (!s) return replace(el, h("p.muted", job.delay_reason ? job.delay_reason.message : "Not placed yet."));
  const gpu = s.gpu || {};
  const rows = [
    ["Node", s.node_name ? `${s.node_name} (${s.node_id})` : s.node_id],
    ["GPU", `${gpu.count || 1}× ${gpu.vendor || ""} ${gpu.name || ""}`.trim()],
    ["Runtime", gpu.runtime_version],
    ["Region", s.region], ["Provider", s.provider], ["Attempt", s.attempt],
  ];
  if (route) {
    rows.push(["Why this node", route.reason], ["Score", route.score !== undefined ? Number(route.score).toFixed(3) : null],
      ["Candidates considered", route.candidates], ["Runners-up", route.runner_up_count]);
  }
  replace(el, h("dl.facts", rows.filter(([, v]) => v !== undefined && v !== null && v !== "")
    .flatMap(([k, v]) => [h("dt", k), h("dd", String(v))])), route ? filteredList(route.reasons_summary) : null);
}

// Why other nodes were filtered out: an object {reason: count} or a list.
function filteredList(summary) {
  if (!summary || (typeof summary === "object" && !Object.keys(summary).length)) return null;
  const items = Array.isArray(summary) ? summary.map((x) => (typeof x === "string" ? x : JSON.stringify(x)))
    : typeof summary === "object" ? Object.entries(summary).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)
    : [String(summary)];
  return h("div", h("h3", "Nodes filtered out"), h("ul.filtered", items.map((t) => h("li", t))));
}
