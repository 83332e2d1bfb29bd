import Foundation

/// Rewriting a stored VTODO's DUE and DTSTART when the due date changes in Slate, so that
/// what is served stays a valid VTODO (RFC 5545 §3.6.2: DTSTART and DUE of one value type,
/// DTSTART ≤ DUE) and keeps the client's own forms:
///
/// - DUE is written in the form the client used: a date, UTC, floating, or its `TZID`
///   text as sent (`/mozilla.org/20070129_1/Europe/Berlin`, `W. Europe Standard Time`)
///   while that zone — Foundation's or the object's VTIMEZONE — still reads the new time
///   back exactly; otherwise UTC. The VTIMEZONE itself is never touched.
/// - DTSTART moves with DUE: by the same number of days (dates) or seconds (times), so
///   Apple's DTSTART = DUE on date-only tasks stays equal, tasks.org's start keeps its lead,
///   and a repeating series keeps each occurrence's length. When DUE changes value type,
///   DTSTART takes the new type (a start day becomes midnight of that day, a start time
///   its day), and it is never left after DUE (then it equals DUE).
/// - A date-only due without DTSTART gets `DTSTART;VALUE=DATE` on the same day, as Apple
///   writes it; a removed due takes an equal DTSTART with it and leaves any other.
enum VTodoDates {
    typealias Edit = (at: Int, remove: [Int], insert: [String])

    /// How a date property is written.
    enum Form: Equatable {
        case day, utc, floating
        /// Local time in the zone this TZID text names (kept as sent).
        case zoned(String)
    }

    /// The edits for DUE and DTSTART in `body` (line indexes of one VTODO in `lines`),
    /// whose parsed form is `todo`, and the start the rewritten VTODO has (for alarms
    /// relative to it).
    static func edits(lines: ContentLines, body: [Int], todo: ICalendarComponent?, zones: CalendarTimeZones,
                      task: TaskItem, calendar: Calendar) -> (edits: [Edit], start: Date?) {
        let dueLines = body.filter { lines.names[$0] == "DUE" }
        let startLines = body.filter { lines.names[$0] == "DTSTART" }
        let read = { (property: ICalendarProperty?) in property.flatMap { try? VTodoContent.date($0, calendar: calendar, zones: zones) } }
        let oldDue = read(todo?.property("DUE"))
        let oldStart = read(todo?.property("DTSTART"))
        let isTwin = oldDue != nil && oldStart != nil && oldDue!.0 == oldStart!.0 && oldDue!.1 == oldStart!.1
        let end = dueLines.first ?? startLines.first ?? lines.insertionPoint(body)

        guard let due = task.due(in: calendar) else {
            let remove = dueLines + (isTwin ? startLines : [])
            return ([(end, remove, [])], isTwin ? nil : oldStart?.0)
        }
        let dueForm = task.isAllDay ? Form.day
            : timedForm(todo?.property("DUE"), fallback: todo?.property("DTSTART"), moment: due, zones: zones, calendar: calendar)
        guard let dueLine = line("DUE", due, form: dueForm, zones: zones, calendar: calendar) else { return ([], oldStart?.0) }
        var edits: [Edit] = []
        var start: Date?

        if case let (oldMoment, oldIsDay)? = oldStart {
            var moment: Date
            var form: Form
            if isTwin {
                (moment, form) = (due, dueForm)
            } else if oldIsDay == task.isAllDay, let before = oldDue?.0, oldDue?.1 == task.isAllDay {
                // Same value type: the start keeps its distance from the due date.
                moment = shifted(oldMoment, from: before, to: due, byDays: task.isAllDay, calendar: calendar)
                form = task.isAllDay ? .day
                    : timedForm(todo?.property("DTSTART"), fallback: nil, moment: moment, zones: zones, calendar: calendar)
            } else if task.isAllDay {
                (moment, form) = (calendar.startOfDay(for: oldMoment), .day)
            } else {
                // A start day under a timed due: midnight of that day, in the due's zone.
                moment = oldMoment
                form = dueForm
                if oldIsDay, case .zoned(let tzid) = dueForm,
                   let midnight = zones.moment(BasicDate.formatDay(oldMoment, calendar: calendar) + "T000000", tzid: tzid) {
                    moment = midnight
                }
            }
            if moment > due { (moment, form) = (due, dueForm) }
            start = moment
            let unchanged = oldIsDay == task.isAllDay && moment == oldMoment
            if !unchanged, let text = line("DTSTART", moment, form: form, zones: zones, calendar: calendar) {
                edits.append((startLines.first ?? end, startLines, [text]))
            }
        } else if task.isAllDay, let text = line("DTSTART", due, form: .day, zones: zones, calendar: calendar) {
            start = due
            edits.append((end, [], [text]))
        }
        edits.append((end, dueLines, [dueLine]))
        return (edits, start)
    }

    /// `moment` moved as `before` moved to `after`: by whole days in `calendar` (dates)
    /// or by the same number of seconds.
    private static func shifted(_ moment: Date, from before: Date, to after: Date, byDays: Bool, calendar: Calendar) -> Date {
        guard byDays else { return moment.addingTimeInterval(after.timeIntervalSince(before)) }
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: before), to: calendar.startOfDay(for: after)).day ?? 0
        return calendar.date(byAdding: .day, value: days, to: moment) ?? moment
    }

    /// The form of a timed value: that of `property` (or of `fallback` when `property` is
    /// absent or a date) when its zone still writes `moment` exactly, else UTC.
    private static func timedForm(_ property: ICalendarProperty?, fallback: ICalendarProperty?, moment: Date,
                                  zones: CalendarTimeZones, calendar: Calendar) -> Form {
        for candidate in [property, fallback].compactMap({ $0 }) {
            let value = candidate.value.trimmingCharacters(in: .whitespaces)
            if candidate.parameter("VALUE")?.uppercased() == "DATE" || (value.count == 8 && !value.utf8.contains(UInt8(ascii: "T"))) { continue }
            if value.uppercased().hasSuffix("Z") { return .utc }
            guard let tzid = candidate.parameter("TZID") else { return .floating }
            guard let local = zones.localValue(moment, tzid: tzid), zones.moment(local, tzid: tzid) == moment else { return .utc }
            return .zoned(tzid)
        }
        return .utc
    }

    /// One content line (CRLF, folded) for `name` at `moment` in `form`; nil when a zone
    /// cannot write it.
    static func line(_ name: String, _ moment: Date, form: Form, zones: CalendarTimeZones, calendar: Calendar) -> String? {
        switch form {
        case .day:
            return ICalendarText.line(name, [("VALUE", "DATE")], BasicDate.formatDay(moment, calendar: calendar))
        case .utc:
            return ICalendarText.line(name, [], BasicDate.formatUTC(moment))
        case .floating:
            return ICalendarText.line(name, [], CalendarTimeZones.wallClock(moment, calendar: calendar))
        case .zoned(let tzid):
            return zones.localValue(moment, tzid: tzid).map { ICalendarText.line(name, [("TZID", tzid)], $0) }
        }
    }
}

extension CalendarTimeZones {
    /// `YYYYMMDDTHHMMSS` of `moment` on the wall clock of `calendar`'s zone.
    static func wallClock(_ moment: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: moment)
        return String(format: "%04d%02d%02dT%02d%02d%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }

    /// The local date-time (`YYYYMMDDTHHMMSS`) of `moment` in the zone `tzid` names — a
    /// zone Foundation knows, else the object's VTIMEZONE — or nil when neither does.
    func localValue(_ moment: Date, tzid: String) -> String? {
        if let zone = Self.knownZone(tzid) { return Self.wallClock(moment, calendar: BasicDate.calendar(in: zone)) }
        guard let definition = definition(tzid) else { return nil }
        // The offset at a wall time: guess it from the UTC moment, then correct once.
        guard let first = Self.offset(at: moment, in: definition),
              let offset = Self.offset(at: moment.addingTimeInterval(TimeInterval(first)), in: definition) else { return nil }
        return Self.wallClock(moment.addingTimeInterval(TimeInterval(offset)), calendar: Self.utcCalendar)
    }

    static let utcCalendar = BasicDate.calendar(in: TimeZone(identifier: "UTC")!)
}
