import Foundation

/// What Slate reads from a calendar object a CalDAV client stores: its UID and the task
/// fields of its VTODO (the one without RECURRENCE-ID when overrides come along).
///
/// Mapping: SUMMARY → title, DESCRIPTION → notes, PRIORITY 1–4 high, 5 medium, 6–9 low
/// (`X-SLATE-PRIORITY` keeps Slate's own level, such as critical), DUE (date or date-time,
/// UTC, floating or with TZID) → due, STATUS COMPLETED or CANCELLED / COMPLETED →
/// completion, CATEGORIES → tags, `RELATED-TO;RELTYPE=PARENT` → the parent's UID, RRULE
/// FREQ/INTERVAL → repeats, `X-APPLE-SORT-ORDER` → manual order, `X-SLATE-FLAGGED` → flag.
/// Anything else stays in the stored bytes only.
struct VTodoContent: Sendable {
    var uid: String
    var title: String
    var notes: String
    var priority: Priority
    var due: Date?
    var isAllDay: Bool
    var isCompleted: Bool
    var completedAt: Date?
    var tags: [String]
    var parentUID: String?
    var recurrence: Recurrence?
    var order: Double?
    /// Nil when the object does not say (X-SLATE-FLAGGED absent).
    var isFlagged: Bool?
    /// The time alarms (VALARM) as alerts; acknowledged and location alarms are not among
    /// them, and an alarm Slate cannot read is left to the client (its bytes are kept).
    var alerts: [TaskAlert] = []
    /// DTSTART, when it reads: the start an occurrence's RECURRENCE-ID names.
    var start: Date?
    /// The VTODOs with RECURRENCE-ID: occurrences changed on their own (Thunderbird, jtx Board).
    var overrides: [VTodoOverride] = []

    /// Reads `data`, or throws `CalendarObjectError` naming what is wrong.
    static func read(_ data: Data, calendar: Calendar) throws -> VTodoContent {
        guard data.count <= CalendarLimits.maximumResourceSize else { throw CalendarObjectError.tooLarge(data.count) }
        let roots: [ICalendarComponent]
        do {
            roots = try ICalendarText.parse(data)
        } catch let error as ImportError {
            throw CalendarObjectError.invalidData("The calendar object is not valid iCalendar: \(error.description)")
        }
        guard roots.count == 1, let root = roots.first, root.name == "VCALENDAR" else {
            throw CalendarObjectError.invalidData("The body must be one BEGIN:VCALENDAR … END:VCALENDAR.")
        }
        let count = root.components.reduce(0) { $0 + 1 + $1.components.count }
        guard count <= CalendarLimits.maximumComponents else {
            throw CalendarObjectError.invalidData("The calendar object has \(count) components; at most \(CalendarLimits.maximumComponents) are accepted.")
        }
        if let other = root.components.first(where: { ["VEVENT", "VJOURNAL", "VFREEBUSY"].contains($0.name) }) {
            throw CalendarObjectError.unsupportedComponent("Slate's collections hold tasks (VTODO) only; this object holds a \(other.name).")
        }
        let todos = root.components.filter { $0.name == "VTODO" }
        guard let master = todos.first(where: { $0.property("RECURRENCE-ID") == nil }) ?? todos.first else {
            throw CalendarObjectError.invalidData("The calendar object holds no VTODO.")
        }
        guard let uid = master.property("UID")?.value, !uid.isEmpty else {
            throw CalendarObjectError.invalidData("The VTODO has no UID (line \(master.line)).")
        }
        guard todos.allSatisfy({ $0.property("UID")?.value == uid }) else {
            throw CalendarObjectError.invalidData("Every VTODO of one calendar object must have the same UID (\(uid)).")
        }
        let zones = CalendarTimeZones(root)
        var content = try content(of: master, uid: uid, calendar: calendar, zones: zones)
        for todo in todos where todo.property("RECURRENCE-ID") != nil {
            let property = todo.property("RECURRENCE-ID")!
            let (occurrence, isDay) = try date(property, calendar: calendar, zones: zones)
            var own = try self.content(of: todo, uid: uid, calendar: calendar, zones: zones)
            if todo.property("SUMMARY") == nil { own.title = content.title }
            if todo.property("DUE") == nil, let due = content.due {
                // The occurrence's due: its start moved as the master's due is from the master's start.
                own.due = occurrence.addingTimeInterval(due.timeIntervalSince(content.start ?? due))
                own.isAllDay = content.isAllDay
            }
            content.overrides.append(VTodoOverride(key: VTodoOverride.key(occurrence, isDay: isDay, calendar: calendar),
                                                   occurrence: occurrence, content: own))
        }
        return content
    }

    private static func content(of todo: ICalendarComponent, uid: String, calendar: Calendar, zones: CalendarTimeZones) throws -> VTodoContent {
        func invalid(_ property: ICalendarProperty, _ rule: String) -> CalendarObjectError {
            .invalidData("\(property.name) (line \(property.line)) \(rule); got '\(property.value.prefix(80))'.")
        }
        func valid<T>(_ property: ICalendarProperty?, _ body: () throws -> T) throws -> T {
            do { return try body() } catch let error as SlateError {
                throw CalendarObjectError.invalidData("\(property?.name ?? "VTODO") (line \(property?.line ?? todo.line)): \(error.description)")
            }
        }
        let summary = todo.property("SUMMARY")
        let rawTitle = summary.map { ICalendarText.unescape($0.value) } ?? ""
        let title = rawTitle.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? untitled
            : try valid(summary) { try TaskRules.validTitle(rawTitle, field: "SUMMARY") }
        let description = todo.property("DESCRIPTION")
        let notes = try valid(description) { try TaskRules.validNotes(description.map { ICalendarText.unescape($0.value) } ?? "") }

        var priority = Priority.none
        if let property = todo.property("PRIORITY") {
            guard let value = Int(property.value.trimmingCharacters(in: .whitespaces)), (0...9).contains(value) else {
                throw invalid(property, "must be a number from 0 to 9")
            }
            priority = switch value { case 1...4: .high; case 5: .medium; case 6...9: .low; default: .none }
        }
        if let property = todo.property("X-SLATE-PRIORITY"), let own = Priority(name: property.value.trimmingCharacters(in: .whitespaces)),
           own == .critical, priority == .high {
            priority = .critical
        }
        var due: Date?
        var isAllDay = false
        if let property = todo.property("DUE") {
            (due, isAllDay) = try date(property, calendar: calendar, zones: zones)
        }
        let status = todo.property("STATUS")?.value.trimmingCharacters(in: .whitespaces).uppercased()
        let completedProperty = todo.property("COMPLETED")
        let completed = try completedProperty.map { try date($0, calendar: calendar, zones: zones).0 }
        let isCompleted = status.map { $0 == "COMPLETED" || $0 == "CANCELLED" } ?? (completed != nil)

        let categories = todo.properties("CATEGORIES")
        let tags = try valid(categories.first) { try TaskRules.validTags(categories.flatMap { ICalendarText.unescapeList($0.value) }) }
        let parent = todo.properties("RELATED-TO").first { ($0.parameter("RELTYPE") ?? "PARENT").uppercased() == "PARENT" }
        var order: Double?
        if let property = todo.property("X-APPLE-SORT-ORDER") {
            guard let value = Double(property.value.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                throw invalid(property, "must be a number")
            }
            order = value
        }
        let flag = todo.property("X-SLATE-FLAGGED")?.value.trimmingCharacters(in: .whitespaces).uppercased()
        return VTodoContent(
            uid: uid, title: title, notes: notes, priority: priority, due: due, isAllDay: isAllDay,
            isCompleted: isCompleted, completedAt: isCompleted ? completed : nil, tags: tags,
            parentUID: parent.map(\.value).flatMap { $0.isEmpty ? nil : $0 },
            recurrence: todo.property("RRULE").flatMap(recurrence), order: order,
            isFlagged: flag.map { $0 == "TRUE" || $0 == "YES" || $0 == "1" },
            alerts: (try? ICalendarAlarms.alerts(in: VTodoAlarmReading.anchored(todo, calendar: calendar, zones: zones), due: due) {
                try date($0, calendar: calendar, zones: zones).0
            }) ?? [],
            start: todo.property("DTSTART").flatMap { try? date($0, calendar: calendar, zones: zones).0 })
    }

    /// The title of a VTODO without a SUMMARY (Slate's titles are never blank).
    static let untitled = "Untitled"

    /// A DATE or DATE-TIME value: the start of the day (all-day) or the moment. A TZID is
    /// read as `CalendarTimeZones` says (a known zone, else the object's VTIMEZONE, else
    /// refused); a time without TZID or Z is floating, read in `calendar`'s zone.
    static func date(_ property: ICalendarProperty, calendar: Calendar, zones: CalendarTimeZones = .none) throws -> (Date, Bool) {
        let value = property.value.trimmingCharacters(in: .whitespaces)
        if property.parameter("VALUE")?.uppercased() == "DATE" || (value.count == 8 && !value.utf8.contains(UInt8(ascii: "T"))) {
            guard let day = BasicDate.parseDay(value, calendar: calendar) else {
                throw CalendarObjectError.invalidData("\(property.name) (line \(property.line)) is not a date (YYYYMMDD); got '\(value.prefix(40))'.")
            }
            return (day, true)
        }
        guard BasicDate.parseMoment(value, local: calendar) != nil else {
            throw CalendarObjectError.invalidData("\(property.name) (line \(property.line)) is not a date-time (YYYYMMDDTHHMMSS, Z for UTC); got '\(value.prefix(40))'.")
        }
        if let tzid = property.parameter("TZID"), !value.uppercased().hasSuffix("Z") {
            guard let moment = zones.moment(value, tzid: tzid) else {
                throw CalendarObjectError.invalidData("\(property.name) (line \(property.line)) names the time zone '\(tzid.prefix(80))', "
                    + "which is neither a zone this server knows (such as Europe/Paris) nor defined by a VTIMEZONE in the object.")
            }
            return (moment, false)
        }
        return (BasicDate.parseMoment(value, local: calendar)!, false)
    }

    /// `FREQ=WEEKLY;INTERVAL=2` → every 2 weeks; a BYMONTHDAY Slate has a form for gives
    /// the day of the month (`BYMONTHDAY=-1`: the last day; see `Recurrence+RRULE.swift`).
    /// Rules Slate cannot hold (hourly, an interval beyond 1000) read as no repeat; the stored
    /// bytes keep them.
    static func recurrence(_ property: ICalendarProperty) -> Recurrence? {
        let parts = Recurrence.rruleParts(property.value)
        guard let frequency = parts["FREQ"].flatMap({ Recurrence.Frequency(rawValue: $0.lowercased()) }) else { return nil }
        let interval = parts["INTERVAL"].flatMap { Int($0) } ?? 1
        guard (1...1000).contains(interval) else { return nil }
        return Recurrence(frequency, interval: interval, dayOfMonth: Recurrence.dayOfMonth(inRule: parts, frequency: frequency))
    }
}

/// One occurrence of a repeating VTODO changed on its own: a VTODO of the same UID with a
/// RECURRENCE-ID (Thunderbird and jtx Board complete an occurrence this way).
struct VTodoOverride: Sendable {
    /// The RECURRENCE-ID as a key that survives re-encoding: `20261208` for a date,
    /// `20261208T090000Z` (UTC) for a moment.
    var key: String
    /// The start of the occurrence it replaces.
    var occurrence: Date
    /// Its own fields (a missing SUMMARY is the master's).
    var content: VTodoContent

    static func key(_ date: Date, isDay: Bool, calendar: Calendar) -> String {
        isDay ? BasicDate.formatDay(date, calendar: calendar) : BasicDate.formatUTC(date)
    }
}
