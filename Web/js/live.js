// Live changes: the server's events (GET /api/v1/events). A change anywhere reaches this tab
// within a second; a dropped connection resumes from the last revision it saw.

import { showAlert } from "./alerts.js";

export class Live {
  /** `app` gives `onChange(change)`, `refreshAll()`, `setOffline(bool)`. */
  constructor(app) {
    this.app = app;
    this.source = null;
    this.revision = null;
  }

  start() {
    this.stop();
    const source = new EventSource("/api/v1/events", { withCredentials: true });
    this.source = source;
    source.addEventListener("hello", (event) => {
      const revision = JSON.parse(event.data).revision;
      // Reconnected after missing changes: read everything again.
      if (this.revision !== null && revision !== this.revision) this.app.refreshAll();
      this.revision = revision;
      this.app.setOffline(false);
    });
    source.addEventListener("sync", () => this.app.refreshAll());
    source.addEventListener("change", (event) => {
      const change = JSON.parse(event.data);
      this.revision = change.revision;
      this.app.onChange(change);
    });
    source.addEventListener("alert", (event) => showAlert(JSON.parse(event.data), { openTask: (id) => this.app.navigate?.({ task: id }) }));
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

  reconnect() {
    if (!this.source || this.source.readyState === EventSource.CLOSED) this.start();
  }

  stop() {
    clearTimeout(this.retry);
    this.source?.close();
    this.source = null;
  }
}
