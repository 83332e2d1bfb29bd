import CPostgreSQL
import Foundation

/// One connection to a PostgreSQL server through libpq, with a cache of prepared statements.
///
/// Statements are written with `?` placeholders, as for SQLite; they become `$1…$n` when
/// prepared. Arguments are sent in binary with their types (bigint, double precision,
/// text, bytea; NULL untyped); results come back as text and are read by column type.
///
/// `@unchecked Sendable`: the pool moves a connection between threads but never lets two
/// of them use it at once (each sits behind a `Mutex` or in an idle list while unused),
/// and a libpq connection may be used from any thread as long as it is one at a time.
final class PostgreSQLDatabase: Database, @unchecked Sendable {
    let connection: OpaquePointer
    /// What the connection reaches, without its password: for errors and logs.
    let location: PostgreSQLLocation
    let dialect = SQLDialect.postgreSQL
    private var statements: [String: String] = [:]
    var savepointDepth = 0
    private(set) var changesCount = 0
    /// Round trips this connection waited for: a statement, a PREPARE, a pipeline (tests
    /// count what a write costs with it).
    var roundTrips = 0
    /// Set when the connection failed while COMMIT was on its way: the server may or may not
    /// have committed, so the transaction must not be run again.
    var lostDuringCommit = false
    /// A transaction's BEGIN not sent yet: it goes out with the transaction's first
    /// statement, in one round trip (`sendPipeline(ending:)`).
    var unsentBegin: String?
    /// Statements of the open write transaction not sent yet (`executeWithoutWaiting`).
    var unsent: [UnsentStatement] = []
    /// True inside `readTransaction`.
    var isReadOnlyTransaction = false
    /// Reads the open read transaction expects to make, sent with its first statement.
    var expectedReads: [ExpectedRead] = []
    /// Their answers, until asked for or the transaction ends (`ExpectedRead`).
    var expectedAnswers: [ExpectedRead: OpaquePointer] = [:]
    /// Reads to send after the RELEASE of the savepoint at `depth` (`expectAfterSavepoint`).
    var readsAfterRelease: (depth: Int, reads: [ExpectedRead])?
    /// A read transaction's COMMIT was sent and its answer is not read yet (`settle()`).
    var commitInFlight = false
    /// The open read transaction sends its COMMIT with its next pipeline
    /// (`readTransaction(closingEarly:)`, `expectInRead(_:thenClosing:)`).
    var closesWithNextPipeline = false
    /// The open read transaction may do so (not when it runs again after an early close).
    var mayCloseEarly = false
    /// That COMMIT went out and was answered: the transaction is over, only the answers
    /// read ahead remain to be asked for.
    var closedEarly = false
    /// A statement was asked for after `closedEarly`: the transaction runs again.
    var readAfterEarlyClose = false
    /// Read transactions run again because their body read more than their first pipeline
    /// (for the pool's `EarlyCloseRecord`, and tests).
    var earlyCloseRetries = 0
    /// Early COMMITs sent in a read transaction's pipeline (for the pool's `EarlyCloseRecord`).
    var earlyCommitsSent = 0
    /// The store sequence as this write transaction last set it (`ChangeLog.nextRevision`),
    /// while it holds the sequence's row: no other writer of any node can move it before
    /// this transaction ends, so a read of it here would answer exactly this. Nil outside
    /// a transaction, before its first write, and again when a savepoint that took the row
    /// or bumped it rolls back (`savepoint`). Read it through `sequenceHeld`.
    var heldSequence: Int?

    /// `heldSequence`, inside the write transaction that set it only (nil elsewhere).
    var sequenceHeld: Int? {
        guard let heldSequence, !isReadOnlyTransaction, isInTransaction else { return nil }
        return heldSequence
    }

    /// Statements this connection was asked to run (`run`, `execute`, `executeWithoutWaiting`),
    /// to tell whether anything ran between two of them.
    private(set) var statementsAsked = 0

    /// The store sequence as the open write transaction last read it, before taking it,
    /// and `statementsAsked` then: see `sequenceReadJustBefore`.
    private var sequenceRead: (value: Int, statement: Int)?

    /// The store sequence this write transaction read by its last statement, when nothing
    /// ran since (nil otherwise, and outside a write transaction). A second read right after
    /// the first may be answered by it: nothing observed the store in between, so both
    /// reads are as if made at the first one's moment (a request's credential and its time
    /// zone each take a change stamp before the request's first write; that second read was
    /// a round trip of every PostgreSQL write).
    var sequenceReadJustBefore: Int? {
        guard let sequenceRead, sequenceRead.statement == statementsAsked, !isReadOnlyTransaction, isInTransaction else { return nil }
        return sequenceRead.value
    }

    /// Notes the store sequence a statement of the open write transaction just read.
    func noteSequenceRead(_ sequence: Int) {
        sequenceRead = !isReadOnlyTransaction && isInTransaction ? (sequence, statementsAsked) : nil
    }

    /// Forgets the sequence read (a transaction begins or ends).
    func forgetSequenceRead() { sequenceRead = nil }

    /// Counts a statement asked for (see `statementsAsked`).
    func noteStatementAsked() { statementsAsked &+= 1 }

    /// Notes the store sequence a write just set by updating its row (`ChangeLog.nextRevision`);
    /// outside a write transaction the row is not held, and nothing is noted.
    func noteSequenceTaken(_ sequence: Int) {
        heldSequence = !isReadOnlyTransaction && isInTransaction ? sequence : nil
    }

    /// The most statements a connection keeps prepared (as for SQLite: the store's own SQL
    /// is a few dozen texts; the bound keeps pasted values from growing it without end).
    static let statementCacheLimit = 256

    /// Connects, or throws `StoreError.unavailable` (server down, refused) or
    /// `.cannotOpen` (bad URL, wrong password, no such database) in words.
    init(location: PostgreSQLLocation, lockTimeout: TimeInterval) throws {
        self.location = location
        connection = try location.connect()
        slate_pg_silence_notices(connection)
        // Byte order and UTF-8 everywhere; a writer waits for another's lock at most as long
        // as SQLite's busy timeout; a session left idle inside a transaction is ended. No JIT:
        // the store's statements read a few indexed rows, and compiling one whose estimate
        // crossed `jit_above_cost` took 5-100 ms where running it took 0.3 ms.
        let milliseconds = max(1, Int(lockTimeout * 1000))
        try execute("""
            SET client_encoding = 'UTF8'; SET lock_timeout = \(milliseconds); SET idle_in_transaction_session_timeout = 60000; \
            SET extra_float_digits = 1; SET jit = off
            """)
    }

    deinit { PQfinish(connection) }

    /// How many statements are prepared on the connection.
    var cachedStatementCount: Int { statements.count }

    /// False once the server has gone away; the pool then drops the connection.
    var isUsable: Bool { PQstatus(connection) == CONNECTION_OK }

    var isInTransaction: Bool {
        if unsentBegin != nil { return true }
        let status = PQtransactionStatus(connection)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    // MARK: Running statements

    func execute(_ sql: String) throws {
        noteStatementAsked()
        try refuseAfterEarlyClose(sql)
        try sendPendingWork()
        roundTrips += 1
        let result = try check(PQexec(connection, sql), sql: sql, arguments: [])
        noteChanges(result)
        PQclear(result)
    }

    func execute(_ sql: String, _ arguments: [DatabaseValue]) throws {
        let result = try run(sql, arguments)
        noteChanges(result)
        PQclear(result)
    }

    func rows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [Row] {
        let result = PostgreSQLRows(try run(sql, arguments))
        noteChanges(result.handle)
        return (0..<result.rowCount).map { result.row($0) }
    }

    func scalar(_ sql: String, _ arguments: [DatabaseValue]) throws -> DatabaseValue? {
        let result = PostgreSQLRows(try run(sql, arguments))
        noteChanges(result.handle)
        guard result.rowCount > 0, result.columnCount > 0 else { return nil }
        return result.value(0, 0)
    }

    func forEachRow(_ sql: String, _ arguments: [DatabaseValue], _ body: (ResultRow) throws -> Void) throws {
        let result = PostgreSQLRows(try run(sql, arguments))
        for row in 0..<result.rowCount { try body(.postgreSQL(result, row: row)) }
    }

    /// Prepares `sql` once per argument types, runs it, and returns the checked result:
    /// with what waits to be sent, in one pipeline, when something does.
    private func run(_ sql: String, _ arguments: [DatabaseValue]) throws -> OpaquePointer {
        noteStatementAsked()
        settle()
        if !expectedAnswers.isEmpty {
            if let answer = expectedAnswers.removeValue(forKey: ExpectedRead(sql: sql, arguments: arguments)) {
                return try check(answer, sql: sql, arguments: arguments)
            }
            // In a write, what was read ahead holds only until its next statement (which may change it).
            if !isReadOnlyTransaction { dropExpectedAnswers() }
        }
        try refuseAfterEarlyClose(sql)
        // A write's read asked for before its expected copy went out: not sent twice.
        if !expectedReads.isEmpty, !isReadOnlyTransaction {
            expectedReads.removeAll { $0.sql == sql && $0.arguments == arguments }
        }
        let types = arguments.map(Self.typeOID)
        let key = Self.statementKey(sql, types)
        let name = try preparedName(key: key, sql: sql, types: types, arguments: arguments)
        if hasUnsentWork || !expectedReads.isEmpty || (closesWithNextPipeline && isReadOnlyTransaction) {
            // Non-nil: the pipeline ends with this statement.
            let statement = UnsentStatement(prepared: name, sql: sql, arguments: arguments)
            return try sendPipeline(ending: statement, expecting: takeExpectedReads())!
        }
        do {
            return try execute(prepared: name, sql: sql, arguments: arguments)
        } catch let error as StoreError {
            // A plan prepared before a migration changed a table is refused once; prepare again.
            guard case .postgreSQL(let details) = error, details.sqlState == "0A000", isUsable, !isInTransaction else { throw error }
            statements[key] = nil
            let again = try preparedName(key: key, sql: sql, types: types, arguments: arguments)
            return try execute(prepared: again, sql: sql, arguments: arguments)
        }
    }

    /// The name `sql` is prepared under for these arguments' types (prepared now if new).
    func prepared(_ sql: String, _ arguments: [DatabaseValue]) throws -> String {
        let types = arguments.map(Self.typeOID)
        return try preparedName(key: Self.statementKey(sql, types), sql: sql, types: types, arguments: arguments)
    }

    private static func statementKey(_ sql: String, _ types: [UInt32]) -> String {
        types.isEmpty ? sql : sql + "\u{1}" + types.map(String.init).joined(separator: ",")
    }

    private func preparedName(key: String, sql: String, types: [UInt32], arguments: [DatabaseValue]) throws -> String {
        if let name = statements[key] { return name }
        if statements.count >= Self.statementCacheLimit {
            try execute("DEALLOCATE ALL")
            statements.removeAll(keepingCapacity: true)
        }
        settle()
        let name = "slate_\(statements.count + 1)"
        let text = PostgreSQLPlaceholders.numbered(sql)
        roundTrips += 1
        let result = types.withUnsafeBufferPointer { oids in
            PQprepare(connection, name, text, Int32(types.count), oids.baseAddress)
        }
        PQclear(try check(result, sql: sql, arguments: arguments))
        statements[key] = name
        return name
    }

    func execute(prepared name: String, sql: String, arguments: [DatabaseValue]) throws -> OpaquePointer {
        var parameters = PostgreSQLParameters(arguments)
        roundTrips += 1
        let result = parameters.withPointers { values, lengths, formats in
            PQexecPrepared(connection, name, Int32(arguments.count), values, lengths, formats, 0)
        }
        return try check(result, sql: sql, arguments: arguments)
    }

    /// The result when it succeeded; otherwise its error as a `StoreError`, after clearing it.
    func check(_ result: OpaquePointer?, sql: String, arguments: [DatabaseValue]) throws -> OpaquePointer {
        guard let result else {
            throw PostgreSQLError.failure(of: connection, result: nil, sql: sql, arguments: arguments, location: location)
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            defer { PQclear(result) }
            throw PostgreSQLError.failure(of: connection, result: result, sql: sql, arguments: arguments, location: location)
        }
        return result
    }

    /// Keeps the row count of the last INSERT, UPDATE or DELETE, as `sqlite3_changes` does.
    private func noteChanges(_ result: OpaquePointer) {
        let tag = String(cString: PQcmdStatus(result))
        guard tag.hasPrefix("INSERT") || tag.hasPrefix("UPDATE") || tag.hasPrefix("DELETE") else { return }
        changesCount = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// The type a bound value is sent as (0: let the server infer it, for NULL).
    private static func typeOID(_ value: DatabaseValue) -> UInt32 {
        switch value {
        case .null: 0
        case .integer: PostgreSQLType.int8
        case .real: PostgreSQLType.float8
        case .text: PostgreSQLType.text
        case .blob: PostgreSQLType.bytea
        }
    }
}

/// The type OIDs the store sends and reads (from PostgreSQL's `pg_type`).
enum PostgreSQLType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let oid: UInt32 = 26
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let numeric: UInt32 = 1700
}
