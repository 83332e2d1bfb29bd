// Slate's web app: signs in, then shows the sidebar, the selected view's tasks and a task's
// details, kept live by the server's events. Talks only to the public REST API.
import { OfflineError, api, onUnauthorized } from "./api.js";
import { Batch } from "./batch.js";
import { Changes } from "./changes.js";
import { Detail } from "./detail.js";
import { ListForm, TaskForm } from "./forms.js";
import { enableKeyboard } from "./keyboard.js";
import { Live } from "./live.js";
import { QuickEntry } from "./quickentry.js";
import { enableReorder } from "./reorder.js";
import { Sidebar, smartLists } from "./sidebar.js";
import * as route from "./state.js";
import { TaskList, readFirstPage } from "./tasklist.js";
import { setUpToast, showToast } from "./toast.js";
import { loadVocabulary } from "./vocabulary.js";
import { showChoices } from "./choices.js";
import * as later from "./later.js";

/** Set while this browser is signed in (see `boot`). */
const SIGNED_IN = "slate.signedIn";

const $ = (id) => document.getElementById(id);

class App {
  constructor() {
    this.lists = [];
    this.started = false;
    this.actions = {
      toggle: (task) => this.toggle(task),
      flag: (task) => this.flag(task),
      remove: (task) => this.remove(task),
      open: (task) => this.navigate({ task: task.id }),
      filterTag: (tag) => this.navigate({ tag }),
      pick: (task, selected) => this.batch.pick(task, selected),
      toggleSubtasks: (task) => this.taskList.toggleSubtasks(task.id),
      colorOf: (id) => this.lists.find((l) => l.id === id)?.color || "transparent",
    };
  }

  // MARK: signing in and out

  async boot() {
    this.registerServiceWorker();
    onUnauthorized(() => this.sessionExpired());
    $("login").addEventListener("submit", (event) => {
      event.preventDefault();
      this.signIn();
    });
    // Signed in last time, the vocabulary is asked for beside the session, not after it:
    // one round trip before the first page instead of two. (Not when signed out: its 401
    // would be a failed request in the console at every load.)
    // The view's first page too, for the same reason.
    if (localStorage.getItem(SIGNED_IN) === "1") {
      this.vocabularyLoading = loadVocabulary({ quiet401: true });
      this.vocabularyLoading.catch(() => {}); // awaited by start()
      this.firstPage = readFirstPage(route.current());
    }
    try {
      // Signed out is an answer ({signedIn: false}), not a 401 in the console.
      const { data } = await api.session();
      if (data?.signedIn === false) {
        this.vocabularyLoading = null;
        this.showLogin();
      } else this.start();
    } catch (error) {
      // Offline: open the app shell anyway (it says so); signing in needs the server.
      if (error instanceof OfflineError) {
        this.setOffline(true);
        this.start();
      } else {
        this.vocabularyLoading = null;
        this.showLogin();
      }
    }
  }

  showLogin(message = "") {
    localStorage.removeItem(SIGNED_IN);
    this.firstPage = null; // read before the session was known: not this account's
    $("app").hidden = true;
    $("login-screen").hidden = false;
    const error = $("login-error");
    error.textContent = message;
    error.hidden = !message;
    $("login").elements.name.focus();
  }

  async signIn() {
    const form = $("login");
    const name = form.elements.name.value.trim();
    const password = form.elements.password.value;
    if (!name || !password) {
      this.showLogin("Enter your name and password.");
      return;
    }
    try {
      await api.signIn(name, password);
      form.elements.password.value = "";
      $("session-expired").hidden = true;
      this.start();
    } catch (error) {
      this.showLogin(error instanceof OfflineError ? "You are offline; sign in when the connection returns." : error.message);
    }
  }

  async signOut() {
    try {
      await api.signOut();
    } catch {
      // Signing out of an expired session is still signing out.
    }
    this.live?.stop();
    this.forget();
    this.showLogin();
  }

  /** Drops everything shown for the signed-out account, so the next one never sees it. */
  forget() {
    if (!this.started) return;
    this.detail.reset();
    this.taskList.clear();
    this.batch.toggleMode(false);
    this.lists = [];
    this.sidebar.renderLists([]);
  }

  /** True while signed in; shows the session-expired message when not. */
  async checkSession() {
    try {
      const { data } = await api.session();
      if (data?.signedIn === false) {
        this.sessionExpired();
        return false;
      }
      return true;
    } catch (error) {
      if (error.status === 401) this.sessionExpired();
      else if (error instanceof OfflineError) this.setOffline(true);
      return error.status !== 401;
    }
  }

  sessionExpired() {
    localStorage.removeItem(SIGNED_IN);
    if ($("app").hidden) return;
    this.live?.stop();
    this.forget();
    $("session-expired").hidden = false;
    for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
    this.showLogin();
  }

  // MARK: the app

  async start() {
    $("login-screen").hidden = true;
    $("app").hidden = false;
    if (!this.started) {
      // What the server accepts (smart lists, sorts, priorities, palette, icons, limits) first.
      const loading = this.vocabularyLoading ?? loadVocabulary();
      this.vocabularyLoading = null;
      try {
        showChoices(await loading);
        localStorage.setItem(SIGNED_IN, "1");
      } catch (error) {
        this.onError(error);
        return;
      }
      if (this.started) return; // started meanwhile
      this.started = true;
      this.taskList = new TaskList(this, { firstPage: this.firstPage });
      this.firstPage = null;
      this.sidebar = new Sidebar(this);
      this.detail = new Detail(this);
      this.taskForm = new TaskForm(this);
      this.listForm = new ListForm(this);
      this.quickEntry = new QuickEntry(this);
      this.batch = new Batch(this);
      this.changes = new Changes(this);
      this.wire();
      route.subscribe((state, previous) => this.render(state, previous));
    }
    // The view first, then the lists beside it; the live stream and counts after that.
    this.render(route.current(), null);
    this.reloadLists();
    this.live = new Live(this);
    this.live.start();
    // Statistics, Settings and the alerts are fetched once the first rows are drawn.
    this.taskList.ready.then(() => {
      later.loadWhenIdle();
      later.whenIdle(() => later.zone().then((zone) => zone.adoptBrowserZone()).catch(() => {}));
    });
  }

  wire() {
    setUpToast((change) => this.undo(change));
    $("logout").addEventListener("click", () => this.signOut());
    $("add-list").addEventListener("click", () => this.listForm.open());
    $("new-task").addEventListener("click", () => this.taskForm.open());
    $("back-to-lists").addEventListener("click", () => this.navigate({ view: "", list: "", task: "" }));
    $("undo").addEventListener("click", () => this.undo());
    $("redo").addEventListener("click", () => this.redo());
    $("clear-completed").addEventListener("click", () => this.clearCompleted());
    // Search reads titles and notes; `@tag` then Enter filters by the tag instead.
    $("search").addEventListener("keydown", (event) => {
      const tag = /^[@#]([^\s@#]+)$/.exec(event.target.value.trim());
      if (event.key !== "Enter" || !tag) return;
      event.preventDefault();
      event.target.value = "";
      this.navigate({ q: "", tag: tag[1].toLowerCase() });
    });
    $("search").addEventListener("input", (event) => {
      // The list first, the address bar once it is drawn and the browser is idle.
      this.navigate({ q: event.target.value }, { replace: true, deferURL: true });
      this.taskList.ready.then(() => later.whenIdle(route.writeURL, { timeout: 500 }));
    });
    $("filters-toggle").addEventListener("click", () => {
      const open = $("task-tools").classList.toggle("filters-open");
      $("filters-toggle").setAttribute("aria-expanded", String(open));
    });
    $("status-filter").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-status]");
      if (button) this.navigate({ status: button.dataset.status });
    });
    $("priority-filter").addEventListener("change", (event) => this.navigate({ priority: event.target.value }));
    $("tag-filter").addEventListener("click", () => this.navigate({ tag: "" }));
    $("sort").addEventListener("change", (event) => this.navigate({ sort: event.target.value }));
    $("sidebar").addEventListener("click", (event) => {
      const link = event.target.closest("a.nav-item");
      if (!link || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      if (link.dataset.listId) this.navigate({ list: link.dataset.listId, task: "" });
      else this.navigate({ view: link.dataset.view, list: "", task: "" });
    });
    $("help-close").addEventListener("click", () => $("help-dialog").close());
    enableReorder($("task-scroller"), (id, before) => this.moveTask(id, before));
    enableKeyboard(this);
    // Hover affordances only for a mouse: a finger's tap must not leave them showing.
    document.addEventListener("pointerover", (event) => document.body.classList.toggle("mouse", event.pointerType === "mouse"), { passive: true });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && !$("app").hidden) this.checkSession();
    });
    // Edits typed just before leaving are not lost: saved when the page is hidden, sent
    // with a request that outlives the page when it goes, and the browser asks while any wait.
    document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && this.detail.flush());
    window.addEventListener("pagehide", () => {
      this.detail.saveOnExit();
      this.live?.stop(); // a page kept in the back/forward cache holds no server connection
    });
    window.addEventListener("pageshow", (event) => {
      if (event.persisted && this.started && !$("app").hidden) {
        this.live?.start();
        this.refreshAll();
      }
    });
    window.addEventListener("beforeunload", (event) => {
      if (this.detail.hasPending() || this.detail.saving) event.preventDefault();
    });
    window.addEventListener("online", () => this.setOffline(false));
    window.addEventListener("offline", () => this.setOffline(true));
    if (!navigator.onLine) this.setOffline(true);
  }

  /** Shows `state`; `previous` tells what changed, so only that is reloaded. */
  render(state, previous) {
    // A search keystroke changes only the list: the page around it is left untouched, so
    // the frame after the keystroke has no style or layout of its own to redo before the
    // rows can be drawn.
    const onlySearch = previous && previous.q !== state.q && Object.keys(state).every((key) => key === "q" || previous[key] === state[key]);
    if (onlySearch) {
      if ($("search").value !== state.q) $("search").value = state.q;
      if (route.effectiveView(state) !== "stats" && route.effectiveView(state) !== "settings") {
        if (this.batch.active) this.batch.toggleMode(false); // never act on rows out of sight
        this.taskList.show(state);
      }
      return;
    }
    const view = route.effectiveView(state);
    document.body.dataset.screen = state.task ? "detail" : state.view || state.list ? "tasks" : "home";
    this.sidebar.highlight(state);
    const title = state.list ? this.lists.find((l) => l.id === state.list)?.name || "List" : smartLists().find((s) => s.view === view)?.name || (view === "stats" ? "Statistics" : view === "settings" ? "Settings" : "All Tasks");
    $("view-title").textContent = title;
    document.title = `${title} — Slate`;
    if ($("search").value !== state.q) $("search").value = state.q;
    $("priority-filter").value = state.priority;
    $("tag-filter").hidden = !state.tag;
    $("tag-filter").textContent = state.tag ? `@${state.tag} ✕` : "";
    $("tag-filter").setAttribute("aria-label", `Tagged ${state.tag}; remove this filter`);
    $("sort").value = state.sort;
    document.querySelectorAll("#status-filter button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.status === state.status)));
    // How many filters differ from the defaults, on the phone's folded Filters button.
    const active = [state.status !== "all", !!state.priority, state.sort !== "default"].filter(Boolean).length;
    if (active) $("filters-toggle").dataset.active = String(active);
    else delete $("filters-toggle").dataset.active;
    $("filters-toggle").setAttribute("aria-label", active ? `Filters, ${active} set` : "Filters");
    const stats = view === "stats";
    const settings = view === "settings";
    $("stats").hidden = !stats;
    $("settings").hidden = !settings;
    $("task-scroller").hidden = stats || settings;
    $("task-tools").hidden = stats || settings;
    $("quick-entry-form").hidden = stats || settings;
    // No rows to select on these pages: no Select, and no batch bar left open from a list.
    $("select-mode").hidden = stats || settings;
    if ((stats || settings) && this.batch.active) this.batch.toggleMode(false);
    if (stats) {
      this.showStats();
    } else if (settings) {
      if (previous?.view !== "settings") later.settings().then(({ showSettings }) => showSettings($("settings"))).catch((error) => this.onError(error));
    } else {
      const same = previous && ["view", "list", "q", "status", "priority", "tag", "sort"].every((k) => previous[k] === state[k]);
      if (!same) {
        if (this.batch.active) this.batch.toggleMode(false); // never act on rows out of sight
        this.taskList.show(state);
      }
    }
    if (state.task) this.detail.open(state.task);
    else if (this.detail.task) this.detail.close();
  }

  /** Draws (or redraws) Statistics, loading its module the first time. */
  showStats() {
    later.stats().then(({ showStats }) => showStats($("stats"))).catch((error) => this.onError(error));
  }

  navigate(changes, options) {
    route.navigate(changes, options);
  }

  state() {
    return route.current();
  }

  currentView() {
    return route.effectiveView(route.current());
  }

  currentListId() {
    return route.current().list || null;
  }

  close() {
    if (route.current().task) this.navigate({ task: "" });
    else this.detail.close();
  }

  async reloadLists() {
    try {
      // Asked for beside the view's first page, drawn after it: the rows come first.
      const reading = api.lists();
      reading.catch(() => {}); // handled below
      await this.taskList.ready;
      const { data } = await reading;
      this.lists = data.lists;
      this.listsShown();
      this.sidebar.refreshCounts();
    } catch (error) {
      this.onError(error);
    }
  }

  /** Draws `this.lists` wherever lists appear, and leaves a list that is gone. */
  listsShown() {
    this.sidebar.renderLists(this.lists);
    this.detail.listsChanged();
    this.taskForm.listsChanged();
    const state = route.current();
    if (state.list) {
      const list = this.lists.find((l) => l.id === state.list);
      if (!list) {
        // The list was deleted (elsewhere, or just now): leave it.
        this.navigate({ view: "all", list: "", task: "" }, { replace: true });
        this.toast("That list no longer exists; showing All Tasks.");
      } else $("view-title").textContent = list.name;
    }
    this.taskList.recolor((id) => this.lists.find((l) => l.id === id)?.color);
  }

  /** Everything on screen again (after a live change or an undo). */
  refreshAll() {
    this.reloadLists();
    const state = route.current();
    if (route.effectiveView(state) === "stats") this.showStats();
    else if (route.effectiveView(state) !== "settings") this.taskList.refresh();
  }

  // MARK: actions on tasks

  async toggle(task) {
    const data = await this.patchRow(task, { isCompleted: !task.isCompleted }, { isOverdue: false });
    if (data?.isCompleted && task.recurrence) this.toast(`Completed “${task.title}”; the next one is scheduled.`);
  }

  flag(task) {
    return this.patchRow(task, { isFlagged: !task.isFlagged });
  }

  /** Shows `changes` on the row at once, saves them, and puts the row back if refused. */
  async patchRow(task, changes, shown = {}) {
    this.taskList.update({ ...task, ...changes, ...shown });
    try {
      const { data, etag } = await api.updateTask(task.id, changes);
      this.taskList.place(data, task);
      this.detail.adopt(data, etag);
      return data;
    } catch (error) {
      this.taskList.update(task);
      this.onError(error);
      return null;
    }
  }

  async remove(task) {
    // Waiting edits go first, so the toast's Undo undoes this delete and nothing else.
    if (this.detail.task && this.detail.task.id !== task.id) await this.detail.flush();
    this.taskList.remove(task.id);
    if (this.detail.task?.id === task.id) {
      this.detail.reset(); // its waiting edits go with it
      if (route.current().task === task.id) this.navigate({ task: "" });
    }
    try {
      const { change } = await api.deleteTask(task.id);
      this.toast(`Deleted “${task.title}”`, { undoable: true, change });
    } catch (error) {
      this.onError(error);
      this.refreshAll();
    }
  }

  async moveTask(id, before) {
    if (before === null && this.taskList.active.more) {
      // Below the last loaded row are more tasks: "the end" is not where the user dropped it.
      this.toast("Scroll to the end of the list to move a task to the bottom.");
      this.taskList.refresh();
      return;
    }
    this.taskList.moved(id, before); // the row is where it was dropped; the view's order follows
    try {
      await api.batch("move", [id], { before });
    } catch (error) {
      this.onError(error);
      this.refreshAll();
    }
  }

  async clearCompleted() {
    try {
      const { data, change } = await api.clearCompleted(this.currentListId());
      const count = data.deleted;
      this.toast(`Cleared ${count} completed ${count === 1 ? "task" : "tasks"}`, { undoable: count > 0, change });
      this.refreshAll();
    } catch (error) {
      this.onError(error);
    }
  }

  /** Undoes `change` (a toast's: that change, whatever happened since), else the latest. */
  undo(change = null) {
    return this.stepHistory(() => api.undo(change), "undone", "Undone", "Nothing to undo");
  }

  redo() {
    return this.stepHistory(api.redo, "redone", "Redone", "Nothing to redo");
  }

  /** Undo or redo: says what it reverted (the server's label for the change), then redraws. */
  async stepHistory(send, key, verb, nothing) {
    try {
      const { data } = await send();
      this.toast(data[key] ? `${verb}: ${data[key]}` : nothing);
      this.refreshAll();
    } catch (error) {
      this.onError(error);
    }
  }

  editList(list) {
    this.listForm.open(list);
  }

  async editTask(task) {
    if (this.detail.task?.id === task.id) await this.detail.flush(); // the form starts from what was typed
    this.taskForm.open(task);
  }

  /** A task this client created or changed: show it now, without waiting for the event. */
  /** `etag`: the answer's, so an open detail takes this version without reading it. */
  taskChanged(task, { created = false, etag = null } = {}) {
    this.taskList.place(task);
    if (created) {
      this.taskList.select(task.id);
      // A task this view cannot show (undated in Overdue, open in Completed, another
      // priority) would seem lost: the toast says where it went.
      const where = task.list ? `the list “${task.list}”` : "the Inbox";
      this.toast(this.taskList.shows(task) ? `Added “${task.title}”` : `Added “${task.title}” to ${where}; this view does not show it.`);
    } else this.detail.adopt(task, etag);
  }

  toast(message, options) {
    showToast(message, options);
  }

  onError(error, { quiet = false } = {}) {
    if (error instanceof OfflineError) {
      this.setOffline(true);
      return;
    }
    if (error.status === 401) return; // handled by sessionExpired
    console.warn("Slate:", error.message);
    if (!quiet) showToast(error.message);
  }

  setOffline(offline) {
    const wasOffline = document.body.classList.contains("offline");
    $("offline-banner").hidden = !offline;
    document.body.classList.toggle("offline", offline);
    if (wasOffline && !offline && this.started && !$("app").hidden) {
      this.detail.flush();
      this.live?.reconnect();
      this.refreshAll();
    }
  }

  registerServiceWorker() {
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.register("/sw.js").catch((error) => console.warn("Slate: no service worker:", error.message));
    }
  }
}

const app = new App();
window.slate = app; // for the browser tests and the console
app.boot();
