// The view's state lives in the URL's query string, so views can be bookmarked and the back
// button works: ?view=today | ?list=UUID, &q=, &status=, &priority=, &tag=, &sort=, &task=UUID.

const KEYS = ["view", "list", "q", "status", "priority", "tag", "sort", "task"];
const DEFAULTS = { view: "", list: "", q: "", status: "all", priority: "", tag: "", sort: "default", task: "" };

/** The current state, read from the URL. */
export function current() {
  const params = new URLSearchParams(location.search);
  const state = { ...DEFAULTS };
  for (const key of KEYS) if (params.has(key)) state[key] = params.get(key);
  if (state.list) state.view = "list";
  return state;
}

/** The view to show: an empty view (the phone's first screen, the sidebar) means All Tasks. */
export function effectiveView(state) {
  return state.view || "all";
}

function url(state) {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    if (key === "view" && state.list) continue;
    if (state[key] && state[key] !== DEFAULTS[key]) params.set(key, state[key]);
  }
  const text = params.toString();
  return location.pathname + (text ? "?" + text : "");
}

const subscribers = new Set();
/** Calls `handler(state, previous)` after every navigation, including back and forward. */
export function subscribe(handler) {
  subscribers.add(handler);
}

let last = current();
function publish() {
  const next = current();
  const previous = last;
  last = next;
  subscribers.forEach((handler) => handler(next, previous));
}

/**
 * Changes the state. `replace` keeps one history entry (typing in search); otherwise the
 * change gets its own entry for the back button.
 */
export function navigate(changes, { replace = false } = {}) {
  const next = { ...current(), ...changes };
  if (changes.list) next.view = "list";
  if (changes.view && changes.view !== "list") next.list = "";
  const target = url(next);
  if (target === location.pathname + location.search) return;
  if (replace) history.replaceState(null, "", target);
  else history.pushState(null, "", target);
  publish();
}

window.addEventListener("popstate", publish);
