// The selected view's tasks: Active and Completed sections, loaded a page at a time as the
// user scrolls (so 10,000 tasks stay smooth), kept current by live events.
import { api } from "./api.js";
import { closeSwipe, signature, taskRow } from "./rows.js";
import { effectiveView } from "./state.js";

const FIRST_PAGE = 60;
const PAGE = 100;
const SMART = ["all", "inbox", "today", "scheduled", "flagged", "overdue", "completed"];

/** One section (Active or Completed): its rows, its cursor, and whether it has more. */
class Section {
  constructor(node, status) {
    this.node = node;
    this.status = status;
    this.list = node.querySelector("ul");
    this.count = node.querySelector(".section-count");
    this.rows = new Map();
    this.cursor = null;
    this.total = 0;
    this.enabled = true;
  }

  /** No more pages. A cursor of "" means the section has rows but none loaded yet. */
  get done() {
    return this.cursor === null;
  }
}

export class TaskList {
  /** `app` gives `lists` (by id), `actions`, `onError(error)`. */
  constructor(app) {
    this.app = app;
    this.active = new Section(document.getElementById("active-section"), "active");
    this.completed = new Section(document.getElementById("completed-section"), "completed");
    this.empty = document.querySelector("#task-scroller .empty-state");
    this.sentinel = document.getElementById("load-more");
    this.generation = 0;
    this.state = null;
    this.loading = false;
    this.selectedId = null;
    this.ready = Promise.resolve();
    this.observer = new IntersectionObserver(() => this.loadMoreIfNeeded(), {
      root: document.getElementById("task-scroller"),
      rootMargin: "600px",
    });
    this.observer.observe(this.sentinel);
  }

  /** The query for a section of the current view. */
  params(state, section) {
    const view = effectiveView(state);
    const params = { status: section.status, sort: state.sort === "default" ? undefined : state.sort };
    if (state.list) params.list = state.list;
    else if (SMART.includes(view) && view !== "all" && view !== "completed") params.scope = view;
    if (state.q) params.search = state.q;
    if (state.priority) params.priority = state.priority;
    if (state.tag) params.tag = state.tag;
    return params;
  }

  /** Shows `state`'s view from its first page. */
  async show(state) {
    this.state = state;
    const view = effectiveView(state);
    this.active.enabled = state.status !== "completed" && view !== "completed";
    this.completed.enabled = state.status !== "active";
    const generation = ++this.generation;
    this.abort?.abort();
    this.abort = new AbortController();
    const signal = this.abort.signal;
    let done;
    this.ready = new Promise((resolve) => (done = resolve));
    try {
      // Active first; Completed sits below it, so while Active has more pages only its
      // count is read, and its rows load when the user scrolls down to it.
      // Both at once: Completed's first page too when Active is known to fit on one page
      // (a list's active count is an upper bound for any filter of it), else its count.
      const known = this.app.activeCountFor(state);
      const completedLimit = !this.active.enabled || (known !== null && known <= FIRST_PAGE) ? PAGE : 1;
      const fetch = (section, limit) => (section.enabled ? api.tasks({ ...this.params(state, section), limit }, signal).then((r) => r.data) : null);
      const [active, first] = await Promise.all([fetch(this.active, FIRST_PAGE), fetch(this.completed, completedLimit)]);
      if (generation !== this.generation) return;
      this.replace(this.active, active);
      let completed = first;
      if (completed && active && active.nextCursor !== null) completed = { ...completed, tasks: [], nextCursor: "" };
      else if (completed && completedLimit === 1 && completed.total > 0) completed = await fetch(this.completed, PAGE);
      if (generation !== this.generation) return;
      this.replace(this.completed, completed);
      this.afterRender();
    } catch (error) {
      if (error.name !== "AbortError") this.app.onError(error);
    } finally {
      done();
    }
  }

  /** Re-reads what is loaded (after a live change), keeping rows that did not change. */
  async refresh() {
    if (!this.state) return;
    const generation = this.generation;
    const sequence = (this.refreshes = (this.refreshes || 0) + 1);
    const sections = [this.active, this.completed];
    try {
      const pages = await Promise.all(
        sections.map((section) => {
          if (!section.enabled) return null;
          if (section.cursor === "" && section.rows.size === 0) {
            return api.tasks({ ...this.params(this.state, section), limit: 1 }).then((r) => ({ ...r.data, tasks: [], nextCursor: "" }));
          }
          const limit = Math.min(1000, Math.max(FIRST_PAGE, section.rows.size));
          return api.tasks({ ...this.params(this.state, section), limit }).then((r) => r.data);
        }),
      );
      // A newer view or a newer refresh wins over this one.
      if (generation !== this.generation || sequence !== this.refreshes) return;
      sections.forEach((section, index) => this.replace(section, pages[index]));
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
    for (const section of [this.active, this.completed]) {
      section.rows.clear();
      section.list.replaceChildren();
      section.cursor = null;
      section.total = 0;
    }
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
      section.rows.clear();
      section.list.replaceChildren();
      section.cursor = null;
      section.total = 0;
      return;
    }
    const rows = new Map();
    const nodes = page.tasks.map((task) => {
      const existing = section.rows.get(task.id);
      let row;
      if (existing && existing.signature === signature(task)) {
        row = existing;
        row.task = task;
      } else {
        row = taskRow(task, this.app.actions);
        if (existing && existing.classList.contains("selected")) row.classList.add("selected");
      }
      rows.set(task.id, row);
      return row;
    });
    // Only touch the DOM where the order or the rows changed.
    const current = [...section.list.children];
    if (current.length !== nodes.length || current.some((node, index) => node !== nodes[index])) {
      section.list.replaceChildren(...nodes);
    }
    section.rows = rows;
    section.cursor = page.nextCursor;
    section.total = page.total;
  }

  /** Appends the next page of the first section that has more. */
  async loadMoreIfNeeded() {
    if (this.loading || !this.state) return;
    const section = [this.active, this.completed].find((s) => s.enabled && !s.done);
    if (!section) return;
    const rect = this.sentinel.getBoundingClientRect();
    const scroller = document.getElementById("task-scroller").getBoundingClientRect();
    if (rect.top > scroller.bottom + 600) return;
    this.loading = true;
    const generation = this.generation;
    try {
      const { data } = await api.tasks({ ...this.params(this.state, section), limit: PAGE, cursor: section.cursor || undefined });
      if (generation !== this.generation) return;
      const fragment = document.createDocumentFragment();
      for (const task of data.tasks) {
        if (section.rows.has(task.id)) continue;
        const row = taskRow(task, this.app.actions);
        section.rows.set(task.id, row);
        fragment.append(row);
      }
      section.list.append(fragment);
      section.cursor = data.nextCursor;
      section.total = data.total;
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
    for (const section of [this.active, this.completed]) {
      section.count.textContent = section.enabled ? String(section.total) : "";
      section.node.hidden = !section.enabled || (section.total === 0 && this.hasAny());
    }
    // In a pure Completed view the Active section is meaningless, and vice versa.
    const total = (this.active.enabled ? this.active.total : 0) + (this.completed.enabled ? this.completed.total : 0);
    this.empty.hidden = total > 0;
    if (total === 0) {
      this.active.node.hidden = true;
      this.completed.node.hidden = true;
      this.empty.textContent = state.q
        ? `No tasks match “${state.q}”.`
        : state.tag
        ? `No tasks tagged @${state.tag} here.`
        : "No tasks here — add one with the field above, or press n.";
    }
    document.getElementById("clear-completed").hidden = this.completed.total === 0;
    document.getElementById("tasks").classList.toggle("manual-sort", state.sort === "manual");
    if (this.selectedId) this.select(this.selectedId, { scroll: false });
    this.app.batch?.restore();
  }

  hasAny() {
    return this.active.total + this.completed.total > 0;
  }

  /** Every row on screen, in order. */
  rows() {
    return [...document.querySelectorAll("#task-scroller .task-section:not([hidden]) li.task-row")];
  }

  row(id) {
    return this.active.rows.get(id) || this.completed.rows.get(id) || null;
  }

  /** Updates one task's row in place (an optimistic change, or the server's answer). */
  update(task) {
    for (const section of [this.active, this.completed]) {
      const existing = section.rows.get(task.id);
      if (!existing) continue;
      if (existing.signature === signature(task)) {
        existing.task = task;
        continue;
      }
      const row = taskRow(task, this.app.actions);
      if (existing.classList.contains("selected")) row.classList.add("selected");
      closeSwipe(existing);
      existing.replaceWith(row);
      section.rows.set(task.id, row);
    }
  }

  /** Removes a task's row at once (before the server confirms). */
  remove(id) {
    for (const section of [this.active, this.completed]) {
      const row = section.rows.get(id);
      if (!row) continue;
      row.remove();
      section.rows.delete(id);
      section.total = Math.max(0, section.total - 1);
    }
    this.afterRender();
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
