// The view's state lives in the URL's query string, so views can be bookmarked and the back
// button works: ?view=today | ?list=UUID, &q=, &status=, &priority=, &tag=, &sort=, &task=UUID.

const KEYS = ["view", "list", "q", "status", "priority", "tag", "sort", "task"];
const DEFAULTS = { view: "", list: "", q: "", status: "all", priority: "", tag: "", sort: "default", task: "" };

/** The state a query string (`?q=…`) names. */
function parse(search) {
  const params = new URLSearchParams(search);
  const state = { ...DEFAULTS };
  for (const key of KEYS) if (params.has(key)) state[key] = params.get(key);
  if (state.list) state.view = "list";
  return state;
}

// Typing in search publishes the new state before writing its URL: the view's request and
// its rows go first, and the URL follows when the app calls `writeURL` (history.replaceState
// can block a keystroke for 10–20 ms when it is the first call in a while). Until then
// `current()` answers the state being published; a push, the back button or leaving the
// page settle it first.
let pending = null; // {state, target}

function writePending() {
  if (!pending) return;
  const { target } = pending;
  pending = null;
  history.replaceState(null, "", target);
}

/** Writes the URL of a `navigate(…, {deferURL: true})` still waiting for it (or nothing). */
export function writeURL() {
  writePending();
}

/** The current state, read from the URL (or the one being published, see above). */
export function current() {
  return pending ? { ...pending.state } : parse(location.search);
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
 * change gets its own entry for the back button. `deferURL` (with `replace`): the URL is
 * written by a later `writeURL()`, after the subscribers' work.
 */
export function navigate(changes, { replace = false, deferURL = false } = {}) {
  if (!replace) writePending(); // the entry being left gets its URL before a new one
  const next = { ...current(), ...changes };
  if (changes.list) next.view = "list";
  if (changes.view && changes.view !== "list") next.list = "";
  const target = url(next);
  if (target === (pending ? pending.target : location.pathname + location.search)) return;
  if (!replace) {
    history.pushState(null, "", target);
    publish();
    return;
  }
  pending = { state: parse(target.slice(location.pathname.length)), target };
  publish();
  if (!deferURL) writePending();
}

window.addEventListener("popstate", () => {
  pending = null; // the entry it was for is no longer the current one
  publish();
});
window.addEventListener("pagehide", writePending); // a reload or a bookmark keeps the search

