// Entry point: a tiny router over History API paths under <root>ui/, the
// navigation bar, and the shared event feed.
import { root } from "./api.js";
import { startFeed } from "./feed.js";
import { setRenderer } from "./nav.js";
import { replace, h } from "./dom.js";
import { mountJobs } from "./views/jobs.js";
import { mountJob } from "./views/job.js";
import { mountFleet } from "./views/fleet.js";
import { mountSubmit } from "./views/submit.js";
import { mountEvents } from "./views/events.js";

// [pattern over the path after the root, nav key, mount(main, params) → cleanup]
const ROUTES = [
  [/^(?:ui\/?)?$/, "jobs", mountJobs],
  [/^ui\/jobs\/?$/, "jobs", mountJobs],
  [/^ui\/jobs\/([^/]+)\/?$/, "jobs", mountJob],
  [/^ui\/fleet\/?$/, "fleet", mountFleet],
  [/^ui\/submit\/?$/, "submit", mountSubmit],
  [/^ui\/events\/?$/, "events", mountEvents],
];

const TITLES = { jobs: "Jobs", fleet: "Fleet", submit: "Submit", events: "Events" };

let cleanup = null;

function render() {
  if (cleanup) cleanup();
  cleanup = null;
  const main = document.getElementById("main");
  const rest = decodeURI(location.pathname.slice(root.length));
  const route = ROUTES.find(([re]) => re.test(rest));
  const key = route ? route[1] : "";
  for (const a of document.querySelectorAll("[data-nav]")) {
    if (a.dataset.nav === key) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  replace(main);
  if (!route) {
    document.title = "Not found · jgrid-local";
    return replace(main, h("h1", "Not found"), h("p", "No dashboard view at ", h("code", location.pathname)));
  }
  const params = rest.match(route[0]).slice(1).map(decodeURIComponent);
  document.title = `${TITLES[key] || "Job"} · jgrid-local`;
  cleanup = route[2](main, params);
}

// In-page links: <a href="<root>ui/…"> clicks are routed without a reload.
function onClick(e) {
  const a = e.target.closest("a[href]");
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(root + "ui") || a.hasAttribute("download")) return;
  e.preventDefault();
  history.pushState(null, "", url.pathname + url.search);
  render();
  document.getElementById("main").focus({ preventScroll: true });
}

function setFeedState(state) {
  const el = document.getElementById("feed-state");
  el.textContent = state === "live" ? "live" : state === "closed" ? "feed closed" : "reconnecting…";
  el.dataset.state = state;
}

for (const a of document.querySelectorAll("[data-nav]")) a.href = root + "ui/" + a.dataset.nav;
document.addEventListener("click", onClick);
window.addEventListener("popstate", render);
setRenderer(render);
startFeed(setFeedState);
render();
