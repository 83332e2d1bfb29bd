import Foundation
import SlateCore
import Testing

/// Subtasks go at most `TaskRules.maximumSubtaskDepth` levels deep on every surface, and no
/// parent cycle can be stored, however long the chain.
@Suite struct SubtaskDepthTests {
    /// A chain of `count` tasks, each a subtask of the one before; the first is top level.
    private func chain(_ slate: Slate, _ count: Int, title: String = "Level") throws -> [TaskItem] {
        var tasks: [TaskItem] = []
        for level in 1...count {
            tasks.append(try slate.addTask(TaskDraft(title: "\(title) \(level)", parentID: tasks.last?.id)))
        }
        return tasks
    }

    private let tooDeep = SlateError.invalid(
        field: "parentID",
        message: "Subtasks can be at most 16 levels deep (a task without a parent is level 1); this parent would put a subtask deeper.")
    private let cycle = SlateError.invalid(field: "parentID", message: "A task cannot be a subtask of itself or of its own subtasks.")

    @Test func aNewSubtaskGoesInItsParentsListUnlessItNamesOne() throws {
        let (slate, _) = try makeSlate()
        let story = try slate.createList(name: "Story")
        let notes = try slate.createList(name: "Notes")
        let parent = try slate.addTask(TaskDraft(title: "Draft the outline", listID: story.id))
        let child = try slate.addTask(TaskDraft(title: "Act one", parentID: parent.id))
        #expect(child.listID == story.id)
        #expect(try slate.tasks(TaskQuery(scope: .list(story.id))).map(\.id).contains(child.id))
        let elsewhere = try slate.addTask(TaskDraft(title: "Research", listID: notes.id, parentID: parent.id))
        #expect(elsewhere.listID == notes.id)
        let inboxParent = try slate.addTask(TaskDraft(title: "Loose end"))
        #expect(try slate.addTask(TaskDraft(title: "Tie it", parentID: inboxParent.id)).listID == nil)
    }

    @Test func creatingASubtaskBelowTheDeepestLevelIsRefused() throws {
        let (slate, _) = try makeSlate()
        let tasks = try chain(slate, TaskRules.maximumSubtaskDepth)
        #expect(throws: tooDeep) { try slate.addTask(TaskDraft(title: "Level 17", parentID: tasks.last!.id)) }
        #expect(try slate.count() == TaskRules.maximumSubtaskDepth, "nothing written")
    }

    @Test func movingATaskWithItsSubtasksCountsTheirLevelsToo() throws {
        let (slate, _) = try makeSlate()
        let deep = try chain(slate, 10, title: "Deep")
        let branch = try chain(slate, 7, title: "Branch")
        // Branch 1 under Deep 10 would put Branch 7 at level 17.
        #expect(throws: tooDeep) { try slate.updateTask(branch[0].id, TaskPatch(parentID: .some(deep[9].id))) }
        try slate.updateTask(branch[0].id, TaskPatch(parentID: .some(deep[8].id)))
        #expect(try slate.task(id: branch[0].id).model.parentID == deep[8].id)
    }

    /// Before the limit, the ancestor walk gave up after 1,000 steps: a chain of 1,003 let
    /// its root become a subtask of its last task, a cycle that its export could not import.
    @Test func aParentCycleIsRefusedAtAnyLengthAndTheExportImports() throws {
        let (slate, _) = try makeSlate()
        var tasks: [TaskItem] = []
        for level in 1...1_003 {
            do {
                tasks.append(try slate.addTask(TaskDraft(title: "Level \(level)", parentID: tasks.last?.id)))
            } catch let error as SlateError {
                #expect(error == tooDeep && level == TaskRules.maximumSubtaskDepth + 1)
                break
            }
        }
        #expect(tasks.count == TaskRules.maximumSubtaskDepth)
        #expect(throws: cycle) { try slate.updateTask(tasks[0].id, TaskPatch(parentID: .some(tasks.last!.id))) }
        #expect(throws: cycle) { try slate.updateTask(tasks[3].id, TaskPatch(parentID: .some(tasks[3].id))) }

        let (copy, _) = try makeSlate()
        let summary = try copy.importData(try slate.export(.json), format: .json)
        #expect(summary.tasksCreated == TaskRules.maximumSubtaskDepth)
        for format in TransferFormat.allCases where format != .todotxt {
            let (other, _) = try makeSlate()
            try other.importData(try slate.export(format), format: format)
            #expect(try other.count() == TaskRules.maximumSubtaskDepth, "\(format) export imports")
        }
    }

    @Test func anImportDeeperThanTheLimitIsRefusedNamingTheTask() throws {
        let (slate, _) = try makeSlate()
        let ids = (0...TaskRules.maximumSubtaskDepth).map { _ in UUID().uuidString.lowercased() }
        let records = ids.enumerated().map { index, id in
            #"{"id":"\#(id)","title":"Level \#(index + 1)"\#(index == 0 ? "" : #","parentID":""# + ids[index - 1] + #"""#)}"#
        }
        let file = Data(#"{"format":"slate","tasks":[\#(records.joined(separator: ","))]}"#.utf8)
        let error = try expectImportFails(slate, file, format: .json)
        #expect(error?.description == "task 17: \(tooDeep.description)")
    }

    @Test func anImportThatHangsAStoredChainTooDeepIsRefused() throws {
        let (slate, _) = try makeSlate()
        let stored = try chain(slate, 12)
        // The file puts a 5-deep chain under the stored level 12: its last task at level 17.
        let ids = (0..<5).map { _ in UUID().uuidString.lowercased() }
        let records = ids.enumerated().map { index, id in
            let parent = index == 0 ? stored.last!.id.uuidString.lowercased() : ids[index - 1]
            return #"{"id":"\#(id)","title":"File \#(index + 1)","parentID":"\#(parent)"}"#
        }
        let file = Data(#"{"format":"slate","tasks":[\#(records.joined(separator: ","))]}"#.utf8)
        let error = try expectImportFails(slate, file, format: .json)
        #expect(error?.description == "task 5: \(tooDeep.description)")
    }

    @Test func anImportThatMovesAStoredTaskKeepsItsStoredSubtasksInTheCount() throws {
        let (slate, _) = try makeSlate()
        let stored = try chain(slate, 8, title: "Stored")
        let target = try chain(slate, 9, title: "Target")
        // Stored 1 (with 7 levels below it) under Target 9: Stored 8 would be at level 17.
        let file = Data(#"""
            {"format":"slate","tasks":[{"id":"\#(stored[0].id.uuidString.lowercased())","title":"Stored 1","parentID":"\#(target.last!.id.uuidString.lowercased())"}]}
            """#.utf8)
        let error = try expectImportFails(slate, file, format: .json)
        #expect(error?.description == "task 1: \(tooDeep.description)")
    }
}
