// One task row: what it shows, and the touch gestures on it.
import { el, friendlyDue } from "./format.js";
import { priorityInfo } from "./vocabulary.js";

/**
 * Builds the row for `task`. `actions` has `toggle(task)`, `flag(task)`, `remove(task)` and
 * `open(task)`; the row keeps a reference to its task in `row.task`.
 */
export function taskRow(task, actions) {
  const row = el("li", "task-row");
  row.dataset.id = task.id;
  row.tabIndex = -1;

  const left = el("div", "swipe-under swipe-complete");
  left.setAttribute("aria-hidden", "true");
  left.append(el("span", null, task.isCompleted ? "Reopen" : "Complete"));
  const right = el("div", "swipe-under swipe-actions");
  const flag = el("button", "action-flag", task.isFlagged ? "Unflag" : "Flag");
  flag.type = "button";
  flag.setAttribute("aria-label", `${task.isFlagged ? "Unflag" : "Flag"} “${task.title}”`);
  flag.addEventListener("click", (event) => {
    event.stopPropagation();
    closeSwipe(row);
    actions.flag(row.task);
  });
  const remove = el("button", "action-delete", "Delete");
  remove.type = "button";
  remove.setAttribute("aria-label", `Delete “${task.title}”`);
  remove.addEventListener("click", (event) => {
    event.stopPropagation();
    actions.remove(row.task);
  });
  right.append(flag, remove);

  const content = el("div", "row-content");
  const handle = el("span", "drag-handle", "⠿");
  handle.setAttribute("aria-hidden", "true");
  handle.title = "Drag to reorder";
  const toggle = el("button", "complete-toggle");
  toggle.type = "button";
  toggle.setAttribute("aria-pressed", String(task.isCompleted));
  toggle.setAttribute("aria-label", `${task.isCompleted ? "Reopen" : "Complete"} “${task.title}”`);
  toggle.addEventListener("click", (event) => {
    event.stopPropagation();
    actions.toggle(row.task);
  });

  // Shown when the row's subtasks are listed under it (nesting.js): folds them away. It
  // sits in the meta line, away from the row's end where Flag and Delete appear on hover.
  const fold = el("button", "subtask-toggle", "▾");
  fold.type = "button";
  fold.hidden = true;
  fold.addEventListener("click", (event) => {
    event.stopPropagation();
    actions.toggleSubtasks && actions.toggleSubtasks(row.task);
  });

  const body = el("div", "row-body");
  const line = el("div", "row-line");
  const title = el("button", "task-title", task.title);
  title.type = "button";
  title.addEventListener("click", () => actions.open(row.task));
  line.append(title);
  if (task.isFlagged) {
    const marker = el("span", "flag-marker", "⚑");
    marker.setAttribute("role", "img");
    marker.setAttribute("aria-label", "Flagged");
    line.append(marker);
  }
  if (task.priority !== "none") {
    const info = priorityInfo(task.priority);
    const badge = el("span", `priority-badge priority-${task.priority}`);
    badge.append(el("span", "badge-marks", info.marks), el("span", "badge-label", info.label));
    badge.setAttribute("aria-label", `${info.label} priority`);
    line.append(badge);
  }
  body.append(line);

  const meta = el("div", "row-meta");
  meta.append(fold);
  if (task.list) {
    const list = el("span", "task-list-name", task.list);
    const dot = el("span", "list-dot");
    if (actions.colorOf) dot.style.backgroundColor = actions.colorOf(task.listId);
    list.prepend(dot);
    meta.append(list);
  }
  if (task.due) {
    const due = el("span", "task-due" + (task.isOverdue && !task.isCompleted ? " overdue" : ""), friendlyDue(task));
    if (task.isOverdue && !task.isCompleted) due.setAttribute("aria-label", `Overdue: ${friendlyDue(task)}`);
    meta.append(due);
  }
  if (task.parentId) meta.append(el("span", "task-subtask", "↳ Subtask"));
  const subtasks = task.subtaskCount;
  if (subtasks && subtasks.total > 0) {
    // Shown when the subtasks are not listed under the row (another view, or folded).
    const done = subtasks.total - subtasks.active;
    const count = el("span", "task-subtask-count", `☑ ${done}/${subtasks.total}`);
    count.setAttribute("aria-label", `${done} of ${subtasks.total} subtasks done`);
    meta.append(count);
  }
  if (task.recurrence) meta.append(el("span", "task-repeat", "↻ " + task.recurrence));
  for (const tag of task.tags || []) {
    const chip = el("button", "task-tag", "@" + tag);
    chip.type = "button";
    chip.setAttribute("aria-label", `Show tasks tagged ${tag}`);
    chip.addEventListener("click", (event) => {
      event.stopPropagation();
      actions.filterTag && actions.filterTag(tag);
    });
    meta.append(chip);
  }
  body.append(meta);
  if (task.notes) body.append(el("div", "task-notes", task.notes.split("\n")[0]));

  const pick = el("input", "select-box");
  pick.type = "checkbox";
  pick.setAttribute("aria-label", `Select “${task.title}”`);
  pick.addEventListener("change", () => actions.pick && actions.pick(row.task, pick.checked));
  content.append(pick, handle, toggle, body);
  row.append(left, right, content);
  row.classList.toggle("done", task.isCompleted);
  row.task = task;
  row.signature = signature(task);
  enableSwipe(row, content, actions);
  return row;
}

/** What a row shows; a row is rebuilt only when this changes. */
export function signature(task) {
  return JSON.stringify([task.title, task.notes, task.priority, task.isCompleted, task.isFlagged, task.due, task.isAllDay, task.isOverdue, task.list, task.listId, task.tags, task.recurrence, task.parentId, task.subtaskCount]);
}

const REVEAL = 168; // the width of Flag + Delete
const COMPLETE_AT = 96;

/** Closes a row whose actions a left swipe revealed. */
export function closeSwipe(row) {
  row.classList.remove("swiped");
  const content = row.querySelector(".row-content");
  if (content) content.style.transform = "";
}

/**
 * Touch gestures: swipe right to complete or reopen (a full swipe is fine), swipe left to
 * reveal Flag and Delete. A full left swipe only reveals: deleting always needs the tap.
 */
function enableSwipe(row, content, actions) {
  let start = null;
  let dx = 0;
  let horizontal = null;
  content.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch" || event.target.closest(".drag-handle")) return;
    document.querySelectorAll(".task-row.swiped").forEach((other) => other !== row && closeSwipe(other));
    start = { x: event.clientX, y: event.clientY, base: row.classList.contains("swiped") ? -REVEAL : 0, id: event.pointerId };
    dx = 0;
    horizontal = null;
  });
  content.addEventListener("pointermove", (event) => {
    if (!start || event.pointerId !== start.id) return;
    const mx = event.clientX - start.x;
    const my = event.clientY - start.y;
    if (horizontal === null && Math.abs(mx) + Math.abs(my) > 8) {
      horizontal = Math.abs(mx) > Math.abs(my);
      if (horizontal) {
        content.setPointerCapture(event.pointerId);
        row.classList.add("swiping");
      }
    }
    if (!horizontal) return;
    dx = start.base + mx;
    const width = row.clientWidth;
    if (dx < -REVEAL) dx = -REVEAL - (-REVEAL - dx) / 4; // resist past the buttons
    if (dx > width) dx = width;
    content.style.transform = `translateX(${dx}px)`;
    row.classList.toggle("will-complete", dx > COMPLETE_AT);
  });
  const finish = (event) => {
    if (!start || event.pointerId !== start.id) return;
    const wasHorizontal = horizontal;
    start = null;
    row.classList.remove("swiping", "will-complete");
    if (!wasHorizontal) return;
    if (dx > COMPLETE_AT) {
      content.style.transform = "";
      row.classList.remove("swiped");
      actions.toggle(row.task);
    } else if (dx < -REVEAL / 2) {
      content.style.transform = `translateX(${-REVEAL}px)`;
      row.classList.add("swiped");
    } else {
      closeSwipe(row);
    }
    // A swipe is not a tap on the title underneath.
    row.dataset.swipedAt = String(Date.now());
  };
  content.addEventListener("pointerup", finish);
  content.addEventListener("pointercancel", finish);
  content.addEventListener(
    "click",
    (event) => {
      if (Date.now() - Number(row.dataset.swipedAt || 0) < 400) {
        event.stopPropagation();
        event.preventDefault();
      } else if (row.classList.contains("swiped")) {
        event.stopPropagation();
        closeSwipe(row);
      }
    },
    true,
  );
}
