import Foundation
@testable import SlateCore
import SlateStore
import Testing

@Suite struct TransferJSONTests {
    @Test func exportThenImportIntoAnEmptyDatabaseKeepsEveryField() throws {
        let (source, clock) = try makeSlate()
        let board = try TransferBoard(source, clock)
        let exported = try source.export(.json)

        let (target, _) = try makeSlate(at: clock)
        let summary = try target.importData(exported, format: nil)
        #expect(summary == ImportSummary(listsCreated: 2, tasksCreated: 6, tasksUpdated: 0))
        #expect(try target.export(.json) == exported, "export → import → export gives the same file")

        let sourceTasks = try comparableTasks(source)
        let targetTasks = try comparableTasks(target)
        #expect(targetTasks.count == 6)
        for (expected, actual) in zip(sourceTasks, targetTasks) {
            #expect(actual == expected, "every field of “\(expected.title)”")
        }
        #expect(try comparableLists(target) == comparableLists(source))

        // The fields most likely to drift, spelled out.
        let outline = try target.task(id: board.outline.id).model
        #expect(outline.number == board.outline.number)
        #expect(outline.notes == TransferBoard.outlineNotes)
        #expect(outline.due == date(2026, 11, 27) && outline.isAllDay)
        #expect(outline.recurrence == Recurrence(.weekly, interval: 2) && outline.alerts == [TaskAlert(.beforeDue(seconds: 900))])
        #expect(outline.priority == .critical && outline.isFlagged && outline.tags == ["writing", "act-2"])
        let scene = try target.task(id: board.scene.id).model
        #expect(scene.parentID == board.outline.id && scene.due == date(2026, 12, 1, 9, 30) && !scene.isAllDay)
        #expect(try target.task(id: board.dialogue.id).model.order == 1.5)
        let budget = try target.task(id: board.budget.id).model
        #expect(budget.isCompleted && budget.completedAt == board.budget.completedAt && budget.modified == board.budget.modified)
        #expect(budget.listID == board.bigShoot.id)
        #expect(try target.task(id: board.milk.id).model.listID == nil)
    }

    @Test func theFileHasTheDocumentedShape() throws {
        let (slate, _) = try makeSlate()
        let list = try slate.createList(name: "Story", color: "#FF6B6B", icon: "book")
        let task = try slate.addTask(TaskDraft(title: "Write \"Act 2\"", listID: list.id, priority: .high,
                                               due: DueDate(date: date(2026, 12, 24), isAllDay: true), tags: ["writing"]))
        let id = task.id.uuidString.lowercased()
        let listID = list.id.uuidString.lowercased()
        let text = String(decoding: try slate.export(.json), as: UTF8.self)
        #expect(text == """
            {
              "format": "slate",
              "version": 2,
              "exported": "2026-11-29T09:15:00.000Z",
              "lists": [
                {"activeCount":1,"color":"#FF6B6B","created":"2026-11-29T09:15:00.000Z","icon":"book","id":"\(listID)","name":"Story","order":1.0}
              ],
              "tasks": [
                {"alerts":["0d@09:00"],"completedAt":null,"created":"2026-11-29T09:15:00.000Z","due":"2026-12-24","id":"\(id)","isAllDay":true,"isCompleted":false,"isFlagged":false,"isOverdue":false,"list":"Story","listId":"\(listID)","modified":"2026-11-29T09:15:00.000Z","notes":"","number":1,"order":1.0,"parentId":null,"priority":"high","recurrence":null,"subtaskCount":{"active":0,"total":0},"tags":["writing"],"title":"Write \\"Act 2\\""}
              ]
            }

            """)
    }

    @Test func aVersion1FileIsStillRead() throws {
        let (slate, _) = try makeSlate()
        let listID = "6f1c1e0a-0000-4000-8000-00000000000a"
        let file = #"{"format":"slate","version":1,"lists":[{"id":"\#(listID)","name":"Story"}],"tasks":[{"title":"Outline","listID":"\#(listID)","recurrence":"weekly/2"}]}"#
        try slate.importData(Data(file.utf8), format: .json)
        let task = try #require(try slate.tasks().first)
        #expect(task.listID == UUID(uuidString: listID) && task.recurrence == Recurrence(.weekly, interval: 2))
        // Its export is version 2, and reads back the same.
        let exported = try slate.export(.json)
        let (copy, _) = try makeSlate()
        try copy.importData(exported, format: .json)
        let again = try #require(try copy.tasks().first)
        #expect(again.listID == task.listID && again.recurrence == task.recurrence && again.id == task.id)
        let refused = try expectImportFails(copy, Data(#"{"format":"slate","version":2,"tasks":[{"title":"a","recurrence":"every blue moon"}]}"#.utf8), format: .json)
        #expect(refused?.field == "recurrence")
    }

    @Test func importingAgainUpdatesByIDAndUndoesAsOneStep() throws {
        let (source, clock) = try makeSlate()
        let board = try TransferBoard(source, clock)
        let exported = try source.export(.json)
        let (target, _) = try makeSlate(at: clock)
        try target.importData(exported, format: .json)
        #expect(try target.undo() == "Import 6 tasks")
        #expect(try target.count() == 0 && target.lists().isEmpty, "undo removes the whole import")
        try target.importData(exported, format: .json)

        try target.updateTask(board.milk.id, TaskPatch(title: "Buy oat milk", priority: .high))
        // Only the task that differs from the file is written back; the five as the file holds
        // them are left alone.
        let again = try target.importData(exported, format: .json)
        #expect(again == ImportSummary(listsCreated: 0, tasksCreated: 0, tasksUpdated: 1))
        let milk = try target.task(id: board.milk.id).model
        #expect(milk.title == "Buy milk" && milk.priority == .low && milk.number == board.milk.number)
        #expect(try target.count() == 6 && target.lists().count == 2)
    }

    /// Importing a file again that the board already holds as it is writes nothing: no
    /// update, no change for sync clients, nothing to undo.
    @Test func importingTheSameFileAgainWritesNothing() throws {
        let (source, clock) = try makeSlate()
        _ = try TransferBoard(source, clock)
        let exported = try source.export(.json)
        let (target, _) = try makeSlate(at: clock)
        try target.importData(exported, format: .json)
        let revision = try target.revision()
        let again = try target.importData(exported, format: .json)
        #expect(again == ImportSummary(listsCreated: 0, tasksCreated: 0, tasksUpdated: 0))
        #expect(try target.revision() == revision, "no commit")
        #expect(try target.undo() == "Import 6 tasks", "the first import is still the last change")
    }

    @Test func listsMatchByNameWhenTheIDIsUnknownAndTakenNumbersAreReassigned() throws {
        let (source, clock) = try makeSlate()
        let board = try TransferBoard(source, clock)
        let exported = try source.export(.json)

        let (target, _) = try makeSlate(at: clock)
        let existing = try target.createList(name: "STORY", color: "#000000")
        let first = try target.addTask(TaskDraft(title: "Already here"))
        let second = try target.addTask(TaskDraft(title: "Also here"))
        let summary = try target.importData(exported, format: .json)
        #expect(summary == ImportSummary(listsCreated: 1, tasksCreated: 6, tasksUpdated: 0))

        let outline = try target.task(id: board.outline.id).model
        #expect(outline.listID == existing.id, "the file's Story is the existing STORY")
        #expect(try target.list(id: existing.id).model.color == "#000000", "a list matched by name keeps its own colour")
        #expect(try target.task(id: first.id).model.number == 1 && target.task(id: second.id).model.number == 2)
        let numbers = try target.tasks().map(\.number)
        #expect(Set(numbers).count == 8, "every task keeps a number of its own")
        #expect(try target.task(id: board.poster.id).model.number == board.poster.number,
                "#\(board.poster.number) was free, so it is kept")
    }

    @Test func idsOfAnotherAccountAreNeverTakenOver() throws {
        let (slate, clock) = try makeSlate()
        let board = try TransferBoard(slate, clock)
        let exported = try slate.export(.json)
        let before = try comparableTasks(slate)

        let other = try Slate.ensureAccount(named: "alice", in: slate.container, now: clock.now)
        let alice = Slate(container: slate.container, accountID: other.id, calendar: testCalendar, clock: { clock.now })
        let summary = try alice.importData(exported, format: nil)
        #expect(summary == ImportSummary(listsCreated: 2, tasksCreated: 6, tasksUpdated: 0))
        #expect(try comparableTasks(slate) == before, "the first account's tasks are untouched")
        let copies = try alice.tasks()
        #expect(!copies.contains { $0.id == board.outline.id })
        let outline = try #require(copies.first { $0.title == "Write Act 2 outline" })
        let scene = try #require(copies.first { $0.title == "Outline scene 3" })
        #expect(scene.parentID == outline.id, "references follow the new ids")
        #expect(try alice.lists().map(\.list.name) == ["Story", "Big Shoot"])
    }

    @Test func aSubtaskImportedUnderATaskOfTheAccountMovesThatTasksRevisionAndCount() throws {
        let (slate, _) = try makeSlate()
        let parent = try slate.addTask(TaskDraft(title: "Shoot day 3"))
        let before = try slate.task(id: parent.id).revision
        let since = try slate.revision()
        let file = #"{"format":"slate","tasks":[{"title":"Book the crane","parentID":"\#(parent.id.uuidString)"}]}"#
        try slate.importData(Data(file.utf8), format: .json)
        // As when the subtask is added any other way: the parent is part of the change.
        #expect(try slate.task(id: parent.id).revision > before)
        #expect(try slate.changes(since: since).tasks.contains { $0.id == parent.id })
        #expect(try slate.subtaskCounts(of: [parent.id])[parent.id] == SubtaskCount(active: 1, total: 1))
    }

    @Test func aHandWrittenFileNeedsOnlyTitlesAndNames() throws {
        let (slate, clock) = try makeSlate()
        let file = #"{"format":"slate","lists":[{"name":"Errands"}],"tasks":[{"title":"  Buy milk "},{"title":"Call Bob","due":"2026-12-02T08:00:00Z","priority":"!!!"}]}"#
        let summary = try slate.importData(Data(file.utf8), format: nil)
        #expect(summary == ImportSummary(listsCreated: 1, tasksCreated: 2, tasksUpdated: 0))
        let tasks = try slate.tasks(TaskQuery(sort: .manual))
        #expect(tasks.map(\.title) == ["Buy milk", "Call Bob"])
        #expect(tasks.map(\.number) == [1, 2] && tasks.map(\.order) == [1, 2])
        #expect(tasks[1].due == date(2026, 12, 2, 9) && !tasks[1].isAllDay && tasks[1].priority == .high)
        #expect(tasks[0].created == clock.now && tasks[0].priority == Priority.none)
    }

    @Test(arguments: [
        (#"{"format":"slate","tasks":[{"title":"ok"},{"title":"x","priority":"urgent"}]}"#,
         "task 2: priority must be one of none, low, medium, high, critical (or 0–4, or ! to !!!!); got 'urgent'"),
        (#"{"format":"slate","tasks":[{"title":" "}]}"#, "task 1: The title cannot be blank."),
        (#"{"format":"slate","tasks":[{"title":"a","due":"2026-13-01"}]}"#, "task 1: due has an invalid date '2026-13-01'"),
        (#"{"format":"slate","tasks":[{"title":"a","isFlagged":"yes"}]}"#, "task 1: isFlagged must be true or false; got \"yes\""),
        (#"{"format":"slate","tasks":[{"title":"a","due":"2026-12-01","isAllDay":false}]}"#,
         "task 1: due must be a moment such as 2026-12-24T09:00:00.000Z when isAllDay is false; got '2026-12-01'"),
        (#"{"format":"slate","tasks":[{"title":"a","recurrence":"fortnightly"}]}"#,
         "task 1: recurrence must be daily, weekly, monthly or yearly, with /interval for more than 1 (weekly/2); got 'fortnightly'"),
        (#"{"format":"slate","tasks":[{"title":"a","parentID":"6f1c1e0a-0000-4000-8000-000000000001"}]}"#,
         "task 1: parentID names no task in the file or the database: '6f1c1e0a-0000-4000-8000-000000000001'"),
        (#"{"format":"slate","tasks":[{"title":"a","listID":"6f1c1e0a-0000-4000-8000-000000000002"}]}"#,
         "task 1: listID names no list in the file or the database: '6f1c1e0a-0000-4000-8000-000000000002'"),
        (#"{"format":"slate","tasks":[{"id":"6f1c1e0a-0000-4000-8000-000000000003","title":"a","parentID":"6f1c1e0a-0000-4000-8000-000000000004"},{"id":"6f1c1e0a-0000-4000-8000-000000000004","title":"b","parentID":"6f1c1e0a-0000-4000-8000-000000000003"}]}"#,
         "task 1: A task cannot be a subtask of itself or of its own subtasks."),
        (#"{"format":"slate","tasks":[{"id":"6f1c1e0a-0000-4000-8000-000000000005","title":"a"},{"id":"6F1C1E0A-0000-4000-8000-000000000005","title":"b"}]}"#,
         "task 2: id 6f1c1e0a-0000-4000-8000-000000000005 appears twice in the file (also task 1)."),
        (#"{"format":"slate","lists":[{"name":"Story"},{"name":"story"}]}"#, "list 2: The list \"story\" appears twice in the file (also list 1)."),
        (#"{"format":"slate","lists":[{"name":"Story","color":"red"}]}"#,
         "list 1: The colour must be #RRGGBB, six hexadecimal digits such as #FF6B6B; got 'red'."),
        (#"{"format":"slate","version":3,"tasks":[]}"#, "The file is version 3 of Slate's format; this Slate reads versions 1 to 2."),
        (#"{"format":"slate","tasks":[{"title":"a"}"#, nil),
        ("{\"format\":\"slate\",\n\"tasks\":[{\"title\":\"a\"},]}", "line 2: The file is not valid JSON: a comma follows the last member of an object or array."),
    ] as [(String, String?)])
    func aMalformedFileChangesNothingAndSaysWhere(file: String, message: String?) throws {
        let (slate, clock) = try makeSlate()
        _ = try TransferBoard(slate, clock)
        let error = try expectImportFails(slate, Data(file.utf8), format: .json)
        if let message {
            #expect(error?.description == message)
        } else {
            #expect(error?.location == .file)
            #expect(error?.description.hasPrefix("The file is not valid JSON: ") == true, "\(String(describing: error))")
        }
    }

    @Test func aFileThatIsNotASlateExportIsRefusedAsJSON() throws {
        let (slate, _) = try makeSlate()
        let error = try expectImportFails(slate, Data("[]".utf8), format: .json)
        #expect(error?.description == "The file is not a Slate export: it has no \"format\": \"slate\" at the top.")
    }
}

@Suite struct TransferTimestampTests {
    /// The fast reader of exported timestamps must agree with `Timestamp.parse` to the bit.
    @Test func theFastPathReadsWhatTimestampParseReads() throws {
        var generator = SystemRandomNumberGenerator()
        var samples = [Date(timeIntervalSince1970: 0), date(2024, 2, 29, 23, 59), date(1900, 1, 1), date(2100, 12, 31, 12),
                       Date(timeIntervalSince1970: -1.5), Date(timeIntervalSince1970: 951_782_400.999)]
        for _ in 0..<2000 {
            samples.append(Date(timeIntervalSince1970: Double(Int64.random(in: -5_000_000_000_000...7_000_000_000_000, using: &generator)) / 1000))
        }
        for sample in samples {
            let text = Timestamp.format(sample)
            let fast = try #require(JSONRecord.exportedTimestamp(text), "\(text)")
            #expect(fast == Timestamp.parse(text), "\(text)")
            #expect(fast == Timestamp.truncatedToMilliseconds(sample), "\(text)")
        }
        #expect(JSONRecord.exportedTimestamp("2026-02-29T00:00:00.000Z") == nil)
        #expect(JSONRecord.exportedTimestamp("2026-11-29T09:15:00Z") == nil, "other shapes go to Timestamp.parse")
    }
}
