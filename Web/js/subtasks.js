// The detail pane's subtasks: the open task's subtasks with their checkboxes, and the entry
// that adds one (Enter).
import { api } from "./api.js";
import { el } from "./format.js";
import { taskFields } from "./quickentry.js";

const $ = (id) => document.getElementById(id);

export class Subtasks {
  /** `detail` gives `task` (the open task) and `app` (`taskChanged(task)`, `onError`). */
  constructor(detail) {
    this.detail = detail;
    $("subtask-entry").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) {
        event.preventDefault();
        this.add();
      }
    });
  }

  /** True when subtask `id` is listed. */
  shows(id) {
    return [...$("subtasks").children].some((li) => li.dataset.id === id);
  }

  /** Lists the open task's subtasks. */
  async load() {
    const { app } = this.detail;
    const parent = this.detail.task?.id;
    if (!parent) return;
    try {
      const { data } = await api.subtasks(parent);
      if (this.detail.task?.id !== parent) return;
      $("subtasks").replaceChildren(...data.tasks.map((sub) => this.item(sub)));
    } catch (error) {
      if (error.status !== 404) app.onError(error);
    }
  }

  item(sub) {
    const { app } = this.detail;
    const li = el("li", "subtask" + (sub.isCompleted ? " done" : ""));
    li.dataset.id = sub.id;
    const box = el("input");
    box.type = "checkbox";
    box.checked = sub.isCompleted;
    box.setAttribute("aria-label", `Complete subtask “${sub.title}”`);
    box.addEventListener("change", async () => {
      try {
        const { data } = await api.updateTask(sub.id, { isCompleted: box.checked });
        li.classList.toggle("done", box.checked);
        app.taskChanged(data);
      } catch (error) {
        box.checked = !box.checked;
        app.onError(error);
      }
    });
    li.append(box, el("span", "subtask-title", sub.title));
    return li;
  }

  /** Adds the entry's text as a subtask of the open task, read as quick entry reads a line
   * (`Write questions tomorrow !high ^15m`: no priority unless stated, where the API's
   * full-form default is medium). A `#list` is not taken: a subtask is in its parent's list. */
  async add() {
    const { app } = this.detail;
    const input = $("subtask-entry");
    const text = input.value.trim();
    if (!text || !this.detail.task) return;
    try {
      const { data: parsed } = await api.parse(text);
      if (parsed.list) {
        app.toast(`A subtask is in its parent's list: leave out “#${parsed.list}”, or quote the word to keep it in the title.`);
        return;
      }
      // A line of nothing but words quick entry takes (`!high`) is the title itself.
      const fields = parsed.title.trim() ? taskFields(parsed) : { title: text, priority: parsed.priority || "none" };
      const { data } = await api.addSubtask(this.detail.task.id, fields);
      input.value = "";
      app.taskChanged(data);
      this.load();
    } catch (error) {
      app.onError(error);
    }
  }
}
