import Foundation

/// ISO 8601 text for dates, to the millisecond, that reads back to the same `Date`.
///
/// Foundation's formatters compute the seconds in their own way; going through whole
/// milliseconds both ways makes `parse(format(d)) == d` for every millisecond date.
public enum Timestamp {
    /// `date` with anything below the millisecond dropped (rounded toward the past).
    public static func truncatedToMilliseconds(_ date: Date) -> Date {
        fromMilliseconds(milliseconds(date))
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    static func fromMilliseconds(_ value: Int64) -> Date { Date(timeIntervalSince1970: Double(value) / 1000) }

    /// `2026-11-29T09:15:00.000Z` in UTC.
    public static func format(_ date: Date) -> String {
        let ms = milliseconds(date)
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let fraction = ms - seconds * 1000
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year!, parts.month!, parts.day!,
                      parts.hour!, parts.minute!, parts.second!, Int(fraction))
    }

    /// `2026-12-24` in `calendar`'s time zone: the form of an all-day date.
    public static func formatDay(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// Reads `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM)`; nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let pattern = #/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/#
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        guard let year = Int(match.1), let month = Int(match.2), let day = Int(match.3), let hour = Int(match.4),
              let minute = Int(match.5) else { return nil }
        let second = match.6.flatMap { Int($0) } ?? 0
        var fraction = 0
        if let digits = match.7 { fraction = Int(String((digits + "000").prefix(3))) ?? 0 }
        var offset = 0
        if match.8 != "Z" {
            let sign = match.8.first == "-" ? -1 : 1
            let digits = match.8.dropFirst().filter(\.isNumber)
            offset = sign * ((Int(digits.prefix(2)) ?? 0) * 3600 + (Int(digits.suffix(2)) ?? 0) * 60)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
              let base = calendar.date(from: components),
              calendar.component(.day, from: base) == day
        else { return nil }
        let ms = Int64(base.timeIntervalSince1970.rounded()) * 1000 + Int64(fraction) - Int64(offset) * 1000
        return fromMilliseconds(ms)
    }

    /// Reads `YYYY-MM-DD` as the start of that day in `calendar`'s time zone.
    public static func parseDay(_ text: String, calendar: Calendar) -> Date? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
              calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
        else { return nil }
        return date
    }
}
