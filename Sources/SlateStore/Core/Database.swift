import CSQLite
import Foundation

/// One SQLite connection with a prepared-statement cache: the embedded backend of `Database`.
///
/// A connection is handed to closures by `DatabasePool.read` and `.write`, which give
/// each connection to one thread at a time. It is not meant to be kept beyond them.
///
/// `@unchecked Sendable`: the pool moves a connection between threads but never
/// lets two of them use it at once, and SQLite itself is opened in serialized
/// (`SQLITE_OPEN_FULLMUTEX`) mode as a second line of defence.
public final class SQLiteDatabase: Database, @unchecked Sendable {
    let handle: OpaquePointer
    /// The file path, or ":memory:".
    public let path: String
    public let dialect = SQLDialect.sqlite
    private var statements: [String: Statement] = [:]
    /// The statement `cachedStatement` handed out last (also in `statements`).
    private var lastStatement: Statement?
    private var savepointDepth = 0
    private let busyTimeout: TimeInterval
    /// The frames in the WAL after this connection's last commit, set by SQLite's WAL hook
    /// once `foldsLongWriteAheadLog` installed it (allocated here: the hook is a C function).
    private let logFrames = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// The frames past which a commit folds the log back (`checkpointIfLogIsLong`).
    private var logBound = WriteAheadLog.checkpointFrames
    /// True when a fold past `logBound` keeps the log's file for the next commits (see `foldWriteAheadLog`).
    private var keepsLogFile = false

    /// How a connection opens its file.
    enum OpenMode {
        /// Read and write; create the file if missing.
        case create
        /// Read and write an existing file (readers use this with `query_only`, so the
        /// last connection to close can always fold the WAL back and remove it).
        case existing
        /// Read only: for files the process may not write.
        case readOnly
    }

    /// Opens the database at `path`.
    init(path: String, mode: OpenMode, busyTimeout: TimeInterval) throws {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI
        switch mode {
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .existing: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        logFrames.initialize(to: 0)
        self.busyTimeout = busyTimeout
        _ = SQLiteLibrary.configured
        let code = sqlite3_open_v2(path, &handle, flags, WriteAheadLog.vfsName)
        guard code == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            if let handle { sqlite3_close_v2(handle) }
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
        do {
            // Reading the schema fails early and clearly on a file that is not a database.
            try execute("SELECT count(*) FROM sqlite_master")
            try execute("PRAGMA foreign_keys = ON")
            try execute("PRAGMA recursive_triggers = OFF")
        } catch let error as StoreError {
            sqlite3_close_v2(handle)
            if case .sqlite(let details) = error, details.primaryCode == SQLITE_NOTADB || details.primaryCode == SQLITE_CORRUPT {
                throw StoreError.cannotOpen(path: path, reason: "the file is not a SQLite database or is corrupt (\(details.message))")
            }
            throw error
        }
    }

    deinit {
        lastStatement = nil
        statements.removeAll()
        sqlite3_close_v2(handle)
        logFrames.deallocate()
    }

    /// The most statements a connection keeps prepared. The store's own SQL is a few dozen
    /// texts; the bound keeps a caller that pastes values into SQL from growing the cache
    /// without end.
    static let statementCacheLimit = 256

    /// A cached prepared statement for `sql`.
    func cachedStatement(_ sql: String) throws -> Statement {
        // The statement of the last call first: a bulk write runs one INSERT per row, and the
        // text it passes is the schema's own string, which `==` matches without reading it
        // (hashing the text for the dictionary was a tenth of the store's own work per row).
        if let last = lastStatement, last.sql == sql { return last }
        if let statement = statements[sql] {
            lastStatement = statement
            return statement
        }
        let statement = try Statement(database: self, sql: sql)
        // Statements in use stay alive through their callers' references.
        if statements.count >= Self.statementCacheLimit { statements.removeAll(keepingCapacity: true) }
        statements[sql] = statement
        lastStatement = statement
        return statement
    }

    /// How many prepared statements the connection keeps (for tests of the bound).
    var cachedStatementCount: Int { statements.count }

    /// Runs one or more statements without arguments (DDL, pragmas).
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) }
            sqlite3_free(errorMessage)
            throw error(code: code, sql: sql, arguments: [], message: message)
        }
    }

    /// Runs one statement with bound arguments.
    public func execute(_ sql: String, _ arguments: [DatabaseValue]) throws {
        try cachedStatement(sql).execute(arguments)
    }

    /// Runs one statement with `arguments` and then `last` bound, in order.
    public func execute(_ sql: String, _ arguments: [DatabaseValue], last: DatabaseValue) throws {
        try cachedStatement(sql).execute(arguments, last: last)
    }

    /// Fetches every row of a query.
    public func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [Row] {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        var rows: [Row] = []
        while try statement.step(arguments: arguments) { rows.append(statement.row()) }
        return rows
    }

    /// Fetches the first column of the first row, or nil when there is no row.
    public func scalar(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> DatabaseValue? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        guard try statement.step(arguments: arguments) else { return nil }
        return statement.value(at: 0)
    }

    /// Steps through a query's rows, handing the live statement to `body`.
    func forEachRow(_ sql: String, _ arguments: [DatabaseValue], _ body: (ResultRow) throws -> Void) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        while try statement.step(arguments: arguments) { try body(.sqlite(statement)) }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int { Int(sqlite3_changes(handle)) }

    /// The rowid (`_pk` of a model table) of the row the last INSERT on this connection made.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// True inside a transaction.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE`, so a writer never deadlocks
    /// on a lock upgrade), or in a savepoint when a transaction is already open.
    /// Commits when `body` returns, rolls back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction {
            savepointDepth += 1
            let name = "slate_sp\(savepointDepth)"
            defer { savepointDepth -= 1 }
            try execute("SAVEPOINT \(name)")
            do {
                let result = try body()
                try execute("RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Commits; a deferred foreign-key check that fails here is reported with the table
    /// that holds the dangling reference, which COMMIT's own error does not name.
    private func commit() throws {
        do {
            try execute("COMMIT")
        } catch StoreError.constraintViolation(_, let message) where message.contains("FOREIGN KEY") {
            throw foreignKeyViolation()
        }
    }

    /// The error for a broken deferred foreign-key rule, naming the table that holds the
    /// dangling reference.
    func foreignKeyViolation() -> StoreError {
        let first = try? rows("PRAGMA foreign_key_check").first
        let table = first.flatMap { String.fromDatabaseValue($0["table"]) } ?? "database"
        let parent = first.flatMap { String.fromDatabaseValue($0["parent"]) } ?? "another table"
        return StoreError.constraintViolation(
            table: table, message: "a row refers to a missing \(parent) row (FOREIGN KEY constraint failed)")
    }

    /// True while the open transaction breaks a deferred foreign-key rule, so that its
    /// COMMIT would fail. A group commit checks it after each writer, so that one writer's
    /// dangling reference rolls back that writer alone instead of failing the commit of all.
    var breaksDeferredForeignKeys: Bool {
        var current: Int32 = 0
        var highest: Int32 = 0
        _ = sqlite3_db_status(handle, SQLITE_DBSTATUS_DEFERRED_FKS, &current, &highest, 0)
        return current > 0
    }

    /// Stops this connection from folding the WAL into the file (a checkpoint, two fsyncs
    /// when it holds commits) and deleting it when it closes. A store's connections keep
    /// the WAL for the next process, which then appends to it instead of creating it again
    /// (another fsync, of the header); SQLite's automatic checkpoint folds it back when it
    /// grows. A file that is refused is also left exactly as it was found.
    func leaveWriteAheadLogOnClose() {
        var result: Int32 = 0
        _ = slate_sqlite_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &result)
    }

    /// Makes this connection (a store's writer) fold the WAL back into the file itself,
    /// after a commit that leaves it longer than `frames` (`checkpointIfLogIsLong`),
    /// instead of SQLite's automatic checkpoint, which the hook replaces.
    func foldsLongWriteAheadLog(after frames: Int32, keepingFile: Bool = false) {
        logBound = frames
        keepsLogFile = keepingFile
        sqlite3_wal_hook(handle, { context, _, _, frames in
            context?.assumingMemoryBound(to: Int32.self).pointee = frames
            return SQLITE_OK
        }, UnsafeMutableRawPointer(logFrames))
    }

    /// After a commit: when the WAL has grown past its bound, copies it into the file and
    /// empties it (two fsyncs, and one for the header of the next log). It never waits: with
    /// a reader still on the log (another process) it copies what it can and leaves the
    /// rest for a later commit.
    func checkpointIfLogIsLong() {
        guard logFrames.pointee > logBound else { return }
        foldWriteAheadLog(keepingFile: keepsLogFile)
    }

    /// Copies the WAL into the file and empties it, now, without waiting for a reader of
    /// another process (what it still reads stays for a later commit).
    ///
    /// `keepingFile`: the log's file keeps its length and the next commit writes over it
    /// from the start (`SQLITE_CHECKPOINT_RESTART`) instead of growing an emptied file
    /// again (`SQLITE_CHECKPOINT_TRUNCATE`). Writing over pages the file already has costs
    /// the kernel less (no blocks to reserve, pages likely still cached) and its fdatasync
    /// has no new length to write: a server's durable writes, about a fifth more a second.
    func foldWriteAheadLog(keepingFile: Bool = false) {
        guard !isInTransaction else { return }
        logFrames.pointee = 0
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000)) }
        _ = sqlite3_wal_checkpoint_v2(handle, nil, keepingFile ? SQLITE_CHECKPOINT_RESTART : SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
    }

    /// Builds the error for a failed call, mapping common codes to typed errors.
    func error(code: Int32, sql: String?, arguments: [DatabaseValue], message: String? = nil) -> StoreError {
        let extended = sqlite3_extended_errcode(handle)
        let details = SQLiteError(
            code: extended != 0 ? extended : code,
            message: message ?? String(cString: sqlite3_errmsg(handle)),
            sql: sql,
            arguments: arguments
        )
        switch code & 0xFF {
        case SQLITE_CONSTRAINT:
            return .constraintViolation(table: Self.tableName(in: sql) ?? "database", message: details.message)
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path)
        default: return .sqlite(details)
        }
    }

    private static func tableName(in sql: String?) -> String? {
        guard let sql else { return nil }
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" }).map(String.init)
        for (index, word) in words.enumerated() where ["INTO", "UPDATE", "FROM"].contains(word.uppercased()) {
            if index + 1 < words.count { return words[index + 1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        return nil
    }
}

/// Quotes an SQL identifier (table or column name).
///
/// Queries quote every column they name, so the usual case (no `"` inside) skips
/// Foundation's `replacingOccurrences`, which bridges through NSString and cost about
/// as much as the rest of building a small query.
@inline(__always)
func quote(_ identifier: String) -> String {
    guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
    return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
