// The Submit view's form: its fields, and the conversion between the form
// and a request body (fields the form does not show are kept aside).
import { h, field } from "../dom.js";

const opts = (list) => list.map(([v, t]) => h("option", { value: v }, t || v));

// [key, label, make control, hint]
const FIELDS = [
  ["name", "Name", () => h("input", { type: "text", maxlength: "200", placeholder: "generated when empty" })],
  ["workload_type", "Workload type", () => h("select", opts([["inference"], ["training"], ["fine-tuning"], ["batch"]]))],
  ["image", "Image", () => h("input", { type: "text", placeholder: "ghcr.io/acme/pytorch-rocm:latest", spellcheck: false }),
    "OCI reference; screening reads its name and labels"],
  ["command", "Command", () => h("input", { type: "text", placeholder: "python infer.py", spellcheck: false }),
    "Split like a shell word list; no shell is run"],
  ["gpu_vendor", "GPU vendor", () => h("select", opts([["", "not set"], ["amd", "AMD"], ["nvidia", "NVIDIA"], ["any", "any"]]))],
  ["runtime", "Runtime", () => h("select", opts([["", "not set"], ["rocm", "ROCm"], ["cuda", "CUDA"], ["auto", "auto"]]))],
  ["framework", "Framework", () => h("input", { type: "text", list: "frameworks", placeholder: "pytorch-rocm" })],
  ["gpu_count", "GPUs", () => h("input", { type: "number", min: "1", step: "1", value: "1" })],
  ["model_size_gb", "Model size (GB)", () => h("input", { type: "number", min: "0", step: "any" })],
  ["priority", "Priority", () => h("select", opts([["", "balanced (default)"], ["low"], ["high"]]))],
  ["timeout_seconds", "Timeout (s)", () => h("input", { type: "number", min: "1", step: "1" })],
  ["expected_artifacts", "Expected artifacts", () => h("textarea", { rows: "2", spellcheck: false,
    placeholder: "/workspace/artifacts/result.json" }), "One path per line, under /workspace/artifacts/"],
  ["environment", "Environment", () => h("textarea", { rows: "2", spellcheck: false, placeholder: "KEY=value" }),
    "One KEY=value per line; values are never shown back"],
];

const NUMBERS = new Set(["gpu_count", "model_size_gb", "timeout_seconds"]);
const LINES = new Set(["expected_artifacts"]);

export function buildForm(onInput) {
  const controls = {};
  const fields = FIELDS.map(([key, label, make, hint]) => {
    const c = make();
    c.name = key;
    c.id = "job-" + key;
    c.addEventListener("input", onInput);
    controls[key] = c;
    return field(label, c, hint);
  });
  const list = h("datalist", { id: "frameworks" },
    opts([["pytorch-rocm"], ["vllm-rocm"], ["llama.cpp-rocm"], ["onnx-rocm"], ["pytorch-cuda"]]));
  return { el: h("div.formgrid", fields, list), controls };
}

// Form → request body, merged over `extra` (fields only the JSON had).
export function formBody(controls, extra) {
  const body = { ...extra };
  for (const [key, c] of Object.entries(controls)) {
    const v = c.value.trim();
    delete body[key];
    if (!v) continue;
    if (NUMBERS.has(key)) body[key] = Number(v);
    else if (LINES.has(key)) body[key] = v.split("\n").map((s) => s.trim()).filter(Boolean);
    else if (key === "environment") body[key] = envObject(v);
    else body[key] = v;
  }
  return body;
}

function envObject(text) {
  const env = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf("=");
    if (line.trim()) env[(i < 0 ? line : line.slice(0, i)).trim()] = i < 0 ? "" : line.slice(i + 1);
  }
  return env;
}

// Request body → form; returns what the form cannot show.
export function fillForm(controls, body) {
  const extra = { ...body };
  for (const [key, c] of Object.entries(controls)) {
    const v = body[key];
    delete extra[key];
    if (v === undefined || v === null) c.value = key === "gpu_count" ? "1" : "";
    else if (Array.isArray(v)) c.value = key === "command" ? v.map(quote).join(" ") : v.join("\n");
    else if (key === "environment" && typeof v === "object") c.value = Object.entries(v).map(([k, x]) => `${k}=${x}`).join("\n");
    else c.value = c.tagName === "SELECT" ? String(v).toLowerCase() : String(v);
  }
  if (body.env && !body.environment) {
    controls.environment.value = Object.entries(body.env).map(([k, x]) => `${k}=${x}`).join("\n");
    delete extra.env;
  }
  return extra;
}

const quote = (w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${String(w).replace(/'/g, "'\\''")}'`);
