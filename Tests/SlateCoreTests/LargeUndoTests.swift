import Foundation
import SlateCore
import TestDatabases
import Testing

/// Undoing a large import on the server's write line: the undo runs in a savepoint of the
/// line's transaction, whose journal grows to megabytes (on a file, SQLite 3.40.1 failed it
/// with "database or disk is full").
@Suite(.enabled(if: !TestDatabase.isPostgreSQL, "SQLite's journals"))
struct LargeUndoTests {
    @Test func undoingALargeImportOnTheWriteLineRemovesEveryTask() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("large-undo-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let slate = try Slate.open(path: path, calendar: testCalendar)
        let kept = try slate.addTask(TaskDraft(title: "Before the import"))
        let lines = (0..<30_000).map { "Imported \($0)" + ["", " +Shoot", " @phone", " due:2026-12-20"][$0 % 4] }
        let summary = try slate.importData(Data(lines.joined(separator: "\n").utf8), format: .todotxt)
        #expect(summary.tasksCreated == 30_000)

        let label = try await BoardThreads.shared.write(to: slate.container) { try slate.undo() }
        #expect(label?.contains("Import") == true, "\(label ?? "nil")")
        #expect(try slate.tasks(TaskQuery(status: .all)).map(\.id) == [kept.id])
    }
}
