import Foundation
import Synchronization

/// What an expression named, before it becomes a `DueDate`.
struct DateMatch: Hashable, Sendable {
    /// The start of a named local day.
    var day: Date?
    var time: TimeOfDay?
    /// The time used when none is given: "tonight".
    var defaultTime: TimeOfDay?
    /// An exact instant: "in 30 minutes".
    var moment: Date?

    /// A day without a time typed ("fri", "tomorrow", "tonight").
    var isDayWithoutTime: Bool { day != nil && time == nil && moment == nil }
    /// A time without a day ("3pm", "at 17:30").
    var isTimeOnly: Bool { time != nil && day == nil && moment == nil }
}

/// The date grammar described in DateParser.swift. Every function matches the *whole* slice of
/// lower-cased words it is given, or returns nil; the quick-entry parser finds expressions inside
/// a line by trying slices.
struct DateGrammar: Sendable {
    let now: Date
    private let local: LocalCalendar
    /// The user's calendar, made when a word first needs it (`LocalCalendar`).
    var calendar: Calendar { local.value.calendar }
    /// The start of the current local day.
    var today: Date { local.value.today }

    /// No expression is longer than this: "at 5:30 pm on december 24, 2026" is 7 words.
    static let maximumWords = 8

    init(now: Date, calendar: Calendar) {
        self.init(now: now, makeCalendar: { calendar })
    }

    /// A grammar that calls `makeCalendar` when it first reads a date word.
    init(now: Date, makeCalendar: @escaping @Sendable () -> Calendar) {
        self.now = now
        self.local = LocalCalendar(now: now, make: makeCalendar)
    }

    /// Lower-cased words separated by white space.
    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    }

    // MARK: Expressions

    /// A day, a time, a day and a time in either order, or a moment.
    func expression(_ words: ArraySlice<String>) -> DateMatch? {
        guard !words.isEmpty, words.count <= Self.maximumWords else { return nil }
        if let moment = relativeMoment(words) { return DateMatch(moment: moment) }
        if let day = dayPart(words) { return day }
        if let time = timePart(words) { return DateMatch(time: time) }
        for split in words.indices.dropFirst() {
            let head = words[..<split], tail = words[split...]
            if var match = dayPart(head), let time = timePart(tail) {
                match.time = time
                return match
            }
            if let time = timePart(head), var match = dayPart(tail) {
                match.time = time
                return match
            }
        }
        return nil
    }

    /// The due date a match stands for: a moment, a timed day, or an all-day day (today when only
    /// a time was given).
    func resolve(_ match: DateMatch) -> DueDate? {
        if let moment = match.moment { return DueDate(date: moment, isAllDay: false) }
        let day = match.day ?? today
        guard let time = match.time ?? match.defaultTime else { return DueDate(date: day, isAllDay: true) }
        return self.date(at: time, on: day).map { DueDate(date: $0, isAllDay: false) }
    }

    /// `time` on the local day starting at `day`; built from components so a daylight-saving
    /// change never shifts the clock time.
    func date(at time: TimeOfDay, on day: Date) -> Date? {
        if time.isEndOfDay { return calendar.date(byAdding: .day, value: 1, to: day) }
        var parts = calendar.dateComponents([.year, .month, .day], from: day)
        parts.hour = time.hour
        parts.minute = time.minute
        return calendar.date(from: parts)
    }

    // MARK: Days

    func dayPart(_ words: ArraySlice<String>) -> DateMatch? {
        if words.first == "on" {
            let rest = words.dropFirst()
            return (weekdayPhrase(rest) ?? calendarDate(rest) ?? dayOfMonthPhrase(rest)).map { DateMatch(day: $0) }
        }
        if words.count == 1, let word = words.first {
            switch word {
            case "today", "tod": return DateMatch(day: today)
            case "tomorrow", "tmr", "tmrw": return DateMatch(day: days(1))
            case "yesterday": return DateMatch(day: days(-1))
            case "tonight": return DateMatch(day: today, defaultTime: .evening)
            default: break
            }
        }
        if let day = weekdayPhrase(words) ?? calendarDate(words) ?? relativeDay(words) ?? periodPhrase(words) {
            return DateMatch(day: day)
        }
        return nil
    }

    /// fri · this fri · next fri · next week / month / year.
    func weekdayPhrase(_ words: ArraySlice<String>) -> Date? {
        let list = Array(words)
        switch list.count {
        case 1:
            return Self.weekdays[list[0]].flatMap(nextWeekday)
        case 2 where list[0] == "this":
            return Self.weekdays[list[1]].flatMap(nextWeekday)
        case 2 where list[0] == "next":
            if let weekday = Self.weekdays[list[1]] {
                return days(daysToNextMonday + (weekday + 5) % 7)
            }
            switch list[1] {
            case "week": return days(daysToNextMonday)
            case "month":
                let first = calendar.date(from: calendar.dateComponents([.year, .month], from: today))
                return first.flatMap { calendar.date(byAdding: .month, value: 1, to: $0) }
            case "year":
                return calendar.date(from: DateComponents(year: calendar.component(.year, from: today) + 1, month: 1, day: 1))
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The next day with this weekday (1 = Sunday … 7 = Saturday), today included.
    func nextWeekday(_ weekday: Int) -> Date? {
        days((weekday - calendar.component(.weekday, from: today) + 7) % 7)
    }

    /// Days from today to the Monday that starts next week.
    var daysToNextMonday: Int {
        7 - (calendar.component(.weekday, from: today) + 5) % 7
    }

    /// in 3 days · in a week · in 2 months · in one year.
    private func relativeDay(_ words: ArraySlice<String>) -> Date? {
        let list = Array(words)
        guard list.count == 3, list[0] == "in", let count = Self.count(list[1]) else { return nil }
        switch Self.singular(list[2]) {
        case "day": return days(count)
        case "week", "wk": return days(count * 7)
        case "month": return calendar.date(byAdding: .month, value: count, to: today).map(calendar.startOfDay)
        case "year", "yr": return calendar.date(byAdding: .year, value: count, to: today).map(calendar.startOfDay)
        default: return nil
        }
    }

    /// in an hour · in 30 minutes · in 2 hrs: an exact moment, counted from now without seconds.
    private func relativeMoment(_ words: ArraySlice<String>) -> Date? {
        let list = Array(words)
        guard list.count == 3, list[0] == "in", let count = Self.count(list[1]) else { return nil }
        let start = calendar.dateInterval(of: .minute, for: now)?.start ?? now
        switch Self.singular(list[2]) {
        case "minute", "min": return calendar.date(byAdding: .minute, value: count, to: start)
        case "hour", "hr": return calendar.date(byAdding: .hour, value: count, to: start)
        default: return nil
        }
    }

    /// 2026-12-24 · 24 dec · dec 24 · 24th december 2026 · december 24, 2026.
    func calendarDate(_ words: ArraySlice<String>) -> Date? {
        let list = Array(words)
        switch list.count {
        case 1:
            return isoDate(list[0])
        case 2:
            if let day = Self.dayOfMonth(list[0]), let month = Self.months[list[1]] { return nextDate(month: month, day: day) }
            if let month = Self.months[list[0]], let day = Self.dayOfMonth(list[1]) { return nextDate(month: month, day: day) }
            return nil
        case 3:
            // "4th of july": only with the ordinal ("Top 4 of July" stays a title).
            if list[1] == "of", let day = Self.ordinalDay(list[0]), let month = Self.months[list[2]] {
                return nextDate(month: month, day: day)
            }
            guard let year = Self.year(list[2]) else { return nil }
            let first = Self.droppingComma(list[0]), second = Self.droppingComma(list[1])
            if let day = Self.dayOfMonth(first), let month = Self.months[second] { return date(year: year, month: month, day: day) }
            if let month = Self.months[first], let day = Self.dayOfMonth(second) { return date(year: year, month: month, day: day) }
            return nil
        default:
            return nil
        }
    }

    /// "the 1st", "the 15th" after "on" ("every month on the 1st"): the next day with that
    /// number, today included, in the first month that has it (on 7 November, "on the 31st"
    /// is 31 December); "the 4th of july", "the 2nd march": the next such date. Only with its
    /// own ordinal suffix ("1st", not "1th") and after "on": "The 5th Wave" and "the 2 of us"
    /// stay titles (and quick entry leaves "on the 2nd floor" alone: `QuickEntryParser`).
    private func dayOfMonthPhrase(_ words: ArraySlice<String>) -> Date? {
        let list = Array(words)
        guard (2...4).contains(list.count), list[0] == "the", let day = Self.ordinalDay(list[1]) else { return nil }
        switch list.count {
        case 3: return Self.months[list[2]].flatMap { nextDate(month: $0, day: day) }
        case 4: return list[2] == "of" ? Self.months[list[3]].flatMap { nextDate(month: $0, day: day) } : nil
        default: break
        }
        let year = calendar.component(.year, from: today), month = calendar.component(.month, from: today)
        for ahead in 0...12 {
            let index = month - 1 + ahead
            if let date = date(year: year + index / 12, month: index % 12 + 1, day: day), date >= today { return date }
        }
        return nil
    }

    private func isoDate(_ word: String) -> Date? {
        let fields = word.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
            fields.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2])
        else { return nil }
        return date(year: year, month: month, day: day)
    }

    /// The next date with this month and day, today included; 29 February waits for a leap year.
    private func nextDate(month: Int, day: Int) -> Date? {
        let year = calendar.component(.year, from: today)
        for candidate in year...(year + 8) {
            if let date = date(year: candidate, month: month, day: day), date >= today { return date }
        }
        return nil
    }

    /// The start of that local day, or nil when the calendar has no such day (30 February).
    private func date(year: Int, month: Int, day: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day),
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day))
        else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        return calendar.startOfDay(for: date)
    }

    private func days(_ count: Int) -> Date? {
        calendar.date(byAdding: .day, value: count, to: today)
    }

    // MARK: Words

    static let weekdays: [String: Int] = [
        "sunday": 1, "sun": 1, "monday": 2, "mon": 2, "tuesday": 3, "tue": 3, "tues": 3,
        "wednesday": 4, "wed": 4, "thursday": 5, "thu": 5, "thur": 5, "thurs": 5,
        "friday": 6, "fri": 6, "saturday": 7, "sat": 7,
    ]

    static let months: [String: Int] = [
        "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
        "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
        "sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11,
        "dec": 12, "december": 12,
    ]

    private static let numberWords: [String: Int] = [
        "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
        "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    ]

    /// A count from 1 to 9999, in digits or as a word ("a", "an", "one" … "twelve").
    static func count(_ word: String) -> Int? {
        if let value = numberWords[word] { return value }
        guard (1...4).contains(word.count), word.allSatisfy(\.isASCIIDigit), let value = Int(word), value >= 1
        else { return nil }
        return value
    }

    /// "days" → "day", "mins" → "min"; other words unchanged.
    static func singular(_ word: String) -> String {
        word.count > 2 && word.hasSuffix("s") ? String(word.dropLast()) : word
    }

    /// 1–31, optionally with an ordinal suffix: "24", "24th", "1st".
    private static func dayOfMonth(_ word: String) -> Int? {
        var digits = Substring(word)
        if let suffix = ["st", "nd", "rd", "th"].first(where: { word.hasSuffix($0) }) { digits = digits.dropLast(suffix.count) }
        guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let day = Int(digits), (1...31).contains(day)
        else { return nil }
        return day
    }

    /// "1st", "2nd", "3rd", "4th" … "31st": a day of the month with the suffix its number
    /// takes in English; nil for "1th" or a bare number.
    static func ordinalDay(_ word: String) -> Int? {
        guard let day = dayOfMonth(word) else { return nil }
        let suffix: String
        switch (day % 10, day / 10 == 1) {
        case (1, false): suffix = "st"
        case (2, false): suffix = "nd"
        case (3, false): suffix = "rd"
        default: suffix = "th"
        }
        return word.hasSuffix(suffix) ? day : nil
    }

    private static func year(_ word: String) -> Int? {
        word.count == 4 && word.allSatisfy(\.isASCIIDigit) ? Int(word) : nil
    }

    private static func droppingComma(_ word: String) -> String {
        word.hasSuffix(",") ? String(word.dropLast()) : word
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// A grammar's calendar and today, made the first time a word is read as a date: most
/// quick-entry lines have no date words, and the first calendar a process makes costs more
/// than reading the line (Foundation's zone and calendar caches and the environment read
/// for `TZ`: 1.8M instructions, a tenth of a `slate add`).
final class LocalCalendar: Sendable {
    private let now: Date
    private let make: @Sendable () -> Calendar
    private let made = Mutex<(calendar: Calendar, today: Date)?>(nil)

    init(now: Date, make: @escaping @Sendable () -> Calendar) {
        self.now = now
        self.make = make
    }

    var value: (calendar: Calendar, today: Date) {
        made.withLock { made in
            if let made { return made }
            let calendar = make()
            let value = (calendar: calendar, today: calendar.startOfDay(for: now))
            made = value
            return value
        }
    }
}
