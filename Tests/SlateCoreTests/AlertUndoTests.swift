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
}
