import Foundation
import SlateStore

/// How many subtasks a task has: what a row shows before it is expanded.
public struct SubtaskCount: Sendable, Hashable {
    /// Not completed.
    public var active: Int
    /// All of them, completed or not.
    public var total: Int

    public init(active: Int, total: Int) {
        self.active = active
        self.total = total
    }

    /// No subtasks.
    public static let zero = SubtaskCount(active: 0, total: 0)
}

extension Slate {
    /// The direct subtasks' counts of each of `parents` that has any (absent: none):
    /// one grouped, indexed read.
    public func subtaskCounts(of parents: [UUID]) throws -> [UUID: SubtaskCount] {
        guard !parents.isEmpty else { return [:] }
        let counts = try translatingErrors {
            try makeContext().countChildren(TaskItem.self, by: \.parentID, among: parents, partition: accountID, unset: \.isCompleted)
        }
        return counts.mapValues { SubtaskCount(active: $0.unset, total: $0.total) }
    }
}

extension Slate {
    /// Stages a touch (a write of what was read, which takes a new revision) of each of
    /// `parents` whose subtasks' count a change moves: a subtask added, completed or
    /// reopened, deleted, or moved to another parent. The parent is then part of the change,
    /// so a client that follows `changes?since=` or the live events reads its new
    /// `subtaskCount`, and undoing the change touches it again. Tasks in `changed` (the
    /// change writes or deletes them itself) and tasks that are gone are skipped. Each is
    /// staged against the revision read: a write to it in between makes the save conflict,
    /// and the caller's retry reads it again. The touch records the revision it replaces as
    /// having the same fields (`SameFields`), so an edit made with that ETag is no conflict.
    func touchParents(_ parents: some Sequence<UUID?>, except changed: Set<UUID>, in context: ModelContext) throws {
        let ids = Set(parents.compactMap { $0 }).subtracting(changed)
        guard !ids.isEmpty else { return }
        let sorted = ids.sorted { $0.uuidString < $1.uuidString }
        for start in stride(from: 0, to: sorted.count, by: 500) {
            let chunk = Array(sorted[start..<min(start + 500, sorted.count)])
            for read in try translatingErrors({ try context.revisioned(TaskItem.self, ids: chunk) }) where read.model.accountID == accountID {
                context.update(read.model.recordingTouch(of: read.revision), expectedRevision: read.revision)
            }
        }
    }
}
