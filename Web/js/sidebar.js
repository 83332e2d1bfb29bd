// The sidebar: All Tasks, the smart lists with their counts, and the user's lists with
// colour, icon and active count. Lists reorder by dragging.
import { api } from "./api.js";
import { el, textOn } from "./format.js";
import { effectiveView } from "./state.js";
import { iconGlyph, vocabulary } from "./vocabulary.js";

/** The smart lists, as the server names them ({view, name, icon}). */
export function smartLists() {
  return vocabulary.smartLists.map((smart) => ({ view: smart.name, name: smart.title, icon: smart.glyph }));
}

export class Sidebar {
  /** `app` gives `editList(list)`, `onError(error)`, and `lists` (kept current here). */
  constructor(app) {
    this.app = app;
    this.smart = document.getElementById("smart-lists");
    this.user = document.getElementById("user-lists");
    this.counts = {};
    this.smart.replaceChildren(
      ...smartLists().map((item) => {
        const li = el("li");
        const link = el("a", "nav-item");
        link.dataset.view = item.view;
        link.href = `?view=${item.view}`;
        const icon = el("span", "nav-icon", item.icon);
        icon.setAttribute("aria-hidden", "true");
        link.append(icon, el("span", "nav-name", item.name), el("span", "nav-count"));
        li.append(link);
        return li;
      }),
    );
    this.enableListDrag();
    this.enableTouchListDrag();
  }

  /** Draws the user's lists. */
  renderLists(lists) {
    const signature = JSON.stringify(lists.map((l) => [l.id, l.name, l.color, l.icon, l.activeCount]));
    if (signature === this.signature) return;
    this.signature = signature;
    const items = lists.map((list) => {
      const li = el("li", "list-entry");
      const link = el("a", "nav-item");
      link.dataset.listId = list.id;
      link.href = `?list=${list.id}`;
      link.draggable = true;
      const icon = el("span", "nav-icon list-icon", iconGlyph(list.icon));
      icon.setAttribute("aria-hidden", "true");
      icon.style.backgroundColor = list.color;
      icon.style.color = textOn(list.color);
      const count = el("span", "nav-count", String(list.activeCount));
      count.setAttribute("aria-label", `${list.activeCount} active`);
      link.append(icon, el("span", "nav-name", list.name), count);
      const edit = el("button", "list-edit ghost small", "⋯");
      edit.type = "button";
      edit.setAttribute("aria-label", `Edit list “${list.name}”`);
      edit.addEventListener("click", () => this.app.editList(list));
      li.append(link, edit);
      return li;
    });
    this.user.replaceChildren(...items);
    if (!lists.length) this.user.append(el("li", "nav-empty", "No lists yet"));
    this.highlight(this.state);
  }

  /** Marks the current view's entry. */
  highlight(state) {
    this.state = state;
    if (!state) return;
    const view = effectiveView(state);
    document.querySelectorAll("#sidebar .nav-item").forEach((link) => {
      const current = state.list ? link.dataset.listId === state.list : link.dataset.view === view && !link.dataset.listId;
      if (current) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    });
  }

  /** Reads every count in one request (GET /counts). */
  async refreshCounts() {
    try {
      const { data } = await api.counts();
      this.showCounts(data.smartLists);
    } catch (error) {
      this.app.onError(error);
    }
  }

  /** Shows the smart lists' counts (active tasks; completed for Completed). */
  showCounts(counts) {
    for (const item of smartLists()) {
      const count = this.smart.querySelector(`[data-view="${item.view}"] .nav-count`);
      const value = counts[item.view];
      if (!count || value === undefined || count.textContent === String(value)) continue;
      count.textContent = String(value);
      count.setAttribute("aria-label", `${value} ${item.view === "completed" ? "completed" : "active"}`);
    }
  }

  /** Drag a list (mouse: HTML5 drag and drop) onto another to put it before that one. */
  enableListDrag() {
    let dragged = null;
    this.user.addEventListener("dragstart", (event) => {
      const link = event.target.closest("a.nav-item[data-list-id]");
      if (!link) return;
      dragged = link.dataset.listId;
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", dragged);
      link.classList.add("dragging");
    });
    this.user.addEventListener("dragover", (event) => {
      if (!dragged) return;
      event.preventDefault();
      const target = event.target.closest("li.list-entry");
      this.user.querySelectorAll(".drop-before, .drop-after").forEach((n) => n.classList.remove("drop-before", "drop-after"));
      if (target) target.classList.add(this.isAfter(event, target) ? "drop-after" : "drop-before");
    });
    this.user.addEventListener("dragend", () => {
      dragged = null;
      this.user.querySelectorAll(".dragging, .drop-before, .drop-after").forEach((n) => n.classList.remove("dragging", "drop-before", "drop-after"));
    });
    this.user.addEventListener("drop", async (event) => {
      event.preventDefault();
      const id = dragged || event.dataTransfer.getData("text/plain");
      const target = event.target.closest("li.list-entry");
      dragged = null;
      if (!id || !target) return;
      let beforeEntry = this.isAfter(event, target) ? target.nextElementSibling : target;
      const before = beforeEntry?.querySelector("a.nav-item")?.dataset.listId || null;
      if (before === id) return;
      await this.moveList(id, before);
    });
  }

  /**
   * With a finger: a long press on a list picks it up (a quick move is a scroll, left to
   * the browser), then it follows the finger and drops where it is lifted.
   */
  enableTouchListDrag() {
    let press = null;
    const clearMarks = () =>
      this.user.querySelectorAll(".dragging, .drop-before, .drop-after").forEach((n) => n.classList.remove("dragging", "drop-before", "drop-after"));
    this.user.addEventListener(
      "touchstart",
      (event) => {
        const link = event.target.closest("a.nav-item[data-list-id]");
        if (!link || event.touches.length !== 1) return;
        const touch = event.touches[0];
        press = { link, x: touch.clientX, y: touch.clientY, dragging: false, target: null };
        press.timer = setTimeout(() => {
          if (!press) return;
          press.dragging = true;
          link.classList.add("dragging");
        }, 350);
      },
      { passive: true },
    );
    this.user.addEventListener(
      "touchmove",
      (event) => {
        if (!press) return;
        const touch = event.touches[0];
        if (!press.dragging) {
          if (Math.hypot(touch.clientX - press.x, touch.clientY - press.y) > 8) {
            clearTimeout(press.timer);
            press = null;
          }
          return;
        }
        event.preventDefault(); // the list moves, not the page
        const target = document.elementFromPoint(touch.clientX, touch.clientY)?.closest("li.list-entry");
        this.user.querySelectorAll(".drop-before, .drop-after").forEach((n) => n.classList.remove("drop-before", "drop-after"));
        press.target = target || null;
        press.after = target ? this.isAfter(touch, target) : false;
        if (target) target.classList.add(press.after ? "drop-after" : "drop-before");
      },
      { passive: false },
    );
    const finish = async (event) => {
      if (!press) return;
      clearTimeout(press.timer);
      const { link, dragging, target, after } = press;
      press = null;
      clearMarks();
      if (!dragging) return;
      event.preventDefault(); // no click (and so no navigation) after a drag
      if (!target || event.type === "touchcancel") return;
      const id = link.dataset.listId;
      const beforeEntry = after ? target.nextElementSibling : target;
      const before = beforeEntry?.querySelector("a.nav-item")?.dataset.listId || null;
      if (before === id || (beforeEntry && beforeEntry === link.parentElement.nextElementSibling)) return;
      await this.moveList(id, before);
    };
    this.user.addEventListener("touchend", finish);
    this.user.addEventListener("touchcancel", finish);
    this.user.addEventListener("contextmenu", (event) => {
      if (event.target.closest("a.nav-item[data-list-id]")) event.preventDefault(); // the long press is ours
    });
  }

  isAfter(event, target) {
    const rect = target.getBoundingClientRect();
    return event.clientY > rect.top + rect.height / 2;
  }

  /** Moves list `id` before list `before` (null: to the end). */
  async moveList(id, before) {
    try {
      await api.moveList(id, before);
      await this.app.reloadLists();
    } catch (error) {
      this.app.onError(error);
    }
  }
}
