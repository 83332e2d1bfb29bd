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
    /// Tasks and lists of this account changed after `revision`, and ids deleted since.
    ///
    /// Deleted ids come from the store's tombstones, which do not record the owner: an id
    /// of another account's deleted row may appear. Ids are random, so it tells nothing
    /// about that row; scoping tombstones per account is planned with live events.
    public func changes(since revision: Int) throws -> BoardChanges {
        try translatingErrors {
            let context = makeContext()
            let tasks = try context.changes(of: TaskItem.self, since: revision)
            let lists = try context.changes(of: TaskList.self, since: revision)
            return BoardChanges(
                revision: min(tasks.revision, lists.revision),
                tasks: tasks.upserted.filter { $0.accountID == accountID },
                lists: lists.upserted.filter { $0.accountID == accountID },
                deletedTaskIDs: tasks.deleted, deletedListIDs: lists.deleted)
        }
    }
}
