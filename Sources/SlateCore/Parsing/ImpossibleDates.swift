import Foundation

/// Words in a quick-entry title that look like a date no calendar has: `feb 30`,
/// `31 april`, `2026-02-30`. The parser leaves them in the title (they are not dates); these
/// say why, so that a typo does not pass for a title.
enum ImpossibleDates {
    /// One sentence per impossible date in `title`, in the order they appear.
    static func notes(in title: String) -> [String] {
        let words = title.split(whereSeparator: \.isWhitespace).map { String($0).lowercased().trimmingCharacters(in: .punctuationCharacters) }
        var notes: [String] = []
        for (index, word) in words.enumerated() {
            if let note = isoNote(word) {
                notes.append(note)
                continue
            }
            guard let month = month(named: word) else { continue }
            // `feb 30` or `30 feb` (with an ordinal: `30th`).
            for neighbour in [index + 1, index - 1] where words.indices.contains(neighbour) {
                guard let day = dayNumber(words[neighbour]), day > maximumDay(of: month) else { continue }
                let typed = neighbour > index ? "\(word) \(words[neighbour])" : "\(words[neighbour]) \(word)"
                notes.append("“\(typed)” is not a date: \(monthNames[month - 1].capitalized) has \(maximumDay(of: month)) days at most, so it stays in the title.")
                break
            }
        }
        return notes
    }

    /// `2026-02-30`: four digits, a month and a day that do not make a day.
    private static func isoNote(_ word: String) -> String? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        guard CalendarDay(year: year, month: month, day: day) == nil else { return nil }
        let why = (1...12).contains(month)
            ? "\(monthNames[month - 1].capitalized) \(year) has no day \(day)"
            : "there is no month \(month)"
        return "“\(word)” is not a date: \(why), so it stays in the title."
    }

    private static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august",
                                     "september", "october", "november", "december"]

    /// 1–12 for a month's name or its first three letters (`sept` too).
    private static func month(named word: String) -> Int? {
        if word == "sept" { return 9 }
        guard word.count >= 3 else { return nil }
        return monthNames.firstIndex { $0 == word || $0.prefix(3) == word }.map { $0 + 1 }
    }

    /// The most days the month ever has: its length in a leap year (February: 29).
    private static func maximumDay(of month: Int) -> Int {
        CalendarDay.length(ofMonth: month, in: 2000)
    }

    /// `30`, `30th`, `31st`: a day number of one or two digits.
    private static func dayNumber(_ word: String) -> Int? {
        var digits = word
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits.removeLast(2) }
        guard (1...2).contains(digits.count) else { return nil }
        return Int(digits)
    }
}
