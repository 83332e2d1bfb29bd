import Foundation

/// The time zones a calendar object's `TZID` parameters may name, and the rule for reading
/// a local time in one of them:
///
/// 1. a zone Foundation knows, by its identifier: `Europe/Paris`, also behind a leading
///    `/` or a vendor prefix (`/mozilla.org/20050126_1/Europe/Paris`, `/citadel.org/…`);
/// 2. otherwise the object's own `VTIMEZONE` of that TZID (`W. Europe Standard Time`, a
///    custom name): its STANDARD and DAYLIGHT observances, with their yearly rules
///    (`FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU`), RDATEs or single onsets, say which offset holds;
/// 3. otherwise the object is refused (400 `valid-calendar-data`) naming the TZID: RFC 5545
///    requires the VTIMEZONE, and guessing (floating time, UTC) would move the task.
struct CalendarTimeZones {
    /// The object's VTIMEZONEs by TZID.
    private var definitions: [String: ICalendarComponent] = [:]

    /// No VTIMEZONE: only zones Foundation knows.
    static var none: CalendarTimeZones { CalendarTimeZones() }

    private init() {}

    /// The VTIMEZONEs of a VCALENDAR.
    init(_ root: ICalendarComponent) {
        for zone in root.components where zone.name == "VTIMEZONE" {
            if let id = zone.property("TZID")?.value.trimmingCharacters(in: .whitespaces), !id.isEmpty { definitions[id] = zone }
        }
    }

    /// A zone Foundation knows for a TZID, trying the usual vendor prefixes.
    static func knownZone(_ tzid: String) -> TimeZone? {
        let id = tzid.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        if let zone = TimeZone(identifier: id) { return zone }
        guard id.hasPrefix("/") else { return nil }
        let parts = id.split(separator: "/")
        // `/Europe/Paris`, `/mozilla.org/20050126_1/Europe/Paris`, `/…/America/Argentina/Buenos_Aires`.
        for count in [1, 2, 3] where parts.count >= count {
            if let zone = TimeZone(identifier: parts.suffix(count).joined(separator: "/")) { return zone }
        }
        return nil
    }

    /// The moment of a local date-time (`value` without Z) in the zone `tzid`, or nil when
    /// neither Foundation nor the object defines it. Throws for a malformed VTIMEZONE.
    func moment(_ value: String, tzid: String) -> Date? {
        if let zone = Self.knownZone(tzid) { return BasicDate.parseMoment(value, local: BasicDate.calendar(in: zone)) }
        guard let definition = definition(tzid), let wall = BasicDate.parseMoment(value, local: Self.utc) else { return nil }
        guard let offset = Self.offset(at: wall, in: definition) else { return nil }
        return wall.addingTimeInterval(-TimeInterval(offset))
    }

    /// The object's VTIMEZONE of that TZID.
    func definition(_ tzid: String) -> ICalendarComponent? {
        definitions[tzid.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))]
    }

    private static let utc = BasicDate.calendar(in: TimeZone(identifier: "UTC")!)

    /// The UTC offset in seconds that holds at a wall-clock time (a Date read as if UTC):
    /// that of the latest onset at or before it, else the first observance's TZOFFSETFROM.
    static func offset(at wall: Date, in zone: ICalendarComponent) -> Int? {
        let year = utc.component(.year, from: wall)
        var latest: (onset: Date, offset: Int)?
        var earliest: (onset: Date, from: Int)?
        for observance in zone.components where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            guard let start = observance.property("DTSTART").flatMap({ BasicDate.parseMoment($0.value.trimmingCharacters(in: .whitespaces), local: utc) }),
                  let to = observance.property("TZOFFSETTO").flatMap({ parseOffset($0.value) }) else { continue }
            let from = observance.property("TZOFFSETFROM").flatMap { parseOffset($0.value) } ?? to
            var onsets = [start]
            for rdate in observance.properties("RDATE") {
                onsets += rdate.value.split(separator: ",").compactMap { BasicDate.parseMoment(String($0).trimmingCharacters(in: .whitespaces), local: utc) }
            }
            if let rule = observance.property("RRULE") {
                onsets += yearlyOnsets(rule.value, start: start, years: (year - 1)...year)
            }
            if earliest == nil || start < earliest!.onset { earliest = (start, from) }
            for onset in onsets where onset <= wall && onset >= start {
                if latest == nil || onset > latest!.onset { latest = (onset, to) }
            }
        }
        return latest?.offset ?? earliest?.from
    }

    /// Onsets of a yearly rule (`BYMONTH` with `BYDAY=2SU` / `-1SU`, or `BYMONTHDAY`) in
    /// the given years, at the time of day of `start`, up to its UNTIL.
    private static func yearlyOnsets(_ rule: String, start: Date, years: ClosedRange<Int>) -> [Date] {
        var parts: [String: String] = [:]
        for part in rule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[pair[0].uppercased()] = String(pair[1]).uppercased() }
        }
        guard parts["FREQ"] == "YEARLY", let month = parts["BYMONTH"].flatMap({ Int($0) }), (1...12).contains(month) else { return [] }
        let until = parts["UNTIL"].flatMap { BasicDate.parseMoment($0, local: utc) }
        let time = utc.dateComponents([.hour, .minute, .second], from: start)
        var onsets: [Date] = []
        for year in years {
            var day: Int?
            if let byDay = parts["BYDAY"], let weekday = byDay.suffix(2).nonEmptyWeekday {
                let ordinal = Int(byDay.dropLast(2)) ?? 1
                day = nthWeekday(ordinal, weekday, month: month, year: year)
                if let monthDays = parts["BYMONTHDAY"]?.split(separator: ",").compactMap({ Int($0) }), !monthDays.isEmpty {
                    // `BYMONTHDAY=8,…,14;BYDAY=SU`: the Sunday among those days.
                    day = monthDays.first { utc.component(.weekday, from: date(year, month, $0) ?? .distantPast) == weekday }
                }
            } else if let monthDay = parts["BYMONTHDAY"].flatMap({ Int($0) }) {
                day = monthDay
            }
            guard let day, let onset = utc.date(from: DateComponents(year: year, month: month, day: day, hour: time.hour,
                                                                      minute: time.minute, second: time.second)) else { continue }
            if let until, onset > until { continue }
            onsets.append(onset)
        }
        return onsets
    }

    private static func date(_ year: Int, _ month: Int, _ day: Int) -> Date? {
        utc.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// The day of the month of the `ordinal`-th `weekday` (1 = Sunday); negative counts from the end.
    private static func nthWeekday(_ ordinal: Int, _ weekday: Int, month: Int, year: Int) -> Int? {
        guard let first = date(year, month, 1), let days = utc.range(of: .day, in: .month, for: first)?.count else { return nil }
        let matching = (1...days).filter { utc.component(.weekday, from: date(year, month, $0) ?? first) == weekday }
        guard !matching.isEmpty, ordinal != 0 else { return nil }
        let index = ordinal > 0 ? ordinal - 1 : matching.count + ordinal
        return matching.indices.contains(index) ? matching[index] : nil
    }

    /// `+0100`, `-0530`, `+013045` → seconds east of UTC.
    static func parseOffset(_ text: String) -> Int? {
        let value = text.trimmingCharacters(in: .whitespaces)
        guard let sign = value.first, sign == "+" || sign == "-" else { return nil }
        let digits = value.dropFirst()
        guard digits.count == 4 || digits.count == 6, digits.allSatisfy(\.isASCII), let number = Int(digits) else { return nil }
        let hours = digits.count == 4 ? number / 100 : number / 10_000
        let minutes = digits.count == 4 ? number % 100 : (number / 100) % 100
        let seconds = digits.count == 4 ? 0 : number % 100
        guard hours < 24, minutes < 60, seconds < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)
    }
}

private extension Substring {
    /// `SU` … `SA` as Calendar weekdays (1 = Sunday).
    var nonEmptyWeekday: Int? {
        ["SU": 1, "MO": 2, "TU": 3, "WE": 4, "TH": 5, "FR": 6, "SA": 7][String(self)]
    }
}
