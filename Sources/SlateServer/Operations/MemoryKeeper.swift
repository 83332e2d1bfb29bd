import CMemory
import Foundation
import Synchronization

/// Hands the system back the memory a server's bulk work freed.
///
/// An import, or undoing one, builds tens of megabytes for a few seconds (the rows'
/// images, the undo entry, SQLite's savepoint journals, which the store keeps in memory,
/// and its bulk page cache), then frees them into the C allocator, which keeps the pages for
/// later: a server that had undone an import of 50,000 tasks stayed at 153 MiB resident,
/// against 33 before. Every `interval`, when the process has grown by more than
/// `growth` since the last look, the allocator's free pages go back (glibc's `malloc_trim`):
/// 49 MiB in that case. Memory in use is never touched; a quiet server pays one read of
/// `/proc/self/statm` per interval.
public final class MemoryKeeper: Sendable {
    /// How much the resident size must have grown since the last release (or the start).
    public let growth: Int
    private let residentBytes: @Sendable () -> Int?
    private let release: @Sendable () -> Void
    private let state: Mutex<(baseline: Int?, releases: Int)>

    /// - Parameters:
    ///   - residentBytes: the process's resident size (default: `/proc/self/statm`).
    ///   - release: hands back the allocator's free pages (default: `malloc_trim`).
    public init(growth: Int = 32 << 20,
                residentBytes: @escaping @Sendable () -> Int? = MemoryKeeper.processResidentBytes,
                release: @escaping @Sendable () -> Void = { _ = slate_release_free_memory() }) {
        self.growth = growth
        self.residentBytes = residentBytes
        self.release = release
        state = Mutex((residentBytes(), 0))
    }

    /// How many times memory was handed back.
    public var releases: Int { state.withLock { $0.releases } }

    /// Looks once: releases when the process grew by more than `growth` since the last
    /// release; the size after it is the next baseline. Returns whether it released.
    @discardableResult
    public func check() -> Bool {
        guard let resident = residentBytes() else { return false }
        let grew = state.withLock { state in
            guard let baseline = state.baseline else {
                state.baseline = resident
                return false
            }
            return resident - baseline > growth
        }
        guard grew else { return false }
        release()
        let after = residentBytes() ?? resident
        state.withLock { state in
            state.baseline = after
            state.releases += 1
        }
        return true
    }

    /// Checks every `interval` until the task is cancelled.
    public func run(every interval: Duration = .seconds(10)) -> Task<Void, Never> {
        Task.detached(priority: .utility) { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                check()
            }
        }
    }

    /// The resident size of this process, from `/proc/self/statm` (nil where there is none).
    @Sendable public static func processResidentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
