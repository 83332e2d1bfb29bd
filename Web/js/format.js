// How things look: due dates and list colours (names come from vocabulary.js).

const DAY = 86_400_000;

function startOfDay(date) {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

/** Parses a task's `due` (a `YYYY-MM-DD` day or an ISO date-time) as a local Date. */
export function dueDate(task) {
  if (!task.due) return null;
  if (task.isAllDay) {
    const [y, m, d] = task.due.slice(0, 10).split("-").map(Number);
    return new Date(y, m - 1, d);
  }
  return new Date(task.due);
}

// One formatter per set of options: `toLocaleDateString(undefined, options)` builds a new
// Intl.DateTimeFormat on every call, and that was most of a page's row-drawing time.
const formatters = new Map();
function formatted(date, options) {
  const key = JSON.stringify(options);
  let formatter = formatters.get(key);
  if (!formatter) formatters.set(key, (formatter = new Intl.DateTimeFormat(undefined, options)));
  return formatter.format(date);
}

/** "Today", "Tomorrow 5:00 PM", "Friday", "Mon 3 Dec", "3 Dec 2027": the due date for a row. */
export function friendlyDue(task, now = new Date()) {
  const date = dueDate(task);
  if (!date) return "";
  const days = Math.round((startOfDay(date) - startOfDay(now)) / DAY);
  let day;
  if (days === 0) day = "Today";
  else if (days === 1) day = "Tomorrow";
  else if (days === -1) day = "Yesterday";
  else if (days > 1 && days < 7) day = formatted(date, { weekday: "long" });
  else if (date.getFullYear() === now.getFullYear()) day = formatted(date, { weekday: "short", day: "numeric", month: "short" });
  else day = formatted(date, { day: "numeric", month: "short", year: "numeric" });
  if (task.isAllDay) return day;
  return day + " " + formatted(date, { hour: "numeric", minute: "2-digit" });
}

/** A date-time for the detail pane ("30 Nov 2026, 14:05"). */
export function friendlyDateTime(iso) {
  if (!iso) return "—";
  return formatted(new Date(iso), { dateStyle: "medium", timeStyle: "short" });
}

/** The value of a `datetime-local` input for a task's due date, and back. */
export function dueInputValue(task) {
  const date = dueDate(task);
  if (!date) return "";
  const pad = (n) => String(n).padStart(2, "0");
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return task.isAllDay ? day : `${day}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The API's `due` for an input value: a day for all-day, else an ISO date-time with the zone. */
export function dueFromInput(value, allDay) {
  if (!value) return null;
  if (allDay) return value.slice(0, 10);
  const date = new Date(value.length === 10 ? value + "T09:00" : value);
  return date.toISOString();
}

/** `YYYY-MM-DD` of the local day `offset` days from today. */
export function localDay(offset = 0) {
  const date = new Date();
  date.setDate(date.getDate() + offset);
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Shows or hides a due-date picker for its "Due date" (`has`) and "All day" toggles: a date
 * or a date-time picker, the value carried across. With `fillEmpty` (the user just turned
 * the due date on) an empty picker gets tomorrow (at 9:00); otherwise an empty or half-typed
 * picker stays as it is, so it is never mistaken for a date.
 */
export function showDueInput(input, allDayBox, has, { fillEmpty = true } = {}) {
  const allDay = allDayBox.checked;
  input.hidden = !has;
  allDayBox.parentElement.hidden = !has;
  const type = allDay ? "date" : "datetime-local";
  if (input.type !== type) {
    const value = input.value;
    // The time is kept while All day is on, and comes back when it is turned off (else 9:00).
    if (allDay && value.length > 10) input.dataset.time = value.slice(11, 16);
    input.type = type;
    input.value = allDay ? value.slice(0, 10) : value.length === 10 ? `${value}T${input.dataset.time || "09:00"}` : value;
  }
  if (has && fillEmpty && !input.value) input.value = localDay(1) + (allDay ? "" : "T09:00");
}

/**
 * True when a due-date picker holds a whole date. While a date is typed (Backspace in the
 * day, an hour typed as "0" then "2") the picker is briefly empty or invalid: that is never
 * a date to save, and never a request to clear one.
 */
export function dueInputComplete(input) {
  // A year typed on past four digits (Chrome's field takes six: 202609) is not a date yet.
  return input.value !== "" && !input.validity.badInput && /^\d{4}-\d\d-\d\d/.test(input.value)
    && !Number.isNaN(new Date(input.value.length === 10 ? input.value + "T00:00" : input.value).getTime());
}

/** `<option>`s: `first` ([value, label] pairs), then one per list. */
export function listOptions(lists, first = [["", "No list (Inbox)"]]) {
  const option = (value, label) => {
    const node = el("option", null, label);
    node.value = value;
    return node;
  };
  return [...first.map(([value, label]) => option(value, label)), ...lists.map((list) => option(list.id, list.name))];
}

/** The repeats offered by name; any other the task has (`every 3 days`) is offered too. */
const REPEATS = [
  ["", "Never"],
  ["every day", "Every day"],
  ["every week", "Every week"],
  ["every 2 weeks", "Every 2 weeks"],
  ["every month", "Every month"],
  ["every year", "Every year"],
];

/** `<option>`s for a Repeat field showing `current` (a task's `recurrence`, or null). */
export function repeatOptions(current) {
  const pairs = current && !REPEATS.some(([value]) => value === current) ? [...REPEATS, [current, current[0].toUpperCase() + current.slice(1)]] : REPEATS;
  return listOptions([], pairs);
}

/** A Tags field's text as tags: split at commas and spaces, `#`/`@` dropped (the server folds case). */
export function tagsFromInput(text) {
  return text
    .split(/[\s,]+/)
    .map((tag) => tag.replace(/^[#@]+/, ""))
    .filter(Boolean);
}

/** A task's tags as a Tags field shows them. */
export function tagsInputValue(tags) {
  return (tags || []).join(", ");
}

/** Black or white text, whichever reads better on a list colour (WCAG contrast). */
export function textOn(hex) {
  const n = parseInt(hex.slice(1), 16);
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return l > 0.179 ? "#000" : "#fff";
}

/** Creates an element with a class and text (text, never HTML). */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}
