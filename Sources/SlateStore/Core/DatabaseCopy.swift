import CSQLite
import Foundation

/// Copies a database with SQLite's online backup API: the copy is one consistent
/// snapshot, taken from a connection that other connections (and processes) may keep
/// writing through meanwhile. Used for `ModelContainer.backup(to:)`, for restores and for
/// the copy written before a migration.
enum DatabaseCopy {
    /// Copies everything `source` sees into a new file at `destination`, written beside it
    /// under a temporary name and renamed into place once complete and checked, so a
    /// reader of `destination` never sees half a copy. The copy is a self-contained
    /// rollback-journal file (no `-wal` beside it).
    static func write(from source: SQLiteDatabase, to destination: String) throws {
        let partial = destination + ".partial-\(getpid())"
        unlink(partial)
        defer { unlink(partial) }
        do {
            let target = try SQLiteDatabase(path: partial, mode: .create, busyTimeout: 5)
            try copy(from: source, into: target, path: destination)
            try target.execute("PRAGMA journal_mode = DELETE")
            try checkIntegrity(of: target, path: destination)
        }
        guard rename(partial, destination) == 0 else {
            throw StoreError.cannotOpen(path: destination, reason: String(cString: strerror(errno)))
        }
    }

    /// Replaces the content of `target` with the content of `source`, in one transaction
    /// of `target` (its other connections see the old content or the new, never a mix).
    static func copy(from source: SQLiteDatabase, into target: SQLiteDatabase, path: String) throws {
        guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
            throw target.error(code: sqlite3_errcode(target.handle), sql: nil, arguments: [])
        }
        // One step of every page: the source is read in one snapshot.
        var code = sqlite3_backup_step(backup, -1)
        var attempts = 0
        while code == SQLITE_BUSY || code == SQLITE_LOCKED, attempts < 50 {
            attempts += 1
            usleep(100_000)
            code = sqlite3_backup_step(backup, -1)
        }
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finish == SQLITE_OK else {
            if code == SQLITE_BUSY || code == SQLITE_LOCKED { throw StoreError.busy(path: path) }
            throw target.error(code: code == SQLITE_DONE ? finish : code, sql: nil, arguments: [])
        }
    }

    /// Throws unless `PRAGMA integrity_check` answers `ok`.
    static func checkIntegrity(of database: SQLiteDatabase, path: String) throws {
        let rows = try database.rows("PRAGMA integrity_check")
        let messages = rows.compactMap { String.fromDatabaseValue($0["integrity_check"]) }
        guard messages == ["ok"] else {
            throw StoreError.cannotOpen(path: path, reason: "the integrity check failed: \(messages.prefix(3).joined(separator: "; "))")
        }
    }
}
