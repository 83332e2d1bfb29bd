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
            try refuseServer(session, "backed up with pg_dump (pg_dump --format=custom --file=slate.dump URL; see the README)")
            guard FileManager.default.fileExists(atPath: session.databasePath) else {
                throw SlateError.notFound("database at \(session.databasePath)")
            }
            let container = try Slate.openContainer(path: session.databasePath)
            let destination = parsed.positionals[0]
            try checkBackupDestination(destination)
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
            try refuseServer(session, "restored with pg_restore (pg_restore --clean --dbname=URL slate.dump; see the README)")
            let source = parsed.positionals[0]
            let path = session.databasePath
            // On a new machine the database's folder may not exist yet.
            try Session.createDatabaseFolder(for: path)
            var lock: ServingLock?
            if !parsed.flag("force") {
                guard let held = try BoardFile.claimForServing(path) else {
                    throw SlateError.invalid(
                        field: "force",
                        message: "A slate serve is running on \(path); stop it first (systemctl stop slate) or pass --force.")
                }
                lock = held
            }
            // Check the backup before anything is written: a refused restore leaves no copy behind.
            try BoardFile.checkBackup(at: source, for: path)
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

    /// Refuses a command that copies files when the database is a PostgreSQL server.
    static func refuseServer(_ session: Session, _ instead: String) throws {
        guard session.isServerDatabase else { return }
        throw SlateError.invalid(field: "database", message: "\(session.databaseName) is a PostgreSQL database: it is \(instead).")
    }

    /// Refuses, in words, a backup destination that is a folder or lies in a folder that does
    /// not exist (before any copying, and without SQLite's own message about the temporary file).
    static func checkBackupDestination(_ destination: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder), isFolder.boolValue {
            throw SlateError.invalid(
                field: "file",
                message: "Cannot write the backup \(destination): it is a folder; name a file in it, such as \((destination as NSString).appendingPathComponent("slate-backup.sqlite")).")
        }
        let folder = (destination as NSString).deletingLastPathComponent
        let shown = folder.isEmpty ? "." : folder
        guard FileManager.default.fileExists(atPath: shown, isDirectory: &isFolder), isFolder.boolValue else {
            throw SlateError.invalid(
                field: "file",
                message: "Cannot write the backup \(destination): the folder \(shown) does not exist; create it first (mkdir -p \(shown)).")
        }
        guard FileManager.default.isWritableFile(atPath: shown) else {
            throw SlateError.invalid(field: "file", message: "Cannot write the backup \(destination): the folder \(shown) is not writable by this user.")
        }
    }
}
