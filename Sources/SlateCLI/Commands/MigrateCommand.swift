import Foundation
import SlateCore

/// `slate migrate --to DEST`: the whole database copied to another one — from a file to
/// PostgreSQL for many nodes, or back to a file — and checked.
enum MigrateCommand {
    static let spec = CommandSpec(
        name: "migrate", abstract: "Copy the whole database to PostgreSQL (or to a file), and check the copy",
        discussion: """
            Copies everything — accounts, sign-in secrets, lists, tasks, alerts, CalDAV data, and the
            history that sync clients, ETags and undo rely on — from the database (--database or
            --db) into DEST: an empty PostgreSQL database or schema (postgresql://USER@HOST/NAME), or
            a new file. Then every row of the copy is compared with the original. Stop every slate
            serve on the database first (on a file, migrate refuses while one runs). The original
            is left as it was. Point the servers at DEST afterwards.
            """,
        options: [
            .value("to", "path-or-url", "Where to copy to: postgresql://USER@HOST/NAME, or a new file."),
            .value("to-password-file", "file", "A file holding DEST's PostgreSQL password (else SLATE_MIGRATE_PASSWORD, PGPASSWORD or ~/.pgpass)."),
        ],
        run: { parsed, session in
            guard let destination = parsed.value("to"), !destination.isEmpty else {
                throw SlateError.invalid(field: "to", message: "Name where to copy to with --to: postgresql://USER@HOST/NAME or a new file.")
            }
            var lock: ServingLock?
            if !session.isServerDatabase {
                guard FileManager.default.fileExists(atPath: session.databasePath) else {
                    throw SlateError.notFound("database at \(session.databasePath)")
                }
                guard let held = try BoardFile.claimForServing(session.databasePath) else {
                    throw SlateError.invalid(field: "database", message: "A slate serve is running on \(session.databasePath); stop it first.")
                }
                lock = held
            }
            let password = try parsed.value("to-password-file").map { file in
                String(decoding: try SecretFile.read(file, option: "to-password-file", environment: session.environment), as: UTF8.self)
                    .trimmingCharacters(in: .newlines)
            } ?? session.environment["SLATE_MIGRATE_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
            if !Slate.isServerURL(destination) { try Session.createDatabaseFolder(for: destination) }
            let source = try session.openContainer()
            let migration = try BoardFile.migrate(source, to: destination, password: password)
            withExtendedLifetime(lock) {}
            let total = migration.rows.values.reduce(0, +)
            if session.wantsJSON {
                session.console.out(PublicJSON.render(["to": Slate.databaseName(destination), "rows": migration.rows,
                                                       "revision": migration.revision, "verified": true]))
            } else {
                session.console.line("Copied \(session.databaseName) to \(Slate.databaseName(destination)): \(total) rows, revision \(migration.revision).")
                session.console.line("Checked: the copy holds exactly the original's rows.")
            }
        })
}
