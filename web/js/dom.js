import { serverNow } from "./clock.js";

// Small DOM and formatting helpers shared by the views. Text always goes in
// as text nodes (never as HTML), so API strings cannot inject markup.

// h("a.cls#id", {href, onclick}, ...children): builds an element.
export function h(spec, attrs, ...children) {
  const [, tag, rest] = spec.match(/^([a-z0-9]+)(.*)$/i);
  const el = document.createElement(tag);
  for (const part of rest.match(/[.#][^.#]+/g) || [])
    part[0] === "." ? el.classList.add(part.slice(1)) : (el.id = part.slice(1));
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k in el && k !== "list" && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const TERMINAL = new Set(["completed", "failed", "rejected", "cancelled"]);

export function chip(status) {
  return h("span.chip", { dataset: { s: status || "unknown" } }, status || "unknown");
}

export function vendorTag(vendor) {
  const v = (vendor || "").toLowerCase();
  return h("span.vendor", { dataset: { v } }, v === "amd" ? "AMD" : v === "nvidia" ? "NVIDIA" : v || "—");
}

// "3s", "4m 05s", "2h 03m", "5d 2h".
export function duration(seconds) {
  if (seconds === undefined || seconds === null || !isFinite(seconds)) return "—";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${String(Math.floor(s / 60) % 60).padStart(2, "0")}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor(s / 3600) % 24}h`;
}

// Seconds from an API time until the server's now.
export const since = (iso) => (iso ? (serverNow() - Date.parse(iso)) / 1000 : null);

// Seconds between two API times; a missing end means "until now".
export function between(startIso, endIso) {
  if (!startIso) return null;
  return ((endIso ? Date.parse(endIso) : serverNow()) - Date.parse(startIso)) / 1000;
}

export function ago(iso) {
  return iso ? duration(since(iso)) + " ago" : "—";
}

export function time(iso) {
  if (!iso) return h("span", "—");
  return h("time", { datetime: iso, title: iso }, new Date(iso).toLocaleTimeString());
}

// Runs `fn` at most once per `ms`, always ending with a trailing call.
export function throttle(fn, ms) {
  let timer = null;
  let pending = null;
  const tick = () => {
    timer = null;
    if (!pending) return;
    const args = pending;
    pending = null;
    fn(...args);
    timer = setTimeout(tick, ms);
  };
  return (...args) => {
    if (timer) return void (pending = args);
    fn(...args);
    timer = setTimeout(tick, ms);
  };
}

export function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

// A labelled field: <div class=field><label for>text</label>control</div>.
let ids = 0;
export function field(label, control, hint) {
  control.id = control.id || `f${++ids}`;
  const hintEl = hint ? h("small.hint", { id: control.id + "-hint" }, hint) : null;
  if (hintEl) control.setAttribute("aria-describedby", hintEl.id);
  return h("div.field", h("label", { for: control.id }, label), control, hintEl);
}

export function errorBox(err) {
  return h("div.alert", { role: "alert" }, h("strong", err.code || "Error"), " ", err.message || String(err));
}

export function section(title, ...children) {
  const id = "s-" + title.toLowerCase().replace(/[^a-z]+/g, "-");
  return h("section.panel", { "aria-labelledby": id }, h("h2", { id }, title), ...children);
}
