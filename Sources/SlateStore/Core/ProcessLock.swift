import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock on a file beside the store (`slate.sqlite.lock`) that a long-running
/// process holds for as long as it runs, so that another process can tell it is there.
/// `slate serve` holds it; `slate restore` refuses while it is held. The system releases
/// it when the process ends, however it ends, so a crash never leaves it stale.
public final class ProcessLock: Sendable {
    /// The lock file's path.
    public let path: String
    private let descriptor: Int32

    /// The lock file of the store at `storePath`.
    public static func path(forStore storePath: String) -> String { storePath + ".lock" }

    /// Takes the lock of the store at `storePath` without waiting; nil when another
    /// process holds it. Throws `StoreError.cannotOpen` when the lock file cannot be made.
    public static func acquire(forStore storePath: String) throws -> ProcessLock? {
        let path = path(forStore: storePath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return ProcessLock(path: path, descriptor: descriptor)
    }

    /// True when some process holds the lock of the store at `storePath` right now.
    public static func isHeld(forStore storePath: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path(forStore: storePath)) else { return false }
        return try acquire(forStore: storePath) == nil
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
