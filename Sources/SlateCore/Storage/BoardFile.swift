import Foundation
import SlateStore

/// A held claim that one process serves a board file (`slate.sqlite.lock` beside it);
/// released when dropped or when the process ends, however it ends.
public typealias ServingLock = ProcessLock

/// Backups, restores and the serving lock of a board's file, for the surfaces that run
/// Slate as a service. Everything goes through the store; no surface writes SQL.
public enum BoardFile {
    /// Writes a consistent copy of `store` to `destination` while others keep writing (see
    /// `ModelContainer.backup(to:)`). Throws ``SlateError/store(_:)`` saying what failed.
    public static func backup(_ store: BoardStore, to destination: String) throws {
        do {
            try store.backup(to: destination)
        } catch let error as StoreError {
            throw SlateError.store("Cannot write the backup \(destination): \(error.description)")
        }
    }

    /// Puts the backup at `source` in place of the board file at `path` (created if
    /// missing), after checking that it is a sound Slate board of a schema this version
    /// can open. Opening the board afterwards upgrades an older backup.
    public static func restore(from source: String, to path: String) throws {
        do {
            try ModelContainer.restore(from: source, to: path, schemaVersion: SlateSchema.version)
        } catch let error as StoreError {
            throw SlateError.store("Cannot restore \(source): \(error.description)")
        }
    }

    /// Throws what `restore(from:to:)` would refuse about the backup at `source` (missing,
    /// the board itself, damaged, not a Slate board, newer), writing nothing: a restore
    /// checks first, before it copies the current board aside.
    public static func checkBackup(at source: String, for path: String) throws {
        do {
            try ModelContainer.checkBackup(at: source, for: path, schemaVersion: SlateSchema.version)
        } catch let error as StoreError {
            throw SlateError.store("Cannot restore \(source): \(error.description)")
        }
    }

    /// Claims the board file at `path` for serving; nil when another process serves it.
    public static func claimForServing(_ path: String) throws -> ServingLock? {
        do {
            return try ProcessLock.acquire(forStore: path)
        } catch let error as StoreError {
            throw SlateError.store(error.description)
        }
    }
}

/// What `BoardFile.migrate` copied.
public struct BoardMigration: Sendable {
    /// Rows copied per kind of record (the store's table names, for the report).
    public let rows: [String: Int]
    /// The store sequence the copy carries on from (every account's revision carries over too).
    public let revision: Int
}

extension BoardFile {
    /// Copies the whole database `source` (accounts, lists, tasks, alerts, CalDAV bytes and
    /// the history sync clients and undo need) into `destination` — a new file, or an empty
    /// PostgreSQL database or schema (`postgresql://…`) — then checks the copy row by row
    /// against the original. Stop every server on `source` first: writes made meanwhile
    /// would not be in the copy.
    public static func migrate(_ source: BoardStore, to destination: String, password: String? = nil) throws -> BoardMigration {
        if !Slate.isServerURL(destination), FileManager.default.fileExists(atPath: destination) {
            throw SlateError.invalid(field: "to", message: "\(destination) exists already; name a new file (or an empty PostgreSQL database).")
        }
        do {
            let target = try Slate.openContainer(path: destination, password: password)
            // The sign-in limiter's counts are not data: a shared database keeps them, a file does not.
            let counts = try source.copy(into: target, leaving: SlateSchema.serverModels)
            try source.verifyCopy(in: target, leaving: SlateSchema.serverModels)
            return BoardMigration(rows: counts, revision: try target.currentRevision())
        } catch let error as StoreError {
            throw SlateError.store("Cannot migrate to \(Slate.databaseName(destination)): \(error.description)")
        }
    }
}
