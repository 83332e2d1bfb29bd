import Foundation

extension DateGrammar {
    /// end of day · end of week · end of the month · eoy · day after tomorrow · this weekend ·
    /// next weekend. The end of the day is today, all day (a time is "midnight").
    ///
    /// Weeks start on Monday (ISO), so the end of the week is the coming Sunday, today included.
    /// The abbreviations are Taskwarrior's (`due:eow`); they are not English words, so they are
    /// safe anywhere in a line. A bare "weekend" is: "Plan weekend trip" stays a title.
    func periodPhrase(_ words: ArraySlice<String>) -> Date? {
        var list = Array(words)
        if list.count == 4, list[0] == "end", list[1] == "of", list[2] == "the" { list.remove(at: 2) }
        switch list {
        case ["end", "of", "day"], ["eod"]: return today
        case ["end", "of", "week"], ["eow"]: return nextWeekday(1)
        case ["end", "of", "month"], ["eom"]: return lastDay(of: .month)
        case ["end", "of", "year"], ["eoy"]: return lastDay(of: .year)
        case ["day", "after", "tomorrow"]: return calendar.date(byAdding: .day, value: 2, to: today)
        case ["this", "weekend"]:
            // On a Sunday the weekend is today; otherwise it starts on the coming Saturday.
            return calendar.component(.weekday, from: today) == 1 ? today : nextWeekday(7)
        case ["next", "weekend"]: return calendar.date(byAdding: .day, value: daysToNextMonday + 5, to: today)
        default: return nil
        }
    }

    /// The start of the last local day of the current month or year.
    private func lastDay(of period: Calendar.Component) -> Date? {
        guard let interval = calendar.dateInterval(of: period, for: today) else { return nil }
        return calendar.date(byAdding: .day, value: -1, to: interval.end).map(calendar.startOfDay)
    }
}
