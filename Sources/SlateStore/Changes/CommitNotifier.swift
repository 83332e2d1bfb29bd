import Foundation
import Synchronization

/// Fans each commit out to every subscribed `AsyncStream`.
final class CommitNotifier: Sendable {
    private struct State {
        var subscribers: [UUID: AsyncStream<Commit>.Continuation] = [:]
        var lastRevision = 0
    }

    private let state = Mutex(State())

    /// The highest revision published so far.
    var lastRevision: Int { state.withLock { $0.lastRevision } }

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
            state.lastRevision = max(state.lastRevision, commit.revision)
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(commit) }
    }

    /// Records a revision seen without publishing (for example on open).
    func noteRevision(_ revision: Int) {
        state.withLock { $0.lastRevision = max($0.lastRevision, revision) }
    }
}
