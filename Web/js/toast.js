// The toast at the bottom: a message, and "Undo" after a delete or a batch action.

const toast = () => document.getElementById("toast");
let timer = null;
let shownChange = null;

/**
 * Shows `message` for a few seconds; with `undoable`, its Undo button reverts `change` (the
 * write's Slate-Change) — that change, even when another device changed something since.
 */
export function showToast(message, { undoable = false, change = null } = {}) {
  const node = toast();
  node.querySelector(".toast-message").textContent = message;
  node.querySelector(".toast-undo").hidden = !undoable;
  shownChange = undoable ? change : null;
  node.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(hideToast, undoable ? 8000 : 4000);
}

function hideToast() {
  toast().hidden = true;
}

/** Wires the Undo button once: it hides the toast and calls `undo(change)`. */
export function setUpToast(undo) {
  toast()
    .querySelector(".toast-undo")
    .addEventListener("click", () => {
      hideToast();
      undo(shownChange);
    });
}
