// Quick entry: one line such as "Storyboard tomorrow 5pm !high #Story", with chips showing
// what the server understood as you type (POST /tasks/parse); Enter adds it.
import { describeAlert } from "./alerteditor.js";
import { api } from "./api.js";
import { el, friendlyDue, localDay } from "./format.js";
import { priorityInfo } from "./vocabulary.js";

/** A new task's fields from what `POST /tasks/parse` read in a line (no list: the caller's).
 * No priority unless stated; `^15m` alerts, else the account's defaults. */
export function taskFields(parsed) {
  const fields = { title: parsed.title, priority: parsed.priority || "none", isFlagged: !!parsed.isFlagged, tags: parsed.tags || [] };
  if (parsed.due) fields.due = parsed.due;
  if (parsed.recurrence) fields.recurrence = parsed.recurrence;
  if (parsed.notes) fields.notes = parsed.notes;
  if (parsed.alerts) fields.alerts = parsed.alerts;
  return fields;
}

export class QuickEntry {
  /** `app` gives `currentListId()`, `taskChanged(task, {created})`, `onError`. */
  constructor(app) {
    this.app = app;
    this.input = document.getElementById("quick-entry");
    this.chips = document.getElementById("quick-chips");
    this.timer = null;
    this.input.addEventListener("input", () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.preview(), 120);
    });
    document.getElementById("quick-entry-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.add();
    });
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        this.input.value = "";
        this.chips.replaceChildren();
        this.input.blur();
      }
    });
  }

  async preview() {
    const text = this.input.value.trim();
    this.abort?.abort();
    if (!text) {
      this.chips.replaceChildren();
      return;
    }
    this.abort = new AbortController();
    try {
      const { data } = await api.parse(text, this.abort.signal);
      this.showChips(data);
    } catch (error) {
      if (error.name === "AbortError") return;
      if (error.status === 422) this.showError(error.message);
    }
  }

  /** What the line cannot be read as, in place of the chips. */
  showError(message) {
    const chip = el("span", "chip chip-error", message);
    chip.dataset.kind = "error";
    this.chips.replaceChildren(chip);
  }

  showChips(parsed) {
    const chips = [];
    const chip = (kind, text) => {
      const node = el("span", `chip chip-${kind}`, text);
      node.dataset.kind = kind;
      chips.push(node);
    };
    if (parsed.due) chip("due", "📅 " + friendlyDue({ due: parsed.due, isAllDay: parsed.isAllDay }));
    if (parsed.priority) chip("priority", "! " + priorityInfo(parsed.priority).label);
    if (parsed.list) chip("list", (parsed.listId ? "# " : "# new list? ") + parsed.list);
    for (const tag of parsed.tags || []) chip("tag", "🏷 " + tag);
    if (parsed.recurrence) chip("recurrence", "↻ " + parsed.recurrence);
    if (parsed.isFlagged) chip("flag", "⚑ Flagged");
    for (const alert of parsed.alerts || []) chip("alert", "🔔 " + describeAlert(alert, { isAllDay: parsed.isAllDay }));
    // "feb 30" is no date: said, so that a typo does not pass for a title.
    for (const warning of parsed.warnings || []) chip("warning", "⚠ " + warning);
    this.chips.replaceChildren(...chips);
  }

  async add() {
    const text = this.input.value.trim();
    if (!text || this.busy) return;
    clearTimeout(this.timer);
    this.busy = true; // one task per Enter, however fast the second comes
    try {
      const { data: parsed } = await api.parse(text);
      if (!parsed.title.trim()) {
        this.app.toast("A task needs a title — the line only had a date, priority or list.");
        return;
      }
      if (parsed.list && !parsed.listId) {
        this.app.toast(`There is no list named “${parsed.list}”. Create it first, or quote the word.`);
        return;
      }
      const fields = taskFields(parsed);
      const listId = parsed.listId || this.app.currentListId();
      if (listId) fields.listId = listId;
      if (this.app.currentView() === "flagged") fields.isFlagged = true;
      // Added in Today or Scheduled, an undated task is due today (as in Reminders), so it stays in sight.
      if (["today", "scheduled"].includes(this.app.currentView()) && !fields.due) fields.due = localDay();
      const { data } = await api.createTask(fields);
      if (this.input.value.trim() === text) {
        this.input.value = "";
        this.chips.replaceChildren();
      }
      this.app.taskChanged(data, { created: true });
    } catch (error) {
      // A line quick entry cannot read (`^abc`, `!urgent`) is said once, by the chip under
      // the field, which stays until the line changes; anything else is a toast.
      if (error.status === 422 && this.input.value.trim() === text) {
        this.showError(error.message);
      } else {
        this.app.onError(error);
      }
    } finally {
      this.busy = false;
    }
  }
}
