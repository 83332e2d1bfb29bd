import Foundation
import SlateCore
import SlateHTTP
import Synchronization

/// How `slate serve` runs its service: logs, metrics and the checks of `/readyz`.
public struct ServiceOptions: Sendable {
    /// Where and how lines are written, and which requests get one.
    public var log = ServiceLog()
    /// Collects request metrics and the store's figures when set (see ``ServiceMetrics``).
    public var metrics: MetricsRegistry? = nil
    /// Send `Strict-Transport-Security` (served over TLS, by Slate or a proxy).
    public var strictTransportSecurity = false
    /// How many live event streams (`GET /api/v1/events`) one account may keep open at
    /// once: past it, 429. A bound on what one account can make the server hold.
    public var streamsPerAccount = 16
    /// The schema version `/readyz` expects the file to have.
    public var schemaVersion: Int = SlateSchema.version

    /// The defaults: every request logged as text, no metrics.
    public init() {}
}

/// The store's figures for `GET /metrics`: commits seen by this server (its own and other
/// processes' on the same file), the revision, and the bytes on disk.
public enum ServiceMetrics {
    /// Adds the store's metrics to `registry`; commits are counted by the returned task
    /// until it is cancelled.
    public static func register(_ container: BoardStore, in registry: MetricsRegistry) -> Task<Void, Never> {
        let commits = CommitCounter()
        // Subscribed now, so a commit made right after this returns is counted.
        let stream = container.commits()
        let counting = Task {
            for await _ in stream { commits.count.add(1, ordering: .relaxed) }
        }
        registry.addCounter("slate_commits_total", help: "Commits to the database seen since the server started.") {
            Double(commits.count.load(ordering: .relaxed))
        }
        registry.addGauge("slate_database_revision", help: "The revision of the last commit to the database.") {
            Double((try? container.currentRevision()) ?? 0)
        }
        registry.addGauge("slate_database_bytes", help: "Bytes the database takes on disk (file and write-ahead log).") {
            Double(container.fileSize())
        }
        if container.announcesCommits {
            registry.addGauge(
                "slate_database_announcement_queue_usage",
                help: "On PostgreSQL, how full the server's queue of commit announcements is (0 to 1); at 1 every commit fails."
            ) { container.announcementQueueUsage() ?? 0 }
        }
        return counting
    }
}

/// Commits counted by one server.
final class CommitCounter: Sendable {
    let count = Atomic<Int>(0)
}
