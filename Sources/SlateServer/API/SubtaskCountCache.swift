import Foundation
import SlateCore
import Synchronization

/// Subtask counts of tasks per account, with the change stamp of the tasks they were
/// counted at (`BoardStore.changeStamp`): a GET of one task then reads its revision and,
/// when not kept, its row, but no count, until a commit touches tasks.
final class SubtaskCountCache: Sendable {
    private struct Entry {
        var stamp: Int
        /// nil: counted, and it has no subtasks.
        var counts: [UUID: SubtaskCount?] = [:]
    }

    /// Accounts kept, and parents kept per account, before starting over.
    static let accountLimit = 1024
    static let parentLimit = 20_000

    private let cache = Mutex<[UUID: Entry]>([:])

    /// The counts of `parents` at `stamp` (a parent without subtasks is absent, as in
    /// `Slate.subtaskCounts`), asking `count` only for those not known at that stamp.
    func counts(
        of parents: [UUID], accountID: UUID, stamp: Int?,
        count: ([UUID]) throws -> [UUID: SubtaskCount]
    ) rethrows -> [UUID: SubtaskCount] {
        guard let stamp else { return try count(parents) }
        var known: [UUID: SubtaskCount] = [:]
        let missing: [UUID] = cache.withLock { cache in
            guard let entry = cache[accountID], entry.stamp == stamp else { return parents }
            return parents.filter { parent in
                guard let counted = entry.counts[parent] else { return true }
                if let counted { known[parent] = counted }
                return false
            }
        }
        guard !missing.isEmpty else { return known }
        let counted = try count(missing)
        known.merge(counted) { _, new in new }
        cache.withLock { cache in
            // Changed in place: a copy of an account's entry per request cost more than its count.
            if cache[accountID]?.stamp != stamp {
                if cache[accountID] == nil, cache.count >= Self.accountLimit { cache.removeAll(keepingCapacity: true) }
                cache[accountID] = Entry(stamp: stamp)
            }
            if cache[accountID]!.counts.count + missing.count > Self.parentLimit {
                cache[accountID]!.counts.removeAll(keepingCapacity: true)
            }
            for parent in missing { cache[accountID]!.counts[parent] = .some(counted[parent]) }
        }
        return known
    }
}
