import Foundation
import SlateCore

/// Tasks in the API's JSON shape, written straight from the models.
///
/// The same text `PublicJSON.task` gives through `JSONWriter` (keys in byte order, the same
/// number and date forms; TaskJSONTests compares them), without a dictionary of boxed
/// values per task: building and walking those was most of a list page's CPU.
struct TaskJSON: JSONWritable {
    let tasks: [TaskItem]
    let isArray: Bool
    let listNames: [UUID: String]
    let now: Date
    let calendar: Calendar

    /// One task, as an object.
    init(_ task: TaskItem, listNames: [UUID: String], now: Date, calendar: Calendar) {
        self.init(tasks: [task], isArray: false, listNames: listNames, now: now, calendar: calendar)
    }

    /// An array of tasks.
    init(array tasks: [TaskItem], listNames: [UUID: String], now: Date, calendar: Calendar) {
        self.init(tasks: tasks, isArray: true, listNames: listNames, now: now, calendar: calendar)
    }

    private init(tasks: [TaskItem], isArray: Bool, listNames: [UUID: String], now: Date, calendar: Calendar) {
        self.tasks = tasks
        self.isArray = isArray
        self.listNames = listNames
        self.now = now
        self.calendar = calendar
    }

    func writeJSON(into output: inout JSONOutput) {
        // `isOverdue` compares all-day dates with the start of today: worked out once.
        var startOfToday: Date?
        output.bytes.reserveCapacity(output.bytes.count + 640 * tasks.count)
        if isArray { output.bytes.append(UInt8(ascii: "[")) }
        for (index, task) in tasks.enumerated() {
            if index > 0 { output.bytes.append(UInt8(ascii: ",")) }
            write(task, startOfToday: &startOfToday, into: &output)
        }
        if isArray { output.bytes.append(UInt8(ascii: "]")) }
    }

    private func write(_ task: TaskItem, startOfToday: inout Date?, into output: inout JSONOutput) {
        // Keys in byte order, as JSONWriter sorts them.
        output.bytes.append(UInt8(ascii: "{"))
        output.key("completedAt")
        if let completedAt = task.completedAt { output.string(Timestamp.format(completedAt)) } else { output.null() }
        output.comma()
        output.key("created")
        output.string(Timestamp.format(task.created))
        output.comma()
        output.key("due")
        if let due = task.due {
            output.string(task.isAllDay ? Timestamp.formatDay(due, calendar: calendar) : Timestamp.format(due))
        } else {
            output.null()
        }
        output.comma()
        output.key("id")
        output.id(task.id)
        output.comma()
        output.key("isAllDay")
        output.bool(task.isAllDay)
        output.comma()
        output.key("isCompleted")
        output.bool(task.isCompleted)
        output.comma()
        output.key("isFlagged")
        output.bool(task.isFlagged)
        output.comma()
        output.key("isOverdue")
        output.bool(isOverdue(task, startOfToday: &startOfToday))
        output.comma()
        output.key("list")
        if let listID = task.listID, let name = listNames[listID] { output.string(name) } else { output.null() }
        output.comma()
        output.key("listId")
        if let listID = task.listID { output.id(listID) } else { output.null() }
        output.comma()
        output.key("modified")
        output.string(Timestamp.format(task.modified))
        output.comma()
        output.key("notes")
        output.string(task.notes)
        output.comma()
        output.key("number")
        output.int(task.number)
        output.comma()
        output.key("order")
        output.double(task.order)
        output.comma()
        output.key("parentId")
        if let parentID = task.parentID { output.id(parentID) } else { output.null() }
        output.comma()
        output.key("priority")
        output.string(task.priority.name)
        output.comma()
        output.key("recurrence")
        if let recurrence = task.recurrence { output.string(recurrence.phrase) } else { output.null() }
        output.comma()
        output.key("reminderOffset")
        if let offset = task.reminderOffset { output.int(offset) } else { output.null() }
        output.comma()
        output.key("tags")
        output.bytes.append(UInt8(ascii: "["))
        for (index, tag) in task.tags.enumerated() {
            if index > 0 { output.comma() }
            output.string(tag)
        }
        output.bytes.append(UInt8(ascii: "]"))
        output.comma()
        output.key("title")
        output.string(task.title)
        output.bytes.append(UInt8(ascii: "}"))
    }

    /// `TaskItem.isOverdue(now:calendar:)`, with the start of today computed at most once.
    private func isOverdue(_ task: TaskItem, startOfToday: inout Date?) -> Bool {
        guard !task.isCompleted, let due = task.due else { return false }
        guard task.isAllDay else { return due < now }
        let start = startOfToday ?? calendar.startOfDay(for: now)
        startOfToday = start
        return due < start
    }
}
