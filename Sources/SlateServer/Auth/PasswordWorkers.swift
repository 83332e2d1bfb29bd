import Dispatch
import Foundation
import Synchronization

/// A few dedicated threads that hash and verify passwords, with a bounded queue.
///
/// Argon2id takes about a tenth of a second and 64 MiB per evaluation. Run on the request
/// threads or on Swift's cooperative pool it would stall every other request; run without
/// a bound it would let a flood of sign-ins take all the memory. Here at most `threads`
/// evaluations run at once and `queueLimit` wait; past that, ``run(_:)`` throws ``Busy``
/// at once (answered 503 with `Retry-After`).
final class PasswordWorkers: Sendable {
    /// Every thread is working and the queue is full.
    struct Busy: Error {}

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        /// Jobs queued or running.
        var load = 0
        var stopped = false
    }

    /// The workers `slate serve` uses: one thread per two cores (on two cores one evaluation
    /// at a time, 64 MiB, so the other core keeps serving requests) and up to 32 waiting
    /// (a few seconds of work), so a burst of real sign-ins is not turned away.
    static let shared = PasswordWorkers(threads: max(1, ProcessInfo.processInfo.activeProcessorCount / 2), queueLimit: 32)

    let capacity: Int
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let threadCount: Int

    init(threads: Int, queueLimit: Int) {
        threadCount = max(1, threads)
        capacity = threadCount + max(0, queueLimit)
        for index in 0..<threadCount {
            let thread = Thread { [self] in work() }
            thread.name = "slate-password-\(index)"
            thread.start()
        }
    }

    /// Jobs queued or running now.
    var load: Int { state.withLock { $0.load } }

    /// Runs `job` on a worker thread and returns its result; throws ``Busy`` when full.
    func run<T: Sendable>(_ job: @escaping @Sendable () -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            let accepted = state.withLock { state in
                guard !state.stopped, state.load < capacity else { return false }
                state.load += 1
                state.jobs.append { continuation.resume(returning: job()) }
                return true
            }
            if accepted { available.signal() } else { continuation.resume(throwing: Busy()) }
        }
    }

    /// Ends the threads once the jobs already accepted are done (for tests; the shared
    /// workers live as long as the process).
    func stop() {
        state.withLock { $0.stopped = true }
        for _ in 0..<threadCount { available.signal() }
    }

    private func work() {
        while true {
            available.wait()
            let job: (@Sendable () -> Void)? = state.withLock { state in
                state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }
            guard let job else {
                if state.withLock({ $0.stopped && $0.jobs.isEmpty }) { return }
                continue
            }
            job()
            state.withLock { $0.load -= 1 }
        }
    }
}
