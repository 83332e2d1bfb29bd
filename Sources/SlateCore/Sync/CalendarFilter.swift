import Foundation

/// A CalDAV `calendar-query` filter (RFC 4791 §9.7): nested component filters with
/// property and parameter tests, evaluated on a resource's iCalendar text.
public struct CalendarFilter: Sendable {
    /// `comp-filter`: a component of this name exists (or, with `isNotDefined`, does not)
    /// and satisfies every test.
    public struct Component: Sendable {
        public var name: String
        public var isNotDefined = false
        public var timeRange: TimeRange?
        public var properties: [Property] = []
        public var components: [Component] = []

        public init(name: String) { self.name = name.uppercased() }

        /// The components whose time-range is answered.
        static let timed: Set<String> = ["VTODO", "VALARM", "VEVENT", "VJOURNAL", "VFREEBUSY"]

        /// True when the filter tests nothing but the component's presence (every task passes
        /// a bare VTODO filter). A nested comp-filter is a test even when bare: the component
        /// it names must exist (a VALARM, say).
        var isBare: Bool { !isNotDefined && timeRange == nil && properties.isEmpty && components.isEmpty }

        /// The first test here or below that this server does not evaluate, described; nil
        /// when every one is. A time-range is evaluated on VTODO (RFC 4791 §9.9's table) and on
        /// a VTODO's VALARM (its trigger times, §9.9); on VEVENT, VJOURNAL and VFREEBUSY it is
        /// answered rightly too, as Slate stores none (nothing matches). Elsewhere (VCALENDAR,
        /// VTIMEZONE and its observances, X- components) it is refused.
        func unsupported(inside parent: String?) -> String? {
            if timeRange != nil, parent == nil || !Self.timed.contains(name) {
                return "a time-range on \(name)\(parent.map { " inside \($0)" } ?? "") (time ranges are tested on VTODO and on a VTODO's VALARM)"
            }
            return components.lazy.compactMap { $0.unsupported(inside: self.name) }.first
        }
    }

    /// `prop-filter`.
    public struct Property: Sendable {
        public var name: String
        public var isNotDefined = false
        public var timeRange: TimeRange?
        public var textMatch: TextMatch?
        public var parameters: [Parameter] = []

        public init(name: String) { self.name = name.uppercased() }
    }

    /// `param-filter`.
    public struct Parameter: Sendable {
        public var name: String
        public var isNotDefined = false
        public var textMatch: TextMatch?

        public init(name: String) { self.name = name.uppercased() }
    }

    /// `text-match`: a substring, compared without case unless the collation is `i;octet`.
    public struct TextMatch: Sendable {
        public var text: String
        public var isNegated = false
        public var isCaseSensitive = false

        public init(text: String, isNegated: Bool = false, isCaseSensitive: Bool = false) {
            self.text = text
            self.isNegated = isNegated
            self.isCaseSensitive = isCaseSensitive
        }

        func matches(_ value: String) -> Bool {
            let found = isCaseSensitive ? value.contains(text) : value.range(of: text, options: .caseInsensitive) != nil
            return found != isNegated
        }
    }

    /// `time-range`: either end may be open.
    public struct TimeRange: Sendable {
        public var start: Date?
        public var end: Date?

        public init(start: Date?, end: Date?) {
            self.start = start
            self.end = end
        }
    }

    /// The filter's top `comp-filter` (VCALENDAR).
    public var root: Component

    public init(root: Component) { self.root = root }

    /// True when no test needs the resource's text: VCALENDAR with at most bare VTODO filters
    /// (every object of the collection matches).
    public var isBare: Bool {
        root.name == "VCALENDAR" && !root.isNotDefined && root.timeRange == nil && root.properties.isEmpty
            && root.components.allSatisfy { $0.name == "VTODO" && $0.isBare }
    }

    /// The first test this server does not evaluate, described (a query holding one is refused
    /// with CALDAV:supported-filter, never answered as if the test was absent); nil when none.
    public var unsupportedTest: String? { root.unsupported(inside: nil) }

    /// True when the text satisfies the filter.
    func matches(_ data: Data, calendar: Calendar) -> Bool {
        guard let roots = try? ICalendarText.parse(data) else { return false }
        let found = roots.filter { $0.name == root.name }
        if root.isNotDefined { return found.isEmpty }
        return found.contains { matches($0, root, calendar: calendar, zones: CalendarTimeZones($0)) }
    }

    /// `overridden`: the instances that RECURRENCE-ID overrides beside `component` replace.
    /// `parent`: the component `component` is inside (a VALARM's VTODO).
    private func matches(_ component: ICalendarComponent, _ filter: Component, calendar: Calendar, zones: CalendarTimeZones,
                         overridden: [Date] = [], parent: ICalendarComponent? = nil) -> Bool {
        if let range = filter.timeRange {
            let overlaps = if component.name == "VALARM", let parent {
                CalendarAlarmRange.overlaps(component, of: parent, range, calendar: calendar, zones: zones, overridden: overridden)
            } else {
                CalendarTimeRange.overlaps(component, range, calendar: calendar, zones: zones, overridden: overridden)
            }
            if !overlaps { return false }
        }
        for property in filter.properties where !matches(component.properties(property.name), property, calendar: calendar, zones: zones) {
            return false
        }
        for child in filter.components {
            let found = component.components.filter { $0.name == child.name }
            if child.isNotDefined {
                if !found.isEmpty { return false }
            } else if !found.contains(where: {
                matches($0, child, calendar: calendar, zones: zones,
                        // A VALARM's instances are its VTODO's: those its overrides replace are left out.
                        overridden: child.name == "VALARM" ? overridden : Self.overrides(of: $0, among: found, calendar: calendar, zones: zones),
                        parent: component)
            }) {
                return false
            }
        }
        return true
    }

    /// The RECURRENCE-IDs of the overrides of `master` (same UID) among `siblings`.
    private static func overrides(of master: ICalendarComponent, among siblings: [ICalendarComponent], calendar: Calendar,
                                  zones: CalendarTimeZones) -> [Date] {
        guard siblings.count > 1, master.property("RECURRENCE-ID") == nil, let uid = master.property("UID")?.value else { return [] }
        return siblings.compactMap { sibling in
            guard sibling.property("UID")?.value == uid, let id = sibling.property("RECURRENCE-ID") else { return nil }
            return try? VTodoContent.date(id, calendar: calendar, zones: zones).0
        }
    }

    private func matches(_ properties: [ICalendarProperty], _ filter: Property, calendar: Calendar, zones: CalendarTimeZones) -> Bool {
        if filter.isNotDefined { return properties.isEmpty }
        return properties.contains { property in
            if let range = filter.timeRange {
                guard let (date, _) = try? VTodoContent.date(property, calendar: calendar, zones: zones),
                      range.start.map({ date >= $0 }) ?? true, range.end.map({ date < $0 }) ?? true else { return false }
            }
            if let match = filter.textMatch, !match.matches(ICalendarText.unescape(property.value)) { return false }
            for parameter in filter.parameters {
                let value = property.parameter(parameter.name)
                if parameter.isNotDefined { if value != nil { return false } else { continue } }
                guard let value else { return false }
                if let match = parameter.textMatch, !match.matches(value) { return false }
            }
            return true
        }
    }
}

/// RFC 4791 §9.9: when a VTODO overlaps a time range, from whichever of DTSTART,
/// DURATION, DUE, COMPLETED and CREATED it has; a repeating one when one of its instances
/// does (see `CalendarRecurrenceRange`, which says how far it expands).
enum CalendarTimeRange {
    /// `overridden`: the starts of the instances that RECURRENCE-ID overrides beside this
    /// VTODO replace (they are tested on their own).
    static func overlaps(_ component: ICalendarComponent, _ range: CalendarFilter.TimeRange, calendar: Calendar,
                         zones: CalendarTimeZones = .none, overridden: [Date] = []) -> Bool {
        let start = range.start ?? .distantPast
        let end = range.end ?? .distantFuture
        func date(_ name: String) -> Date? {
            component.property(name).flatMap { try? VTodoContent.date($0, calendar: calendar, zones: zones).0 }
        }
        guard component.name == "VTODO" else {
            // Other components (VALARM): by their start, if any.
            guard let moment = date("DTSTART") else { return true }
            return start <= moment && end > moment
        }
        if let series = Series(component, calendar: calendar, zones: zones, overridden: overridden) {
            return series.anyInstance(in: range)
        }
        let duration = component.property("DURATION").flatMap { BasicDate.parseDuration($0.value.trimmingCharacters(in: .whitespaces)) }
            .map { TimeInterval($0) }
        return table(start, end, dtstart: date("DTSTART"), due: date("DUE"), duration: duration, completed: date("COMPLETED"),
                     created: date("CREATED"))
    }

    /// RFC 4791 §9.9's VTODO table.
    static func table(_ start: Date, _ end: Date, dtstart: Date?, due: Date?, duration: TimeInterval?,
                      completed: Date?, created: Date?) -> Bool {
        if let dtstart, let duration {
            let finish = dtstart.addingTimeInterval(duration)
            return start <= finish && (end > dtstart || end >= finish)
        }
        if let dtstart, let due { return (start < due || start <= dtstart) && (end > dtstart || end >= due) }
        if let dtstart { return start <= dtstart && end > dtstart }
        if let due { return start < due && end >= due }
        if let completed, let created {
            return (start <= created || start <= completed) && (end >= created || end >= completed)
        }
        if let completed { return start <= completed && end >= completed }
        if let created { return end > created }
        return true
    }

    /// The calendar a rule steps in: its start's zone (wall-clock times repeat across DST),
    /// UTC for a UTC start, else the server's.
    static func ruleCalendar(_ component: ICalendarComponent, _ calendar: Calendar) -> Calendar {
        guard let property = component.property("DTSTART") ?? component.property("DUE") else { return calendar }
        var stepping = calendar
        if property.value.uppercased().hasSuffix("Z") {
            stepping.timeZone = TimeZone(identifier: "UTC")!
        } else if let tzid = property.parameter("TZID"), let zone = CalendarTimeZones.knownZone(tzid) {
            stepping.timeZone = zone
        }
        return stepping
    }

    /// The dates of RDATE or EXDATE lines (comma-separated values; PERIOD values by their start).
    static func dates(_ properties: [ICalendarProperty], calendar: Calendar, zones: CalendarTimeZones) -> [Date] {
        properties.flatMap { property in
            property.value.split(separator: ",").compactMap { value -> Date? in
                var single = property
                single.value = String(value.split(separator: "/").first ?? value)
                return try? VTodoContent.date(single, calendar: calendar, zones: zones).0
            }
        }
    }
}

extension Slate {
    /// The objects of a collection that satisfy `filter`, each with its text.
    public func calendarObjects(in collection: CalendarCollectionID, matching filter: CalendarFilter) throws -> [CalendarObject] {
        let objects = try calendarObjects(in: collection)
        if filter.isBare { return objects }
        return try objects.filter { filter.matches(try calendarData(of: $0), calendar: calendar) }
    }
}
