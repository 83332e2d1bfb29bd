import Foundation
@testable import SlateCore
import SlateStore
import TestDatabases
import Testing

/// The departures a move or a delete records (what a CalDAV sync reports as gone) are kept
/// for a window of the account's changes and then deleted: the table no longer grows forever.
@Suite struct DepartureRetentionTests {
    @Test func oldDeparturesGoAndRecentOnesStay() throws {
        var configuration = try Slate.configuration(for: TestDatabase.freshStore(), password: nil)
        configuration.departureHistory = 40
        let models = configuration.postgreSQL == nil ? SlateSchema.models : SlateSchema.models + SlateSchema.serverModels
        let container = try ModelContainer(for: models, configuration: configuration)
        let account = try Slate.ensureAccount(named: Account.localName, in: container, now: Date())
        let slate = Slate(container: container, accountID: account.id)
        let lists = [try slate.createList(name: "Edit"), try slate.createList(name: "Sound")]
        let task = try slate.addTask(TaskDraft(title: "Mix the trailer", listID: lists[0].id))
        // Each move is one change of the account and one departure (from the list it left).
        for move in 1...100 { _ = try slate.updateTask(task.id, TaskPatch(listID: .some(lists[move % 2].id))) }
        let current = try slate.revision()
        let kept = try slate.makeContext().departures(of: TaskItem.self, since: 0, partition: account.id).map(\.revision)
        #expect(!kept.isEmpty && kept.allSatisfy { $0 > current - 40 - 4 }, "older ones went: \(kept.min() ?? 0) at revision \(current)")
        #expect(Set(kept).isSuperset(of: Set((current - 39)...current)), "every departure of the last 40 changes stays")
        // A delete still records its departure, and a sync within the window still sees it.
        try slate.deleteTasks([task.id])
        let since = try slate.revision() - 1
        #expect(try slate.makeContext().departures(of: TaskItem.self, since: since, partition: account.id).map(\.id) == [task.id])
    }

    /// Undoing an import records a departure for each task it deletes (with the list it was
    /// in, none for the Inbox), all at the undo's revision: a CalDAV client is told each one
    /// left its calendar. Over 500 tasks, so the delete goes in more than one chunk.
    @Test func undoingAnImportRecordsADepartureForEachOfItsTasks() throws {
        let (slate, _) = try makeSlate()
        let kept = try slate.addTask(TaskDraft(title: "Written before the import"))
        let lines = (0..<1_100).map { $0 % 3 == 0 ? "Inbox task \($0)" : "Task \($0) +Reel\($0 % 4)" }
        _ = try slate.importData(Data(lines.joined(separator: "\n").utf8), format: .todotxt)
        let imported = try slate.tasks().filter { $0.id != kept.id }
        #expect(imported.count == 1_100)
        let before = try slate.revision()

        #expect(try slate.undo() != nil)
        let undone = try slate.revision()
        let departures = try slate.makeContext().departures(of: TaskItem.self, since: before, partition: slate.accountID)
        #expect(departures.count == imported.count, "one for each task, none twice")
        #expect(Dictionary(departures.map { ($0.id, $0.group) }, uniquingKeysWith: { first, _ in first })
                == Dictionary(uniqueKeysWithValues: imported.map { ($0.id, $0.listID) }))
        #expect(departures.allSatisfy { $0.revision == undone })
        #expect(departures.contains { $0.group == nil } && departures.contains { $0.group != nil })
        #expect(try slate.tasks().map(\.id) == [kept.id])
    }
}
