import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// One writer connection and a small pool of reader connections on the same file.
///
/// In WAL mode readers see the last committed state and never wait for the writer.
/// An in-memory database cannot be shared between connections, so there the one
/// writer also serves reads (one at a time). A pool of no readers does the same on a
/// file, except inside a `snapshot`: for a process that does one thing at a time (a
/// command), which then opens the file and reads its schema once instead of twice.
public final class DatabasePool: Sendable {
    /// The file path, or ":memory:".
    public let path: String
    private let writer: Mutex<SQLiteDatabase>
    private let idleReaders: Mutex<[SQLiteDatabase]>
    private let maximumIdleReaders: Int
    private let busyTimeout: TimeInterval
    private let isInMemory: Bool
    private let isReadOnly: Bool
    /// A file with no readers: reads outside a snapshot use the writer connection (in
    /// memory they always do).
    private let readsUseWriter: Bool

    /// Opens the pool. `path` is a file path or ":memory:".
    init(path: String, readOnly: Bool, busyTimeout: TimeInterval, maximumReaders: Int) throws {
        self.path = path
        self.busyTimeout = busyTimeout
        self.isInMemory = path == ":memory:" || path.isEmpty
        self.isReadOnly = readOnly
        self.maximumIdleReaders = maximumReaders
        self.readsUseWriter = maximumReaders == 0
        if !isInMemory, !readOnly, let folder = Self.missingFolder(of: path) {
            throw StoreError.cannotOpen(path: path, reason: "the folder \(folder) does not exist")
        }
        let connection: SQLiteDatabase
        if isInMemory {
            connection = try SQLiteDatabase(path: ":memory:", mode: .create, busyTimeout: busyTimeout)
        } else if readOnly {
            // Writable files are opened read-write with query_only, so that closing removes
            // the -wal and -shm files a read-only connection would leave behind.
            if let writable = try? SQLiteDatabase(path: path, mode: .existing, busyTimeout: busyTimeout) {
                try writable.execute("PRAGMA query_only = ON")
                connection = writable
            } else {
                connection = try SQLiteDatabase(path: path, mode: .readOnly, busyTimeout: busyTimeout)
            }
        } else {
            connection = try SQLiteDatabase(path: path, mode: .create, busyTimeout: busyTimeout)
        }
        self.writer = Mutex(connection)
        self.idleReaders = Mutex([])
    }

    /// The folder `path` is in, if nothing of that name exists. Worked out from the text and asked of stat(2): `URL(fileURLWithPath:)`
    /// cost 360k instructions of every command (its first `Set` of bytes).
    private static func missingFolder(of path: String) -> String? {
        let folder: String
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            folder = "."
        }
        var status = stat()
        return stat(folder, &status) == 0 ? nil : folder
    }

    deinit {
        // Readers close first, then the writer. Neither folds the WAL back into the file
        // (see `enableWriteAheadLog`): the file and its `-wal` together hold the store.
        idleReaders.withLock { $0.removeAll() }
    }

    /// Leaves the file and its WAL as they are when the pool closes (see
    /// `Database.leaveWriteAheadLogOnClose`).
    func leaveFilesUntouchedOnClose() {
        writer.withLock { $0.leaveWriteAheadLogOnClose() }
        idleReaders.withLock { readers in readers.forEach { $0.leaveWriteAheadLogOnClose() } }
    }

    /// Sets WAL mode and the durability settings; called once the schema version has
    /// been checked, so that a file refused as too new is never touched.
    /// The log is folded back after the commit that makes it longer than `logPages`.
    func enableWriteAheadLog(foldingAfter logPages: Int, keepingFile: Bool = false) throws {
        guard !isInMemory, !isReadOnly else { return }
        try writer.withLock { database in
            let mode = try database.scalar("PRAGMA journal_mode = WAL")
            if case .text(let text) = mode, text.lowercased() != "wal" {
                throw StoreError.cannotOpen(path: path, reason: "WAL mode is not available (journal mode \(text))")
            }
            // In WAL mode NORMAL is durable against application crashes (kill -9);
            // FULL also survives power loss, at the cost of an fsync per commit.
            try database.execute("PRAGMA synchronous = FULL")
            // Savepoint and statement journals stay in memory. Kept in a temporary file once
            // past 64 KiB (SQLite's default), the journal of a savepoint inside a group commit
            // failed with "database or disk is full" on Debian 12's SQLite 3.40.1 with the
            // disk far from full: SQLite copied the journal into a new file and gave up after
            // the copy's empty last write (strace showed no failed call). Undoing an import of
            // 30,000 tasks through the server failed that way, every time. A journal holds the
            // pages a write changes, so it is as large as the write: a bulk write's is
            // megabytes, for as long as it runs.
            try database.execute("PRAGMA temp_store = MEMORY")
            // The WAL outlives the connection and is folded back after the commit that makes
            // it long (see `WriteAheadLog`): a commit costs one fsync.
            database.leaveWriteAheadLogOnClose()
            database.foldsLongWriteAheadLog(after: Int32(clamping: max(1, logPages)), keepingFile: keepingFile)
        }
    }

    /// Folds the WAL back into the file now (see `SQLiteDatabase.foldWriteAheadLog`).
    func foldWriteAheadLog() {
        guard !isInMemory, !isReadOnly else { return }
        writer.withLock { $0.foldWriteAheadLog() }
    }

    /// Runs `body` with the writer connection, one caller at a time. Inside a group
    /// (`group`) on this thread, `body` runs at once on the connection the group holds.
    public func write<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        if let heldWriter { return try body(heldWriter) }
        return try writer.withLock { database in
            defer { database.checkpointIfLogIsLong() }
            return try body(database)
        }
    }

    /// The writer connection a `group` holds for the work inside it, on its thread.
    private struct HeldWriter: Sendable {
        let pool: ObjectIdentifier
        let database: SQLiteDatabase
    }

    @TaskLocal private static var held: HeldWriter?

    /// The writer connection held by an enclosing `group` of this pool, if any.
    private var heldWriter: SQLiteDatabase? {
        guard let held = Self.held, held.pool == ObjectIdentifier(self) else { return nil }
        return held.database
    }

    /// True inside `group` on this thread.
    var isInsideGroup: Bool { heldWriter != nil }

    /// Runs `body` holding the writer connection, so that every write inside it (`write`)
    /// joins the transaction `body` opens, and every read inside it (`read`,
    /// `readStatement`, `snapshot`) uses the same connection and so sees what was written
    /// so far: the basis of group commit (`ModelContainer.writeTogether`).
    func group<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        // Kept outside the lock's closure: a value made under a task-local cannot be its `sending` result.
        var outcome: Result<T, any Error>?
        writer.withLock { database in
            defer { database.checkpointIfLogIsLong() }
            let held = HeldWriter(pool: ObjectIdentifier(self), database: database)
            outcome = Result { try Self.$held.withValue(held) { try body(database) } }
        }
        return try outcome!.get()
    }

    /// The reader connection a `snapshot` pinned for the work inside it, on its thread.
    private struct PinnedReader: Sendable {
        let pool: ObjectIdentifier
        let database: SQLiteDatabase
        /// Values read once in this snapshot (none can change inside it): the store sequence,
        /// partitions' revisions.
        let values = SnapshotValues()
    }

    @TaskLocal private static var pinned: PinnedReader?

    /// The connection pinned by an enclosing `snapshot` of this pool, if any.
    private var pinnedReader: SQLiteDatabase? {
        guard let pinned = Self.pinned, pinned.pool == ObjectIdentifier(self) else { return nil }
        return pinned.database
    }

    /// Runs `body` so that every read inside it (on this thread or task) uses one reader
    /// connection inside one read transaction: they all see the same committed state, as
    /// if the database stood still. Nested snapshots join the outer one. An in-memory
    /// database has only the writer connection, so there reads stay separate.
    public func snapshot<T>(_ body: () throws -> T) throws -> T {
        if isInMemory || pinnedReader != nil || heldWriter != nil { return try body() }
        let reader = try idleReaders.withLock { $0.popLast() } ?? makeReader()
        defer {
            idleReaders.withLock { readers in
                if readers.count < maximumIdleReaders { readers.append(reader) }
            }
        }
        try reader.execute("BEGIN DEFERRED", [])
        defer { try? reader.execute("COMMIT", []) }
        return try Self.$pinned.withValue(PinnedReader(pool: ObjectIdentifier(self), database: reader)) { try body() }
    }

    /// `read()`'s value, read once per snapshot for each `key`: inside one, later calls
    /// get the first answer (for the store sequence or a partition's revision, which no
    /// commit can move within a snapshot).
    func oncePerSnapshot(_ key: String, _ read: () throws -> Int) rethrows -> Int {
        guard let pinned = Self.pinned, pinned.pool == ObjectIdentifier(self), heldWriter == nil else { return try read() }
        return try pinned.values.value(key, read)
    }

    /// Runs `body` with a reader connection that sees the last committed state.
    public func read<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        if let heldWriter { return try body(heldWriter) }
        if let pinnedReader { return try body(pinnedReader) }
        if isInMemory { return try write(body) }
        if readsUseWriter { return try onWriter { try Self.readTransaction(on: $0, body) } }
        let reader = try idleReaders.withLock { $0.popLast() } ?? makeReader()
        defer {
            idleReaders.withLock { readers in
                if readers.count < maximumIdleReaders { readers.append(reader) }
            }
        }
        return try Self.readTransaction(on: reader, body)
    }

    /// Runs `body` with the writer connection for a read: one caller at a time, and no
    /// checkpoint after it (a read adds nothing to the log).
    private func onWriter<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        // Kept outside the lock's closure: a value made under it cannot be its `sending` result.
        var outcome: Result<T, any Error>?
        writer.withLock { database in outcome = Result { try body(database) } }
        return try outcome!.get()
    }

    /// `body` inside a deferred (read) transaction on `database`.
    private static func readTransaction<T>(on database: SQLiteDatabase, _ body: (SQLiteDatabase) throws -> T) throws -> T {
        // A read is one snapshot: wrap it in a deferred transaction (prepared once, not
        // parsed by sqlite3_exec on every read).
        try database.execute("BEGIN DEFERRED", [])
        defer { try? database.execute("COMMIT", []) }
        return try body(database)
    }

    /// Runs one statement's worth of reading with a reader connection, without a
    /// transaction of its own: a single statement is already one snapshot, and BEGIN and
    /// COMMIT around it cost as much as a small query.
    func readStatement<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        if let heldWriter { return try body(heldWriter) }
        if let pinnedReader { return try body(pinnedReader) }
        if isInMemory { return try write(body) }
        if readsUseWriter { return try onWriter(body) }
        let reader = try idleReaders.withLock { $0.popLast() } ?? makeReader()
        defer {
            idleReaders.withLock { readers in
                if readers.count < maximumIdleReaders { readers.append(reader) }
            }
        }
        return try body(reader)
    }

    /// True when a snapshot gets a reader connection of its own (on a file, in WAL mode):
    /// it then never waits for the writer. In memory there is only the writer's.
    var readsWithoutWaiting: Bool { !isInMemory }

    /// How many reader connections this pool has opened (for tests).
    var readersOpened: Int { openedReaders.load(ordering: .relaxed) }
    private let openedReaders = Atomic<Int>(0)

    private func makeReader() throws -> SQLiteDatabase {
        openedReaders.add(1, ordering: .relaxed)
        let reader: SQLiteDatabase
        if let writable = try? SQLiteDatabase(path: path, mode: .existing, busyTimeout: busyTimeout) {
            reader = writable
        } else {
            reader = try SQLiteDatabase(path: path, mode: .readOnly, busyTimeout: busyTimeout)
        }
        try reader.execute("PRAGMA query_only = ON")
        // The last connection to close may be a reader: it leaves the WAL too.
        if !isReadOnly { reader.leaveWriteAheadLogOnClose() }
        return reader
    }
}
