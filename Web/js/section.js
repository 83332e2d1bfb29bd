// One section of the task list (Active or Completed): its rows in the view's order, drawn
// in tree order (subtasks under their parent), with its total and whether it has more.
import { nestRows } from "./nesting.js";
import { closeSwipe, signature, taskRow } from "./rows.js";

export class Section {
  /** `node`: the section element; `status`: active or completed; `actions`: the rows'. */
  constructor(node, status, actions) {
    this.node = node;
    this.status = status;
    this.actions = actions;
    this.list = node.querySelector("ul");
    this.count = node.querySelector(".section-count");
    this.rows = new Map(); // by id, in the view's order
    this.cursor = null; // its own next page (separate mode); "" = none loaded yet
    this.total = null; // null while unknown
    this.more = false;
    this.enabled = true;
  }

  reset() {
    this.rows.clear();
    this.list.replaceChildren();
    this.cursor = null;
    this.total = null;
    this.more = false;
  }

  /** Shows `tasks` (a page, in the view's order), reusing the rows that did not change. */
  show(tasks) {
    const rows = new Map();
    for (const task of tasks) {
      const existing = this.rows.get(task.id);
      let row;
      if (existing && existing.signature === signature(task)) {
        row = existing;
        row.task = task;
      } else {
        row = taskRow(task, this.actions);
        if (existing && existing.classList.contains("selected")) row.classList.add("selected");
      }
      rows.set(task.id, row);
    }
    this.rows = rows;
    this.arrange();
  }

  /** Adds rows at the end. */
  append(tasks) {
    for (const task of tasks) {
      if (!this.rows.has(task.id)) this.rows.set(task.id, taskRow(task, this.actions));
    }
    this.arrange();
  }

  /** Puts the rows on screen in tree order, touching the DOM only where the order changed. */
  arrange() {
    const ordered = nestRows([...this.rows.values()]);
    const current = this.list.children;
    if (current.length !== ordered.length || ordered.some((node, index) => current[index] !== node)) {
      this.list.replaceChildren(...ordered);
    }
  }

  /** Redraws task's row, if shown here (an optimistic change, or the server's answer). */
  update(task) {
    const existing = this.rows.get(task.id);
    if (!existing) return;
    if (existing.signature === signature(task)) {
      existing.task = task;
      return;
    }
    const row = taskRow(task, this.actions);
    if (existing.classList.contains("selected")) row.classList.add("selected");
    closeSwipe(existing);
    existing.replaceWith(row);
    this.rows.set(task.id, row);
    this.arrange();
  }

  /** Removes task `id`'s row; true when it was here. */
  remove(id) {
    const row = this.rows.get(id);
    if (!row) return false;
    row.remove();
    this.rows.delete(id);
    if (this.total !== null) this.total = Math.max(0, this.total - 1);
    this.arrange();
    return true;
  }

  /**
   * Puts `task` at `index` of the view's order (-1: the end) — or, when that is past the
   * loaded rows and more are to come, only counts it (it shows when scrolled to).
   * True when a row was added.
   */
  insert(task, index) {
    if (this.total !== null) this.total++;
    if (index === -1 && this.more) return false;
    const rows = [...this.rows.values()];
    rows.splice(index === -1 ? rows.length : index, 0, taskRow(task, this.actions));
    this.rows = new Map(rows.map((row) => [row.dataset.id, row]));
    this.arrange();
    return true;
  }

  /** Task `id` was dropped before task `before` (null: at the end). */
  moved(id, before) {
    const row = this.rows.get(id);
    if (!row) return;
    const rows = [...this.rows.values()].filter((r) => r !== row);
    const index = before ? rows.findIndex((r) => r.dataset.id === before) : -1;
    rows.splice(index === -1 ? rows.length : index, 0, row);
    this.rows = new Map(rows.map((r) => [r.dataset.id, r]));
    this.arrange();
  }
}
