import Foundation
import SlateStore

/// What changed in an account since a revision: the basis of `?since=` delta sync.
public struct BoardChanges: Sendable {
    public var revision: Int
    public var tasks: [TaskItem]
    public var lists: [TaskList]
    public var deletedTaskIDs: [UUID]
    public var deletedListIDs: [UUID]
}

extension Slate {
    /// Tasks and lists of this account changed after `revision`, and the ids of this
    /// account's tasks and lists deleted since (tombstones record their account).
    public func changes(since revision: Int) throws -> BoardChanges {
        // Tasks and lists from one snapshot: the revision given covers both.
        try snapshot {
            let context = makeContext()
            let tasks = try context.changes(of: TaskItem.self, since: revision, partition: accountID)
            let lists = try context.changes(of: TaskList.self, since: revision, partition: accountID)
            return BoardChanges(
                revision: min(tasks.revision, lists.revision), tasks: tasks.upserted, lists: lists.upserted,
                deletedTaskIDs: tasks.deleted, deletedListIDs: lists.deleted)
        }
    }

    /// True when `commit` changed something of this account: live views refresh on it.
    public func isAffected(by commit: Commit) -> Bool { commit.touches(partition: accountID) }
}
