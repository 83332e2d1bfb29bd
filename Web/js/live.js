// Live changes: the server's events (GET /api/v1/events). A change anywhere reaches this tab
// within a second and costs what changed: this tab's own change costs no task read (its
// answer had the task), another's one read of what changed since (GET /changes, with the
// sidebar's counts). A reconnection catches up the same way; a stream the server could not
// keep up with (`resync`) re-reads everything. An event that names no ids is read as another's.
import { ownChanges, writesSettled } from "./api.js";
import { alerts } from "./later.js";

const GATHER = 40; // ms: changes arriving together are read together

/** The revision an event names (`{"revision": N}`), or null. */
function revisionIn(event) {
  try {
    const revision = JSON.parse(event.data || "{}").revision;
    return Number.isInteger(revision) ? revision : null;
  } catch {
    return null;
  }
}

export class Live {
  /**
   * `app` gives `changes` (changes.js: `own()`, and `remote(since)`, which resolves to the
   * revision it reached, or null), `refreshAll()`, `setOffline(bool)`, `checkSession()`.
   */
  constructor(app) {
    this.app = app;
    this.source = null;
    this.revision = null; // what this tab shows is the board at this revision
    this.queue = [];
    this.running = null;
  }

  start() {
    this.stop();
    const source = new EventSource("/api/v1/events", { withCredentials: true });
    this.source = source;
    source.addEventListener("hello", (event) => {
      const revision = revisionIn(event);
      // Reconnected after missing changes: read what changed since (one request). A board
      // behind this tab (restored from a backup) is read again whole.
      if (this.revision !== null && revision !== null && revision < this.revision) this.resync(revision);
      else if (this.revision !== null && revision !== null && revision > this.revision) this.catchUp(revision);
      else if (this.revision === null) this.revision = revision;
      this.app.setOffline(false);
    });
    source.addEventListener("sync", (event) => {
      const revision = revisionIn(event);
      if (revision !== null) this.catchUp(revision);
    });
    // The server could not keep up with this stream and dropped changes: read everything.
    source.addEventListener("resync", (event) => this.resync(revisionIn(event)));
    source.addEventListener("change", (event) => {
      this.queue.push(JSON.parse(event.data));
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.drain(), GATHER);
    });
    source.addEventListener("alert", (event) => {
      const alert = JSON.parse(event.data);
      alerts()
        .then(({ showAlert }) => showAlert(alert, { openTask: (id) => this.app.navigate?.({ task: id }) }))
        .catch((error) => console.warn("Slate: an alert could not be shown:", error.message));
    });
    source.addEventListener("error", () => {
      if (!navigator.onLine) this.app.setOffline(true);
      // The browser gives up on a stream that was refused (a 401 when the session ended):
      // find out why, and start again unless the session is gone.
      if (source.readyState === EventSource.CLOSED && this.source === source) {
        clearTimeout(this.retry);
        this.retry = setTimeout(() => this.app.checkSession().then((ok) => ok && this.source === source && this.start()), 2000);
      }
    });
  }

  /** Everything again, and the revision it is at. */
  resync(revision) {
    this.queue = [];
    if (revision !== null) this.revision = revision;
    this.app.refreshAll();
  }

  /** Changes up to `revision` were missed (a reconnection): read them like a remote change. */
  catchUp(revision) {
    this.queue.push({ revision });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.drain(), GATHER);
  }

  /** Applies the waiting events in order, one at a time. */
  async drain() {
    if (this.running) return;
    this.running = this.process();
    try {
      await this.running;
    } finally {
      this.running = null;
    }
    if (this.queue.length) this.drain();
  }

  async process() {
    // This tab's writes first get their answers, so their events are known to be ours.
    await writesSettled();
    const events = this.queue.filter((change) => this.revision === null || change.revision > this.revision);
    this.queue = [];
    if (!events.length) return;
    const remote = events.find((change) => !this.isOwn(change));
    if (!remote) {
      this.revision = events[events.length - 1].revision;
      this.app.changes.own();
      return;
    }
    // Everything from the first change not ours on is read in one request.
    const before = events.slice(0, events.indexOf(remote));
    if (before.length) this.revision = before[before.length - 1].revision;
    if (this.revision === null) return this.app.refreshAll();
    const reached = await this.app.changes.remote(this.revision);
    if (reached !== null) this.revision = Math.max(this.revision, reached);
  }

  /** True when the change is one of this tab's writes, and touched nothing else. */
  isOwn(change) {
    const ids = ownChanges.get(change.revision);
    // A change that names no ids (it touched other accounts too) is never taken as ours.
    if (!ids || (!change.tasks && !change.lists)) return false;
    const touched = [change.tasks, change.lists].flatMap((c) => (c ? [...c.inserted, ...c.updated, ...c.deleted] : []));
    return touched.every((id) => ids.has(id));
  }

  reconnect() {
    if (!this.source || this.source.readyState === EventSource.CLOSED) this.start();
  }

  stop() {
    clearTimeout(this.retry);
    clearTimeout(this.timer);
    this.source?.close();
    this.source = null;
  }
}
