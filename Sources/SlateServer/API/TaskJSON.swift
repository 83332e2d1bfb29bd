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
    /// The subtask counts of the tasks that have subtasks.
    let subtaskCounts: [UUID: SubtaskCount]

    /// One task, as an object.
    init(_ task: TaskItem, listNames: [UUID: String], now: Date, calendar: Calendar, subtaskCounts: [UUID: SubtaskCount] = [:]) {
        self.init(tasks: [task], isArray: false, listNames: listNames, now: now, calendar: calendar, subtaskCounts: subtaskCounts)
    }

    /// An array of tasks.
    init(array tasks: [TaskItem], listNames: [UUID: String], now: Date, calendar: Calendar, subtaskCounts: [UUID: SubtaskCount] = [:]) {
        self.init(tasks: tasks, isArray: true, listNames: listNames, now: now, calendar: calendar, subtaskCounts: subtaskCounts)
    }

    private init(tasks: [TaskItem], isArray: Bool, listNames: [UUID: String], now: Date, calendar: Calendar,
                 subtaskCounts: [UUID: SubtaskCount]) {
        self.tasks = tasks
        self.isArray = isArray
        self.listNames = listNames
        self.now = now
        self.calendar = calendar
        self.subtaskCounts = subtaskCounts
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
        output.bytes += Self.keyBytes[0]
        output.bytes.append(UInt8(ascii: "["))
        for (index, alert) in task.alerts.enumerated() {
            if index > 0 { output.comma() }
            output.string(alert.text)
        }
        output.bytes.append(UInt8(ascii: "]"))
        output.bytes += Self.keyBytes[1]
        if let completedAt = task.completedAt { output.string(Timestamp.format(completedAt)) } else { output.null() }
        output.bytes += Self.keyBytes[2]
        output.string(Timestamp.format(task.created))
        output.bytes += Self.keyBytes[3]
        if let due = task.due {
            output.string(task.isAllDay ? Timestamp.formatDay(due, calendar: calendar) : Timestamp.format(due))
        } else {
            output.null()
        }
        output.bytes += Self.keyBytes[4]
        output.id(task.id)
        output.bytes += Self.keyBytes[5]
        output.bool(task.isAllDay)
        output.bytes += Self.keyBytes[6]
        output.bool(task.isCompleted)
        output.bytes += Self.keyBytes[7]
        output.bool(task.isFlagged)
        output.bytes += Self.keyBytes[8]
        output.bool(isOverdue(task, startOfToday: &startOfToday))
        output.bytes += Self.keyBytes[9]
        if let listID = task.listID, let name = listNames[listID] { output.string(name) } else { output.null() }
        output.bytes += Self.keyBytes[10]
        if let listID = task.listID { output.id(listID) } else { output.null() }
        output.bytes += Self.keyBytes[11]
        output.string(Timestamp.format(task.modified))
        output.bytes += Self.keyBytes[12]
        output.string(task.notes)
        output.bytes += Self.keyBytes[13]
        output.int(task.number)
        output.bytes += Self.keyBytes[14]
        output.double(task.order)
        output.bytes += Self.keyBytes[15]
        if let parentID = task.parentID { output.id(parentID) } else { output.null() }
        output.bytes += Self.keyBytes[16]
        output.string(task.priority.name)
        output.bytes += Self.keyBytes[17]
        if let recurrence = task.recurrence { output.string(recurrence.phrase) } else { output.null() }
        output.bytes += Self.keyBytes[18]
        if let offset = task.reminderOffset { output.int(offset) } else { output.null() }
        output.bytes += Self.keyBytes[19]
        let subtasks = subtaskCounts[task.id] ?? .zero
        output.bytes += Self.activeKey
        output.int(subtasks.active)
        output.bytes += Self.totalKey
        output.int(subtasks.total)
        output.bytes.append(UInt8(ascii: "}"))
        output.bytes += Self.keyBytes[20]
        output.bytes.append(UInt8(ascii: "["))
        for (index, tag) in task.tags.enumerated() {
            if index > 0 { output.comma() }
            output.string(tag)
        }
        output.bytes.append(UInt8(ascii: "]"))
        output.bytes += Self.keyBytes[21]
        output.string(task.title)
        output.bytes.append(UInt8(ascii: "}"))
    }

    /// The keys in byte order (as JSONWriter sorts them), each as written: `{"completedAt":`
    /// for the first, `,"created":` for the others.
    private static let keys = [
        "alerts", "completedAt", "created", "due", "id", "isAllDay", "isCompleted", "isFlagged", "isOverdue", "list", "listId",
        "modified", "notes", "number", "order", "parentId", "priority", "recurrence", "reminderOffset", "subtaskCount", "tags",
        "title",
    ]
    private static let activeKey = Array("{\"active\":".utf8)
    private static let totalKey = Array(",\"total\":".utf8)
    private static let keyBytes: [[UInt8]] = keys.enumerated().map { index, key in
        Array(((index == 0 ? "{" : ",") + "\"" + key + "\":").utf8)
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
