import Foundation
import SlateCore
import Synchronization
import TestDatabases
import Testing

/// Two schedulers on one database — two `slate serve` nodes on PostgreSQL (on SQLite, two
/// processes on one file) — fire and send every alert exactly once between them, however
/// their passes interleave.
@Suite struct AlertNodesTests {
    @Test func twoSchedulersOnOneDatabaseSendEachAlertOnce() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nodes-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = TestDatabase.sharedURL(path: path) ?? path
        let clock = TestClock(date(2026, 11, 29, 10, 15))
        let first = try Slate.open(path: database, calendar: testCalendar, clock: { clock.now })
        try first.saveTimeZone()
        let second = try Slate.open(path: database, calendar: testCalendar, clock: { clock.now })
        let channel = RecordingChannel()
        let schedulers = [first, second].map {
            AlertScheduler(container: $0.container, channels: [channel], clock: { clock.now })
        }
        var tasks: [TaskItem] = []
        for minute in 0..<12 {
            tasks.append(try first.addTask(TaskDraft(title: "Task \(minute)", due: DueDate(date: date(2026, 11, 29, 10, 20 + minute), isAllDay: false),
                                                     alerts: [try TaskAlert(parsing: "due")])))
        }
        // Both nodes pass at once, again and again, as the clock moves past every due time.
        for step in 1...18 {
            clock.advance(by: 60)
            await withTaskGroup(of: Void.self) { group in
                for scheduler in schedulers {
                    group.addTask {
                        // A pass refused because the other node did the same step first is
                        // what `run()` retries; the next round does it here.
                        for _ in 0..<3 {
                            do {
                                try scheduler.syncCursors()
                                try scheduler.fireDue()
                                _ = try await scheduler.deliverPending()
                                return
                            } catch {
                                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...20)))
                            }
                        }
                    }
                }
            }
            _ = step
        }
        for scheduler in schedulers {
            try scheduler.syncCursors()
            try scheduler.fireDue()
            _ = try await scheduler.deliverPending()
        }
        for task in tasks {
            let sent = channel.sent.filter { $0.task.id == task.id }
            // One delivery per device (the channel has two), each sent once, never marked a repeat.
            #expect(sent.map(\.channel).sorted() == ["test:a", "test:b"], "\(task.title): \(sent.map(\.channel))")
            #expect(Set(sent.map(\.deliveryID)).count == sent.count)
            #expect(sent.allSatisfy { !$0.mayBeRepeat })
        }
    }
}
