import Foundation
import SlateCore
import Testing

@Suite struct AlertUndoTests {
    /// Undoing a task's creation removes the task by the undo log's path, not deleteTasks:
    /// the scheduler's cursor for it must not stand in the way, and the alert must not fire.
    @Test func undoingATasksCreationWithAPendingAlert() async throws {
        let harness = try SchedulerHarness()
        let task = try harness.task("Undone", due: date(2026, 11, 29, 11, 0), alerts: ["due"])
        try harness.scheduler.syncCursors()
        #expect(try harness.scheduler.nextWake() == date(2026, 11, 29, 11, 0))
        _ = try harness.slate.undo()
        #expect(throws: SlateError.self) { try harness.slate.task(id: task.id) }
        harness.clock.advance(by: 3600)
        try await harness.pass()
        #expect(harness.sent(task).isEmpty)
        #expect(try harness.scheduler.nextWake() == nil, "the orphaned cursor is dropped")
    }

    /// Deleted after one alert went out, restored (undo) after the next was due: the restored
    /// task's new cursor starts from its old `modified`, before the alert that went out. That
    /// one is not sent again (recording it twice broke the whole pass, every pass), and the
    /// one missed while it was deleted goes out, late.
    @Test func undoingADeleteAfterAnAlertWentOutSendsOnlyTheMissedOne() async throws {
        let harness = try SchedulerHarness()  // 10:15
        let task = try harness.task("Restored", due: date(2026, 11, 29, 11, 0), alerts: ["30m", "due"])
        try await harness.pass()
        harness.clock.advance(by: 20 * 60)  // 10:35
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [date(2026, 11, 29, 10, 30), date(2026, 11, 29, 10, 30)], "once per device")
        try harness.slate.deleteTasks([task.id])
        harness.clock.advance(by: 30 * 60)  // 11:05: due while deleted
        try await harness.pass()
        harness.clock.advance(by: 25 * 60)  // 11:30
        _ = try harness.slate.undo()
        try await harness.pass()
        let sent = harness.sent(task)
        #expect(sent.map(\.fireAt) == [date(2026, 11, 29, 10, 30), date(2026, 11, 29, 10, 30), date(2026, 11, 29, 11, 0), date(2026, 11, 29, 11, 0)])
        #expect(sent.last?.isLate == true)
        try await harness.pass()
        #expect(harness.sent(task).count == 4, "the next passes commit and send nothing more")
    }
}

@Suite struct AlertReopenTests {
    /// Completed after its first alert went out, reopened by undo after the second was due:
    /// the new cursor starts after the delivery that went out (the task's restored
    /// `modified` is before it), so only the missed alert goes, once per device.
    @Test func undoingACompletionAfterAnAlertWentOutSendsOnlyTheMissedOne() async throws {
        let harness = try SchedulerHarness()  // 10:15
        let task = try harness.task("Reopened", due: date(2026, 11, 29, 11, 0), alerts: ["30m", "due"])
        harness.clock.advance(by: 20 * 60)  // 10:35
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [date(2026, 11, 29, 10, 30), date(2026, 11, 29, 10, 30)])
        _ = try harness.slate.setCompleted([task.id], true)
        harness.clock.advance(by: 30 * 60)  // 11:05: due while completed
        try await harness.pass()
        _ = try harness.slate.undo()
        try await harness.pass()
        #expect(harness.sent(task).map(\.fireAt) == [date(2026, 11, 29, 10, 30), date(2026, 11, 29, 10, 30), date(2026, 11, 29, 11, 0), date(2026, 11, 29, 11, 0)])
        try await harness.pass()
        #expect(harness.sent(task).count == 4, "the next passes commit and send nothing more")
    }
}
