import Foundation
import SlateStore

/// The account's lists and tasks at one moment, as an export writes them.
struct ExportSnapshot {
    /// In manual order.
    var lists: [TaskList]
    /// By number, so that an export of an imported export is the same file.
    var tasks: [TaskItem]
    var exported: Date
    /// The exporting Slate's calendar: it says which day an all-day date is.
    var calendar: Calendar

    /// The name of each list, by id.
    var listNames: [UUID: String] { Dictionary(lists.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first }) }
}

extension Slate {
    /// The account's lists and tasks as a file in `format`.
    ///
    /// `json` keeps every field; the other formats keep what they can express (see each
    /// format's documentation: `ICalendarFormat`, `TodoTxtFormat`, `TaskwarriorFormat`).
    ///
    /// ```swift
    /// try slate.export(.ics).write(to: URL(filePath: "slate.ics"))
    /// ```
    public func export(_ format: TransferFormat) throws -> Data {
        let snapshot = try exportSnapshot()
        switch format {
        case .json: return SlateJSONFormat.encode(snapshot)
        case .ics: return ICalendarFormat.encode(snapshot)
        case .todotxt: return TodoTxtFormat.encode(snapshot)
        case .taskwarrior: return TaskwarriorFormat.encode(snapshot)
        }
    }

    /// Imports a file into the account, all or nothing.
    ///
    /// The whole file is read and checked first; then every list and task is written in one
    /// transaction, one undo step ("Import 12 tasks"). Undoing it deletes the tasks and
    /// lists it created (unless changed since) and reverts those it updated; it cannot be
    /// redone. A file holds at most `TransferFormat.maximumImportBytes` and
    /// `maximumImportTasks`. A malformed file throws an `ImportError` that names the line or
    /// record and the field, and changes nothing.
    ///
    /// Matching what exists:
    /// - A task whose id (Slate JSON `id`, iCalendar `UID`, Taskwarrior `uuid`) exists in the
    ///   account is updated with the file's values (it keeps its number); other tasks are
    ///   created, with the file's number when the account has no task with it. Ids are
    ///   looked up in the account only: with no other account in the database the file's
    ///   ids are kept; otherwise an id the account lacks is mapped to one made from the
    ///   account and the file id (`ImportedID`), so the outcome never depends on what other
    ///   accounts hold, and importing the same file again updates the same tasks.
    /// - Subtasks may be at most `TaskRules.maximumSubtaskDepth` levels deep, and no parent
    ///   chain may loop back (`ImportError` naming the task).
    /// - A list is matched by id (Slate JSON; then updated), else by name without case (then
    ///   kept as it is); a list that matches nothing is created. Tasks that name a list that
    ///   does not exist create it.
    ///
    /// - Parameter format: the file's format; nil to detect it (`TransferFormat.detect`).
    @discardableResult
    public func importData(_ data: Data, format: TransferFormat?) throws -> ImportSummary {
        guard data.count <= TransferFormat.maximumImportBytes else {
            throw ImportError(.file, field: nil, "The file is larger than \(TransferFormat.maximumImportBytes >> 20) MiB, the most one import reads; split it into smaller files.")
        }
        let calendar = self.calendar
        let batch: ImportBatch
        switch format ?? TransferFormat.detect(data) {
        case .json: batch = try SlateJSONFormat.decode(data, calendar: calendar)
        case .ics: batch = try ICalendarFormat.decode(data, calendar: calendar)
        case .todotxt: batch = try TodoTxtFormat.decode(data, calendar: calendar)
        case .taskwarrior: batch = try TaskwarriorFormat.decode(data, calendar: calendar)
        }
        guard batch.tasks.count <= TransferFormat.maximumImportTasks else {
            throw ImportError(.file, field: nil, "The file holds \(batch.tasks.count) tasks; one import takes at most \(TransferFormat.maximumImportTasks). Split it into smaller files.")
        }
        return try apply(consume batch)
    }

    func exportSnapshot() throws -> ExportSnapshot {
        let accountID = self.accountID
        let context = makeContext()
        // Lists and tasks from one snapshot of the database.
        return try snapshot {
            let lists = try context.fetch(FetchDescriptor<TaskList>(predicate: #Predicate { $0.accountID == accountID }))
                .sorted { ($0.order, $0.created, $0.id.uuidString) < ($1.order, $1.created, $1.id.uuidString) }
            let tasks = try context.fetch(FetchDescriptor<TaskItem>(
                predicate: #Predicate { $0.accountID == accountID }, sortKeys: [.ascending(\.number)]))
            return ExportSnapshot(lists: lists, tasks: tasks, exported: now, calendar: calendar)
        }
    }
}
