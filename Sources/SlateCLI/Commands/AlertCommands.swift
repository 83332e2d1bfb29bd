import Foundation
import SlateCore

/// `slate alerts`: what fires next.
enum AlertCommands {
    static let alerts = CommandSpec(
        name: "alerts", abstract: "Show the alerts that fire next",
        discussion: """
            One line per active task with an alert to come, soonest first. `slate serve`
            delivers them (open pages, webhook, email, Web Push). Set alerts with
            `slate add … --alert 15m` or `slate edit N --alert 1d@9:00 / --no-alerts`.
            """,
        options: [.value("limit", "n", "How many to show (default 20, at most 1000).")],
        run: { parsed, session in
            let limit = try parsed.value("limit").map { text -> Int in
                guard let value = Int(text), (1...1000).contains(value) else {
                    throw SlateError.invalid(field: "limit", message: "--limit must be a whole number from 1 to 1000; got '\(text)'.")
                }
                return value
            } ?? 20
            let upcoming = try session.slate().upcomingAlerts(limit: limit)
            if session.wantsJSON {
                session.console.out(PublicJSON.render(upcoming.map { alert in
                    ["task": alert.task.number, "taskId": alert.task.id.uuidString.lowercased(), "title": alert.task.title,
                     "fireAt": Timestamp.format(alert.fireAt), "snoozed": alert.isSnoozed] as [String: Any]
                }))
                return
            }
            guard !upcoming.isEmpty else {
                session.console.line("No alerts to come.")
                return
            }
            let width = upcoming.map { String($0.task.number).count }.max() ?? 1
            for alert in upcoming {
                let number = String(repeating: " ", count: width - String(alert.task.number).count) + "#\(alert.task.number)"
                let when = session.dueFormatter.string(alert.fireAt, isAllDay: false)
                session.console.line("  \(number)  \(when)  “\(alert.task.title)”" + (alert.isSnoozed ? session.style.dim("  (snoozed)") : ""))
            }
        })
}
