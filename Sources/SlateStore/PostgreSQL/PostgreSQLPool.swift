import Foundation
import Synchronization

/// One writer connection and a few reader connections to a PostgreSQL server, as
/// `DatabasePool` has for a file.
///
/// When the server goes away (a restart, a network cut), a call fails with
/// `StoreError.unavailable` and its connection is dropped; the next call connects again, so
/// the store recovers by itself when the server returns. A call whose connection turns out
/// to be dead before anything was committed (a connection idle across a restart) is run
/// once more on a fresh one; a write whose COMMIT was lost on the way is never run again
/// (it may have been committed): it is reported.
final class PostgreSQLPool: Sendable {
    let location: PostgreSQLLocation
    /// The schema the store's tables live in: the first of the connection's `search_path`.
    let schema: String
    private let writer: Mutex<PostgreSQLDatabase?>
    private let idleReaders: Mutex<[PostgreSQLDatabase]>
    private let maximumIdleReaders: Int
    /// Reads outside a snapshot use the writer connection: a pool of no readers, for a
    /// process that does one thing at a time (a `slate` command), which then connects once.
    private let readsUseWriter: Bool
    private let lockTimeout: TimeInterval
    private let isReadOnly: Bool

    /// Connects the writer now, so that a wrong URL or password fails at start.
    init(location: PostgreSQLLocation, readOnly: Bool, lockTimeout: TimeInterval, maximumReaders: Int) throws {
        self.location = location
        self.lockTimeout = lockTimeout
        self.isReadOnly = readOnly
        maximumIdleReaders = max(0, maximumReaders)
        readsUseWriter = maximumReaders <= 0
        let first = try PostgreSQLDatabase(location: location, lockTimeout: lockTimeout)
        guard case .text(let schema)? = try Self.schema(of: first, create: !readOnly) else {
            throw StoreError.cannotOpen(
                path: location.description,
                reason: "no schema of the connection's search_path exists; create it first (CREATE SCHEMA …) or name an existing one")
        }
        self.schema = schema
        if readOnly { try first.execute("SET default_transaction_read_only = on") }
        writer = Mutex(first)
        idleReaders = Mutex([])
    }

    /// The schema the connection's tables go into. When the first schema of its
    /// `search_path` does not exist yet (`options=-csearch_path=slate`), it is created.
    private static func schema(of database: PostgreSQLDatabase, create: Bool) throws -> DatabaseValue? {
        if let schema = try database.scalar("SELECT current_schema()"), !schema.isNull { return schema }
        guard create, case .text(let path)? = try database.scalar("SELECT current_setting('search_path')"),
              let first = path.split(separator: ",").first?.trimmingCharacters(in: .whitespaces), !first.isEmpty, first != "\"$user\""
        else { return nil }
        let name = first.hasPrefix("\"") ? String(first.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") : first
        try database.execute("CREATE SCHEMA IF NOT EXISTS \(quote(name))")
        return try database.scalar("SELECT current_schema()")
    }

    /// Runs `body` with the writer connection, one caller at a time. Inside a group
    /// (`group`) on this thread, `body` runs at once on the connection the group holds.
    func write<T>(_ body: (PostgreSQLDatabase) throws -> T) throws -> T {
        if let heldWriter { return try body(heldWriter) }
        return try writer.withLock { slot in
            var attempt = 0
            while true {
                let database = try slot ?? connect()
                slot = database
                do {
                    return try body(database)
                } catch {
                    guard !database.isUsable else { throw error }
                    slot = nil
                    if database.lostDuringCommit {
                        throw StoreError.unavailable(
                            database: location.description,
                            reason: "the connection was lost while committing, so the change may or may not have been saved; read it back before trying again")
                    }
                    attempt += 1
                    guard attempt < 2, case StoreError.unavailable = error else { throw error }
                }
            }
        }
    }

    /// The writer connection a `group` holds for the work inside it, on its thread.
    private struct HeldWriter: Sendable {
        let pool: ObjectIdentifier
        let database: PostgreSQLDatabase
    }

    @TaskLocal private static var held: HeldWriter?

    private var heldWriter: PostgreSQLDatabase? {
        guard let held = Self.held, held.pool == ObjectIdentifier(self) else { return nil }
        return held.database
    }

    /// True inside `group` on this thread.
    var isInsideGroup: Bool { heldWriter != nil }

    /// Runs `body` holding the writer connection, so that every write and read inside it
    /// uses that connection and sees what was written so far (group commit, as
    /// `DatabasePool.group`). Never run twice: the changes inside may not be repeatable, so
    /// a connection found dead is dropped and the error reported.
    func group<T>(_ body: (PostgreSQLDatabase) throws -> T) throws -> T {
        var outcome: Result<T, any Error>?
        writer.withLock { slot in
            do {
                let database = try slot ?? connect()
                slot = database
                let held = HeldWriter(pool: ObjectIdentifier(self), database: database)
                outcome = Result { try Self.$held.withValue(held) { try body(database) } }
                if !database.isUsable { slot = nil }
                if case .failure = outcome, database.lostDuringCommit {
                    outcome = .failure(StoreError.unavailable(
                        database: location.description,
                        reason: "the connection was lost while committing, so the changes may or may not have been saved; read them back before trying again"))
                }
            } catch {
                outcome = .failure(error)
            }
        }
        return try outcome!.get()
    }

    /// The reader connection a `snapshot` pinned for the work inside it.
    private struct PinnedReader: Sendable {
        let pool: ObjectIdentifier
        let database: PostgreSQLDatabase
        /// Values read once in this snapshot (none can change inside it): the store sequence,
        /// partitions' revisions.
        let values = SnapshotValues()
    }

    /// `read()`'s value, read once per snapshot for each `key` (as
    /// `DatabasePool.oncePerSnapshot`): a REPEATABLE READ transaction sees one state throughout.
    func oncePerSnapshot(_ key: String, _ read: () throws -> Int) rethrows -> Int {
        guard let pinned = Self.pinned, pinned.pool == ObjectIdentifier(self), heldWriter == nil else { return try read() }
        return try pinned.values.value(key, read)
    }

    @TaskLocal private static var pinned: PinnedReader?

    private var pinnedReader: PostgreSQLDatabase? {
        guard let pinned = Self.pinned, pinned.pool == ObjectIdentifier(self) else { return nil }
        return pinned.database
    }

    /// Runs `body` so that every read inside it uses one reader inside one REPEATABLE READ
    /// transaction: they all see the same committed state. `usuallyNothingElse`: see
    /// `ModelContainer.snapshot(expecting:usuallyNothingElse:_:)`; taken only while it has
    /// held often enough (`EarlyCloseRecord`).
    func snapshot<T>(expecting reads: [ExpectedRead] = [], usuallyNothingElse: Bool = false, _ body: () throws -> T) throws -> T {
        if pinnedReader != nil { return try body() }
        let closing = usuallyNothingElse && earlyCloses.shouldTry()
        return try withReader { reader in
            // Every early COMMIT of the snapshot counts, whether said at its start or later
            // (`expectInSnapshot`): right when the body read nothing more, wrong when it ran again.
            let (sentBefore, retriesBefore) = (reader.earlyCommitsSent, reader.earlyCloseRetries)
            defer {
                let ranAgain = reader.earlyCloseRetries != retriesBefore
                if ranAgain || reader.earlyCommitsSent != sentBefore { earlyCloses.note(ranAgain: ranAgain) }
            }
            return try reader.readTransaction(expecting: reads, closingEarly: closing) {
                try Self.$pinned.withValue(PinnedReader(pool: ObjectIdentifier(self), database: reader)) { try body() }
            }
        }
    }

    /// How often a snapshot that said it usually reads nothing more was right, here.
    let earlyCloses = EarlyCloseRecord()

    /// Reads the open snapshot makes after its next statement (`ModelContainer.expectInSnapshot`);
    /// nothing outside a snapshot. Its early COMMIT is taken on the same record as one said
    /// at a snapshot's start.
    func expectInSnapshot(_ reads: [ExpectedRead], thenUsuallyNothingElse: Bool) {
        guard heldWriter == nil, let pinnedReader else { return }
        pinnedReader.expectInRead(reads, thenClosing: thenUsuallyNothingElse && earlyCloses.shouldTry())
    }

    /// Reads the write transaction held on this thread (`group`) makes after its next
    /// statement that waits for an answer (`ModelContainer.expectInWrite`); nothing outside one.
    func expectInWrite(_ reads: [ExpectedRead]) {
        heldWriter?.expectInWrite(reads)
    }

    /// Runs `body` with a reader inside one read transaction.
    func read<T>(_ body: (PostgreSQLDatabase) throws -> T) throws -> T {
        if let heldWriter { return try body(heldWriter) }
        if let pinnedReader { return try body(pinnedReader) }
        if readsUseWriter { return try write { writer in try writer.readTransaction { try body(writer) } } }
        return try withReader { reader in try reader.readTransaction { try body(reader) } }
    }

    /// Runs one statement's worth of reading, without a transaction of its own.
    func readStatement<T>(_ body: (PostgreSQLDatabase) throws -> T) throws -> T {
        if let heldWriter { return try body(heldWriter) }
        if let pinnedReader { return try body(pinnedReader) }
        if readsUseWriter { return try write(body) }
        return try withReader(body)
    }

    private func withReader<T>(_ body: (PostgreSQLDatabase) throws -> T) throws -> T {
        var attempt = 0
        while true {
            let reader = try idleReaders.withLock { $0.popLast() } ?? connectReader()
            do {
                let result = try body(reader)
                idleReaders.withLock { readers in
                    if readers.count < maximumIdleReaders, reader.isUsable { readers.append(reader) }
                }
                return result
            } catch {
                if reader.isUsable {
                    idleReaders.withLock { readers in
                        if readers.count < maximumIdleReaders, !reader.isInTransaction { readers.append(reader) }
                    }
                    throw error
                }
                // Every idle connection may be as dead as this one (the server restarted).
                idleReaders.withLock { $0.removeAll() }
                attempt += 1
                guard attempt < 2, case StoreError.unavailable = error else { throw error }
            }
        }
    }

    /// How many reader connections this pool has opened (for tests).
    var readersOpened: Int { openedReaders.load(ordering: .relaxed) }
    private let openedReaders = Atomic<Int>(0)

    private func connectReader() throws -> PostgreSQLDatabase {
        openedReaders.add(1, ordering: .relaxed)
        return try connect()
    }

    private func connect() throws -> PostgreSQLDatabase {
        let database = try PostgreSQLDatabase(location: location, lockTimeout: lockTimeout)
        if isReadOnly { try database.execute("SET default_transaction_read_only = on") }
        return database
    }
}

/// Whether closing a snapshot early pays in this process's traffic. Each early close saves a
/// message and a wake-up on both sides (about 26 µs of a node's CPU per GET); each one that
/// was wrong costs its body a second run and two more round trips (about three times that).
/// Under writes a GET's subtask count is rarely kept, so most such reads were wrong: a mix
/// of 8 GETs, 1 page and 1 PATCH lost a tenth of its throughput. The score rises by one for
/// each right guess and falls by three for each wrong one (break-even near one in four);
/// below zero, snapshots stop closing early except one in 16, which keeps measuring.
final class EarlyCloseRecord: Sendable {
    private let score = Atomic<Int>(0)
    private let skipped = Atomic<Int>(0)
    static let bound = 64

    func shouldTry() -> Bool {
        guard score.load(ordering: .relaxed) < 0 else { return true }
        return skipped.wrappingAdd(1, ordering: .relaxed).oldValue % 16 == 0
    }

    func note(ranAgain: Bool) {
        let step = ranAgain ? -3 : 1
        var current = score.load(ordering: .relaxed)
        while true {
            let next = min(Self.bound, max(-Self.bound, current + step))
            let (exchanged, original) = score.compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// The current score (for tests).
    var current: Int { score.load(ordering: .relaxed) }
}
