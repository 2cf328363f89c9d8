// A Server-Sent Events client over fetch. Unlike EventSource it hands every
// event type to one callback (the server feed's types are open-ended: job.*,
// node.*), and it resumes with Last-Event-ID after a dropped connection.

// follow(href, onEvent(type, data, id), onState(state)) → stop().
// onEvent may return "stop" to end the stream (e.g. on a terminal event).
// States: "live", "reconnecting", "closed".
export function follow(href, onEvent, onState = () => {}) {
  const ctl = { stopped: false, abort: null, lastId: "" };
  run(href, ctl, onEvent, onState);
  return () => {
    ctl.stopped = true;
    if (ctl.abort) ctl.abort.abort();
  };
}

async function run(href, ctl, onEvent, onState) {
  let delay = 500;
  while (!ctl.stopped) {
    ctl.abort = new AbortController();
    try {
      const headers = { Accept: "text/event-stream" };
      if (ctl.lastId) headers["Last-Event-ID"] = ctl.lastId;
      const res = await fetch(href, { headers, signal: ctl.abort.signal, cache: "no-store" });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      onState("live");
      delay = 500;
      if ((await read(res.body, ctl, onEvent)) === "stop") break;
    } catch (err) {
      if (ctl.stopped) break;
    }
    if (ctl.stopped) break;
    onState("reconnecting");
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 5000);
  }
  ctl.stopped = true;
  onState("closed");
}

async function read(body, ctl, onEvent) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return "ended";
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (dispatch(block, ctl, onEvent) === "stop") {
        reader.cancel().catch(() => {});
        return "stop";
      }
    }
  }
}

function dispatch(block, ctl, onEvent) {
  let type = "message";
  let id = "";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (name === "event") type = value;
    else if (name === "data") data.push(value);
    else if (name === "id") id = value;
  }
  if (id) ctl.lastId = id;
  if (!data.length) return;
  let parsed;
  try {
    parsed = JSON.parse(data.join("\n"));
  } catch {
    return;
  }
  return onEvent(type, parsed, id);
}
