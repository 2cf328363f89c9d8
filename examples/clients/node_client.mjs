#!/usr/bin/env node
// A jgrid-local client with only fetch (Node 18+). Submits the ROCm inference
// example, follows its live logs (Server-Sent Events) to the terminal event,
// then downloads the artifact through the signed URL.
//   jgrid-local serve --ephemeral &   then   node examples/clients/node_client.mjs
// JUNGLE_GRID_API (default http://127.0.0.1:8420) points elsewhere.
import { readFile } from "node:fs/promises";

const api = (process.env.JUNGLE_GRID_API ?? "http://127.0.0.1:8420").replace(/\/$/, "");

async function call(method, path, body) {
  const response = await fetch(api + path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${json.error.code}: ${json.error.message}`);
  return json;
}

// Yields {event, data} for each Server-Sent Event until the server closes.
async function* events(path) {
  const response = await fetch(api + path, { headers: { Accept: "text/event-stream" } });
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const message = { event: "message", data: null };
      for (const line of buffer.slice(0, end).split("\n")) {
        if (line.startsWith("event: ")) message.event = line.slice(7);
        if (line.startsWith("data: ")) message.data = JSON.parse(line.slice(6));
      }
      buffer = buffer.slice(end + 2);
      yield message;
    }
  }
}

const spec = JSON.parse(await readFile(new URL("../jobs/rocm-inference.json", import.meta.url), "utf8"));
const job = await call("POST", "/v1/jobs", spec);
console.log(`submitted ${job.job_id} (${job.status})`);

let terminal = null;
for await (const { event, data } of events(`/v1/jobs/${job.job_id}/logs/live`)) {
  if (event === "status") console.log(`  status ${data.status}, phase ${data.phase}`);
  if (event === "stdout" || event === "stderr") process.stdout.write(`  [${event}] ${data.text}`);
  if (event === "terminal") terminal = data;
}
console.log(`job ${job.job_id} ${terminal.status} (exit ${terminal.exit_code})`);
if (terminal.status !== "completed") process.exit(1);

const { artifacts } = await call("GET", `/v1/jobs/${job.job_id}/artifacts`);
const link = await call("POST", `/v1/jobs/${job.job_id}/artifacts/${artifacts[0].artifact_id}/download`, {});
const bytes = await (await fetch(link.url)).arrayBuffer(); // signed URL: no bearer
console.log(`downloaded ${artifacts[0].filename}: ${bytes.byteLength} bytes`);

try {
  await call("GET", "/v1/jobs/job_does_not_exist");
} catch (error) {
  console.log(`errors carry a code: ${error.message}`);
}
