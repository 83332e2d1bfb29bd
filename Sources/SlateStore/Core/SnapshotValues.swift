import Synchronization

/// Values read once inside one read snapshot, by what they are (the store sequence, a
/// partition's revision): no commit can move them within it. Each pool's pinned reader
/// holds one (`DatabasePool.oncePerSnapshot`, `PostgreSQLPool.oncePerSnapshot`).
final class SnapshotValues: Sendable {
    private let values = Mutex<[String: Int]>([:])

    /// The value kept for `key`, else `read()`'s, kept.
    func value(_ key: String, _ read: () throws -> Int) rethrows -> Int {
        if let known = values.withLock({ $0[key] }) { return known }
        let value = try read()
        values.withLock { $0[key] = value }
        return value
    }
}
