// A job's phase timeline: the fixed phase order, each marked done, current
// or pending from the job's events, with the events listed under each phase.
import { h, replace, time } from "../dom.js";

const PHASES = ["queued", "scheduling", "provisioning", "runtime_preparation", "workload_execution", "finalizing", "done"];
const LABELS = {
  queued: "Queued", scheduling: "Scheduling", provisioning: "Provisioning",
  runtime_preparation: "Runtime preparation", workload_execution: "Workload", finalizing: "Finalizing", done: "Done",
};

export function timeline() {
  const el = h("ol.timeline");
  const events = new Map();
  let phase = "queued";
  let status = "";
  const ordered = () => [...events.values()].sort((a, b) => (a.sequence || 0) - (b.sequence || 0));
  const draw = () => {
    const current = PHASES.indexOf(phase);
    replace(el, PHASES.map((p, i) => {
      const mine = ordered().filter((e) => (e.phase || "queued") === p);
      const state = i < current || (p === "done" && phase === "done") ? "done" : i === current ? "current" : "pending";
      const bad = state !== "pending" && p === phase && /failed|rejected|cancelled/.test(status);
      return h("li", { dataset: { state: bad ? "bad" : state }, "aria-current": state === "current" ? "step" : null },
        h("span.dot", { "aria-hidden": "true" }),
        h("div", h("strong", LABELS[p]), h("span.sr-only", ` (${state})`),
          mine.length ? h("ul.evts", mine.map(eventItem)) : null));
    }));
  };
  return {
    el,
    add(list) {
      for (const e of list) events.set(e.id, e);
      draw();
    },
    setStatus(s, p) {
      status = s || status;
      if (p) phase = p;
      draw();
    },
  };
}

function eventItem(e) {
  return h("li", { dataset: { level: e.level || "info", type: e.type } },
    time(e.created_at), " ", h("span.etitle", e.title || e.type), e.message ? h("span.emsg", " — " + e.message) : null);
}
