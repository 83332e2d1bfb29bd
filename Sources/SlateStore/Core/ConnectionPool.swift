import Foundation

/// A container's connections, on whichever backend it was opened: the same four ways in,
/// so the store's logic does not care which.
enum ConnectionPool: Sendable {
    /// One writer and a few readers on a file, or one connection in memory.
    case sqlite(DatabasePool)
    /// One writer and a few readers on a PostgreSQL server, reconnecting when it returns.
    case postgreSQL(PostgreSQLPool)

    var dialect: SQLDialect {
        switch self {
        case .sqlite: .sqlite
        case .postgreSQL: .postgreSQL
        }
    }

    /// The SQLite pool, for what only a file has (backups, the write-ahead log).
    var sqlite: DatabasePool? {
        if case .sqlite(let pool) = self { return pool }
        return nil
    }

    /// How many reader connections the pool has opened (for tests).
    var readersOpened: Int {
        switch self {
        case .sqlite(let pool): pool.readersOpened
        case .postgreSQL(let pool): pool.readersOpened
        }
    }

    /// Runs `body` with the writer connection, one caller at a time.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        switch self {
        case .sqlite(let pool): try pool.write { try body($0) }
        case .postgreSQL(let pool): try pool.write { try body($0) }
        }
    }

    /// Runs `body` with a reader connection inside one read transaction (one snapshot).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        switch self {
        case .sqlite(let pool): try pool.read { try body($0) }
        case .postgreSQL(let pool): try pool.read { try body($0) }
        }
    }

    /// Runs one statement's worth of reading, without a transaction of its own.
    func readStatement<T>(_ body: (Database) throws -> T) throws -> T {
        switch self {
        case .sqlite(let pool): try pool.readStatement { try body($0) }
        case .postgreSQL(let pool): try pool.readStatement { try body($0) }
        }
    }

    /// Runs `body` with every read inside it served from one snapshot.
    func snapshot<T>(expecting reads: [ExpectedRead] = [], usuallyNothingElse: Bool = false, _ body: () throws -> T) throws -> T {
        switch self {
        case .sqlite(let pool): try pool.snapshot(body)
        case .postgreSQL(let pool): try pool.snapshot(expecting: reads, usuallyNothingElse: usuallyNothingElse, body)
        }
    }

    /// Reads the open snapshot makes after its next statement (PostgreSQL; SQLite reads in-process).
    func expectInSnapshot(_ reads: [ExpectedRead], thenUsuallyNothingElse: Bool) {
        if case .postgreSQL(let pool) = self { pool.expectInSnapshot(reads, thenUsuallyNothingElse: thenUsuallyNothingElse) }
    }

    /// Reads the write held on this thread makes after its next statement (PostgreSQL).
    func expectInWrite(_ reads: [ExpectedRead]) {
        if case .postgreSQL(let pool) = self { pool.expectInWrite(reads) }
    }

    /// Runs `body` holding the writer connection: every read and write inside it on this
    /// thread uses it (group commit, `ModelContainer.writeTogether`).
    func group<T>(_ body: (Database) throws -> T) throws -> T {
        switch self {
        case .sqlite(let pool): try pool.group { try body($0) }
        case .postgreSQL(let pool): try pool.group { try body($0) }
        }
    }

    /// True inside `group` on this thread.
    var isInsideGroup: Bool {
        switch self {
        case .sqlite(let pool): pool.isInsideGroup
        case .postgreSQL(let pool): pool.isInsideGroup
        }
    }

    /// `read()`'s value, read once per snapshot for each `key`.
    func oncePerSnapshot(_ key: String, _ read: () throws -> Int) rethrows -> Int {
        switch self {
        case .sqlite(let pool): try pool.oncePerSnapshot(key, read)
        case .postgreSQL(let pool): try pool.oncePerSnapshot(key, read)
        }
    }
}
