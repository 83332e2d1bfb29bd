import Foundation
import SlateCore
import Synchronization

/// One run of `slate`: the environment, the output, and the database (opened on first use).
final class Session {
    let console: Console
    /// The process environment, read when first needed (`SlateCommandLine.run`).
    var environment: [String: String] { readEnvironment.value }
    private let readEnvironment: OnDemand<[String: String]>
    let style: Style
    /// Columns of the terminal, or nil when output is not a terminal (no truncation).
    let width: Int?
    let wantsJSON: Bool
    private(set) var databasePath: String
    /// The calendar (and time zone) for dates, made when first needed: with `--account`,
    /// the board's (in the account's time zone when it has one; the board is opened for it).
    var calendar: Calendar {
        guard accountName != nil, let slate = try? slate() else { return readCalendar.value }
        return slate.calendar
    }
    private let readCalendar: OnDemand<Calendar>
    /// `calendar` as a function, for a parser that needs it only when it reads a date: `slate
    /// add` of a line without one then makes no calendar (the costliest part of reading the line).
    var calendarWhenNeeded: @Sendable () -> Calendar {
        if accountName != nil, let slate = try? slate() { return { slate.calendar } }
        let read = readCalendar
        return { read.value }
    }
    let clock: @Sendable () -> Date
    private var openedSlate: Slate?
    /// Say on standard error when opening the database upgraded it (serve logs it instead).
    var reportsMigrationBackup = true
    /// The process runs until stopped (serve): see `Slate.openContainer`'s `isLongRunning`.
    var isLongRunning = false

    init(console: Console, environment: @escaping @Sendable () -> [String: String], parsed: ParsedCommand, terminalWidth: Int?,
         calendar: @escaping @Sendable () -> Calendar, clock: @escaping @Sendable () -> Date) {
        self.console = console
        let readEnvironment = OnDemand(environment)
        self.readEnvironment = readEnvironment
        readCalendar = OnDemand(calendar)
        self.clock = clock
        let environment = { readEnvironment.value }
        wantsJSON = parsed.flag("json")
        let colorAllowed = terminalWidth != nil && !parsed.flag("no-color") && environment()["NO_COLOR"].map(\.isEmpty) ?? true
        style = Style(isEnabled: colorAllowed)
        width = terminalWidth
        // An empty variable is an unset one (`SLATE_DB= slate …`); an empty --db is refused
        // when the database is opened (SQLite would open a throwaway one, and lose every write).
        let chosen = parsed.value("database") ?? parsed.value("db")
            ?? [environment()["SLATE_DATABASE"], environment()["SLATE_DB"]].lazy.compactMap { $0 }.first { !$0.isEmpty }
        databasePath = chosen ?? Self.defaultDatabasePath(environment())
        passwordFile = parsed.value("database-password-file")
        // One variable read with getenv: building the whole environment costs a command that
        // needs nothing else from it (OnDemandStartTests).
        accountName = parsed.value("account") ?? getenv("SLATE_ACCOUNT").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--account` (or SLATE_ACCOUNT): the account whose board commands work on; nil: the
    /// local one, created when missing.
    let accountName: String?

    /// `--database-password-file`, read when the database is opened.
    private(set) var passwordFile: String?
    /// Reader connections to open besides the writer (`slate serve --database-pool`, 4 by
    /// default there). A command does one thing at a time, so it opens none: its reads use
    /// the writer connection, and the file is opened (and its schema read) once.
    var databasePool = 0

    /// True when the database is a PostgreSQL server (a URL), not a file.
    var isServerDatabase: Bool { Slate.isServerURL(databasePath) }

    /// The database as messages and logs may name it (a URL without its password).
    var databaseName: String { Slate.databaseName(databasePath) }

    /// The PostgreSQL password, from `--database-password-file` (one line; the file is
    /// never shown) or `SLATE_DATABASE_PASSWORD`; nil leaves it to libpq (the URL,
    /// PGPASSWORD, ~/.pgpass).
    func databasePassword() throws -> String? {
        if let passwordFile {
            do {
                let data = try SecretFile.read(passwordFile, option: "database-password-file", environment: environment)
                return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
            } catch let problem as ConfigurationFile.Problem {
                throw SlateError.invalid(field: "database-password-file", message: problem.description)
            }
        }
        // Only a server has a password: a file's command need not read the environment.
        guard isServerDatabase else { return nil }
        return environment["SLATE_DATABASE_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Set for a command that only reads (`SlateCommandLine.readingCommands`): it creates no
    /// folder for its database, so a mistyped path is an error, not a new empty board.
    var readsOnly = false

    /// Refuses an empty database path, and a reading command's database in a missing folder.
    private func checkDatabasePath() throws {
        guard !databasePath.isEmpty else {
            throw SlateError.invalid(field: "db", message: "--db is empty: give the database file's path (or, with --database, a postgresql:// URL).")
        }
        guard readsOnly, !isServerDatabase else { return }
        let folder = (databasePath as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        throw SlateError.notFound("database at \(databasePath): the folder \(folder) does not exist")
    }

    /// Opens the store alone (for commands that need no account), as `slate()` would.
    func openContainer() throws -> BoardStore {
        try checkDatabasePath()
        return try Slate.openContainer(path: databasePath, password: try databasePassword(), maximumReaders: databasePool)
    }

    /// `$XDG_DATA_HOME/slate/slate.sqlite`, or `~/.local/share/slate/slate.sqlite`.
    static func defaultDatabasePath(_ environment: [String: String]) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return base + "/slate/slate.sqlite"
    }

    /// Points the session at another database (from `slate serve --config`); only before
    /// the database is opened.
    func useDatabase(_ path: String, passwordFile: String? = nil) {
        precondition(openedSlate == nil, "the database is already open")
        databasePath = path
        if let passwordFile { self.passwordFile = passwordFile }
    }

    /// Creates the folder of the database at `path` when missing, readable by its owner
    /// only (0700, as XDG asks of data folders): the database holds every task and the
    /// accounts' password hashes, and SQLite creates its files readable by all.
    static func createDatabaseFolder(for path: String) throws {
        guard !Slate.isServerURL(path) else { return }
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The task board, opening the database (and creating its folder) on first use.
    func slate() throws -> Slate {
        if let openedSlate { return openedSlate }
        try checkDatabasePath()
        if !readsOnly { try Self.createDatabaseFolder(for: databasePath) }
        // The board's calendar is the session's (made once for both, when either first needs it).
        let read = readCalendar
        let slate = try Slate.open(path: databasePath, password: try databasePassword(), maximumReaders: databasePool,
                                   isLongRunning: isLongRunning, account: accountName, makeCalendar: { read.value }, clock: clock)
        if reportsMigrationBackup, let backup = slate.container.migrationBackup {
            console.err("note: the database was upgraded to this version of slate; a copy from before is at \(backup)\n")
        }
        openedSlate = slate
        return slate
    }

    var now: Date { clock() }
    var dueFormatter: DueFormatter { DueFormatter(now: now, calendar: calendar) }
    var dateParser: DateParser { DateParser(now: now, calendar: calendar) }
}

/// A value made the first time it is read, then kept; safe to read from the `@Sendable`
/// functions a session hands out (`calendarWhenNeeded`).
final class OnDemand<Value: Sendable>: Sendable {
    private let make: @Sendable () -> Value
    private let made = Mutex<Value?>(nil)

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    var value: Value {
        made.withLock { made in
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}
