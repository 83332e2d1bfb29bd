import Foundation
import SlateCore
import Testing

/// A word that looks like a date no calendar has stays in the title, and quick entry says
/// why (the CLI on standard error, the API as `warnings`, the web app as a chip).
@Suite struct ImpossibleDateTests {
    static let parser = QuickEntryParser(now: date(2026, 11, 29, 10, 15), calendar: testCalendar)

    @Test(arguments: [
        ("Call the lab feb 30", ["“feb 30” is not a date: February has 29 days at most, so it stays in the title."]),
        ("Pay 31st April rent", ["“31st april” is not a date: April has 30 days at most, so it stays in the title."]),
        ("Audit 2026-02-30", ["“2026-02-30” is not a date: February 2026 has no day 30, so it stays in the title."]),
        ("Audit 2026-13-01", ["“2026-13-01” is not a date: there is no month 13, so it stays in the title."]),
    ])
    func anImpossibleDateIsSaid(line: String, warnings: [String]) throws {
        let entry = try Self.parser.parse(line)
        #expect(entry.title == line)
        #expect(entry.warnings == warnings)
    }

    @Test(arguments: ["Feb 28 review", "Read 1984", "Buy 2 tickets", "Mayday drill", "Call may 3", "Sprint 2026-02-28", "Audit 2028-02-29"])
    func realDatesAndOtherNumbersSayNothing(line: String) throws {
        #expect(try Self.parser.parse(line).warnings.isEmpty)
    }
}
