import Foundation
import SlateCore
import Testing

/// A repeating task's subtasks go on with its next occurrence, as a checklist does: a weekly
/// "Clean the studio" with "Vacuum" and "Empty the bins" has both again next week.
@Suite struct RepeatSubtaskTests {
    /// A weekly task due Tuesday with a completed subtask, an open one, and under the open
    /// one a completed subtask of its own (two levels); and a task that does not repeat.
    func board() throws -> (slate: Slate, clean: TaskItem, vacuum: TaskItem, bins: TaskItem, bags: TaskItem) {
        let (slate, _) = try makeSlate()
        let clean = try slate.addTask(TaskDraft(title: "Clean the studio", due: DueDate(date: date(2026, 12, 1, 18, 0), isAllDay: false),
                                                recurrence: Recurrence(.weekly)))
        let vacuum = try slate.addTask(TaskDraft(title: "Vacuum", due: DueDate(date: date(2026, 12, 1, 17, 0), isAllDay: false),
                                                 parentID: clean.id, alerts: [TaskAlert(.at(date(2026, 12, 1, 16, 30)))]))
        let bins = try slate.addTask(TaskDraft(title: "Empty the bins", parentID: clean.id))
        let bags = try slate.addTask(TaskDraft(title: "Buy bin bags", parentID: bins.id))
        _ = try slate.setCompleted([vacuum.id, bags.id], true)
        return (slate, clean, vacuum, bins, bags)
    }

    func children(_ slate: Slate, of id: UUID) throws -> [TaskItem] {
        try slate.tasks(TaskQuery(status: .all, parentID: id)).sorted { $0.order < $1.order }
    }

    @Test func theNextOccurrenceHasEverySubtaskOpenAndTheCompletedOneKeepsWhatWasDone() throws {
        let (slate, clean, vacuum, bins, bags) = try board()
        _ = try slate.setCompleted([clean.id], true)
        let next = try #require(try slate.tasks().first { $0.title == "Clean the studio" && !$0.isCompleted })
        #expect(next.id != clean.id && next.due == date(2026, 12, 8, 18, 0))

        // The completed occurrence keeps the subtask completed on it.
        #expect(try children(slate, of: clean.id).map(\.id) == [vacuum.id])
        // The next one: the open subtask moved (with what is under it), the completed one again, open.
        let carried = try children(slate, of: next.id)
        #expect(carried.map(\.title) == ["Vacuum", "Empty the bins"])
        #expect(carried.allSatisfy { !$0.isCompleted })
        #expect(carried[1].id == bins.id, "the open subtask itself moved")
        #expect(try children(slate, of: bins.id).map(\.id) == [bags.id], "its own subtasks came with it, as they were")
        let again = carried[0]
        #expect(again.id != vacuum.id)
        #expect(again.due == date(2026, 12, 8, 17, 0), "its due date moved a week, as the repeat's")
        #expect(again.alerts == [TaskAlert(.at(date(2026, 12, 8, 16, 30)))])
        #expect(try slate.task(id: vacuum.id).model.isCompleted)

        // One change: undone whole.
        try slate.undo()
        #expect(try children(slate, of: clean.id).map(\.id) == [vacuum.id, bins.id])
        #expect(try slate.tasks(TaskQuery(status: .all)).filter { $0.title == "Clean the studio" }.count == 1)
        #expect(try slate.tasks(TaskQuery(status: .all)).filter { $0.title == "Vacuum" }.count == 1)
    }

    @Test func aSubtaskCompletedWithItsParentInOneChangeIsDoneHereAndAgainNextTime() throws {
        let (slate, clean, _, bins, _) = try board()
        _ = try slate.setCompleted([clean.id, bins.id], true)
        let next = try #require(try slate.tasks().first { $0.title == "Clean the studio" && !$0.isCompleted })
        #expect(try children(slate, of: clean.id).map(\.title) == ["Vacuum", "Empty the bins"])
        #expect(try children(slate, of: clean.id).allSatisfy(\.isCompleted))
        let carried = try children(slate, of: next.id)
        #expect(carried.map(\.title) == ["Vacuum", "Empty the bins"])
        #expect(carried.allSatisfy { !$0.isCompleted } && !carried.contains { $0.id == bins.id })
        // The bin bags were done: they are there again under the new "Empty the bins".
        #expect(try children(slate, of: carried[1].id).map { ($0.title, $0.isCompleted) }.elementsEqual([("Buy bin bags", false)]) { $0 == $1 })
    }

    @Test func aTaskThatDoesNotRepeatKeepsItsSubtasks() throws {
        let (slate, _) = try makeSlate()
        let shoot = try slate.addTask(TaskDraft(title: "Shoot the pickups"))
        let sub = try slate.addTask(TaskDraft(title: "Book the crew", parentID: shoot.id))
        _ = try slate.setCompleted([shoot.id], true)
        #expect(try children(slate, of: shoot.id).map(\.id) == [sub.id])
        #expect(try slate.tasks(TaskQuery(status: .all)).count == 2)
    }
}
