// In-page navigation shared by the router and the views.
import { root } from "./api.js";

let render = () => {};

export function setRenderer(fn) {
  render = fn;
}

// Goes to <root><path> without a reload.
export function go(path) {
  history.pushState(null, "", root + path);
  render();
}
