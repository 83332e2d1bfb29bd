import Foundation

/// Backups, restores and the checks a running service makes of its store.
extension ModelContainer {
    /// Writes a consistent copy of the store to `destination` (replacing a file there)
    /// while other contexts and processes keep writing: the copy holds every commit made
    /// before the call and none made after the copy's snapshot was taken. It is written
    /// under a temporary name, passes `PRAGMA integrity_check`, then takes its name.
    ///
    /// Throws `StoreError.cannotOpen` for an in-memory store, an unwritable destination
    /// or a copy that fails its check.
    public func backup(to destination: String) throws {
        guard let pool = pool.sqlite else {
            throw StoreError.cannotOpen(
                path: destination,
                reason: "a PostgreSQL database is backed up with pg_dump (and restored with pg_restore), not by Slate")
        }
        guard let path = configuration.path else {
            throw StoreError.cannotOpen(path: destination, reason: "an in-memory store has no file to back up")
        }
        if Self.sameFile(destination, path) || Self.sameFile(destination, path + "-wal") || Self.sameFile(destination, path + "-shm") {
            throw StoreError.cannotOpen(path: destination, reason: "that is the database itself; name another file for the copy")
        }
        // A reader connection: the snapshot never blocks the writer.
        try pool.read { database in try DatabaseCopy.write(from: database, to: destination) }
    }

    /// Puts the backup at `source` in place of the store at `path`: checks that the
    /// backup is a sound database of a schema no newer than `schemaVersion`, then copies
    /// it into the store in one transaction (connections other processes hold on `path`
    /// see the old content or the new, never a mix). The file at `path` is created if
    /// missing. Opening a container afterwards migrates an older backup as usual.
    public static func restore(from source: String, to path: String, schemaVersion: Int) throws {
        let backup = try openBackup(at: source, for: path, schemaVersion: schemaVersion)
        let target = try SQLiteDatabase(path: path, mode: .create, busyTimeout: 5)
        try DatabaseCopy.copy(from: backup, into: target, path: path)
        try DatabaseCopy.checkIntegrity(of: target, path: path)
    }

    /// Throws what `restore(from:to:schemaVersion:)` would refuse about `source` (missing,
    /// the database itself, damaged, not a Slate store, newer), without writing anything.
    public static func checkBackup(at source: String, for path: String, schemaVersion: Int) throws {
        _ = try openBackup(at: source, for: path, schemaVersion: schemaVersion)
    }

    private static func openBackup(at source: String, for path: String, schemaVersion: Int) throws -> SQLiteDatabase {
        guard FileManager.default.fileExists(atPath: source) else {
            throw StoreError.cannotOpen(path: source, reason: "no such file")
        }
        guard !sameFile(source, path) else {
            throw StoreError.cannotOpen(path: source, reason: "that is the database itself, not a backup of it")
        }
        let backup = try SQLiteDatabase(path: source, mode: .readOnly, busyTimeout: 5)
        try DatabaseCopy.checkIntegrity(of: backup, path: source)
        let version = try Migrator.storedVersion(in: backup)
        if version > schemaVersion { throw StoreError.newerSchema(fileVersion: version, supportedVersion: schemaVersion) }
        if version == 0 {
            throw StoreError.cannotOpen(path: source, reason: "the file is a SQLite database but not a Slate store")
        }
        return backup
    }

    /// The schema version recorded in the file, read now (not when the container opened).
    public func storedSchemaVersion() throws -> Int {
        try pool.readStatement { try Migrator.storedVersion(in: $0) }
    }

    /// On PostgreSQL, how full the server's queue of commit announcements is, from 0 to 1
    /// (`pg_notification_queue_usage()`, shared by every database of the server): a
    /// listening session that stops reading (a node stopped but not gone) lets it fill, and
    /// when it is full every commit fails. Nil on SQLite, or when it cannot be read.
    public func announcementQueueUsage() -> Double? {
        guard case .postgreSQL = pool else { return nil }
        guard case .real(let usage)? = try? pool.readStatement({ try $0.scalar("SELECT pg_notification_queue_usage()") })
        else { return nil }
        return usage
    }

    /// Bytes the store takes on disk: the file and its write-ahead log (0 in memory); on
    /// PostgreSQL, its tables with their indexes.
    public func fileSize() -> Int {
        if case .postgreSQL = pool {
            let total = try? pool.readStatement { database in
                try database.scalar(
                    "SELECT CAST(coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bigint) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'")
            }
            return total.flatMap { Int.fromDatabaseValue($0) } ?? 0
        }
        guard let path = configuration.path else { return 0 }
        return [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
        }
    }

    /// True when both paths name one existing file (same device and inode), or are
    /// spelled the same once standardized.
    static func sameFile(_ first: String, _ second: String) -> Bool {
        if URL(fileURLWithPath: first).standardizedFileURL.path == URL(fileURLWithPath: second).standardizedFileURL.path { return true }
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// The name a copy taken before migrating `path` from schema `version` gets:
    /// `slate.sqlite.before-schema-3-20261201T051500Z`, beside the store.
    static func migrationBackupPath(for path: String, fromVersion version: Int, at date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return "\(path).before-schema-\(version)-\(formatter.string(from: date))"
    }
}
