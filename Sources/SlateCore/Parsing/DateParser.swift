import Foundation

// Dates in human language — the one grammar that the CLI (`--due`, `--repeat`), quick entry
// and the web app's preview (`POST /tasks/parse`) all use. English words, any case.
//
// Days (a day alone is all-day, at the start of that local day):
//   today, tod · tomorrow, tmr, tmrw · yesterday
//   tonight                   today at 20:00 (a timed due; "tonight 10pm" = today 22:00)
//   fri, friday, this fri     the next such day, today included (on a Sunday, "sun" is today)
//   next fri                  that day in next week; weeks start on Monday (ISO), so on
//                             Sunday 29 Nov "next fri" is 4 Dec and "next sun" 6 Dec
//   next week                 next Monday (a week later when today is Monday)
//   next month, next year     the 1st of next month, 1 January of next year
//   in 3 days, in 2 weeks, in 1 month, in a year   counted from today ("a"/"an"/one…twelve work)
//   2026-12-24                ISO, exactly yyyy-mm-dd
//   24 dec, dec 24, 24th december, december 24, 2026, 24 dec 2026
//                             without a year: the next such date, today included
//   "on" may precede a weekday or a calendar date: "on fri", "on 24 dec".
//   4th of july               with its ordinal ("Top 4 of July" stays a title)
//   on the 1st, on the 15th   the next day with that number, today included, in the first
//                             month that has it ("every month on the 1st"); only after "on",
//                             with the number's own suffix ("1st", not "1th"), and not before
//                             title text ("Meeting on the 2nd floor" stays a title)
//   on the 4th of july, on the 2nd march   the next such date
//   end of day, end of week, end of the month, end of year (eod, eow, eom, eoy)   today,
//                             the coming Sunday (weeks start on Monday), the last day of this
//                             month, 31 December; all day
//   day after tomorrow · this weekend (the coming Saturday; today on a Sunday) · next weekend
//                             (Saturday of next week)
// Times (in calendar.timeZone; a time alone is today at that time, even if it has passed):
//   5pm, 5 pm, 5:30pm, 5.30pm, 12am (00:00), 12pm (12:00) · 17:30, 7:30 (24-hour)
//   noon · midnight = the end of the day (00:00 of the next day): "a deadline of midnight
//   today" means tonight, not the midnight already gone
//   "at" may precede a time: "at 5pm".
//   A bare number is never a time, even after "at": "Call at 5" and "Buy 2 tickets" keep
//   their numbers, and "fri at 9" is not a date + time (write "fri 9am" or "fri 09:00").
// Date and time in either order: "tomorrow 5pm", "5pm tomorrow", "fri at 9am",
//   "at 17:30 on 24 dec", "in 3 days 9am". In quick entry also apart: "Call Bob fri about
//   the contract 3pm" is due Friday at 15:00.
// Moments (timed, from now with seconds dropped): in an hour, in 30 minutes, in 2 hrs.
// Not dates: invalid calendar days ("2026-02-30", "31 nov"), impossible times ("25:00",
//   "13pm"), ordinals alone ("The 5th Wave"), years alone ("Read 1984"), numeric day/month
//   forms ("12/24" means different days in different countries).
//
// Recurrence: daily, weekly, monthly, yearly, annually, fortnightly; every day / week /
//   month / year; every 2 days; every other week; every monday (weekly). In quick entry
//   only the "every …" forms count, so "Weekly review" stays a title.
//
// All arithmetic goes through the calendar, so "tomorrow 5pm" is 17:00 local even across
// a daylight-saving change. The calendar is assumed Gregorian.

/// Reads due dates and recurrence rules written the way people say them.
///
/// ```swift
/// let parser = DateParser(now: .now, calendar: .current)
/// parser.parseDue("tomorrow 5pm")      // tomorrow at 17:00 local time
/// parser.parseDue("24 dec")            // all-day, the next 24 December
/// parser.parseRecurrence("every 2 weeks")  // Recurrence(.weekly, interval: 2)
/// ```
public struct DateParser: Sendable {
    /// The moment relative words ("tomorrow", "in 3 days") count from.
    public let now: Date
    /// Carries the time zone that dates and times are read in.
    public let calendar: Calendar

    private let grammar: DateGrammar

    /// - Parameters:
    ///   - now: the moment relative words count from.
    ///   - calendar: a Gregorian calendar whose `timeZone` is the user's.
    public init(now: Date, calendar: Calendar) {
        self.now = now
        self.calendar = calendar
        self.grammar = DateGrammar(now: now, calendar: calendar)
    }

    /// The date or date and time that the whole of `text` names, or nil when `text` is not
    /// exactly one date/time expression (surrounding white space is ignored).
    ///
    /// `parseDue("fri")` is all-day; `parseDue("fri 9am")` is timed; `parseDue("fri meeting")` is nil.
    public func parseDue(_ text: String) -> DueDate? {
        grammar.expression(DateGrammar.words(text)[...]).flatMap(grammar.resolve)
    }

    /// The recurrence that the whole of `text` names, or nil.
    ///
    /// "daily", "every week", "every 2 days", "every other month" and "every monday"
    /// (weekly) are understood. A weekday only makes the rule weekly: the task's due date
    /// decides which day it falls on.
    public func parseRecurrence(_ text: String) -> Recurrence? {
        RecurrenceGrammar.match(DateGrammar.words(text)[...], allowsSingleWords: true)?.recurrence
    }

    /// The accepted date forms on one line, for error messages and help.
    public static let acceptedForms =
        "today, tomorrow, fri, next fri, next week, in 3 days, in 2 hours, 2026-12-24, 24 dec, 5pm, 17:30, noon, tomorrow 5pm, end of month, this weekend"

    /// The accepted recurrence forms on one line, for error messages and help.
    public static let acceptedRecurrenceForms =
        "daily, weekly, monthly, yearly, every 2 days, every other week, every monday"
}
