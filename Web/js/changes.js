// Live changes applied to the screen (live.js decides whose they are): this tab's own change
// reads only the counts (its answer already had the task); a change made elsewhere is read
// with one GET /changes?counts=true and applied in place, the view being read again only
// when a task may have moved into, out of or within it.
import { api } from "./api.js";
import * as route from "./state.js";

export class Changes {
  /** `app` gives `lists`, `listsShown()`, `showStats()`, `sidebar`, `taskList`, `detail`, `currentView()`, `onError()`. */
  constructor(app) {
    this.app = app;
  }

  /** Changes this tab made itself: the rows are already right; only the counts are read. */
  async own() {
    const app = this.app;
    try {
      const { data } = await api.counts();
      this.counts(data);
    } catch (error) {
      app.onError(error, { quiet: true });
    }
  }

  /**
   * Changes made elsewhere (another tab, the CLI, another device): one request reads the
   * changed tasks and lists and the counts; rows are updated in place, and the view is read
   * again only when a change may move a task into, out of or within it. Resolves to the
   * revision reached (null when the read failed).
   */
  async remote(since) {
    const app = this.app;
    let data;
    try {
      ({ data } = await api.changes(since));
    } catch (error) {
      app.onError(error, { quiet: true });
      return null;
    }
    this.lists(data.lists, data.deletedListIds);
    if (data.counts) this.counts(data.counts);
    const view = app.currentView();
    if (view === "stats") app.showStats();
    else if (view !== "settings" && !app.taskList.applyChanges(data.tasks, data.deletedTaskIds)) {
      app.taskList.refresh({ activeTotal: this.activeTotal(data.counts) });
    }
    const open = app.detail.task;
    if (open) {
      if (data.deletedTaskIds.includes(open.id)) app.detail.externalChange(true);
      else {
        // A subtask's change also changes its parent (its count): both may need reading.
        if (data.tasks.some((task) => task.id === open.id)) app.detail.externalChange(false);
        const subtasks = app.detail.subtasks;
        if (data.tasks.some((task) => task.parentId === open.id || subtasks.shows(task.id)) || data.deletedTaskIds.some((id) => subtasks.shows(id))) {
          subtasks.load();
        }
      }
    }
    return data.revision;
  }

  /** Lists changed or deleted elsewhere, merged into the lists on screen. */
  lists(changed, deleted) {
    const app = this.app;
    if (!changed.length && !deleted.length) return;
    const byId = new Map(app.lists.map((list) => [list.id, list]));
    for (const list of changed) byId.set(list.id, list);
    for (const id of deleted) byId.delete(id);
    app.lists = [...byId.values()].sort((a, b) => a.order - b.order || a.created.localeCompare(b.created));
    app.listsShown();
  }

  /** The sidebar's numbers (GET /counts, or the counts of GET /changes). */
  counts(counts) {
    const app = this.app;
    let changed = false;
    for (const list of app.lists) {
      const count = counts.lists[list.id];
      if (count !== undefined && count !== list.activeCount) {
        list.activeCount = count;
        changed = true;
      }
    }
    if (changed) app.sidebar.renderLists(app.lists);
    app.sidebar.showCounts(counts.smartLists);
  }

  /** The current view's active total, when the counts know it (no search or filter). */
  activeTotal(counts) {
    const state = route.current();
    if (!counts || state.q || state.priority || state.tag) return undefined;
    if (state.list) return counts.lists[state.list];
    return counts.smartLists[route.effectiveView(state)];
  }
}
