// Where a changed task goes in the view on screen, decided without asking the server when
// that is certain: a live change that cannot move a row is applied in place, and only a
// change that may move a task into, out of or within the view has the view read again.
import { priorityRank } from "./vocabulary.js";
import { effectiveView } from "./state.js";

const DATED = ["today", "scheduled", "overdue"];

/**
 * False when `task` certainly cannot be in the view of `state` (whose sections are
 * `active` and `completed`, each enabled or not); true when it may be.
 */
export function couldShow(task, state, { active, completed }) {
  const view = effectiveView(state);
  if (state.list && task.listId !== state.list) return false;
  if (view === "inbox" && task.listId) return false;
  if (view === "flagged" && !task.isFlagged) return false;
  if (DATED.includes(view) && !task.due) return false;
  if (task.isCompleted ? !completed : !active) return false;
  if (state.priority && task.priority !== state.priority) return false;
  if (state.tag && !(task.tags || []).some((tag) => tag.toLowerCase() === state.tag.toLowerCase())) return false;
  return true;
}

/**
 * What decides whether, and where, `task` is in the view of `state`: a change that keeps
 * it leaves the row where it is.
 */
export function placement(task, state) {
  const view = effectiveView(state);
  const key = [task.isCompleted, task.parentId];
  if (state.list || view === "inbox") key.push(task.listId);
  if (view === "flagged") key.push(task.isFlagged);
  if (state.q) key.push(task.title, task.notes, task.tags);
  if (state.tag) key.push(task.tags);
  if (state.priority || state.sort === "default" || state.sort === "priority") key.push(task.priority);
  if (state.sort === "due" || DATED.includes(view)) key.push(task.due, task.isAllDay, task.isOverdue);
  if (state.sort === "title") key.push(task.title);
  if (state.sort === "manual") key.push(task.order);
  return JSON.stringify(key);
}

/**
 * The view's order for a task this tab just created, among loaded rows: negative when `a`
 * comes before `b`. Ties put the new task after (it is the newest).
 */
export function compareForInsert(a, b, sort) {
  const created = () => a.created.localeCompare(b.created);
  switch (sort) {
    case "priority":
    case "default":
      return priorityRank(b.priority) - priorityRank(a.priority) || created();
    case "due": {
      if (!a.due || !b.due) return (a.due ? -1 : 0) + (b.due ? 1 : 0) || created();
      return a.due.localeCompare(b.due) || created();
    }
    case "created":
      return b.created.localeCompare(a.created);
    case "title":
      return a.title.localeCompare(b.title, undefined, { sensitivity: "base" }) || created();
    case "manual":
      return (a.order ?? 0) - (b.order ?? 0) || created();
    default:
      return 1;
  }
}
