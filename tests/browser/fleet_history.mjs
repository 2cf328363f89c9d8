// The Fleet view's utilisation over time in real chromium, against a real
// `serve` on a virtual clock with a two-pool fleet: jobs submitted over HTTP
// queue up and run; the view opens with no console errors, its charts carry
// the numbers of GET /v1/sim/utilisation, and they follow new work while
// the view stays open.
import fs from "node:fs";
import path from "node:path";
import { startServer, newPage, expectNoErrors, check, shot, apiCall } from "./lib.mjs";

const FLEET = `# Two small pools for the dashboard's utilisation test.
seed: 3
clock: { mode: virtual }
pools:
  - name: east
    count: 1
    region: us-east
    gpu: { vendor: amd, model: MI300X, family: instinct, class: datacenter, count: 2, vram_gb: 192, arch: gfx942 }
    runtime: { name: rocm, version: "6.2" }
    price_per_gpu_hour: 2.0
    startup: { provision_s: [0, 1], image_pull_mb_per_s: 400 }
  - name: west
    count: 1
    region: us-west
    gpu: { vendor: amd, model: Radeon PRO W7900, family: radeon, class: workstation, count: 1, vram_gb: 48, arch: gfx1100 }
    runtime: { name: rocm, version: "6.2" }
    price_per_gpu_hour: 0.6
    startup: { provision_s: [0, 1], image_pull_mb_per_s: 400 }
`;

const max = (values) => Math.max(0, ...values);
const last = (values) => values[values.length - 1];

async function nodeOperation(base, op) {
  for (const node of (await apiCall(base, "GET", "/v1/nodes")).nodes)
    await apiCall(base, "POST", `/v1/sim/nodes/${node.id}/${op}`, {});
}

// Submits `count` jobs and waits until every one has ended (each request
// settles the virtual clock, so the fleet is at rest afterwards). On a
// virtual clock a job runs to its end before the next request comes, so
// with `queue` the nodes are drained while the jobs are submitted.
async function runJobs(base, example, count, seconds, queue = false) {
  const ids = [];
  if (queue) await nodeOperation(base, "drain");
  for (let i = 0; i < count; i++)
    ids.push((await apiCall(base, "POST", "/v1/jobs", { ...example, name: `util-${i}`, sim: { duration_s: seconds } })).job_id);
  if (queue) await nodeOperation(base, "undrain");
  const deadline = Date.now() + 60000;
  for (const id of ids) {
    for (;;) {
      const job = await apiCall(base, "GET", `/v1/jobs/${id}`);
      if (["completed", "failed", "cancelled", "rejected"].includes(job.status)) {
        check(job.status === "completed", `job ${id} ended ${job.status}`);
        break;
      }
      check(Date.now() < deadline, `job ${id} still ${job.status} after 60 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// The chart's numbers against the API's, read at the same (resting) clock time.
async function sameAsApi(page, base, where) {
  const u = await apiCall(base, "GET", "/v1/sim/utilisation");
  await page.waitForFunction((now) => document.querySelector("section.util")?.dataset.nowMs === String(now), u.now_ms,
    { timeout: 20000 });
  const shown = await page.$eval("section.util", (el) => ({ ...el.dataset }));
  check(Number(shown.samples) === u.t_ms.length, `${where}: ${shown.samples} samples shown, the API has ${u.t_ms.length}`);
  check(Number(shown.intervalSeconds) === u.interval_seconds, `${where}: interval ${shown.intervalSeconds} s`);
  const queued = await page.$$eval("path.series-queued", (els) => els.map((e) => ({ ...e.dataset })));
  check(queued.length === 1, `${where}: one queue line`);
  check(Number(queued[0].samples) === u.queued.length && Number(queued[0].max) === max(u.queued) &&
    Number(queued[0].last) === last(u.queued), `${where}: queue line ${JSON.stringify(queued[0])}, API max ${max(u.queued)} last ${last(u.queued)}`);
  const lines = await page.$$eval("path.series-running", (els) => els.map((e) => ({ ...e.dataset })));
  check(lines.map((l) => l.pool).join() === u.pools.join(), `${where}: lines for ${lines.map((l) => l.pool)}, pools ${u.pools}`);
  for (const l of lines) {
    const running = u.running_gpus[l.pool];
    check(Number(l.samples) === running.length && Number(l.max) === max(running) && Number(l.last) === last(running),
      `${where} ${l.pool}: line ${JSON.stringify(l)}, API max ${max(running)} last ${last(running)}`);
    check(Number(l.gpus) === last(u.total_gpus[l.pool]), `${where} ${l.pool}: ${l.gpus} GPUs shown, API ${last(u.total_gpus[l.pool])}`);
    const legend = await page.textContent(`.chart-legend span[data-pool="${l.pool}"]`);
    check(legend.includes(`${last(running)} of ${last(u.total_gpus[l.pool])} GPUs in use`), `${where}: legend "${legend}"`);
  }
  return u;
}

export async function fleetHistoryCase({ bin, out, browser, example }) {
  const fleet = path.join(out, "util-fleet.yaml");
  fs.writeFileSync(fleet, FLEET);
  const server = await startServer(bin, ["--port", "0", "--fleet", fleet, "--clock", "virtual"]);
  try {
    const base = server.url;
    await runJobs(base, example, 7, 120, true);  // 7 one-GPU jobs of 2 min on 3 GPUs: a queue that drains
    const page = await newPage(browser);
    await page.goto(`${base}/ui/fleet`);
    await page.locator("h1", { hasText: "Fleet" }).waitFor();
    await page.locator("path.series-queued").waitFor();
    const first = await sameAsApi(page, base, "after the first jobs");
    check(max(first.queued) === 7, `the queue peaked at ${max(first.queued)} jobs, expected 7`);
    // east comes back first and takes two of the queue at once (west may find the queue empty by its turn).
    check(max(first.running_gpus.east) === 2, `east had ${max(first.running_gpus.east)} GPUs in use at most, expected 2`);
    check(last(first.total_gpus.east) === 2 && last(first.total_gpus.west) === 1, "pool sizes");
    check(last(first.queued) === 0 && last(first.running_gpus.east) === 0, "the fleet is idle at the end");
    await shot(page, out, "fleet-utilisation", { fullPage: true });

    // New work while the view is open: the charts follow without a reload.
    await runJobs(base, example, 3, 600);
    const second = await sameAsApi(page, base, "after more jobs");
    check(second.now_ms >= first.now_ms + 600000, "the clock moved on by the runs");
    check(second.t_ms.length > first.t_ms.length, "the history grew");
    expectNoErrors(page, "fleet utilisation");
    await page.context().close();
  } finally {
    server.stop();
  }
}
