import Foundation
import SlateCore
import Testing

@Suite struct TaskAlertTests {
    @Test(arguments: [
        ("due", "due"), ("at due", "due"), ("15m", "15m"), ("90m", "90m"), ("60m", "1h"), ("2h", "2h"), ("1d", "1d"),
        ("7d", "1w"), ("1d@9:00", "1d@09:00"), ("0d@17:30", "0d@17:30"), ("@9:05", "0d@09:05"), (" 1W ", "1w"),
        ("2026-12-24T09:00:00Z", "2026-12-24T09:00:00.000Z"), ("2026-12-24T10:00:00+01:00", "2026-12-24T09:00:00.000Z"),
    ])
    func readsAndWritesTheTextForm(input: String, canonical: String) throws {
        let alert = try TaskAlert(parsing: input)
        #expect(alert.text == canonical)
        #expect(try TaskAlert(parsing: alert.text) == alert, "the canonical form reads back the same")
    }

    @Test(arguments: ["", "soon", "15", "15 minutes", "-15m", "1d@25:00", "1d@9", "1d@9:7", "x@9:00", "400d", "1y", "2026-13-01T00:00:00Z"])
    func unknownFormsAreRefusedNamingTheAcceptedOnes(input: String) {
        #expect {
            try TaskAlert(parsing: input)
        } throws: { error in
            guard case SlateError.invalid(let field, let message) = error else { return false }
            return field == "alerts" && message.contains("'1d@9:00'") && message.contains("'15m'")
        }
    }

    @Test func fireTimesFollowTheDueDateInTheAccountsZoneAcrossDaylightSaving() throws {
        // Sunday 29 March 2026 is the spring change in Paris: 02:00 → 03:00.
        let due = date(2026, 3, 30, 10, 0)
        #expect(try TaskAlert(parsing: "15m").fireDate(due: due, calendar: testCalendar) == date(2026, 3, 30, 9, 45))
        #expect(try TaskAlert(parsing: "1d@9:00").fireDate(due: due, calendar: testCalendar) == date(2026, 3, 29, 9, 0))
        // A lead time is elapsed time: 24 hours before 12:00 on the 29th is 11:00 on the 28th (an hour was skipped);
        // a day rule keeps the wall clock.
        #expect(try TaskAlert(parsing: "1d").fireDate(due: date(2026, 3, 29, 12, 0), calendar: testCalendar) == date(2026, 3, 28, 11, 0))
        #expect(try TaskAlert(parsing: "1d@12:00").fireDate(due: date(2026, 3, 29, 12, 0), calendar: testCalendar) == date(2026, 3, 28, 12, 0))
        // 02:30 does not exist on the 29th: the alert fires at the next valid time.
        let gap = try TaskAlert(parsing: "0d@2:30").fireDate(due: date(2026, 3, 29, 12, 0), calendar: testCalendar)
        #expect(gap == date(2026, 3, 29, 3, 30))
        #expect(try TaskAlert(parsing: "15m").fireDate(due: nil, calendar: testCalendar) == nil)
    }

    @Test func newTasksGetTheAccountsDefaultsUnlessTheyChoose() throws {
        let (slate, _) = try makeSlate()
        let timed = try slate.addTask(TaskDraft(title: "Mix", due: DueDate(date: date(2026, 12, 1, 17, 0), isAllDay: false)))
        let allDay = try slate.addTask(TaskDraft(title: "Shoot", due: DueDate(date: date(2026, 12, 2), isAllDay: true)))
        let undated = try slate.addTask(TaskDraft(title: "Someday"))
        let chosen = try slate.addTask(TaskDraft(title: "Quiet", due: DueDate(date: date(2026, 12, 1, 17, 0), isAllDay: false), alerts: []))
        #expect(timed.alerts.map(\.text) == ["due"])
        #expect(allDay.alerts.map(\.text) == ["0d@09:00"])
        #expect(undated.alerts.isEmpty && chosen.alerts.isEmpty)

        var settings = try slate.alertSettings()
        settings.timedDefaults = [try TaskAlert(parsing: "15m"), try TaskAlert(parsing: "1h")]
        try slate.saveAlertSettings(settings)
        let later = try slate.addTask(TaskDraft(title: "Grade", due: DueDate(date: date(2026, 12, 1, 17, 0), isAllDay: false)))
        #expect(later.alerts.map(\.text) == ["15m", "1h"])
    }

    @Test func aRelativeAlertNeedsADueDate() throws {
        let (slate, _) = try makeSlate()
        #expect(throws: SlateError.self) { try slate.addTask(TaskDraft(title: "Undated", alerts: [try TaskAlert(parsing: "15m")])) }
        let task = try slate.addTask(TaskDraft(title: "Undated", alerts: [try TaskAlert(parsing: "2026-12-24T09:00:00Z")]))
        #expect {
            try slate.updateTask(task.id, TaskPatch(alerts: [try TaskAlert(parsing: "1d@9:00")]))
        } throws: { error in
            guard case SlateError.invalid(let field, let message) = error else { return false }
            return field == "alerts" && message.contains("due date")
        }
        #expect(try slate.task(id: task.id).model.alerts.map(\.text) == ["2026-12-24T09:00:00.000Z"], "nothing written")
        // Clearing the due date takes the relative alerts with it.
        let dated = try slate.addTask(TaskDraft(title: "Dated", due: DueDate(date: date(2026, 12, 1, 17, 0), isAllDay: false),
                                                alerts: [try TaskAlert(parsing: "15m"), try TaskAlert(parsing: "2026-12-24T09:00:00Z")]))
        #expect(try slate.updateTask(dated.id, TaskPatch(due: .some(nil))).alerts.map(\.text) == ["2026-12-24T09:00:00.000Z"])
    }

    @Test func aRepeatingTasksAlertsMoveToItsNextOccurrence() throws {
        let (slate, _) = try makeSlate()
        let task = try slate.addTask(TaskDraft(
            title: "Standup", due: DueDate(date: date(2026, 11, 30, 9, 30), isAllDay: false), recurrence: Recurrence(.daily),
            alerts: [try TaskAlert(parsing: "10m"), TaskAlert(.at(date(2026, 11, 30, 8, 0)))]))
        try slate.setCompleted([task.id], true)
        let next = try #require(try slate.tasks().first { $0.title == "Standup" && !$0.isCompleted })
        #expect(next.due == date(2026, 12, 1, 9, 30))
        #expect(next.alerts == [try TaskAlert(parsing: "10m"), TaskAlert(.at(date(2026, 12, 1, 8, 0)))])
    }

    @Test func alertsSurviveSlateJSONAndICalendar() throws {
        let (slate, clock) = try makeSlate()
        let alerts = try ["due", "15m", "1d@9:00", "2026-12-24T09:00:00Z"].map { try TaskAlert(parsing: $0) }
        let task = try slate.addTask(TaskDraft(title: "Premiere", due: DueDate(date: date(2026, 12, 24, 20, 0), isAllDay: false), alerts: alerts))
        for format in [TransferFormat.json, .ics] {
            let file = try slate.export(format)
            let (other, _) = try makeSlate(at: clock)
            try other.importData(file, format: format)
            #expect(try other.task(id: task.id).model.alerts == alerts, "\(format)")
        }
        let ics = String(decoding: try slate.export(.ics), as: UTF8.self)
        #expect(ics.contains("TRIGGER;RELATED=END:-PT15M\r\n"))
        #expect(ics.contains("X-SLATE-ALERT:1d@09:00\r\n"))
    }

    @Test func acknowledgedAndLocationAlarmsAreNotTimeAlerts() throws {
        let (slate, _) = try makeSlate()
        let file = data([
            "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:a1", "SUMMARY:Pick up the reels", "DUE:20261201T170000Z",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT30M", "END:VALARM",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "ACKNOWLEDGED:20261201T165600Z", "END:VALARM",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z", "X-APPLE-PROXIMITY:ARRIVE", "END:VALARM",
            "END:VTODO", "END:VCALENDAR",
        ], separator: "\r\n")
        try slate.importData(file, format: .ics)
        let task = try #require(try slate.tasks().first { $0.title == "Pick up the reels" })
        #expect(task.alerts.map(\.text) == ["30m"])
    }

    @Test func aCalDAVClientsTimeAlarmsBecomeAlerts() throws {
        let (slate, _) = try makeSlate()
        let object = data([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//iOS 18//EN", "BEGIN:VTODO", "UID:phone-1", "SUMMARY:Call the lab",
            "DUE:20261201T170000Z",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z", "X-APPLE-PROXIMITY:DEPART", "END:VALARM",
            "END:VTODO", "END:VCALENDAR",
        ], separator: "\r\n")
        _ = try slate.storeCalendarObject(object, named: "phone-1.ics", in: .inbox)
        let task = try #require(try slate.tasks().first { $0.title == "Call the lab" })
        #expect(task.alerts.map(\.text) == ["15m"], "the location alarm is kept in the bytes, not fired by time")
    }
}

/// Alerts as a person types and reads them (the CLI's `--alert` and `slate show`).
@Suite struct TaskAlertPhraseTests {
    static let now = date(2026, 11, 29, 10, 15)

    @Test(arguments: [
        ("2026-12-24 09:00", date(2026, 12, 24, 9, 0)),
        ("2026-12-24T09:00", date(2026, 12, 24, 9, 0)),
        ("2026-12-24T09:00:00Z", date(2026, 12, 24, 10, 0)),
        ("tue 9am", date(2026, 12, 1, 9, 0)),
    ])
    func aDateAndTimeIsAMomentInTheReadersZone(text: String, moment: Date) throws {
        #expect(try TaskValues.alerts([text], now: Self.now, calendar: testCalendar) == [TaskAlert(.at(moment))])
    }

    @Test func theTextFormsAreReadFirst() throws {
        let alerts = try TaskValues.alerts(["15m", "1d@9:00", "due"], now: Self.now, calendar: testCalendar)
        #expect(alerts == [TaskAlert(.beforeDue(seconds: 900)), TaskAlert(.onDay(daysBefore: 1, minuteOfDay: 540)), .atDue])
    }

    @Test(arguments: ["2026-12-24", "tomorrow", "soonish", "2026-12-24 25:00"])
    func aDayWithoutATimeOrNoDateIsRefusedNamingTheForms(text: String) {
        #expect {
            try TaskValues.alerts([text], now: Self.now, calendar: testCalendar)
        } throws: { error in
            guard case SlateError.invalid(let field, let message) = error else { return false }
            return field == "alert" && message.contains("2026-12-24 09:00") && message.contains("'\(text)'")
        }
    }

    @Test(arguments: [
        (TaskAlert.atDue, false, "at the due time"),
        (TaskAlert.atDue, true, "at the start of the due day"),
        (TaskAlert(.beforeDue(seconds: 900)), false, "15 minutes before"),
        (TaskAlert(.beforeDue(seconds: 3_600)), false, "1 hour before"),
        (TaskAlert(.beforeDue(seconds: 172_800)), false, "2 days before"),
        (TaskAlert(.beforeDue(seconds: 604_800)), false, "1 week before"),
        (TaskAlert(.beforeDue(seconds: 90)), false, "90 seconds before"),
        (TaskAlert.morningOfDay, true, "on the due day at 09:00"),
        (TaskAlert(.onDay(daysBefore: 1, minuteOfDay: 17 * 60 + 30)), true, "1 day before at 17:30"),
    ])
    func anAlertIsSaidAsPeopleSayIt(alert: TaskAlert, isAllDay: Bool, phrase: String) {
        #expect(alert.phrase(isAllDay: isAllDay) == phrase)
    }

    @Test func aMomentIsLeftToTheCaller() {
        #expect(TaskAlert(.at(Self.now)).phrase(isAllDay: false) == nil)
    }
}

/// A timed task made all-day: its lead-time alerts would count back from the day's midnight.
@Suite struct AllDayAlertTests {
    @Test func leadTimesBecomeDaysBeforeAtNine() throws {
        let (slate, _) = try makeSlate()
        let task = try slate.addTask(TaskDraft(title: "Send the cue sheet", due: DueDate(date: date(2026, 12, 10, 9, 30), isAllDay: false),
                                               alerts: [TaskAlert(.beforeDue(seconds: 900)), .atDue, TaskAlert(.beforeDue(seconds: 172_800)),
                                                        TaskAlert(.onDay(daysBefore: 1, minuteOfDay: 17 * 60)), TaskAlert(.at(date(2026, 12, 5, 8, 0)))]))
        let day = try slate.updateTask(task.id, TaskPatch(due: .some(DueDate(date: date(2026, 12, 10), isAllDay: true))))
        #expect(day.alerts == [TaskAlert(.onDay(daysBefore: 0, minuteOfDay: 540)), TaskAlert(.onDay(daysBefore: 2, minuteOfDay: 540)),
                               TaskAlert(.onDay(daysBefore: 1, minuteOfDay: 17 * 60)), TaskAlert(.at(date(2026, 12, 5, 8, 0)))])
        // What fires: 9:00 on the 10th, not 23:45 on the 9th.
        #expect(day.alerts.first?.fireDate(due: day.due, calendar: testCalendar) == date(2026, 12, 10, 9, 0))
    }

    @Test func alertsSentWithTheDayAreTakenAsSentAndADayMovedKeepsItsAlerts() throws {
        let (slate, _) = try makeSlate()
        let task = try slate.addTask(TaskDraft(title: "Book the stage", due: DueDate(date: date(2026, 12, 10, 9, 30), isAllDay: false),
                                               alerts: [TaskAlert(.beforeDue(seconds: 900))]))
        let sent = try slate.updateTask(task.id, TaskPatch(due: .some(DueDate(date: date(2026, 12, 10), isAllDay: true)),
                                                           alerts: [TaskAlert(.beforeDue(seconds: 3_600))]))
        #expect(sent.alerts == [TaskAlert(.beforeDue(seconds: 3_600))])
        let moved = try slate.updateTask(task.id, TaskPatch(due: .some(DueDate(date: date(2026, 12, 11), isAllDay: true))))
        #expect(moved.alerts == [TaskAlert(.beforeDue(seconds: 3_600))], "already all day: nothing converted")
    }
}
