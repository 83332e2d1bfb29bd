import Foundation
import SlateCore

/// One run of `slate`: the environment, the output, and the database (opened on first use).
final class Session {
    let console: Console
    let environment: [String: String]
    let style: Style
    /// Columns of the terminal, or nil when output is not a terminal (no truncation).
    let width: Int?
    let wantsJSON: Bool
    private(set) var databasePath: String
    let calendar: Calendar
    let clock: @Sendable () -> Date
    private var openedSlate: Slate?
    /// Say on standard error when opening the database upgraded it (serve logs it instead).
    var reportsMigrationBackup = true

    init(console: Console, environment: [String: String], parsed: ParsedCommand, terminalWidth: Int?,
         calendar: Calendar, clock: @escaping @Sendable () -> Date) {
        self.console = console
        self.environment = environment
        self.calendar = calendar
        self.clock = clock
        wantsJSON = parsed.flag("json")
        let colorAllowed = terminalWidth != nil && !parsed.flag("no-color") && environment["NO_COLOR"].map(\.isEmpty) ?? true
        style = Style(isEnabled: colorAllowed)
        width = terminalWidth
        databasePath = parsed.value("db") ?? environment["SLATE_DB"] ?? Self.defaultDatabasePath(environment)
    }

    /// `$XDG_DATA_HOME/slate/slate.sqlite`, or `~/.local/share/slate/slate.sqlite`.
    static func defaultDatabasePath(_ environment: [String: String]) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return base + "/slate/slate.sqlite"
    }

    /// Points the session at another database (from `slate serve --config`); only before
    /// the database is opened.
    func useDatabase(_ path: String) {
        precondition(openedSlate == nil, "the database is already open")
        databasePath = path
    }

    /// Creates the folder of the database at `path` when missing, readable by its owner
    /// only (0700, as XDG asks of data folders): the database holds every task and the
    /// accounts' password hashes, and SQLite creates its files readable by all.
    static func createDatabaseFolder(for path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The task board, opening the database (and creating its folder) on first use.
    func slate() throws -> Slate {
        if let openedSlate { return openedSlate }
        try Self.createDatabaseFolder(for: databasePath)
        let slate = try Slate.open(path: databasePath, calendar: calendar, clock: clock)
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
