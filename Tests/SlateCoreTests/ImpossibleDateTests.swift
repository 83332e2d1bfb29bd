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
        ("Call the lab 25:00", ["“25:00” is not a time: hours go from 0 to 23 (midnight is 0:00), so it stays in the title."]),
        ("Call the lab 9:75pm", ["“9:75pm” is not a time: minutes go from 00 to 59, so it stays in the title."]),
        ("Call the lab 13pm", ["“13pm” is not a time: with am or pm, hours go from 1 to 12, so it stays in the title."]),
        ("Call the lab 0am", ["“0am” is not a time: with am or pm, hours go from 1 to 12, so it stays in the title."]),
    ])
    func anImpossibleDateIsSaid(line: String, warnings: [String]) throws {
        let entry = try Self.parser.parse(line)
        #expect(entry.title == line)
        #expect(entry.warnings == warnings)
    }

    @Test(arguments: ["Feb 28 review", "Read 1984", "Buy 2 tickets", "Mayday drill", "Call may 3", "Sprint 2026-02-28", "Audit 2028-02-29",
                      "Frame at 16:9", "Scale 1:100", "Call 23:59", "Call 12am", "Call 12:30pm", "Review feb 29 2028", "Plan in 400 days",
                      "Run 10k in 52:30", "Halftime 45:00 review", "Build 1:72 scale model", "Shoot a 60:40 split", "Call 12:60"])
    func realDatesAndOtherNumbersSayNothing(line: String) throws {
        #expect(try Self.parser.parse(line).warnings.isEmpty)
    }

    /// On 29 November 2026, the next 29 February is in 2028: the date is taken, and said.
    @Test func aDayMonthYearsAwayIsSaid() throws {
        let entry = try Self.parser.parse("Leap day party feb 29")
        #expect(entry.title == "Leap day party")
        #expect(entry.due?.isAllDay == true)
        #expect(testCalendar.dateComponents([.year, .month, .day], from: try #require(entry.due?.date)) == DateComponents(year: 2028, month: 2, day: 29))
        #expect(entry.warnings == ["“feb 29” is in 2028, the next time that day comes; give the year to mean another."])
        #expect(try Self.parser.parse("Leap day party feb 28").warnings.isEmpty)
    }
}

/// An "every …" phrase no repeat takes stays in the title, unread, and quick entry says so:
/// before, "every weekday" was saved as a task that does not repeat, and "every mon and thu"
/// as every Monday due on Thursday, titled "Gym and".
@Suite struct UnsupportedRepeatTests {
    static let parser = QuickEntryParser(now: date(2026, 11, 29, 10, 15), calendar: testCalendar)

    @Test(arguments: [
        ("Standup every weekday", "every weekday"),
        ("Gym every mon and thu", "every mon and thu"),
        ("Gym every mon, wed and fri", "every mon, wed and fri"),
        ("Gym every mon thu", "every mon thu"),
        ("Read every other tuesday", "every other tuesday"),
        ("Walk every morning", "every morning"),
        ("Call every 2nd monday", "every 2nd monday"),
        ("Pay every first monday", "every first monday"),
        ("Pay every last friday", "every last friday"),
        ("Pay every 15th", "every 15th"),
        ("Pay every month on the 1st and 15th", "every month on the 1st and 15th"),
        ("Pay every month on the 1st, 10th and 20th", "every month on the 1st, 10th and 20th"),
    ])
    func staysInTheTitleAndIsSaid(line: String, phrase: String) throws {
        let entry = try Self.parser.parse(line)
        #expect(entry.title == line)
        #expect(entry.recurrence == nil)
        #expect(entry.due == nil)
        #expect(entry.warnings == ["“\(phrase)” is not a repeat Slate has, so it stays in the title: a task repeats every day, week, month or year (every 2 weeks, every monday, every month on the 1st)."])
    }

    @Test func aTimeAfterThePhraseIsStillRead() throws {
        let entry = try Self.parser.parse("Gym every weekday 7am")
        #expect(entry.title == "Gym every weekday")
        #expect(entry.due == DueDate(date: date(2026, 11, 29, 7, 0), isAllDay: false))
        #expect(entry.warnings.count == 1)
    }

    @Test(arguments: ["Call mom every sunday", "Water plants every other day", "Sprint review every 2 weeks", "Every little thing counts",
                      "Review budget every month on the 1st", "Gym every monday and stretch"])
    func repeatsAndOtherEveriesSayNothing(line: String) throws {
        #expect(try Self.parser.parse(line).warnings.isEmpty)
    }
}
