import Foundation

/// When to remind someone of a task: relative to its due date ("15 minutes before",
/// "1 day before at 9:00") or at a fixed moment.
///
/// Every surface uses one text form (`TaskAlert(parsing:)` reads it, `text` writes it):
///
/// | text | meaning |
/// | --- | --- |
/// | `due` | at the due time (for an all-day task: the start of its day) |
/// | `15m`, `2h`, `1d`, `1w` | that long before the due time |
/// | `1d@9:00`, `0d@9:00` | that many days before the due day, at that local time |
/// | `2026-12-24T09:00:00Z` | at that moment (ISO 8601 with a zone) |
public struct TaskAlert: Sendable, Hashable, Codable {
    /// What the alert is anchored to.
    public enum Trigger: Sendable, Hashable {
        /// This many seconds before the due time (0: at it).
        case beforeDue(seconds: Int)
        /// `daysBefore` days before the due day, at `minuteOfDay` minutes after local midnight.
        case onDay(daysBefore: Int, minuteOfDay: Int)
        /// A fixed moment.
        case at(Date)
    }

    public var trigger: Trigger

    public init(_ trigger: Trigger) { self.trigger = trigger }

    /// At the due time.
    public static let atDue = TaskAlert(.beforeDue(seconds: 0))
    /// 9:00 on the due day (the default for all-day tasks).
    public static let morningOfDay = TaskAlert(.onDay(daysBefore: 0, minuteOfDay: 9 * 60))

    /// The most alerts one task may have.
    public static let maximumCount = 10
    /// The furthest before the due date an alert may be: 365 days.
    public static let maximumLead = 365 * 86_400

    /// The forms `TaskAlert(parsing:)` accepts, for error messages and help.
    public static let acceptedForms =
        "'due', a lead time such as '15m', '2h', '1d' or '1w' (before the due time), "
        + "'1d@9:00' (days before the due day at a local time) or an ISO 8601 moment such as '2026-12-24T09:00:00Z'"

    /// True when the alert needs a due date to mean anything.
    public var isRelative: Bool {
        if case .at = trigger { return false }
        return true
    }

    /// When the alert fires for a task due at `due`, reading days and times of day in
    /// `calendar`'s time zone; nil when it is relative and there is no due date.
    public func fireDate(due: Date?, calendar: Calendar) -> Date? {
        switch trigger {
        case .at(let moment):
            return moment
        case .beforeDue(let seconds):
            return due.map { $0.addingTimeInterval(-Double(seconds)) }
        case .onDay(let daysBefore, let minuteOfDay):
            guard let due else { return nil }
            let day = calendar.startOfDay(for: due)
            guard let target = calendar.date(byAdding: .day, value: -daysBefore, to: day) else { return nil }
            var parts = calendar.dateComponents([.year, .month, .day], from: target)
            parts.hour = minuteOfDay / 60
            parts.minute = minuteOfDay % 60
            // In a daylight-saving gap (02:30 that does not exist) the next valid time.
            return calendar.date(from: parts)
        }
    }

    /// `alerts` for a task whose due date became a day: each lead time is the same number of
    /// whole days before (under a day: the day itself) at 9:00; the due time itself is 9:00 on
    /// the day. Alerts on a day and moments stay. Duplicates go.
    public static func forAllDay(_ alerts: [TaskAlert]) -> [TaskAlert] {
        var result: [TaskAlert] = []
        for alert in alerts {
            var converted = alert
            if case .beforeDue(let seconds) = alert.trigger {
                converted = TaskAlert(.onDay(daysBefore: seconds / 86_400, minuteOfDay: morningOfDay.minuteOfDay))
            }
            if !result.contains(converted) { result.append(converted) }
        }
        return result
    }

    /// The minute of the day of an alert on a day (0 for others).
    private var minuteOfDay: Int {
        if case .onDay(_, let minute) = trigger { return minute }
        return 0
    }

    // MARK: Text

    /// How people say an alert relative to the due date: "15 minutes before", "1 day before
    /// at 09:00", "on the due day at 09:00", "at the due time" (for an all-day task: "at the
    /// start of the due day"). Nil for a fixed moment, which the caller writes as a date.
    public func phrase(isAllDay: Bool) -> String? {
        func count(_ value: Int, _ unit: String) -> String { "\(value) \(unit)\(value == 1 ? "" : "s")" }
        switch trigger {
        case .beforeDue(0):
            return isAllDay ? "at the start of the due day" : "at the due time"
        case .beforeDue(let seconds):
            for (unit, size) in [("week", 604_800), ("day", 86_400), ("hour", 3_600), ("minute", 60)] where seconds % size == 0 {
                return count(seconds / size, unit) + " before"
            }
            return count(seconds, "second") + " before"
        case .onDay(let days, let minute):
            let time = String(format: "%02d:%02d", minute / 60, minute % 60)
            return days == 0 ? "on the due day at \(time)" : count(days, "day") + " before at \(time)"
        case .at:
            return nil
        }
    }

    /// The canonical text form (see the type's table).
    public var text: String {
        switch trigger {
        case .beforeDue(0): return "due"
        case .beforeDue(let seconds):
            for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3_600)] where seconds % size == 0 {
                return "\(seconds / size)\(unit)"
            }
            return seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds)s"
        case .onDay(let days, let minute):
            let hour = minute / 60, rest = minute % 60
            return "\(days)d@\(hour < 10 ? "0" : "")\(hour):\(rest < 10 ? "0" : "")\(rest)"
        case .at(let moment):
            return Timestamp.format(moment)
        }
    }

    /// Reads the text form; unknown forms throw an error naming the accepted ones.
    public init(parsing input: String, field: String = "alerts") throws {
        let text = input.trimmingCharacters(in: .whitespaces).lowercased()
        func refuse(_ why: String = "is not an alert") -> SlateError {
            .invalid(field: field, message: "'\(input)' \(why); use \(Self.acceptedForms).")
        }
        if ["due", "at due", "0", "0m"].contains(text) {
            self.init(.beforeDue(seconds: 0))
            return
        }
        if let at = text.firstIndex(of: "@") {
            let daysText = text[..<at].trimmingCharacters(in: .whitespaces)
            let days = daysText.isEmpty ? 0 : Self.number(daysText.hasSuffix("d") ? String(daysText.dropLast()) : "")
            let clock = text[text.index(after: at)...].split(separator: ":", omittingEmptySubsequences: false)
            guard let days, days <= Self.maximumLead / 86_400, clock.count == 2, clock[1].count == 2,
                  let hour = Self.number(String(clock[0])), let minute = Self.number(String(clock[1])), hour < 24, minute < 60
            else { throw refuse() }
            self.init(.onDay(daysBefore: days, minuteOfDay: hour * 60 + minute))
            return
        }
        if text.first?.isNumber == true, text.count <= 12, let unit = text.last, let size = Self.unitSeconds[unit],
           let count = Self.number(String(text.dropLast())) {
            guard count * size <= Self.maximumLead else { throw refuse("is further before the due date than 365 days") }
            self.init(.beforeDue(seconds: count * size))
            return
        }
        if let moment = Timestamp.parse(input.trimmingCharacters(in: .whitespaces)) {
            self.init(.at(Timestamp.truncatedToMilliseconds(moment)))
            return
        }
        throw refuse()
    }

    private static let unitSeconds: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]

    /// A small decimal number of ASCII digits only.
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    // MARK: Codable (the text form)

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(parsing: text)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension TaskAlert {
    /// Checks a task's alerts: at most `maximumCount`, relative ones only with a due date.
    /// Repeated alerts are kept once, in the order given.
    public static func validated(_ alerts: [TaskAlert], hasDue: Bool, field: String = "alerts") throws -> [TaskAlert] {
        var seen = Set<TaskAlert>()
        let unique = alerts.filter { seen.insert($0).inserted }
        guard unique.count <= maximumCount else {
            throw SlateError.invalid(field: field, message: "A task can have at most \(maximumCount) alerts; got \(unique.count).")
        }
        if !hasDue, let relative = unique.first(where: \.isRelative) {
            throw SlateError.invalid(
                field: field,
                message: "The alert '\(relative.text)' is relative to the due date and the task has none; set a due date or give a moment such as '2026-12-24T09:00:00Z'.")
        }
        return unique
    }

    /// Reads several text forms, naming the field in errors; `reading` reads one (the text
    /// forms unless given), after the count is bounded.
    public static func parseList(_ texts: [String], field: String = "alerts",
                                 reading: ((String) throws -> TaskAlert)? = nil) throws -> [TaskAlert] {
        guard texts.count <= maximumCount * 4 else {
            throw SlateError.invalid(field: field, message: "A task can have at most \(maximumCount) alerts; got \(texts.count).")
        }
        return try texts.map { try reading?($0) ?? TaskAlert(parsing: $0, field: field) }
    }
}

extension TaskAlert {
    /// The alert that replaces a reminder offset of older Slate versions (seconds before the
    /// due date; negative: after it): a lead time, or the moment it fired when it was after
    /// the due date. Nil for an offset further before the due date than `maximumLead`.
    public init?(legacyReminderOffset offset: Int, due: Date) {
        if offset >= 0 {
            guard offset <= Self.maximumLead else { return nil }
            self.init(.beforeDue(seconds: offset))
        } else {
            self.init(.at(Timestamp.truncatedToMilliseconds(due.addingTimeInterval(Double(-offset)))))
        }
    }
}
