import Foundation
import SlateCore
import Testing

/// A monthly or yearly repeat on a day a short month lacks ends that month on its last day
/// and comes back to its own day after: the 31st → 28 February → 31 March, not 28 March.
@Suite struct MonthEndRepeatTests {
    static func day(_ date: Date) -> String { CalendarDay(date, in: testCalendar).description }

    @Test func aMonthlyRepeatOnThe31stKeepsItsDayThroughShortMonths() {
        var rule = Recurrence(.monthly)
        var due = date(2027, 1, 31, 9, 30)
        var days: [String] = []
        for _ in 0..<5 {
            (due, rule) = rule.advanced(from: due, calendar: testCalendar)
            days.append(Self.day(due))
        }
        #expect(days == ["2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31", "2027-06-30"])
        #expect(testCalendar.component(.hour, from: due) == 9 && testCalendar.component(.minute, from: due) == 30)
        #expect(rule.dayOfMonth == 31, "June has no 31st: the repeat still remembers it")
    }

    @Test func aYearlyRepeatOnThe29thOfFebruaryComesBackInALeapYear() {
        var rule = Recurrence(.yearly)
        var due = date(2028, 2, 29)
        var days: [String] = []
        for _ in 0..<4 {
            (due, rule) = rule.advanced(from: due, calendar: testCalendar)
            days.append(Self.day(due))
        }
        #expect(days == ["2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29"])
        #expect(rule.dayOfMonth == nil)
    }

    @Test func everyTwoMonthsFromThe30thAndOtherRepeatsAreUnchanged() {
        let (february, kept) = Recurrence(.monthly, interval: 2).advanced(from: date(2026, 12, 30), calendar: testCalendar)
        #expect(Self.day(february) == "2027-02-28" && kept.dayOfMonth == 30)
        #expect(Self.day(kept.advanced(from: february, calendar: testCalendar).due) == "2027-04-30")
        #expect(Self.day(Recurrence(.weekly).advanced(from: date(2027, 1, 31), calendar: testCalendar).due) == "2027-02-07")
        let (fifteenth, plain) = Recurrence(.monthly).advanced(from: date(2027, 1, 15), calendar: testCalendar)
        #expect(Self.day(fifteenth) == "2027-02-15" && plain.dayOfMonth == nil)
    }

    @Test func theKeptDayIsStoredAndReadBackAndBadFormsAreRefused() {
        let rule = Recurrence(.monthly, interval: 2, dayOfMonth: 31)
        #expect(rule.storageValue == "monthly/2@31")
        #expect(Recurrence(storageValue: "monthly/2@31") == rule)
        #expect(Recurrence(storageValue: "monthly") == Recurrence(.monthly))
        #expect(rule.phrase == "every 2 months", "people never see the kept day")
        for bad in ["monthly@32", "monthly@0", "monthly@", "monthly@3@4", "monthly@x"] {
            #expect(Recurrence(storageValue: bad) == nil, "\(bad)")
        }
    }

    @Test func completingARentTaskDueOnThe31stKeepsItOnTheMonthsLastDay() throws {
        let (slate, _) = try makeSlate()
        let first = try slate.addTask(TaskDraft(title: "Pay the studio rent", due: DueDate(date: date(2027, 1, 31), isAllDay: true),
                                                recurrence: Recurrence(.monthly)))
        var current = first
        var days: [String] = []
        for _ in 0..<3 {
            try slate.setCompleted([current.id], true)
            current = try #require(try slate.tasks(TaskQuery(status: .active)).first)
            days.append(try #require(current.dueCalendarDay).description)
        }
        #expect(days == ["2027-02-28", "2027-03-31", "2027-04-30"])

        // The same repeat sent again (a form saves every field) keeps the 31st…
        current = try slate.updateTask(current.id, TaskPatch(recurrence: .some(Recurrence(.monthly))))
        #expect(current.recurrence?.dayOfMonth == 31)
        // …and a date moved by hand is the repeat's day from then on.
        current = try slate.updateTask(current.id, TaskPatch(due: .some(DueDate(date: date(2027, 4, 29), isAllDay: true))))
        #expect(current.recurrence?.dayOfMonth == nil)
        try slate.setCompleted([current.id], true)
        #expect(try slate.tasks(TaskQuery(status: .active)).first?.dueCalendarDay?.description == "2027-05-29")
    }

    @Test func aRepeatGivenToAnUndatedTaskStartsToday() throws {
        let (slate, _) = try makeSlate()
        let task = try slate.addTask(TaskDraft(title: "Back up the rushes"))
        let repeating = try slate.updateTask(task.id, TaskPatch(recurrence: .some(Recurrence(.daily))))
        #expect(repeating.dueCalendarDay?.description == "2026-11-29" && repeating.isAllDay)
        // Taking the date away again is the user's choice, and it stays away.
        #expect(try slate.updateTask(task.id, TaskPatch(due: .some(nil))).due == nil)
    }
}
