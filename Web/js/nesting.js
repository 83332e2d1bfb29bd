// Subtasks under their parent: a section's rows are put in tree order (each parent, then its
// subtasks, indented), and a parent's subtasks fold away with its disclosure button. A
// subtask whose parent is not in the view stays where the view put it, marked "↳ Subtask".
// Which parents are folded is remembered in this browser.

const STORED = "slate.collapsed";
let collapsed = new Set(readCollapsed());

function readCollapsed() {
  try {
    const ids = JSON.parse(localStorage.getItem(STORED) || "[]");
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string").slice(-500) : [];
  } catch {
    return [];
  }
}

/** True when the subtasks of task `id` are folded away. */
export function isCollapsed(id) {
  return collapsed.has(id);
}

/** Folds or unfolds the subtasks of task `id`, and remembers it. */
export function setCollapsed(id, folded) {
  collapsed.delete(id);
  if (folded) collapsed.add(id);
  try {
    localStorage.setItem(STORED, JSON.stringify([...collapsed].slice(-500)));
  } catch {
    // Private mode or full storage: folding still works for this page.
  }
}

/**
 * Puts `rows` (in the view's order; each has `task` and `dataset.id`) in tree order: a
 * subtask right after its parent (and the parent's earlier subtasks), when the parent is
 * among `rows`. Marks each row's depth, whether it has subtasks here, and hides the rows
 * under a folded parent. Returns the rows in their new order.
 */
export function nestRows(rows) {
  const byId = new Map(rows.map((row) => [row.dataset.id, row]));
  const children = new Map();
  const roots = [];
  for (const row of rows) {
    const parent = row.task.parentId;
    if (parent && parent !== row.dataset.id && byId.has(parent)) {
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(row);
    } else roots.push(row);
  }
  const ordered = [];
  const placed = new Set();
  const visit = (row, depth, folded) => {
    if (placed.has(row)) return; // a parent loop: each row once
    placed.add(row);
    ordered.push(row);
    const kids = children.get(row.dataset.id) || [];
    const closed = kids.length > 0 && isCollapsed(row.dataset.id);
    row.dataset.depth = String(depth);
    row.style.setProperty("--depth", String(Math.min(depth, 6)));
    row.hidden = folded;
    row.classList.toggle("has-subtasks", kids.length > 0);
    row.classList.toggle("nested", depth > 0);
    const toggle = row.querySelector(".subtask-toggle");
    if (toggle) {
      toggle.hidden = kids.length === 0;
      toggle.setAttribute("aria-expanded", String(!closed));
      const what = `${kids.length} ${kids.length === 1 ? "subtask" : "subtasks"} of “${row.task.title}”`;
      toggle.setAttribute("aria-label", closed ? `Show ${what}` : `Hide ${what}`);
      toggle.textContent = `${closed ? "▸" : "▾"} ${kids.length} ${kids.length === 1 ? "subtask" : "subtasks"}`;
    }
    for (const kid of kids) visit(kid, depth + 1, folded || closed);
  };
  roots.forEach((row) => visit(row, 0, false));
  for (const row of rows) if (!placed.has(row)) visit(row, 0, false);
  return ordered;
}
