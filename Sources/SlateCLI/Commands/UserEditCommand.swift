import Foundation
import SlateCore

extension ServerCommands {
    /// `slate user edit NAME --time-zone Europe/Paris`: an account's settings.
    static let userEdit = CommandSpec(
        name: "edit", abstract: "Change an account's settings",
        discussion: "The time zone is the one the server reads dates and times in (\"fri 5pm\") for this account's clients that do not send their own; 'none' goes back to the server's zone.",
        arguments: [ArgumentSpec(name: "name", help: "The account name.")],
        options: [.value("time-zone", "zone", "An IANA time zone such as Europe/Paris or America/New_York, or none.")],
        run: { parsed, session in
            let directory = AccountDirectory(container: try session.slate().container)
            let name = parsed.positionals[0]
            guard let account = try directory.account(named: name) else { throw SlateError.notFound("account named \(name)") }
            guard let zone = parsed.value("time-zone") else {
                throw UsageError(message: "Nothing to change: give --time-zone ZONE (such as Europe/Paris, or none).", command: parsed.path)
            }
            if zone != "none" {
                do { _ = try TimeZones.zone(named: zone, field: "time-zone") } catch {
                    throw UsageError(
                        message: "invalid value '\(zone)' for --time-zone: expected an IANA time zone name such as Europe/Paris, America/New_York or UTC, or none.",
                        command: parsed.path)
                }
            }
            let updated = try directory.setTimeZone(zone == "none" ? nil : zone, for: account.id)
            if session.wantsJSON {
                session.console.out(PublicJSON.render(["name": updated.name, "timeZone": updated.timeZone ?? NSNull()] as [String: Any]))
            } else {
                session.console.line("\(updated.name) reads dates in \(updated.timeZone ?? "the server's time zone").")
            }
        })
}
