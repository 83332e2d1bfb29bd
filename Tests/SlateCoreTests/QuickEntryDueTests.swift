import Foundation
import SlateCore
import Testing

/// `due:DATE` tokens, connecting words before a date ("Pay rent for tomorrow"), and the period
/// phrases ("end of month"), against Sunday 29 November 2026, 10:15 in Paris.
@Suite struct QuickEntryDueTests {
    static let dueTokens: [(String, ExpectedEntry)] = [
        ("Call Bob due:tomorrow", ExpectedEntry("Call Bob", due: "2026-11-30")),
        ("Call Bob due:2026-12-24", ExpectedEntry("Call Bob", due: "2026-12-24")),
        ("Call Bob due:fri", ExpectedEntry("Call Bob", due: "2026-12-04")),
        ("Call Bob Due:Tomorrow", ExpectedEntry("Call Bob", due: "2026-11-30")),
        ("Call Bob due:next-fri", ExpectedEntry("Call Bob", due: "2026-12-04")),
        ("Call Bob due:next_week", ExpectedEntry("Call Bob", due: "2026-11-30")),
        ("Call Bob due:in-3-days", ExpectedEntry("Call Bob", due: "2026-12-02")),
        ("Call Bob due:24-dec", ExpectedEntry("Call Bob", due: "2026-12-24")),
        ("Call Bob due:tomorrow-5pm", ExpectedEntry("Call Bob", due: "2026-11-30 17:00")),
        ("Call Bob due:17:30", ExpectedEntry("Call Bob", due: "2026-11-29 17:30")),
        ("Call Bob due:2026-12-24T17:00", ExpectedEntry("Call Bob", due: "2026-12-24 17:00")),
        ("Call Bob due:2026-12-24T16:00:00Z", ExpectedEntry("Call Bob", due: "2026-12-24 17:00")),
        ("Call Bob due:eow", ExpectedEntry("Call Bob", due: "2026-11-29")),
        ("Call Bob due:eom", ExpectedEntry("Call Bob", due: "2026-11-30")),
        ("due:fri Call Bob !high", ExpectedEntry("Call Bob", due: "2026-12-04", priority: .high)),
        ("Call Bob due:fri due:friday", ExpectedEntry("Call Bob", due: "2026-12-04")),
        // The token is the due date: date words elsewhere stay in the title.
        ("Prepare friday slides due:tomorrow", ExpectedEntry("Prepare friday slides", due: "2026-11-30")),
        ("Standup every monday due:tue", ExpectedEntry("Standup", due: "2026-12-01", recurrence: Recurrence(.weekly))),
        // Not due tokens
        ("Invoice due:", ExpectedEntry("Invoice due:")),
        ("Call Bob \\due:xyz", ExpectedEntry("Call Bob due:xyz")),
        ("Read overdue:tomorrow", ExpectedEntry("Read overdue:tomorrow")),
    ]

    @Test(arguments: dueTokens)
    func readsDueToken(line: String, expected: ExpectedEntry) throws {
        let clock = ParsingClock.parisSunday
        #expect(ExpectedEntry(try clock.quickEntryParser.parse(line), clock: clock) == expected)
    }

    @Test(arguments: [
        ("Call Bob due:xyz", QuickEntryError.unknownDue("due:xyz")),
        ("Call Bob due:12-24", .unknownDue("due:12-24")),
        ("Call Bob DUE:2026-02-30", .unknownDue("DUE:2026-02-30")),
        ("Call Bob due:fri due:mon", .twoDueDates("due:fri", "due:mon")),
        ("due:tomorrow", .blankTitle),
    ])
    func refusesDueToken(line: String, error: QuickEntryError) {
        #expect(throws: error) { try ParsingClock.parisSunday.quickEntryParser.parse(line) }
    }

    @Test func explainsAnUnreadableDueToken() {
        #expect(QuickEntryError.unknownDue("due:xyz").errorDescription
            == "Unknown due date \"due:xyz\". After due: use today, tomorrow, fri, next-fri, in-3-days, 2026-12-24, "
            + "24-dec, eow, eom, tomorrow-5pm or 2026-12-24T17:00, joining a date's words with -. "
            + "To keep the word in the title, write \\due:xyz.")
        #expect(QuickEntryError.twoDueDates("due:fri", "due:mon").errorDescription
            == "Two due dates given, \"due:fri\" and \"due:mon\": keep one.")
    }

    static let connectingWords: [(String, ExpectedEntry)] = [
        ("Pay rent for tomorrow", ExpectedEntry("Pay rent", due: "2026-11-30")),
        ("Send notes to Anna for friday", ExpectedEntry("Send notes to Anna", due: "2026-12-04")),
        ("Finish draft by fri", ExpectedEntry("Finish draft", due: "2026-12-04")),
        ("Report due tomorrow 5pm !high", ExpectedEntry("Report", due: "2026-11-30 17:00", priority: .high)),
        ("Report due by fri #Work", ExpectedEntry("Report", due: "2026-12-04", list: "Work")),
        ("Slides for 24 dec", ExpectedEntry("Slides", due: "2026-12-24")),
        ("Pay invoices by end of month", ExpectedEntry("Pay invoices", due: "2026-11-30")),
        ("Book hall on next weekend", ExpectedEntry("Book hall", due: "2026-12-05")),
        // Already read before the connecting words, and still read the same way
        ("Meet Anna on friday at 3pm", ExpectedEntry("Meet Anna", due: "2026-12-04 15:00")),
        // Must not change: no date follows, the word is the whole title, title text follows the
        // date, a date word inside a word, "at" before a day
        ("Buy film for", ExpectedEntry("Buy film for")),
        ("Vote for change", ExpectedEntry("Vote for change")),
        ("For tomorrow", ExpectedEntry("For", due: "2026-11-30")),
        ("Prepare for monday meeting", ExpectedEntry("Prepare for meeting", due: "2026-11-30")),
        ("Shop for fridays", ExpectedEntry("Shop for fridays")),
        ("Wait for monday.com invite", ExpectedEntry("Wait for monday.com invite")),
        ("Ask for sunflowers", ExpectedEntry("Ask for sunflowers")),
        ("Plan weekend trip", ExpectedEntry("Plan weekend trip")),
        ("Look at tomorrow", ExpectedEntry("Look at", due: "2026-11-30")),
        ("Pack for next sun trip", ExpectedEntry("Pack for trip", due: "2026-12-06")),
        // A day of the month after "on": the next one, today included, in a month that has it
        ("Pay rent on the 1st", ExpectedEntry("Pay rent", due: "2026-12-01")),
        ("Pay rent every month on the 1st", ExpectedEntry("Pay rent", due: "2026-12-01", recurrence: Recurrence(.monthly))),
        ("Water plants on the 29th", ExpectedEntry("Water plants", due: "2026-11-29")),
        ("Send invoices on the 31st 9am", ExpectedEntry("Send invoices", due: "2026-12-31 09:00")),
        ("Payroll on the 30TH", ExpectedEntry("Payroll", due: "2026-11-30")),
        // Not without "on" or the ordinal suffix: titles keep them
        ("Read The 5th Wave", ExpectedEntry("Read The 5th Wave")),
        ("Fix the 2nd light", ExpectedEntry("Fix the 2nd light")),
        ("Seats on the 2 of us", ExpectedEntry("Seats on the 2 of us")),
        ("Party on the 32nd", ExpectedEntry("Party on the 32nd")),
        ("Bill on the 1th", ExpectedEntry("Bill on the 1th")),
        // An ordinal before title text describes that word; with a month it is a date
        ("Meeting on the 2nd floor", ExpectedEntry("Meeting on the 2nd floor")),
        ("Review on the 3rd quarter report", ExpectedEntry("Review on the 3rd quarter report")),
        ("Pay rent on the 1st #Home", ExpectedEntry("Pay rent", due: "2026-12-01", list: "Home")),
        ("BBQ on the 4th of July", ExpectedEntry("BBQ", due: "2027-07-04")),
        ("Party on the 2nd march", ExpectedEntry("Party", due: "2027-03-02")),
        ("BBQ 4th of july", ExpectedEntry("BBQ", due: "2027-07-04")),
        ("Top 4 of July", ExpectedEntry("Top 4 of July")),
    ]

    @Test(arguments: connectingWords)
    func takesConnectingWordsWithTheDate(line: String, expected: ExpectedEntry) throws {
        let clock = ParsingClock.parisSunday
        #expect(ExpectedEntry(try clock.quickEntryParser.parse(line), clock: clock) == expected)
    }

    /// What is highlighted is what is removed: the connecting word and the `due:` token are in the
    /// due part's range, in UTF-16 units.
    @Test(arguments: [
        ("Pay rent for tomorrow !high", QuickEntry.Part(kind: .due, text: "for tomorrow", utf16Range: 9..<21, description: "Tomorrow")),
        ("🎬 Cut by fri", QuickEntry.Part(kind: .due, text: "by fri", utf16Range: 7..<13, description: "Friday")),
        ("Call Bob due:tomorrow #Home", QuickEntry.Part(kind: .due, text: "due:tomorrow", utf16Range: 9..<21, description: "Tomorrow")),
        ("Report due by end of month", QuickEntry.Part(kind: .due, text: "due by end of month", utf16Range: 7..<26, description: "Tomorrow")),
    ])
    func highlightsWhatItRemoves(line: String, due: QuickEntry.Part) throws {
        let entry = try ParsingClock.parisSunday.quickEntryParser.parse(line)
        #expect(entry.understood.first { $0.kind == .due } == due)
        let utf16 = Array(line.utf16)
        var rest = utf16
        for part in entry.understood.reversed() { rest.removeSubrange(part.utf16Range) }
        let left = String(decoding: rest, as: UTF16.self).split(separator: " ").joined(separator: " ")
        #expect(left == entry.title)
        #expect(String(decoding: utf16[due.utf16Range], as: UTF16.self) == due.text)
    }

    @Test(arguments: [
        (ParsingClock.parisSunday, "end of week", "2026-11-29"), (.parisMonday, "end of week", "2026-12-06"),
        (.parisSunday, "eow", "2026-11-29"), (.parisMonday, "end of the day", "2026-11-30"), (.parisMonday, "eod", "2026-11-30"), (.parisSunday, "end of the month", "2026-11-30"),
        (.newYorkWednesday, "end of month", "2026-02-28"), (.parisMonthEnd, "eom", "2027-01-31"),
        (.parisSunday, "end of year", "2026-12-31"), (.parisSunday, "eoy", "2026-12-31"),
        (.parisSunday, "day after tomorrow", "2026-12-01"), (.parisMonthEnd, "day after tomorrow 9am", "2027-02-02 09:00"),
        (.parisSunday, "this weekend", "2026-11-29"), (.parisMonday, "this weekend", "2026-12-05"),
        (.parisSunday, "next weekend", "2026-12-05"), (.parisMonday, "next weekend", "2026-12-12"),
    ])
    func readsPeriodPhrases(clock: ParsingClock, text: String, expected: String) {
        #expect(clock.render(clock.dateParser.parseDue(text)) == expected)
    }
}
