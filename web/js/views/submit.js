// Submit: a form (or pasted JSON) for a job, a live screening preview from
// POST /v1/jobs/estimate while typing, and the submit itself.
import { api } from "../api.js";
import { go } from "../nav.js";
import { h, replace, debounce, field, errorBox } from "../dom.js";
import { buildForm, formBody, fillForm } from "./submit_form.js";
import { checksList } from "./checks.js";

const START = { workload_type: "inference", gpu_vendor: "amd", runtime: "rocm", gpu_count: 1 };

export function mountSubmit(main) {
  let mode = "form";
  let extra = {};
  let seq = 0;
  const preview = h("div.preview", { id: "preview", "aria-live": "polite" }, h("p.muted", "Fill in the job to see screening and routing."));
  const result = h("div.result", { "aria-live": "assertive" });
  const schedule = debounce(() => runPreview(), 300);
  const form = buildForm(schedule);
  const json = h("textarea.json", { id: "job-json", name: "json", rows: "18", spellcheck: false,
    oninput: schedule, "aria-describedby": "json-hint" });
  const jsonField = h("div.jsonfield", { hidden: true },
    field("Request JSON", json), h("small.hint", { id: "json-hint" }, "The same body as POST /v1/jobs."));
  fillForm(form.controls, START);

  const body = () => {
    if (mode === "form") return formBody(form.controls, extra);
    return JSON.parse(json.value || "{}");
  };
  const setMode = (next) => {
    try {
      if (next === "json" && mode === "form") json.value = JSON.stringify(body(), null, 2);
      if (next === "form" && mode === "json") extra = fillForm(form.controls, body());
    } catch (err) {
      modeMsg.textContent = `Fix the JSON first: ${err.message}`;
      return (radios[mode].checked = true);
    }
    modeMsg.textContent = "";
    mode = next;
    form.el.hidden = mode !== "form";
    jsonField.hidden = mode !== "json";
    schedule();
  };
  const modeMsg = h("span.error", { role: "alert" });
  const radios = {
    form: h("input", { type: "radio", name: "mode", value: "form", checked: true, onchange: () => setMode("form") }),
    json: h("input", { type: "radio", name: "mode", value: "json", onchange: () => setMode("json") }),
  };

  async function runPreview() {
    const mine = ++seq;
    let request;
    try {
      request = body();
    } catch (err) {
      return replace(preview, h("p.error", `Not valid JSON: ${err.message}`));
    }
    try {
      const est = await api.estimate(request);
      if (mine === seq) drawPreview(preview, est);
    } catch (err) {
      if (mine === seq) replace(preview, errorBox(err));
    }
  }

  async function submit(e) {
    e.preventDefault();
    replace(result);
    let request;
    try {
      request = body();
    } catch (err) {
      return replace(result, h("p.error", { role: "alert" }, `Not valid JSON: ${err.message}`));
    }
    submitBtn.disabled = true;
    try {
      const job = await api.submit(request);
      go("ui/jobs/" + encodeURIComponent(job.job_id));
    } catch (err) {
      submitBtn.disabled = false;
      replace(result, errorBox(err), err.details && err.details.checks ? checksList(err.details.checks) : null);
    }
  }

  const submitBtn = h("button.primary", { type: "submit" }, "Submit job");
  replace(main,
    h("div.head", h("h1", "Submit a job")),
    h("div.submitgrid",
      h("form.submit", { onsubmit: submit, "aria-label": "Job request" },
        h("fieldset.mode", h("legend", "Enter the request as"),
          h("label", radios.form, " Form"), h("label", radios.json, " JSON"), modeMsg),
        form.el, jsonField,
        h("div.actions", submitBtn), result),
      h("aside.panel", { "aria-labelledby": "preview-title" },
        h("h2", { id: "preview-title" }, "Screening preview"), preview)));
  schedule();
  return () => {
    seq = Infinity;
  };
}

function drawPreview(el, est) {
  const s = est.screening || {};
  const blocked = (s.checks || []).filter((c) => c.status === "block");
  const r = est.routing || {};
  const c = est.classification || {};
  const verdict = !est.can_submit
    ? h("p.verdict-line", { dataset: { s: "block" } }, blocked.length ? `Blocked by ${blocked.length} check${blocked.length > 1 ? "s" : ""}: fix before submitting` : "Cannot submit")
    : est.available === false ? h("p.verdict-line", { dataset: { s: "warn" } }, "Passes screening, but no capacity")
    : h("p.verdict-line", { dataset: { s: "pass" } }, "Ready to submit");
  replace(el, verdict,
    est.unavailable_reason && est.unavailable_code !== "SCREENING_REJECTED"
      ? h("p", h("strong", est.unavailable_code || "Unavailable"), " ", est.unavailable_reason) : null,
    checksList(s.checks),
    h("dl.facts",
      h("dt", "Detected"), h("dd", [c.gpu_vendor, c.runtime, c.framework].filter(Boolean).join(" · ") || "—",
        c.confidence ? h("small.muted", ` (${c.confidence} confidence)`) : null),
      h("dt", "Evidence"), h("dd.evidence", (c.reasons || []).join("; ") || "—"),
      h("dt", "Image read"), h("dd.image-source", c.image_source || "—"),
      h("dt", "Route"), h("dd", r.route_status || "—", r.selected_accelerator ? ` · ${r.selected_accelerator}` : ""),
      h("dt", "Node"), h("dd", r.selected_node_id || "—"),
      h("dt", "Why"), h("dd", r.selection_reason || est.explanation || "—"),
      h("dt", "Candidates"), h("dd", String(est.candidate_count ?? "—")),
      h("dt", "Cost"), h("dd", money(est.estimated_cost_min_usd), " – ", money(est.estimated_cost_max_usd)),
      h("dt", "Runtime"), h("dd", `${est.estimated_runtime_min_minutes ?? "?"}–${est.estimated_runtime_max_minutes ?? "?"} min`)),
    (est.warnings || []).length ? h("ul.warnings", est.warnings.map((w) => h("li", typeof w === "string" ? w : JSON.stringify(w)))) : null);
}

const money = (n) => (typeof n === "number" ? `$${n.toFixed(2)}` : "—");
