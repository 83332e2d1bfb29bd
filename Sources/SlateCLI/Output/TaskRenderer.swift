import Foundation
import SlateCore

/// Task rows for people: aligned columns, priority marks in colour, overdue dates in red,
/// completed tasks struck through, the list in its colour, the flag, a note preview.
struct TaskRenderer {
    let session: Session
    let lists: [UUID: TaskList]

    private var style: Style { session.style }

    /// One line per task, columns aligned across `tasks`.
    func rows(_ tasks: [TaskItem]) -> [String] {
        let numberWidth = tasks.map { String($0.number).count }.max() ?? 1
        let due = session.dueFormatter
        let dueTexts = tasks.map { task in task.due(in: due.calendar).map { due.string($0, isAllDay: task.isAllDay) } ?? "" }
        let listTexts = tasks.map { task in task.listID.flatMap { lists[$0]?.name } ?? "" }
        let dueWidth = dueTexts.map(displayWidth).max() ?? 0
        var listWidth = min(listTexts.map(displayWidth).max() ?? 0, 16)
        let priorityWidth = tasks.contains { $0.priority != .none } ? (tasks.map(\.priority.rawValue).max() ?? 0) : 0
        // "  #12 ", the box and the flag (8 + digits), then each column after a two-space gap.
        func fixedWidth() -> Int {
            8 + numberWidth + (priorityWidth > 0 ? priorityWidth + 2 : 0)
                + (listWidth > 0 ? listWidth + 4 : 0) + (dueWidth > 0 ? dueWidth + 2 : 0)
        }
        // On a narrow terminal the title keeps at least 12 columns; list names go first.
        if let width = session.width, width - fixedWidth() < 12 { listWidth = 0 }
        let fixed = fixedWidth()
        // On a terminal the title fills what the other columns leave; piped, nothing is
        // cut and the columns still line up.
        let titleWidth = session.width.map { max(12, $0 - fixed) }
            ?? (tasks.map { ($0.parentID == nil ? 0 : 2) + displayWidth($0.title) }.max() ?? 0)

        return tasks.enumerated().map { index, task in
            var line = "  " + String(repeating: " ", count: numberWidth - String(task.number).count)
            line += style.dim("#") + String(task.number) + " "
            line += task.isCompleted ? style.green("✓") + " " : "○ "
            line += task.isFlagged ? style.yellow("⚑") + " " : "  "
            line += pad(title(task, width: titleWidth, showsPreview: session.width != nil), to: titleWidth)
            if priorityWidth > 0 { line += "  " + pad(style.priority(task.priority), to: priorityWidth) }
            if listWidth > 0 {
                let name = truncate(listTexts[index], to: listWidth)
                let list = task.listID.flatMap { lists[$0] }
                let dot = list.map { style.color("●", hex: $0.color) + " " } ?? "  "
                line += "  " + dot + pad(list.map { style.color(name, hex: $0.color) } ?? "", to: listWidth)
            }
            if dueWidth > 0 {
                let text = dueTexts[index]
                line += "  " + (task.isOverdue(now: session.now, calendar: session.calendar) ? style.red(text) : text)
            }
            return trimTrailing(line)
        }
    }

    /// The title (struck through when completed), a subtask marker, and on a terminal a
    /// dim first line of the notes when there is room.
    private func title(_ task: TaskItem, width: Int, showsPreview: Bool) -> String {
        let marker = task.parentID == nil ? "" : "↳ "
        let preview = showsPreview ? task.notes.split(whereSeparator: \.isNewline).first.map(String.init) ?? "" : ""
        let titleText = truncate(marker + task.title, to: width)
        let styled = task.isCompleted ? style.completed(titleText) : titleText
        let room = width - displayWidth(titleText) - 2
        guard !preview.isEmpty, room >= 8 else { return styled }
        return styled + style.dim("  " + truncate(preview, to: room))
    }

    private func trimTrailing(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
