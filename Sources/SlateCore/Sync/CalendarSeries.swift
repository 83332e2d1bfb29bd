import Foundation

extension CalendarTimeRange {
    /// A repeating master VTODO as RFC 4791 §9.9 reads it: the dates the VTODO table
    /// tests, the first instance's start and the instances its RRULE and RDATE make, less
    /// EXDATE's and those RECURRENCE-ID overrides replace. Shared by the time-range test
    /// and CALDAV:expand (`CalendarExpansion`), so both see the same instances.
    struct Series {
        let dtstart: Date?
        let due: Date?
        let duration: TimeInterval?
        let completed: Date?
        let created: Date?
        /// The first instance's start: DTSTART, or DUE without one.
        let base: Date
        let expansion: CalendarRecurrenceRange
        /// How long after its start an instance can still overlap a range.
        let span: TimeInterval

        /// Nil for a VTODO that does not repeat (no RRULE or RDATE, or an override itself),
        /// or one with neither DTSTART nor DUE.
        init?(_ component: ICalendarComponent, calendar: Calendar, zones: CalendarTimeZones, overridden: [Date]) {
            func date(_ name: String) -> Date? {
                component.property(name).flatMap { try? VTodoContent.date($0, calendar: calendar, zones: zones).0 }
            }
            let dtstart = date("DTSTART"), due = date("DUE")
            let duration = component.property("DURATION").flatMap { BasicDate.parseDuration($0.value.trimmingCharacters(in: .whitespaces)) }
                .map { TimeInterval($0) }
            guard component.name == "VTODO", let base = dtstart ?? due, component.property("RECURRENCE-ID") == nil,
                  component.property("RRULE") != nil || component.property("RDATE") != nil else { return nil }
            (self.dtstart, self.due, self.duration, self.base) = (dtstart, due, duration, base)
            completed = date("COMPLETED")
            created = date("CREATED")
            let stepping = CalendarTimeRange.ruleCalendar(component, calendar)
            expansion = CalendarRecurrenceRange(
                base: base, rule: component.property("RRULE").flatMap { CalendarRecurrenceRange.Rule($0.value, base: base, calendar: stepping) },
                added: CalendarTimeRange.dates(component.properties("RDATE"), calendar: calendar, zones: zones),
                excluded: CalendarTimeRange.dates(component.properties("EXDATE"), calendar: calendar, zones: zones) + overridden,
                calendar: stepping)
            span = max(duration ?? 0, dtstart.flatMap { start in due.map { $0.timeIntervalSince(start) } } ?? 0)
        }

        /// True when the instance starting at `instance` overlaps [start, end) by the VTODO table.
        func overlaps(instance: Date, _ start: Date, _ end: Date) -> Bool {
            let shift = instance.timeIntervalSince(base)
            return CalendarTimeRange.table(start, end, dtstart: dtstart?.addingTimeInterval(shift), due: due?.addingTimeInterval(shift),
                         duration: duration, completed: completed, created: created)
        }

        /// True when an instance overlaps the range (bounded as `CalendarRecurrenceRange.anyInstance` says).
        func anyInstance(in range: CalendarFilter.TimeRange) -> Bool {
            expansion.anyInstance(in: range, span: span) { overlaps(instance: $0, range.start ?? .distantPast, range.end ?? .distantFuture) }
        }

        /// The starts of the instances that overlap the range, in order (bounded as
        /// `CalendarRecurrenceRange.instances(in:span:_:)` says); nil when the rule is not expanded.
        func instances(in range: CalendarFilter.TimeRange) -> [Date]? {
            expansion.instances(in: range, span: span) { overlaps(instance: $0, range.start ?? .distantPast, range.end ?? .distantFuture) }
        }

        /// The master `todo` as its instance at `instance`: DTSTART (or DUE) there and DUE
        /// moved with it — by whole days for dates, by seconds for times, written in UTC —,
        /// a RECURRENCE-ID, and no recurrence properties.
        func instance(at instance: Date, of todo: ICalendarComponent, calendar: Calendar, zones: CalendarTimeZones) -> ICalendarComponent {
            let isDay = { (name: String) in todo.property(name).flatMap { try? VTodoContent.date($0, calendar: calendar, zones: zones).1 } ?? false }
            let baseIsDay = isDay(dtstart != nil ? "DTSTART" : "DUE")
            let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: base), to: calendar.startOfDay(for: instance)).day ?? 0
            func moved(_ date: Date, isDay: Bool) -> Date {
                isDay ? calendar.date(byAdding: .day, value: days, to: date) ?? date : date.addingTimeInterval(instance.timeIntervalSince(base))
            }
            func property(_ name: String, _ date: Date, isDay: Bool) -> ICalendarProperty {
                isDay ? ICalendarProperty(name, [("VALUE", "DATE")], value: BasicDate.formatDay(date, calendar: calendar))
                    : ICalendarProperty(name, value: BasicDate.formatUTC(date))
            }
            var result = CalendarExpansion.inUTC(CalendarExpansion.withoutRecurrence(todo), calendar: calendar, zones: zones)
            result.properties.removeAll { $0.name == "RECURRENCE-ID" }
            for index in result.properties.indices {
                let name = result.properties[index].name
                if name == "DTSTART", let dtstart { result.properties[index] = property(name, moved(dtstart, isDay: isDay(name)), isDay: isDay(name)) }
                if name == "DUE", let due { result.properties[index] = property(name, moved(due, isDay: isDay(name)), isDay: isDay(name)) }
            }
            let id = property("RECURRENCE-ID", instance, isDay: baseIsDay)
            let at = result.properties.firstIndex { $0.name == "UID" }.map { $0 + 1 } ?? result.properties.endIndex
            result.properties.insert(id, at: at)
            return result
        }
    }
}
