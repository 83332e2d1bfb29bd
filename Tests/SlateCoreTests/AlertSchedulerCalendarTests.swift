import Foundation
import SlateCore
import Testing

/// The scheduler against the calendar: daylight-saving changes, each account's own time
/// zone, a zone that changes, repeats, snoozes across a restart and due dates that move.
/// Paris (the tests' zone) changes on 29 March 2026 (02:00 → 03:00) and 25 October 2026
/// (03:00 → 02:00).
@Suite struct AlertSchedulerCalendarTests {
    private func moveClock(_ harness: SchedulerHarness, to moment: Date) {
        harness.clock.advance(by: moment.timeIntervalSince(harness.clock.now))
    }

    @Test func aDailyTasksAlertKeepsItsLocalTimeAcrossTheChangeToWinterTime() async throws {
        let harness = try SchedulerHarness()
        moveClock(harness, to: date(2026, 10, 24, 9, 0))
        let task = try harness.task("Standup", due: date(2026, 10, 24, 9, 30), alerts: ["10m"], recurrence: Recurrence(.daily))
        moveClock(harness, to: date(2026, 10, 24, 9, 21))
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [date(2026, 10, 24, 9, 20), date(2026, 10, 24, 9, 20)])
        try harness.slate.setCompleted([task.id], true)
        let next = try #require(try harness.slate.tasks().first { $0.title == "Standup" && !$0.isCompleted })
        try await harness.pass()
        // 09:20 CET on the 25th is 25 hours after 09:20 CEST on the 24th, not 24.
        #expect(try harness.scheduler.nextWake() == date(2026, 10, 25, 9, 20))
        #expect(date(2026, 10, 25, 9, 20).timeIntervalSince(date(2026, 10, 24, 9, 20)) == 25 * 3600)
        moveClock(harness, to: date(2026, 10, 25, 8, 21))   // 24 hours after the first: nothing yet
        try await harness.pass()
        #expect(harness.sent(next).isEmpty)
        moveClock(harness, to: date(2026, 10, 25, 9, 21))
        try await harness.pass()
        #expect(harness.sent(next).map(\.fireAt) == [date(2026, 10, 25, 9, 20), date(2026, 10, 25, 9, 20)])
    }

    @Test func aDayRuleInTheSpringGapFiresOnceAtTheNextValidTime() async throws {
        let harness = try SchedulerHarness()
        moveClock(harness, to: date(2026, 3, 28, 12, 0))
        // 02:30 does not exist on 29 March: the clocks go from 02:00 to 03:00.
        let task = try harness.task("Gap", due: date(2026, 3, 29, 12, 0), alerts: ["0d@2:30"])
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == date(2026, 3, 29, 3, 30))
        moveClock(harness, to: date(2026, 3, 29, 3, 31))
        try await harness.pass()
        moveClock(harness, to: date(2026, 3, 29, 5, 0))
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [date(2026, 3, 29, 3, 30), date(2026, 3, 29, 3, 30)])
    }

    @Test func aDayRuleAtATimeThatHappensTwiceFiresOnce() async throws {
        let harness = try SchedulerHarness()
        moveClock(harness, to: date(2026, 10, 24, 12, 0))
        // 02:30 happens twice on 25 October (CEST, then CET an hour later): the first one fires.
        let task = try harness.task("Twice", due: date(2026, 10, 26, 10, 0), alerts: ["1d@2:30"])
        let first = date(2026, 10, 25, 2, 30)
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == first)
        for minutes in [1.0, 61, 120] {   // past the first 02:30, past the second, later
            moveClock(harness, to: first.addingTimeInterval(minutes * 60))
            try await harness.pass()
        }
        #expect(harness.sent(task).map(\.fireAt) == [first, first])
    }

    @Test func dayRulesFollowEachAccountsOwnZone() async throws {
        let harness = try SchedulerHarness()
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = TimeZone(identifier: "America/New_York")!
        let directory = AccountDirectory(container: harness.slate.container)
        let bob = try directory.createAccount(named: "bob", now: harness.clock.now)
        _ = try directory.setTimeZone("America/New_York", for: bob.id)
        let clock = harness.clock
        let bobsSlate = Slate(container: harness.slate.container, accountID: bob.id, calendar: newYork, clock: { clock.now })
        let due = date(2026, 11, 30, 12, 0)   // 12:00 Paris, 06:00 New York: the 30th in both
        let anas = try harness.task("Ana's call", due: due, alerts: ["0d@9:00"])
        let bobs = try bobsSlate.addTask(TaskDraft(title: "Bob's call", due: DueDate(date: due, isAllDay: false),
                                                   alerts: [try TaskAlert(parsing: "0d@9:00")]))
        let nineInParis = date(2026, 11, 30, 9, 0)
        let nineInNewYork = newYork.date(from: DateComponents(year: 2026, month: 11, day: 30, hour: 9))!
        #expect(nineInNewYork.timeIntervalSince(nineInParis) == 6 * 3600)
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == nineInParis)
        moveClock(harness, to: nineInParis.addingTimeInterval(60))
        try await harness.pass()
        #expect(harness.sent(anas).count == 2 && harness.sent(bobs).isEmpty)
        #expect(try harness.scheduler.nextWake() == nineInNewYork)
        moveClock(harness, to: nineInNewYork.addingTimeInterval(60))
        try await harness.pass()
        #expect(harness.sent(bobs).map(\.fireAt) == [nineInNewYork, nineInNewYork])
        #expect(harness.sent(bobs).allSatisfy { $0.calendar.timeZone.identifier == "America/New_York" }, "shown in Bob's zone")
    }

    /// An account moved to another zone: its day rules fire at 9:00 in the new one, not at
    /// the time worked out in the old one (that cursor was late by the difference).
    @Test func changingTheAccountsZoneMovesItsDayRules() async throws {
        let harness = try SchedulerHarness()
        let task = try harness.task("Call the lab", due: date(2026, 11, 30, 12, 0), alerts: ["0d@9:00"])
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == date(2026, 11, 30, 9, 0))
        _ = try AccountDirectory(container: harness.slate.container).setTimeZone("America/New_York", for: harness.slate.accountID)
        try await harness.pass()
        let nineInNewYork = date(2026, 11, 30, 15, 0)   // 09:00 EST is 15:00 in Paris
        #expect(try harness.scheduler.nextWake() == nineInNewYork)
        moveClock(harness, to: date(2026, 11, 30, 9, 1))
        try await harness.pass()
        #expect(harness.sent(task).isEmpty)
        moveClock(harness, to: nineInNewYork.addingTimeInterval(60))
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [nineInNewYork, nineInNewYork])
        #expect(harness.sent(task).allSatisfy { !$0.isLate })
    }

    @Test func aSnoozeSurvivesARestart() async throws {
        let harness = try SchedulerHarness()
        let task = try harness.task("Call back", due: date(2026, 11, 29, 10, 20), alerts: ["due"])
        moveClock(harness, to: date(2026, 11, 29, 10, 21))
        try await harness.pass()
        #expect(harness.sent(task).count == 2)
        try harness.slate.snoozeAlert(taskID: task.id, until: date(2026, 11, 29, 11, 0))
        try harness.restart()
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == date(2026, 11, 29, 11, 0))
        moveClock(harness, to: date(2026, 11, 29, 11, 1))
        try harness.restart()
        try await harness.pass()
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [date(2026, 11, 29, 10, 20), date(2026, 11, 29, 10, 20),
                                                      date(2026, 11, 29, 11, 0), date(2026, 11, 29, 11, 0)])
    }

    /// A task moved to a later due time alerts again at the new time; one moved earlier, to a
    /// time already handled, does not alert twice.
    @Test func aMovedDueDateMovesTheAlert() async throws {
        let harness = try SchedulerHarness()
        let task = try harness.task("Pick up the reels", due: date(2026, 11, 29, 10, 30), alerts: ["due"])
        try await harness.pass()
        _ = try harness.slate.updateTask(task.id, TaskPatch(due: .some(DueDate(date: date(2026, 11, 29, 11, 0), isAllDay: false))))
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == date(2026, 11, 29, 11, 0), "not 10:30 any more")
        moveClock(harness, to: date(2026, 11, 29, 11, 1))
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [date(2026, 11, 29, 11, 0), date(2026, 11, 29, 11, 0)])
        _ = try harness.slate.updateTask(task.id, TaskPatch(due: .some(DueDate(date: date(2026, 11, 29, 10, 45), isAllDay: false))))
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == nil && harness.sent(task).count == 2)
        _ = try harness.slate.updateTask(task.id, TaskPatch(due: .some(DueDate(date: date(2026, 11, 29, 12, 0), isAllDay: false))))
        try await harness.pass()
        moveClock(harness, to: date(2026, 11, 29, 12, 1))
        try await harness.pass()
        #expect(harness.sent(task).count == 4, "moved past what was handled: it alerts again")
    }
}
