import Foundation
import Synchronization

/// The store: a database file (or memory) with the schema of a set of models.
///
/// ```swift
/// let container = try ModelContainer(for: [Folder.self, Note.self],
///                                    configuration: ModelConfiguration(path: "/tmp/notes.sqlite"))
/// let context = ModelContext(container)
/// context.insert(Note(title: "Hello"))
/// try context.save()
/// ```
///
/// A container is `Sendable`: share one per file across tasks and threads, and give
/// each of them its own `ModelContext`.
public final class ModelContainer: Sendable {
    /// How the container was opened.
    public let configuration: ModelConfiguration
    let pool: ConnectionPool
    let tables: TableCatalog
    let notifier = CommitNotifier()
    /// Hears other processes' commits on PostgreSQL (connects on the first wait).
    let listener: PostgreSQLListener?
    /// How many times this container read the commit log for other processes' commits
    /// (`publishExternalChanges`), for tests of what announcements spare.
    let externalLogReads = Atomic<Int>(0)
    /// Models whose key paths have been checked against their coding keys.
    let checkedModels = Mutex<Set<ObjectIdentifier>>([])
    /// Each model's table name, as asked for (`changeStamp(of:)`): read from a model's
    /// schema it cost a generic metadata lookup and a copy of the schema, about a thousand
    /// instructions, several times in every request.
    private let tableNames = Mutex<[ObjectIdentifier: String]>([:])
    /// The copy of the file written just before this container migrated it (beside the
    /// store, see `backup(to:)`), or nil when opening it migrated nothing that existed.
    public let migrationBackup: String?

    /// Opens or creates the store and brings its schema up to date.
    ///
    /// Throws `StoreError.newerSchema` (leaving the file untouched) when the file was
    /// written by a newer schema version, and `StoreError.migrationFailed` (leaving it
    /// as it was) when a migration step fails.
    public init(for models: [any PersistentModel.Type], configuration: ModelConfiguration = .inMemory) throws {
        self.configuration = configuration
        let tables = TableCatalog(models)
        // Without a declared fingerprint every table is built to compute it: check them now.
        // With one, a file at that schema was made by these declarations (a migration checks
        // them, and refuses a declaration the models do not give), and no table is built
        // until it is used.
        if configuration.schemaFingerprint == nil || configuration.postgreSQL != nil { _ = try tables.validated() }
        self.tables = tables
        var migrator = Migrator(catalog: tables, version: configuration.schemaVersion, stages: configuration.migrations)
        migrator.declaredFingerprint = configuration.schemaFingerprint
        if let location = configuration.postgreSQL {
            let server = try PostgreSQLPool(
                location: location, readOnly: configuration.isReadOnly, lockTimeout: configuration.busyTimeout,
                maximumReaders: configuration.maximumReaders)
            pool = .postgreSQL(server)
            listener = PostgreSQLListener(location: location)
            notifier.keepOwnChanges()
            migrationBackup = nil
            try server.write { database in try migrator.open(database, readOnly: configuration.isReadOnly) }
            notifier.markChecked(upTo: try pool.read { try ChangeLog.currentRevision($0) })
            return
        }
        if let path = configuration.path { try StoreError.checkNotEmpty(path) }
        // A full disk or an I/O error while opening is said in words, naming the file.
        do {
            // Looked at before opening: reading a WAL-mode file creates the log.
            let hadWriteAheadLog = configuration.path.map { FileManager.default.fileExists(atPath: $0 + "-wal") } ?? false
            let file = try DatabasePool(
                path: configuration.path ?? ":memory:", readOnly: configuration.isReadOnly,
                busyTimeout: configuration.busyTimeout, maximumReaders: configuration.maximumReaders)
            pool = .sqlite(file)
            listener = nil
            var stored = 0
            let isCurrent = try file.write { database -> Bool in
                do {
                    stored = try migrator.checkCompatible(database)
                } catch {
                    // Refused: a log left by the newer app stays where it is, unmerged.
                    if hadWriteAheadLog { database.leaveWriteAheadLogOnClose() }
                    throw error
                }
                if configuration.isReadOnly {
                    guard stored == configuration.schemaVersion else {
                        throw StoreError.migrationFailed(
                            version: configuration.schemaVersion,
                            reason: "the file has schema \(stored) and was opened read-only, so it cannot be migrated")
                    }
                    return true
                }
                return try migrator.isCurrent(database)
            }
            if !configuration.isReadOnly {
                try file.enableWriteAheadLog(foldingAfter: configuration.writeAheadLogPages,
                                             keepingFile: configuration.keepsWriteAheadLogFile)
                // Every `slate` command opens the file: one already at this schema is left as it is.
                // A file with data is copied first, so a migration can always be undone by hand.
                let backupPath = !isCurrent && stored > 0 ? configuration.path.map {
                    Self.migrationBackupPath(for: $0, fromVersion: stored)
                } : nil
                if !isCurrent {
                    try file.write { database in
                        if let backupPath { try DatabaseCopy.write(from: database, to: backupPath) }
                        try migrator.migrate(database)
                    }
                }
                migrationBackup = backupPath
            } else {
                migrationBackup = nil
            }
            notifier.markChecked(upTo: try pool.read { try ChangeLog.currentRevision($0) })
        } catch {
            throw StoreError.whileOpening(error, path: configuration.path ?? ":memory:")
        }
    }

    /// The schema fingerprint that `models` at `schemaVersion` give a SQLite file, to declare
    /// in `ModelConfiguration.schemaFingerprint` (and keep true with a test).
    public static func schemaFingerprint(of models: [any PersistentModel.Type], schemaVersion: Int) throws -> Int64 {
        let catalog = TableCatalog(models)
        _ = try catalog.validated()
        return Migrator(catalog: catalog, version: schemaVersion, stages: []).fingerprint(.sqlite)
    }

    /// Which backend the store is on.
    public var dialect: SQLDialect { pool.dialect }

    /// True when a snapshot is read on a connection of its own that never waits for the
    /// writer: a SQLite file in WAL mode. False in memory (reads share the
    /// writer's connection, so they wait for a write in progress) and on PostgreSQL (every
    /// statement is a round trip). What lets a server read on the request's own thread.
    public var readsWithoutWaiting: Bool { pool.sqlite?.readsWithoutWaiting ?? false }

    /// Copies a file's write-ahead log into the file and empties it, so that the next
    /// process to open the file has no log to read: for a server that kept a long log
    /// (`ModelConfiguration.writeAheadLogPages`), when it stops. Never waits for another
    /// process's reader; nothing to do in memory, read-only or on PostgreSQL.
    public func foldWriteAheadLog() {
        if case .sqlite(let file) = pool { file.foldWriteAheadLog() }
    }

    /// Runs `body` with every read inside it served from one snapshot of the database
    /// (one read transaction): a page, its total and the revision then agree.
    public func snapshot<T>(_ body: () throws -> T) throws -> T { try pool.snapshot(body) }

    /// The store sequence of the last committed write (0 for a new store): store-wide,
    /// so it tells of every partition's activity; show a partition's readers
    /// `currentRevision(partition:)` instead.
    public func currentRevision() throws -> Int {
        try pool.readStatement { try ChangeLog.currentRevision($0) }
    }

    /// The revision of `partition` (a value of the models' partition column, such as an
    /// account id): that of its last change. Other partitions' commits never move it. Read
    /// once per snapshot: a request that asks for it several times (a ctag, a sync token,
    /// a kept listing's key) reads it once.
    public func currentRevision(partition: some DatabaseValueConvertible) throws -> Int {
        let scope = UndoLog.scope(partition)
        return try pool.oncePerSnapshot("partition " + (scope ?? "")) {
            try pool.readStatement { try ChangeLog.currentRevision(partition: scope, in: $0) }
        }
    }

    /// Notifications of every commit made through this container, from now on.
    ///
    /// Each subscriber gets its own stream; it ends when the subscriber stops iterating.
    public func commits() -> AsyncStream<Commit> { notifier.subscribe() }

    /// Reports commits that other processes made to the same file since the last
    /// commit this container saw, as one `Commit` to `commits()` subscribers.
    /// Returns it, or nil when nothing changed.
    @discardableResult
    public func publishExternalChanges() throws -> Commit? {
        externalLogReads.add(1, ordering: .relaxed)
        let found: (commit: Commit, reached: Int)? = try pool.read { database in
            let revision = try ChangeLog.currentRevision(database)
            // Our own revisions are taken after the read began: every commit this read can
            // see reserved its revision before it committed, so none of ours is missed.
            let (since, own) = notifier.externalWindow()
            guard revision > since else { return nil }
            // Only this container's own commits since the last look: nothing to read.
            if revision - since <= own.count, (since + 1...revision).allSatisfy(own.contains) {
                notifier.markChecked(upTo: revision)
                return nil
            }
            let summary = try ChangeLog.commitSummary(
                since: since, excluding: own, revision: revision, tables: Array(tables.all.values), in: database)
            return (summary, revision)
        }
        guard let (commit, reached) = found else { return nil }
        notifier.publish(commit, checkedUpTo: reached)
        return commit.tables.isEmpty ? nil : commit
    }

    /// Publishes other processes' commits as `publishExternalChanges` does, from what their
    /// announcements said when they said all of it (every sequence since the last look that
    /// is not this container's own heard with its changes, nothing missed): then nothing is
    /// read. Otherwise, and on SQLite, it reads the commit log. Call it after
    /// `waitForExternalCommits` said to look; it reports what was heard up to the newest
    /// announcement, and a commit not heard yet is reported when it is.
    public func publishAnnouncedChanges() throws -> Commit? {
        guard let listener else { return try publishExternalChanges() }
        let (heard, complete) = listener.takeHeard()
        guard complete, let newest = heard.keys.max() else { return try publishExternalChanges() }
        let (since, own) = notifier.externalWindow()
        guard newest > since else { return nil }
        guard let ownTouched = notifier.ownChanges(since: since),
              let commit = CommitAnnouncement.summary(
                  of: heard, since: since, through: newest, excluding: own, ownTouched: ownTouched, known: Set(tables.all.keys))
        else { return try publishExternalChanges() }
        if commit.tables.isEmpty, (since + 1...newest).allSatisfy(own.contains) {
            notifier.markChecked(upTo: newest)
            return nil
        }
        notifier.publish(commit, checkedUpTo: newest)
        return commit.tables.isEmpty ? nil : commit
    }

    /// True when other processes' commits are announced to this one (PostgreSQL's
    /// LISTEN/NOTIFY) rather than found by looking (SQLite: watch `publishExternalChanges`).
    public var announcesCommits: Bool { listener != nil }

    /// Blocks until another process may have committed, at most `timeout`: on PostgreSQL
    /// until a commit is announced, or the listening connection is made again after it was
    /// lost (anything may have happened meanwhile); on SQLite, which announces nothing, for
    /// `timeout`. True when `publishExternalChanges()` should look now. Call it from a
    /// thread of its own (it blocks), in a loop with `publishExternalChanges()`.
    public func waitForExternalCommits(timeout: TimeInterval) -> Bool {
        guard let listener else {
            Thread.sleep(forTimeInterval: timeout)
            return true
        }
        return listener.wait(timeout: timeout)
    }

    /// A number that changes whenever a commit touches one of `models`' tables, for
    /// caching what is read from them (a token's account, list names) across requests.
    ///
    /// Exact for this container's own commits. Nil while the store holds a commit not yet
    /// reported to `commits()` (another process's, until `publishExternalChanges` sees it):
    /// then nothing read from the store may be assumed unchanged. Costs one read of the
    /// revision counter.
    ///
    /// Take the stamp before reading what it guards: a commit that lands in between then
    /// changes the next stamp, and the cached value is not used again.
    ///
    /// Inside a group transaction (`writeTogether`) that already changed one of the tables,
    /// nil too: those changes are not committed yet, so no stamp can name them.
    public func changeStamp(of models: [any PersistentModel.Type]) throws -> Int? {
        let tables = tableNames.withLock { names in
            models.map { model in
                if let name = names[ObjectIdentifier(model)] { return name }
                let name = Self.tableName(of: model)
                names[ObjectIdentifier(model)] = name
                return name
            }
        }
        if let group = CommitNotifier.group, group.notifier == ObjectIdentifier(notifier), group.touches(tables) { return nil }
        // One read per snapshot: a request's credential, zone, list names and totals share it.
        let revision = try pool.oncePerSnapshot("") { try pool.readStatement { try ChangeLog.currentRevision($0) } }
        return notifier.lastChange(to: tables, storeRevision: revision)
    }

    private static func tableName<Model: PersistentModel>(of model: Model.Type) -> String { Model.schema.tableName }

    func table<Model: PersistentModel>(for model: Model.Type) throws -> TableSchema {
        guard let table = tables[Model.schema.tableName] else {
            throw StoreError.invalidSchema("\(Model.self) is not one of the container's models")
        }
        return table
    }
}
