import Foundation
import Synchronization

/// Fans each commit out to every subscribed `AsyncStream`.
final class CommitNotifier: Sendable {
    private struct State {
        var subscribers: [UUID: AsyncStream<Commit>.Continuation] = [:]
        /// Revisions up to this one have been reported (ours) or looked for (others').
        var checkedRevision = 0
        /// Revisions this container committed after `checkedRevision`.
        var ownRevisions: Set<Int> = []
        /// The revision of the last reported commit that touched each table.
        var tableRevisions: [String: Int] = [:]
    }

    private let state = Mutex(State())

    func subscribe() -> AsyncStream<Commit> {
        let (stream, continuation) = AsyncStream.makeStream(of: Commit.self, bufferingPolicy: .bufferingNewest(1024))
        let id = UUID()
        state.withLock { $0.subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ commit: Commit) {
        let subscribers = state.withLock { state -> [AsyncStream<Commit>.Continuation] in
            if commit.origin == .external {
                state.checkedRevision = max(state.checkedRevision, commit.revision)
                state.ownRevisions = state.ownRevisions.filter { $0 > commit.revision }
            } else if commit.revision > state.checkedRevision {
                state.ownRevisions.insert(commit.revision)
            }
            for table in commit.tables.keys {
                state.tableRevisions[table] = max(state.tableRevisions[table] ?? 0, commit.revision)
            }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(commit) }
    }

    /// Marks everything up to `revision` as known (on open: history is not news; later:
    /// revisions that were all this container's own).
    func markChecked(upTo revision: Int) {
        state.withLock { state in
            state.checkedRevision = max(state.checkedRevision, revision)
            state.ownRevisions = state.ownRevisions.filter { $0 > revision }
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
            return tables.map { state.tableRevisions[$0] ?? 0 }.max() ?? 0
        }
    }

    /// Where to look for other processes' commits: after `since`, skipping `own`.
    func externalWindow() -> (since: Int, own: Set<Int>) {
        state.withLock { ($0.checkedRevision, $0.ownRevisions) }
    }
}
