import Foundation
import SlateStore

/// The database the store, core and API suites run on.
///
/// Without `SLATE_TEST_POSTGRES_URL` they run on SQLite (in memory, or the files a test
/// names). With it (`scripts/pg-cluster run -- swift test …`, as `make test` does) the same
/// tests run on PostgreSQL: each store a test opens gets a fresh schema of its own on that
/// server, so tests never see each other's rows and may run in parallel.
public enum TestDatabase {
    /// The test server's URL, from the environment; nil runs everything on SQLite.
    public static let postgreSQLURL: String? = {
        guard let url = ProcessInfo.processInfo.environment["SLATE_TEST_POSTGRES_URL"], !url.isEmpty else { return nil }
        return url
    }()

    /// True when the suites run on PostgreSQL.
    public static var isPostgreSQL: Bool { postgreSQLURL != nil }

    /// The URL of a new, empty schema on the test server (the store creates it), or nil
    /// on SQLite, where nil means a private in-memory store.
    public static func freshStore() -> String? {
        guard isPostgreSQL else { return nil }
        return url(schema: "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
    }

    /// The URL of `schema` on the test server (nil on SQLite).
    public static func url(schema: String) -> String? {
        guard let base = postgreSQLURL else { return nil }
        return base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + schema
    }

    /// A configuration for a fresh store: in memory on SQLite, a new schema on PostgreSQL.
    public static func configuration(
        schemaVersion: Int = 1, migrations: [MigrationStage] = [], busyTimeout: TimeInterval = 5, undoLimit: Int = 100
    ) -> ModelConfiguration {
        guard let url = freshStore() else {
            return ModelConfiguration(schemaVersion: schemaVersion, migrations: migrations, busyTimeout: busyTimeout, undoLimit: undoLimit)
        }
        return ModelConfiguration(postgreSQL: try! PostgreSQLLocation(url: url), schemaVersion: schemaVersion, migrations: migrations,
                                  busyTimeout: busyTimeout, undoLimit: undoLimit)
    }

    /// A configuration that two containers (two processes, or two nodes) share: the file at
    /// `path` on SQLite; on PostgreSQL one schema per `path`, the same for every call with it.
    public static func shared(path: String, schemaVersion: Int = 1, busyTimeout: TimeInterval = 5) -> ModelConfiguration {
        guard isPostgreSQL else { return ModelConfiguration(path: path, schemaVersion: schemaVersion, busyTimeout: busyTimeout) }
        return ModelConfiguration(postgreSQL: try! PostgreSQLLocation(url: sharedURL(path: path)!), schemaVersion: schemaVersion,
                                  busyTimeout: busyTimeout)
    }

    /// The URL `shared(path:)` uses, for code that opens a store by name (nil on SQLite).
    public static func sharedURL(path: String) -> String? {
        guard isPostgreSQL else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return url(schema: "s_" + String(hash, radix: 16))
    }
}
