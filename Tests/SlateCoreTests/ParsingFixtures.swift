import Foundation
import SlateCore

/// Fixed clocks and zones for the parser tests: expected dates are written as local wall-clock
/// text ("2026-11-30 17:00", or "2026-11-30" for all-day) in the zone of the clock.
struct ParsingClock: Sendable {
    let calendar: Calendar
    let now: Date

    /// Sunday 29 November 2026, 10:15 in Paris.
    static let parisSunday = ParsingClock(zone: "Europe/Paris", now: "2026-11-29 10:15")
    /// Monday 30 November 2026, 08:00 in Paris.
    static let parisMonday = ParsingClock(zone: "Europe/Paris", now: "2026-11-30 08:00")
    /// Wednesday 25 February 2026, 18:40 in New York (not a leap year).
    static let newYorkWednesday = ParsingClock(zone: "America/New_York", now: "2026-02-25 18:40")
    /// Sunday 31 January 2027, 12:00 in Paris: a month end.
    static let parisMonthEnd = ParsingClock(zone: "Europe/Paris", now: "2027-01-31 12:00")
    /// Saturday 28 March 2026, 10:00 in Paris: clocks go forward at 02:00 the next night.
    static let parisBeforeSpringForward = ParsingClock(zone: "Europe/Paris", now: "2026-03-28 10:00")

    init(zone: String, now: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        self.calendar = calendar
        self.now = Self.date(now, calendar: calendar)!
    }

    init(calendar: Calendar, now: Date) {
        self.calendar = calendar
        self.now = now
    }

    var dateParser: DateParser { DateParser(now: now, calendar: calendar) }
    var quickEntryParser: QuickEntryParser { QuickEntryParser(now: now, calendar: calendar) }

    /// "2026-11-30" (midnight) or "2026-11-30 17:00", read in the clock's zone.
    static func date(_ text: String, calendar: Calendar) -> Date? {
        let fields = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).compactMap { Int($0) }
        guard fields.count == 3 || fields.count == 5 else { return nil }
        var parts = DateComponents(year: fields[0], month: fields[1], day: fields[2], hour: 0, minute: 0)
        if fields.count == 5 {
            parts.hour = fields[3]
            parts.minute = fields[4]
        }
        return calendar.date(from: parts)
    }

    /// A due date as the tests write it: "2026-11-30" for all-day (which must sit at the start of
    /// the local day), "2026-11-30 17:00" for a time (with ":ss" if seconds are not zero).
    func render(_ due: DueDate?) -> String? {
        guard let due else { return nil }
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: due.date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let day = "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
        let clock = "\(two(parts.hour)):\(two(parts.minute))"
        let seconds = parts.second == 0 && parts.nanosecond == 0 ? "" : ":\(two(parts.second))"
        if due.isAllDay { return clock == "00:00" && seconds.isEmpty ? day : "\(day) all-day at \(clock)\(seconds)" }
        return "\(day) \(clock)\(seconds)"
    }
}
