import Foundation
import SlateCore

/// The `slate` command: parses a command line, runs it, and reports errors with the
/// documented exit codes.
public enum SlateCommandLine {
    /// The version printed by `slate --version`.
    public static let version = "0.1.0"

    static let globalOptions: [OptionSpec] = [
        .value("db", "path", "The database file (also SLATE_DB; default $XDG_DATA_HOME/slate/slate.sqlite)."),
        .value("database", "path-or-url", "The database: a file, as --db, or postgresql://USER@HOST/NAME for a shared PostgreSQL database (also SLATE_DATABASE)."),
        .value("database-password-file", "file", "A file holding the PostgreSQL password (else SLATE_DATABASE_PASSWORD, PGPASSWORD or ~/.pgpass)."),
        .value("account", "name", "Work on this account's board, in its time zone, e.g. one of a server's users (also SLATE_ACCOUNT; default: local)."),
        .flag("json", "Print JSON (on every reading command)."),
        .flag("no-color", "No colour (also NO_COLOR)."),
        .flag("help", short: "h", "Show help."),
        .flag("version", "Show the version."),
    ]

    static let root = CommandSpec(
        name: "slate", abstract: "a task manager for the terminal, the browser and your phone",
        subcommands: [
            TaskCommands.add, ListCommand.spec, TaskCommands.show, TaskCommands.edit, TaskCommands.done,
            TaskCommands.reopen, TaskCommands.flag, TaskCommands.unflag, TaskCommands.delete, TaskCommands.move,
            TaskCommands.clearCompleted, ListsCommands.spec, BoardCommands.stats, BoardCommands.undo,
            BoardCommands.redo, BoardCommands.export, BoardCommands.import, BoardCommands.sample,
            ServerCommands.serve, ServerCommands.user, ServerCommands.token,
            ServiceCommands.backup, ServiceCommands.restore, MigrateCommand.spec, AlertCommands.alerts,
        ])

    /// The commands that only read the board: they create no folder for a database (a
    /// mistyped `--db` is reported, not made).
    static let readingCommands: Set<[String]> = [["list"], ["show"], ["stats"], ["export"], ["lists"]]

    /// Runs `slate` with `arguments` (without the program name) and returns the exit
    /// code; what it prints is in `console`.
    ///
    /// The environment and the calendar are read when a command first needs them: each
    /// cost about 1.4M instructions (`ProcessInfo.environment` copies every variable,
    /// `Calendar.current` reads the time zone and locale), a fifth of `slate --version`,
    /// and `slate done N --db FILE` needs neither. The calendar is the Gregorian one in
    /// the current time zone, as every parser and view expects (`TimeZones.calendar`): the
    /// locale (which `Calendar.current` also reads, a sixth of its cost) plays no part.
    static func run(
        _ arguments: [String], console: Console, environment: @autoclosure @escaping @Sendable () -> [String: String],
        terminalWidth: Int?, calendar: @autoclosure @escaping @Sendable () -> Calendar = TimeZones.calendar(in: .current),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) -> Int32 {
        let parser = ArgumentParser(root: root, globalOptions: globalOptions)
        let help = HelpRenderer(globalOptions: globalOptions)
        do {
            let (command, parsed) = try parser.parse(arguments)
            if parsed.flag("version") {
                console.line("slate \(version)")
                return ExitCode.success
            }
            if parsed.flag("help") || command.run == nil {
                console.out(help.help(command, path: parsed.path, isRoot: parsed.path.isEmpty))
                return ExitCode.success
            }
            let session = Session(console: console, environment: environment, parsed: parsed,
                                  terminalWidth: terminalWidth, calendar: calendar, clock: clock)
            session.readsOnly = readingCommands.contains(parsed.path)
            try command.run?(parsed, session)
            return ExitCode.success
        } catch let error as UsageError {
            var command = root
            for name in error.command { command = command.subcommand(name) ?? command }
            console.err("error: \(error.message)\n")
            console.err("Usage: \(help.usage(command, path: error.command))\n")
            console.err("See '\((["slate"] + error.command + ["--help"]).joined(separator: " "))'.\n")
            return ExitCode.usage
        } catch let error as SlateError {
            console.err("error: \(error.description)\n")
            return ExitCode.failure
        } catch {
            console.err("error: \((error as? LocalizedError)?.errorDescription ?? "\(error)")\n")
            return ExitCode.failure
        }
    }

    /// The entry point of the `slate` executable.
    public static func main() -> Int32 {
        let console = Console()
        let code = run(Array(CommandLine.arguments.dropFirst()), console: console,
                       environment: ProcessInfo.processInfo.environment, terminalWidth: Terminal.width())
        console.flush()
        return code
    }
}
