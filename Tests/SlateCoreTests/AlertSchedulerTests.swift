import Foundation
import SlateCore
import Synchronization
import TestDatabases
import Testing

/// A channel that records what it is given, and fails while told to.
final class RecordingChannel: AlertChannel {
    let name = "test"
    private let state = Mutex<(sent: [FiredAlert], failing: Bool, hanging: Bool)>(([], false, false))
    private let hung = Mutex<[CheckedContinuation<Void, Never>]>([])
    var sent: [FiredAlert] { state.withLock { $0.sent } }
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }
    /// While hanging, a delivery is recorded as sent and then never returns (until `release`),
    /// as when the process is killed right after sending.
    func hang(_ hanging: Bool) { state.withLock { $0.hanging = hanging } }
    func release() { for waiter in hung.withLock({ hung in defer { hung = [] }; return hung }) { waiter.resume() } }

    func targets(accountID: UUID, settings: AlertSettings) throws -> [String] { ["test:a", "test:b"] }

    func deliver(_ alert: FiredAlert) async throws {
        let hanging = try state.withLock { state in
            if state.failing { throw RetryableFailure() }
            state.sent.append(alert)
            return state.hanging
        }
        if hanging { await withCheckedContinuation { waiter in hung.withLock { $0.append(waiter) } } }
    }
}

/// Waits until `condition` holds, failing after `seconds`.
func waitUntil(seconds: Double = 60, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { throw WaitTimedOut() }
        try await Task.sleep(for: .milliseconds(5))
    }
}

struct WaitTimedOut: Error {}

struct RetryableFailure: Error {}

/// Log lines a test collects.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var count: Int { lines.withLock { $0.count } }
}

/// A file database (or a PostgreSQL schema), a controlled clock and a scheduler over them;
/// `restart()` opens it again with a new scheduler, as after a kill.
final class SchedulerHarness {
    let path: String
    /// What `Slate.open` is given: the file, or on PostgreSQL the schema named after it.
    var database: String { TestDatabase.sharedURL(path: path) ?? path }
    let clock: TestClock
    let channel = RecordingChannel()
    private(set) var slate: Slate
    private(set) var scheduler: AlertScheduler
    let skipped = LogLines()

    init(maximumAge: TimeInterval = 12 * 3600) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID().uuidString).sqlite").path
        clock = TestClock(date(2026, 11, 29, 10, 15))
        let clock = self.clock
        slate = try Slate.open(path: TestDatabase.sharedURL(path: path) ?? path, calendar: testCalendar, clock: { clock.now })
        scheduler = AlertScheduler(container: slate.container, channels: [], clock: { clock.now })
        try restart(maximumAge: maximumAge)
    }

    deinit {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    func restart(maximumAge: TimeInterval = 12 * 3600) throws {
        let clock = self.clock
        slate = try Slate.open(path: database, calendar: testCalendar, clock: { clock.now })
        try slate.saveTimeZone()
        let skipped = self.skipped
        scheduler = AlertScheduler(container: slate.container, channels: [channel], maximumAge: maximumAge, clock: { clock.now },
                                   log: { line in if line.contains("skipped") { skipped.append(line) } })
    }

    /// One pass as `run()` makes it, at the clock's now.
    func pass() async throws {
        try scheduler.syncCursors()
        try scheduler.fireDue()
        try await scheduler.deliverPending()
    }

    func task(_ title: String, due: Date, alerts: [String], recurrence: Recurrence? = nil) throws -> TaskItem {
        try slate.addTask(TaskDraft(title: title, due: DueDate(date: due, isAllDay: false), recurrence: recurrence,
                                    alerts: try alerts.map { try TaskAlert(parsing: $0) }))
    }

    func sent(_ task: TaskItem) -> [FiredAlert] { channel.sent.filter { $0.task.id == task.id } }
}

extension Slate {
    /// Gives the account the tests' zone, so the scheduler reads days as the tests do.
    func saveTimeZone() throws {
        _ = try AccountDirectory(container: container).setTimeZone(testCalendar.timeZone.identifier, for: accountID)
    }
}

@Suite struct AlertSchedulerTests {
    @Test func anAlertFiresOnceAtItsTimePerDevice() async throws {
        let harness = try SchedulerHarness()
        let task = try harness.task("Mix the trailer", due: date(2026, 11, 29, 11, 0), alerts: ["15m"])
        try await harness.pass()
        #expect(harness.sent(task).isEmpty, "not before 10:45")
        #expect(try harness.scheduler.nextWake() == date(2026, 11, 29, 10, 45))
        harness.clock.advance(by: 30 * 60)
        try await harness.pass()
        try await harness.pass()
        #expect(harness.sent(task).map(\.channel).sorted() == ["test:a", "test:b"])
        #expect(harness.sent(task).allSatisfy { $0.fireAt == date(2026, 11, 29, 10, 45) && !$0.isLate })
        #expect(try harness.scheduler.nextWake() == nil, "nothing left to fire")
    }

    @Test func aRestartNeitherRepeatsNorLosesAnAlert() async throws {
        let harness = try SchedulerHarness()
        let early = try harness.task("Early", due: date(2026, 11, 29, 10, 30), alerts: ["due"])
        let late = try harness.task("Late", due: date(2026, 11, 29, 12, 0), alerts: ["due"])
        harness.clock.advance(by: 20 * 60)   // 10:35
        try await harness.pass()
        #expect(harness.sent(early).count == 2)
        // Down from 10:35 to 12:30: the 12:00 alert is sent at start, marked late; the 10:30 one not again.
        try harness.restart()
        harness.clock.advance(by: 115 * 60)
        try await harness.pass()
        #expect(harness.sent(early).count == 2)
        #expect(harness.sent(late).count == 2 && harness.sent(late).allSatisfy(\.isLate))
    }

    @Test func alertsOlderThanTheMaximumAgeAreSkippedAndLogged() async throws {
        let harness = try SchedulerHarness(maximumAge: 3600)
        let task = try harness.task("Old", due: date(2026, 11, 29, 10, 30), alerts: ["due"])
        try harness.scheduler.syncCursors()
        harness.clock.advance(by: 3 * 3600)
        try harness.restart(maximumAge: 3600)
        try await harness.pass()
        #expect(harness.sent(task).isEmpty)
        #expect(harness.skipped.count == 1)
    }

    @Test func completedDeletedDismissedAndSnoozedAlertsDoNotFireAtTheirTime() async throws {
        let harness = try SchedulerHarness()
        let due = date(2026, 11, 29, 11, 0)
        let done = try harness.task("Done", due: due, alerts: ["due"])
        let gone = try harness.task("Gone", due: due, alerts: ["due"])
        let dismissed = try harness.task("Dismissed", due: due, alerts: ["due", "30m"])
        let snoozed = try harness.task("Snoozed", due: due, alerts: ["due"])
        try await harness.pass()
        try harness.slate.setCompleted([done.id], true)
        try harness.slate.deleteTasks([gone.id])
        harness.clock.advance(by: 20 * 60)   // 10:35: the 30m alert of "Dismissed" fired
        try await harness.pass()
        #expect(harness.sent(dismissed).count == 2)
        try harness.slate.dismissAlert(taskID: dismissed.id)
        try harness.slate.snoozeAlert(taskID: snoozed.id, until: date(2026, 11, 29, 11, 30))
        harness.clock.advance(by: 30 * 60)   // 11:05
        try await harness.pass()
        #expect(harness.sent(done).isEmpty && harness.sent(gone).isEmpty)
        #expect(harness.sent(dismissed).count == 4, "dismissing the 10:30 alert leaves the 11:00 one")
        #expect(harness.sent(snoozed).map(\.fireAt) == [due, due], "a snooze before the alert fired does not hold it back")
        harness.clock.advance(by: 30 * 60)   // 11:35
        try await harness.pass()
        #expect(harness.sent(snoozed).map(\.fireAt) == [due, due, date(2026, 11, 29, 11, 30), date(2026, 11, 29, 11, 30)])
    }

    @Test func snoozingAFiredAlertDoesNotHoldBackTheTasksLaterAlerts() async throws {
        let harness = try SchedulerHarness()
        let due = date(2026, 11, 29, 11, 0)
        let task = try harness.task("Call the mixer", due: due, alerts: ["30m", "due"])
        harness.clock.advance(by: 16 * 60)   // 10:31: the 30m alert fired
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [date(2026, 11, 29, 10, 30), date(2026, 11, 29, 10, 30)])
        try harness.slate.snoozeAlert(taskID: task.id, until: date(2026, 11, 29, 11, 31))
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == due, "the due-time alert still comes first")
        harness.clock.advance(by: 30 * 60)   // 11:01
        try await harness.pass()
        #expect(harness.sent(task).filter { $0.fireAt == due }.count == 2, "the due-time alert fired at its time")
        harness.clock.advance(by: 31 * 60)   // 11:32
        try await harness.pass()
        #expect(harness.sent(task).filter { $0.fireAt == date(2026, 11, 29, 11, 31) }.count == 2, "and the snoozed one came back")
        #expect(harness.sent(task).count == 6)
    }

    @Test func aSendInterruptedByAKillGoesAgainWithTheSameIdMarkedAsAPossibleRepeat() async throws {
        let harness = try SchedulerHarness()
        let task = try harness.task("Interrupted", due: date(2026, 11, 29, 10, 16), alerts: ["due"])
        harness.clock.advance(by: 60)
        harness.channel.hang(true)
        // The attempt is recorded, the channel has sent, and the process dies before the outcome is recorded.
        let killed = Task { [scheduler = harness.scheduler] in
            try scheduler.syncCursors()
            try scheduler.fireDue()
            try await scheduler.deliverPending()
        }
        try await waitUntil { harness.sent(task).count == 2 }
        harness.channel.hang(false)
        try harness.restart()
        // On a shared database another node may still be sending it: it is taken over once
        // the claim's lease is over (on a file, the one server's restart says it is not).
        if TestDatabase.isPostgreSQL { harness.clock.advance(by: AlertScheduler.claimLease) }
        try await harness.pass()
        let sent = harness.sent(task)
        #expect(sent.count == 4, "each device once more, and no more")
        #expect(Set(sent.prefix(2).map(\.deliveryID)) == Set(sent.suffix(2).map(\.deliveryID)), "with the same delivery ids")
        #expect(sent.prefix(2).allSatisfy { !$0.mayBeRepeat } && sent.suffix(2).allSatisfy(\.mayBeRepeat))
        try await harness.pass()
        #expect(harness.sent(task).count == 4)
        harness.channel.release()
        _ = await killed.result
    }

    @Test func anAlarmAcknowledgedOrSnoozedInThunderbirdIsNotSentAgainOrComesBackWhenItsDoes() async throws {
        let harness = try SchedulerHarness()
        func thunderbird(_ extra: [String]) -> Data {
            Data(([
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "BEGIN:VTODO",
                "UID:tb-1", "SUMMARY:Send the cue sheet", "DUE:20261129T100000Z",
            ] + extra + [
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:PT0S", "END:VALARM",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT15M", "END:VALARM",
                "END:VTODO", "END:VCALENDAR", "",
            ]).joined(separator: "\r\n").utf8)
        }
        // 10:15 Paris is 09:15 UTC: the alarms fire at 09:45 and 10:00 UTC.
        _ = try harness.slate.storeCalendarObject(thunderbird([]), named: "tb-1.ics", in: .inbox)
        let task = try #require(try harness.slate.tasks().first { $0.title == "Send the cue sheet" })
        try await harness.pass()
        // Thunderbird showed and dismissed the 15-minute alarm early (the machine's clock), then snoozed the whole task.
        _ = try harness.slate.storeCalendarObject(thunderbird(["X-MOZ-LASTACK:20261129T094600Z"]), named: "tb-1.ics", in: .inbox)
        try await harness.pass()
        harness.clock.advance(by: 32 * 60)   // 10:47 Paris, 09:47 UTC
        try await harness.pass()
        #expect(harness.sent(task).isEmpty, "acknowledged in Thunderbird: not sent again")
        _ = try harness.slate.storeCalendarObject(thunderbird(["X-MOZ-LASTACK:20261129T100100Z", "X-MOZ-SNOOZE-TIME:20261129T103000Z"]),
                                                  named: "tb-1.ics", in: .inbox)
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == date(2026, 11, 29, 11, 30), "comes back at Thunderbird's snooze time (10:30 UTC)")
        harness.clock.advance(by: 14 * 60)   // 11:01 Paris: the 10:00 UTC alarm was acknowledged too
        try await harness.pass()
        #expect(harness.sent(task).isEmpty)
        harness.clock.advance(by: 30 * 60)   // 11:31 Paris
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [date(2026, 11, 29, 11, 30), date(2026, 11, 29, 11, 30)])
        // The task changes in Slate; the client's bytes still say snoozed until 10:30: it does not come back.
        _ = try harness.slate.updateTask(task.id, TaskPatch(notes: "edited in Slate"))
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == nil && harness.sent(task).count == 2)
    }

    /// Thunderbird's stored snooze counts when its bytes arrive, not again whenever the task
    /// changes in Slate: a dismissal made in Slate since then stands.
    @Test func aDismissalInSlateIsNotUndoneByTheClientsOlderSnoozeWhenTheTaskChanges() async throws {
        let harness = try SchedulerHarness()  // 10:15 Paris, 09:15 UTC
        let bytes = Data([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "BEGIN:VTODO",
            "UID:tb-2", "SUMMARY:Book the hall", "DUE:20261129T100000Z", "X-MOZ-SNOOZE-TIME:20261129T103000Z",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:PT0S", "END:VALARM", "END:VTODO", "END:VCALENDAR", "",
        ].joined(separator: "\r\n").utf8)
        _ = try harness.slate.storeCalendarObject(bytes, named: "tb-2.ics", in: .inbox)
        let task = try #require(try harness.slate.tasks().first { $0.title == "Book the hall" })
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == date(2026, 11, 29, 11, 0))
        harness.clock.advance(by: 50 * 60)  // 11:05 Paris
        try await harness.pass()
        #expect(Set(harness.sent(task).map(\.fireAt)) == [date(2026, 11, 29, 11, 0)])
        try harness.slate.dismissAlert(taskID: task.id)
        #expect(try harness.scheduler.nextWake() == nil, "dismissed in Slate: the snooze to 11:30 is dismissed too")
        _ = try harness.slate.updateTask(task.id, TaskPatch(notes: "edited in Slate"))
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == nil, "the client's older snooze does not come back with the edit")
    }

    @Test func aTestAlertGoesToEveryChannelAndDeviceOnce() async throws {
        let harness = try SchedulerHarness()
        let id = try harness.slate.requestTestAlert()
        try await harness.pass()
        try await harness.pass()
        let sent = harness.channel.sent.filter { $0.task.id == id }
        #expect(sent.map(\.channel).sorted() == ["test:a", "test:b"])
        #expect(sent.allSatisfy { $0.isTest && $0.task.title == TestAlert.title })
        #expect(harness.scheduler.deliveryCounts() == [DeliveryCount(channel: "test", outcome: "sent", count: 2)])
    }

    @Test func aRepeatingTaskAlertsAgainForItsNextOccurrence() async throws {
        let harness = try SchedulerHarness()
        let task = try harness.task("Standup", due: date(2026, 11, 29, 10, 30), alerts: ["10m"], recurrence: Recurrence(.daily))
        harness.clock.advance(by: 10 * 60)
        try await harness.pass()
        #expect(harness.sent(task).count == 2)
        try harness.slate.setCompleted([task.id], true)
        let next = try #require(try harness.slate.tasks().first { $0.title == "Standup" && !$0.isCompleted })
        harness.clock.advance(by: 86_400)
        try await harness.pass()
        #expect(harness.sent(next).map(\.fireAt) == [date(2026, 11, 30, 10, 20), date(2026, 11, 30, 10, 20)])
    }

    @Test func dayRulesFollowTheAccountsZoneAcrossDaylightSaving() async throws {
        let harness = try SchedulerHarness()
        harness.clock.advance(by: date(2026, 10, 24, 12, 0).timeIntervalSince(harness.clock.now))
        // 25 October 2026: Paris goes back from 03:00 to 02:00. "1d@9:00" for a task due on the 26th is 9:00 on the 25th, CET.
        let task = try harness.task("Clocks", due: date(2026, 10, 26, 10, 0), alerts: ["1d@9:00"])
        try await harness.pass()
        #expect(try harness.scheduler.nextWake() == date(2026, 10, 25, 9, 0))
        #expect(date(2026, 10, 25, 9, 0).timeIntervalSince(harness.clock.now) == 22 * 3600, "21 wall-clock hours plus the repeated one")
        harness.clock.advance(by: 22 * 3600)
        try await harness.pass()
        #expect(harness.sent(task).count == 2)
    }

    @Test func aFailingChannelIsRetriedWithBackoffAndDeliversOnce() async throws {
        let harness = try SchedulerHarness()
        let task = try harness.task("Flaky", due: date(2026, 11, 29, 10, 16), alerts: ["due"])
        harness.channel.fail(true)
        harness.clock.advance(by: 60)
        try await harness.pass()
        #expect(harness.sent(task).isEmpty)
        let wake = try harness.scheduler.nextWake()
        #expect(wake == harness.clock.now.addingTimeInterval(30), "retried after 30 s, not \(String(describing: wake))")
        harness.channel.fail(false)
        try await harness.pass()
        #expect(harness.sent(task).isEmpty, "not before its retry time")
        harness.clock.advance(by: 31)
        try await harness.pass()
        try await harness.pass()
        #expect(harness.sent(task).count == 2)
        #expect(AlertScheduler.backoff(afterAttempt: 2) == 60 && AlertScheduler.backoff(afterAttempt: 20) == 3600)
        #expect(harness.scheduler.deliveryCounts() == [DeliveryCount(channel: "test", outcome: "retried", count: 2),
                                                        DeliveryCount(channel: "test", outcome: "sent", count: 2)])
    }
}
