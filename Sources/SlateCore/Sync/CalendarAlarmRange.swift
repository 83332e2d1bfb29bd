import Foundation

/// RFC 4791 §9.9 for a VTODO's VALARM: it overlaps a time range when one of its trigger
/// times falls in it (start ≤ trigger < end): its TRIGGER, then each of its REPEAT repetitions
/// DURATION apart (at most `maximumRepeats`, found by arithmetic, not one by one).
///
/// A DATE-TIME trigger is that moment. A duration counts from the VTODO's DUE (`RELATED=END`)
/// or from its DTSTART (the default; DUE when there is no DTSTART, as clients do); an alarm
/// whose VTODO has neither has no trigger time and overlaps nothing. On a repeating VTODO a
/// relative trigger counts from each instance, expanded as `CalendarRecurrenceRange` does
/// (with its bounds), leaving out the instances RECURRENCE-ID overrides replace.
enum CalendarAlarmRange {
    /// The most REPEAT repetitions counted.
    static let maximumRepeats = 1_000

    static func overlaps(_ alarm: ICalendarComponent, of todo: ICalendarComponent, _ range: CalendarFilter.TimeRange,
                         calendar: Calendar, zones: CalendarTimeZones, overridden: [Date] = []) -> Bool {
        guard let trigger = alarm.property("TRIGGER") else { return false }
        let start = range.start ?? .distantPast
        let end = range.end ?? .distantFuture
        let every = alarm.property("DURATION").flatMap { BasicDate.parseDuration($0.value.trimmingCharacters(in: .whitespaces)) } ?? 0
        let repeats = every > 0 ? min(max(Int(alarm.property("REPEAT")?.value.trimmingCharacters(in: .whitespaces) ?? "") ?? 0, 0), maximumRepeats) : 0
        let period = TimeInterval(every)
        /// True when one of `first`, `first + period`, … (`repeats` more) is in the range.
        func hits(_ first: Date) -> Bool {
            guard repeats > 0 else { return start <= first && end > first }
            let skip = start > first ? Int((start.timeIntervalSince(first) / period).rounded(.up)) : 0
            guard skip <= repeats else { return false }
            let moment = first.addingTimeInterval(Double(skip) * period)
            return start <= moment && end > moment
        }
        let value = trigger.value.trimmingCharacters(in: .whitespaces)
        if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" || !value.uppercased().contains("P") {
            guard let (moment, _) = try? VTodoContent.date(trigger, calendar: calendar, zones: zones) else { return false }
            return hits(moment)
        }
        guard let offset = BasicDate.parseDuration(value) else { return false }
        func date(_ name: String) -> Date? {
            todo.property(name).flatMap { try? VTodoContent.date($0, calendar: calendar, zones: zones).0 }
        }
        let dtstart = date("DTSTART")
        let due = date("DUE")
        let anchor = trigger.parameter("RELATED")?.uppercased() == "END" ? (due ?? dtstart) : (dtstart ?? due)
        guard let anchor else { return false }
        guard let base = dtstart ?? due, todo.property("RECURRENCE-ID") == nil,
              todo.property("RRULE") != nil || todo.property("RDATE") != nil else {
            return hits(anchor.addingTimeInterval(TimeInterval(offset)))
        }
        // Each instance's first trigger is `lead` after the instance's start.
        let lead = anchor.timeIntervalSince(base) + TimeInterval(offset)
        let stepping = CalendarTimeRange.ruleCalendar(todo, calendar)
        let expansion = CalendarRecurrenceRange(
            base: base, rule: todo.property("RRULE").flatMap { CalendarRecurrenceRange.Rule($0.value, base: base, calendar: stepping) },
            added: CalendarTimeRange.dates(todo.properties("RDATE"), calendar: calendar, zones: zones),
            excluded: CalendarTimeRange.dates(todo.properties("EXDATE"), calendar: calendar, zones: zones) + overridden,
            calendar: stepping)
        // The instances whose triggers can fall in the range start in it moved back by `lead`
        // (and by the repetitions).
        let starts = CalendarFilter.TimeRange(start: range.start?.addingTimeInterval(-lead - Double(repeats) * period),
                                              end: range.end?.addingTimeInterval(-lead))
        return expansion.anyInstance(in: starts, span: 0) { hits($0.addingTimeInterval(lead)) }
    }
}
