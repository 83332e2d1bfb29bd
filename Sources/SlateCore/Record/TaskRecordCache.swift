import Foundation
import SlateStore
import Synchronization

/// Each task's record, as JSON bytes, by the revision of its row: a task that did not
/// change since it was last written out is not read from its row or written again.
///
/// Only three fields do not follow from the row and its revision: `isOverdue` (the clock),
/// `list` (the list's name) and `subtaskCount` (other rows). The cache keeps the bytes
/// around them, and the task itself for `isOverdue`; they are written fresh every time.
/// All-day due dates are days of a calendar, so the calendar's zone is part of the key.
///
/// A revision names one state of a row for good, from this process or another: every
/// commit stamps what it changes with a new one. Only committed rows may be kept (a
/// revision handed out inside a transaction that rolls back is handed out again), so the
/// cache is filled by reads, never inside a write.
public final class TaskRecordCache: Sendable {
    struct Key: Hashable {
        let id: UUID
        let revision: Int
    }

    /// A task and the bytes of its record between the fields written fresh. A class: a page
    /// hands its entries from the cache to the writer, and a reference is one retain where
    /// a copy of the task is one per field it holds.
    final class Entry: Sendable {
        let task: TaskItem
        /// The task's row revision this record was written from.
        let revision: Int
        /// `segments[0]` … `{"alerts":…,"isOverdue":`, then `,"list":`, then `,"listId":…,"subtaskCount":`, then `,"tags":…}`.
        let segments: [[UInt8]]

        init(task: TaskItem, revision: Int, segments: [[UInt8]]) {
            self.task = task
            self.revision = revision
            self.segments = segments
        }
    }

    /// Beyond this many records, the cache starts over.
    public let capacity: Int
    /// By the calendar's zone, then by task and revision: a page looks its zone up once.
    private let entries = Mutex<[String: [Key: Entry]]>([:])

    public init(capacity: Int = 20_000) { self.capacity = capacity }

    /// Records kept now (for tests).
    public var count: Int { entries.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// The kept entry of each of `identities` (nil where none is kept), under one lock.
    func entries(for identities: [(id: UUID, revision: Int)], zone: String) -> [Entry?] {
        entries.withLock { entries in
            guard let kept = entries[zone] else { return Array(repeating: nil, count: identities.count) }
            return identities.map { kept[Key(id: $0.id, revision: $0.revision)] }
        }
    }

    /// The entry of `task` at `revision`, written now and kept (unless `keep` is false).
    func remember(_ task: TaskItem, revision: Int, calendar: Calendar, keep: Bool = true) -> Entry {
        let entry = Entry(task: task, revision: revision, segments: TaskRecord.staticSegments(of: task, calendar: calendar))
        guard keep else { return entry }
        let zone = calendar.timeZone.identifier
        entries.withLock { entries in
            if entries.values.reduce(0, { $0 + $1.count }) >= capacity { entries.removeAll() }
            entries[zone, default: [:]][Key(id: task.id, revision: revision)] = entry
        }
        return entry
    }
}

extension TaskRecord {
    /// The fields written fresh for every record (see `TaskRecordCache`).
    static let freshFields: Set<String> = ["isOverdue", "list", "subtaskCount"]
    private static let freshFieldList = fields.filter { freshFields.contains($0.name) }

    /// The record's bytes around the fresh fields: one segment before each fresh field
    /// (ending with its key) and one after the last.
    static func staticSegments(of task: TaskItem, calendar: Calendar) -> [[UInt8]] {
        let context = RecordContext(listNames: [:], now: Date(timeIntervalSince1970: 0), calendar: calendar)
        var segments: [[UInt8]] = []
        var output = JSONOutput(capacity: 640)
        for (index, field) in fields.enumerated() {
            output.bytes += keyBytes[index]
            if freshFields.contains(field.name) {
                segments.append(output.bytes)
                output.bytes.removeAll(keepingCapacity: true)
            } else {
                field.write(task, context, &output)
            }
        }
        output.bytes.append(UInt8(ascii: "}"))
        segments.append(output.bytes)
        return segments
    }

    /// Appends the record of a cached task: its kept segments, and the fresh fields from `context`.
    static func write(_ entry: TaskRecordCache.Entry, _ context: RecordContext, into output: inout JSONOutput) {
        for (segment, field) in freshFieldList.enumerated() {
            output.bytes += entry.segments[segment]
            field.write(entry.task, context, &output)
        }
        output.bytes += entry.segments[freshFieldList.count]
    }
}

/// A page of tasks and their records, some from a `TaskRecordCache`.
public struct TaskRecords: Sendable {
    let entries: [TaskRecordCache.Entry]
    /// How many tasks the page holds.
    public var count: Int { entries.count }
    /// How many of them are not completed.
    public var activeCount: Int { entries.count { !$0.task.isCompleted } }
    /// Each task's id and revision, in the page's order.
    public var identities: [(id: UUID, revision: Int)] { entries.map { ($0.task.id, $0.revision) } }
}

extension Slate {
    /// The tasks `query` shows, read from their rows only when `cache` lacks their current
    /// revision: the page is found by ids and revisions, and only the missing rows are read.
    /// Run it inside a read (`read`, `snapshot`) so that both reads see one state.
    public func tasks(_ query: TaskQuery, records cache: TaskRecordCache) throws -> TaskRecords {
        try records(query.descriptor(accountID: accountID, now: now, calendar: calendar), cache)
    }

    /// The task with `id` and its revision, its record from `cache` when current.
    public func task(id: UUID, records cache: TaskRecordCache) throws -> (records: TaskRecords, revision: Int) {
        let revision = try translatingErrors { try makeContext().revision(of: TaskItem.self, id: id) }
        // The kept task tells its account: a revision names one state of one row, for good.
        guard let revision, case let records = try records(for: [(id, revision)], cache),
              records.entries.first?.task.accountID == accountID
        else { throw SlateError.notFound("task with id \(id.uuidString.lowercased())") }
        return (records, revision)
    }

    private func records(_ descriptor: FetchDescriptor<TaskItem>, _ cache: TaskRecordCache) throws -> TaskRecords {
        try records(for: try translatingErrors { try makeContext().fetchRevisions(descriptor) }, cache)
    }

    private func records(for identities: [(id: UUID, revision: Int)], _ cache: TaskRecordCache) throws -> TaskRecords {
        let zone = calendar.timeZone.identifier
        var entries = cache.entries(for: identities, zone: zone)
        let missing = entries.indices.filter { entries[$0] == nil }
        if !missing.isEmpty {
            let accountID = self.accountID
            let wanted = missing.map { identities[$0].id }
            // By id, written directly: a translated predicate cost more than the rows (callgrind).
            let rows = try translatingErrors { try makeContext().revisioned(TaskItem.self, ids: wanted) }
                .filter { $0.model.accountID == accountID }
            let byID = Dictionary(rows.map { ($0.model.id, $0) }, uniquingKeysWith: { first, _ in first })
            // Inside a write, rows may not be committed yet: written out, never kept.
            let keep = !container.isInsideGroupCommit
            for index in missing {
                guard let row = byID[identities[index].id] else { continue }
                entries[index] = cache.remember(row.model, revision: row.revision, calendar: calendar, keep: keep)
            }
        }
        return TaskRecords(entries: entries.compactMap { $0 })
    }
}
