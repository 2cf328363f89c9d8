// Job: status/phase header, phase timeline from events, live logs, runtime,
// artifacts, screening, placement, and cancel with confirmation.
import { api, root } from "../api.js";
import { onFeed } from "../feed.js";
import { h, replace, chip, vendorTag, time, duration, between, TERMINAL, throttle, errorBox, section } from "../dom.js";
import { timeline } from "./timeline.js";
import { logView } from "./logs.js";
import { drawRuntime, drawArtifacts, drawScreening, drawPlacement } from "./panels.js";

export function mountJob(main, [jobId]) {
  const header = h("div.jobhead", h("p.muted", "Loading job…"));
  const tl = timeline();
  const runtime = h("div", h("p.muted", "…"));
  const artifacts = h("div", h("p.muted", "…"));
  const screening = h("div");
  const placement = h("div");
  let job = null;
  let route = null;
  let screened = null;
  let alive = true;

  const refresh = throttle(async () => {
    try {
      job = await api.job(jobId);
    } catch (err) {
      if (alive && !job) replace(main, h("p", h("a", { href: root + "ui/jobs" }, "← Jobs")), errorBox(err));
      return;
    }
    if (!alive) return;
    document.title = `${job.name || job.job_id} · jgrid-local`;
    drawHeader(header, job, () => confirmCancel(job, refresh), (seq) => logs.showLine(seq));
    tl.setStatus(job.status, job.phase);
    drawScreening(screening, job, screened);
    drawPlacement(placement, job, route);
    panels();
  }, 400);
  // Runtime exists once the workload started (asking earlier is a 404);
  // artifacts are collected when it ends.
  const panels = throttle(() => {
    if (job && job.started_at) drawRuntime(runtime, jobId);
    else replace(runtime, h("p.muted", job && TERMINAL.has(job.status) ? "The workload never started."
      : "Available once the workload starts."));
    drawArtifacts(artifacts, jobId);
  }, 1000);

  const logs = logView(jobId, {
    onStatus: (s) => {
      tl.setStatus(s.status, s.phase);
      refresh();
    },
    onTerminal: () => refresh(),
  });
  const addEvents = (items) => {
    tl.add(items);
    const routed = items.filter((e) => e.type === "job.route_selected").pop();
    if (routed) {
      route = routed.data;
      if (job) drawPlacement(placement, job, route);
    }
    const screenedEvent = items.filter((e) => e.type === "job.screened").pop();
    if (screenedEvent) {
      screened = screenedEvent.data;
      if (job) drawScreening(screening, job, screened);
    }
  };
  const stop = onFeed((e) => {
    if (e.job_id !== jobId) return;
    addEvents([e]);
    refresh();
  });
  api.events(jobId).then((res) => alive && addEvents(res.items || []), () => {});

  replace(main,
    h("p.crumbs", h("a", { href: root + "ui/jobs" }, "← Jobs")),
    header,
    h("div.jobgrid",
      section("Timeline", tl.el),
      section("Logs", logs.el)),
    h("div.cards",
      section("Runtime", runtime),
      section("Artifacts", artifacts),
      section("Placement", placement)),
    section("Screening", screening));
  refresh();
  return () => {
    alive = false;
    stop();
    logs.close();
  };
}

// The grid's reading of a failure: why, what to change, and a link to the log line it rests on.
function diagnosisBox(d, showLine) {
  const e = d.evidence;
  const status = h("span.muted", { "aria-live": "polite" });
  const link = e ? h("a.evidence", { href: `#log-line-${e.line}`, onclick: (ev) => {
    ev.preventDefault();
    status.textContent = showLine(e.line) ? "" : " (that line is no longer in the view)";
  } }, `${e.stream} line ${e.line}`) : null;
  return h("div.alert.diagnosis", { role: "alert", dataset: { code: d.code } },
    h("p", h("strong", d.code), " ", d.message),
    h("p", h("strong", "Fix: "), d.fix),
    e ? h("p.evidence", "From ", link, ": ", h("code", e.text), status) : null);
}

function drawHeader(el, job, onCancel, showLine) {
  const ran = between(job.started_at, job.completed_at);
  const terminal = TERMINAL.has(job.status);
  replace(el,
    h("div.head",
      h("h1", job.name || job.job_id, " ", chip(job.status)),
      terminal ? null : h("button.danger", { type: "button", onclick: onCancel }, "Cancel job…")),
    h("p.sub", h("code", job.job_id), " · phase ", h("strong.phase", job.phase || "—"), " · ", vendorTag(job.gpu_vendor),
      job.runtime ? ` · ${job.runtime}` : "", job.framework ? ` · ${job.framework}` : "", ` · ${job.workload_type}`),
    job.status_message ? h("p.statusmsg", job.status_message) : null,
    job.failure ? h("div.alert", { role: "alert" }, h("strong", job.failure.code), " ", job.failure.summary) : null,
    job.diagnosis ? diagnosisBox(job.diagnosis, showLine) : null,
    job.delay_reason ? h("div.note", h("strong", job.delay_reason.code), " ", job.delay_reason.message) : null,
    h("dl.pairs",
      h("div", h("dt", "Image"), h("dd", h("code", job.image || "—"))),
      h("div", h("dt", "Created"), h("dd", time(job.created_at))),
      h("div", h("dt", "Started"), h("dd", time(job.started_at))),
      h("div", h("dt", job.completed_at ? "Ran for" : "Running for"), h("dd", duration(ran))),
      h("div", h("dt", "Exit code"), h("dd.exit", job.exit_code === null || job.exit_code === undefined ? "—" : String(job.exit_code)))));
}

// A modal <dialog>: focus starts on "Keep running"; Escape closes it.
function confirmCancel(job, after) {
  const reason = h("input", { type: "text", id: "cancel-reason", placeholder: "optional" });
  const msg = h("p.error", { role: "alert" });
  const dlg = h("dialog.confirm", { "aria-labelledby": "cancel-title" },
    h("form", { method: "dialog" },
      h("h2", { id: "cancel-title" }, `Cancel ${job.name || job.job_id}?`),
      h("p", "The job stops wherever it is and ends as cancelled. This cannot be undone."),
      h("div.field", h("label", { for: "cancel-reason" }, "Reason"), reason), msg,
      h("div.actions",
        h("button", { value: "keep", autofocus: true }, "Keep running"),
        h("button.danger", { value: "cancel", type: "button", onclick: async () => {
          try {
            await api.cancel(job.job_id, reason.value || "cancelled from the dashboard");
            dlg.close();
            after();
          } catch (err) {
            msg.textContent = err.message;
          }
        } }, "Cancel job"))));
  dlg.addEventListener("close", () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
}
