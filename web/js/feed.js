// The whole-server event feed (GET /v1/events, SSE): one connection for the
// page, shared by every view. Keeps the most recent events in memory so the
// Events view shows what happened since the page was opened.
import { api } from "./api.js";
import { follow } from "./sse.js";

const KEEP = 1000;
const recent = [];
const listeners = new Set();

export function startFeed(onState) {
  follow(api.feed(), onEvent, onState);
}

function onEvent(type, event) {
  if (type === "heartbeat" || !event || !event.type) return;
  recent.push(event);
  if (recent.length > KEEP) recent.splice(0, recent.length - KEEP);
  for (const fn of listeners) fn(event);
}

// Subscribes `fn(event)` to every new event; returns the unsubscribe.
export function onFeed(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function recentEvents() {
  return recent.slice();
}
