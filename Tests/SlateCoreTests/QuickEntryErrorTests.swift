import Foundation
import SlateCore
import Testing

/// Lines quick entry refuses, and the messages users read, word for word.
@Suite struct QuickEntryErrorTests {
    static let blankTitle =
        "A task needs a title. To keep a word such as tomorrow or #Story in the title, put it in quotes: \"tomorrow\"."

    @Test(arguments: [
        ("", QuickEntryError.blankTitle), ("   ", .blankTitle), ("tomorrow 5pm !high #Story", .blankTitle),
        ("\"\" #Story", .blankTitle), ("every day", .blankTitle), ("// only notes", .blankTitle),
        ("Ship it !urgent", .unknownPriority("!urgent")), ("Review !flagged", .unknownPriority("!flagged")),
        ("!Important call", .unknownPriority("!Important")), ("Cut trailer !high !low", .twoPriorities("!high", "!low")),
        ("Cut trailer !!! !crit", .twoPriorities("!!!", "!crit")),
        ("Cut trailer #Story #Sound", .twoLists("#Story", "#Sound")),
        ("Cut trailer #\"Toy Story\" #Story", .twoLists("#\"Toy Story\"", "#Story")),
        // The first problem in the line is reported, before a blank title.
        ("!urgent", .unknownPriority("!urgent")),
        ("Water the plants every 0 days", .repeatOutOfRange("every 0 days")),
        ("Back up EVERY 00 Weeks #Story", .repeatOutOfRange("EVERY 00 Weeks")),
        ("Renew the lease every 10000 years", .repeatOutOfRange("every 10000 years")),
    ])
    func refuses(line: String, error: QuickEntryError) {
        #expect(throws: error) { try ParsingClock.parisSunday.quickEntryParser.parse(line) }
    }

    @Test(arguments: [
        (QuickEntryError.blankTitle, blankTitle),
        (.unknownPriority("!urgent"),
         "Unknown priority \"!urgent\". Use !none, !low, !medium, !high or !critical (or !0 to !4, or !! to !!!!); "
            + "!flag flags the task. To keep the word in the title, write \\!urgent."),
        (.twoPriorities("!high", "!low"), "Two priorities given, \"!high\" and \"!low\": keep one."),
        (.twoLists("#Story", "#Sound"), "Two lists given, \"#Story\" and \"#Sound\": a task belongs to one list."),
        (.repeatOutOfRange("every 0 days"),
         "\"every 0 days\" cannot repeat: the number must be 1 to 9999, as in every 2 days or every other week. "
            + "To keep the words in the title, put them in quotes: \"every 0 days\"."),
    ])
    func explainsItself(error: QuickEntryError, message: String) {
        #expect(error.errorDescription == message)
        #expect(error.localizedDescription == message)
    }

    /// The escape the unknown-priority message suggests really keeps the word.
    @Test func theSuggestedEscapeWorks() throws {
        let entry = try ParsingClock.parisSunday.quickEntryParser.parse("Ship it \\!urgent")
        #expect(entry.title == "Ship it !urgent")
        #expect(entry.priority == nil)
    }

    /// So does the quoting the out-of-range repeat message suggests, and a repeat in range or
    /// in a unit recurrences do not have still reads as before.
    @Test func aRepeatOutOfRangeCanBeKeptAsTitleText() throws {
        let parser = ParsingClock.parisSunday.quickEntryParser
        let quoted = try parser.parse("Water the plants \"every 0 days\"")
        #expect(quoted.title == "Water the plants every 0 days")
        #expect(quoted.recurrence == nil)
        #expect(try parser.parse("Water the plants every 9999 days").recurrence == Recurrence(.daily, interval: 9999))
        let hours = try parser.parse("Check the oven every 0 hours")
        #expect(hours.title == "Check the oven every 0 hours")
        #expect(hours.recurrence == nil)
    }
}
