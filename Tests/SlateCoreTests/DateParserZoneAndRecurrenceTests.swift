import Foundation
import SlateCore
import Testing

/// Time zones and daylight saving, stated as absolute instants so the expectations do not lean
/// on the same calendar arithmetic as the parser.
@Suite struct DateParserTimeZoneTests {
    static func instant(_ iso: String) -> Date { try! Date(iso, strategy: .iso8601) }

    /// Paris moves from UTC+1 to UTC+2 at 02:00 on Sunday 29 March 2026.
    @Test(arguments: [
        ("tomorrow 5pm", "2026-03-29T15:00:00Z", false), ("tomorrow 9am", "2026-03-29T07:00:00Z", false),
        ("tomorrow", "2026-03-28T23:00:00Z", true), ("in 2 days", "2026-03-29T22:00:00Z", true),
        ("5pm", "2026-03-28T16:00:00Z", false), ("in 24 hours", "2026-03-29T09:00:00Z", false),
    ])
    func keepsWallClockTimesAcrossSpringForward(text: String, utc: String, isAllDay: Bool) {
        let clock = ParsingClock.parisBeforeSpringForward
        #expect(clock.dateParser.parseDue(text) == DueDate(date: Self.instant(utc), isAllDay: isAllDay))
    }

    /// One instant, 2026-11-29 09:15 UTC, seen from three zones: each reads words in its own.
    @Test(arguments: [
        ("Asia/Tokyo", "5pm", "2026-11-29T08:00:00Z", false), ("Asia/Tokyo", "tomorrow", "2026-11-29T15:00:00Z", true),
        ("America/Los_Angeles", "5pm", "2026-11-30T01:00:00Z", false),
        ("America/Los_Angeles", "tomorrow", "2026-11-30T08:00:00Z", true),
        ("Europe/Paris", "today", "2026-11-28T23:00:00Z", true),
    ])
    func readsWordsInTheCalendarsTimeZone(zone: String, text: String, utc: String, isAllDay: Bool) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let parser = DateParser(now: Self.instant("2026-11-29T09:15:00Z"), calendar: calendar)
        #expect(parser.parseDue(text) == DueDate(date: Self.instant(utc), isAllDay: isAllDay))
    }

    /// A date-time without a zone (an HTML datetime-local value) is that wall-clock time in
    /// the calendar's zone, across the spring-forward day too; anything else of that shape is refused.
    @Test func aLocalDateTimeIsReadInTheCalendarsZone() throws {
        let calendar = ParsingClock.parisBeforeSpringForward.calendar
        let now = ParsingClock.parisBeforeSpringForward.now
        #expect(try TaskValues.due("2026-12-24T17:00", now: now, calendar: calendar) == DueDate(date: Self.instant("2026-12-24T16:00:00Z"), isAllDay: false))
        #expect(try TaskValues.due("2026-03-29T09:30:15", now: now, calendar: calendar) == DueDate(date: Self.instant("2026-03-29T07:30:15Z"), isAllDay: false))
        for bad in ["2026-12-24T25:00", "2026-12-24T5:00", "2026-02-30T10:00", "2026-12-24T17:00:60", "2026-12-24T"] {
            #expect(throws: SlateError.self, "\(bad)") { try TaskValues.due(bad, now: now, calendar: calendar) }
        }
    }

    @Test func momentsDropTheSecondsOfNow() {
        let clock = ParsingClock(calendar: ParsingClock.parisSunday.calendar, now: Self.instant("2026-11-29T09:15:42Z"))
        #expect(clock.render(clock.dateParser.parseDue("in 30 minutes")) == "2026-11-29 10:45")
    }
}

@Suite struct DateParserRecurrenceTests {
    @Test(arguments: [
        ("daily", Recurrence(.daily)), ("Weekly", Recurrence(.weekly)), ("monthly", Recurrence(.monthly)),
        ("yearly", Recurrence(.yearly)), ("annually", Recurrence(.yearly)), ("fortnightly", Recurrence(.weekly, interval: 2)),
        ("every day", Recurrence(.daily)), ("every week", Recurrence(.weekly)), ("every month", Recurrence(.monthly)),
        ("EVERY YEAR", Recurrence(.yearly)), ("every 2 days", Recurrence(.daily, interval: 2)),
        ("every 3 weeks", Recurrence(.weekly, interval: 3)), ("every 6 months", Recurrence(.monthly, interval: 6)),
        ("every 2 years", Recurrence(.yearly, interval: 2)), ("every other week", Recurrence(.weekly, interval: 2)),
        ("every two months", Recurrence(.monthly, interval: 2)), ("every 1 day", Recurrence(.daily)),
        ("every monday", Recurrence(.weekly)), ("every fri", Recurrence(.weekly)), ("  every   week ", Recurrence(.weekly)),
    ])
    func readsRecurrence(text: String, expected: Recurrence) {
        #expect(ParsingClock.parisSunday.dateParser.parseRecurrence(text) == expected)
    }

    @Test(arguments: [
        "", "every", "every 0 days", "every a day", "every weekday", "every hour", "every 2", "sometimes",
        "every day at 9am", "daily standup", "tomorrow", "every -1 weeks", "every 2 mondays",
    ])
    func refusesWhatIsNotARecurrence(text: String) {
        #expect(ParsingClock.parisSunday.dateParser.parseRecurrence(text) == nil)
    }

    @Test func everyAcceptedRecurrenceFormListedForUsersIsAccepted() {
        let forms = DateParser.acceptedRecurrenceForms.components(separatedBy: ", ")
        #expect(forms.count == 7)
        for form in forms {
            #expect(ParsingClock.parisSunday.dateParser.parseRecurrence(form) != nil, "\(form)")
        }
    }
}

/// `DueDate.summary`, the text quick entry shows back, from Sunday 29 November 2026 10:15 Paris.
@Suite struct DateParserSummaryTests {
    @Test(arguments: [
        ("2026-11-29", true, "Today"), ("2026-11-30 17:00", false, "Tomorrow 17:00"), ("2026-11-28", true, "Yesterday"),
        ("2026-12-01 09:05", false, "Tuesday 09:05"), ("2026-12-04", true, "Friday"), ("2026-12-05", true, "Saturday"),
        ("2026-12-06", true, "Sun 6 Dec"), ("2026-11-20", true, "Fri 20 Nov"),
        ("2027-01-05 09:30", false, "Tue 5 Jan 2027 09:30"), ("2026-11-29 00:00", false, "Today 00:00"),
    ])
    func describesRelativeToNow(local: String, isAllDay: Bool, expected: String) {
        let clock = ParsingClock.parisSunday
        let due = DueDate(date: ParsingClock.date(local, calendar: clock.calendar)!, isAllDay: isAllDay)
        #expect(due.summary(relativeTo: clock.now, calendar: clock.calendar) == expected)
    }
}
