import Foundation

/// A task's alerts as VALARM components, and back.
///
/// - `due` and lead times: `TRIGGER;RELATED=END:-PT15M` (for a VTODO, END is the due date).
/// - `1d@9:00`: the moment it fires for the current due date (`TRIGGER;VALUE=DATE-TIME`),
///   with `X-SLATE-ALERT:1d@09:00` so Slate reads back the rule, not the moment.
/// - a fixed moment: `TRIGGER;VALUE=DATE-TIME:…Z`.
///
/// Reading, alarms that are not time alarms are left out: acknowledged ones (RFC 9074
/// `ACKNOWLEDGED`), and Apple's location alarms (`X-APPLE-PROXIMITY`, or the sentinel
/// trigger `19760401T005545Z`).
enum ICalendarAlarms {
    typealias Line = (name: String, parameters: [(String, String)], value: String)

    /// The lines of each VALARM, `BEGIN` to `END`.
    static func components(for task: TaskItem, calendar: Calendar) -> [[Line]] {
        var alarms: [[Line]] = []
        func alarm(_ trigger: Line, extra: [Line] = []) {
            alarms.append([("BEGIN", [], "VALARM"), ("ACTION", [], "DISPLAY"),
                           ("DESCRIPTION", [], ICalendarText.escape(task.title)), trigger] + extra + [("END", [], "VALARM")])
        }
        for alert in task.alerts {
            switch alert.trigger {
            case .beforeDue(let seconds):
                alarm(("TRIGGER", [("RELATED", "END")], BasicDate.formatDuration(-seconds)))
            case .onDay:
                guard let moment = alert.fireDate(due: task.due(in: calendar), calendar: calendar) else { continue }
                alarm(("TRIGGER", [("VALUE", "DATE-TIME")], BasicDate.formatUTC(moment)), extra: [("X-SLATE-ALERT", [], alert.text)])
            case .at(let moment):
                alarm(("TRIGGER", [("VALUE", "DATE-TIME")], BasicDate.formatUTC(moment)))
            }
        }
        return alarms
    }

    /// The alert one VALARM is, or nil for one Slate does not model (acknowledged, by place).
    static func alert(of alarm: ICalendarComponent, due: Date?, moment: (ICalendarProperty) throws -> Date) throws -> TaskAlert? {
        guard let trigger = alarm.property("TRIGGER"), alarm.property("ACKNOWLEDGED") == nil,
              alarm.property("X-APPLE-PROXIMITY") == nil
        else { return nil }
        let value = trigger.value.trimmingCharacters(in: .whitespaces)
        guard value.uppercased() != appleLocationSentinel else { return nil }
        let at = ImportError.Location.line(trigger.line)
        if let rule = alarm.property("X-SLATE-ALERT"), let alert = try? TaskAlert(parsing: rule.value), due != nil {
            return alert
        } else if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" || !value.uppercased().contains("P") {
            return TaskAlert(.at(Timestamp.truncatedToMilliseconds(try moment(trigger))))
        }
        guard let seconds = BasicDate.parseDuration(value) else {
            throw ImportError(at, field: "TRIGGER", "TRIGGER has an invalid duration '\(value)'")
        }
        // Relative to the start has no Slate form: read it against the due date, as
        // Slate has no start date. After the due date becomes the moment it fires.
        guard let due else {
            throw ImportError(at, field: "TRIGGER", "TRIGGER '\(value)' is relative to a due date and the task has none")
        }
        if seconds <= 0, -seconds <= TaskAlert.maximumLead { return TaskAlert(.beforeDue(seconds: -seconds)) }
        return TaskAlert(.at(due.addingTimeInterval(Double(seconds))))
    }

    /// Apple's trigger for alarms that fire by place, not by time.
    static let appleLocationSentinel = "19760401T005545Z"

    /// The alerts of a VTODO's VALARMs. `moment` reads a DATE-TIME property.
    static func alerts(in todo: ICalendarComponent, due: Date?, moment: (ICalendarProperty) throws -> Date) throws -> [TaskAlert] {
        var alerts: [TaskAlert] = []
        for alarm in todo.components where alarm.name == "VALARM" {
            if let alert = try alert(of: alarm, due: due, moment: moment) { alerts.append(alert) }
        }
        do {
            return try TaskAlert.validated(alerts, hasDue: due != nil, field: "VALARM")
        } catch let error as SlateError {
            throw ImportError(.line(todo.line), field: "VALARM", error.description)
        }
    }
}
