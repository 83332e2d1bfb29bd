import Foundation
import SlateCore
import Testing

/// An edit that changes nothing writes nothing: no new revision (ETag) for every sync
/// client to fetch again, no change in the feed, nothing to undo.
@Suite struct NoOpEditTests {
    @Test func anEditThatChangesNothingKeepsTheRevision() throws {
        let (slate, _) = try makeSlate()
        let task = try slate.addTask(TaskDraft(title: "Log the rushes", priority: .high, due: DueDate(date: date(2026, 12, 3), isAllDay: true),
                                               tags: ["edit"], recurrence: Recurrence(.weekly)))
        let before = try slate.task(id: task.id)
        let revision = try slate.changes(since: 0).revision
        let same = try slate.updateRevisionedTask(task.id, TaskPatch(title: "Log the rushes", priority: .high,
                                                                   due: .some(DueDate(date: date(2026, 12, 3), isAllDay: true)),
                                                                   isCompleted: false, tags: ["edit"], recurrence: .some(Recurrence(.weekly))),
                                                  expectedRevision: before.revision)
        #expect(same.revision == before.revision)
        #expect(same.model == before.model)
        #expect(try slate.changes(since: 0).revision == revision, "no change in the feed")

        // A stale revision is still refused, and a real change still writes.
        #expect(throws: SlateError.self) { try slate.updateRevisionedTask(task.id, TaskPatch(title: "Log the rushes"), expectedRevision: before.revision - 1) }
        let renamed = try slate.updateRevisionedTask(task.id, TaskPatch(title: "Log all the rushes"), expectedRevision: before.revision)
        #expect(renamed.revision > before.revision)
    }
}
