import Foundation
import SlateCore

extension ServerCommands {
    /// `slate user edit NAME --time-zone Europe/Paris`: an account's settings.
    static let userEdit = CommandSpec(
        name: "edit", abstract: "Change an account's settings",
        discussion: "The time zone is the one the server reads dates and times in (\"fri 5pm\") for this account's clients that do not send their own, and the CLI's with --account; 'none' goes back to the server's zone.",
        arguments: [ArgumentSpec(name: "name", help: "The account name.")],
        options: [.value("time-zone", "zone", "An IANA time zone such as Europe/Paris or America/New_York, or none."),
                  .value("email", "address", "Where email alerts go, or none.")],
        run: { parsed, session in
            let directory = AccountDirectory(container: try session.slate().container)
            let name = parsed.positionals[0]
            let account = try directory.requireAccount(named: name)
            let zone = parsed.value("time-zone"), email = parsed.value("email")
            guard zone != nil || email != nil else {
                throw UsageError(message: "Nothing to change: give --time-zone ZONE (such as Europe/Paris, or none) or --email ADDRESS.", command: parsed.path)
            }
            if let zone, zone != "none" {
                do { _ = try TimeZones.zone(named: zone, field: "time-zone") } catch {
                    throw UsageError(
                        message: "invalid value '\(zone)' for --time-zone: expected an IANA time zone name such as Europe/Paris, America/New_York or UTC, or none.",
                        command: parsed.path)
                }
            }
            let alerts = Slate(container: directory.container, accountID: account.id)
            var settings = try alerts.alertSettings()
            if let email {
                settings.email = email == "none" ? nil : try AlertRules.validEmail(email)
            }
            let updated = try zone.map { try directory.setTimeZone($0 == "none" ? nil : $0, for: account.id) } ?? account
            if email != nil { try alerts.saveAlertSettings(settings) }
            if session.wantsJSON {
                session.console.out(PublicJSON.render(["name": updated.name, "timeZone": updated.timeZone ?? NSNull(),
                                                       "email": settings.email ?? NSNull()] as [String: Any]))
            } else {
                if zone != nil { session.console.line("\(updated.name) reads dates in \(updated.timeZone ?? "the server's time zone").") }
                if email != nil { session.console.line("\(updated.name) gets email alerts \(settings.email.map { "at " + $0 } ?? "nowhere").") }
            }
        })
}
