import Foundation
import Synchronization

/// Fans each commit out to every subscribed `AsyncStream`.
///
/// Each subscriber has a bounded queue (`CommitFeed`): one that falls more than
/// `feedLimit` commits behind gets a `.resync` commit in their place, never a silent gap.
final class CommitNotifier: Sendable {
    /// How many commits wait for a slow subscriber before it is told to resync.
    static let feedLimit = 1024

    /// A subscriber's feed, held weakly: it ends when its stream is dropped.
    fileprivate struct Subscriber {
        weak var feed: CommitFeed?
    }

    fileprivate struct State {
        var subscribers: [UUID: Subscriber] = [:]
        /// Revisions up to this one have been reported (ours) or looked for (others').
        var checkedRevision = 0
        /// Revisions this container committed (or is committing: reserved inside the
        /// write transaction, before other processes can see them) after `checkedRevision`.
        var ownRevisions: Set<Int> = []
        /// The revision of the last reported commit that touched each table.
        var tableRevisions: [String: Int] = [:]
        /// The rows of each of this container's own commits reported after `checkedRevision`
        /// (by revision, ids by table), for summing up other processes' announced commits
        /// as the commit log would: a row this container wrote since is not theirs to report.
        var ownChanges: [Int: [String: Set<UUID>]] = [:]
        /// Own commits' rows were dropped (too many kept) up to this revision: until the
        /// checked revision passes it, announced commits cannot be summed up.
        var ownChangesDroppedThrough = 0
        /// Own commits' rows are kept (a store whose commits are announced: PostgreSQL).
        var keepsOwnChanges = false
    }

    /// The most own commits whose rows are kept between two looks at other processes' commits.
    static let ownChangesLimit = 4_096

    private let state = Mutex(State())

    func subscribe(limit: Int = CommitNotifier.feedLimit) -> AsyncStream<Commit> {
        let feed = CommitFeed(limit: limit)
        let id = UUID()
        state.withLock { $0.subscribers[id] = Subscriber(feed: feed) }
        return AsyncStream(unfolding: { [weak self] in
            let next = await feed.next()
            if next == nil { _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) } }
            return next
        }, onCancel: { feed.finish() })
    }

    /// Runs a write transaction whose `body` takes the next revision through the function
    /// it is given (with, for a partition it names, that partition's next revision too,
    /// where the backend takes both at once: `ChangeLog.nextRevision(_:takingRevisionOf:)`).
    /// The revision is marked as this container's own before the transaction commits, so
    /// that the watcher of other processes' commits never reports it as theirs (it used to,
    /// when it looked between the commit and `publish`); the mark goes again if the
    /// transaction rolls back.
    ///
    /// A revision taken is announced to other processes (`ChangeLog.announce`) at the end of
    /// `body`, with the commit `announcing` finds in its result: on PostgreSQL, the other
    /// nodes then learn what changed without reading the commit log.
    func transaction<T>(
        in database: Database, announcing: (T) -> Commit?,
        _ body: (_ nextRevision: (_ partition: String?) throws -> (sequence: Int, partitionRevision: Int?)) throws -> T
    ) throws -> T {
        var reserved: Int?
        do {
            return try database.transaction {
                let result = try body { partition in
                    let taken = try ChangeLog.nextRevision(database, takingRevisionOf: partition)
                    let revision = taken.sequence
                    state.withLock { state in
                        if revision > state.checkedRevision { state.ownRevisions.insert(revision) }
                    }
                    reserved = revision
                    return taken
                }
                if let reserved { try ChangeLog.announce(sequence: reserved, changes: announcing(result), in: database) }
                return result
            }
        } catch {
            if let reserved { _ = state.withLock { $0.ownRevisions.remove(reserved) } }
            throw error
        }
    }

    /// The commits of a group transaction (`ModelContainer.writeTogether`) on this thread,
    /// held back until the transaction is durable.
    @TaskLocal static var group: CommitGroup?

    /// Hands `commit` to every subscriber, or, inside a group transaction of this
    /// notifier's store, holds it until the group has committed. An external commit (a
    /// summary of other processes' commits, or a resync when they cannot be summed up)
    /// passes the sequence its look reached as `checkedUpTo`.
    func publish(_ commit: Commit, checkedUpTo: Int? = nil) {
        if checkedUpTo == nil, let group = Self.group, group.notifier == ObjectIdentifier(self) {
            group.hold(commit)
            return
        }
        let feeds = state.withLock { state -> [CommitFeed] in
            if commit.origin == .external || (commit.origin == .resync && checkedUpTo != nil) {
                let checked = max(checkedUpTo ?? commit.revision, commit.revision)
                state.check(upTo: checked)
            } else if commit.revision > state.checkedRevision {
                state.ownRevisions.insert(commit.revision)
                state.keepOwnChanges(of: commit)
            }
            for table in commit.tables.keys {
                state.tableRevisions[table] = max(state.tableRevisions[table] ?? 0, commit.revision)
            }
            state.subscribers = state.subscribers.filter { $0.value.feed != nil }
            return state.subscribers.values.compactMap(\.feed)
        }
        for feed in feeds { feed.push(commit) }
    }

    /// Forgets revisions reserved by commits that were rolled back after all (a writer of
    /// a group that failed after its save, or a group whose COMMIT failed).
    func release(_ commits: [Commit]) {
        guard !commits.isEmpty else { return }
        state.withLock { state in
            for commit in commits { state.ownRevisions.remove(commit.revision) }
        }
    }

    /// Marks everything up to `revision` as known (on open: history is not news; later:
    /// revisions that were all this container's own).
    func markChecked(upTo revision: Int) {
        state.withLock { $0.check(upTo: revision) }
    }

    /// Keeps the rows of own commits from now on, for `ownChanges(since:)`.
    func keepOwnChanges() {
        state.withLock { $0.keepsOwnChanges = true }
    }

    /// The rows (ids by table) of this container's own commits reported after `since`, or
    /// nil when some of them were not kept.
    func ownChanges(since: Int) -> [String: Set<UUID>]? {
        state.withLock { state in
            guard state.ownChangesDroppedThrough <= since else { return nil }
            var touched: [String: Set<UUID>] = [:]
            for (revision, tables) in state.ownChanges where revision > since {
                for (table, ids) in tables { touched[table, default: []].formUnion(ids) }
            }
            return touched
        }
    }

    /// The last reported change to any of `tables` (0: none since the container opened),
    /// or nil when the store is at a revision that has not been reported yet (another
    /// process's commit the watcher has not seen, or one of ours being published).
    func lastChange(to tables: [String], storeRevision revision: Int) -> Int? {
        state.withLock { state in
            if revision > state.checkedRevision {
                guard revision - state.checkedRevision <= state.ownRevisions.count,
                      (state.checkedRevision + 1...revision).allSatisfy(state.ownRevisions.contains)
                else { return nil }
            }
            let stamp = tables.map { state.tableRevisions[$0] ?? 0 }.max() ?? 0
            // A snapshot older than the last reported change to the tables cannot read
            // what that stamp stands for: what it reads must not be kept under it.
            return stamp <= revision ? stamp : nil
        }
    }

    /// Where to look for other processes' commits: after `since`, skipping `own`.
    func externalWindow() -> (since: Int, own: Set<Int>) {
        state.withLock { ($0.checkedRevision, $0.ownRevisions) }
    }
}

extension CommitNotifier.State {
    /// Everything up to `revision` is known: own marks and own rows at or below it go.
    mutating func check(upTo revision: Int) {
        checkedRevision = max(checkedRevision, revision)
        ownRevisions = ownRevisions.filter { $0 > checkedRevision }
        if !ownChanges.isEmpty { ownChanges = ownChanges.filter { $0.key > checkedRevision } }
    }

    mutating func keepOwnChanges(of commit: Commit) {
        guard keepsOwnChanges, !commit.tables.isEmpty else { return }
        let rows = commit.tables.values.reduce(0) { $0 + $1.inserted.count + $1.updated.count + $1.deleted.count }
        if ownChanges.count >= CommitNotifier.ownChangesLimit || rows > CommitNotifier.ownChangesLimit {
            ownChangesDroppedThrough = max(ownChangesDroppedThrough, ownChanges.keys.max() ?? 0, commit.revision)
            ownChanges.removeAll()
            return
        }
        ownChanges[commit.revision] = commit.tables.mapValues { $0.inserted.union($0.updated).union($0.deleted) }
    }
}

/// The commits made inside one group transaction, in order, until it is durable.
final class CommitGroup: Sendable {
    /// The notifier of the store whose writer the group holds.
    let notifier: ObjectIdentifier
    private let held = Mutex<[Commit]>([])

    init(notifier: CommitNotifier) { self.notifier = ObjectIdentifier(notifier) }

    func hold(_ commit: Commit) { held.withLock { $0.append(commit) } }

    /// How many commits are held: a writer's mark before it runs.
    var count: Int { held.withLock { $0.count } }

    var commits: [Commit] { held.withLock { $0 } }

    /// Drops the commits held after `mark` (a writer rolled back) and returns them.
    func drop(after mark: Int) -> [Commit] {
        held.withLock { held in
            defer { held.removeSubrange(mark...) }
            return Array(held[mark...])
        }
    }

    /// True when a held commit touched one of `tables`.
    func touches(_ tables: [String]) -> Bool {
        held.withLock { held in held.contains { commit in tables.contains { commit.tables[$0] != nil } } }
    }
}
