import Foundation

/// Rewriting a stored VTODO's alarms when a task's alerts change in Slate (web app, CLI,
/// API): only VALARM components are touched, and only those Slate models.
///
/// - A VALARM that is one of the task's alerts still is kept byte for byte (its UID,
///   `X-MOZ-LASTACK`, `X-WR-ALARMUID`, folding, everything).
/// - A VALARM Slate does not model stays too: acknowledged ones (`ACKNOWLEDGED`), Apple's
///   location alarms (`X-APPLE-PROXIMITY`, the 1976 sentinel trigger), ones it cannot read.
/// - A VALARM whose alert was removed in Slate goes, every line of it.
/// - An alert added in Slate becomes a new VALARM before the VTODO's END line, written as
///   the iCalendar export writes it.
///
/// Only the master VTODO's alarms are rewritten; a RECURRENCE-ID override's are left as
/// stored, by decision (OverrideAlarmTests):
/// - The series' due date moving in Slate does not move an override: the override carries
///   its own DUE, which stays, so its alarms (relative to that DUE, or absolute moments of
///   that one occurrence) still fire when the client set them to.
/// - The override's own due date moving in Slate (the override of a completed occurrence,
///   a task of its own) rewrites its DUE but not its alarms. The occurrence's task takes no
///   alerts from the override's VALARMs (`applyOverrides`), and alerts are not among the
///   fields an override takes from Slate (`VTodoRendering.occurrenceFields`): there is no
///   alert of Slate's for them to follow, and Slate fires none for a completed task.
///   Rewriting them would change the client's bytes for nothing it could check.
enum VTodoAlarms {
    typealias Edit = (at: Int, remove: [Int], insert: [String])

    /// The edits that bring the main VTODO's alarms in `data` to `task.alerts`, given the
    /// start the rewritten VTODO has (`start`, for triggers relative to it). `basis` is the
    /// task as the stored bytes say: each VALARM is matched to an alert as read then.
    static func edits(_ data: Data, lines: ContentLines, basis: TaskItem, task: TaskItem, start: Date?,
                      calendar: Calendar, crlf: Bool) -> [Edit] {
        guard let roots = try? ICalendarText.parse(data), let root = roots.first,
              let range = lines.mainTodoRange() else { return [] }
        let zones = CalendarTimeZones(root)
        let todos = root.components.filter { $0.name == "VTODO" }
        guard let master = todos.first(where: { $0.property("RECURRENCE-ID") == nil }) ?? todos.first else { return [] }
        // Read as Slate reads them (start-relative triggers from DTSTART); fired as clients fire the originals.
        let originals = master.components.filter { $0.name == "VALARM" }
        let stored = VTodoAlarmReading.anchored(master, calendar: calendar, zones: zones).components.filter { $0.name == "VALARM" }
        let ranges = lines.componentRanges(named: "VALARM", within: range)
        guard stored.count == ranges.count else { return [] }   // not the same reading: touch nothing
        let moment = { (property: ICalendarProperty) in try VTodoContent.date(property, calendar: calendar, zones: zones).0 }
        func text(_ alerts: [TaskAlert]) -> [[String]] {
            var added = task
            added.alerts = alerts
            return ICalendarAlarms.components(for: added, calendar: calendar).map { alarm in
                alarm.map { ICalendarText.line($0.name, $0.parameters, $0.value) }
                    .map { crlf ? $0 : $0.replacingOccurrences(of: "\r\n", with: "\n") }
            }
        }

        var wanted = task.alerts
        var edits: [Edit] = []
        for ((alarm, original), lineRange) in zip(zip(stored, originals), ranges) {
            guard let alert = try? ICalendarAlarms.alert(of: alarm, due: basis.due(in: calendar), moment: moment) else {
                continue                                // not modelled (or unreadable): kept
            }
            guard let index = wanted.firstIndex(of: alert) else {
                edits.append((lineRange.lowerBound, Array(lineRange), []))
                continue
            }
            wanted.remove(at: index)
            // Still an alert: kept, but its TRIGGER must fire when Slate's alert does.
            guard let slate = alert.fireDate(due: task.due(in: calendar), calendar: calendar),
                  let trigger = original.property("TRIGGER"),
                  let line = lineRange.first(where: { lines.names[$0] == "TRIGGER" && lines.depths[$0] == lines.depths[lineRange.lowerBound] + 1 })
            else { continue }
            let client = fireDate(of: trigger, due: task.due(in: calendar), start: start, moment: moment)
            if client.map({ abs($0.timeIntervalSince(slate)) < 1 }) == true { continue }
            guard let own = text([alert]).first?.first(where: { $0.hasPrefix("TRIGGER") }) else { continue }
            edits.append((line, [line], [own]))
        }
        if !wanted.isEmpty {
            edits.append((range.upperBound, [], text(wanted).flatMap { $0 }))
        }
        return edits
    }

    /// When a client fires a VALARM's TRIGGER for a VTODO due at `due` starting at `start`:
    /// a DATE-TIME at that moment; a duration from the due date (`RELATED=END`) or from the
    /// start (RFC 5545's default; the due date when there is no DTSTART).
    static func fireDate(of trigger: ICalendarProperty, due: Date?, start: Date?, moment: (ICalendarProperty) throws -> Date) -> Date? {
        let value = trigger.value.trimmingCharacters(in: .whitespaces)
        if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" || !value.uppercased().contains("P") {
            return try? moment(trigger)
        }
        guard let seconds = BasicDate.parseDuration(value) else { return nil }
        let anchor = trigger.parameter("RELATED")?.uppercased() == "END" ? due : (start ?? due)
        return anchor?.addingTimeInterval(Double(seconds))
    }
}

extension ContentLines {
    /// The BEGIN and END lines of the main VTODO (the first without RECURRENCE-ID).
    func mainTodoRange() -> ClosedRange<Int>? {
        var first: ClosedRange<Int>?
        var index = 0
        while index < raw.count {
            if names[index] == "BEGIN", value(index) == "VTODO" {
                var end = index + 1
                var isOverride = false
                while end < raw.count, !(names[end] == "END" && depths[end] == depths[index]) {
                    if names[end] == "RECURRENCE-ID", depths[end] == depths[index] + 1 { isOverride = true }
                    end += 1
                }
                guard end < raw.count else { return first }
                if !isOverride { return index...end }
                if first == nil { first = index...end }
                index = end
            }
            index += 1
        }
        return first
    }

    /// The BEGIN…END line ranges of the components named `name` directly inside `range`.
    func componentRanges(named name: String, within range: ClosedRange<Int>) -> [ClosedRange<Int>] {
        let depth = depths[range.lowerBound] + 1
        var found: [ClosedRange<Int>] = []
        var index = range.lowerBound + 1
        while index < range.upperBound {
            if names[index] == "BEGIN", depths[index] == depth, value(index) == name {
                var end = index + 1
                while end < range.upperBound, !(names[end] == "END" && depths[end] == depth) { end += 1 }
                found.append(index...end)
                index = end
            }
            index += 1
        }
        return found
    }
}
