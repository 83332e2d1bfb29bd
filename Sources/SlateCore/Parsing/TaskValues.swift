import Foundation

/// The one reading of the values people and programs give for a task's fields, whatever
/// the surface: the CLI's `--due`, `--repeat` and `--priority`, the API's `due`,
/// `recurrence` and `priority`. Each accepts the same forms and refuses the rest with an
/// error naming the field and the accepted forms.
public enum TaskValues {
    /// Words that clear a value: "none", "never", "no".
    public static let clearingWords: Set<String> = ["none", "never", "no"]

    /// The accepted due forms, for messages and help.
    public static let acceptedDueForms =
        "YYYY-MM-DD (all day), an ISO 8601 date-time such as 2026-12-24T17:00:00Z (or 2026-12-24T17:00, local time), \(DateParser.acceptedForms), or none"

    /// The accepted repeat forms, for messages and help.
    public static let acceptedRecurrenceForms =
        "daily, weekly, monthly, yearly, every N days/weeks/months/years (or just N days/weeks/months/years), every other week, every monday, or none"

    /// A due date: a day (`2026-12-24`, all day), an ISO 8601 moment, or a phrase (`fri
    /// 5pm`) read in `calendar`'s zone; nil for a clearing word.
    public static func due(_ text: String, now: Date, calendar: Calendar, field: String = "due") throws -> DueDate? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if clearingWords.contains(trimmed.lowercased()) { return nil }
        if let day = Timestamp.parseDay(trimmed, calendar: calendar) { return DueDate(date: day, isAllDay: true) }
        if let moment = Timestamp.parse(trimmed) { return DueDate(date: moment, isAllDay: false) }
        if let moment = localMoment(trimmed, calendar: calendar) { return DueDate(date: moment, isAllDay: false) }
        if let parsed = DateParser(now: now, calendar: calendar).parseDue(trimmed) { return parsed }
        throw SlateError.invalid(field: field, message: "'\(field)' must be \(acceptedDueForms); got '\(text)'.")
    }

    /// The accepted alert forms for a person (the CLI's `--alert`): `TaskAlert`'s, and a
    /// date and time read as a due date is.
    public static let acceptedAlertForms =
        "'due', a lead time such as '15m', '2h', '1d' or '1w' (before the due time), '1d@9:00' (days before the due day at a local time), "
        + "or a date and time such as '2026-12-24 09:00', '2026-12-24T09:00:00Z' or 'fri 9am'"

    /// Alerts as a person types them: `TaskAlert`'s text forms, or a moment written as a due
    /// date's time is (`2026-12-24 09:00`, `2026-12-24T09:00`, `fri 9am`, read in
    /// `calendar`'s zone). A day without a time is refused: an alert needs its time.
    public static func alerts(_ texts: [String], now: Date, calendar: Calendar, field: String = "alert") throws -> [TaskAlert] {
        try TaskAlert.parseList(texts, field: field) { text in
            if let alert = try? TaskAlert(parsing: text, field: field) { return alert }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let spaced = trimmed.split(separator: " ", omittingEmptySubsequences: true)
            // `2026-12-24 09:00` as `2026-12-24T09:00`.
            let joined = spaced.count == 2 && Timestamp.parseDay(String(spaced[0]), calendar: calendar) != nil ? spaced.joined(separator: "T") : trimmed
            if let moment = localMoment(joined, calendar: calendar) ?? Timestamp.parse(joined) {
                return TaskAlert(.at(Timestamp.truncatedToMilliseconds(moment)))
            }
            if let due = DateParser(now: now, calendar: calendar).parseDue(trimmed), !due.isAllDay {
                return TaskAlert(.at(Timestamp.truncatedToMilliseconds(due.date)))
            }
            throw SlateError.invalid(field: field, message: "'\(field)' must be \(acceptedAlertForms); got '\(text)'.")
        }
    }

    /// `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS` without a zone (what an HTML
    /// `datetime-local` field gives): that wall-clock time in `calendar`'s zone.
    static func localMoment(_ text: String, calendar: Calendar) -> Date? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let day = Timestamp.parseDay(String(parts[0]), calendar: calendar) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count), clock.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = clock.count == 3 ? Int(clock[2]) : 0,
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second)
        else { return nil }
        var components = calendar.dateComponents([.year, .month, .day], from: day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        return calendar.date(from: components)
    }

    /// A repeat rule: `every 2 weeks`, `2 weeks`, `weekly`, the stored form `weekly/2`;
    /// nil for a clearing word. The interval must be 1 to 1,000.
    public static func recurrence(_ text: String, field: String = "recurrence") throws -> Recurrence? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        if clearingWords.contains(lowered) { return nil }
        let parser = DateParser(now: Date(timeIntervalSince1970: 0), calendar: Calendar(identifier: .gregorian))
        // The stored form, but not the day a short month kept (`Recurrence.dayOfMonth`): Slate sets that.
        let rule = (lowered.contains("@") ? nil : Recurrence(storageValue: lowered))
            ?? parser.parseRecurrence(trimmed)
            ?? (lowered.hasPrefix("every") ? nil : parser.parseRecurrence("every " + trimmed))
        guard let rule else {
            throw SlateError.invalid(field: field, message: "'\(field)' must be \(acceptedRecurrenceForms); got '\(text)'.")
        }
        do {
            return try TaskRules.validRecurrence(rule)
        } catch SlateError.invalid(_, let message) {
            throw SlateError.invalid(field: field, message: message)
        }
    }

    /// A priority by name (`high`), digit (`3`) or marks (`!!!`).
    public static func priority(_ text: String, field: String = "priority") throws -> Priority {
        guard let priority = Priority(name: text.trimmingCharacters(in: .whitespaces)) else {
            throw SlateError.invalid(field: field, message: "'\(field)' must be \(Priority.acceptedForms); got '\(text)'.")
        }
        return priority
    }
}
