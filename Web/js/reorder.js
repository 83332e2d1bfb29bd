// Drag to reorder tasks, with a mouse or a finger, by each row's handle (pointer events).
// Dropping a row puts it before the row under the pointer: POST /tasks/batch {move, before}.

/** Enables reordering the rows in `container`; `onMove(id, beforeId)` persists a drop. */
export function enableReorder(container, onMove) {
  let drag = null;
  container.addEventListener("pointerdown", (event) => {
    const handle = event.target.closest(".drag-handle");
    if (!handle || (event.pointerType === "mouse" && event.button !== 0)) return;
    const row = handle.closest("li.task-row");
    if (!row) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    const rect = row.getBoundingClientRect();
    drag = { row, handle, list: row.parentElement, startY: event.clientY, offset: event.clientY - rect.top, pointer: event.pointerId };
    row.classList.add("dragging");
  });
  container.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const { row, list } = drag;
    row.style.transform = `translateY(${event.clientY - drag.startY}px)`;
    const siblings = [...list.children].filter((node) => node !== row);
    const over = siblings.find((node) => {
      const r = node.getBoundingClientRect();
      return event.clientY < r.top + r.height / 2;
    });
    siblings.forEach((node) => node.classList.remove("drop-before"));
    if (over) over.classList.add("drop-before");
    drag.before = over || null;
    drag.moved = Math.abs(event.clientY - drag.startY) > 4;
  });
  const finish = (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const { row, list, before, moved } = drag;
    drag = null;
    row.classList.remove("dragging");
    row.style.transform = "";
    list.querySelectorAll(".drop-before").forEach((node) => node.classList.remove("drop-before"));
    if (!moved || event.type === "pointercancel") return;
    if (before === row.nextElementSibling) return; // dropped where it was
    list.insertBefore(row, before);
    onMove(row.dataset.id, before ? before.dataset.id : null);
  };
  container.addEventListener("pointerup", finish);
  container.addEventListener("pointercancel", finish);
}
