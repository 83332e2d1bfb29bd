import Foundation

/// Every error SlateStore throws. Each case says what went wrong in words a person can
/// act on; SQLite failures keep the result code, message, SQL and arguments.
public enum StoreError: Error, Sendable, Equatable {
    /// SQLite refused a call.
    case sqlite(SQLiteError)
    /// The predicate uses a construct that cannot be translated to SQL.
    case unsupportedPredicate(String)
    /// A key path in a predicate or sort is not a stored column of the model.
    case unknownKeyPath(model: String, keyPath: String)
    /// A UNIQUE, NOT NULL, CHECK or foreign-key rule was broken.
    case constraintViolation(table: String, message: String)
    /// Deleting the row is refused by a `.deny` delete rule.
    case deleteDenied(model: String, id: UUID, dependents: String, count: Int)
    /// No row has this id.
    case notFound(model: String, id: UUID)
    /// The row changed since the caller read it (optimistic concurrency).
    case conflict(model: String, id: UUID, expectedRevision: Int, actualRevision: Int)
    /// The file was written by a newer schema than this code knows.
    case newerSchema(fileVersion: Int, supportedVersion: Int)
    /// The schema or migration plan is inconsistent.
    case invalidSchema(String)
    /// A migration step failed; nothing was changed.
    case migrationFailed(version: Int, reason: String)
    /// A stored value cannot be read as the model's property type.
    case decodingFailed(model: String, column: String, reason: String)
    /// The database file cannot be opened (missing folder, permissions, not a database).
    case cannotOpen(path: String, reason: String)
    /// The database is read-only and a write was attempted.
    case readOnly(path: String)
    /// The database stayed locked by another connection longer than the busy timeout.
    case busy(path: String)
    /// PostgreSQL refused a call.
    case postgreSQL(PostgreSQLError)
    /// The database server cannot be reached (down, restarting, the connection lost): try
    /// again later. `database` names it without its password.
    case unavailable(database: String, reason: String)
}

/// The details of a failed SQLite call.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code, such as 2067 for SQLITE_CONSTRAINT_UNIQUE.
    public var code: Int32
    /// SQLite's own message.
    public var message: String
    /// The statement that failed, if any.
    public var sql: String?
    /// The bound arguments; shown by `debugDescription` only, as they may be private.
    public var arguments: [DatabaseValue]

    /// The primary result code (the low byte of `code`).
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " — while running: \(sql)" }
        return text
    }

    /// The description with the bound arguments.
    public var debugDescription: String {
        description + (arguments.isEmpty ? "" : " with arguments \(arguments)")
    }
}

extension StoreError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .sqlite(let error): error.description
        case .unsupportedPredicate(let node): "The predicate cannot be translated to SQL: \(node)."
        case .unknownKeyPath(let model, let keyPath):
            "\(keyPath) is not a stored column of \(model); declare it in \(model).schema."
        case .constraintViolation(let table, let message): "\(table): \(message)"
        case .deleteDenied(let model, let id, let dependents, let count):
            "Cannot delete \(model) \(id): \(count) \(dependents) still refer to it (delete rule .deny)."
        case .notFound(let model, let id): "No \(model) with id \(id)."
        case .conflict(let model, let id, let expected, let actual):
            "\(model) \(id) was changed by someone else (revision \(actual), you edited revision \(expected))."
        case .newerSchema(let file, let supported):
            "The database was written by a newer version of the app (schema \(file); this version knows up to \(supported)). It was not modified."
        case .invalidSchema(let reason): "Invalid schema: \(reason)"
        case .migrationFailed(let version, let reason):
            "Migration to schema \(version) failed, nothing was changed: \(reason)"
        case .decodingFailed(let model, let column, let reason):
            "Cannot read \(model).\(column): \(reason)"
        case .cannotOpen(let path, let reason): "Cannot open the database at \(path): \(reason)"
        case .readOnly(let path): "The database at \(path) is read-only."
        case .busy(let path): "The database at \(path) is locked by another process; try again."
        case .postgreSQL(let error): error.description
        case .unavailable(let database, let reason): "The database \(database) cannot be reached: \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
