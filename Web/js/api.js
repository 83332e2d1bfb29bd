// The REST API client: every request the app makes goes through `api`.
// Cookie sessions must send the CSRF header on every mutation; we send it always.

/** An API error: the server's `{"error": {code, message, field, current}}` with its status. */
export class ApiError extends Error {
  constructor(status, body, etag = null) {
    const error = (body && body.error) || {};
    super(error.message || `The server answered ${status}.`);
    this.status = status;
    this.code = error.code || "http_" + status;
    this.field = error.field || null;
    this.current = error.current || null;
    this.etag = etag;
  }
}

/** Raised instead of ApiError when the network is unreachable. */
export class OfflineError extends Error {
  constructor() {
    super("You are offline.");
    this.code = "offline";
  }
}

/** The browser's IANA time zone: the server reads "fri 5pm" and all-day dates in it. */
export const timeZone = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
})();

/**
 * The changes this tab made, by revision (a write's `Slate-Change` header), with the ids of
 * the tasks and lists each touched: the live stream's event for such a change needs no
 * request, the answer already had the task.
 */
export const ownChanges = new Map();
let writesInFlight = 0;
let settled = [];

/** Resolves once no write of this tab is waiting for its answer. */
export function writesSettled() {
  if (writesInFlight === 0) return Promise.resolve();
  return new Promise((resolve) => settled.push(resolve));
}

function recordOwnChange(change, path, data) {
  const revision = Number(change);
  if (!change || !Number.isInteger(revision)) return;
  const ids = [data?.id, ...(Array.isArray(data?.ids) ? data.ids : []), /^\/(?:tasks|lists)\/([0-9a-f-]{36})$/.exec(path)?.[1]];
  ownChanges.set(revision, new Set(ids.filter(Boolean)));
  if (ownChanges.size > 200) ownChanges.delete(ownChanges.keys().next().value);
}

const listeners = new Set();
/** Calls `handler()` whenever a request is refused with 401 (the session is gone). */
export function onUnauthorized(handler) {
  listeners.add(handler);
}

function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== null && value !== "") search.set(key, value);
  }
  const text = search.toString();
  return text ? "?" + text : "";
}

/**
 * Sends one request. Resolves to `{data, etag, status, change}` (`change`: the revision a
 * write made, from its Slate-Change header, or null); rejects with ApiError or OfflineError.
 * Options: `body` (JSON), `query`, `ifMatch` (an ETag), `signal`, `quiet401` (no session event).
 */
export async function request(method, path, options = {}) {
  const headers = { "X-Requested-With": "slate", Accept: "application/json" };
  if (timeZone) headers["X-Slate-Time-Zone"] = timeZone;
  const write = method !== "GET";
  if (write) writesInFlight++;
  try {
    return await send(method, path, options, headers, write);
  } finally {
    if (write && --writesInFlight === 0) {
      const waiting = settled;
      settled = [];
      waiting.forEach((resolve) => resolve());
    }
  }
}

async function send(method, path, options, headers, write) {
  let body;
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  if (options.ifMatch) headers["If-Match"] = options.ifMatch;
  let response;
  try {
    response = await fetch("/api/v1" + path + query(options.query), {
      method,
      headers,
      body,
      credentials: "same-origin",
      signal: options.signal,
      keepalive: options.keepalive,
      cache: options.cache || "no-store",
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new OfflineError();
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    if (response.status === 401 && !options.quiet401) listeners.forEach((handler) => handler());
    throw new ApiError(response.status, data, response.headers.get("ETag"));
  }
  const etag = response.headers.get("ETag");
  const change = Number(response.headers.get("Slate-Change")) || null;
  if (write) recordOwnChange(change, path, data);
  return { data, etag, status: response.status, change };
}

/** Shorthands for the resources the app uses. */
export const api = {
  session: () => request("GET", "/session", { quiet401: true }),
  signIn: (name, password) => request("POST", "/session", { body: { name, password }, quiet401: true }),
  signOut: () => request("DELETE", "/session"),
  lists: () => request("GET", "/lists"),
  vocabulary: (options = {}) => request("GET", "/vocabulary", { cache: "default", ...options }),
  counts: () => request("GET", "/counts"),
  changes: (since) => request("GET", "/changes", { query: { since, counts: "true" } }),
  createList: (fields) => request("POST", "/lists", { body: fields }),
  updateList: (id, fields) => request("PATCH", `/lists/${id}`, { body: fields }),
  deleteList: (id, tasks) => request("DELETE", `/lists/${id}`, { query: { tasks } }),
  moveList: (id, before) => request("POST", `/lists/${id}/move`, { body: { before } }),
  tasks: (params, signal) => request("GET", "/tasks", { query: params, signal }),
  task: (id) => request("GET", `/tasks/${id}`),
  createTask: (fields) => request("POST", "/tasks", { body: fields }),
  updateTask: (id, fields, ifMatch, extra = {}) => request("PATCH", `/tasks/${id}`, { body: fields, ifMatch, ...extra }),
  deleteTask: (id) => request("DELETE", `/tasks/${id}`),
  subtasks: (id) => request("GET", `/tasks/${id}/subtasks`),
  addSubtask: (id, fields) => request("POST", `/tasks/${id}/subtasks`, { body: fields }),
  parse: (text, signal) => request("POST", "/tasks/parse", { body: { text }, signal }),
  batch: (action, ids, extra = {}) => request("POST", "/tasks/batch", { body: { action, ids, ...extra } }),
  clearCompleted: (listId) => request("POST", "/tasks/clear-completed", { body: listId ? { listId } : {} }),
  /** Undoes change `change` (a write's Slate-Change), or without it the latest change. */
  undo: (change) => request("POST", "/undo", { body: change ? { change } : {} }),
  redo: () => request("POST", "/redo"),
  stats: () => request("GET", "/stats"),
};
