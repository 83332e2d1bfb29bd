// The detail pane: inline editing that saves as you type, subtasks, and conflicts shown to
// the user (a 412 is never overwritten silently).
import { AlertEditor, describeAlert } from "./alerteditor.js";
import { OfflineError, api } from "./api.js";
import {
  dueFromInput,
  dueInputComplete,
  dueInputValue,
  el,
  friendlyDateTime,
  friendlyDue,
  listOptions,
  repeatOptions,
  showDueInput,
  tagsFromInput,
  tagsInputValue,
} from "./format.js";
import * as route from "./state.js";
import { Subtasks } from "./subtasks.js";
import { priorityInfo } from "./vocabulary.js";

const SAVE_DELAY = 500;
const $ = (id) => document.getElementById(id);

export class Detail {
  /** `app` gives `lists`, `onError`, `close()`, `taskChanged(task)`, `taskList`. */
  constructor(app) {
    this.app = app;
    this.pane = $("detail");
    this.task = null;
    this.etag = null;
    this.pending = {};
    this.timer = null;
    this.saving = null;
    this.subtasks = new Subtasks(this);
    this.alertEditor = new AlertEditor($("detail-alerts"), { prefix: "detail", onChange: (alerts) => this.change("alerts", alerts) });
    this.wire();
  }

  wire() {
    const edit = (field, read) => () => this.change(field, read());
    $("detail-title").addEventListener("input", edit("title", () => $("detail-title").value.replace(/\n/g, " ")));
    // A title is one line: Enter leaves the field instead of breaking the line.
    $("detail-title").addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        $("detail-notes").focus();
      }
    });
    $("detail-notes").addEventListener("input", edit("notes", () => $("detail-notes").value));
    $("detail-list").addEventListener("change", edit("listId", () => $("detail-list").value || null));
    $("detail-flag").addEventListener("change", edit("isFlagged", () => $("detail-flag").checked));
    $("detail-repeat").addEventListener("change", edit("recurrence", () => $("detail-repeat").value || null));
    // Tags save when the field is left, not at every keystroke of a half-typed tag. Enter
    // leaves it (its change event saves them), and the field then shows them as saved.
    $("detail-tags").addEventListener("change", edit("tags", () => tagsFromInput($("detail-tags").value)));
    $("detail-tags").addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      $("detail-tags").blur();
    });
    $("detail-priority").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-priority]");
      if (!button) return;
      this.showPriority(button.dataset.priority);
      this.change("priority", button.dataset.priority);
    });
    // The due date saves only a whole date: a picker emptied or half-typed on the way to
    // another date saves nothing. Clearing is explicit (the Due date toggle, or Clear date).
    const dueChanged = ({ turnedOn = false } = {}) => {
      const has = $("detail-has-due").checked;
      const input = $("detail-due");
      showDueInput(input, $("detail-all-day"), has, { fillEmpty: turnedOn });
      $("detail-due-clear").hidden = !has;
      this.alertEditor.setDue({ hasDue: has, isAllDay: $("detail-all-day").checked });
      if (!has) return this.change("due", null);
      if (!dueInputComplete(input)) return this.dueIncomplete();
      this.change("due", dueFromInput(input.value, $("detail-all-day").checked));
    };
    $("detail-has-due").addEventListener("change", () => dueChanged({ turnedOn: true }));
    $("detail-all-day").addEventListener("change", () => dueChanged());
    $("detail-due").addEventListener("change", () => dueChanged());
    $("detail-due-clear").addEventListener("click", () => {
      $("detail-has-due").checked = false;
      dueChanged();
    });
    $("detail-complete").addEventListener("click", () => this.toggleCompleted());
    $("detail-close").addEventListener("click", () => this.app.close());
    $("detail-delete").addEventListener("click", () => this.task && this.app.actions.remove(this.task));
    $("detail-edit-form").addEventListener("click", () => this.task && this.app.editTask(this.task));
    $("conflict-keep-mine").addEventListener("click", () => this.resolve("mine"));
    // The choice must be made: Esc does not dismiss the conflict.
    $("conflict-dialog").addEventListener("cancel", (event) => event.preventDefault());
    $("conflict-use-theirs").addEventListener("click", () => this.resolve("theirs"));
  }

  /** Opens task `id`; saves any edit of the previous task first (settling a conflict). */
  async open(id) {
    if (this.task && this.task.id === id && !this.pane.hidden) return;
    await this.flush();
    this.pane.hidden = false;
    document.body.classList.add("detail-open");
    try {
      const { data, etag } = await api.task(id);
      if (route.current().task !== id) return; // the user moved on meanwhile
      this.task = data;
      this.etag = etag;
      this.pending = {};
      this.fill(data);
      this.setState("Saved");
      this.subtasks.load();
      // On a touch screen focusing the title would raise the keyboard on every open: the pane
      // itself takes the focus there (screen readers start in it); with a keyboard, the title.
      if (matchMedia("(pointer: coarse)").matches) {
        if (!this.pane.hasAttribute("tabindex")) this.pane.setAttribute("tabindex", "-1");
        this.pane.focus({ preventScroll: true });
      } else {
        $("detail-title").focus({ preventScroll: true });
      }
    } catch (error) {
      if (error.status === 404) {
        this.app.close();
        this.app.toast("That task no longer exists.");
      } else this.app.onError(error);
    }
  }

  /** Closes the pane (saving what is typed first). */
  async close() {
    const id = this.task?.id;
    await this.flush();
    this.reset();
    if (id) document.querySelector(`li.task-row[data-id="${id}"]`)?.focus({ preventScroll: true });
  }

  /** Forgets the open task without saving (signing out). */
  reset() {
    clearTimeout(this.timer);
    this.task = null;
    this.etag = null;
    this.pending = {};
    this.pane.hidden = true;
    document.body.classList.remove("detail-open");
  }

  /** Reads the open task again (changed by the form or elsewhere), unless edits are waiting. */
  async reload() {
    if (!this.task || this.hasPending() || this.saving) return;
    const id = this.task.id;
    try {
      const { data, etag } = await api.task(id);
      if (this.task?.id !== id || etag === this.etag || this.hasPending() || this.saving) return;
      this.task = data;
      this.etag = etag;
      this.fill(data);
    } catch (error) {
      if (error.status === 404) this.externalChange(true);
    }
  }

  /**
   * This tab changed the open task another way (its row, the form): the answer's version
   * is shown without reading it again; edits waiting here meet it when they are saved.
   */
  adopt(task, etag) {
    if (!this.task || this.task.id !== task.id || (etag && etag === this.etag)) return;
    if (!etag) return this.reload();
    if (this.saving || this.hasPending()) {
      this.remoteChanged = true; // looked at again once the save is done
      return;
    }
    this.task = task;
    this.etag = etag;
    this.fill(task);
  }

  hasPending() {
    return Object.keys(this.pending).length > 0;
  }

  /** Puts a task's values into the fields. */
  fill(task) {
    $("detail-title").value = task.title;
    $("detail-notes").value = task.notes;
    this.fillLists(task.listId);
    this.showPriority(task.priority);
    this.fillDue(task);
    $("detail-flag").checked = task.isFlagged;
    this.showRepeat(task.recurrence);
    // The field is left as typed while it has the focus (the server's folding shows on leaving it).
    if (document.activeElement !== $("detail-tags")) $("detail-tags").value = tagsInputValue(task.tags);
    $("detail-created").textContent = friendlyDateTime(task.created);
    this.showCompletion(task);
    $("detail-title-error").hidden = true;
  }

  /** The due date's fields and the alerts that go with it. */
  fillDue(task) {
    $("detail-has-due").checked = !!task.due;
    $("detail-all-day").checked = !!task.due && task.isAllDay;
    $("detail-all-day").parentElement.hidden = !task.due;
    $("detail-due-clear").hidden = !task.due;
    const input = $("detail-due");
    input.type = task.isAllDay ? "date" : "datetime-local";
    input.value = dueInputValue(task);
    delete input.dataset.time; // another task's time is not this one's
    input.hidden = !task.due;
    this.alertEditor.set(task.alerts, { hasDue: !!task.due, isAllDay: task.isAllDay });
  }

  /** The Complete / Reopen button and the completed date. */
  showCompletion(task) {
    const button = $("detail-complete");
    button.setAttribute("aria-pressed", String(task.isCompleted));
    button.textContent = task.isCompleted ? "Reopen" : "Complete";
    button.setAttribute("aria-label", `${task.isCompleted ? "Reopen" : "Complete"} this task`);
    $("detail-completed").textContent = task.completedAt ? friendlyDateTime(task.completedAt) : "Not completed";
  }

  fillLists(selected) {
    const select = $("detail-list");
    select.replaceChildren(...listOptions(this.app.lists));
    select.value = selected || "";
  }

  /** The lists changed (or arrived after the task): the List field shows the task's list. */
  listsChanged() {
    if (!this.task) return;
    this.fillLists("listId" in this.pending ? this.pending.listId : this.task.listId);
  }

  /** Completes the open task, or reopens it: saved at once, with any waiting edits. */
  async toggleCompleted() {
    if (!this.task) return;
    const completed = !("isCompleted" in this.pending ? this.pending.isCompleted : this.task.isCompleted);
    // Read before the save: the completed task comes back without its repeat (the next one has it).
    const { recurrence, title } = this.task;
    this.showCompletion({ ...this.task, isCompleted: completed, completedAt: completed ? this.task.completedAt : null });
    this.change("isCompleted", completed);
    await this.flush();
    if (completed && recurrence) this.app.toast(`Completed “${title}”; the next one is scheduled.`);
  }

  /** A half-typed due date: nothing is saved until it is whole again. */
  dueIncomplete() {
    delete this.pending.due;
    this.setState("Due date incomplete: not saved", "pending");
  }

  /** The Repeat field: the named repeats, and `recurrence` among them if it is another. */
  showRepeat(recurrence) {
    $("detail-repeat").replaceChildren(...repeatOptions(recurrence));
    $("detail-repeat").value = recurrence || "";
  }

  showPriority(priority) {
    document.querySelectorAll("#detail-priority button").forEach((button) => {
      button.setAttribute("aria-pressed", String(button.dataset.priority === priority));
    });
  }

  setState(text, kind = "") {
    const node = $("save-state");
    node.textContent = text;
    node.dataset.kind = kind;
  }

  /** Records an edit and saves it after a pause in typing. */
  change(field, value) {
    if (!this.task) return;
    if (field === "title" && !value.trim()) {
      $("detail-title-error").textContent = "A task needs a title.";
      $("detail-title-error").hidden = false;
      delete this.pending.title;
      this.setState("Not saved: the title is blank", "error");
      return;
    }
    $("detail-title-error").hidden = true;
    this.pending[field] = field === "title" ? value.trim() : value;
    this.setState("Editing…", "pending");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), SAVE_DELAY);
  }

  /** Saves now whatever is waiting; resolves once saved, refused, or a conflict is settled. */
  async flush() {
    clearTimeout(this.timer);
    await this.save();
  }

  async save() {
    if (this.saving) {
      await this.saving;
      if (this.hasPending() && !this.failed) return this.save();
      return;
    }
    if (!this.task || !this.hasPending()) return;
    this.failed = false;
    this.saving = this.saveAll();
    try {
      await this.saving;
    } finally {
      this.saving = null;
    }
    if (this.remoteChanged) {
      this.remoteChanged = false;
      this.externalChange(false);
    }
  }

  /** Sends the waiting edits until none are left; a 412 asks the user and then goes on. */
  async saveAll() {
    while (this.task && this.hasPending()) {
      const id = this.task.id;
      const changes = this.pending;
      this.pending = {};
      this.setState("Saving…", "pending");
      try {
        const { data, etag } = await api.updateTask(id, changes, this.etag);
        if (this.task?.id === id) {
          const wasDated = !!this.task.due;
          this.task = data;
          this.etag = etag;
          if (!("isCompleted" in this.pending)) this.showCompletion(data);
          // A time made a day comes back with its lead-time alerts as days at 9:00.
          if ("due" in changes && !("alerts" in this.pending) && !("due" in this.pending)) {
            this.alertEditor.set(data.alerts, { hasDue: !!data.due, isAllDay: data.isAllDay });
          }
          // A completed repeating task comes back without its repeat (the next one has it).
          if ("isCompleted" in changes && !("recurrence" in this.pending)) {
            this.showRepeat(data.recurrence);
          }
          // A repeat given to an undated task starts today: the date shows.
          if ("recurrence" in changes && !wasDated && data.due && !("due" in this.pending)) this.fillDue(data);
          // Tags come back folded (`#Location` is `location`): shown so once the field is left.
          if ("tags" in changes && !("tags" in this.pending) && document.activeElement !== $("detail-tags")) {
            $("detail-tags").value = tagsInputValue(data.tags);
          }
        }
        this.app.taskChanged(data, { etag });
      } catch (error) {
        this.pending = { ...changes, ...this.pending };
        if (error.status === 412 && error.current) {
          const choice = await this.conflict(error.current, this.pending);
          this.task = error.current;
          this.etag = error.etag || (await api.task(id)).etag;
          if (choice === "theirs") {
            this.pending = {};
            this.fill(this.task);
            this.app.taskChanged(this.task, { etag: this.etag });
          }
          continue; // "mine": the edits are sent again, now against their version
        }
        this.failed = true;
        if (error instanceof OfflineError) {
          this.setState("Not saved yet: offline (saved when the connection returns)", "error");
        } else {
          // Refused (a 4xx naming the field): the field keeps what was typed, marked unsaved.
          this.pending = {};
          this.setState(`Not saved: ${error.message}`, "error");
          if (error.field === "title") {
            $("detail-title-error").textContent = error.message;
            $("detail-title-error").hidden = false;
          }
          if (error.field === "alerts") this.alertEditor.showError(error.message);
        }
        this.app.onError(error, { quiet: true });
        return;
      }
    }
    if (!this.hasPending()) this.setState("Saved", "saved");
  }

  /**
   * Shows both versions when someone else changed the task since we read it; resolves with
   * "mine" or "theirs" once the user chooses (the dialog cannot be dismissed otherwise).
   */
  conflict(theirs, pending) {
    this.setState("Conflict: choose a version", "error");
    const mine = { ...theirs, ...pending };
    const fields = [
      ["title", "Title", (t) => t.title],
      ["notes", "Notes", (t) => t.notes || "—"],
      ["priority", "Priority", (t) => priorityInfo(t.priority).label],
      ["due", "Due", (t) => (t.due ? friendlyDue(t) : "—")],
      ["alerts", "Alerts", (t) => (t.alerts || []).map((a) => describeAlert(a, t)).join("; ") || "—"],
      ["recurrence", "Repeat", (t) => t.recurrence || "Never"],
      ["tags", "Tags", (t) => tagsInputValue(t.tags) || "—"],
      ["isFlagged", "Flagged", (t) => (t.isFlagged ? "Yes" : "No")],
      ["isCompleted", "Completed", (t) => (t.isCompleted ? "Yes" : "No")],
      ["listId", "List", (t) => this.app.lists.find((l) => l.id === t.listId)?.name || "No list"],
    ];
    const describe = (node, task, marked) =>
      node.replaceChildren(
        ...fields.flatMap(([key, label, read]) => {
          const value = el("dd", marked && key in pending ? "changed" : null, String(read(task)));
          return [el("dt", null, label), value];
        }),
      );
    describe(document.querySelector("#conflict-dialog .conflict-mine"), mine, true);
    describe(document.querySelector("#conflict-dialog .conflict-theirs"), theirs, false);
    const dialog = $("conflict-dialog");
    if (!dialog.open) dialog.showModal();
    return new Promise((resolve) => (this.settle = resolve));
  }

  resolve(choice) {
    $("conflict-dialog").close();
    const settle = this.settle;
    this.settle = null;
    if (settle) settle(choice);
  }

  /** A live change to the open task: show it, unless edits are waiting (their save meets the 412). */
  async externalChange(deleted) {
    if (!this.task) return;
    if (deleted) {
      this.reset();
      this.app.close();
      this.app.toast("The task you had open was deleted.");
      return;
    }
    if (this.saving || this.hasPending()) {
      this.remoteChanged = true; // looked at again once the save is done
      return;
    }
    await this.reload();
  }

  /** The page is going away: send waiting edits with a request that outlives it. */
  saveOnExit() {
    if (!this.task || !this.hasPending()) return;
    clearTimeout(this.timer);
    api.updateTask(this.task.id, this.pending, this.etag, { keepalive: true }).catch(() => {});
    this.pending = {};
  }
}
