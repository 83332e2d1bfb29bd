import Foundation
@testable import SlateCore
import Testing

/// `TaskRules.trimmedPunctuation` trims what Foundation's `trimmingCharacters(in:
/// .punctuationCharacters)` trims (it replaced it on quick entry's path), and no more.
@Suite struct PunctuationTrimTests {
    @Test(arguments: ["(feb", "30).", "“feb", "30”", "«31st»", "¿25:00?", "—9:75pm…", "[2026-02-30];", "'13pm'", "feb",
                      "$30", "+1", "<25:00>", "~feb~", "a.m.", "...", "", "#Story", "@home!", "«»", "x_", "_x", "é.", "\u{301}."])
    func trimsAsFoundationDoes(word: String) {
        #expect(TaskRules.trimmedPunctuation(word) == word.trimmingCharacters(in: .punctuationCharacters))
        #expect(TaskRules.trimmedPunctuation(word[...]) == word.trimmingCharacters(in: .punctuationCharacters))
    }

    /// A date between brackets or quotes is still read as the word it is.
    @Test func anImpossibleDateInPunctuationIsSaid() throws {
        let parser = QuickEntryParser(now: date(2026, 11, 29, 10, 15), calendar: testCalendar)
        #expect(try parser.parse("Call the lab (feb 30).").warnings
            == ["“feb 30” is not a date: February has 29 days at most, so it stays in the title."])
        #expect(try parser.parse("Call the lab «25:00»").warnings
            == ["“25:00” is not a time: hours go from 0 to 23 (midnight is 0:00), so it stays in the title."])
    }
}
