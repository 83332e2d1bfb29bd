import Foundation
import SlateCore
import TestDatabases
import Testing

/// `slate migrate`'s copy: SQLite → PostgreSQL → SQLite gives the same export, the same
/// revisions and the same change feeds, for every account, and undo carries on from the
/// history that came along.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "needs SLATE_TEST_POSTGRES_URL"))
struct MigrationRoundTripTests {
    /// Everything an account's clients see, minus the moment of the export.
    func view(_ slate: Slate) throws -> (export: String, revision: Int, since: [String]) {
        let text = String(decoding: try slate.export(.json), as: UTF8.self)
            .split(separator: "\n").filter { !$0.contains("\"exported\"") }.joined(separator: "\n")
        let feeds = try [0, 2, 5].map { since -> String in
            let changes = try slate.changes(since: since)
            return "\(changes.revision) \(changes.tasks.map(\.id).sorted { $0.uuidString < $1.uuidString }) \(changes.deletedTaskIDs.sorted { $0.uuidString < $1.uuidString })"
        }
        return (text, try slate.revision(), feeds)
    }

    @Test func aBoardCopiedToPostgreSQLAndBackReadsTheSame() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Slate.open(path: folder.appendingPathComponent("a.sqlite").path, calendar: testCalendar)
        let other = Slate(container: original.container,
                          accountID: try Slate.ensureAccount(named: "ben", in: original.container, now: Date()).id, calendar: testCalendar)
        _ = try original.loadSampleBoard()
        let story = try original.createList(name: "Moved")
        let first = try original.addTask(TaskDraft(title: "First", notes: "crème brûlée", listID: story.id))
        _ = try original.setCompleted([first.id], true)
        try original.deleteTasks([try original.addTask(TaskDraft(title: "Gone")).id])
        _ = try other.addTask(TaskDraft(title: "Ben's"))
        // A task leaving its list is recorded for CalDAV sync (a departure): it must come along.
        let elsewhere = try original.createList(name: "Elsewhere")
        _ = try original.updateTask(first.id, TaskPatch(listID: .some(elsewhere.id)))
        // Sign-in secrets come along: ben signs in on the copy with what he had.
        try AccountDirectory(container: original.container).setPasswordHash("scrypt$test-hash", for: other.accountID, now: Date())
        let before = try [original, other].map(view)

        let server = try #require(TestDatabase.freshStore())
        let up = try BoardFile.migrate(original.container, to: server)
        #expect(up.revision == (try original.container.currentRevision()))
        #expect((up.rows["_slate_departures"] ?? 0) > 0)
        #expect((up.rows["_slate_commits"] ?? 0) > 0)
        let onServer = try Slate.openContainer(path: server)
        let back = folder.appendingPathComponent("b.sqlite").path
        _ = try BoardFile.migrate(onServer, to: back)
        let returned = try Slate.openContainer(path: back)
        for store in [onServer, returned] {
            let views = try [original, other].map { try view(Slate(container: store, accountID: $0.accountID, calendar: testCalendar)) }
            #expect(try AccountDirectory(container: store).passwordHash(forAccountNamed: "ben")?.1 == "scrypt$test-hash")
            for (index, view) in views.enumerated() {
                #expect(view.export == before[index].export)
                #expect(view.revision == before[index].revision)
                #expect(view.since == before[index].since)
            }
        }
        // Undo history came along: the delete is undone on the copy as on the original.
        let copied = Slate(container: returned, accountID: original.accountID, calendar: testCalendar)
        #expect(try copied.undo() == (try original.undo()))
        #expect(try view(copied).export == (try view(original).export))
        // A copy goes into an empty database only.
        #expect(throws: SlateError.self) { try BoardFile.migrate(original.container, to: server) }
    }
}
