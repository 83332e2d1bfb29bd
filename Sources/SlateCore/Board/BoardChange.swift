import Foundation
import SlateStore

/// The store a Slate database lives in, shared by every account's `Slate`. Surfaces hold
/// one and hand it to SlateCore; they never reach into it themselves.
public typealias BoardStore = ModelContainer

/// One committed change to the board, as surfaces announce it: which tasks and lists it
/// inserted, updated or deleted, named by kind and id (never by table).
public struct BoardChange: Sendable, Hashable {
    /// Ids of one kind of record a change touched.
    public struct Records: Sendable, Hashable {
        public var inserted: [UUID]
        public var updated: [UUID]
        public var deleted: [UUID]

        init(_ changes: TableChanges) {
            inserted = changes.inserted.sorted { $0.uuidString < $1.uuidString }
            updated = changes.updated.sorted { $0.uuidString < $1.uuidString }
            deleted = changes.deleted.sorted { $0.uuidString < $1.uuidString }
        }

        public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    /// What made the change.
    public enum Origin: String, Sendable {
        /// A write through this process.
        case save
        case undo
        case redo
        /// Another process (the CLI on the same file).
        case external
    }

    /// The store-wide sequence of the change (for an external one: the newest it covers).
    /// It orders changes and tells them apart, and tells of every account's activity:
    /// never show it to an account, show `revision(for:)`.
    public let sequence: Int
    /// Nil for a resync notice (see `isResync`).
    public let origin: Origin?
    /// True when this is not a change but a notice that the listener fell too far behind
    /// and missed changes: it should read everything again, as of `revision` or later.
    public let isResync: Bool
    /// Tasks it touched; nil when it touched none.
    public let tasks: Records?
    /// Lists it touched; nil when it touched none.
    public let lists: Records?
    /// True when every row it touched belongs to one account: only then are ids shown.
    public let isOfOneAccount: Bool
    /// True when it touched accounts or their credentials (a sign-out, a password change,
    /// a revoked token): whoever acts on the board should be checked again.
    public let touchesAccounts: Bool
    private let accounts: Set<String>
    /// The revision the change took in each account it touched.
    private let revisions: [String: Int]

    init(_ commit: Commit) {
        sequence = commit.revision
        revisions = commit.revisions
        isResync = commit.origin == .resync
        origin = Origin(rawValue: commit.origin.rawValue)
        let tasks = commit.tables.isEmpty ? nil : Records(commit.changes(of: TaskItem.self))
        let lists = commit.tables.isEmpty ? nil : Records(commit.changes(of: TaskList.self))
        self.tasks = tasks?.isEmpty == false ? tasks : nil
        self.lists = lists?.isEmpty == false ? lists : nil
        accounts = commit.partitions
        isOfOneAccount = commit.partitions.count == 1
        touchesAccounts = commit.affects(Account.self) || commit.affects(Credential.self)
    }

    /// True when the change touched something of `accountID` (a resync concerns everyone).
    public func concerns(account accountID: UUID) -> Bool {
        isResync || accounts.contains(accountID.uuidString)
    }

    /// The account's revision after this change (what its ETags, `changes?since=` and
    /// event ids count in), or nil when the change did not touch the account (and for a
    /// resync notice, which names no revision: read the account's current one).
    public func revision(for accountID: UUID) -> Int? { revisions[accountID.uuidString] }

    /// The key that tells changes apart: an external summary and a change of ours never share it.
    public var identity: String { "\(sequence)-\(isResync ? "resync" : origin?.rawValue ?? "")" }
}

extension ModelContainer {
    /// Every change committed from now on (ours, and other processes' as
    /// `publishExternalChanges` finds them), in order. A listener more than 1,024 changes
    /// behind gets one resync notice in their place, never a silent gap.
    public func boardChanges() -> AsyncStream<BoardChange> {
        let commits = self.commits()
        return AsyncStream { continuation in
            let relay = Task {
                for await commit in commits { continuation.yield(BoardChange(commit)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    /// Runs `body` with every read inside it from one snapshot of the board (one read
    /// transaction), as `Slate.read` does for one account's reads.
    public func boardSnapshot<T>(_ body: () throws -> T) throws -> T {
        try boardSnapshot(readingTask: nil, body)
    }

    /// `boardSnapshot(_:)` for a body that reads the task with `id` (`Slate.task(id:records:)`):
    /// on PostgreSQL its revision is asked for with the snapshot's first statement, and the
    /// snapshot ends in that round trip unless the task's record must be read (then `body`
    /// runs again: see `ModelContainer.snapshot(expecting:usuallyNothingElse:_:)`).
    public func boardSnapshot<T>(readingTask id: UUID?, _ body: () throws -> T) throws -> T {
        do {
            guard let id else { return try snapshot(expecting: [], body) }
            return try snapshot(expecting: [.revision(of: TaskItem.self, id: id)], usuallyNothingElse: true, body)
        } catch let error as StoreError {
            throw SlateError(error)
        }
    }

    /// Inside a change of the board (`BoardThreads.write`): the change reads the task with
    /// `id` (`Slate.task(id:)`) before it writes. On PostgreSQL that read goes out with the
    /// change's first statement instead of a round trip of its own.
    public func expectTaskInWrite(_ id: UUID) {
        expectInWrite([.revisioned(TaskItem.self, id: id)])
    }

    /// A number that changes whenever a change touches tasks (`tasks`) or lists (`lists`);
    /// nil while another process's change has not been seen yet. See `changeStamp(of:)`.
    public func boardStamp(tasks: Bool = false, lists: Bool = false) throws -> Int? {
        var models: [any PersistentModel.Type] = []
        if tasks { models.append(TaskItem.self) }
        if lists { models.append(TaskList.self) }
        return try changeStamp(of: models)
    }
}
