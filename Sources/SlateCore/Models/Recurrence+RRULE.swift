import Foundation

/// A repeat as an iCalendar RRULE value (RFC 5545 §3.3.10), for CalDAV and `.ics` files.
///
/// Slate's monthly repeat on the 29th–31st ends on the last day of a shorter month and goes
/// back to its day after (31 January → 28 February → 31 March). RFC 5545's plain
/// `FREQ=MONTHLY` on the 31st skips the months without one instead, so a client that steps
/// the repeat itself would land elsewhere. The rule says Slate's meaning in RFC terms:
///
/// | day | RRULE |
/// | --- | --- |
/// | 1–28 | `FREQ=MONTHLY;INTERVAL=1` |
/// | 31 | `FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1` (the last day) |
/// | 30 | `FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=28,29,30;BYSETPOS=-1` (the 30th, or the last day of February) |
/// | 29 | `FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=28,29;BYSETPOS=-1` |
/// | 29 February, yearly | `FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=-1` |
///
/// Read back, those rules (and Thunderbird's "last day of the month", `BYMONTHDAY=-1`) give
/// the repeat its day. Other parts (BYDAY, COUNT, UNTIL, …) have no Slate form and are ignored.
extension Recurrence {
    /// The RRULE value for this repeat of a task due on `day` (its day of the month and
    /// month; nil: no due date).
    func rrule(dueOn day: (month: Int, day: Int)?) -> String {
        let base = "FREQ=\(frequency.rawValue.uppercased());INTERVAL=\(interval)"
        switch frequency {
        case .monthly:
            guard let wanted = dayOfMonth ?? day?.day, wanted >= 29 else { return base }
            if wanted >= 31 { return base + ";BYMONTHDAY=-1" }
            return base + ";BYMONTHDAY=" + (28...wanted).map(String.init).joined(separator: ",") + ";BYSETPOS=-1"
        case .yearly:
            let isLeapDay = dayOfMonth == 29 || (day?.month == 2 && day?.day == 29)
            return isLeapDay ? base + ";BYMONTH=2;BYMONTHDAY=-1" : base
        case .daily, .weekly:
            return base
        }
    }

    /// The day of the month an RRULE's BYMONTHDAY (with BYSETPOS and BYMONTH) asks for in
    /// Slate's terms: 31 for the last day, `D` for "28…D, the last of them", `D` for a
    /// single day; nil when the rule names none, or a set Slate has no form for.
    static func dayOfMonth(inRule parts: [String: String], frequency: Frequency) -> Int? {
        guard frequency == .monthly || frequency == .yearly, let text = parts["BYMONTHDAY"] else { return nil }
        let days = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !days.isEmpty, days.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = days.compactMap { $0 }
        if frequency == .yearly {
            // Only the leap day has a Slate form: the last day of February.
            guard parts["BYMONTH"] == "2", numbers == [-1] || numbers == [29] else { return nil }
            return 29
        }
        if numbers == [-1] { return 31 }
        if numbers.count == 1, let day = numbers.first, (1...31).contains(day) { return day }
        // 28,29,30 with BYSETPOS=-1: the 30th, or the last day before it.
        let sorted = numbers.sorted()
        guard parts["BYSETPOS"] == "-1", sorted.first == 28, let last = sorted.last, last <= 31,
              sorted == Array(28...last) else { return nil }
        return last
    }

    /// The NAME=VALUE parts of an RRULE value, names and values in upper case.
    static func rruleParts(_ value: String) -> [String: String] {
        var parts: [String: String] = [:]
        for part in value.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 {
                parts[pair[0].trimmingCharacters(in: .whitespaces).uppercased()] = String(pair[1]).trimmingCharacters(in: .whitespaces).uppercased()
            }
        }
        return parts
    }

    /// This repeat (read from an RRULE, its `dayOfMonth` the rule's day) for a task due on
    /// `due` (month and day): the day is kept only when it is after the due date's, as a
    /// short month leaves it (`advanced(from:calendar:)`; a yearly one only in February);
    /// otherwise the repeat goes by the due date.
    func settled(dueOn due: (month: Int, day: Int)?) -> Recurrence {
        guard let wanted = dayOfMonth else { return self }
        var settled = self
        let isCut = due.map { $0.day < wanted && (frequency == .monthly || $0.month == 2) } ?? false
        if !isCut { settled.dayOfMonth = nil }
        return settled
    }
}

extension TaskItem {
    /// The month and day of the month of the due date in `calendar` (an all-day date's own
    /// day), for the repeat's RRULE; nil without a due date.
    func dueMonthDay(in calendar: Calendar) -> (month: Int, day: Int)? {
        guard let due = due(in: calendar) else { return nil }
        let parts = calendar.dateComponents([.month, .day], from: due)
        return (parts.month ?? 1, parts.day ?? 1)
    }
}
