import Foundation

/// Where and how a container keeps its data.
public struct ModelConfiguration: Sendable {
    /// A file path, or nil for a private in-memory database (or a PostgreSQL one).
    public var path: String?
    /// A PostgreSQL server instead of a file: several processes on several machines can
    /// then share the store (`path` is not used).
    public var postgreSQL: PostgreSQLLocation?
    /// The schema version the code declares; a file written by a newer version is refused.
    public var schemaVersion: Int
    /// Custom migration stages, run in version order when an older file is opened.
    public var migrations: [MigrationStage]
    /// Open without writing; migrations are not run and the versions must match.
    public var isReadOnly: Bool
    /// How long a write waits for another process's lock before failing.
    public var busyTimeout: TimeInterval
    /// Reader connections kept open for concurrent reads (on PostgreSQL, besides the
    /// writer and the listener for other processes' commits).
    public var maximumReaders: Int
    /// How many change sets `undo()` can go back (persisted in the file).
    public var undoLimit: Int
    /// How many of a partition's revisions back its departures (`ModelContext.departures`)
    /// are kept: older ones are deleted as the partition's revisions go by (every
    /// `departureHistory / 10` revisions, at most every 1,000). A reader never asks for
    /// departures further back than its own window, such as a sync token's.
    public var departureHistory = 20_000
    /// The schema fingerprint the models give a SQLite file (`ModelContainer.schemaFingerprint(of:schemaVersion:)`),
    /// declared so that opening a file already at that schema builds no model's table until
    /// it is used; nil to compute it at every opening. A migration refuses a declaration
    /// that the models do not give, so keep it true with a test. PostgreSQL computes its own.
    public var schemaFingerprint: Int64?
    /// How many pages the write-ahead log of a file may hold before the commit that passes
    /// it folds the log back into the file (a checkpoint: each page written again, and
    /// fsyncs). The next process to open the file reads the whole log, so a short-lived
    /// process keeps it short; a server, whose hot pages would be folded back again every
    /// few writes, can keep it longer and fold it back when it stops
    /// (`ModelContainer.foldWriteAheadLog()`).
    public var writeAheadLogPages = Int(WriteAheadLog.checkpointFrames)
    /// True for a process that writes for long (a server): folding the log back past
    /// `writeAheadLogPages` keeps its file's length, and the commits after it write over
    /// the file from its start, instead of growing an emptied file again (fewer blocks for
    /// the kernel to find, and fdatasyncs with no new length to write). The file then
    /// stays that long on disk until `ModelContainer.foldWriteAheadLog()` empties it.
    public var keepsWriteAheadLogFile = false

    /// A configuration for the file at `path`, or in memory when `path` is nil.
    public init(
        path: String? = nil, schemaVersion: Int = 1, migrations: [MigrationStage] = [], isReadOnly: Bool = false,
        busyTimeout: TimeInterval = 5, maximumReaders: Int = 4, undoLimit: Int = 100
    ) {
        self.path = path
        self.schemaVersion = schemaVersion
        self.migrations = migrations
        self.isReadOnly = isReadOnly
        self.busyTimeout = busyTimeout
        self.maximumReaders = maximumReaders
        self.undoLimit = undoLimit
    }

    /// A store in the PostgreSQL database at `location` (see `PostgreSQLLocation`); a busy
    /// timeout there is how long a writer waits for another's lock.
    public init(
        postgreSQL location: PostgreSQLLocation, schemaVersion: Int = 1, migrations: [MigrationStage] = [], isReadOnly: Bool = false,
        busyTimeout: TimeInterval = 5, maximumReaders: Int = 4, undoLimit: Int = 100
    ) {
        self.init(path: nil, schemaVersion: schemaVersion, migrations: migrations, isReadOnly: isReadOnly,
                  busyTimeout: busyTimeout, maximumReaders: maximumReaders, undoLimit: undoLimit)
        postgreSQL = location
    }

    /// A private database that lives as long as its container.
    public static var inMemory: ModelConfiguration { ModelConfiguration() }

    /// Where the store is, in words (a path, or a server without its password).
    public var databaseDescription: String { postgreSQL?.description ?? path ?? ":memory:" }
}
