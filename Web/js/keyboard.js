// Keyboard shortcuts: n new, / search, j/k move, x complete, f flag, e edit, Enter open,
// Delete delete, Ctrl+Z undo, Esc close, ? help. Never while typing in a field.

function typing(target) {
  return target.closest("input, textarea, select, [contenteditable=true]") !== null;
}

/** Installs the shortcuts on the document. */
export function enableKeyboard(app) {
  document.addEventListener("keydown", (event) => {
    if ($("app").hidden) return;
    if (event.key === "Escape") {
      if (document.querySelector("dialog[open]")) return; // the dialog closes itself
      if (typing(event.target) && event.target.id !== "search") {
        event.target.blur();
        return;
      }
      // In the search box the first Esc clears it (the browser does), the next leaves it, so
      // that the shortcuts work again.
      if (event.target.id === "search") {
        if (!event.target.value) event.target.blur();
        return;
      }
      if (app.detail.task) app.close();
      return;
    }
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z" && !typing(event.target)) {
      event.preventDefault();
      if (event.shiftKey) app.redo();
      else app.undo();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || document.querySelector("dialog[open]")) return;
    const task = app.taskList.selectedTask();
    switch (event.key) {
      case "n":
        event.preventDefault();
        $("quick-entry").focus();
        break;
      case "N":
        event.preventDefault();
        app.taskForm.open();
        break;
      case "/":
        event.preventDefault();
        $("search").focus();
        $("search").select();
        break;
      case "j":
      case "ArrowDown":
        if (event.key === "ArrowDown" && !event.target.closest(".task-row")) return;
        event.preventDefault();
        app.taskList.move(1);
        break;
      case "k":
      case "ArrowUp":
        if (event.key === "ArrowUp" && !event.target.closest(".task-row")) return;
        event.preventDefault();
        app.taskList.move(-1);
        break;
      case "x":
        if (task) app.toggle(task);
        break;
      case "f":
        if (task) app.flag(task);
        break;
      case "e":
        if (task) {
          event.preventDefault();
          app.editTask(task);
        }
        break;
      case "Enter":
        if (task && !event.target.closest("button, a")) app.navigate({ task: task.id });
        break;
      case "Delete":
      case "Backspace":
        if (task) {
          event.preventDefault();
          app.taskList.move(1);
          app.remove(task);
        }
        break;
      case "?":
        event.preventDefault();
        $("help-dialog").showModal();
        break;
    }
  });
}

function $(id) {
  return document.getElementById(id);
}
