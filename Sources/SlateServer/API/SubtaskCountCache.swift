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
    /// `Slate.subtaskCounts`), asking `count` only for those not kept at their revision in
    /// `revisions` (a parent missing from it is always counted, and not kept). `keep`:
    /// false inside a write, whose revisions are not committed (and a rolled-back one's
    /// number may come again with other rows).
    func counts(
        of parents: [UUID], revisions: [UUID: Int], keep: Bool = true,
        count: ([UUID]) throws -> [UUID: SubtaskCount]
    ) rethrows -> [UUID: SubtaskCount] {
        var known: [UUID: SubtaskCount] = [:]
        let missing: [UUID] = cache.withLock { cache in
            parents.filter { parent in
                guard let revision = revisions[parent], let entry = cache[parent], entry.revision == revision else { return true }
                if let count = entry.count { known[parent] = count }
                return false
            }
        }
        guard !missing.isEmpty else { return known }
        let counted = try count(missing)
        known.merge(counted) { _, new in new }
        guard keep else { return known }
        cache.withLock { cache in
            if cache.count + missing.count > Self.limit { cache.removeAll(keepingCapacity: true) }
            for parent in missing {
                guard let revision = revisions[parent] else { continue }
                cache[parent] = Entry(revision: revision, count: counted[parent])
            }
        }
        return known
    }
}
