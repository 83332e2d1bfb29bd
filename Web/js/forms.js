// The dialogs: the full task form (new, or edit with Save / Cancel where Cancel discards),
// the list form (name, colour from the palette or custom, icon) and deleting a list.
import { AlertEditor } from "./alerteditor.js";
import { api, request } from "./api.js";
import { vocabulary } from "./vocabulary.js";
import {
  dueFromInput,
  dueInputComplete,
  dueInputValue,
  el,
  friendlyDue,
  listOptions,
  localDay,
  repeatOptions,
  showDueInput,
  tagsFromInput,
  tagsInputValue,
} from "./format.js";

const $ = (id) => document.getElementById(id);

/** The palette's colours by name, for people who hear them (a colour not named here is said as its code). */
const COLOUR_NAMES = {
  "#FF6B6B": "red", "#FF9F43": "orange", "#FFE66D": "yellow", "#A8E6CF": "mint", "#4ECDC4": "teal",
  "#4A90D9": "blue", "#C3A6FF": "lavender", "#FF8FC7": "pink", "#8E8E93": "grey",
};

export class TaskForm {
  /** `app` gives `lists`, `currentListId()`, `onError`, `taskChanged(task)`, `refreshAll()`. */
  constructor(app) {
    this.app = app;
    this.dialog = $("task-form");
    this.form = this.dialog.querySelector("form");
    this.editing = null;
    const f = this.form.elements;
    const updateButton = () => {
      $("task-form-add").disabled = !f.title.value.trim();
    };
    f.title.addEventListener("input", updateButton);
    // A new task gets the account's default alerts unless the user changes them here.
    this.alertEditor = new AlertEditor($("task-form-alerts"), { prefix: "task-form", onChange: () => (this.alertsTouched = true) });
    const dueToggle = ({ turnedOn = false } = {}) => {
      showDueInput(f.due, f.allDay, f.hasDue.checked, { fillEmpty: turnedOn });
      if (this.editing || this.alertsTouched) this.alertEditor.setDue({ hasDue: f.hasDue.checked, isAllDay: f.allDay.checked });
      else this.showDefaultAlerts();
    };
    f.hasDue.addEventListener("change", () => dueToggle({ turnedOn: true }));
    f.allDay.addEventListener("change", () => dueToggle());
    this.dueToggle = dueToggle;
    this.updateButton = updateButton;
    $("task-form-cancel").addEventListener("click", () => this.dialog.close());
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  /**
   * Opens the form empty (new task), or to edit `task`: its current version is read first,
   * and Save sends only what the user changed, checked against that version.
   */
  async open(task = null) {
    this.editing = null;
    this.etag = null;
    if (task) {
      try {
        const { data, etag } = await api.task(task.id);
        task = data;
        this.etag = etag;
      } catch (error) {
        this.app.onError(error);
        return;
      }
    }
    this.editing = task;
    const f = this.form.elements;
    this.form.reset();
    $("task-form-title").textContent = task ? "Edit Task" : "New Task";
    $("task-form-add").textContent = task ? "Save" : "Add";
    const select = f.listId;
    select.replaceChildren(...listOptions(this.app.lists));
    select.value = task ? task.listId || "" : this.app.currentListId() || "";
    f.title.value = task ? task.title : "";
    f.notes.value = task ? task.notes : "";
    f.priority.value = task ? task.priority : "medium";
    f.hasDue.checked = !!(task && task.due);
    f.allDay.checked = !!(task && task.due && task.isAllDay);
    f.due.type = f.allDay.checked ? "date" : "datetime-local";
    f.due.value = task ? dueInputValue(task) : "";
    delete f.due.dataset.time;
    f.isFlagged.checked = !!(task && task.isFlagged);
    if (!task) {
      // A new task starts as quick entry makes one in this view, shown in the form: flagged
      // in Flagged, due today in Today and Scheduled (so that the view shows it).
      const view = this.app.currentView();
      if (view === "flagged") f.isFlagged.checked = true;
      if (view === "today" || view === "scheduled") {
        f.hasDue.checked = true;
        f.allDay.checked = true;
        f.due.type = "date";
        f.due.value = localDay();
      }
    }
    f.recurrence.replaceChildren(...repeatOptions(task ? task.recurrence : null));
    f.recurrence.value = (task && task.recurrence) || "";
    f.tags.value = task ? tagsInputValue(task.tags) : "";
    f.isCompleted.checked = !!(task && task.isCompleted);
    $("task-form-completed").hidden = !task;
    this.form.querySelector(".form-error").hidden = true;
    this.alertsTouched = false;
    this.alertEditor.set(task ? task.alerts : [], { hasDue: f.hasDue.checked, isAllDay: f.allDay.checked });
    if (!task) this.defaults = null; // read again: settings may have changed
    this.dueToggle();
    this.updateButton();
    this.original = task ? this.values() : null;
    this.dialog.showModal();
    f.title.focus();
  }

  /** A new task's alerts: the account's defaults for a timed or an all-day due date. */
  async showDefaultAlerts() {
    const f = this.form.elements;
    if (!f.hasDue.checked) return this.alertEditor.set([], { hasDue: false, isAllDay: false });
    try {
      this.defaults = this.defaults || (await request("GET", "/alerts/settings")).data;
    } catch {
      this.defaults = { timedDefaults: [], allDayDefaults: [] };
    }
    if (this.editing || this.alertsTouched || !this.dialog.open) return;
    const allDay = f.allDay.checked;
    this.alertEditor.set(allDay ? this.defaults.allDayDefaults : this.defaults.timedDefaults, { hasDue: true, isAllDay: allDay });
  }

  /** The form's fields as the API takes them (alerts only when chosen here: else the defaults). */
  values() {
    const f = this.form.elements;
    const alerts = this.editing || this.alertsTouched ? { alerts: this.alertEditor.value } : {};
    return {
      ...alerts,
      title: f.title.value.trim(),
      notes: f.notes.value,
      listId: f.listId.value || null,
      priority: f.priority.value,
      due: f.hasDue.checked ? dueFromInput(f.due.value, f.allDay.checked) : null,
      isFlagged: f.isFlagged.checked,
      recurrence: f.recurrence.value || null,
      tags: tagsFromInput(f.tags.value),
      ...(this.editing ? { isCompleted: f.isCompleted.checked } : {}),
    };
  }

  /** The lists changed while the form is open: its List field keeps what was chosen. */
  listsChanged() {
    if (!this.dialog.open) return;
    const select = this.form.elements.listId;
    const chosen = select.value || (this.editing?.listId ?? "");
    select.replaceChildren(...listOptions(this.app.lists));
    select.value = chosen;
  }

  async submit() {
    const fields = this.values();
    if (!fields.title || this.busy) return;
    const error = this.form.querySelector(".form-error");
    const f = this.form.elements;
    if (f.hasDue.checked && !dueInputComplete(f.due)) {
      // A half-typed date is neither a date nor a request to clear one.
      error.textContent = "The due date is incomplete: finish the date (and time), or turn Due date off.";
      error.hidden = false;
      f.due.focus();
      return;
    }
    let changes = fields;
    if (this.editing) {
      const same = (a, b) => (Array.isArray(a) ? JSON.stringify(a) === JSON.stringify(b) : a === b);
      changes = Object.fromEntries(Object.entries(fields).filter(([key, value]) => !same(value, this.original[key])));
      if (!Object.keys(changes).length) {
        this.dialog.close();
        return;
      }
    }
    this.busy = true;
    $("task-form-add").disabled = true;
    try {
      const { data, etag } = this.editing ? await api.updateTask(this.editing.id, changes, this.etag) : await api.createTask(fields);
      this.dialog.close();
      this.app.taskChanged(data, { created: !this.editing, etag });
    } catch (failure) {
      if (failure.status === 412 && failure.current) {
        // Someone else saved first: show their version; a second Save is a deliberate overwrite.
        const theirs = failure.current;
        this.etag = failure.etag;
        const list = this.app.lists.find((l) => l.id === theirs.listId)?.name || "no list";
        error.textContent =
          `This task was changed elsewhere while you edited it. Their version: “${theirs.title}”; notes “${theirs.notes || "—"}”; ` +
          `${theirs.priority} priority; due ${theirs.due ? friendlyDue(theirs) : "—"}; ${theirs.isFlagged ? "flagged" : "not flagged"}; ` +
          `${theirs.isCompleted ? "completed" : "not completed"}; in ${list}. Save again to apply your changes over it, or Cancel to keep theirs.`;
      } else error.textContent = failure.message;
      error.hidden = false;
      if (failure.status === 401) this.dialog.close();
    } finally {
      this.busy = false;
      this.updateButton();
    }
  }
}

export class ListForm {
  /** `app` gives `onError`, `reloadLists()`, `navigate(changes)`, `state()`. */
  constructor(app) {
    this.app = app;
    this.dialog = $("list-form");
    this.form = this.dialog.querySelector("form");
    this.list = null;
    this.color = vocabulary.defaultColor;
    this.icon = vocabulary.defaultIcon;
    const swatches = this.form.querySelector(".swatches");
    swatches.replaceChildren(
      ...vocabulary.palette.map((color) => {
        const button = el("button", "swatch");
        button.type = "button";
        button.dataset.color = color;
        button.style.backgroundColor = color;
        button.setAttribute("aria-label", `Colour: ${COLOUR_NAMES[color] || color}`);
        button.addEventListener("click", () => this.pickColor(color));
        return button;
      }),
    );
    this.form.elements.customColor.addEventListener("input", (event) => this.pickColor(event.target.value.toUpperCase()));
    const icons = this.form.querySelector(".icon-choices");
    icons.replaceChildren(
      ...vocabulary.icons.map(({ name, glyph }) => {
        const button = el("button", "icon-choice", glyph);
        button.type = "button";
        button.dataset.icon = name;
        button.setAttribute("aria-label", `Icon ${name.replace(/[.]/g, " ")}`);
        button.addEventListener("click", () => this.pickIcon(name));
        return button;
      }),
    );
    $("list-form-cancel").addEventListener("click", () => this.dialog.close());
    $("list-delete").addEventListener("click", () => this.confirmDelete());
    $("list-move-up").addEventListener("click", () => this.move(-1));
    $("list-move-down").addEventListener("click", () => this.move(1));
    $("delete-list-cancel").addEventListener("click", () => $("list-delete-dialog").close());
    $("delete-list-keep-tasks").addEventListener("click", () => this.remove("keep"));
    $("delete-list-with-tasks").addEventListener("click", () => this.remove("delete"));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  pickColor(color) {
    this.color = color;
    this.form.querySelectorAll(".swatch").forEach((s) => s.setAttribute("aria-pressed", String(s.dataset.color === color)));
    this.form.elements.customColor.value = color.toLowerCase();
  }

  pickIcon(icon) {
    this.icon = icon;
    this.form.querySelectorAll(".icon-choice").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.icon === icon)));
  }

  /** Opens the form for a new list, or to edit `list`. */
  open(list = null) {
    this.list = list;
    this.form.reset();
    $("list-form-title").textContent = list ? "Edit List" : "New List";
    this.form.elements.name.value = list ? list.name : "";
    const palette = vocabulary.palette;
    this.pickColor(list ? list.color : palette[Math.floor(Math.random() * palette.length)]);
    this.pickIcon(list ? list.icon : vocabulary.defaultIcon);
    $("list-delete").hidden = !list;
    $("list-move-up").hidden = !list;
    $("list-move-down").hidden = !list;
    this.form.querySelector(".form-error").hidden = true;
    this.dialog.showModal();
    this.form.elements.name.focus();
  }

  async submit() {
    const name = this.form.elements.name.value.trim();
    const error = this.form.querySelector(".form-error");
    if (!name) {
      error.textContent = "A list needs a name.";
      error.hidden = false;
      return;
    }
    const fields = { name, color: this.color, icon: this.icon };
    if (this.busy) return;
    this.busy = true;
    try {
      const { data } = this.list ? await api.updateList(this.list.id, fields) : await api.createList(fields);
      this.dialog.close();
      await this.app.reloadLists();
      if (!this.list) this.app.navigate({ list: data.id, task: "" });
      else this.app.refreshAll();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    } finally {
      this.busy = false;
    }
  }

  /** Moves the edited list one place up or down (touch and keyboard users' reorder). */
  async move(delta) {
    const lists = this.app.lists;
    const index = lists.findIndex((l) => l.id === this.list?.id);
    if (index === -1) return;
    const target = index + delta;
    if (target < 0 || target >= lists.length) return;
    // "before" names the list it ends up in front of; null puts it last.
    const before = delta < 0 ? lists[target].id : lists[target + 1]?.id || null;
    try {
      await api.moveList(this.list.id, before);
      await this.app.reloadLists();
    } catch (error) {
      this.app.onError(error);
    }
  }

  confirmDelete() {
    const list = this.list;
    if (!list) return;
    const count = list.activeCount;
    document.querySelector("#list-delete-dialog .list-delete-message").textContent =
      `“${list.name}” has ${count} active ${count === 1 ? "task" : "tasks"}. Delete its tasks too, or keep them without a list (in the Inbox)?`;
    $("list-delete-dialog").showModal();
  }

  async remove(tasks) {
    const list = this.list;
    $("list-delete-dialog").close();
    this.dialog.close();
    try {
      const { change } = await api.deleteList(list.id, tasks);
      await this.app.reloadLists();
      if (this.app.state().list === list.id) this.app.navigate({ view: "all", list: "" });
      else this.app.refreshAll();
      this.app.toast(`Deleted list “${list.name}”`, { undoable: true, change });
    } catch (error) {
      this.app.onError(error);
    }
  }
}
