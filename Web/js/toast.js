// The toast at the bottom: a message, and "Undo" after a delete or a batch action.
import { api } from "./api.js";

const toast = () => document.getElementById("toast");
let timer = null;
let undoHandler = null;

/** Shows `message` for a few seconds; with `undoable`, its Undo button reverts the last change. */
export function showToast(message, { undoable = false, onUndo = null } = {}) {
  const node = toast();
  node.querySelector(".toast-message").textContent = message;
  const button = node.querySelector(".toast-undo");
  button.hidden = !undoable;
  undoHandler = undoable ? onUndo : null;
  node.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(hideToast, undoable ? 8000 : 4000);
}

function hideToast() {
  toast().hidden = true;
  undoHandler = null;
}

/** Wires the Undo button once. */
export function setUpToast(onError) {
  toast()
    .querySelector(".toast-undo")
    .addEventListener("click", async () => {
      const after = undoHandler;
      hideToast();
      try {
        const { data } = await api.undo();
        showToast(data && data.undone ? `Undone: ${data.undone}` : "Nothing to undo");
        if (after) after();
      } catch (error) {
        onError(error);
      }
    });
}
