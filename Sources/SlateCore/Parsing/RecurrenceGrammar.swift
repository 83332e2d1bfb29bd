import Foundation

/// A recurrence as written, with the weekday it named ("every monday"), which `Recurrence`
/// itself does not keep: quick entry uses it to choose the first due date.
struct RecurrenceMatch: Hashable, Sendable {
    var recurrence: Recurrence
    /// 1 = Sunday … 7 = Saturday.
    var weekday: Int?
}

/// The recurrence grammar described in DateParser.swift; matches the whole slice of lower-cased
/// words or returns nil.
enum RecurrenceGrammar {
    /// The longest phrase: "every other week", "every 2 days".
    static let maximumWords = 3

    /// - Parameter allowsSingleWords: accept "daily", "weekly"…; quick entry does not, so that
    ///   "Weekly review" stays a title.
    static func match(_ words: ArraySlice<String>, allowsSingleWords: Bool) -> RecurrenceMatch? {
        let list = Array(words)
        switch list.count {
        case 1 where allowsSingleWords:
            return adverbs[list[0]].map { RecurrenceMatch(recurrence: $0) }
        case 2 where list[0] == "every":
            if let weekday = DateGrammar.weekdays[list[1]] {
                return RecurrenceMatch(recurrence: Recurrence(.weekly), weekday: weekday)
            }
            return units[list[1]].map { RecurrenceMatch(recurrence: Recurrence($0)) }
        case 3 where list[0] == "every":
            // "every a day" is not English; "in a day" is, so the shared count() accepts "a".
            let interval = list[1] == "other" ? 2 : ["a", "an"].contains(list[1]) ? nil : DateGrammar.count(list[1])
            guard let interval, let frequency = units[DateGrammar.singular(list[2])] else { return nil }
            return RecurrenceMatch(recurrence: Recurrence(frequency, interval: interval))
        default:
            return nil
        }
    }

    /// Whether `words` is "every N days" (or weeks, months, years) with a number that no
    /// recurrence takes (0, or more than four digits): quick entry refuses it rather than
    /// leaving it in the title as if it had not been meant.
    static func isIntervalOutOfRange(_ words: ArraySlice<String>) -> Bool {
        let list = Array(words)
        return list.count == 3 && list[0] == "every" && list[1].allSatisfy { $0.isASCII && $0.isNumber }
            && units[DateGrammar.singular(list[2])] != nil && DateGrammar.count(list[1]) == nil
    }

    private static let adverbs: [String: Recurrence] = [
        "daily": Recurrence(.daily), "weekly": Recurrence(.weekly), "fortnightly": Recurrence(.weekly, interval: 2),
        "monthly": Recurrence(.monthly), "yearly": Recurrence(.yearly), "annually": Recurrence(.yearly),
    ]

    private static let units: [String: Recurrence.Frequency] = [
        "day": .daily, "week": .weekly, "wk": .weekly, "month": .monthly, "year": .yearly, "yr": .yearly,
    ]
}
