import Foundation
import SlateCore

/// Tasks in the API: SlateCore's one record (`TaskRecord`), written straight from the
/// models without a dictionary of boxed values per task.
struct TaskJSON: JSONWritable {
    let record: TaskRecordJSON

    /// One task, as an object.
    init(_ task: TaskItem, listNames: [UUID: String], now: Date, calendar: Calendar, subtaskCounts: [UUID: SubtaskCount] = [:]) {
        record = TaskRecordJSON(task, RecordContext(listNames: listNames, now: now, calendar: calendar, subtaskCounts: subtaskCounts))
    }

    /// An array of tasks.
    init(array tasks: [TaskItem], listNames: [UUID: String], now: Date, calendar: Calendar, subtaskCounts: [UUID: SubtaskCount] = [:]) {
        record = TaskRecordJSON(array: tasks, RecordContext(listNames: listNames, now: now, calendar: calendar, subtaskCounts: subtaskCounts))
    }

    /// Records of a cached read (`Slate.tasks(_:records:)`), as an array or one object.
    init(records: TaskRecords, isArray: Bool = true, listNames: [UUID: String], now: Date, calendar: Calendar,
         subtaskCounts: [UUID: SubtaskCount] = [:]) {
        record = TaskRecordJSON(records: records, isArray: isArray,
                                RecordContext(listNames: listNames, now: now, calendar: calendar, subtaskCounts: subtaskCounts))
    }

    func writeJSON(into output: inout JSONOutput) { record.writeJSON(into: &output) }
}
