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
enum VTodoAlarms {
    typealias Edit = (at: Int, remove: [Int], insert: [String])

    /// The edits that bring the main VTODO's alarms in `data` to `task.alerts`.
    static func edits(_ data: Data, lines: ContentLines, task: TaskItem, calendar: Calendar, crlf: Bool) -> [Edit] {
        guard let roots = try? ICalendarText.parse(data), let root = roots.first,
              let range = lines.mainTodoRange() else { return [] }
        let zones = CalendarTimeZones(root)
        let todos = root.components.filter { $0.name == "VTODO" }
        guard let master = todos.first(where: { $0.property("RECURRENCE-ID") == nil }) ?? todos.first else { return [] }
        let stored = master.components.filter { $0.name == "VALARM" }
        let ranges = lines.componentRanges(named: "VALARM", within: range)
        guard stored.count == ranges.count else { return [] }   // not the same reading: touch nothing

        var wanted = task.alerts
        var edits: [Edit] = []
        for (alarm, lineRange) in zip(stored, ranges) {
            let alert = try? ICalendarAlarms.alert(of: alarm, due: task.due) {
                try VTodoContent.date($0, calendar: calendar, zones: zones).0
            }
            guard let alert else { continue }           // not modelled (or unreadable): kept
            if let index = wanted.firstIndex(of: alert) {
                wanted.remove(at: index)                // still an alert: kept as it is
            } else {
                edits.append((lineRange.lowerBound, Array(lineRange), []))
            }
        }
        if !wanted.isEmpty {
            var added = task
            added.alerts = wanted
            var text = ICalendarAlarms.components(for: added, calendar: calendar)
                .flatMap { $0 }.map { ICalendarText.line($0.name, $0.parameters, $0.value) }
            if !crlf { text = text.map { $0.replacingOccurrences(of: "\r\n", with: "\n") } }
            edits.append((range.upperBound, [], text))
        }
        return edits
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
