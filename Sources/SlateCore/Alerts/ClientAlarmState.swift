import Foundation
import SlateStore

/// What a CalDAV client recorded about a task's alarms in the VTODO it stored: Thunderbird's
/// `X-MOZ-LASTACK` (alarms up to this moment were acknowledged: dismissed) and
/// `X-MOZ-SNOOZE-TIME` (the alarm comes back at this moment). Read from the bytes the client
/// stored (`CalendarResourceBody`), so that an alarm dismissed or snoozed in Thunderbird is
/// not sent again by Slate, or comes back when Thunderbird's would.
struct ClientAlarmState: Equatable {
    var lastAcknowledged: Date?
    var snoozedUntil: Date?

    /// The state in the stored VTODO of `taskID`; nil when no client stored it or it says
    /// nothing about alarms.
    static func stored(for taskID: UUID, context: ModelContext, calendar: Calendar) throws -> ClientAlarmState? {
        guard let body = try context.model(CalendarResourceBody.self, id: taskID) else { return nil }
        return read(body.data, calendar: calendar)
    }

    /// The state in a VTODO's bytes (nil when it has none, or cannot be read).
    static func read(_ data: Data, calendar: Calendar) -> ClientAlarmState? {
        guard let roots = try? ICalendarText.parse(data),
              let todo = (roots + roots.flatMap(\.components)).first(where: { $0.name == "VTODO" })
        else { return nil }
        func moment(_ name: String) -> Date? {
            // Recurring tasks carry `X-MOZ-SNOOZE-TIME-<occurrence>`: the snooze of one occurrence.
            let property = todo.property(name) ?? todo.properties.first { $0.name.hasPrefix(name + "-") }
            return property.flatMap { BasicDate.parseMoment($0.value.trimmingCharacters(in: .whitespaces), local: calendar) }
        }
        let state = ClientAlarmState(lastAcknowledged: moment("X-MOZ-LASTACK"), snoozedUntil: moment("X-MOZ-SNOOZE-TIME"))
        return state.lastAcknowledged == nil && state.snoozedUntil == nil ? nil : state
    }

    /// Applies the state to the scheduler's cursor: alerts firing up to the acknowledgement
    /// are done; a snooze still ahead of what was handled comes back at its time. The
    /// scheduler applies it when the client's bytes change or the cursor is new, never again
    /// for unchanged bytes: a snooze or dismissal made in Slate since would be undone.
    func apply(to cursor: inout AlertCursor) {
        if let lastAcknowledged { cursor.handledThrough = max(cursor.handledThrough, lastAcknowledged) }
        if let snoozedUntil, snoozedUntil > cursor.handledThrough { cursor.snoozedUntil = snoozedUntil }
    }
}
