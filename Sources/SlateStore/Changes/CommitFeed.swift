import Foundation
import Synchronization

/// One subscriber's commits, waiting to be read: at most `limit` of them. A subscriber
/// that falls further behind is never dropped from silently: its queue collapses into one
/// `.resync` commit (nothing else it missed matters once it re-reads everything), and the
/// commits after that follow as usual.
final class CommitFeed: Sendable {
    private struct State {
        var queue: [Commit] = []
        var waiter: CheckedContinuation<Commit?, Never>?
        var isFinished = false
    }

    private let state = Mutex(State())
    private let limit: Int

    init(limit: Int) { self.limit = max(1, limit) }

    /// Queues `commit`, or hands it to a reader that is waiting.
    func push(_ commit: Commit) {
        let waiter = state.withLock { state -> CheckedContinuation<Commit?, Never>? in
            guard !state.isFinished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.queue.count >= limit {
                state.queue = [Commit(revision: commit.revision, origin: .resync, tables: [:])]
            } else {
                state.queue.append(commit)
            }
            return nil
        }
        waiter?.resume(returning: commit)
    }

    /// The next commit, waiting for one; nil once finished (or the reader's task is cancelled).
    func next() async -> Commit? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Commit?, Never>) in
                let ready = state.withLock { state -> Commit?? in
                    if !state.queue.isEmpty { return .some(state.queue.removeFirst()) }
                    if state.isFinished { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    /// Ends the feed: a waiting reader gets nil, and so does every later `next()`.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Commit?, Never>? in
            state.isFinished = true
            state.queue = []
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
