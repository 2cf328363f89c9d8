// Runs the example flow against a live server and validates every JSON
// response against the schema /openapi.json gives for that path, method and
// status. Usage: node validate.mjs BASE_URL
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const base = process.argv[2].replace(/\/$/, "");
const doc = await (await fetch(`${base}/openapi.json`)).json();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, "openapi.json");

const pointer = (...parts) => parts.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
let checked = 0;
const failures = [];

// call(method, template, params, body): fills {name} from params, sends,
// validates the response against the document, returns the parsed body.
async function call(method, template, params = {}, body, extra = {}) {
  let path = template;
  for (const [key, value] of Object.entries(params)) path = path.replace(`{${key}}`, encodeURIComponent(value));
  const url = extra.url ?? base + path + (extra.query ?? "");
  const response = await fetch(url, {
    method,
    headers: { "Content-Type": extra.contentType ?? "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const json = await response.json();
  const operation = doc.paths[template]?.[method.toLowerCase()];
  if (!operation) {
    failures.push(`${method} ${template}: not in the document`);
    return json;
  }
  const documented = operation.responses[String(response.status)];
  if (!documented) {
    failures.push(`${method} ${template}: status ${response.status} not documented`);
    return json;
  }
  const ref = documented.$ref
    ? `openapi.json#/components/schemas/Error`
    : `openapi.json#/${pointer("paths", template, method.toLowerCase(), "responses", response.status, "content", "application/json", "schema")}`;
  const validate = ajv.getSchema(ref);
  checked++;
  if (!validate(json)) failures.push(`${method} ${template} ${response.status}: ${ajv.errorsText(validate.errors)}\n  ${JSON.stringify(json).slice(0, 400)}`);
  return json;
}

const example = {
  name: "contract", workload_type: "inference", image: "ghcr.io/acme/pytorch-rocm:latest", gpu_vendor: "amd",
  runtime: "rocm", framework: "pytorch-rocm", command: ["python", "infer.py"],
  expected_artifacts: ["/workspace/artifacts/result.json"], metadata: { example: "contract" },
};
const terminal = new Set(["completed", "failed", "rejected", "cancelled"]);

await call("GET", "/healthz");
await call("GET", "/readyz");
await call("GET", "/v1/health");
const nodes = await call("GET", "/v1/nodes");
await call("GET", "/v1/nodes/{id}", { id: nodes.nodes[0].node_id });
await call("GET", "/v1/nodes/{id}", { id: "node_missing" });
await call("POST", "/v1/jobs/estimate", {}, example);
await call("POST", "/v1/mcp/jobs/estimate", {}, example);
await call("POST", "/v1/jobs/estimate", {}, { ...example, image: "nvidia/cuda:12.4.0-runtime-ubuntu22.04" });
await call("POST", "/v1/jobs", {}, { ...example, image: "nvidia/cuda:12.4.0-runtime-ubuntu22.04" });
await call("POST", "/v1/jobs", {}, { workload_type: "inference" });
await call("POST", "/v1/jobs", {}, example, { query: "?dry_run=1" });
await call("POST", "/v1/mcp/jobs", {}, example, { query: "?dry_run=1" });

// Inputs: create, upload, complete, list.
const ticket = await call("POST", "/v1/job-inputs", {}, { filename: "prompts.txt", content_type: "text/plain", kind: "input" });
await call("PUT", "/v1/job-inputs/{iid}/content", { iid: ticket.upload.input_id }, "hello\n",
  { url: ticket.upload.upload_url, contentType: "text/plain" });
await call("POST", "/v1/job-inputs/{iid}/complete", { iid: ticket.upload.input_id }, { token: ticket.upload.token, size_bytes: 6 });
await call("GET", "/v1/job-inputs");

const job = await call("POST", "/v1/jobs", {}, { ...example, input_files: [ticket.upload.input_id] });
const mcpJob = await call("POST", "/v1/mcp/jobs", {}, example);
await call("GET", "/v1/jobs/{id}/runtime", { id: job.job_id });
let current = job;
for (let i = 0; i < 600 && !terminal.has(current.status); i++) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  current = await call("GET", "/v1/jobs/{id}", { id: job.job_id });
}
await call("GET", "/v1/mcp/jobs/{id}", { id: job.job_id });
await call("GET", "/v1/mcp/jobs/{id}", { id: mcpJob.data.job_id });
await call("GET", "/v1/jobs/{id}", { id: "job_missing" });
await call("GET", "/v1/jobs");
await call("GET", "/v1/mcp/jobs");
await call("GET", "/v1/jobs/{id}/runtime", { id: job.job_id });
await call("GET", "/v1/jobs/{id}/logs", { id: job.job_id });
await call("GET", "/v1/mcp/jobs/{id}/logs", { id: job.job_id });
await call("GET", "/v1/jobs/{id}/events", { id: job.job_id });
const artifacts = await call("GET", "/v1/jobs/{id}/artifacts", { id: job.job_id });
await call("GET", "/v1/mcp/jobs/{id}/artifacts", { id: job.job_id });
const aid = artifacts.artifacts[0].artifact_id;
await call("POST", "/v1/jobs/{id}/artifacts/{aid}/download", { id: job.job_id, aid }, {});
await call("POST", "/v1/mcp/jobs/{id}/artifacts/{aid}/download", { id: job.job_id, aid }, {});

const long = await call("POST", "/v1/jobs", {}, { ...example, sim: { duration_s: 3600 } });
await call("POST", "/v1/jobs/{id}/cancel", { id: long.job_id }, { reason: "contract test" });
await call("POST", "/v1/jobs/{id}/cancel", { id: long.job_id }, {});
const long2 = await call("POST", "/v1/jobs", {}, { ...example, sim: { duration_s: 3600 } });
await call("POST", "/v1/mcp/jobs/{id}/cancel", { id: long2.job_id }, {});

if (failures.length) {
  console.error(failures.join("\n"));
  console.error(`${failures.length} of ${checked} responses do not match /openapi.json`);
  process.exit(1);
}
console.log(`${checked} live responses validate against /openapi.json`);
