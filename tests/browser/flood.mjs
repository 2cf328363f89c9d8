// A job printing 100 lines/s for 30 s of wall time (150 simulated seconds,
// one line per 0.05 s, on a server running at --time-scale 5): the log view follows it to the last line, never holds more
// than its line bound in the DOM, stops following when the reader scrolls
// up and resumes on request. Frame gaps and round trips are printed as
// figures, not asserted.
import { newPage, expectNoErrors, check, shot, apiCall } from "./lib.mjs";

const MAX_DOM_LINES = 1000;
const LINES = 3000;

export async function logFloodCase({ base, out, browser, timeScale }) {
  const job = await apiCall(base, "POST", "/v1/jobs", {
    name: "log-flood", workload_type: "inference", image: "ghcr.io/acme/pytorch-rocm:latest", gpu_vendor: "amd",
    runtime: "rocm", gpu_type: "MI300X",
    sim: { duration_s: 30 * timeScale, stdout_every_s: 0.01 * timeScale, stdout: ["tick {i}/{n}"] },
  });
  const page = await newPage(browser);
  await page.goto(`${base}/ui/jobs/${job.job_id}`);
  await page.evaluate(() => {
    // Longest gap between animation frames while the flood runs.
    window.__gap = 0;
    let last = performance.now();
    const tick = (t) => {
      window.__gap = Math.max(window.__gap, t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const box = page.locator(".logbox");
  await page.locator(".logbox .line", { hasText: "tick 100/" }).first().waitFor({ timeout: 60000 });

  // The reader scrolls up: the view stops following and offers to resume.
  await box.hover();
  await page.mouse.wheel(0, -2000);
  await page.locator("button:has-text('Follow output')").waitFor();
  let maxLines = 0;
  let maxRtt = 0;
  const sample = async () => {
    const t0 = Date.now();
    const n = await page.evaluate(() => document.querySelectorAll(".logbox .line").length);
    maxRtt = Math.max(maxRtt, Date.now() - t0);
    maxLines = Math.max(maxLines, n);
  };
  for (let i = 0; i < 5; i++) {
    await sample();
    await page.waitForTimeout(100);
  }
  const away = await box.evaluate((b) => b.scrollHeight - b.scrollTop - b.clientHeight);
  check(away > 50, `the view kept following after the reader scrolled up (${away} px from the end)`);
  await page.click("button:has-text('Follow output')");

  while (!(await page.locator('.jobhead .chip[data-s="completed"]').count())) {
    await sample();
    await page.waitForTimeout(100);
  }
  await page.locator(".logcount", { hasText: `${LINES} lines` }).waitFor();
  await sample();
  const last = await page.locator(".logbox .line").last().innerText();
  const atEnd = await box.evaluate((b) => b.scrollHeight - b.scrollTop - b.clientHeight < 4);
  const gap = await page.evaluate(() => window.__gap);
  await shot(page, out, "job-log-flood");
  console.log(`     figures: ${LINES} lines; max DOM lines ${maxLines}; longest frame gap ${gap.toFixed(0)} ms; ` +
              `slowest page round trip ${maxRtt} ms`);
  check(maxLines <= MAX_DOM_LINES, `the log view held ${maxLines} DOM lines (bound ${MAX_DOM_LINES})`);
  check(last === `tick ${LINES}/${LINES}`, `the last line shown is '${last}'`);
  check(atEnd, "the view does not follow the end after 'Follow output'");
  expectNoErrors(page, "log flood");
  await page.context().close();
}
