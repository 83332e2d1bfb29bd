import Foundation

/// `due:DATE`, the way Taskwarrior and todo.txt write a due date: one token, no spaces.
///
/// The date is any expression of the date grammar with its words joined by "-" or "_"
/// (`due:tomorrow`, `due:next-fri`, `due:in_3_days`, `due:24-dec`, `due:tomorrow-5pm`), an ISO
/// day (`due:2026-12-24`), an ISO day and local time (`due:2026-12-24T17:00`) or an ISO 8601
/// moment with its offset (`due:2026-12-24T17:00:00Z`). The key is read without case.
enum DueToken {
    static let key = "due:"

    /// The forms accepted after `due:`, for the error message.
    static let acceptedForms =
        "today, tomorrow, fri, next-fri, in-3-days, 2026-12-24, 24-dec, eow, eom, tomorrow-5pm or 2026-12-24T17:00"

    /// The date after `due:` in `word`; nil when `word` is not a `due:` token (the key alone is
    /// text). Throws when the key is followed by something that is not a date.
    static func due(in word: String, grammar: DateGrammar) throws -> DueDate? {
        guard word.count > key.count, word.lowercased().hasPrefix(key) else { return nil }
        let body = String(word.dropFirst(key.count))
        if let moment = Timestamp.parse(body.uppercased()) { return DueDate(date: moment, isAllDay: false) }
        for words in readings(of: body.lowercased()) {
            if let match = grammar.expression(words[...]), let due = grammar.resolve(match) { return due }
        }
        throw QuickEntryError.unknownDue(word)
    }

    /// The body as one word ("2026-12-24", "tomorrow"), then split at "-" and "_" ("next-fri"),
    /// then an ISO day and a time split at "t" ("2026-12-24t17:00").
    private static func readings(of body: String) -> [[String]] {
        var readings = [[body], body.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)]
        if let t = body.firstIndex(of: "t"), body.distance(from: body.startIndex, to: t) == 10 {
            readings.append([String(body[..<t]), String(body[body.index(after: t)...])])
        }
        return readings
    }
}
