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

// Typing in search publishes the new state before writing its URL: the view's request then
// leaves without waiting for history.replaceState (a few milliseconds a keystroke). Until
// the URL is written, `current()` answers the state being published.
let pending = null; // {state, target}

function writePending() {
  if (!pending) return;
  const { target } = pending;
  pending = null;
  history.replaceState(null, "", target);
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
 * change gets its own entry for the back button.
 */
export function navigate(changes, { replace = false } = {}) {
  writePending(); // a navigation made while one is being published comes after it
  const next = { ...current(), ...changes };
  if (changes.list) next.view = "list";
  if (changes.view && changes.view !== "list") next.list = "";
  const target = url(next);
  if (target === location.pathname + location.search) return;
  if (!replace) {
    history.pushState(null, "", target);
    publish();
    return;
  }
  const mine = { state: parse(target.slice(location.pathname.length)), target };
  pending = mine;
  try {
    publish();
  } finally {
    if (pending === mine) writePending();
  }
}

window.addEventListener("popstate", publish);
