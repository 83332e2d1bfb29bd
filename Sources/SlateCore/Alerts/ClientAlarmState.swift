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
        // Only Thunderbird's properties hold a state: other clients' bytes (most) are not
        // parsed again here, on the writer thread, after the PUT that stored them.
        guard mentionsMozillaProperty(data) else { return nil }
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

    /// True when the text, unfolded as `ICalendarText.unfold` does (a line break, CR LF or
    /// LF, before a space or tab is no break), holds `X-MOZ-` in any case: without it `read`
    /// finds nothing. One pass over the bytes.
    static func mentionsMozillaProperty(_ data: Data) -> Bool {
        let wanted: StaticString = "X-MOZ-"
        return wanted.withUTF8Buffer { wanted in
            data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                func isBlank(_ index: Int) -> Bool { index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) }
                var matched = 0
                var index = 0
                while index < bytes.count {
                    if bytes[index] == 0x0A, isBlank(index + 1) {
                        index += 2
                        continue
                    }
                    if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A, isBlank(index + 2) {
                        index += 3
                        continue
                    }
                    var byte = bytes[index]
                    if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { byte -= 0x20 }
                    if byte == wanted[matched] {
                        matched += 1
                        if matched == wanted.count { return true }
                    } else {
                        // "X" starts the word and appears nowhere else in it.
                        matched = byte == wanted[0] ? 1 : 0
                    }
                    index += 1
                }
                return false
            }
        }
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
