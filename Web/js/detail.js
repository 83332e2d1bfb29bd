// The detail pane: inline editing that saves as you type, subtasks, and conflicts shown to
// the user (a 412 is never overwritten silently).
import { api } from "./api.js";
import { PRIORITIES, dueFromInput, dueInputValue, el, friendlyDateTime, localDay } from "./format.js";

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
    $("detail-priority").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-priority]");
      if (!button) return;
      this.showPriority(button.dataset.priority);
      this.change("priority", button.dataset.priority);
    });
    const dueChanged = () => {
      const has = $("detail-has-due").checked;
      const allDay = $("detail-all-day").checked;
      const input = $("detail-due");
      input.hidden = !has;
      $("detail-all-day").parentElement.hidden = !has;
      if (has && !input.value) input.value = this.defaultDue(allDay);
      this.setDueType(allDay);
      this.change("due", has ? dueFromInput(input.value, allDay) : null);
    };
    $("detail-has-due").addEventListener("change", dueChanged);
    $("detail-all-day").addEventListener("change", dueChanged);
    $("detail-due").addEventListener("change", dueChanged);
    $("detail-close").addEventListener("click", () => this.app.close());
    $("detail-delete").addEventListener("click", () => this.task && this.app.actions.remove(this.task));
    $("detail-edit-form").addEventListener("click", () => this.task && this.app.editTask(this.task));
    $("subtask-entry").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) {
        event.preventDefault();
        this.addSubtask();
      }
    });
    $("conflict-keep-mine").addEventListener("click", () => this.resolve("mine"));
    $("conflict-use-theirs").addEventListener("click", () => this.resolve("theirs"));
  }

  defaultDue(allDay) {
    return localDay(1) + (allDay ? "" : "T09:00");
  }

  setDueType(allDay) {
    const input = $("detail-due");
    const value = input.value;
    const type = allDay ? "date" : "datetime-local";
    if (input.type !== type) {
      input.type = type;
      input.value = allDay ? value.slice(0, 10) : value.length === 10 ? value + "T09:00" : value;
    }
  }

  /** Opens task `id`; flushes any edit of the previous task first. */
  async open(id) {
    if (this.task && this.task.id === id) return;
    await this.flush();
    this.pane.hidden = false;
    document.body.classList.add("detail-open");
    try {
      const { data, etag } = await api.task(id);
      this.task = data;
      this.etag = etag;
      this.pending = {};
      this.fill(data);
      this.setState("Saved");
      this.loadSubtasks();
    } catch (error) {
      if (error.status === 404) {
        this.app.close();
        this.app.toast("That task no longer exists.");
      } else this.app.onError(error);
    }
  }

  /** Closes the pane (saving what is typed first). */
  async close() {
    await this.flush();
    this.task = null;
    this.pane.hidden = true;
    document.body.classList.remove("detail-open");
  }

  /** Puts a task's values into the fields. */
  fill(task) {
    $("detail-title").value = task.title;
    $("detail-notes").value = task.notes;
    this.fillLists(task.listId);
    this.showPriority(task.priority);
    $("detail-has-due").checked = !!task.due;
    $("detail-all-day").checked = !!task.due && task.isAllDay;
    $("detail-all-day").parentElement.hidden = !task.due;
    const input = $("detail-due");
    input.type = task.isAllDay ? "date" : "datetime-local";
    input.value = dueInputValue(task);
    input.hidden = !task.due;
    $("detail-flag").checked = task.isFlagged;
    $("detail-created").textContent = friendlyDateTime(task.created);
    $("detail-completed").textContent = task.completedAt ? friendlyDateTime(task.completedAt) : "Not completed";
    $("detail-title-error").hidden = true;
  }

  fillLists(selected) {
    const select = $("detail-list");
    const options = [el("option", null, "No list (Inbox)")];
    options[0].value = "";
    for (const list of this.app.lists) {
      const option = el("option", null, list.name);
      option.value = list.id;
      options.push(option);
    }
    select.replaceChildren(...options);
    select.value = selected || "";
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

  /** Saves now whatever is waiting. */
  async flush() {
    clearTimeout(this.timer);
    if (this.saving) await this.saving;
    if (Object.keys(this.pending).length) await this.save();
  }

  async save() {
    if (!this.task || !Object.keys(this.pending).length) return;
    if (this.saving) {
      await this.saving;
      return this.save();
    }
    const changes = this.pending;
    this.pending = {};
    this.setState("Saving…", "pending");
    this.saving = (async () => {
      try {
        const { data, etag } = await api.updateTask(this.task.id, changes, this.etag);
        this.task = data;
        this.etag = etag;
        $("detail-completed").textContent = data.completedAt ? friendlyDateTime(data.completedAt) : "Not completed";
        this.app.taskChanged(data);
        if (!Object.keys(this.pending).length) this.setState("Saved", "saved");
      } catch (error) {
        this.pending = { ...changes, ...this.pending };
        if (error.status === 412 && error.current) this.conflict(error.current, error.etag);
        else {
          this.setState(`Not saved: ${error.message}`, "error");
          if (error.field === "title") {
            $("detail-title-error").textContent = error.message;
            $("detail-title-error").hidden = false;
          }
          this.app.onError(error, { quiet: true });
        }
      } finally {
        this.saving = null;
      }
    })();
    return this.saving;
  }

  /** Shows both versions when someone else changed the task since we read it. */
  conflict(theirs, etag) {
    this.theirs = theirs;
    this.theirsEtag = etag;
    this.setState("Conflict: choose a version", "error");
    const mine = { ...this.task, ...this.pending };
    const fields = [
      ["Title", (t) => t.title],
      ["Notes", (t) => t.notes || "—"],
      ["Priority", (t) => PRIORITIES[t.priority]?.label || t.priority],
      ["Due", (t) => t.due || "—"],
      ["Flagged", (t) => (t.isFlagged ? "Yes" : "No")],
      ["Completed", (t) => (t.isCompleted ? "Yes" : "No")],
      ["List", (t) => this.app.lists.find((l) => l.id === t.listId)?.name || "No list"],
    ];
    const describe = (node, task) =>
      node.replaceChildren(...fields.flatMap(([label, read]) => [el("dt", null, label), el("dd", null, String(read(task)))]));
    describe(document.querySelector("#conflict-dialog .conflict-mine"), mine);
    describe(document.querySelector("#conflict-dialog .conflict-theirs"), theirs);
    const dialog = $("conflict-dialog");
    if (!dialog.open) dialog.showModal();
  }

  async resolve(choice) {
    $("conflict-dialog").close();
    if (!this.theirs) return;
    this.task = this.theirs;
    this.etag = this.theirsEtag || null;
    this.theirs = null;
    if (choice === "theirs") {
      this.pending = {};
      this.fill(this.task);
      this.setState("Saved", "saved");
      this.app.taskChanged(this.task);
    } else {
      if (!this.etag) {
        // The 412 had no version: read it, so the next save is checked against it.
        const { etag } = await api.task(this.task.id);
        this.etag = etag;
      }
      await this.save();
    }
  }

  /** A live change to the open task: refresh the fields unless the user is mid-edit. */
  async externalChange(deleted) {
    if (!this.task) return;
    if (deleted) {
      this.app.close();
      this.app.toast("The task you had open was deleted.");
      return;
    }
    this.loadSubtasks();
    if (Object.keys(this.pending).length || this.saving) return; // the save will meet the conflict
    try {
      const { data, etag } = await api.task(this.task.id);
      if (etag === this.etag || Object.keys(this.pending).length) return;
      this.task = data;
      this.etag = etag;
      const focused = document.activeElement;
      const keep = focused && this.pane.contains(focused) && (focused.id === "detail-title" || focused.id === "detail-notes") ? focused.value : null;
      this.fill(data);
      if (keep !== null && focused.value !== keep) focused.value = keep;
    } catch (error) {
      if (error.status === 404) this.externalChange(true);
    }
  }

  async loadSubtasks() {
    if (!this.task) return;
    const parent = this.task.id;
    try {
      const { data } = await api.subtasks(parent);
      if (!this.task || this.task.id !== parent) return;
      $("subtasks").replaceChildren(
        ...data.tasks.map((sub) => {
          const li = el("li", "subtask" + (sub.isCompleted ? " done" : ""));
          li.dataset.id = sub.id;
          const box = el("input");
          box.type = "checkbox";
          box.checked = sub.isCompleted;
          box.setAttribute("aria-label", `Complete subtask “${sub.title}”`);
          box.addEventListener("change", async () => {
            try {
              await api.updateTask(sub.id, { isCompleted: box.checked });
              li.classList.toggle("done", box.checked);
            } catch (error) {
              box.checked = !box.checked;
              this.app.onError(error);
            }
          });
          li.append(box, el("span", "subtask-title", sub.title));
          return li;
        }),
      );
    } catch (error) {
      if (error.status !== 404) this.app.onError(error);
    }
  }

  async addSubtask() {
    const input = $("subtask-entry");
    const title = input.value.trim();
    if (!title || !this.task) return;
    try {
      await api.addSubtask(this.task.id, { title });
      input.value = "";
      this.loadSubtasks();
    } catch (error) {
      this.app.onError(error);
    }
  }
}
