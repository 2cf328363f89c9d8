// Helpers of the dashboard suite: a real server process, Debian's chromium
// through playwright-core, pages that record console errors, and a runner.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { chromium } from "playwright-core";

// Starts `serve --ephemeral` with extra args; resolves {url, stop()} once the
// ready line is printed.
export function startServer(bin, args = []) {
  const proc = spawn(bin, ["serve", "--ephemeral", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stderr.on("data", (d) => (err = (err + d).slice(-4000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line from server: ${err}`)), 20000);
    proc.on("exit", (code) => reject(new Error(`server exited (${code}): ${err}`)));
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/^jgrid-local ready url=(\S+)$/m);
      if (!m) return;
      clearTimeout(timer);
      resolve({ url: m[1], stop: () => proc.kill("SIGTERM"), proc });
    });
  });
}

export function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export async function launch(executablePath) {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
           "--no-first-run", "--disable-dev-shm-usage"],
  });
}

// A page that collects console errors, uncaught exceptions and HTTP error
// answers (the console's "Failed to load resource" lines carry no URL, so
// responses are recorded instead, with their method and path).
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" && !msg.text().startsWith("Failed to load resource"))
      page.errors.push(`console: ${msg.text()}`);
  });
  page.on("response", (res) => {
    if (res.status() >= 400)
      page.errors.push(`http ${res.status()}: ${res.request().method()} ${new URL(res.url()).pathname}`);
  });
  page.on("pageerror", (e) => page.errors.push(`pageerror: ${e.message}`));
  page.setDefaultTimeout(30000);
  return page;
}

// `expected` lists error lines a case provokes on purpose (exact text).
export function expectNoErrors(page, where, expected = []) {
  const errors = page.errors.filter((e) => !expected.includes(e));
  if (errors.length) throw new Error(`errors on ${where}:\n  ${errors.join("\n  ")}`);
}

export function check(cond, message) {
  if (!cond) throw new Error(message);
}

export async function shot(page, out, name, { fullPage = false } = {}) {
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage });
}

// JSON over HTTP against the server (setup only; the dashboard is under test).
export async function apiCall(base, method, p, body) {
  const res = await fetch(base + p, { method, headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

// Runs named async cases in order; prints ok/FAIL lines; returns failures.
export async function runCases(cases) {
  let failed = 0;
  const only = process.env.JGRID_BROWSER_ONLY ? new RegExp(process.env.JGRID_BROWSER_ONLY) : null;
  for (const [name, fn] of cases) {
    if (only && !only.test(name)) continue;
    const t0 = Date.now();
    try {
      await fn();
      console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}: ${e.stack || e}`);
    }
  }
  return failed;
}
