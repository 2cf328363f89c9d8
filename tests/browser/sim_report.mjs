// The `simulate --report` page in real chromium: it opens from a file with
// no console errors, and every number its charts carry (data-* attributes
// and the text beside them) equals the `--json` summary of the same runs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { newPage, expectNoErrors, check, shot } from "./lib.mjs";

function simulate(bin, repo, args) {
  const res = spawnSync(bin, ["simulate", "--fleet", path.join(repo, "examples/fleets/mixed-cloud.yaml"), ...args,
    "--json"], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (res.status !== 0) throw new Error(`simulate ${args.join(" ")}: exit ${res.status}: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

// The page's own formatting of a number (en-US, at most `digits` decimals).
const fmt = (v, digits = 1) => Number(v).toLocaleString("en-US", { maximumFractionDigits: digits });

function same(shown, expected, what) {
  check(shown !== null && Number(shown) === Number(expected), `${what}: page shows ${shown}, --json says ${expected}`);
}

async function checkRun(page, summary, where) {
  const waits = summary.queue_wait_s;
  const models = await page.$$eval(".wait-model", (els) => els.map((e) => ({ ...e.dataset, title: e.querySelector("h3").textContent })));
  check(models.length === Object.keys(waits).length, `${where}: ${models.length} wait charts, --json has ${Object.keys(waits).length} models`);
  for (const m of models) {
    const w = waits[m.label];
    check(w, `${where}: wait chart for ${m.label}, which --json does not have`);
    for (const q of ["jobs", "p50", "p95", "p99"]) same(m[q], w[q], `${where} ${m.label} ${q}`);
    const text = `${m.label}: ${w.jobs} jobs, p50 ${fmt(w.p50)} s, p95 ${fmt(w.p95)} s, p99 ${fmt(w.p99)} s`;
    check(m.title === text, `${where}: title "${m.title}", expected "${text}"`);
    const markers = await page.$$eval(`.wait-model[data-label="${m.label}"] .wait-marker`, (els) => els.map((e) => e.dataset.value));
    check(markers.length === 3, `${where} ${m.label}: three percentile markers`);
    ["p50", "p95", "p99"].forEach((q, i) => same(markers[i], w[q], `${where} ${m.label} ${q} marker`));
    const bins = await page.$$eval(`.wait-model[data-label="${m.label}"] .wait-bin`, (els) => els.map((e) => Number(e.dataset.count)));
    check(bins.reduce((a, b) => a + b, 0) === w.jobs, `${where} ${m.label}: histogram holds ${bins.reduce((a, b) => a + b, 0)} waits, --json ${w.jobs} jobs`);
  }
  const fields = await page.$$eval("#summary td[data-field]", (els) => Object.fromEntries(els.map((e) => [e.dataset.field, e.dataset.value])));
  for (const f of ["jobs", "retries", "cost_usd", "simulated_seconds"]) same(fields[f], summary[f], `${where} ${f}`);
  for (const [status, n] of Object.entries(summary.by_status)) same(fields[`by_status.${status}`], n, `${where} ${status}`);
  const pools = await page.$$eval("path.series-running", (els) => els.map((e) => ({ pool: e.dataset.pool, gpus: e.dataset.gpus, max: e.dataset.max })));
  check(pools.length === Object.keys(summary.gpu_utilisation).length, `${where}: one running-GPU line per pool`);
  for (const p of pools) {
    same(p.gpus, summary.gpu_utilisation[p.pool].gpus, `${where} ${p.pool} GPUs`);
    check(Number(p.max) <= Number(p.gpus), `${where} ${p.pool}: ${p.max} GPUs running of ${p.gpus}`);
  }
  const queued = await page.$$eval("path.series-queued", (els) => els.map((e) => Number(e.dataset.last)));
  check(queued.length === 1 && queued[0] === 0, `${where}: the queue is empty at the end of the run`);
}

export async function simReportCase({ bin, repo, out, browser }) {
  const trace = path.join(repo, "examples/traces/mi300x-burst.jsonl");
  const report = path.join(out, "sim-report.html");
  const counts = [6, 7, 8, 9, 10];  // the README's worked example
  const points = simulate(bin, repo, ["--trace", trace, "--sweep", "pools.mi300x-east.count=6..10",
    "--report", report]);
  const page = await newPage(browser, { viewport: { width: 1280, height: 1000 } });
  await page.goto(pathToFileURL(report).href);
  await page.locator("body[data-ready='1']").waitFor();
  const dots = await page.$$eval("circle.metric-point", (els) => els.map((e) => ({ ...e.dataset })));
  check(dots.length === points.length, `${dots.length} sweep points drawn, --json has ${points.length}`);
  dots.forEach((d, i) => {
    same(d.x, counts[i], `sweep point ${i} x`);
    same(d.value, points[i].queue_wait_s["AMD MI300X"].p95, `sweep point ${i} (count ${counts[i]}) p95 wait`);
  });
  check((await page.textContent("#metric-name")) === "queue_wait_s.AMD MI300X.p95", "default metric: p95 wait of the MI300X");
  for (let i = 0; i < points.length; i++) {
    await page.selectOption("#point-select", String(i));
    await checkRun(page, points[i], `point ${i}`);
  }
  await page.selectOption("#point-select", String(counts.indexOf(8)));
  await shot(page, out, "sim-report", { fullPage: true });
  // JGRID_DOCS_SCREENSHOTS=docs: the README's picture of the report.
  if (process.env.JGRID_DOCS_SCREENSHOTS)
    fs.copyFileSync(path.join(out, "sim-report.png"), path.resolve(repo, process.env.JGRID_DOCS_SCREENSHOTS, "simulate-report.png"));
  expectNoErrors(page, "sweep report");
  await page.context().close();

  const single = path.join(out, "sim-report-single.html");
  const run = simulate(bin, repo, ["--trace", path.join(repo, "examples/traces/small.jsonl"), "--report", single,
    "--report-metric", "cost_usd"]);
  const one = await newPage(browser);
  await one.goto(pathToFileURL(single).href);
  await one.locator("body[data-ready='1']").waitFor();
  check(await one.locator("#sweep-section").isHidden(), "no sweep chart for a single run");
  await checkRun(one, run, "single run");
  expectNoErrors(one, "single-run report");
  await one.context().close();
}
