// Events: the whole-server feed (jobs and nodes) since the page was opened,
// newest first, filterable by kind, level and text; can be paused.
import { root } from "../api.js";
import { onFeed, recentEvents } from "../feed.js";
import { h, replace, time, field, debounce } from "../dom.js";

const SHOW = 300;

export function mountEvents(main) {
  const kind = h("select", { name: "kind" }, ["", "job", "node"].map((k) => h("option", { value: k }, k || "all")));
  const level = h("select", { name: "level" }, ["", "info", "warning", "error"].map((l) => h("option", { value: l }, l || "any")));
  const text = h("input", { type: "search", name: "q", placeholder: "type, job id, message", autocomplete: "off" });
  const pause = h("input", { type: "checkbox", name: "pause" });
  const list = h("ol.events", { "aria-label": "Server events, newest first" });
  const count = h("p.muted", { role: "status" });
  let held = 0;

  const matches = (e) => {
    const q = text.value.trim().toLowerCase();
    if (kind.value && !e.type.startsWith(kind.value + ".")) return false;
    if (level.value && (e.level || "info") !== level.value) return false;
    return !q || [e.type, e.job_id, e.title, e.message, e.source].some((v) => (v || "").toLowerCase().includes(q));
  };
  const draw = () => {
    const all = recentEvents().reverse().filter(matches);
    replace(list, all.slice(0, SHOW).map(item));
    held = 0;
    count.textContent = all.length ? `${all.length} events since this page opened${all.length > SHOW ? ` (newest ${SHOW} shown)` : ""}`
      : "No events yet since this page opened: they appear here as jobs and nodes change.";
  };
  const stop = onFeed((e) => {
    if (pause.checked) {
      held++;
      count.textContent = `Paused: ${held} new events held`;
      return;
    }
    if (!matches(e)) return;
    list.prepend(item(e));
    while (list.childElementCount > SHOW) list.lastElementChild.remove();
    count.textContent = `${recentEvents().filter(matches).length} events since this page opened`;
  });
  for (const c of [kind, level]) c.addEventListener("change", draw);
  text.addEventListener("input", debounce(draw, 150));
  pause.addEventListener("change", () => !pause.checked && draw());

  replace(main, h("div.head", h("h1", "Events")),
    h("form.filters", { role: "search", onsubmit: (e) => e.preventDefault() },
      field("Kind", kind), field("Level", level), field("Search", text),
      h("div.field.check", h("label", pause, " Pause"))),
    count, list);
  draw();
  return stop;
}

function item(e) {
  return h("li", { dataset: { level: e.level || "info", type: e.type } },
    time(e.created_at), " ",
    h("code.etype", e.type), " ",
    e.job_id ? h("a", { href: root + "ui/jobs/" + encodeURIComponent(e.job_id) }, e.job_id) : null,
    h("span.etitle", " ", e.title || ""), e.message ? h("span.emsg", " — " + e.message) : null,
    h("small.muted", ` ${e.source || ""}`));
}
