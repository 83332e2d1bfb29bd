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
        return try reading(text, option: option, parsed) { try TaskValues.priority(text) }
    }

    /// `--due DATE`, or `.some(nil)` for `--due none`: SlateCore's one reading of due dates.
    func due(_ parsed: ParsedCommand) throws -> DueDate?? {
        guard let text = parsed.value("due") else { return nil }
        if text.isEmpty { return .some(nil) }
        return .some(try reading(text, option: "due", parsed) { try TaskValues.due(text, now: now, calendar: calendar) })
    }

    /// `--alert` values (repeatable): SlateCore's reading of alerts as people type them, a
    /// local date and time in the session's zone as `--due` reads it.
    func alerts(_ texts: [String], _ parsed: ParsedCommand) throws -> [TaskAlert] {
        try texts.map { text in try reading(text, option: "alert", parsed) { try TaskValues.alerts([text], now: now, calendar: calendar)[0] } }
    }

    /// `--repeat RULE`, or `.some(nil)` for `--repeat none`: SlateCore's one reading of repeats.
    func recurrence(_ parsed: ParsedCommand) throws -> Recurrence?? {
        guard let text = parsed.value("repeat") else { return nil }
        return .some(try reading(text, option: "repeat", parsed) { try TaskValues.recurrence(text) })
    }

    /// `--color` (`#RRGGBB`): a malformed colour is a mistake in the command line (exit 2).
    func color(_ parsed: ParsedCommand) throws -> String? {
        guard let text = parsed.value("color") else { return nil }
        return try reading(text, option: "color", parsed) { try TaskRules.validColor(text) }
    }

    /// `--icon NAME`, checked the same way.
    func icon(_ parsed: ParsedCommand) throws -> String? {
        guard let text = parsed.value("icon") else { return nil }
        return try reading(text, option: "icon", parsed) { try TaskRules.validIcon(text) }
    }

    /// The task a command-line word names (`12`, `#12`, an id prefix). A word that can
    /// name no task at all is a mistake in the command line (exit 2); a well-formed
    /// reference to a missing task stays "not found" (exit 1).
    func task(_ reference: String, _ parsed: ParsedCommand) throws -> TaskItem {
        do {
            return try slate().task(reference: reference).model
        } catch SlateError.invalid(let field, let message) where field == "task" {
            throw UsageError(message: message, command: parsed.path)
        }
    }

    /// A value read by SlateCore, its refusal shown as a mistake in the command line.
    private func reading<T>(_ text: String, option: String, _ parsed: ParsedCommand, _ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch SlateError.invalid(_, let message) {
            // "'due' must be FORMS; got 'x'." → FORMS
            guard let start = message.range(of: "must be "), let end = message.range(of: "; got", range: start.upperBound..<message.endIndex) else {
                throw UsageError(message: "invalid value '\(text)' for --\(option): \(message)", command: parsed.path)
            }
            throw invalidValue(text, option: option, expected: String(message[start.upperBound..<end.lowerBound]), path: parsed.path)
        }
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
        // A task named twice (`1 #1`, or its number and an id prefix) is one task.
        var seen = Set<UUID>()
        return try parsed.positionals.map { try task($0, parsed) }.filter { seen.insert($0.id).inserted }
    }

    /// Lists by id, for showing list names beside tasks.
    func listsByID() throws -> [UUID: TaskList] {
        try slate().listsByID()
    }
}
