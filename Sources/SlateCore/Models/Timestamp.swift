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
        // Years 1583–9999 by arithmetic (the API writes three of these per task); outside
        // them Foundation's calendar, which is Julian before 1582, decides.
        if (firstGregorianSecond...lastFourDigitSecond).contains(seconds) {
            let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
            let (year, month, day) = civilDate(daysSince1970: days)
            let time = Int(seconds - days * 86400)
            var text = [UInt8](repeating: 0, count: 24)
            put(year, digits: 4, at: 0, in: &text)
            put(month, digits: 2, at: 5, in: &text)
            put(day, digits: 2, at: 8, in: &text)
            put(time / 3600, digits: 2, at: 11, in: &text)
            put(time / 60 % 60, digits: 2, at: 14, in: &text)
            put(time % 60, digits: 2, at: 17, in: &text)
            put(Int(fraction), digits: 3, at: 20, in: &text)
            for (offset, mark) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."), (23, "Z")] as [(Int, Unicode.Scalar)] {
                text[offset] = UInt8(ascii: mark)
            }
            return String(decoding: text, as: UTF8.self)
        }
        return formatWithCalendar(seconds: seconds, fraction: fraction)
    }

    /// `format` through Foundation's Gregorian calendar: every date outside 1583–9999, and
    /// the reference the arithmetic is tested against.
    static func formatWithCalendar(seconds: Int64, fraction: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year!, parts.month!, parts.day!,
                      parts.hour!, parts.minute!, parts.second!, Int(fraction))
    }

    /// `2026-12-24` in `calendar`'s time zone: the form of an all-day date.
    public static func formatDay(_ date: Date, calendar: Calendar) -> String {
        // A Gregorian day is the UTC day of the local wall-clock time: by arithmetic from
        // the zone's offset, for the years the arithmetic covers (see `format`).
        if calendar.identifier == .gregorian, date.timeIntervalSince1970.isFinite {
            let local = date.timeIntervalSince1970.rounded(.down) + Double(calendar.timeZone.secondsFromGMT(for: date))
            if local >= Double(firstGregorianSecond), local <= Double(lastFourDigitSecond) {
                let seconds = Int64(local)
                let (year, month, day) = civilDate(daysSince1970: seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400)
                var text = [UInt8](repeating: UInt8(ascii: "-"), count: 10)
                put(year, digits: 4, at: 0, in: &text)
                put(month, digits: 2, at: 5, in: &text)
                put(day, digits: 2, at: 8, in: &text)
                return String(decoding: text, as: UTF8.self)
            }
        }
        return formatDayWithCalendar(date, calendar: calendar)
    }

    /// `formatDay` through the calendar: other calendars and years, and the reference the
    /// arithmetic is tested against.
    static func formatDayWithCalendar(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        guard let year = parts.year, (0...9999).contains(year), let month = parts.month, let day = parts.day else {
            return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        }
        var text = [UInt8](repeating: UInt8(ascii: "-"), count: 10)
        put(year, digits: 4, at: 0, in: &text)
        put(month, digits: 2, at: 5, in: &text)
        put(day, digits: 2, at: 8, in: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// 1583-01-01T00:00:00Z, the first whole year of the Gregorian calendar.
    private static let firstGregorianSecond: Int64 = -12_212_553_600
    /// 9999-12-31T23:59:59Z, the last second with a four-digit year.
    private static let lastFourDigitSecond: Int64 = 253_402_300_799

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// Writes `value` (not negative) as `digits` decimal digits, zero-padded, at `offset`.
    private static func put(_ value: Int, digits: Int, at offset: Int, in text: inout [UInt8]) {
        var rest = value
        for position in stride(from: offset + digits - 1, through: offset, by: -1) {
            text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// The widest UTC offset read: ±18:00 (real zones span −12:00 to +14:00).
    static let maximumOffsetMinutes = 18 * 60

    /// Reads `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM)`, years 0001–9999, seconds 00–59 and
    /// offsets up to ±18:00; nil for anything else.
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
            guard let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)), minutes < 60,
                  hours * 60 + minutes <= maximumOffsetMinutes
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // No year 0 (Foundation's Gregorian calendar would read it as year 1) and no leap
        // second (it would become the next minute): refused rather than changed.
        guard year >= 1, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60,
              let base = calendar.date(from: components),
              calendar.component(.day, from: base) == day
        else { return nil }
        let ms = Int64(base.timeIntervalSince1970.rounded()) * 1000 + Int64(fraction) - Int64(offset) * 1000
        return fromMilliseconds(ms)
    }

    /// Reads `YYYY-MM-DD` (year 0001 or later) as the start of that day in `calendar`'s time zone.
    public static func parseDay(_ text: String, calendar: Calendar) -> Date? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), year >= 1, let month = Int(parts[1]), let day = Int(parts[2]),
              let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
              calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
        else { return nil }
        return date
    }
}
