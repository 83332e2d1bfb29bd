import Foundation
import SlateCore
import Testing

/// `parseDue` against a fixed clock: Sunday 29 November 2026, 10:15 in Paris, unless a table
/// says otherwise. Expected dates are local wall-clock times; a bare date means all-day.
@Suite struct DateParserTests {
    static let sundayForms: [(String, String)] = [
        // Named days
        ("today", "2026-11-29"), ("TOD", "2026-11-29"), ("Tomorrow", "2026-11-30"), ("tmr", "2026-11-30"),
        ("tmrw", "2026-11-30"), ("yesterday", "2026-11-28"),
        ("tonight", "2026-11-29 20:00"), ("tonight 10pm", "2026-11-29 22:00"), ("10pm tonight", "2026-11-29 22:00"),
        // Weekdays: the next such day, today included; "next" = in next week (weeks start Monday)
        ("sun", "2026-11-29"), ("Sunday", "2026-11-29"), ("mon", "2026-11-30"), ("tues", "2026-12-01"),
        ("wed", "2026-12-02"), ("thurs", "2026-12-03"), ("fri", "2026-12-04"), ("Friday", "2026-12-04"),
        ("this fri", "2026-12-04"), ("sat", "2026-12-05"), ("on fri", "2026-12-04"),
        ("next mon", "2026-11-30"), ("next fri", "2026-12-04"), ("next sun", "2026-12-06"),
        ("next week", "2026-11-30"), ("next month", "2026-12-01"), ("next year", "2027-01-01"),
        // Relative days and moments
        ("in 3 days", "2026-12-02"), ("in a day", "2026-11-30"), ("in 2 weeks", "2026-12-13"),
        ("in 1 month", "2026-12-29"), ("in two months", "2027-01-29"), ("in 1 year", "2027-11-29"),
        ("in an hour", "2026-11-29 11:15"), ("in 30 minutes", "2026-11-29 10:45"), ("in 90 mins", "2026-11-29 11:45"),
        ("in 2 hrs", "2026-11-29 12:15"), ("in 15 hours", "2026-11-30 01:15"),
        // Calendar dates: without a year, the next such date, today included
        ("2026-12-24", "2026-12-24"), ("24 dec", "2026-12-24"), ("dec 24", "2026-12-24"),
        ("24 December", "2026-12-24"), ("24th dec", "2026-12-24"), ("december 24 2026", "2026-12-24"),
        ("December 24, 2026", "2026-12-24"), ("24 dec 2027", "2027-12-24"), ("on 24 dec", "2026-12-24"),
        ("29 nov", "2026-11-29"), ("28 nov", "2027-11-28"), ("jan 5", "2027-01-05"), ("29 feb", "2028-02-29"),
        ("1st may", "2027-05-01"), ("2020-02-29", "2020-02-29"),
        // Times alone: today, even when the time has passed
        ("5pm", "2026-11-29 17:00"), ("5 PM", "2026-11-29 17:00"), ("5:30pm", "2026-11-29 17:30"),
        ("5.30pm", "2026-11-29 17:30"), ("5 p.m.", "2026-11-29 17:00"), ("17:30", "2026-11-29 17:30"),
        ("7:05", "2026-11-29 07:05"), ("00:30", "2026-11-29 00:30"), ("9am", "2026-11-29 09:00"),
        ("12am", "2026-11-29 00:00"), ("12pm", "2026-11-29 12:00"), ("noon", "2026-11-29 12:00"),
        ("at noon", "2026-11-29 12:00"), ("at 5pm", "2026-11-29 17:00"), ("midnight", "2026-11-30 00:00"),
        // Date and time, either order
        ("tomorrow 5pm", "2026-11-30 17:00"), ("5pm tomorrow", "2026-11-30 17:00"),
        ("tomorrow at 17:30", "2026-11-30 17:30"), ("at 5pm tomorrow", "2026-11-30 17:00"),
        ("fri at 9am", "2026-12-04 09:00"), ("next fri 9am", "2026-12-04 09:00"),
        ("at 17:30 on 24 dec", "2026-12-24 17:30"), ("at 5:30 pm on december 24, 2026", "2026-12-24 17:30"),
        ("24 dec 2026 8am", "2026-12-24 08:00"), ("in 3 days 9am", "2026-12-02 09:00"),
        ("2026-12-24 17:30", "2026-12-24 17:30"), ("tomorrow midnight", "2026-12-01 00:00"),
        ("  Tomorrow \t  5PM  ", "2026-11-30 17:00"),
    ]

    @Test(arguments: sundayForms)
    func readsEveryFormOnASunday(text: String, expected: String) {
        let clock = ParsingClock.parisSunday
        #expect(clock.render(clock.dateParser.parseDue(text)) == expected)
    }

    static let notDates: [String] = [
        "", "   ", "2026-02-30", "2026-13-01", "2026-1-5", "2026-12-24-", "31 nov", "30 feb 2026", "32 dec",
        "25:00", "24:00", "17:60", "17:5", "13pm", "0am", "5", "at 5", "fri at 9", "5.30", "17.30", "1984",
        "5th", "the 5th", "The 5th Wave", "tomorrow meeting", "meeting tomorrow", "in 0 days", "in days",
        "in 3", "in 3 fortnights", "next", "next tomorrow", "on tomorrow", "on", "at", "tomorrow tomorrow",
        "5pm 6pm", "every week", "daily", "12/24", "24/12/2026", "in an hour 5pm", "24 dec 5", "friday the 13th",
        "5pmtomorrow", "dec", "dec 2026", "tonight tonight", "at tomorrow", "noon pm", "5pm pm",
    ]

    @Test(arguments: notDates)
    func refusesWhatIsNotExactlyOneDate(text: String) {
        #expect(ParsingClock.parisSunday.dateParser.parseDue(text) == nil)
    }

    static let wednesdayForms: [(String, String)] = [
        ("wed", "2026-02-25"), ("fri", "2026-02-27"), ("tue", "2026-03-03"), ("next fri", "2026-03-06"),
        ("next wed", "2026-03-04"), ("next mon", "2026-03-02"), ("next week", "2026-03-02"),
        ("next month", "2026-03-01"), ("in 1 month", "2026-03-25"), ("29 feb", "2028-02-29"),
        ("25 feb", "2026-02-25"), ("24 feb", "2027-02-24"), ("tonight", "2026-02-25 20:00"),
        ("5pm", "2026-02-25 17:00"), ("in 30 minutes", "2026-02-25 19:10"), ("midnight", "2026-02-26 00:00"),
    ]

    @Test(arguments: wednesdayForms)
    func readsWeekdaysFromAWednesdayInNewYork(text: String, expected: String) {
        let clock = ParsingClock.newYorkWednesday
        #expect(clock.render(clock.dateParser.parseDue(text)) == expected)
    }

    @Test(arguments: [("mon", "2026-11-30"), ("monday", "2026-11-30"), ("next mon", "2026-12-07"), ("next week", "2026-12-07")])
    func nextWeekFromAMondayIsSevenDaysOn(text: String, expected: String) {
        let clock = ParsingClock.parisMonday
        #expect(clock.render(clock.dateParser.parseDue(text)) == expected)
    }

    @Test(arguments: [("in 1 month", "2027-02-28"), ("next month", "2027-02-01"), ("in 2 months", "2027-03-31")])
    func monthArithmeticClampsToTheMonthEnd(text: String, expected: String) {
        let clock = ParsingClock.parisMonthEnd
        #expect(clock.render(clock.dateParser.parseDue(text)) == expected)
    }

    @Test func everyAcceptedFormListedForUsersIsAccepted() {
        let forms = DateParser.acceptedForms.components(separatedBy: ", ")
        #expect(forms.count == 15)
        for form in forms {
            #expect(ParsingClock.parisSunday.dateParser.parseDue(form) != nil, "\(form)")
        }
    }
}
