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

        /// True when no test looks inside the component (every task passes a bare VTODO filter).
        var isBare: Bool { !isNotDefined && timeRange == nil && properties.isEmpty && components.allSatisfy(\.isBare) }
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

    /// True when no test needs the resource's text.
    var isBare: Bool { root.name == "VCALENDAR" && root.isBare && root.components.allSatisfy { $0.name == "VTODO" } }

    /// True when the text satisfies the filter.
    func matches(_ data: Data, calendar: Calendar) -> Bool {
        guard let roots = try? ICalendarText.parse(data) else { return false }
        let found = roots.filter { $0.name == root.name }
        if root.isNotDefined { return found.isEmpty }
        return found.contains { matches($0, root, calendar: calendar, zones: CalendarTimeZones($0)) }
    }

    private func matches(_ component: ICalendarComponent, _ filter: Component, calendar: Calendar, zones: CalendarTimeZones) -> Bool {
        if let range = filter.timeRange, !CalendarTimeRange.overlaps(component, range, calendar: calendar, zones: zones) { return false }
        for property in filter.properties where !matches(component.properties(property.name), property, calendar: calendar, zones: zones) {
            return false
        }
        for child in filter.components {
            let found = component.components.filter { $0.name == child.name }
            if child.isNotDefined {
                if !found.isEmpty { return false }
            } else if !found.contains(where: { matches($0, child, calendar: calendar, zones: zones) }) {
                return false
            }
        }
        return true
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
/// DURATION, DUE, COMPLETED and CREATED it has.
enum CalendarTimeRange {
    static func overlaps(_ component: ICalendarComponent, _ range: CalendarFilter.TimeRange, calendar: Calendar,
                         zones: CalendarTimeZones = .none) -> Bool {
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
        let dtstart = date("DTSTART")
        let due = date("DUE")
        let duration = component.property("DURATION").flatMap { BasicDate.parseDuration($0.value.trimmingCharacters(in: .whitespaces)) }
        let completed = date("COMPLETED")
        let created = date("CREATED")
        if let dtstart, let duration {
            let finish = dtstart.addingTimeInterval(TimeInterval(duration))
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
}

extension Slate {
    /// The objects of a collection that satisfy `filter`, each with its text.
    public func calendarObjects(in collection: CalendarCollectionID, matching filter: CalendarFilter) throws -> [CalendarObject] {
        let objects = try calendarObjects(in: collection)
        if filter.isBare { return objects }
        return try objects.filter { filter.matches(try calendarData(of: $0), calendar: calendar) }
    }
}
