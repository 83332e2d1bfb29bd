import Foundation

/// Words in a quick-entry title that look like a date no calendar has (`feb 30`,
/// `31 april`, `2026-02-30`) or a time no clock shows (`25:00`, `9:75pm`, `13pm`). The
/// parser leaves them in the title (they are not dates); these say why, so that a typo does
/// not pass for a title.
enum ImpossibleDates {
    /// One sentence per impossible date in `title`, in the order they appear.
    static func notes(in title: String) -> [String] {
        let words = title.split(whereSeparator: \.isWhitespace).map { TaskRules.trimmedPunctuation($0.lowercased()) }
        var notes: [String] = []
        for (index, word) in words.enumerated() {
            if let note = isoNote(word) ?? timeNote(word) {
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

    /// `25:00`, `9:75pm`, `13pm`: a clock time's shape (one or two digits, then two for the
    /// minutes; or one or two digits and am/pm) with an hour or a minute no clock has. Without
    /// am/pm only an hour just past the day's (24–29, minutes 00–59) is taken for a mistyped
    /// time: `52:30` or `45:00` is a duration, `1:72` and `60:40` are ratios.
    private static func timeNote(_ word: String) -> String? {
        var body = Substring(word)
        var meridiem: String?
        for suffix in ["am", "pm", "a.m.", "p.m."] where body.hasSuffix(suffix) && body.count > suffix.count {
            body = body.dropLast(suffix.count)
            meridiem = suffix
            break
        }
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(fields.count), (1...2).contains(fields[0].count), fields.count == 2 || meridiem != nil,
              fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(fields[0])
        else { return nil }
        var minute = 0
        if fields.count == 2 {
            guard fields[1].count == 2, let value = Int(fields[1]) else { return nil }
            minute = value
        }
        guard meridiem != nil else {
            guard (24...29).contains(hour), minute < 60 else { return nil }
            return "“\(word)” is not a time: hours go from 0 to 23 (midnight is 0:00), so it stays in the title."
        }
        if minute >= 60 { return "“\(word)” is not a time: minutes go from 00 to 59, so it stays in the title." }
        if !(1...12).contains(hour) {
            return "“\(word)” is not a time: with am or pm, hours go from 1 to 12, so it stays in the title."
        }
        return nil
    }

    /// A day and month typed without a year (`feb 29`) that is more than a year away: the
    /// next such day is years ahead, which the user may not expect. (`in 400 days` says
    /// how far it is itself.)
    static func farAheadNote(typed: String, due: DueDate, now: Date, calendar: Calendar) -> String? {
        let words = typed.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        let hasYear = words.contains { $0.count == 4 && $0.allSatisfy(\.isNumber) }
        guard !hasYear, words.contains(where: { month(named: String($0)) != nil }), let limit = calendar.date(byAdding: .year, value: 1, to: now), due.date > limit else { return nil }
        let year = calendar.component(.year, from: due.date)
        return "“\(typed)” is in \(year), the next time that day comes; give the year to mean another."
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
