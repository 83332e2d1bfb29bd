import Dispatch
import Foundation
import Synchronization

/// The threads blocking database work runs on, so that it never occupies Swift's
/// cooperative pool: a change waiting up to seconds for SQLite's write lock (held by
/// another process) then stalls only other changes, never reads, live streams or their
/// heartbeats.
///
/// Changes to one store run one at a time on its own writer thread (SQLite has one writer
/// anyway), so that a store waiting for its lock never holds up another; reads run on a
/// few reader threads, each a serial queue with a thread of its own.
public final class BoardThreads: Sendable {
    /// The threads of every board in this process.
    public static let shared = BoardThreads(readers: 4)

    private let writers = Mutex<[ObjectIdentifier: DispatchQueue]>([:])
    private let readers: [DispatchQueue]
    private let nextReader = Atomic<Int>(0)

    /// - Parameter readers: how many reads may run at once.
    public init(readers: Int) {
        self.readers = (0..<max(1, readers)).map { DispatchQueue(label: "slate.board.reader.\($0)", qos: .userInitiated) }
    }

    /// Runs `body` on a reader thread and waits (suspending, not blocking) for its result.
    public func read<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue
        return try await run(on: readers[abs(index % readers.count)], body)
    }

    /// Runs `body` on the writer thread of `store`, after the changes queued before it.
    public func write<T: Sendable>(to store: BoardStore, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let queue = writers.withLock { writers in
            let key = ObjectIdentifier(store)
            if let queue = writers[key] { return queue }
            // A server has one store; a process that opened many (tests) starts over now and
            // then. The store's writes stay serialised by its own connection lock regardless.
            if writers.count >= 64 { writers.removeAll() }
            let queue = DispatchQueue(label: "slate.board.writer", qos: .userInitiated)
            writers[key] = queue
            return queue
        }
        return try await run(on: queue, body)
    }

    private func run<T: Sendable>(on queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}

extension Slate {
    /// Runs reads on a reader thread, all from one snapshot of the database: a page, its
    /// total and the revision given with them agree even while others write.
    ///
    /// ```swift
    /// let (page, revision) = try await slate.read { try ($0.tasks(query), $0.revision()) }
    /// ```
    public func read<T: Sendable>(_ body: @escaping @Sendable (Slate) throws -> T) async throws -> T {
        try await BoardThreads.shared.read { try self.snapshot { try body(self) } }
    }

    /// Runs a change (and whatever it reads) on the writer thread.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Slate) throws -> T) async throws -> T {
        try await BoardThreads.shared.write(to: container) { try body(self) }
    }

    /// Runs `body` with all its reads from one snapshot (one read transaction).
    public func snapshot<T>(_ body: () throws -> T) throws -> T {
        try translatingErrors { try container.snapshot(body) }
    }
}
