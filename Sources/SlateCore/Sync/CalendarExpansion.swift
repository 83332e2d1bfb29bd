import Foundation

/// CALDAV:expand (RFC 4791 §9.6.5): calendar data with each repeating VTODO replaced by
/// one VTODO per instance that overlaps [start, end), decided as a time-range query decides
/// it (`CalendarTimeRange`, RFC 4791 §9.9).
///
/// Each instance is the master VTODO with DTSTART (or, without one, DUE) moved to the
/// instance and DUE moved with it, a RECURRENCE-ID naming the instance (UTC, or a DATE for
/// an all-day task), and no RRULE, RDATE, EXDATE or EXRULE. An instance that a
/// RECURRENCE-ID override replaces is that override, with its own properties, when the
/// override overlaps the range. Times are written in UTC and VTIMEZONE components are left
/// out (a value in a zone no one can read is kept as it is, with its VTIMEZONE). A VTODO that
/// does not repeat is returned with its times in UTC, whether or not it overlaps the range.
///
/// **Bound.** At most `CalendarRecurrenceRange.maximumInstances` (1,000) instances of a
/// series are examined, from the first that can reach the range, so at most that many are
/// returned per resource: past them, the rest of a long range is left out. A series whose
/// rule has parts the expansion does not follow (BYMONTHDAY, BYSETPOS, ordinal BYDAY, …;
/// see `CalendarRecurrenceRange`) cannot be listed instance by instance: that resource is
/// returned as stored, RRULE and all, for the client to expand.
public struct CalendarExpansion: Sendable, Equatable {
    /// The inclusive start of the range.
    public var start: Date
    /// The exclusive end of the range, later than `start`.
    public var end: Date

    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }

    /// `data` expanded; `data` itself when it is not one VCALENDAR this server can read, or
    /// when a series in it is not expanded (see the bound above).
    public func expanded(_ data: Data, calendar: Calendar) -> Data {
        guard let roots = try? ICalendarText.parse(data), roots.count == 1, roots[0].name == "VCALENDAR" else { return data }
        var root = roots[0]
        let zones = CalendarTimeZones(root)
        let range = CalendarFilter.TimeRange(start: start, end: end)
        let todos = root.components.filter { $0.name == "VTODO" }
        var output: [ICalendarComponent] = []
        for todo in todos {
            if todo.property("RECURRENCE-ID") != nil {
                // An override: where it now is, on its own.
                guard CalendarTimeRange.overlaps(todo, range, calendar: calendar, zones: zones) else { continue }
                output.append(Self.inUTC(Self.withoutRecurrence(todo), calendar: calendar, zones: zones))
                continue
            }
            let overridden = Self.overrides(of: todo, among: todos, calendar: calendar, zones: zones)
            guard let series = CalendarTimeRange.Series(todo, calendar: calendar, zones: zones, overridden: overridden) else {
                output.append(Self.inUTC(todo, calendar: calendar, zones: zones))
                continue
            }
            guard let starts = series.instances(in: range) else { return data }
            output += starts.map { series.instance(at: $0, of: todo, calendar: calendar, zones: zones) }
        }
        let zoned = output.contains { $0.referencesZone }
        // Times are in UTC: the VTIMEZONEs go, unless a value in a zone no one could read is left.
        root.components = root.components.filter { $0.name != "VTODO" && ($0.name != "VTIMEZONE" || zoned) } + output
        return Data(Self.text(root).utf8)
    }

    /// The RECURRENCE-IDs of the overrides of `master` (same UID) among `todos`.
    static func overrides(of master: ICalendarComponent, among todos: [ICalendarComponent], calendar: Calendar,
                          zones: CalendarTimeZones) -> [Date] {
        guard let uid = master.property("UID")?.value else { return [] }
        return todos.compactMap { todo in
            guard todo.property("UID")?.value == uid, let id = todo.property("RECURRENCE-ID") else { return nil }
            return try? VTodoContent.date(id, calendar: calendar, zones: zones).0
        }
    }

    /// The component without the properties that make a recurrence set.
    static func withoutRecurrence(_ todo: ICalendarComponent) -> ICalendarComponent {
        var todo = todo
        todo.properties.removeAll { ["RRULE", "RDATE", "EXDATE", "EXRULE"].contains($0.name) }
        return todo
    }

    /// The component with its zoned and floating date-times (DTSTART, DUE, RECURRENCE-ID, …)
    /// written in UTC; dates and values that cannot be read are kept.
    static func inUTC(_ todo: ICalendarComponent, calendar: Calendar, zones: CalendarTimeZones) -> ICalendarComponent {
        var todo = todo
        for index in todo.properties.indices {
            let property = todo.properties[index]
            let isDateProperty = ["DTSTART", "DUE", "RECURRENCE-ID"].contains(property.name) || property.parameter("TZID") != nil
            guard isDateProperty, !property.value.uppercased().hasSuffix("Z"),
                  let (moment, isDay) = try? VTodoContent.date(property, calendar: calendar, zones: zones), !isDay else { continue }
            todo.properties[index] = ICalendarProperty(property.name, property.parameters.filter { $0.name != "TZID" && $0.name != "VALUE" },
                                                       value: BasicDate.formatUTC(moment))
        }
        return todo
    }

    /// The component as iCalendar text, lines folded, CRLF.
    static func text(_ component: ICalendarComponent) -> String {
        var text = "BEGIN:\(component.name)\r\n"
        for property in component.properties {
            text += ICalendarText.line(property.name, property.parameters.map { ($0.name, $0.value) }, property.value)
        }
        for child in component.components { text += Self.text(child) }
        return text + "END:\(component.name)\r\n"
    }
}

extension ICalendarComponent {
    /// True when a property here or below still names a zone (TZID).
    var referencesZone: Bool {
        properties.contains { $0.parameter("TZID") != nil } || components.contains { $0.referencesZone }
    }
}
