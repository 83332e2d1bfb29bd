import Foundation
import SlateStore
import Synchronization

/// The task domain for one account: lists, tasks, queries, statistics, undo.
///
/// Every surface (CLI, server, CalDAV) works through a `Slate`; none writes SQL.
/// It is `Sendable`: each call opens its own store context.
///
/// ```swift
/// let slate = try Slate.open(path: "~/.local/share/slate/slate.sqlite")
/// let task = try slate.quickAdd("Write Act 2 outline tomorrow !critical #Story")
/// try slate.complete([task.id])
/// ```
public final class Slate: Sendable {
    /// The store shared by every account in the database.
    public let container: ModelContainer
    /// Whose data this instance reads and writes.
    public let accountID: UUID
    /// The calendar (and time zone) for days, "today" and human dates.
    public var calendar: Calendar {
        if let made = madeCalendar.withLock({ $0 }) { return made }
        let made = makeCalendar()
        madeCalendar.withLock { $0 = made }
        return made
    }
    /// The calendar of the account's own zone (`calendar` when it has none), read once:
    /// where its alerts at a time of day fire (as `slate serve` sends them), and where an
    /// all-day date's moment (`TaskItem.due`, which sorts) is placed, at its day's start, so
    /// that an account's dates sort the same whoever set them and from wherever. (The web
    /// app gives an account without a zone its browser's.)
    var homeCalendar: Calendar {
        if let made = madeHomeCalendar.withLock({ $0 }) { return made }
        let zone = (try? makeContext().model(Account.self, id: accountID))??.timeZone
        let made = AccountDirectory.homeCalendar(zone: zone, otherwise: calendar)
        madeHomeCalendar.withLock { $0 = made }
        return made
    }

    /// Sets `task`'s due date, read in `calendar`, an all-day one placed in `homeCalendar`.
    func setDue(_ value: DueDate?, on task: inout TaskItem) {
        task.setDue(value, calendar: calendar, placedIn: value?.isAllDay == true ? homeCalendar : nil)
    }

    /// Made when first read: `Calendar.current` reads the time zone and locale (about 1.5M
    /// instructions), which completing or deleting a task never needs.
    private let makeCalendar: @Sendable () -> Calendar
    private let madeCalendar = Mutex<Calendar?>(nil)
    private let madeHomeCalendar = Mutex<Calendar?>(nil)
    private let clock: @Sendable () -> Date
    /// The revision of the last change this instance committed (see `lastChange`).
    private let lastCommitted = Mutex<Int?>(nil)

    /// A view of `container` for `accountID`.
    public convenience init(container: ModelContainer, accountID: UUID, calendar: Calendar = .current,
                            clock: @escaping @Sendable () -> Date = { Date() }) {
        self.init(container: container, accountID: accountID, makeCalendar: { calendar }, clock: clock)
    }

    /// A view of `container` for `accountID` whose calendar is made when first needed
    /// (`slate done N` never needs one).
    public init(container: ModelContainer, accountID: UUID, makeCalendar: @escaping @Sendable () -> Calendar,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.container = container
        self.accountID = accountID
        self.makeCalendar = makeCalendar
        self.clock = clock
    }

    /// Opens (creating if needed) the database at `path` (nil: in memory; a `postgresql://`
    /// URL: that server, see `openContainer`) for the local account.
    public static func open(path: String?, password: String? = nil, maximumReaders: Int = 4, calendar: Calendar = .current,
                            clock: @escaping @Sendable () -> Date = { Date() }) throws -> Slate {
        try open(path: path, password: password, maximumReaders: maximumReaders, makeCalendar: { calendar }, clock: clock)
    }

    /// Like `open(path:password:maximumReaders:calendar:clock:)`, with the calendar made
    /// when first needed (and `isLongRunning` as `openContainer` takes it).
    /// With `account`, the board of the account of that name (ignoring case), which must
    /// exist, instead of the local one; its calendar is then in the account's time zone
    /// when the account has one (its typed times, "today" and days are the account's, as
    /// the server reads them for it), else `makeCalendar`'s.
    public static func open(path: String?, password: String? = nil, maximumReaders: Int = 4, isLongRunning: Bool = false,
                            account name: String? = nil, makeCalendar: @escaping @Sendable () -> Calendar,
                            clock: @escaping @Sendable () -> Date = { Date() }) throws -> Slate {
        let container = try openContainer(path: path, password: password, maximumReaders: maximumReaders, isLongRunning: isLongRunning)
        guard let name else {
            let account = try ensureAccount(named: Account.localName, in: container, now: clock())
            return Slate(container: container, accountID: account.id, makeCalendar: makeCalendar, clock: clock)
        }
        let directory = AccountDirectory(container: container)
        let account: Account
        do { account = try directory.requireAccount(named: name) } catch let error as SlateError {
            throw SlateError.invalid(field: "account", message: error.description)
        }
        guard let zone = account.timeZone.flatMap(TimeZone.init(identifier:)) else {
            return Slate(container: container, accountID: account.id, makeCalendar: makeCalendar, clock: clock)
        }
        return Slate(container: container, accountID: account.id, makeCalendar: {
            var calendar = makeCalendar()
            calendar.timeZone = zone
            return calendar
        }, clock: clock)
    }

    /// Opens the store with Slate's schema, migrating an older one: the SQLite file at
    /// `path` (nil: in memory), or, when `path` is a `postgresql://` URL, that PostgreSQL
    /// database (`password`, if given, instead of one in the URL or libpq's own sources).
    ///
    /// `isLongRunning` (a server): a file's write-ahead log may grow to 10,000 pages (40 MB)
    /// before a write folds it back into the file, instead of 400: fewer checkpoints, each
    /// of which wrote the same hot pages again (PUTs through CalDAV, 8 clients: 8–14% more a
    /// second at 2,000 pages than at 400, about 7% more again at 10,000; reads unchanged).
    /// Such a process folds the log back when it stops (`ModelContainer.foldWriteAheadLog()`),
    /// so that the next command does not read it; while it runs, a fold keeps the log's
    /// file and the next writes go over it (`ModelConfiguration.keepsWriteAheadLogFile`:
    /// CalDAV PUTs, 8 clients, medians of six rounds 1,216 → 1,470/s).
    public static func openContainer(path: String?, password: String? = nil, maximumReaders: Int = 4,
                                     isLongRunning: Bool = false) throws -> ModelContainer {
        var configuration = try configuration(for: path, password: password)
        configuration.maximumReaders = maximumReaders
        if isLongRunning {
            configuration.writeAheadLogPages = 10_000
            configuration.keepsWriteAheadLogFile = true
        }
        // CalDAV reads departures back to its sync tokens' window and removes the names of
        // deleted tasks a window behind that (`pruneRemovedNames`): twice the window is kept.
        configuration.departureHistory = 2 * CalendarLimits.syncHistory
        // A shared database also keeps what a single server keeps in memory (`serverModels`).
        let models = configuration.postgreSQL == nil ? SlateSchema.models : SlateSchema.models + SlateSchema.serverModels
        return try ModelContainer(for: models, configuration: configuration)
    }

    /// `database` as it may be shown and logged: a file's path as it is, a PostgreSQL URL
    /// without its password (and without anything else but server, port, database and user).
    public static func databaseName(_ database: String) -> String {
        guard PostgreSQLLocation.isURL(database) else { return database }
        return (try? PostgreSQLLocation(url: database).description) ?? "a PostgreSQL database (its URL cannot be read)"
    }

    /// True when `database` names a PostgreSQL server rather than a file.
    public static func isServerURL(_ database: String?) -> Bool {
        database.map(PostgreSQLLocation.isURL) ?? false
    }

    /// Slate's store configuration for a file, memory or a PostgreSQL URL.
    static func configuration(for database: String?, password: String?) throws -> ModelConfiguration {
        guard let database, PostgreSQLLocation.isURL(database) else {
            var configuration = ModelConfiguration(path: database, schemaVersion: SlateSchema.version, migrations: SlateSchema.migrations)
            configuration.schemaFingerprint = SlateSchema.fingerprint
            return configuration
        }
        return ModelConfiguration(postgreSQL: try PostgreSQLLocation(url: database, password: password),
                                  schemaVersion: SlateSchema.version, migrations: SlateSchema.migrations)
    }

    /// The account named `name`, created if it does not exist.
    public static func ensureAccount(named name: String, in container: ModelContainer, now: Date) throws -> Account {
        let context = ModelContext(container, undo: false)
        // The name as given first (every command opens the local account so; a server's
        // store holds many accounts, and reading them all cost more than the rest of
        // opening), then any spelling of it: names are unique without case.
        var exact = FetchDescriptor<Account>()
        exact.where(\.name, is: name)
        if let existing = try context.fetch(exact).first { return existing }
        let lowered = name.lowercased()
        if let existing = try context.fetch(FetchDescriptor<Account>()).first(where: { $0.name.lowercased() == lowered }) {
            return existing
        }
        let account = Account(name: name, created: now)
        context.insert(account)
        try context.save()
        return account
    }

    /// Now, as this instance's clock tells it, to the whole millisecond: timestamps then
    /// survive a round trip through ISO 8601 text (exports, the API) bit for bit.
    public var now: Date { Timestamp.truncatedToMilliseconds(clock()) }

    func makeContext(undo: Bool = true) -> ModelContext { ModelContext(container, undo: undo) }

    /// The revision of this account's last change: other accounts' changes never move it.
    public func revision() throws -> Int { try container.currentRevision(partition: accountID) }

    /// The change the last write through this instance made (its revision): what a client
    /// passes to `undo(change:)` to revert exactly that change. Nil before any write, or
    /// when the last write changed nothing.
    public var lastChange: Int? { lastCommitted.withLock { $0 } }

    /// Saves `context` as one change labelled for undo, remembering its revision.
    @discardableResult
    func save(_ context: ModelContext, undoLabel: String) throws -> Commit? {
        let commit = try translatingErrors { try context.save(undoLabel: undoLabel) }
        remember(commit)
        return commit
    }

    /// Remembers the revision (this account's) of a change this instance committed.
    func remember(_ commit: Commit?) {
        guard let commit else { return }
        lastCommitted.withLock { $0 = commit.revision(in: accountID) }
    }
}
