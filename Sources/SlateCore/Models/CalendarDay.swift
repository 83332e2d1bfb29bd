import Foundation

/// A day on the calendar, with no time zone: what an all-day due date means.
///
/// "Due 8 December" is the 8th wherever the person reading it is. A moment cannot say that:
/// the start of the 8th in Berlin is still the 7th in Los Angeles. So a task keeps its
/// all-day date as this day (`TaskItem.dueDay`), and each reader places it in their own
/// calendar (`start(in:)`).
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The proleptic Gregorian year, 1–9999.
    public let year: Int
    /// 1–12.
    public let month: Int
    /// 1–31, a day the month has.
    public let day: Int

    /// The day, or nil when it is not one (30 February, month 13, year 0).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
              day <= Self.length(ofMonth: month, in: year)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The day `date` falls on in `calendar`'s time zone.
    public init(_ date: Date, in calendar: Calendar) {
        if calendar.identifier == .gregorian, date.timeIntervalSince1970.isFinite, abs(date.timeIntervalSince1970) < 2.5e11 {
            // The UTC day of the local wall-clock time, by arithmetic (as `Timestamp.formatDay`).
            let local = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(calendar.timeZone.secondsFromGMT(for: date))
            let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
            let (year, month, day) = Timestamp.civilDate(daysSince1970: days)
            if let found = CalendarDay(year: year, month: month, day: day) {
                self = found
                return
            }
        }
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        (year, month, day) = (min(max(parts.year ?? 1, 1), 9999), parts.month ?? 1, parts.day ?? 1)
    }

    /// The day stored as `yyyymmdd` (`number`), or nil when the number is not a day.
    public init?(number: Int) {
        self.init(year: number / 10_000, month: number / 100 % 100, day: number % 100)
    }

    /// `yyyymmdd` as one integer (20261208): how a task stores it, ordered as the days are.
    public var number: Int { year * 10_000 + month * 100 + day }

    /// The moment this day starts in `calendar`'s time zone (midnight, or the first moment
    /// that exists when a clock change skips midnight).
    public func start(in calendar: Calendar) -> Date {
        if let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) {
            return calendar.startOfDay(for: date)
        }
        return Date(timeIntervalSince1970: 0)
    }

    /// `2026-12-08` (without `String(format:)`: a JSON export writes one per all-day task).
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.number < rhs.number }

    /// How many days `month` has in `year`.
    static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
