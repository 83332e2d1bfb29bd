import Foundation
import SlateCore

/// `slate backup` and `slate restore`: copies of a live database, through the store's
/// online backup (no SQL here).
enum ServiceCommands {
    static let backup = CommandSpec(
        name: "backup", abstract: "Copy the database to a file, consistently, even while slate serve writes",
        discussion: """
            The copy holds every change committed before the command started; it is written under
            a temporary name, passes SQLite's integrity check, then takes its name (an existing
            file is replaced). Restore it with slate restore.
            """,
        arguments: [ArgumentSpec(name: "file", help: "Where to write the copy.")],
        run: { parsed, session in
            guard FileManager.default.fileExists(atPath: session.databasePath) else {
                throw SlateError.notFound("database at \(session.databasePath)")
            }
            let container = try Slate.openContainer(path: session.databasePath)
            let destination = parsed.positionals[0]
            try BoardFile.backup(container, to: destination)
            let revision = try container.currentRevision()
            if session.wantsJSON {
                session.console.out(PublicJSON.render(["backup": destination, "revision": revision]))
            } else {
                session.console.line("Backed up \(session.databasePath) (revision \(revision)) to \(destination).")
            }
        })

    static let restore = CommandSpec(
        name: "restore", abstract: "Put a backup back in place of the database",
        discussion: """
            Refuses while slate serve holds the database (stop the service first), unless --force:
            then the running server sees the restored data at once, but its live clients should
            reload; restart it when you can. The current database is first copied beside itself
            (slate.sqlite.before-restore-…), and an older backup is upgraded as on any start.
            """,
        arguments: [ArgumentSpec(name: "file", help: "The backup to restore.")],
        options: [.flag("force", "Restore even while a server is running on the database.")],
        run: { parsed, session in
            let source = parsed.positionals[0]
            let path = session.databasePath
            var lock: ServingLock?
            if !parsed.flag("force") {
                guard let held = try BoardFile.claimForServing(path) else {
                    throw SlateError.invalid(
                        field: "force",
                        message: "A slate serve is running on \(path); stop it first (systemctl stop slate) or pass --force.")
                }
                lock = held
            }
            var previous: String?
            if FileManager.default.fileExists(atPath: path) {
                let copy = path + ".before-restore-" + ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
                try BoardFile.backup(try Slate.openContainer(path: path), to: copy)
                previous = copy
            }
            try BoardFile.restore(from: source, to: path)
            let container = try Slate.openContainer(path: path)
            let revision = try container.currentRevision()
            withExtendedLifetime(lock) {}
            if session.wantsJSON {
                session.console.out(PublicJSON.render(["restored": source, "revision": revision, "previous": previous.map { $0 as Any } ?? NSNull()]))
            } else {
                session.console.line("Restored \(source) into \(path) (revision \(revision)).")
                if let previous { session.console.line("The database as it was is kept at \(previous).") }
                if let upgrade = container.migrationBackup { session.console.line("The backup was upgraded; its original is at \(upgrade).") }
            }
        })
}
