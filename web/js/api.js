// The documented /v1 API, reached relative to the dashboard's root so the
// page works at "/", under --base-path and behind a proxy prefix.

// This file is served at <root>ui/js/api.js.
export const root = new URL("../../", import.meta.url).pathname;

export function url(path) {
  return root + path.replace(/^\//, "");
}

// An API failure: carries the status and the error envelope's code/details.
export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || "HTTP_" + status;
    this.details = err.details || {};
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const res = await fetch(url(path), init);
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(res.status, { error: { message: `not JSON from ${path}` } });
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body) => request("POST", path, body === undefined ? {} : body);

export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? "?" + s : "";
}

const enc = encodeURIComponent;

export const api = {
  jobs: (params) => get("v1/jobs" + query(params)),
  job: (id) => get(`v1/jobs/${enc(id)}`),
  events: (id) => get(`v1/jobs/${enc(id)}/events?limit=1000`),
  runtime: (id) => get(`v1/jobs/${enc(id)}/runtime`),
  artifacts: (id) => get(`v1/jobs/${enc(id)}/artifacts`),
  download: (id, aid) => post(`v1/jobs/${enc(id)}/artifacts/${enc(aid)}/download`),
  cancel: (id, reason) => post(`v1/jobs/${enc(id)}/cancel`, { reason }),
  nodes: () => get("v1/nodes"),
  utilisation: () => get("v1/sim/utilisation"),
  estimate: (body) => post("v1/jobs/estimate", body),
  submit: (body) => post("v1/jobs", body),
  liveLogs: (id) => url(`v1/jobs/${enc(id)}/logs/live`),
  feed: () => url("v1/events"),
};

