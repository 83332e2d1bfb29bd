import Foundation
import SlateCore
import Synchronization

/// Subtask counts of tasks, each kept with the revision of its parent it was counted at.
///
/// Every change that moves a task's subtask count — a subtask added, deleted, completed,
/// reopened or moved, on every surface (the API, the CLI, CalDAV, imports, undo) — writes
/// the parent too (`Slate.touchParents`), so its revision moves in the same commit: the
/// same promise its ETag makes to clients. A count kept at the parent's current revision
/// is therefore still the count, whatever else was written since, in this process or
/// another; a GET of one task under a stream of writes to other tasks counts nothing.
final class SubtaskCountCache: Sendable {
    private struct Entry {
        let revision: Int
        /// nil: counted, and it has no subtasks.
        let count: SubtaskCount?
    }

    /// Parents kept before starting over.
    static let limit = 100_000

    private let cache = Mutex<[UUID: Entry]>([:])

    /// The counts of `parents` (a parent without subtasks is absent, as in
    /// `Slate.subtaskCounts`), asking `count` only for those not kept at the revision
    /// given with them. `keep`: false inside a write, whose revisions are not committed (and
    /// a rolled-back one's number may come again with other rows).
    func counts(
        of parents: [(id: UUID, revision: Int)], keep: Bool = true,
        count: ([UUID]) throws -> [UUID: SubtaskCount]
    ) rethrows -> [UUID: SubtaskCount] {
        var known: [UUID: SubtaskCount] = [:]
        var missing: [(id: UUID, revision: Int)] = []
        cache.withLock { cache in
            for parent in parents {
                guard let entry = cache[parent.id], entry.revision == parent.revision else {
                    missing.append(parent)
                    continue
                }
                if let count = entry.count { known[parent.id] = count }
            }
        }
        guard !missing.isEmpty else { return known }
        let counted = try count(missing.map(\.id))
        known.merge(counted) { _, new in new }
        guard keep else { return known }
        cache.withLock { cache in
            if cache.count + missing.count > Self.limit { cache.removeAll(keepingCapacity: true) }
            for parent in missing { cache[parent.id] = Entry(revision: parent.revision, count: counted[parent.id]) }
        }
        return known
    }
}
