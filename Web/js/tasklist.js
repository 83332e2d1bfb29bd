// The selected view's tasks: Active and Completed sections, loaded a page at a time as the
// user scrolls (so 10,000 tasks stay smooth), kept current by live events.
import { api, request } from "./api.js";
import { isCollapsed, setCollapsed } from "./nesting.js";
import { compareForInsert, couldShow, placement } from "./placement.js";
import { Section } from "./section.js";
import { effectiveView } from "./state.js";

const FIRST_PAGE = 30; // a tall screen's worth; more arrive as the user scrolls
const PAGE = 100;
const MAX_PAGE = 500; // the API's largest page
const SMART = ["all", "inbox", "today", "scheduled", "flagged", "overdue", "completed"];

/** The query of `state`'s view for `status` (all, active or completed). */
function viewQuery(state, status) {
  const view = effectiveView(state);
  const params = { status, sort: state.sort === "default" ? undefined : state.sort };
  if (state.list) params.list = state.list;
  else if (SMART.includes(view) && view !== "all" && view !== "completed") params.scope = view;
  if (state.q) params.search = state.q;
  if (state.priority) params.priority = state.priority;
  if (state.tag) params.tag = state.tag;
  return params;
}

/**
 * The query of one page of `state`'s view. A first page of every status asks for the
 * Active count beside the total (`counts=active`: the server counts both in one query),
 * so the Active heading needs no second request.
 */
function pageQuery(state, status, limit, cursor) {
  const counts = status === "all" && !cursor ? "active" : undefined;
  return { ...viewQuery(state, status), limit, cursor: cursor || undefined, counts };
}

/** True when `state`'s view shows the Active section. */
function showsActive(state) {
  return state.status !== "completed" && effectiveView(state) !== "completed";
}

/** True when `state`'s view shows the Completed section. */
function showsCompleted(state) {
  return state.status !== "active";
}

/** True when `state`'s view is read in one query of every status (see TaskList). */
function readsCombined(state) {
  return state.sort === "default" && showsActive(state) && showsCompleted(state);
}

/**
 * Starts reading the first page of `state`'s view before the app is built (beside the
 * session check, when this browser was signed in), so the first rows need no round trip
 * of their own. `TaskList.show` takes it for the same query. Null for Statistics and
 * Settings, and for a view read in two queries. A 401 here raises no session event: the
 * session check answers that.
 */
export function readFirstPage(state) {
  const view = effectiveView(state);
  if (view === "stats" || view === "settings" || !readsCombined(state)) return null;
  const query = pageQuery(state, "all", FIRST_PAGE, null);
  const response = request("GET", "/tasks", { query, quiet401: true });
  response.catch(() => {}); // awaited by show(), or dropped when signed out
  return { key: JSON.stringify(query), response };
}

/**
 * How a view is read. In the default order, incomplete tasks come first, so one query of
 * every status feeds both sections: its rows are split by completion (one request per
 * view, which is what makes switching and searching fast). Other orders read the two
 * sections separately: Active first, then Completed's count, and its rows once Active is
 * all there.
 */
export class TaskList {
  /**
   * `app` gives `actions` (for the rows) and `onError(error)`; `firstPage`, when given, is
   * `readFirstPage`'s early read, taken by the first `show` if it asks for the same query.
   */
  constructor(app, { firstPage = null } = {}) {
    this.app = app;
    this.firstPage = firstPage;
    this.active = new Section(document.getElementById("active-section"), "active", app.actions);
    this.completed = new Section(document.getElementById("completed-section"), "completed", app.actions);
    this.empty = document.querySelector("#task-scroller .empty-state");
    this.sentinel = document.getElementById("load-more");
    this.generation = 0;
    this.refreshes = 0;
    this.state = null;
    this.feed = null; // combined mode: {cursor, total, crossed}
    this.loading = false;
    this.selectedId = null;
    this.ready = Promise.resolve();
    this.observer = new IntersectionObserver(() => this.loadMoreIfNeeded(), {
      root: document.getElementById("task-scroller"),
      rootMargin: "600px",
    });
    this.observer.observe(this.sentinel);
  }

  /** The query of the current view for `status` (all, active or completed). */
  params(state, status) {
    return viewQuery(state, status);
  }

  get combined() {
    return readsCombined(this.state);
  }

  async get(status, limit, cursor, signal) {
    const query = pageQuery(this.state, status, limit, cursor);
    const early = this.firstPage;
    this.firstPage = null; // only the first read can use it
    if (early && !cursor && early.key === JSON.stringify(query)) {
      try {
        return (await early.response).data;
      } catch (error) {
        // Asked before the session was known, it stays quiet on 401: a session that ended
        // in between is reported by asking again.
        if (error.status !== 401) throw error;
      }
    }
    return (await api.tasks(query, signal)).data;
  }

  /** Shows `state`'s view from its first page. */
  async show(state) {
    this.state = state;
    this.active.enabled = showsActive(state);
    this.completed.enabled = showsCompleted(state);
    const generation = ++this.generation;
    this.abort?.abort();
    this.abort = new AbortController();
    const signal = this.abort.signal;
    let done;
    this.ready = new Promise((resolve) => (done = resolve));
    try {
      if (this.combined) {
        const page = await this.get("all", FIRST_PAGE, null, signal);
        if (generation !== this.generation) return;
        this.feed = { cursor: null, total: 0, crossed: false };
        this.active.total = page.activeTotal ?? null;
        this.applyFeed(page, { append: false });
      } else {
        this.feed = null;
        const active = this.active.enabled ? await this.get("active", FIRST_PAGE, null, signal) : null;
        if (generation !== this.generation) return;
        this.replace(this.active, active);
        if (!this.completed.enabled) this.replace(this.completed, null);
        else this.completed.reset(); // its count and rows follow
        this.afterRender();
        if (this.completed.enabled) {
          const allActive = !active || active.nextCursor === null;
          let completed = await this.get("completed", allActive ? PAGE : 1, null, signal);
          if (allActive === false) completed = { ...completed, tasks: [], nextCursor: completed.total ? "" : null };
          if (generation !== this.generation) return;
          this.replace(this.completed, completed);
        }
      }
      this.afterRender();
      this.countActiveIfUnknown(generation);
    } catch (error) {
      if (error.name !== "AbortError") this.app.onError(error);
    } finally {
      done();
    }
  }

  /**
   * Puts a page of the combined query into the sections. Until a completed task (or the
   * end) has been seen, Active may have more rows: its count is the page's `activeTotal`
   * (set by the caller), or read separately when the page has none.
   */
  applyFeed(page, { append }) {
    const active = page.tasks.filter((task) => !task.isCompleted);
    const completed = page.tasks.filter((task) => task.isCompleted);
    if (append) {
      this.active.append(active);
      this.completed.append(completed);
    } else {
      this.feed.crossed = false;
      const activeTotal = this.active.total;
      this.replace(this.active, { tasks: active });
      this.replace(this.completed, { tasks: completed });
      this.active.total = activeTotal;
    }
    this.feed.cursor = page.nextCursor;
    this.feed.total = page.total;
    if (completed.length || page.nextCursor === null) this.feed.crossed = true;
    this.active.more = !this.feed.crossed;
    this.completed.more = page.nextCursor !== null;
    if (this.feed.crossed) this.active.total = this.active.rows.size;
    this.completed.total = this.active.total === null ? null : page.total - this.active.total;
  }

  /**
   * Reads Active's count when the combined query has not reached its end yet and its first
   * page did not carry the count.
   */
  async countActiveIfUnknown(generation) {
    if (!this.feed || this.feed.crossed || this.active.total !== null) return;
    try {
      const { total } = await this.get("active", 1);
      if (generation !== this.generation || !this.feed) return;
      this.active.total = total;
      this.completed.total = this.feed.total - total;
      this.afterRender();
    } catch (error) {
      this.app.onError(error);
    }
  }

  /**
   * Re-reads what is loaded (after a live change), keeping rows that did not change.
   * `activeTotal`, when the caller knows it (the counts), saves reading it.
   */
  async refresh({ activeTotal } = {}) {
    if (!this.state) return;
    const generation = this.generation;
    const sequence = ++this.refreshes;
    const current = () => generation === this.generation && sequence === this.refreshes; // newer wins
    try {
      if (this.feed) {
        const loaded = this.active.rows.size + this.completed.rows.size;
        const page = await this.get("all", Math.min(MAX_PAGE, Math.max(FIRST_PAGE, loaded)));
        if (!current()) return;
        const crossed = page.nextCursor === null || page.tasks.some((task) => task.isCompleted);
        const total = crossed ? null : page.activeTotal ?? activeTotal ?? (await this.get("active", 1)).total;
        if (!current()) return;
        this.active.total = total;
        this.applyFeed(page, { append: false });
      } else {
        const pages = await Promise.all(
          [this.active, this.completed].map((section) => {
            if (!section.enabled) return null;
            if (section.cursor === "" && section.rows.size === 0) {
              return this.get(section.status, 1).then((page) => ({ ...page, tasks: [], nextCursor: page.total ? "" : null }));
            }
            return this.get(section.status, Math.min(MAX_PAGE, Math.max(FIRST_PAGE, section.rows.size)));
          }),
        );
        if (!current()) return;
        this.replace(this.active, pages[0]);
        this.replace(this.completed, pages[1]);
      }
      this.afterRender();
    } catch (error) {
      this.app.onError(error);
    }
  }

  /** Empties both sections (signing out). */
  clear() {
    this.generation++;
    this.abort?.abort();
    this.state = null;
    this.feed = null;
    this.active.reset();
    this.completed.reset();
  }

  /** Paints each row's list dot with its list's colour (lists load beside the rows). */
  recolor(colorOf) {
    for (const section of [this.active, this.completed]) {
      for (const row of section.rows.values()) {
        const dot = row.querySelector(".list-dot");
        if (dot) dot.style.backgroundColor = colorOf(row.task.listId) || "transparent";
      }
    }
  }

  /** Puts a page's tasks into a section, reusing unchanged rows. */
  replace(section, page) {
    section.node.hidden = !section.enabled;
    if (!page) {
      section.reset();
      section.total = 0;
      return;
    }
    section.show(page.tasks);
    if ("nextCursor" in page) {
      section.cursor = page.nextCursor;
      section.more = page.nextCursor !== null;
      section.total = page.total;
    }
  }

  /** Task `id` was dropped before task `before` (null: at the end of its section). */
  moved(id, before) {
    this.active.moved(id, before);
    this.completed.moved(id, before);
  }

  /** Folds or unfolds the subtasks under task `id`. */
  toggleSubtasks(id) {
    setCollapsed(id, !isCollapsed(id));
    this.active.arrange();
    this.completed.arrange();
  }

  /**
   * Applies live changes made elsewhere to the rows on screen: a deleted task's row goes,
   * a changed task's row is redrawn where it is. Returns false when a change may move a
   * task into, out of or within the view: then the caller reads the view again.
   */
  applyChanges(tasks, deletedIds) {
    if (!this.state) return true;
    let settled = true;
    for (const id of deletedIds) this.removeRow(id);
    const sections = { active: this.active.enabled, completed: this.completed.enabled };
    for (const task of tasks) {
      const row = this.row(task.id);
      const fits = couldShow(task, this.state, sections);
      if (row && !fits) this.removeRow(task.id);
      else if (row && placement(row.task, this.state) === placement(task, this.state)) this.update(task);
      else if (fits) settled = false;
    }
    this.afterRender();
    return settled;
  }

  /**
   * Shows a task this tab created or changed (its answer is the task: nothing is read):
   * redrawn in place, or moved where the view's order puts it among the loaded rows, or
   * removed when it left the view. `before`: the task as it was placed (when the row shows
   * an optimistic change).
   */
  place(task, before = null) {
    if (!this.state) return;
    const row = this.row(task.id);
    const fits = this.shows(task);
    if (row && fits && placement(before || row.task, this.state) === placement(task, this.state)) return this.update(task);
    if (row) this.removeRow(task.id);
    if (fits) this.insert(task);
    else this.afterRender();
  }

  /** True when `task` may be in the view on screen (false: certainly not, e.g. undated in Overdue). */
  shows(task) {
    return !!this.state && couldShow(task, this.state, { active: this.active.enabled, completed: this.completed.enabled });
  }

  /** Inserts a row where the view's order puts it among the loaded ones. */
  insert(task) {
    const section = task.isCompleted ? this.completed : this.active;
    const index = [...section.rows.values()].findIndex((row) => compareForInsert(task, row.task, this.state.sort) < 0);
    section.insert(task, index);
    if (this.feed) this.feed.total++;
    this.afterRender();
  }

  /** Loads the next page when the end of what is loaded comes near the screen. */
  async loadMoreIfNeeded() {
    if (this.loading || !this.state) return;
    const section = [this.active, this.completed].find((s) => s.enabled && s.more);
    if (!section) return;
    const rect = this.sentinel.getBoundingClientRect();
    const scroller = document.getElementById("task-scroller").getBoundingClientRect();
    if (rect.top > scroller.bottom + 600) return;
    this.loading = true;
    const generation = this.generation;
    try {
      if (this.feed) {
        const page = await this.get("all", PAGE, this.feed.cursor);
        if (generation !== this.generation) return;
        this.applyFeed(page, { append: true });
      } else {
        const page = await this.get(section.status, PAGE, section.cursor);
        if (generation !== this.generation) return;
        section.append(page.tasks);
        section.cursor = page.nextCursor;
        section.more = page.nextCursor !== null;
        section.total = page.total;
      }
      this.afterRender();
    } catch (error) {
      this.app.onError(error);
    } finally {
      this.loading = false;
    }
    // The page may still not fill the screen.
    requestAnimationFrame(() => this.loadMoreIfNeeded());
  }

  afterRender() {
    const state = this.state;
    if (!state) return;
    const shown = (section) => (section.enabled ? section.total ?? section.rows.size : 0);
    // Known to be empty: both totals read (or one of them, for a one-section view).
    const total = this.feed ? this.feed.total : shown(this.active) + shown(this.completed);
    const settled = this.feed || [this.active, this.completed].every((s) => !s.enabled || s.total !== null);
    for (const section of [this.active, this.completed]) {
      section.count.textContent = section.enabled && section.total !== null ? String(section.total) : "";
      section.node.hidden = !section.enabled || (section.rows.size === 0 && !section.more && (section.total === 0 || section.total === null) && total > 0);
    }
    this.empty.hidden = !(settled && total === 0);
    if (settled && total === 0) {
      this.active.node.hidden = true;
      this.completed.node.hidden = true;
      this.empty.textContent = state.q
        ? /^[@#][^\s@#]+$/.test(state.q)
          ? `No tasks match “${state.q}” in their titles or notes. Press Enter to show the tasks tagged @${state.q.slice(1).toLowerCase()}.`
          : `No tasks match “${state.q}”.`
        : state.tag
        ? `No tasks tagged @${state.tag} here.`
        : state.view === "completed" || state.status === "completed"
        ? "Nothing completed yet: tasks you complete show here."
        : "No tasks here — add one with the field above, or press n.";
    }
    document.getElementById("clear-completed").hidden = !this.completed.total;
    document.getElementById("tasks").classList.toggle("manual-sort", state.sort === "manual");
    if (this.selectedId) this.select(this.selectedId, { scroll: false });
    this.app.batch?.restore();
  }

  /** Every row on screen, in order. */
  rows() {
    return [...document.querySelectorAll("#task-scroller .task-section:not([hidden]) li.task-row:not([hidden])")];
  }

  row(id) {
    return this.active.rows.get(id) || this.completed.rows.get(id) || null;
  }

  /** Updates one task's row in place (an optimistic change, or the server's answer). */
  update(task) {
    this.active.update(task);
    this.completed.update(task);
  }

  /** Removes a task's row at once (before the server confirms). */
  remove(id) {
    this.removeRow(id);
    this.afterRender();
  }

  removeRow(id) {
    for (const section of [this.active, this.completed]) {
      if (section.remove(id) && this.feed) this.feed.total = Math.max(0, this.feed.total - 1);
    }
  }

  /** Marks one row as selected (j/k); `scroll` brings it into view. */
  select(id, { scroll = true } = {}) {
    document.querySelectorAll("li.task-row.selected").forEach((row) => row.classList.remove("selected"));
    this.selectedId = id;
    const row = id && this.row(id);
    if (!row) return null;
    row.classList.add("selected");
    if (scroll) row.scrollIntoView({ block: "nearest" });
    return row;
  }

  /** Moves the selection by `delta` rows. */
  move(delta) {
    const rows = this.rows();
    if (!rows.length) return;
    const index = rows.findIndex((row) => row.dataset.id === this.selectedId);
    const next = index === -1 ? (delta > 0 ? 0 : rows.length - 1) : Math.max(0, Math.min(rows.length - 1, index + delta));
    this.select(rows[next].dataset.id);
    rows[next].focus({ preventScroll: true });
  }

  selectedTask() {
    return this.selectedId ? this.row(this.selectedId)?.task || null : null;
  }
}
