// Select mode: pick several tasks, then complete, reopen, flag, move or delete them in one
// batch (POST /tasks/batch), with Undo offered afterwards.
import { api } from "./api.js";
import { listOptions } from "./format.js";

const $ = (id) => document.getElementById(id);

export class Batch {
  /** `app` gives `lists`, `toast()`, `onError()`, `refreshAll()`. */
  constructor(app) {
    this.app = app;
    this.ids = new Set();
    $("select-mode").addEventListener("click", () => this.toggleMode());
    $("batch-bar").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-batch]");
      if (button) this.run(button.dataset.batch);
    });
    $("batch-move").addEventListener("change", (event) => {
      const value = event.target.value;
      event.target.value = "";
      if (value) this.moveTo(value === "inbox" ? null : value);
    });
  }

  get active() {
    return document.body.classList.contains("selecting");
  }

  toggleMode(on = !this.active) {
    document.body.classList.toggle("selecting", on);
    $("select-mode").setAttribute("aria-pressed", String(on));
    $("select-mode").textContent = on ? "Done" : "Select";
    $("batch-bar").hidden = !on;
    if (!on) {
      this.ids.clear();
      document.querySelectorAll(".select-box:checked").forEach((box) => (box.checked = false));
    }
    this.update();
  }

  pick(task, selected) {
    if (selected) this.ids.add(task.id);
    else this.ids.delete(task.id);
    this.update();
  }

  /** Ticks rows redrawn by a refresh that are still selected. */
  restore() {
    for (const id of this.ids) {
      const box = document.querySelector(`li.task-row[data-id="${id}"] .select-box`);
      if (box) box.checked = true;
    }
  }

  update() {
    const count = this.ids.size;
    document.querySelector("#batch-bar .batch-count").textContent = `${count} selected`;
    document.querySelectorAll("#batch-bar button, #batch-move").forEach((control) => (control.disabled = count === 0));
    $("batch-move").replaceChildren(...listOptions(this.app.lists, [["", "Move to…"], ["inbox", "No list (Inbox)"]]));
  }

  async run(action) {
    const ids = [...this.ids];
    if (!ids.length || this.busy) return;
    this.busy = true;
    try {
      await this.app.detail.flush(); // so Undo undoes this batch and nothing else
      const { change } = await api.batch(action, ids);
      const verb = { complete: "Completed", reopen: "Reopened", flag: "Flagged", delete: "Deleted" }[action];
      this.app.toast(`${verb} ${ids.length} ${ids.length === 1 ? "task" : "tasks"}`, { undoable: true, change });
      this.toggleMode(false);
      this.app.refreshAll();
    } catch (error) {
      this.app.onError(error);
    } finally {
      this.busy = false;
    }
  }

  /** Moves the selection to a list: one PATCH per task, since a batch move reorders. */
  async moveTo(listId) {
    const ids = [...this.ids];
    try {
      await Promise.all(ids.map((id) => api.updateTask(id, { listId })));
      const name = listId ? this.app.lists.find((l) => l.id === listId)?.name : "the Inbox";
      this.app.toast(`Moved ${ids.length} ${ids.length === 1 ? "task" : "tasks"} to ${name}`);
      this.toggleMode(false);
      this.app.refreshAll();
    } catch (error) {
      this.app.onError(error);
    }
  }
}
