import Foundation
#if os(Linux)
/// glibc's `malloc_trim(3)`, which the Glibc module does not export (it is in malloc.h).
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
#endif

/// Runs imports one at a time, each on a thread of its own.
///
/// An import parses and checks a whole file before its one write transaction: seconds of
/// work for a large file. Run on the request's task it held one of the few threads of the
/// cooperative pool (two on a two-core machine), and four imports at once left every
/// other account's requests waiting for them; run concurrently they multiplied the memory.
/// Here a waiting import is suspended (no thread held), the running one has its own
/// thread, and other requests wait for no more than its final commit.
actor ImportQueue {
    static let shared = ImportQueue()

    private var isRunning = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `work` once the imports before it are done, off the cooperative pool.
    func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        if isRunning {
            await withCheckedContinuation { waiting.append($0) }
        }
        isRunning = true
        defer {
            if waiting.isEmpty { isRunning = false } else { waiting.removeFirst().resume() }
        }
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try work() })
                #if os(Linux)
                // Give the import's freed memory back to the system instead of keeping it
                // in the allocator's arenas for the life of the server.
                _ = mallocTrim(0)
                #endif
            }
            thread.name = "slate-import"
            thread.start()
        }
    }
}
