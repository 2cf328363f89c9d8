// The live log view of one job: follows GET /v1/jobs/{id}/logs/live (SSE),
// colours stdout/stderr, keeps at most MAX_LINES lines in the DOM (older
// ones are dropped from the top), and follows the bottom until the user
// scrolls up. Lines are batched per animation frame so a fast job cannot
// flood the page.
import { api } from "../api.js";
import { follow } from "../sse.js";
import { h } from "../dom.js";

export const MAX_LINES = 1000;

export function logView(jobId, { onStatus, onTerminal }) {
  const box = h("div.logbox", { role: "log", "aria-live": "off", "aria-label": "Job output", tabindex: "0" });
  const count = h("span.logcount", { "aria-live": "off" }, "waiting for output…");
  const jump = h("button.small", { type: "button", hidden: true, onclick: () => scrollToEnd(true) }, "Follow output ↓");
  const wrap = h("label.toggle", h("input", { type: "checkbox", onchange: (e) => box.classList.toggle("wrap", e.target.checked) }),
    " Wrap lines");
  const el = h("div.logview", h("div.logbar", count, wrap, jump), box);
  let pending = [];
  let total = 0;
  let frame = 0;
  let following = true;
  let lastSet = -1;

  const scrollToEnd = (force) => {
    if (force) following = true;
    box.scrollTop = box.scrollHeight;
    lastSet = box.scrollTop;
    jump.hidden = following;
  };
  box.addEventListener("scroll", () => {
    if (Math.abs(box.scrollTop - lastSet) < 2) return;
    following = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    jump.hidden = following;
  });

  const flush = () => {
    frame = 0;
    const lines = pending.length > MAX_LINES ? pending.slice(-MAX_LINES) : pending;
    pending = [];
    const frag = document.createDocumentFragment();
    for (const [stream, text, seq] of lines)
      frag.append(h("div.line", { dataset: seq ? { s: stream, seq: String(seq) } : { s: stream } }, text));
    box.append(frag);
    let excess = box.childElementCount - MAX_LINES;
    // Keep the lines a reader scrolled to in place while old ones go
    // (the box has overflow-anchor: none, so this is the only correction).
    const before = following || excess <= 0 ? 0 : box.scrollHeight;
    while (excess-- > 0) box.firstElementChild.remove();
    if (following) scrollToEnd(false);
    else if (before) {
      box.scrollTop -= before - box.scrollHeight;
      lastSet = box.scrollTop;
    }
    const shown = box.childElementCount;
    count.textContent = total > shown ? `${total} lines (showing the last ${shown})` : `${total} lines`;
  };
  const push = (stream, text, seq) => {
    for (const line of text.replace(/\n$/, "").split("\n")) {
      pending.push([stream, line, seq]);
      total++;
    }
    if (!frame) frame = requestAnimationFrame(flush);
  };

  const stop = follow(api.liveLogs(jobId), (type, data, id) => {
    if (type === "stdout" || type === "stderr") push(type, data.text || "", id);
    else if (type === "notice") push("notice", data.message || "");
    else if (type === "status") onStatus && onStatus(data);
    else if (type === "terminal") {
      onTerminal && onTerminal(data);
      return "stop";
    }
  });
  // Scrolls to the line with log sequence `seq` (the event id) and marks it;
  // false when it is not in the view (not arrived yet, or dropped from the top).
  const showLine = (seq) => {
    if (frame) flush();
    const line = box.querySelector(`[data-seq="${seq}"]`);
    if (!line) return false;
    for (const old of box.querySelectorAll(".line.marked")) old.classList.remove("marked");
    line.classList.add("marked");
    following = false;
    box.scrollTop = line.offsetTop - box.offsetTop - box.clientHeight / 3;
    lastSet = box.scrollTop;
    jump.hidden = false;
    line.setAttribute("tabindex", "-1");
    line.focus({ preventScroll: true });
    return true;
  };
  return {
    el,
    showLine,
    lineCount: () => total,
    close() {
      stop();
      if (frame) cancelAnimationFrame(frame);
    },
  };
}
