// The alert editor of the detail pane and the task form: the task's alerts as a list, each
// with Remove, and a row that adds one — at the due time, N minutes/hours/days/weeks before,
// N days before at a time of day ("1 day before at 9:00"), or at a fixed moment. Alerts are
// kept in the API's text form (`due`, `15m`, `1d@09:00`, an ISO moment); every text is set
// with textContent.
import { el } from "./format.js";

const UNITS = [
  ["m", "minutes", "minute"],
  ["h", "hours", "hour"],
  ["d", "days", "day"],
  ["w", "weeks", "week"],
];

const KINDS = [
  ["due", "At the due time"],
  ["before", "Before the due time"],
  ["day", "Days before, at a time"],
  ["moment", "At a date and time"],
];

const pad = (n) => String(n).padStart(2, "0");

/** "15 minutes before", "1 day before at 09:00", "At the due time", "24 Dec 2026, 09:00". */
export function describeAlert(text, { isAllDay = false } = {}) {
  if (text === "due") return isAllDay ? "At the start of the due day" : "At the due time";
  let match = /^(\d+)([smhdw])$/.exec(text);
  if (match) {
    const count = Number(match[1]);
    const unit = match[2] === "s" ? ["s", "seconds", "second"] : UNITS.find(([u]) => u === match[2]);
    return `${count} ${count === 1 ? unit[2] : unit[1]} before`;
  }
  match = /^(\d+)d@(\d\d):(\d\d)$/.exec(text);
  if (match) {
    const days = Number(match[1]);
    const time = `${match[2]}:${match[3]}`;
    if (days === 0) return `On the due day at ${time}`;
    return `${days} ${days === 1 ? "day" : "days"} before at ${time}`;
  }
  const moment = new Date(text);
  if (!Number.isNaN(moment.getTime())) return "At " + moment.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return text;
}

/** True for a fixed moment (an ISO date-time), false for an alert relative to the due date. */
export function isMoment(text) {
  return /^\d{4}-\d\d-\d\dT/.test(text);
}

/** The local `datetime-local` value of a Date. */
function localInputValue(date) {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export class AlertEditor {
  /**
   * Builds the editor into `container` (emptied). `prefix` makes its ids unique on the page;
   * `onChange(alerts)` is called after each add or remove with the new list.
   */
  constructor(container, { prefix, onChange = () => {}, label = "Alerts", relativeOnly = false }) {
    this.alerts = [];
    this.relativeOnly = relativeOnly;
    this.hasDue = false;
    this.isAllDay = false;
    this.onChange = onChange;
    const legend = el("legend", null, label);
    this.list = el("ul", "alert-list");
    this.list.setAttribute("aria-label", label);
    this.empty = el("p", "alert-empty", "No alerts.");
    this.noDue = el("p", "alert-hint", "Alerts before the due time need a due date; without one, alert at a date and time.");

    this.kind = el("select");
    this.kind.id = `${prefix}-alert-kind`;
    this.kind.setAttribute("aria-label", "When to alert");
    for (const [value, text] of KINDS.filter(([kind]) => !relativeOnly || kind !== "moment")) {
      const option = el("option", null, text);
      option.value = value;
      this.kind.append(option);
    }
    this.count = el("input");
    this.count.type = "number";
    this.count.min = "0";
    this.count.max = "999";
    this.count.value = "15";
    this.count.id = `${prefix}-alert-count`;
    this.count.setAttribute("aria-label", "How many");
    this.unit = el("select");
    this.unit.id = `${prefix}-alert-unit`;
    this.unit.setAttribute("aria-label", "Unit");
    for (const [value, label] of UNITS) {
      const option = el("option", null, label);
      option.value = value;
      this.unit.append(option);
    }
    this.days = el("input");
    this.days.type = "number";
    this.days.min = "0";
    this.days.max = "365";
    this.days.value = "1";
    this.days.id = `${prefix}-alert-days`;
    this.days.setAttribute("aria-label", "Days before the due day (0: on the day)");
    this.time = el("input");
    this.time.type = "time";
    this.time.value = "09:00";
    this.time.id = `${prefix}-alert-time`;
    this.time.setAttribute("aria-label", "Time of day");
    this.moment = el("input");
    this.moment.type = "datetime-local";
    this.moment.id = `${prefix}-alert-moment`;
    this.moment.setAttribute("aria-label", "Alert date and time");
    this.add = el("button", "ghost small alert-add", "Add alert");
    this.add.type = "button";
    this.add.id = `${prefix}-alert-add`;
    this.error = el("p", "form-error alert-error");
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;

    const row = el("div", "alert-add-row");
    row.append(this.kind, this.count, this.unit, this.days, this.time, this.moment, this.add);
    const fieldset = el("fieldset", "alert-editor");
    fieldset.append(legend, this.list, this.empty, this.noDue, row, this.error);
    container.replaceChildren(fieldset);

    this.kind.addEventListener("change", () => this.showKind());
    this.add.addEventListener("click", () => this.addFromFields());
    // Enter in a field of the add row adds (and never submits the surrounding form).
    row.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target !== this.add) {
        event.preventDefault();
        this.addFromFields();
      }
    });
    this.showKind();
  }

  /** Shows `alerts` (text forms) for a task with or without a due date. */
  set(alerts, { hasDue, isAllDay }) {
    this.alerts = [...(alerts || [])];
    this.setDue({ hasDue, isAllDay });
  }

  /** The due date changed: relative kinds are offered only with one. */
  setDue({ hasDue, isAllDay }) {
    this.hasDue = !!hasDue;
    this.isAllDay = !!isAllDay;
    // Without a due date the server keeps only the fixed moments: so does the list.
    if (!this.hasDue) this.alerts = this.alerts.filter((text) => isMoment(text));
    for (const option of this.kind.options) option.disabled = !this.hasDue && option.value !== "moment";
    if (!this.hasDue) this.kind.value = "moment";
    else if (this.kind.selectedOptions[0]?.disabled !== false) this.kind.value = "due";
    this.noDue.hidden = this.hasDue;
    this.error.hidden = true;
    this.showKind();
    this.render();
  }

  get value() {
    return [...this.alerts];
  }

  showKind() {
    const kind = this.kind.value;
    this.count.hidden = this.unit.hidden = kind !== "before";
    this.days.hidden = this.time.hidden = kind !== "day";
    this.moment.hidden = kind !== "moment";
    if (kind === "moment" && !this.moment.value) {
      const soon = new Date(Date.now() + 3_600_000);
      soon.setMinutes(0, 0, 0);
      this.moment.value = localInputValue(soon);
    }
  }

  render() {
    this.list.replaceChildren(
      ...this.alerts.map((text, index) => {
        const item = el("li", "alert-item");
        item.dataset.alert = text;
        const label = el("span", "alert-text", describeAlert(text, { isAllDay: this.isAllDay }));
        const remove = el("button", "ghost small alert-remove", "Remove");
        remove.type = "button";
        remove.setAttribute("aria-label", `Remove the alert ${label.textContent}`);
        remove.addEventListener("click", () => {
          this.alerts.splice(index, 1);
          this.render();
          this.onChange(this.value);
          (this.list.querySelector(".alert-remove") || this.add).focus();
        });
        item.append(label, remove);
        return item;
      }),
    );
    this.empty.hidden = this.alerts.length > 0;
  }

  /** The alert the add row describes, in text form; throws a message naming the field. */
  fromFields() {
    switch (this.kind.value) {
      case "due":
        return "due";
      case "before": {
        // An empty field is no number (Number("") would be 0: "at the due time").
        const count = this.count.value.trim() === "" ? NaN : Number(this.count.value);
        if (!Number.isInteger(count) || count < 0 || count > 999) throw new Error("How many: a whole number from 0 to 999.");
        return count === 0 ? "due" : `${count}${this.unit.value}`;
      }
      case "day": {
        const days = Number(this.days.value);
        if (!Number.isInteger(days) || days < 0 || days > 365) throw new Error("Days before: a whole number from 0 to 365.");
        if (!/^\d\d:\d\d/.test(this.time.value)) throw new Error("Time of day: choose a time such as 09:00.");
        return `${days}d@${this.time.value.slice(0, 5)}`;
      }
      default: {
        const moment = new Date(this.moment.value);
        if (!this.moment.value || Number.isNaN(moment.getTime())) throw new Error("Alert date and time: choose a date and a time.");
        if (moment.getTime() < Date.now()) throw new Error("Alert date and time: that moment has passed; choose one still to come.");
        return moment.toISOString();
      }
    }
  }

  addFromFields() {
    let text;
    try {
      text = this.fromFields();
    } catch (problem) {
      this.error.textContent = problem.message;
      this.error.hidden = false;
      return;
    }
    this.error.hidden = true;
    if (this.alerts.includes(text)) return;
    if (this.alerts.length >= 10) {
      this.error.textContent = "A task can have at most 10 alerts.";
      this.error.hidden = false;
      return;
    }
    this.alerts.push(text);
    this.render();
    this.onChange(this.value);
  }

  /** Shows a refusal from the server (a 422 naming `alerts`). */
  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }
}
