import Foundation
import SlateCore

/// Turns option values into domain values, with errors that name the option and the
/// accepted forms.
extension Session {
    func invalidValue(_ value: String, option: String, expected: String, path: [String]) -> UsageError {
        UsageError(message: "invalid value '\(value)' for --\(option): expected \(expected).", command: path)
    }

    func priority(_ parsed: ParsedCommand, option: String = "priority") throws -> Priority? {
        guard let text = parsed.value(option) else { return nil }
        guard let priority = Priority(name: text) else {
            throw invalidValue(text, option: option, expected: Priority.acceptedForms, path: parsed.path)
        }
        return priority
    }

    /// `--due DATE`, or `.some(nil)` for `--due none`.
    func due(_ parsed: ParsedCommand) throws -> DueDate?? {
        guard let text = parsed.value("due") else { return nil }
        if ["none", "never", "no", ""].contains(text.lowercased()) { return .some(nil) }
        guard let due = dateParser.parseDue(text) else {
            throw invalidValue(text, option: "due", expected: DateParser.acceptedForms + ", or none", path: parsed.path)
        }
        return .some(due)
    }

    /// `--repeat RULE`, or `.some(nil)` for `--repeat none`.
    func recurrence(_ parsed: ParsedCommand) throws -> Recurrence?? {
        guard let text = parsed.value("repeat") else { return nil }
        if ["none", "never", "no"].contains(text.lowercased()) { return .some(nil) }
        let phrase = text.lowercased().hasPrefix("every") || ["daily", "weekly", "monthly", "yearly"].contains(text.lowercased())
            ? text : "every " + text
        guard let recurrence = dateParser.parseRecurrence(phrase) else {
            throw invalidValue(text, option: "repeat", expected: "daily, weekly, monthly, yearly, every N days/weeks/months/years, or none", path: parsed.path)
        }
        return .some(recurrence)
    }

    /// `--list NAME` as a list id, or `.some(nil)` for `--list none` (the Inbox).
    func listID(_ parsed: ParsedCommand) throws -> UUID?? {
        guard let name = parsed.value("list") else { return nil }
        if ["none", "inbox"].contains(name.lowercased()), try slate().list(named: name) == nil { return .some(nil) }
        return .some(try slate().requireList(named: name).id)
    }

    func positiveInteger(_ parsed: ParsedCommand, option: String) throws -> Int? {
        guard let text = parsed.value(option) else { return nil }
        guard let value = Int(text), value > 0 else {
            throw invalidValue(text, option: option, expected: "a whole number greater than 0", path: parsed.path)
        }
        return value
    }

    func choice<T: RawRepresentable & CaseIterable>(_ parsed: ParsedCommand, option: String, _ type: T.Type) throws -> T? where T.RawValue == String {
        guard let text = parsed.value(option) else { return nil }
        guard let value = T(rawValue: text.lowercased()) else {
            let names = T.allCases.map(\.rawValue)
            throw invalidValue(text, option: option, expected: names.joined(separator: ", "), path: parsed.path)
        }
        return value
    }

    /// The tasks named by the positional arguments, all resolved before anything changes.
    func tasks(_ parsed: ParsedCommand) throws -> [TaskItem] {
        try parsed.positionals.map { try slate().task(reference: $0).model }
    }

    /// Lists by id, for showing list names beside tasks.
    func listsByID() throws -> [UUID: TaskList] {
        Dictionary(uniqueKeysWithValues: try slate().listsWithoutCounts().map { ($0.id, $0) })
    }
}
