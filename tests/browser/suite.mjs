// The dashboard suite: every view in a real chromium against a real server.
// Usage: node suite.mjs <jgrid-local> <output dir> <chromium>.
// Screenshots go to <output dir>; with JGRID_DOCS_SCREENSHOTS=<dir> the ones
// the README shows are copied there too (a path relative to the repository).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, freePort, launch, newPage, expectNoErrors, check, shot, apiCall, runCases } from "./lib.mjs";
import { logFloodCase } from "./flood.mjs";
import { simReportCase } from "./sim_report.mjs";
import { fleetHistoryCase } from "./fleet_history.mjs";

const [bin, out, chromiumPath] = process.argv.slice(2);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const example = JSON.parse(fs.readFileSync(path.join(repo, "examples/jobs/rocm-inference.json"), "utf8"));
const started = Date.now();

const timeScale = 5;
const server = await startServer(bin, ["--port", "0", "--time-scale", String(timeScale)]);
let browser;
try {
  browser = await launch(chromiumPath);
} catch (e) {
  // As tests/support/skip.sh: a skip on a workstation, a failure on CI,
  // where the browser is installed on purpose and must start.
  const why = `${chromiumPath} does not start here: ${e.message.split("\n")[0]}`;
  server.stop();
  if (process.env.CI === "true") {
    console.error(`FAIL (CI=true, a skip is a failure here): ${why}`);
    process.exit(1);
  }
  console.error(`SKIPPED (a failure under CI=true): ${why}`);
  process.exit(125);
}
const base = server.url;
const ctx = { base, out, browser, timeScale };

const VIEWS = [
  ["jobs", "", "Jobs"], ["jobs-list", "ui/jobs", "Jobs"], ["fleet", "ui/fleet", "Fleet"],
  ["submit", "ui/submit", "Submit a job"], ["events", "ui/events", "Events"],
];

async function loadsEveryView() {
  const page = await newPage(browser);
  for (const [name, p, title] of VIEWS) {
    await page.goto(`${base}/${p}`);
    await page.locator("h1", { hasText: title }).waitFor();
    await page.locator("#feed-state[data-state=live]").waitFor();
    expectNoErrors(page, p || "/");
  }
  await page.goto(`${base}/ui/no/such/view`);
  await page.locator("h1", { hasText: "Not found" }).waitFor();
  await page.context().close();
}

async function submitsRocmExampleFromForm() {
  const page = await newPage(browser);
  await page.goto(`${base}/ui/submit`);
  await page.fill("#job-name", example.name);
  await page.selectOption("#job-workload_type", example.workload_type);
  await page.fill("#job-image", example.image);
  await page.fill("#job-command", example.command.join(" "));
  await page.selectOption("#job-gpu_vendor", example.gpu_vendor);
  await page.selectOption("#job-runtime", example.runtime);
  await page.fill("#job-framework", example.framework);
  await page.fill("#job-gpu_count", String(example.gpu_count));
  await page.fill("#job-expected_artifacts", example.expected_artifacts.join("\n"));
  await page.locator('#preview .verdict-line[data-s="pass"]').waitFor();
  // Which evidence decided the route, and what was read about the image.
  const evidence = await page.locator("#preview dd.evidence").innerText();
  check(/gpu_vendor amd: AMD\/ROCm/.test(evidence), `the preview's evidence does not name the declaration: '${evidence}'`);
  const read = await page.locator("#preview dd.image-source").innerText();
  check(read.trim() !== "" && read.trim() !== "—", `the preview does not say what it read about the image: '${read}'`);
  await page.click("button:has-text('Submit job')");
  await page.waitForURL(/\/ui\/jobs\/job_[^/]+$/);
  ctx.rocmJob = decodeURIComponent(page.url().split("/").pop());
  await page.locator(".logbox .line").first().waitFor({ timeout: 60000 });
  await page.locator('.jobhead .chip[data-s="completed"]').waitFor({ timeout: 90000 });
  await page.locator(".jobhead .exit", { hasText: "0" }).waitFor();
  await page.locator('ol.timeline li[data-state="done"]', { hasText: "Workload" }).waitFor();
  await page.locator("ul.artifacts a", { hasText: "result.json" }).waitFor();
  await page.locator("dl.intent dd", { hasText: "amd" }).waitFor();
  await page.locator("dl.intent dd.image-source").waitFor();
  const job = await apiCall(base, "GET", `/v1/jobs/${ctx.rocmJob}`);
  check(job.status === "completed" && job.name === example.name, `job is ${job.status} named ${job.name}`);
  expectNoErrors(page, "submit + job");
  await page.context().close();
}

async function downloadsArtifactBytes() {
  const page = await newPage(browser);
  await page.goto(`${base}/ui/jobs/${ctx.rocmJob}`);
  const link = page.locator("ul.artifacts a", { hasText: "result.json" });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const got = fs.readFileSync(await download.path());
  const listed = (await apiCall(base, "GET", `/v1/jobs/${ctx.rocmJob}/artifacts`)).artifacts[0];
  const signed = await apiCall(base, "POST", `/v1/jobs/${ctx.rocmJob}/artifacts/${listed.artifact_id}/download`);
  const expected = Buffer.from(await (await fetch(signed.url)).arrayBuffer());
  check(got.equals(expected) && got.length === listed.size_bytes, `downloaded ${got.length} bytes differ from the artifact`);
  expectNoErrors(page, "artifact download");
  await page.context().close();
}

async function showsCudaBlockAndFix() {
  const page = await newPage(browser);
  await page.goto(`${base}/ui/submit`);
  await page.check("input[name=mode][value=json]");
  const before = (await apiCall(base, "GET", "/v1/jobs?limit=100")).jobs.length;
  await page.fill("#job-json", JSON.stringify({ workload_type: "inference", image: "nvidia/cuda:12.4.1-runtime-ubuntu22.04",
    gpu_vendor: "amd", command: ["python", "serve.py"] }, null, 2));
  const row = page.locator('#preview [data-rule="image.cuda_name"][data-status="block"]');
  await row.waitFor();
  const fix = (await row.locator(".fix").innerText()).replace(/^Fix:\s*/, "").trim();
  check(/rocm/i.test(fix), `the block's fix does not point to a ROCm image: '${fix}'`);
  await page.locator('#preview .verdict-line[data-s="block"]').waitFor();
  await shot(page, out, "submit-blocked");
  await page.click("button:has-text('Submit job')");
  await page.locator(".result", { hasText: "SCREENING_REJECTED" }).waitFor();
  const after = (await apiCall(base, "GET", "/v1/jobs?limit=100")).jobs.length;
  check(after === before, "a blocked submit created a job");
  expectNoErrors(page, "submit (blocked)", ["http 422: POST /v1/jobs"]);
  await page.context().close();
}

async function cancelsRunningJob() {
  const job = await apiCall(base, "POST", "/v1/jobs", { ...example, name: "long-running",
    sim: { duration_s: 3600, stdout_every_s: 1, stdout: ["working {i}/{n}"], stderr: ["warning: slow batch {i}/{n}"] } });
  const page = await newPage(browser);
  await page.goto(`${base}/ui/jobs/${job.job_id}`);
  await page.locator('.jobhead .chip[data-s="running"]').waitFor({ timeout: 60000 });
  await page.locator('.logbox .line[data-s="stderr"]').first().waitFor();
  const colours = await page.evaluate(() => ["stdout", "stderr"].map((s) =>
    getComputedStyle(document.querySelector(`.logbox .line[data-s=${s}]`)).color));
  check(colours[0] !== colours[1], `stdout and stderr share the colour ${colours[0]}`);
  await shot(page, out, "job-running");
  await page.click("button:has-text('Cancel job…')");
  await page.locator("dialog[open]").waitFor();
  await page.fill("#cancel-reason", "browser test");
  await page.click("dialog button.danger");
  await page.locator('.jobhead .chip[data-s="cancelled"]').waitFor();
  const after = await apiCall(base, "GET", `/v1/jobs/${job.job_id}`);
  check(after.status === "cancelled", `job is ${after.status}`);
  expectNoErrors(page, "cancel");
  await page.context().close();
}

async function showsDiagnosisAndItsLine() {
  const job = await apiCall(base, "POST", "/v1/jobs", { ...example, name: "broken-isa",
    sim: { duration_s: 20, stdout: ["loading model {i}/{n}"], failure: "gpu_isa_unsupported" } });
  const page = await newPage(browser);
  await page.goto(`${base}/ui/jobs/${job.job_id}`);
  const box = page.locator('.diagnosis[data-code="GPU_ISA_UNSUPPORTED"]');
  await box.waitFor({ timeout: 60000 });
  const stored = await apiCall(base, "GET", `/v1/jobs/${job.job_id}`);
  const e = stored.diagnosis.evidence;
  check((await box.innerText()).includes(stored.diagnosis.fix), "the box does not show the fix");
  await box.locator("a.evidence").click();
  const marked = page.locator(".logbox .line.marked");
  await marked.waitFor();
  check(await marked.getAttribute("data-seq") === String(e.line), `marked line ${await marked.getAttribute("data-seq")}, evidence ${e.line}`);
  check((await marked.innerText()) === e.text, `marked line text ${await marked.innerText()}`);
  const inView = await marked.evaluate((el) => {
    const b = el.closest(".logbox").getBoundingClientRect(), r = el.getBoundingClientRect();
    return r.top >= b.top && r.bottom <= b.bottom;
  });
  check(inView, "the evidence line is not scrolled into view");
  await shot(page, out, "job-diagnosis");
  expectNoErrors(page, "diagnosis");
  await page.context().close();
}

// Screenshots of every view with data in it, light, dark and narrow.
async function screenshotTour() {
  const page = await newPage(browser);
  await page.goto(`${base}/ui/events`);
  await page.locator("#feed-state[data-state=live]").waitFor();
  await apiCall(base, "POST", "/v1/jobs", { ...example, name: "events-demo", sim: { duration_s: 2 } });
  await page.locator("ol.events li", { hasText: "job.running" }).first().waitFor({ timeout: 60000 });
  await shot(page, out, "events");
  await page.focus("[data-nav=fleet]");
  await page.keyboard.press("Enter");
  await page.locator("h1", { hasText: "Fleet" }).waitFor();
  await page.locator("section.pool").first().waitFor();
  await shot(page, out, "fleet", { fullPage: true });
  await page.goto(`${base}/ui/jobs`);
  await page.locator("table.jobs tbody tr").first().waitFor();
  // A job submitted elsewhere appears without a reload (event feed).
  const live = await apiCall(base, "POST", "/v1/jobs", { ...example, name: "batch-scoring", workload_type: "batch",
    sim: { duration_s: 600 } });
  await page.locator(`table.jobs tr[data-job="${live.job_id}"] .chip[data-s="running"]`).waitFor({ timeout: 60000 });
  await shot(page, out, "jobs");
  await apiCall(base, "POST", `/v1/jobs/${live.job_id}/cancel`, {});
  await page.goto(`${base}/ui/jobs/${ctx.rocmJob}`);
  await page.locator('.jobhead .chip[data-s="completed"]').waitFor();
  await page.locator("ul.artifacts a").waitFor();
  await shot(page, out, "job", { fullPage: true });
  await page.goto(`${base}/ui/submit`);
  await page.locator('#preview .verdict-line[data-s="pass"]').waitFor();
  await shot(page, out, "submit");
  expectNoErrors(page, "tour");
  await page.context().close();

  const dark = await newPage(browser, { colorScheme: "dark" });
  await dark.goto(`${base}/ui/jobs/${ctx.rocmJob}`);
  await dark.locator("ul.artifacts a").waitFor();
  await shot(dark, out, "job-dark");
  await dark.context().close();

  const narrow = await newPage(browser, { viewport: { width: 390, height: 800 } });
  for (const [name, p] of [["jobs-narrow", "ui/jobs"], ["job-narrow", `ui/jobs/${ctx.rocmJob}`]]) {
    await narrow.goto(`${base}/${p}`);
    await narrow.locator("h1").first().waitFor();
    await narrow.waitForTimeout(300);
    const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 1, `${p} overflows a 390 px window by ${overflow} px`);
    await shot(narrow, out, name);
  }
  expectNoErrors(narrow, "narrow");
  await narrow.context().close();
}

async function worksUnderBasePathAndPublicUrl() {
  const port = await freePort();
  const publicUrl = `http://localhost:${port}/grid`;
  const grid = await startServer(bin, ["--port", String(port), "--base-path", "/grid", "--public-url", publicUrl,
                                        "--time-scale", "5"]);
  try {
    const origin = `http://127.0.0.1:${port}`;
    const page = await newPage(browser);
    await page.goto(`${origin}/grid/`);
    await page.locator("h1", { hasText: "Jobs" }).waitFor();
    const fleetHref = await page.getAttribute("[data-nav=fleet]", "href");
    check(fleetHref === "/grid/ui/fleet", `nav link is ${fleetHref}`);
    await page.click("[data-nav=fleet]");
    await page.locator("section.pool").first().waitFor();
    check(page.url() === `${origin}/grid/ui/fleet`, `fleet at ${page.url()}`);
    await page.goto(`${origin}/grid/ui/submit`);
    await page.locator('#preview .verdict-line[data-s="pass"]').waitFor();
    const job = await apiCall(`${origin}/grid`, "POST", "/v1/jobs", { ...example, sim: { duration_s: 2 } });
    await page.goto(`${origin}/grid/ui/jobs/${job.job_id}`);
    await page.locator('.jobhead .chip[data-s="completed"]').waitFor({ timeout: 60000 });
    await page.locator(".logbox .line").first().waitFor();
    const href = await page.getAttribute("ul.artifacts a", "href");
    check(href.startsWith(publicUrl + "/"), `artifact link ${href} is not under ${publicUrl}`);
    const bytes = Buffer.from(await (await fetch(href)).arrayBuffer());
    const listed = (await apiCall(`${origin}/grid`, "GET", `/v1/jobs/${job.job_id}/artifacts`)).artifacts[0];
    check(bytes.length === listed.size_bytes, `artifact via public URL: ${bytes.length} bytes, listed ${listed.size_bytes}`);
    await page.goto(`${origin}/grid/ui/jobs`);
    await page.locator(`table.jobs tr[data-job="${job.job_id}"]`).waitFor();
    await shot(page, out, "base-path-jobs");
    expectNoErrors(page, "/grid");
    await page.context().close();
  } finally {
    grid.stop();
  }
}

let failed = 0;
try {
  failed = await runCases([
    ["loads every view without console errors", loadsEveryView],
    ["submits the ROCm example from the form and follows it to completed", submitsRocmExampleFromForm],
    ["downloads an artifact with the same bytes", downloadsArtifactBytes],
    ["shows the image.cuda_name block and its fix before submit", showsCudaBlockAndFix],
    ["cancels a running job after confirmation", cancelsRunningJob],
    ["shows a failure's diagnosis and scrolls to the log line it rests on", showsDiagnosisAndItsLine],
    ["keeps up with 100 lines/s for 30 s with bounded DOM lines", () => logFloodCase(ctx)],
    ["screenshots every view (light, dark, narrow)", screenshotTour],
    ["works under --base-path /grid and behind --public-url", worksUnderBasePathAndPublicUrl],
    ["simulate --report: no console errors, chart numbers equal --json", () => simReportCase({ bin, repo, out, browser })],
    ["fleet view: utilisation over time, chart numbers equal GET /v1/sim/utilisation",
      () => fleetHistoryCase({ bin, out, browser, example })],
  ]);
} finally {
  await browser.close();
  server.stop();
}
const docs = process.env.JGRID_DOCS_SCREENSHOTS;
if (docs && !failed)
  for (const name of ["jobs", "job", "fleet", "submit-blocked", "events", "job-dark", "jobs-narrow"])
    fs.copyFileSync(path.join(out, `${name}.png`), path.resolve(repo, docs, `dashboard-${name}.png`));
console.log(`${failed ? "FAILED" : "passed"}: browser suite in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${out}`);
process.exit(failed ? 1 : 0);
