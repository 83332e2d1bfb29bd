import Foundation
import SlateCore
import Testing

/// What a quick-entry line should mean, written compactly; `due` in the `ParsingClock.render`
/// form ("2026-11-30 17:00", or "2026-11-30" for all-day).
struct ExpectedEntry: Sendable, Equatable, CustomStringConvertible {
    var title: String
    var due: String? = nil
    var priority: Priority? = nil
    var list: String? = nil
    var tags: [String] = []
    var recurrence: Recurrence? = nil
    var flagged = false
    var notes: String? = nil

    init(
        _ title: String, due: String? = nil, priority: Priority? = nil, list: String? = nil, tags: [String] = [],
        recurrence: Recurrence? = nil, flagged: Bool = false, notes: String? = nil
    ) {
        (self.title, self.due, self.priority, self.list, self.tags) = (title, due, priority, list, tags)
        (self.recurrence, self.flagged, self.notes) = (recurrence, flagged, notes)
    }

    init(_ entry: QuickEntry, clock: ParsingClock) {
        self.init(
            entry.title, due: clock.render(entry.due), priority: entry.priority, list: entry.listName, tags: entry.tags,
            recurrence: entry.recurrence, flagged: entry.isFlagged, notes: entry.notes)
    }

    var description: String {
        "\"\(title)\" due \(due ?? "-") priority \(priority?.name ?? "-") list \(list ?? "-") tags \(tags) "
            + "repeat \(recurrence?.phrase ?? "-") flagged \(flagged) notes \(notes ?? "-")"
    }
}

/// Quick entry against Sunday 29 November 2026, 10:15 in Paris.
@Suite struct QuickEntryTests {
    static let lines: [(String, ExpectedEntry)] = [
        // The example from the issue, exactly
        ("Storyboard the inciting incident tomorrow 5pm !high #Story",
         ExpectedEntry("Storyboard the inciting incident", due: "2026-11-30 17:00", priority: .high, list: "Story")),
        // A day and a time typed apart make one due date (the time was read alone as today's,
        // and the day left in the title)
        ("Call Bob fri about the contract 3pm", ExpectedEntry("Call Bob about the contract", due: "2026-12-04 15:00")),
        ("Call Bob 3pm about the contract fri", ExpectedEntry("Call Bob about the contract", due: "2026-12-04 15:00")),
        ("Renew on the 31st every month 9am", ExpectedEntry("Renew", due: "2026-12-31 09:00", recurrence: Recurrence(.monthly))),
        ("Dentist tomorrow bring forms at 10:30", ExpectedEntry("Dentist bring forms", due: "2026-11-30 10:30")),
        ("Prepare for monday meeting", ExpectedEntry("Prepare for meeting", due: "2026-11-30")),
        ("Movie tonight with Anna 10pm", ExpectedEntry("Movie with Anna", due: "2026-11-29 22:00")),
        ("Movie 10pm with Anna tonight", ExpectedEntry("Movie with Anna", due: "2026-11-29 22:00")),
        ("Call mom at 5pm about Sunday lunch", ExpectedEntry("Call mom about Sunday lunch", due: "2026-11-29 17:00")),
        ("Book the 9pm show fri", ExpectedEntry("Book the show", due: "2026-12-04 21:00")),
        // A comma or semicolon after a date ends it and goes with it
        ("Dentist tomorrow, bring forms", ExpectedEntry("Dentist bring forms", due: "2026-11-30")),
        ("Dentist fri 10:30; bring forms", ExpectedEntry("Dentist bring forms", due: "2026-12-04 10:30")),
        ("Call Sun, Moon and Stars Inc", ExpectedEntry("Call Sun, Moon and Stars Inc")),
        ("Buy milk, eggs, bread", ExpectedEntry("Buy milk, eggs, bread")),
        // Quoting and words that must not become dates
        ("\"The 5th Wave\" tomorrow", ExpectedEntry("The 5th Wave", due: "2026-11-30")),
        ("Read The 5th Wave", ExpectedEntry("Read The 5th Wave")),
        ("Buy 2 tickets", ExpectedEntry("Buy 2 tickets")),
        ("Call at 5", ExpectedEntry("Call at 5")),
        ("Read 1984", ExpectedEntry("Read 1984")),
        ("Ask what \"tomorrow\" means", ExpectedEntry("Ask what tomorrow means")),
        ("“Toy Story 5” premiere 24 dec 8pm", ExpectedEntry("Toy Story 5 premiere", due: "2026-12-24 20:00")),
        ("Measure 12\" pizza tomorrow", ExpectedEntry("Measure 12\" pizza", due: "2026-11-30")),
        ("Say \"it's   fine\" later", ExpectedEntry("Say it's   fine later")),
        ("\\#5 spec \\tomorrow", ExpectedEntry("#5 spec tomorrow")),
        ("Tonight's show", ExpectedEntry("Tonight's show")),
        // Dates anywhere: longest wins, then the last; at most one
        ("Call mom at 5pm", ExpectedEntry("Call mom", due: "2026-11-29 17:00")),
        ("Meet Anna on fri at 9am #Production", ExpectedEntry("Meet Anna", due: "2026-12-04 09:00", list: "Production")),
        ("Renew passport 2026-12-24", ExpectedEntry("Renew passport", due: "2026-12-24")),
        ("Prepare friday slides tomorrow", ExpectedEntry("Prepare friday slides", due: "2026-11-30")),
        ("Book tomorrow 5pm tickets fri", ExpectedEntry("Book tickets fri", due: "2026-11-30 17:00")),
        ("Check in an hour", ExpectedEntry("Check", due: "2026-11-29 11:15")),
        ("Lock budget in 3 days !crit #Production @money",
         ExpectedEntry("Lock budget", due: "2026-12-02", priority: .critical, list: "Production", tags: ["money"])),
        // Ambiguous short words: a date only with no title words after them
        ("Buy sun cream", ExpectedEntry("Buy sun cream")),
        ("Buy sun cream sun", ExpectedEntry("Buy sun cream", due: "2026-11-29")),
        ("Buy sun cream sat #Shopping", ExpectedEntry("Buy sun cream", due: "2026-12-05", list: "Shopping")),
        ("Pack for next sun trip", ExpectedEntry("Pack for trip", due: "2026-12-06")),
        ("Get wed photos", ExpectedEntry("Get wed photos")),
        // Recurrence, only with "every"
        ("Pay rent every month", ExpectedEntry("Pay rent", recurrence: Recurrence(.monthly))),
        ("Water plants every 2 days", ExpectedEntry("Water plants", recurrence: Recurrence(.daily, interval: 2))),
        ("Gym every other day 7am", ExpectedEntry("Gym", due: "2026-11-29 07:00", recurrence: Recurrence(.daily, interval: 2))),
        ("Standup every monday", ExpectedEntry("Standup", due: "2026-11-30", recurrence: Recurrence(.weekly))),
        ("Standup every monday 9am", ExpectedEntry("Standup", due: "2026-11-30 09:00", recurrence: Recurrence(.weekly))),
        // Today is Sunday, 10:15: a weekday's time already gone today starts the series next week.
        ("Review every sunday 9am", ExpectedEntry("Review", due: "2026-12-06 09:00", recurrence: Recurrence(.weekly))),
        ("Review every sunday 11am", ExpectedEntry("Review", due: "2026-11-29 11:00", recurrence: Recurrence(.weekly))),
        ("Review every sunday", ExpectedEntry("Review", due: "2026-11-29", recurrence: Recurrence(.weekly))),
        ("Backup every week fri 6pm", ExpectedEntry("Backup", due: "2026-12-04 18:00", recurrence: Recurrence(.weekly))),
        ("Weekly review", ExpectedEntry("Weekly review")),
        ("Daily standup tomorrow", ExpectedEntry("Daily standup", due: "2026-11-30")),
        ("Read every book", ExpectedEntry("Read every book")),
        // Priorities, flag, lists, tags
        ("Pitch !!", ExpectedEntry("Pitch", priority: .medium)),
        ("Pitch !!!", ExpectedEntry("Pitch", priority: .high)),
        ("Pitch !!!!", ExpectedEntry("Pitch", priority: .critical)),
        ("Pitch !3", ExpectedEntry("Pitch", priority: .high)),
        ("Pitch !LOW", ExpectedEntry("Pitch", priority: .low)),
        ("Pitch !0", ExpectedEntry("Pitch", priority: Priority.none)),
        ("Pitch !high !3", ExpectedEntry("Pitch", priority: .high)),
        ("Appeler Marie ! tomorrow", ExpectedEntry("Appeler Marie !", due: "2026-11-30")),
        ("Really? !? wow!", ExpectedEntry("Really? !? wow!")),
        ("Review cut !flag", ExpectedEntry("Review cut", flagged: true)),
        ("Fix #42 login bug #Sound", ExpectedEntry("Fix #42 login bug", list: "Sound")),
        ("Ship #\"Toy Story\" poster", ExpectedEntry("Ship poster", list: "Toy Story")),
        ("Ship poster #Story #story", ExpectedEntry("Ship poster", list: "Story")),
        ("Email bob@example.com @Work @work @home", ExpectedEntry("Email bob@example.com", tags: ["work", "home"])),
        ("Fix # and @ and #!", ExpectedEntry("Fix # and @ and #!")),
        // Notes and white space
        ("Prep notes // bring the 5th draft tomorrow !high",
         ExpectedEntry("Prep notes", notes: "bring the 5th draft tomorrow !high")),
        ("Open http://example.com/a//b", ExpectedEntry("Open http://example.com/a//b")),
        ("Prep notes //", ExpectedEntry("Prep notes")),
        ("  Write   Act 2\toutline  ", ExpectedEntry("Write Act 2 outline")),
    ]

    @Test(arguments: lines)
    func readsLine(line: String, expected: ExpectedEntry) throws {
        let clock = ParsingClock.parisSunday
        let entry = try clock.quickEntryParser.parse(line)
        #expect(ExpectedEntry(entry, clock: clock) == expected)
    }

    @Test func showsBackWhatItUnderstoodForTheIssueExample() throws {
        let entry = try ParsingClock.parisSunday.quickEntryParser.parse(
            "Storyboard the inciting incident tomorrow 5pm !high #Story")
        #expect(entry.understood == [
            QuickEntry.Part(kind: .due, text: "tomorrow 5pm", utf16Range: 33..<45, description: "Tomorrow 17:00"),
            QuickEntry.Part(kind: .priority, text: "!high", utf16Range: 46..<51, description: "high"),
            QuickEntry.Part(kind: .list, text: "#Story", utf16Range: 52..<58, description: "Story"),
        ])
    }

    @Test func listsEveryKindInLineOrderWithUTF16Offsets() throws {
        let line = "🎬 !flag Shoot @Set every monday #\"Toy Story\" !! // bring props"
        let entry = try ParsingClock.parisSunday.quickEntryParser.parse(line)
        #expect(entry.title == "🎬 Shoot")
        #expect(entry.understood == [
            QuickEntry.Part(kind: .flag, text: "!flag", utf16Range: 3..<8, description: "flagged"),
            QuickEntry.Part(kind: .tag, text: "@Set", utf16Range: 15..<19, description: "set"),
            QuickEntry.Part(kind: .recurrence, text: "every monday", utf16Range: 20..<32, description: "every week"),
            QuickEntry.Part(kind: .due, text: "every monday", utf16Range: 20..<32, description: "Tomorrow"),
            QuickEntry.Part(kind: .list, text: "#\"Toy Story\"", utf16Range: 33..<45, description: "Toy Story"),
            QuickEntry.Part(kind: .priority, text: "!!", utf16Range: 46..<48, description: "medium"),
            QuickEntry.Part(kind: .notes, text: "// bring props", utf16Range: 49..<63, description: "bring props"),
        ])
        for part in entry.understood {
            let range = String.Index(utf16Offset: part.utf16Range.lowerBound, in: line)..<String.Index(
                utf16Offset: part.utf16Range.upperBound, in: line)
            #expect(String(line[range]) == part.text)
        }
    }

    @Test func roundTripsThroughJSON() throws {
        let entry = try ParsingClock.parisSunday.quickEntryParser.parse("Call mom tomorrow 5pm !high #Home @family // ring twice")
        let decoded = try JSONDecoder().decode(QuickEntry.self, from: JSONEncoder().encode(entry))
        #expect(decoded == entry)
        #expect(decoded.understood.map(\.kind) == [.due, .priority, .list, .tag, .notes])
    }
}
