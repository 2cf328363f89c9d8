// Screening checks ({rule, status, field, message, fix}): shared by the Job
// view and the Submit preview.
import { h } from "../dom.js";

const ORDER = { block: 0, warn: 1, pass: 2 };

export function checksTable(checks, { onlyProblems = false } = {}) {
  const list = (checks || []).filter((c) => !onlyProblems || c.status !== "pass")
    .sort((a, b) => (ORDER[a.status] ?? 3) - (ORDER[b.status] ?? 3));
  if (!list.length) return h("p.muted", onlyProblems ? "No blocks or warnings." : "No checks recorded.");
  return h("div.table-scroll", h("table.checks",
    h("caption.sr-only", "Screening checks"),
    h("thead", h("tr", ["Result", "Rule", "Field", "Message", "Fix"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", list.map((c) => h("tr", { dataset: { status: c.status, rule: c.rule } },
      h("td", h("span.verdict", { dataset: { s: c.status } }, c.status)),
      h("td", h("code", c.rule)),
      h("td", c.field ? h("code", c.field) : "—"),
      h("td", c.message || ""),
      h("td.fix", c.fix || "—"))))));
}

// Counts of block/warn/pass as a short sentence.
export function checksSummary(checks) {
  const n = { block: 0, warn: 0, pass: 0 };
  for (const c of checks || []) n[c.status] = (n[c.status] || 0) + 1;
  return `${n.block} blocked, ${n.warn} warnings, ${n.pass} passed`;
}

// The same checks as a compact list (for narrow panels): result and rule,
// then the message, then the fix.
export function checksList(checks) {
  const list = (checks || []).filter((c) => c.status !== "pass")
    .sort((a, b) => (ORDER[a.status] ?? 3) - (ORDER[b.status] ?? 3));
  if (!list.length) return h("p.muted", "No blocks or warnings.");
  return h("ul.checklist", { "aria-label": "Screening blocks and warnings" }, list.map((c) =>
    h("li", { dataset: { status: c.status, rule: c.rule } },
      h("span.verdict", { dataset: { s: c.status } }, c.status), " ", h("code", c.rule),
      c.field ? h("small.muted", " on ", h("code", c.field)) : null,
      h("p", c.message || ""),
      c.fix ? h("p.fix", h("strong", "Fix: "), c.fix) : null)));
}
