import Dispatch
import Foundation
import SlateStore
import Synchronization

/// The threads blocking database work runs on, so that it never occupies Swift's
/// cooperative pool: a change waiting up to seconds for SQLite's write lock (held by
/// another process) then stalls only other changes, never reads, live streams or their
/// heartbeats.
///
/// Changes to one store run on its own writer thread (SQLite has one writer anyway), so
/// that a store waiting for its lock never holds up another; reads run on a few reader
/// threads, each a serial queue with a thread of its own.
///
/// Changes commit in groups: the changes that arrive while one group is being synced to
/// disk run together next, inside one transaction with one fsync (`WriteLine`). Each is
/// still answered only once its data is durable.
public final class BoardThreads: Sendable {
    /// The threads of every board in this process.
    public static let shared = BoardThreads(readers: 4)

    private let writers = Mutex<[ObjectIdentifier: WriteLine]>([:])
    private let readers: [DispatchQueue]
    private let nextReader = Atomic<Int>(0)

    /// How many reads may run at once on the reader threads.
    public var readerCount: Int { readers.count }

    /// - Parameter readers: how many reads may run at once.
    public init(readers: Int) {
        self.readers = (0..<max(1, readers)).map { DispatchQueue(label: "slate.board.reader.\($0)", qos: .userInitiated) }
    }

    /// Runs `body` on a reader thread and waits (suspending, not blocking) for its result.
    public func read<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue
        let queue = readers[abs(index % readers.count)]
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body` on the writer thread of `store`, inside the next group transaction, and
    /// returns once that transaction is durable. When `body` throws, its writes are rolled
    /// back and the others of its group still commit.
    public func write<T: Sendable>(to store: BoardStore, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let line = writeLine(for: store)
        let result = WriteResult<T>()
        return try await withCheckedThrowingContinuation { continuation in
            line.submit(WriteLine.Job(store: store, change: { result.keep(try body()) }) { error in
                if let error {
                    // The transaction's own failure (the lock, the disk) in the domain's words.
                    continuation.resume(throwing: (error as? StoreError).map(SlateError.init) ?? error)
                } else {
                    continuation.resume(with: result.take())
                }
            })
        }
    }

    private func writeLine(for store: BoardStore) -> WriteLine {
        writers.withLock { writers in
            let key = ObjectIdentifier(store)
            if let line = writers[key] { return line }
            // A server has one store; a process that opened many (tests) forgets the idle
            // lines now and then. A line with changes queued or being written is kept:
            // forgotten, the changes that arrive after would start a second line for the same
            // store and not join its next group (its writes would stay serialised by the
            // store's connection lock, but not grouped).
            if writers.count >= 64 { writers = writers.filter { !$0.value.isIdle } }
            let line = WriteLine()
            writers[key] = line
            return line
        }
    }

    /// Groups since this process started, and the changes in them (for tests and metrics).
    public func groupStatistics(of store: BoardStore) -> (groups: Int, changes: Int) {
        writeLine(for: store).statistics
    }

    func writeLineForTests(_ store: BoardStore) -> WriteLine { writeLine(for: store) }
}

/// The value a change returned, kept until its group is durable.
private final class WriteResult<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)

    func keep(_ result: T) { value.withLock { $0 = result } }

    func take() -> Result<T, any Error> {
        guard let result = value.withLock({ $0.take() }) else {
            return .failure(SlateError.store("a change was committed without its result"))
        }
        return .success(result)
    }
}

/// One store's queue of changes and the thread that commits them, group by group.
final class WriteLine: Sendable {
    struct Job: Sendable {
        /// Held by the job, not the line, so that a line never keeps a closed store open
        /// (while a job of it waits, no other store can have its identity).
        let store: BoardStore
        /// Runs inside the group's transaction, on the writer thread.
        let change: @Sendable () throws -> Void
        /// Called once the group is durable (nil) or the change failed.
        let finish: @Sendable ((any Error)?) -> Void
    }

    /// At most this many changes share one transaction, so that the first of a long queue
    /// is not answered only after all the others ran.
    static let groupLimit = 64

    private let queue = DispatchQueue(label: "slate.board.writer", qos: .userInitiated)
    private let waiting = Mutex<(jobs: [Job], draining: Bool)>(([], false))
    private let counts = Mutex<(groups: Int, changes: Int)>((0, 0))

    var statistics: (groups: Int, changes: Int) { counts.withLock { $0 } }

    /// Changes waiting for the next group.
    var queuedCount: Int { waiting.withLock { $0.jobs.count } }

    /// True when no change is queued or being written.
    var isIdle: Bool { waiting.withLock { $0.jobs.isEmpty && !$0.draining } }

    /// Queues a change; the writer thread starts on it unless it is busy with a group,
    /// in which case the change joins the next one.
    func submit(_ job: Job) {
        let start = waiting.withLock { waiting in
            waiting.jobs.append(job)
            guard !waiting.draining else { return false }
            waiting.draining = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    private func drain() {
        while true {
            let jobs = waiting.withLock { waiting -> [Job] in
                let taken = Array(waiting.jobs.prefix(Self.groupLimit))
                waiting.jobs.removeFirst(taken.count)
                if taken.isEmpty { waiting.draining = false }
                return taken
            }
            guard !jobs.isEmpty else { return }
            let outcomes = jobs[0].store.writeTogether(jobs.map { job in { try job.change() } })
            counts.withLock { $0 = ($0.groups + 1, $0.changes + jobs.count) }
            for (job, outcome) in zip(jobs, outcomes) { job.finish(outcome) }
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

    /// Runs a change (and whatever it reads) on the writer thread, committed together with
    /// the changes that arrive while the one before is being synced (group commit), and
    /// returns once it is durable. Its reads see the store as it writes, changes earlier in
    /// its group included; when it throws, its writes are rolled back and no other's are.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Slate) throws -> T) async throws -> T {
        try await BoardThreads.shared.write(to: container) { try body(self) }
    }

    /// Runs `body` with all its reads from one snapshot (one read transaction).
    public func snapshot<T>(_ body: () throws -> T) throws -> T {
        try translatingErrors { try container.snapshot(body) }
    }
}
