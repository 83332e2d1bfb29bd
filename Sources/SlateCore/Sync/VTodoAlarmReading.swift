import Foundation

/// How Slate reads a stored VTODO's alarms: as `ICalendarAlarms` does, except that a
/// duration TRIGGER relative to the start (RFC 5545's default, `RELATED=START`) counts from
/// the VTODO's DTSTART, as clients fire it. Restated against the due date it is the same
/// lead moved by DUE − DTSTART (so it moves with the due date as the client's does, DTSTART
/// moving with DUE); without a due date it is the moment it fires. Without DTSTART, or with
/// DTSTART = DUE (Apple), nothing changes. Only the reading changes: stored bytes stay.
enum VTodoAlarmReading {
    /// `todo` with each start-relative duration TRIGGER of its VALARMs restated (order kept).
    static func anchored(_ todo: ICalendarComponent, calendar: Calendar, zones: CalendarTimeZones) -> ICalendarComponent {
        guard let property = todo.property("DTSTART"),
              let start = try? VTodoContent.date(property, calendar: calendar, zones: zones).0 else { return todo }
        let due = todo.property("DUE").flatMap { try? VTodoContent.date($0, calendar: calendar, zones: zones).0 }
        guard due != start else { return todo }
        var copy = todo
        copy.components = todo.components.map { alarm in
            guard alarm.name == "VALARM", let index = alarm.properties.firstIndex(where: { $0.name == "TRIGGER" }) else { return alarm }
            let trigger = alarm.properties[index]
            let value = trigger.value.trimmingCharacters(in: .whitespaces)
            guard trigger.parameter("VALUE")?.uppercased() != "DATE-TIME", value.uppercased().contains("P"),
                  (trigger.parameter("RELATED")?.uppercased() ?? "START") == "START",
                  let offset = BasicDate.parseDuration(value) else { return alarm }
            var restated = trigger
            if let due {
                restated.parameters = [("RELATED", "END")]
                restated.value = BasicDate.formatDuration(offset + Int(start.timeIntervalSince(due).rounded()))
            } else {
                restated.parameters = [("VALUE", "DATE-TIME")]
                restated.value = BasicDate.formatUTC(start.addingTimeInterval(TimeInterval(offset)))
            }
            var changed = alarm
            changed.properties[index] = restated
            return changed
        }
        return copy
    }
}
