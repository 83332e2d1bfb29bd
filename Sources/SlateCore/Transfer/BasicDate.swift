import Foundation

/// The ISO 8601 "basic" dates of iCalendar and Taskwarrior: `20261201` (a day) and
/// `20261201T090000` / `20261201T080000Z` (a moment), and iCalendar durations (`-PT15M`).
enum BasicDate {
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `20261201T080000Z`: the moment in UTC, to the second (below is dropped).
    static func formatUTC(_ date: Date) -> String {
        let seconds = (date.timeIntervalSince1970).rounded(.down)
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }

    /// `20261201`: the day of `date` in `calendar`'s time zone.
    static func formatDay(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!)
    }

    /// Reads `YYYYMMDD` as the start of that day in `calendar`'s time zone.
    static func parseDay(_ text: String, calendar: Calendar) -> Date? {
        guard let (year, month, day) = dayParts(text) else { return nil }
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// Reads `YYYYMMDDTHHMMSS` with a `Z` (UTC) or without (local time in `local`'s time
    /// zone: a floating time, or a TZID's). A time that a clock change skips moves forward;
    /// a leap second (`…T235960Z`) is refused rather than moved.
    static func parseMoment(_ text: String, local: Calendar) -> Date? {
        let isUTC = text.hasSuffix("Z") || text.hasSuffix("z")
        let body = isUTC ? String(text.dropLast()) : text
        let halves = body.split(separator: "T", omittingEmptySubsequences: false)
        guard halves.count == 2, halves[1].count == 6, halves[1].allSatisfy(\.isASCII), halves[1].allSatisfy(\.isNumber),
              let (year, month, day) = dayParts(String(halves[0])),
              let hour = Int(halves[1].prefix(2)), let minute = Int(halves[1].dropFirst(2).prefix(2)),
              let second = Int(halves[1].suffix(2)), hour < 24, minute < 60, second < 60
        else { return nil }
        return (isUTC ? utc : local).date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    /// A Gregorian calendar in `zone`, for reading local times.
    static func calendar(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// Year, month and day of `YYYYMMDD` when it names a real day (year 0001 or later).
    private static func dayParts(_ text: String) -> (Int, Int, Int)? {
        guard text.count == 8, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
              let year = Int(text.prefix(4)), let month = Int(text.dropFirst(4).prefix(2)), let day = Int(text.suffix(2)),
              year >= 1, (1...12).contains(month), day >= 1
        else { return nil }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days ? (year, month, day) : nil
    }

    // MARK: Durations

    /// `-PT15M`, `P1D`, `PT0S`: a signed number of seconds in iCalendar's duration form.
    static func formatDuration(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : ""
        var rest = abs(seconds)
        guard rest > 0 else { return "PT0S" }
        let days = rest / 86_400
        rest %= 86_400
        var text = sign + "P" + (days > 0 ? "\(days)D" : "")
        if rest > 0 {
            text += "T"
            if rest >= 3600 { text += "\(rest / 3600)H" }
            if rest % 3600 >= 60 { text += "\((rest % 3600) / 60)M" }
            if rest % 60 > 0 { text += "\(rest % 60)S" }
        }
        return text
    }

    /// Reads `[+-]P[nW][nD][T[nH][nM][nS]]` as seconds; nil for anything else.
    static func parseDuration(_ text: String) -> Int? {
        let pattern = #/^([+-]?)P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/#
        guard let match = text.uppercased().wholeMatch(of: pattern), text.count > 1, !text.uppercased().hasSuffix("T") else { return nil }
        let parts = [match.2, match.3, match.4, match.5, match.6]
        guard parts.contains(where: { $0 != nil }) else { return nil }
        let units = [604_800, 86_400, 3600, 60, 1]
        var total = 0
        for (part, unit) in zip(parts, units) {
            guard let part else { continue }
            guard let value = Int(part), value < 1_000_000_000 / unit + 1 else { return nil }
            total += value * unit
        }
        return match.1 == "-" ? -total : total
    }
}
