import Foundation

/// One connection to the store's database, on either backend: an embedded SQLite file
/// (`SQLiteDatabase`) or a PostgreSQL server (for several nodes behind one database).
///
/// A connection is handed to closures by the container's pool, which gives it to one
/// thread at a time; it is not meant to be kept beyond them. Custom migration stages get
/// one: their SQL must suit `dialect`.
///
/// Arguments bind to `?` placeholders in order on both backends.
public protocol Database: AnyObject {
    /// Which SQL the connection speaks.
    var dialect: SQLDialect { get }
    /// Runs one or more statements without arguments (DDL).
    func execute(_ sql: String) throws
    /// Runs one statement with bound arguments.
    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws
    /// Fetches every row of a query.
    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [Row]
    /// Fetches the first column of the first row, or nil when there is no row.
    func scalar(_ sql: String, _ arguments: [DatabaseValue]) throws -> DatabaseValue?
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changesCount: Int { get }
    /// True inside a transaction.
    var isInTransaction: Bool { get }
    /// Runs `body` in a write transaction, or in a savepoint when one is open; commits when
    /// `body` returns, rolls back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// Runs a statement whose answer the caller does not read (bookkeeping: an undo entry,
    /// a commit-log row, a tombstone). PostgreSQL sends it, inside a write transaction, with
    /// the next statement that has an answer, saving a round trip; its failure is then thrown
    /// by that statement, or at the latest by the end of the savepoint or transaction it is
    /// in. `changesCount` does not count it. SQLite runs it at once.
    func executeWithoutWaiting(_ sql: String, _ arguments: [DatabaseValue]) throws
    /// Runs one statement with `arguments` and then `last` bound (a row's values and its
    /// stamp). SQLite binds them without making one array of both, once per inserted row.
    func execute(_ sql: String, _ arguments: [DatabaseValue], last: DatabaseValue) throws
}

extension Database {
    public func executeWithoutWaiting(_ sql: String, _ arguments: [DatabaseValue]) throws { try execute(sql, arguments) }

    public func execute(_ sql: String, _ arguments: [DatabaseValue], last: DatabaseValue) throws {
        try execute(sql, arguments + [last])
    }

    /// Fetches every row of a query without arguments.
    public func rows(_ sql: String) throws -> [Row] { try rows(sql, []) }

    /// Fetches the first column of the first row of a query without arguments.
    public func scalar(_ sql: String) throws -> DatabaseValue? { try scalar(sql, []) }

    /// Runs `body`, work over a large part of the file (undoing an import of 50,000 tasks),
    /// with a page cache of up to 64 MiB instead of SQLite's 2 MiB. With the default such
    /// work re-read 934,000 pages and spilled 206,000 to the WAL mid-transaction (68 s
    /// instead of 12: BENCHMARKS.md, Import). Only for bulk work: the cache goes back to its
    /// size after, so a server's connections do not each keep 64 MiB. PostgreSQL runs `body`
    /// as it is.
    func withBulkPageCache<T>(_ body: () throws -> T) throws -> T {
        guard dialect == .sqlite, case .integer(let size)? = try scalar("PRAGMA cache_size") else { return try body() }
        try execute("PRAGMA cache_size = -65536")
        defer { try? execute("PRAGMA cache_size = \(size)") }
        return try body()
    }

    /// How many prepared statements the connection keeps (for tests of the bound).
    var cachedStatementCount: Int {
        (self as? SQLiteDatabase)?.cachedStatementCount ?? (self as? PostgreSQLDatabase)?.cachedStatementCount ?? 0
    }

    /// Throws when the open transaction breaks a deferred foreign-key rule, so that its
    /// COMMIT would fail: a group commit checks after each writer, so that one writer's
    /// dangling reference rolls back its own savepoint instead of the commit of all.
    /// PostgreSQL checks the pending rules when they are made immediate (and the savepoint's
    /// rollback restores their deferred mode).
    func checkDeferredForeignKeys() throws {
        if let sqlite = self as? SQLiteDatabase {
            if sqlite.breaksDeferredForeignKeys { throw sqlite.foreignKeyViolation() }
        } else {
            // Checked when the savepoint around the change is released (a group commit's).
            try executeWithoutWaiting("SET CONSTRAINTS ALL IMMEDIATE", [])
            try executeWithoutWaiting("SET CONSTRAINTS ALL DEFERRED", [])
        }
    }

    /// Steps through a query's rows, handing each to `body` in place (no `Row` is built).
    func forEachRow(_ sql: String, _ arguments: [DatabaseValue], _ body: (ResultRow) throws -> Void) throws {
        // Two backends, two final classes: a class check is cheaper than a protocol witness
        // for a method whose row type must stay internal.
        if let sqlite = self as? SQLiteDatabase {
            try sqlite.forEachRow(sql, arguments, body)
        } else if let server = self as? PostgreSQLDatabase {
            try server.forEachRow(sql, arguments, body)
        } else {
            preconditionFailure("a Database that is neither SQLite nor PostgreSQL")
        }
    }
}

/// The SQL a connection speaks. Most of what the store writes is the same on both; where
/// it is not, the store asks the dialect (see `SQLDialect+Fragments.swift`).
public enum SQLDialect: String, Sendable {
    /// SQLite 3 (the embedded default).
    case sqlite
    /// PostgreSQL 15 or newer.
    case postgreSQL
}

/// The current row of a query, on either backend, read by column position. Valid only
/// inside the `forEachRow` body that hands it out.
enum ResultRow {
    case sqlite(Statement)
    case postgreSQL(PostgreSQLRows, row: Int32)

    var columnCount: Int32 {
        switch self {
        case .sqlite(let statement): statement.columnCount
        case .postgreSQL(let rows, _): rows.columnCount
        }
    }

    func columnName(_ index: Int32) -> String {
        switch self {
        case .sqlite(let statement): statement.columnName(index)
        case .postgreSQL(let rows, _): rows.columnName(index)
        }
    }

    @inline(__always)
    func value(at index: Int32) -> DatabaseValue {
        switch self {
        case .sqlite(let statement): statement.value(at: index)
        case .postgreSQL(let rows, let row): rows.value(row, index)
        }
    }

    @inline(__always)
    func isNull(at index: Int32) -> Bool {
        switch self {
        case .sqlite(let statement): statement.isNull(at: index)
        case .postgreSQL(let rows, let row): rows.isNull(row, index)
        }
    }

    @inline(__always)
    func isText(at index: Int32) -> Bool {
        switch self {
        case .sqlite(let statement): statement.isText(at: index)
        case .postgreSQL(let rows, let row): rows.isText(row, index)
        }
    }

    @inline(__always)
    func int64(at index: Int32) -> Int64 {
        switch self {
        case .sqlite(let statement): statement.int64(at: index)
        case .postgreSQL(let rows, let row): rows.int64(row, index)
        }
    }

    @inline(__always)
    func double(at index: Int32) -> Double {
        switch self {
        case .sqlite(let statement): statement.double(at: index)
        case .postgreSQL(let rows, let row): rows.double(row, index)
        }
    }

    @inline(__always)
    func text(at index: Int32) -> String {
        switch self {
        case .sqlite(let statement): statement.text(at: index)
        case .postgreSQL(let rows, let row): rows.text(row, index)
        }
    }

    @inline(__always)
    func uuid(at index: Int32) -> UUID? {
        switch self {
        case .sqlite(let statement): statement.uuid(at: index)
        case .postgreSQL(let rows, let row): rows.uuid(row, index)
        }
    }
}
