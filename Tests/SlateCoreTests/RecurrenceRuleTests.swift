import Foundation
import Testing

@testable import SlateCore

/// A monthly repeat on the 29th–31st as an RRULE that means what Slate does: the day, or
/// the last day of a shorter month, and back to the day after it.
@Suite struct RecurrenceRuleTests {
    @Test(arguments: [
        (Recurrence(.monthly), 15, 1, "FREQ=MONTHLY;INTERVAL=1"),
        (Recurrence(.monthly), 28, 1, "FREQ=MONTHLY;INTERVAL=1"),
        (Recurrence(.monthly), 29, 1, "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=28,29;BYSETPOS=-1"),
        (Recurrence(.monthly, interval: 2), 30, 1, "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=28,29,30;BYSETPOS=-1"),
        (Recurrence(.monthly), 31, 1, "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1"),
        // 28 February, cut from the 31st: the rule still says the last day.
        (Recurrence(.monthly, dayOfMonth: 31), 28, 2, "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1"),
        (Recurrence(.monthly, dayOfMonth: 30), 28, 2, "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=28,29,30;BYSETPOS=-1"),
        (Recurrence(.yearly), 29, 2, "FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=-1"),
        (Recurrence(.yearly, dayOfMonth: 29), 28, 2, "FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=-1"),
        (Recurrence(.yearly), 31, 1, "FREQ=YEARLY;INTERVAL=1"),
        (Recurrence(.weekly, interval: 2), 31, 1, "FREQ=WEEKLY;INTERVAL=2"),
    ])
    func theRuleSaysTheDay(recurrence: Recurrence, day: Int, month: Int, rule: String) {
        #expect(recurrence.rrule(dueOn: (month, day)) == rule)
    }

    @Test func withoutADueDateTheRuleIsPlain() {
        #expect(Recurrence(.monthly).rrule(dueOn: nil) == "FREQ=MONTHLY;INTERVAL=1")
    }

    /// Every day of a 31-day month and of February, written and read back: the same repeat.
    @Test func aRuleReadBackIsTheSameRepeat() throws {
        for (month, days) in [(1, 1...31), (2, 1...28)] {
            for day in days {
                for recurrence in [Recurrence(.monthly), Recurrence(.monthly, interval: 3), Recurrence(.yearly)] {
                    let read = try #require(VTodoContent.recurrence(ICalendarProperty("RRULE", value: recurrence.rrule(dueOn: (month, day)))))
                    #expect(read.settled(dueOn: (month, day)) == recurrence, "\(recurrence.storageValue) on \(month)/\(day)")
                }
            }
        }
        // The states a short month leaves keep their day.
        for state in [Recurrence(.monthly, dayOfMonth: 31), Recurrence(.monthly, dayOfMonth: 30), Recurrence(.monthly, dayOfMonth: 29)] {
            let read = try #require(VTodoContent.recurrence(ICalendarProperty("RRULE", value: state.rrule(dueOn: (2, 28)))))
            #expect(read.settled(dueOn: (2, 28)) == state)
        }
        let leap = try #require(VTodoContent.recurrence(ICalendarProperty("RRULE", value: Recurrence(.yearly, dayOfMonth: 29).rrule(dueOn: (2, 28)))))
        #expect(leap.settled(dueOn: (2, 28)) == Recurrence(.yearly, dayOfMonth: 29))
    }

    @Test(arguments: [
        ("FREQ=MONTHLY;BYMONTHDAY=-1", 31),                // Thunderbird's "last day of the month"
        ("FREQ=MONTHLY;BYMONTHDAY=30", 30),
        ("freq=monthly;bymonthday=28,29,30,31;bysetpos=-1", 31),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15", nil),             // twice a month: no Slate form
        ("FREQ=MONTHLY;BYMONTHDAY=28,29,30", nil),         // every one of them, not the last
        ("FREQ=MONTHLY;BYMONTHDAY=-2", nil),
        ("FREQ=MONTHLY;BYMONTHDAY=x", nil),
        ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=-1", nil),
        ("FREQ=WEEKLY;BYMONTHDAY=-1", nil),
    ] as [(String, Int?)])
    func aClientsDayIsReadWhereSlateHasAForm(rule: String, day: Int?) throws {
        let read = try #require(VTodoContent.recurrence(ICalendarProperty("RRULE", value: rule)))
        #expect(read.dayOfMonth == day)
    }

    /// Read on a due date on the 15th, "the last day" steps the way Slate's own state does.
    @Test func theLastDayStepsToEachMonthsEnd() throws {
        let read = try #require(VTodoContent.recurrence(ICalendarProperty("RRULE", value: "FREQ=MONTHLY;BYMONTHDAY=-1")))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var due = calendar.date(from: DateComponents(year: 2027, month: 1, day: 31))!
        var repeats = read.settled(dueOn: (1, 31))
        var days: [Int] = []
        for _ in 0..<4 {
            (due, repeats) = repeats.advanced(from: due, calendar: calendar)
            days.append(calendar.component(.day, from: due))
        }
        #expect(days == [28, 31, 30, 31])
    }
}

/// An `.ics` export carries the month-end repeat, and its import gives it back.
@Suite struct RecurrenceRuleTransferTests {
    @Test func aShortMonthsStateSurvivesAnICalendarRoundTrip() throws {
        let (source, clock) = try makeSlate()
        let january = date(2027, 1, 31, 0, 0)
        let rent = try source.addTask(TaskDraft(title: "Pay the studio rent", due: DueDate(date: january, isAllDay: true), recurrence: Recurrence(.monthly)))
        _ = try source.setCompleted([rent.id], true)
        let february = try #require(try source.tasks().first { !$0.isCompleted })
        #expect(february.recurrence == Recurrence(.monthly, dayOfMonth: 31))
        let text = String(decoding: try source.export(.ics), as: UTF8.self)
        #expect(text.contains("RRULE:FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1\r\n"))

        let (target, _) = try makeSlate(at: clock)
        _ = try target.importData(Data(text.utf8), format: nil)
        let imported = try #require(try target.tasks().first { !$0.isCompleted })
        #expect(imported.dueCalendarDay == february.dueCalendarDay)
        #expect(imported.recurrence == Recurrence(.monthly, dayOfMonth: 31))
        // Its next step goes back to the 31st.
        _ = try target.setCompleted([imported.id], true)
        #expect(try target.tasks().first { !$0.isCompleted }?.dueCalendarDay?.number == 20270331)
    }
}
