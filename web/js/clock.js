// The server's clock. Times in the API are on the server's clock, which runs
// faster than the wall under --time-scale (and may be skewed), so ages and
// durations are measured against an estimate of the server's "now" from
// GET /v1/health (clock_time, clock_scale), refreshed every minute.
import { get } from "./api.js";

let base = null; // {server: ms, local: ms, scale}

async function sync() {
  try {
    const h = await get("v1/health");
    const server = Date.parse(h.clock_time || h.time);
    if (isFinite(server)) base = { server, local: Date.now(), scale: Number(h.clock_scale) || 1 };
  } catch {
    // keep the previous estimate; wall time until the first answer
  }
}

export const clockReady = sync();
setInterval(sync, 60000);

export function serverNow() {
  if (!base) return Date.now();
  return base.server + (Date.now() - base.local) * base.scale;
}
