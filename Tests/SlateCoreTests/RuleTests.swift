import Foundation
import SlateCore
import SlateStore
import Testing

@Suite struct TaskRuleTests {
    @Test func titlesAreTrimmedAndBlankOnesRefused() throws {
        let (slate, _) = try makeSlate()
        let task = try slate.addTask(TaskDraft(title: "  Write outline \n"))
        #expect(task.title == "Write outline")
        #expect(task.number == 1)
        #expect(task.priority == .medium, "the full form defaults to medium")
        #expect(throws: SlateError.invalid(field: "title", message: "The title cannot be blank.")) {
            try slate.addTask(TaskDraft(title: " \t "))
        }
        #expect(try slate.count() == 1, "nothing written for the refused task")
    }

    @Test func listNamesAreUniqueIgnoringCaseAndColoursAreChecked() throws {
        let (slate, _) = try makeSlate()
        let story = try slate.createList(name: " Story ", color: "ff6b6b")
        #expect(story.name == "Story" && story.color == "#FF6B6B")
        // The error names the list that has the name, as it is spelled there.
        #expect(throws: SlateError.duplicateListName("Story")) { try slate.createList(name: "STORY") }
        let error = #expect(throws: SlateError.self) { try slate.createList(name: "Sound", color: "red") }
        #expect(error?.field == "color")
        #expect(error?.description == "The colour must be #RRGGBB, six hexadecimal digits such as #FF6B6B; got 'red'.")
        let sound = try slate.createList(name: "Sound")
        #expect(throws: SlateError.duplicateListName("Story")) { try slate.updateList(sound.id, name: "story") }
    }

    @Test func overdueMeansPastDueAndNotCompletedWithAllDayTasksOverdueOnlyAfterTheirDay() throws {
        let (slate, clock) = try makeSlate()
        let earlierToday = try slate.addTask(TaskDraft(title: "Timed, this morning", due: DueDate(date: date(2026, 11, 29, 9), isAllDay: false)))
        let today = try slate.addTask(TaskDraft(title: "All day today", due: DueDate(date: date(2026, 11, 29), isAllDay: true)))
        let yesterday = try slate.addTask(TaskDraft(title: "All day yesterday", due: DueDate(date: date(2026, 11, 28), isAllDay: true)))
        let done = try slate.addTask(TaskDraft(title: "Done late", due: DueDate(date: date(2026, 11, 1), isAllDay: true)))
        try slate.setCompleted([done.id], true)

        let overdue = try slate.tasks(TaskQuery(scope: .overdue)).map(\.title)
        #expect(overdue == ["Timed, this morning", "All day yesterday"])
        #expect(earlierToday.isOverdue(now: clock.now, calendar: testCalendar))
        #expect(!today.isOverdue(now: clock.now, calendar: testCalendar))
        #expect(yesterday.isOverdue(now: clock.now, calendar: testCalendar))
        #expect(try !slate.task(id: done.id).model.isOverdue(now: clock.now, calendar: testCalendar))
        clock.advance(by: 86_400)
        #expect(try slate.tasks(TaskQuery(scope: .overdue)).count == 3)
    }

    @Test func completingARepeatingTaskCreatesTheNextOccurrenceExactlyOnce() throws {
        let (slate, _) = try makeSlate()
        let weekly = try slate.addTask(TaskDraft(
            title: "Dailies review", due: DueDate(date: date(2026, 11, 30, 17), isAllDay: false), tags: ["Review"],
            recurrence: Recurrence(.weekly)))
        try slate.setCompleted([weekly.id], true)
        try slate.setCompleted([weekly.id], false)
        try slate.setCompleted([weekly.id], true)

        let all = try slate.tasks(TaskQuery(sort: .due))
        #expect(all.count == 2)
        let next = try #require(all.first { !$0.isCompleted })
        #expect(next.due == date(2026, 12, 7, 17))
        #expect(next.recurrence == Recurrence(.weekly))
        #expect(next.tags == ["review"])
        #expect(next.number == 2)
        #expect(try slate.task(id: weekly.id).model.recurrence == nil)
    }

    @Test func deletingAListKeepsOrDeletesItsTasksAsAsked() throws {
        let (slate, _) = try makeSlate()
        let story = try slate.createList(name: "Story")
        let sound = try slate.createList(name: "Sound")
        try slate.addTask(TaskDraft(title: "Outline", listID: story.id))
        try slate.addTask(TaskDraft(title: "Foley", listID: sound.id))

        try slate.deleteList(story.id, tasks: .keepTasks)
        #expect(try slate.tasks(TaskQuery(scope: .inbox)).map(\.title) == ["Outline"])
        try slate.deleteList(sound.id, tasks: .deleteTasks)
        #expect(try slate.tasks().map(\.title) == ["Outline"])
        #expect(try slate.lists().isEmpty)
    }

    @Test func clearCompletedIsOneBatchThatOneUndoRestores() throws {
        let (slate, _) = try makeSlate()
        let story = try slate.createList(name: "Story")
        let tasks = try (0..<5).map { try slate.addTask(TaskDraft(title: "Task \($0)", listID: $0 < 3 ? story.id : nil)) }
        try slate.setCompleted(tasks.map(\.id), true)
        #expect(try slate.clearCompleted(in: story.id) == 3)
        #expect(try slate.count() == 2)
        #expect(try slate.clearCompleted() == 2)
        #expect(try slate.count() == 0)
        #expect(try slate.undo() == "Clear 2 completed")
        #expect(try slate.undo() == "Clear 3 completed")
        #expect(try slate.count() == 5)
        #expect(try slate.redo() == "Clear 3 completed")
        #expect(try slate.count() == 2)
    }

    @Test func deletingAParentDeletesItsSubtasks() throws {
        let (slate, _) = try makeSlate()
        let parent = try slate.addTask(TaskDraft(title: "Light the bedroom"))
        try slate.addTask(TaskDraft(title: "Key light", parentID: parent.id))
        try slate.addTask(TaskDraft(title: "Fill light", parentID: parent.id))
        #expect(try slate.tasks(TaskQuery(parentID: parent.id)).count == 2)
        try slate.deleteTasks([parent.id])
        #expect(try slate.count() == 0)
    }

    @Test func aTaskCannotBecomeItsOwnAncestor() throws {
        let (slate, _) = try makeSlate()
        let parent = try slate.addTask(TaskDraft(title: "Parent"))
        let child = try slate.addTask(TaskDraft(title: "Child", parentID: parent.id))
        let error = #expect(throws: SlateError.self) { try slate.updateTask(parent.id, TaskPatch(parentID: child.id)) }
        #expect(error?.field == "parentID")
    }

    @Test func staleEditsAreRefused() throws {
        let (slate, _) = try makeSlate()
        let task = try slate.addTask(TaskDraft(title: "Budget"))
        let read = try slate.task(id: task.id)
        try slate.updateTask(task.id, TaskPatch(title: "Budget v2"))
        #expect(throws: SlateError.self) {
            try slate.updateTask(task.id, TaskPatch(title: "Budget v3"), expectedRevision: read.revision)
        }
        #expect(try slate.task(id: task.id).model.title == "Budget v2")
    }

    @Test func tasksAreFoundByNumberOrIdPrefix() throws {
        let (slate, _) = try makeSlate()
        let task = try slate.addTask(TaskDraft(title: "Find me"))
        #expect(try slate.task(reference: "#1").model.id == task.id)
        #expect(try slate.task(reference: "1").model.id == task.id)
        let prefix = String(task.id.uuidString.prefix(6)).lowercased()
        #expect(try slate.task(reference: prefix).model.id == task.id)
        // A prefix of digits only is still found when no task has that number.
        let digits = TaskItem(id: UUID(uuidString: "63896400-0000-4000-8000-000000000001")!, accountID: slate.accountID, title: "Digits")
        let context = ModelContext(slate.container)
        context.insert(digits)
        try context.save()
        #expect(try slate.task(reference: "638964").model.id == digits.id)
        #expect(throws: SlateError.notFound("task #638964")) { try slate.task(reference: "#638964") }
        #expect(throws: SlateError.notFound("task #9")) { try slate.task(reference: "9") }
        #expect(throws: SlateError.self) { try slate.task(reference: "zz") }
    }

    @Test func manualOrderPutsAMovedTaskBetweenItsNewNeighbours() throws {
        let (slate, _) = try makeSlate()
        let a = try slate.addTask(TaskDraft(title: "A"))
        let b = try slate.addTask(TaskDraft(title: "B"))
        let c = try slate.addTask(TaskDraft(title: "C"))
        try slate.moveTask(c.id, before: a.id)
        #expect(try slate.tasks(TaskQuery(sort: .manual)).map(\.title) == ["C", "A", "B"])
        try slate.moveTask(c.id, before: b.id)
        #expect(try slate.tasks(TaskQuery(sort: .manual)).map(\.title) == ["A", "C", "B"])
        try slate.moveTask(a.id, before: nil)
        #expect(try slate.tasks(TaskQuery(sort: .manual)).map(\.title) == ["C", "B", "A"])
    }
}

@Suite struct QueryTests {
    func sampleSlate() throws -> (Slate, TestClock) {
        let (slate, clock) = try makeSlate()
        #expect(try slate.loadSampleBoard())
        return (slate, clock)
    }

    @Test func theSampleBoardLoadsOnceAndSortsCriticalFirst() throws {
        let (slate, clock) = try sampleSlate()
        #expect(try slate.loadSampleBoard() == false, "idempotent")
        #expect(try slate.lists().map(\.list.name) == ["Story", "Animation", "Lighting", "Sound", "Production"])
        #expect(try slate.lists().map(\.activeCount) == [2, 2, 1, 2, 1])
        let titles = try slate.tasks().map(\.title)
        #expect(titles.count == 8)
        #expect(Set(titles.prefix(2)) == ["Lock final production budget", "Write Act 2 outline"])
        let outline = try #require(try slate.tasks().first { $0.title == "Write Act 2 outline" })
        #expect(outline.isOverdue(now: clock.now, calendar: testCalendar))
        #expect(try slate.tasks(TaskQuery(scope: .overdue)).map(\.title) == ["Write Act 2 outline"])
    }

    @Test(arguments: [
        (TaskQuery(scope: .today), ["Write Act 2 outline"]),
        (TaskQuery(scope: .scheduled, sort: .due), ["Write Act 2 outline", "Lock final production budget", "Storyboard the inciting incident", "Rig Buzz Lightyear's wings", "Compose Woody's theme variation", "Light the bedroom sequence"]),
        (TaskQuery(sort: .due, limit: 2, offset: 5), ["Light the bedroom sequence", "Animate crowd scene in toy store"]),
        (TaskQuery(search: "WOODY"), ["Write Act 2 outline", "Compose Woody's theme variation"]),
        (TaskQuery(search: "theme", priority: .high), ["Compose Woody's theme variation"]),
        (TaskQuery(priority: .low), ["Record foley for Pizza Planet truck"]),
        (TaskQuery(sort: .title, limit: 3), ["Animate crowd scene in toy store", "Compose Woody's theme variation", "Light the bedroom sequence"]),
        (TaskQuery(scope: .inbox), []),
    ])
    func scopesFiltersAndSorts(query: TaskQuery, expected: [String]) throws {
        let (slate, _) = try sampleSlate()
        #expect(try slate.tasks(query).map(\.title) == expected)
    }

    @Test func listScopeFlaggedCompletedAndTags() throws {
        let (slate, _) = try sampleSlate()
        let sound = try slate.requireList(named: "sound")
        #expect(try slate.tasks(TaskQuery(scope: .list(sound.id))).count == 2)
        let foley = try #require(try slate.tasks(TaskQuery(search: "foley")).first)
        try slate.setFlagged([foley.id], true)
        try slate.updateTask(foley.id, TaskPatch(tags: ["@Truck", "sfx", "truck"]))
        #expect(try slate.tasks(TaskQuery(scope: .flagged)).map(\.title) == [foley.title])
        #expect(try slate.task(id: foley.id).model.tags == ["truck", "sfx"])
        #expect(try slate.tasks(TaskQuery(tag: "@TRUCK")).map(\.id) == [foley.id])
        try slate.setCompleted([foley.id], true)
        #expect(try slate.tasks(TaskQuery(scope: .completed)).map(\.id) == [foley.id])
        #expect(try slate.tasks(TaskQuery(scope: .list(sound.id), status: .active)).count == 1)
        #expect(try slate.tasks().last?.id == foley.id, "completed tasks sort after active ones")
        #expect(throws: SlateError.notFound("list named \"Sond\" — did you mean \"Sound\"?")) { try slate.requireList(named: "Sond") }
    }

    @Test func statisticsCountTheBoard() throws {
        let (slate, clock) = try sampleSlate()
        let budget = try #require(try slate.tasks(TaskQuery(search: "budget")).first)
        clock.advance(by: 3_600)
        try slate.setCompleted([budget.id], true)
        let stats = try slate.statistics()
        #expect(stats.total == 8 && stats.active == 7 && stats.completed == 1)
        #expect(stats.completedToday == 1 && stats.overdue == 1)
        #expect(stats.activeByPriority[.critical] == 1 && stats.activeByPriority[.high] == 3 && stats.activeByPriority[Priority.none] == 0)
        #expect(stats.byList.first { $0.name == "Production" }.map { ($0.active, $0.total) } ?? (9, 9) == (0, 1))
        let mean = try #require(stats.meanTimeToComplete)
        #expect(abs(mean - 3_601) < 0.001, "created 1 s before the load, completed an hour later")
        #expect(stats.completionsPerDay.count == 28)
        #expect(stats.completionsPerDay.last?.count == 1)
        #expect(stats.completionsPerDay.last?.day == date(2026, 11, 29))
    }
}
